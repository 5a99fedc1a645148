// SRFI 115 over RE2: random patterns written as SREs agree with the same patterns in RE2's string syntax; a pathological pattern stays linear.
import test from "ava";
import fc from "fast-check";
import RE2 from "re2";
import { writeToString } from "../../../interpreter/api.js";
import { makeInterp } from "../../helpers/interp.js";

/** A random pattern over the letters a, b, c: its SRE text and its RE2 text, built from one tree. */
type Pat = { sre: string; re: string };
const letter = fc.constantFrom("a", "b", "c");
const pattern: fc.Arbitrary<Pat> = fc.letrec<{ p: Pat }>((tie) => ({
  p: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    letter.map((l) => ({ sre: `"${l}"`, re: l })),
    fc.uniqueArray(letter, { minLength: 1, maxLength: 3 }).map((ls) => ({ sre: `("${ls.join("")}")`, re: `[${ls.join("")}]` })),
    fc.array(tie("p"), { minLength: 1, maxLength: 3 }).map((ps) => ({ sre: `(: ${ps.map((p) => p.sre).join(" ")})`, re: `(?:${ps.map((p) => p.re).join("")})` })),
    fc.array(tie("p"), { minLength: 1, maxLength: 3 }).map((ps) => ({ sre: `(or ${ps.map((p) => p.sre).join(" ")})`, re: `(?:${ps.map((p) => p.re).join("|")})` })),
    tie("p").map((p) => ({ sre: `(* ${p.sre})`, re: `(?:${p.re})*` })),
    tie("p").map((p) => ({ sre: `(+ ${p.sre})`, re: `(?:${p.re})+` })),
    tie("p").map((p) => ({ sre: `(? ${p.sre})`, re: `(?:${p.re})?` })),
    tie("p").map((p) => ({ sre: `(*? ${p.sre})`, re: `(?:${p.re})*?` })),
    fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 }), tie("p")).map(([n, k, p]) => ({ sre: `(** ${n} ${n + k} ${p.sre})`, re: `(?:${p.re}){${n},${n + k}}` })),
    tie("p").map((p) => ({ sre: `($ ${p.sre})`, re: `(${p.re})` })),
    tie("p").map((p) => ({ sre: `(w/nocase ${p.sre})`, re: `(?i:${p.re})` })),
  ),
})).p;
const text = fc.stringMatching(/^[abcAB]{0,12}$/);

test("random SREs and the same patterns as RE2 strings find the same first match and submatches on random texts", async (t) => {
  const { interp } = makeInterp();
  await interp.evaluate("(import (srfi 115))");
  await interp.evaluate(`(define (first-match sre s)
    (let ((m (regexp-search sre s)))
      (and m (let loop ((i (regexp-match-count m)) (acc '()))
               (if (< i 0) acc (loop (- i 1) (cons (list (regexp-match-submatch-start m i) (regexp-match-submatch-end m i)) acc)))))))`);
  let checked = 0;
  await fc.assert(
    fc.asyncProperty(pattern, fc.array(text, { minLength: 1, maxLength: 4 }), async (p, texts) => {
      const re = new RE2(p.re, "ud");
      for (const s of texts) {
        const got = writeToString(await interp.evaluate(`(first-match '${p.sre} ${JSON.stringify(s)})`), "write");
        const m = re.exec(s);
        const want = m === null ? "#f" : "(" + (m.indices as ([number, number] | undefined)[]).map((ix) => (ix === undefined ? "(#f #f)" : `(${ix[0]} ${ix[1]})`)).join(" ") + ")";
        if (got !== want) return false;
        checked++;
      }
      return true;
    }),
    { numRuns: 300, seed: 20261202 },
  );
  t.true(checked >= 300);
});

test("a pathological pattern is linear: (: (+ (+ \"a\")) \"b\") over 200,000 a's finds no match, and regexp-matches of (* (or \"a\" \"aa\")) succeeds", async (t) => {
  const { interp } = makeInterp();
  await interp.evaluate("(import (srfi 115))");
  // A backtracking engine takes exponential time on both; RE2's automaton one pass.
  t.is(writeToString(await interp.evaluate(`(regexp-search '(: (+ (+ "a")) "b") (make-string 200000 #\\a))`), "write"), "#f");
  t.is(writeToString(await interp.evaluate(`(regexp-matches? '(: (* (or "a" "aa")) eos) (make-string 200000 #\\a))`), "write"), "#t");
  // The search charges the evaluation's budget by the text's length: a tight step limit stops it.
  const out = await interp.evaluateOutcome(`(regexp-search '(: (+ "a") "b") (make-string 4000000 #\\a))`, { limits: { steps: 50_000 } });
  t.false(out.ok);
  t.is(out.ok ? null : out.condition?.kind, "limit");
});
