// Line search over bytes: the literal prefilter finds exactly the lines RE2 alone finds.
import test from "ava";
import fc from "fast-check";
import { compilePattern, type LinePattern } from "../../../host/search/index.js";
import { exactLiteral, requiredLiterals } from "../../../host/search/prefilter.js";
import { forEachMatchingLine } from "../../../host/search/lines.js";

const lits = (p: string) => requiredLiterals(p)?.map((b) => b.toString());

test("simple patterns have required literals", (t) => {
  t.deepEqual(lits("hasOwnProperty"), ["hasOwnProperty"]);
  t.deepEqual(lits("TODO|FIXME|XXX"), ["TODO", "FIXME", "XXX"]);
  t.deepEqual(lits("\\bvalue\\b"), ["value"]);
  t.deepEqual(lits("^func main$"), ["func main"]);
  t.deepEqual(lits("a\\.b\\(c\\)"), ["a.b(c)"]);
  t.deepEqual(lits("été|été"), ["été"]);
  t.deepEqual(lits("-v"), ["-v"]);
});

test("anything else has none", (t) => {
  for (const p of ["(?i)todo", "a.b", "ab*", "a+", "a?", "[ab]", "(a|b)", "a{2}", "\\d", "\\n", "\\x41", "\\Qa.b\\E", "a|", "", "^$", "\\", "a\nb"]) {
    t.is(requiredLiterals(p), null, JSON.stringify(p));
  }
});

test("a pattern that is one literal, with \\b at its ends or not, is confirmed without RE2", (t) => {
  const ex = (p: string) => {
    const e = exactLiteral(p);
    return e === null ? null : [e.lit.toString(), e.boundaryBefore, e.boundaryAfter];
  };
  t.deepEqual(ex("hasOwnProperty"), ["hasOwnProperty", false, false]);
  t.deepEqual(ex("\\bvalue\\b"), ["value", true, true]);
  t.deepEqual(ex("\\bvalue"), ["value", true, false]);
  t.deepEqual(ex("value\\b"), ["value", false, true]);
  t.deepEqual(ex("a\\.b"), ["a.b", false, false]);
  t.deepEqual(ex("\\b-x\\b"), ["-x", true, true]);
  for (const p of ["a|b", "^a", "a$", "a\\bb", "\\b\\ba", "\\B", "\\Ba", "\\b", "a.b", "(?i)a", "a\\d", ""]) t.is(exactLiteral(p), null, p);
  t.not(compilePattern("\\bvalue\\b", 4096).exact, null);
  t.is(compilePattern("a|b", 4096).exact, null);
});

function matchingLines(buf: Buffer, p: LinePattern): string[] {
  const out: string[] = [];
  forEachMatchingLine(buf, p, (s, e) => {
    out.push(`${s}-${e}`);
    return true;
  });
  return out;
}

test("property: with and without the prefilter, the same lines match", (t) => {
  const word = fc.constantFrom("ab", "b", "a.b", "x", "ab\\b", "\\bab", "\\bab\\b", "\\b-a", "a-\\b", "\\b_1\\b", "^a", "b$", "é", "a-b");
  const pattern = fc.array(word, { minLength: 1, maxLength: 3 }).map((ws) => ws.join("|"));
  const text = fc.array(fc.constantFrom("a", "b", "x", " ", "\n", "\r", "é", ".", "-", "_", "1", "ab"), { maxLength: 60 }).map((cs) => cs.join(""));
  fc.assert(
    fc.property(pattern, text, (pat, txt) => {
      const p = compilePattern(pat, 4096);
      const buf = Buffer.from(txt);
      const plain: LinePattern = { ...p, literals: null, exact: null };
      const a = matchingLines(buf, p);
      const b = matchingLines(buf, plain);
      if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`${pat} on ${JSON.stringify(txt)}: ${a} vs ${b}`);
    }),
    { numRuns: 2000 },
  );
  t.pass();
});

test("property: every reported line matches alone, and every line that matches alone is reported", (t) => {
  const pattern = fc.constantFrom("a\\sb", "[^x]b", "^a", "b$", "a|b", "", "x*", "\\bab\\b", "a.b", "(?i)AB");
  const text = fc.array(fc.constantFrom("a", "b", "x", " ", "\n", "\r"), { maxLength: 40 }).map((cs) => cs.join(""));
  fc.assert(
    fc.property(pattern, text, (pat, txt) => {
      const p = compilePattern(pat, 4096);
      const buf = Buffer.from(txt);
      const expected: string[] = [];
      const parts = txt.split("\n");
      if (txt.endsWith("\n")) parts.pop();
      let off = 0;
      for (const line of txt === "" ? [] : parts) {
        if (p.re.test(Buffer.from(line))) expected.push(`${off}-${off + Buffer.byteLength(line)}`);
        off += Buffer.byteLength(line) + 1;
      }
      const got = matchingLines(buf, p);
      if (JSON.stringify(got) !== JSON.stringify(expected)) throw new Error(`${pat} on ${JSON.stringify(txt)}: ${got} vs ${expected}`);
    }),
    { numRuns: 2000 },
  );
  t.pass();
});
