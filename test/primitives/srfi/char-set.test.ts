// Inversion-list char-sets: the algebra against plain sets, and the standard sets against the engine's Unicode data.
import test from "ava";
import fc from "fast-check";
import {
  CharSet,
  CODE_LIMIT,
  FULL,
  SCANNED,
  STANDARD_NAMES,
  STANDARD_PROPERTIES,
  charactersOf,
  combine,
  complement,
  difference,
  fromCodePoints,
  fromRanges,
  intersection,
  standardRanges,
  union,
  xor,
} from "../../../primitives/srfi/char-set.js";
import { isAlphabetic, isDecimalDigit, isLowerCase, isUpperCase, isWhiteSpace } from "../../../primitives/scheme/unicode.js";

const members = (ranges: readonly number[]): Set<number> => {
  const s = new Set<number>();
  for (let i = 0; i < ranges.length; i += 2) for (let c = ranges[i] as number; c < (ranges[i + 1] as number); c++) s.add(c);
  return s;
};

const isInversionList = (r: readonly number[]): boolean => r.length % 2 === 0 && r.every((x, i) => i === 0 || x > (r[i - 1] as number));

const smallCodes = fc.array(fc.integer({ min: 0, max: 300 }), { maxLength: 60 });

test("fromCodePoints makes a sorted, minimal inversion list of exactly its code points", (t) => {
  fc.assert(
    fc.property(smallCodes, (cps) => {
      const r = fromCodePoints(cps);
      return isInversionList(r) && [...members(r)].sort((a, b) => a - b).join() === [...new Set(cps)].sort((a, b) => a - b).join();
    }),
  );
  t.deepEqual(fromCodePoints([3, 1, 2, 2, 7]), [1, 4, 7, 8]);
});

test("union, intersection, difference and xor of inversion lists are those of the sets", (t) => {
  fc.assert(
    fc.property(smallCodes, smallCodes, (a, b) => {
      const ra = fromCodePoints(a);
      const rb = fromCodePoints(b);
      const sa = new Set(a);
      const sb = new Set(b);
      const check = (op: typeof union, want: (x: number) => boolean) => {
        const r = combine(ra, rb, op);
        if (!isInversionList(r)) return false;
        for (let c = 0; c <= 301; c++) if (members(r).has(c) !== want(c)) return false;
        return true;
      };
      return (
        check(union, (c) => sa.has(c) || sb.has(c)) &&
        check(intersection, (c) => sa.has(c) && sb.has(c)) &&
        check(difference, (c) => sa.has(c) && !sb.has(c)) &&
        check(xor, (c) => sa.has(c) !== sb.has(c))
      );
    }),
  );
  t.pass();
});

test("the complement is taken within the characters: surrogates are never members", (t) => {
  t.deepEqual(complement([]), [...FULL]);
  t.deepEqual(complement(FULL), []);
  t.deepEqual(complement([0x41, 0x42]), [0, 0x41, 0x42, 0xd800, 0xe000, CODE_LIMIT]);
  t.deepEqual(fromRanges([[0xd7ff, 0xe001]]), [0xd7ff, 0xd800, 0xe000, 0xe001]);
  const cs = new CharSet(FULL);
  t.false(cs.has(0xd800));
  t.true(cs.has(0x10ffff));
  t.is(cs.size, 0x110000 - 0x800);
});

test("a linear update never changes a frozen set", (t) => {
  const frozen = new CharSet(() => [1, 2], true);
  t.throws(() => {
    frozen.ranges = [];
  });
  t.deepEqual(frozen.ranges, [1, 2]);
});

test("no character outside the scanned ranges has a property of the standard sets (the engine's Unicode)", (t) => {
  const re = new RegExp(`(?:${STANDARD_PROPERTIES})`, "u");
  let from = 0;
  for (const [start, end] of SCANNED) {
    if (start > from) {
      const text = charactersOf(from, start);
      const m = re.exec(text);
      t.is(m, null, m === null ? "" : `U+${(m[0].codePointAt(0) as number).toString(16)} has a standard property but is not scanned`);
    }
    from = end;
  }
  const m = re.exec(charactersOf(from, CODE_LIMIT));
  t.is(m, null);
});

test("the standard sets agree with R7RS's char predicates over the Basic Multilingual Plane", (t) => {
  const sets = Object.fromEntries(STANDARD_NAMES.map((n) => [n, new CharSet(standardRanges(n) as number[])]));
  const preds: [string, (c: number) => boolean][] = [
    ["letter", isAlphabetic],
    ["digit", isDecimalDigit],
    ["whitespace", isWhiteSpace],
    ["lower-case", isLowerCase],
    ["upper-case", isUpperCase],
  ];
  for (const [name, pred] of preds) {
    const cs = sets[name] as CharSet;
    let wrong = -1;
    for (let c = 0; c < 0x10000 && wrong < 0; c++) {
      if (c >= 0xd800 && c < 0xe000) continue;
      if (cs.has(c) !== pred(c)) wrong = c;
    }
    t.is(wrong, -1, `char-set:${name} and its R7RS predicate differ at U+${wrong.toString(16)}`);
  }
  // The ASCII definitions of the document.
  const ascii = (n: string) => String.fromCodePoint(...[...members((sets[n] as CharSet).ranges)].filter((c) => c < 128));
  t.is(ascii("punctuation"), "!\"#%&'()*,-./:;?@[\\]_{}");
  t.is(ascii("symbol"), "$+<=>^`|~");
  t.is(ascii("blank"), "\t ");
  t.is(ascii("iso-control").length, 33);
  t.is((sets["title-case"] as CharSet).size >= 31, true);
});

test("the membership test a string procedure uses is made once per content and follows a linear update", (t) => {
  const cs = new CharSet(fromRanges([[97, 100]]));
  const a = cs.tester();
  t.is(cs.tester(), a, "the same test while the ranges stay");
  t.true(a(98));
  t.false(a(120));
  t.false(a(0x3b1));
  cs.ranges = [120, 121, 0x3b1, 0x3b2];
  const b = cs.tester();
  t.not(b, a);
  t.false(b(98));
  t.true(b(120));
  t.true(b(0x3b1), "above ASCII through the ranges");
});
