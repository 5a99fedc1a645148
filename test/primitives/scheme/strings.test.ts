// Strings: code-point indexing, mutation of mutable strings only, code-point order, full case mapping and folding.
//
// Expected case mappings were checked against UnicodeData.txt, SpecialCasing.txt
// and CaseFolding.txt (Unicode 15), not taken from the code.
import test from "ava";
import fc from "fast-check";
import {
  Char,
  char,
  MString,
  NIL,
  Pair,
  arrayToList,
  listToArray,
  UNSPECIFIED,
} from "../../../interpreter/api.js";
import { call, raised } from "../../helpers/prim.js";

const s = (x: string) => new MString(x);
const lit = (x: string) => new MString(x, true);
const c = (x: string) => char(x.codePointAt(0) as number);
const js = (x: MString) => {
  if (!(x instanceof MString)) throw new Error("not a string");
  return x.toString();
};
const cps = (x: string) => Array.from(x, (ch) => ch.codePointAt(0) as number);

/** Text mixing ASCII, other BMP characters (some ≥ U+E000) and astral characters. */
const text = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0x20, max: 0x7e }),
      fc.integer({ min: 0xa0, max: 0xd7ff }),
      fc.integer({ min: 0xe000, max: 0xffff }),
      fc.integer({ min: 0x10000, max: 0x10ffff }),
      fc.constantFrom(0x3a3, 0x3c2, 0xdf, 0x130, 0x131, 0x1e9e, 0x13a0, 0xab70, 0x13f8, 0x1f88, 0x1fb3, 0x149, 0x10428),
    ),
    { maxLength: 12 },
  )
  .map((a) => String.fromCodePoint(...a));

test("string?, make-string, string, string-length count code points", (t) => {
  t.true(call("string?", s("")));
  t.false(call("string?", c("a")));
  t.is(js(call("make-string", 3, c("x"))), "xxx");
  t.is(js(call("make-string", 2, c("😀"))), "😀😀");
  t.is(call("string-length", call("make-string", 2, c("😀"))), 2);
  t.is(call("string-length", call("make-string", 4)), 4);
  t.is(js(call("string", c("a"), c("λ"), c("😀"))), "aλ😀");
  t.is(js(call("string")), "");
  t.is(call("string-length", s("λμ")), 2);
  t.is(call("string-length", s("a😀b")), 3);
  t.is(call("string-length", s("\u0000a")), 2);
  // Too large for the memory budget: refused before anything is allocated (ADR 0006).
  t.is(raised(() => call("make-string", 2 ** 40)).code, "memory");
  t.is(raised(() => call("make-string", 2, 65)).kind, "type");
});

test("string-ref counts astral characters as one", (t) => {
  t.is(call("string-ref", s("abc"), 1), c("b"));
  t.is(call("string-ref", s("x😀y"), 1), c("😀"));
  t.is(call("string-ref", s("x😀y"), 2), c("y"));
  const e = raised(() => call("string-ref", s("abc"), 3));
  t.is(e.kind, "range");
  t.is(e.message, "bad argument #2 to 'string-ref' (index 3 out of range [0, 3))");
  t.is(raised(() => call("string-ref", s("abc"), -1)).kind, "type");
  t.is(raised(() => call("string-ref", s(""), 0)).kind, "range");
});

test("long strings (past 64 units, where the surrogate check is a search) count astral characters as one", (t) => {
  const a70 = "a".repeat(70);
  // 70 ASCII, one astral (two units), one ASCII: 72 characters, 73 units.
  t.is(call("string-length", s(a70 + "😀b")), 72);
  t.is(call("string-ref", s(a70 + "😀b"), 70), c("😀"));
  t.is(call("string-ref", s(a70 + "😀b"), 71), c("b"));
  // Latin-1 only (a one-byte string in the engine) and other BMP text: one character a unit.
  t.is(call("string-length", s(a70 + "é")), 71);
  t.is(call("string-ref", s(a70 + "\u4e2dz"), 71), c("z"));
  t.is(call("string-length", s("😀".repeat(100))), 100);
});

test("string-set! mutates mutable strings, astral characters included", (t) => {
  const m = call("make-string", 3, c("a"));
  t.is(call("string-set!", m, 1, c("b")), UNSPECIFIED);
  t.is(js(m), "aba");
  const x = s("abc");
  call("string-set!", x, 2, c("😀"));
  t.is(js(x), "ab😀");
  t.is(call("string-length", x), 3);
  call("string-set!", x, 0, c("λ"));
  t.is(js(x), "λb😀");
  t.is(call("string-ref", x, 2), c("😀"));
});

test("string-set!, string-fill! and string-copy! refuse immutable strings", (t) => {
  const e = raised(() => call("string-set!", lit("abc"), 0, c("z")));
  t.is(e.kind, "type");
  t.regex(e.message, /^bad argument #1 to 'string-set!' \(mutable string/);
  t.is(raised(() => call("string-fill!", lit("abc"), c("z"))).kind, "type");
  t.is(raised(() => call("string-copy!", lit("abc"), 0, s("x"))).kind, "type");
  // Copying a literal gives a mutable string.
  const copy = call("string-copy", lit("abc"));
  call("string-set!", copy, 0, c("z"));
  t.is(js(copy), "zbc");
});

test("string comparisons are lexicographic by code point, with two or more arguments", (t) => {
  t.true(call("string=?", s("abc"), s("abc"), s("abc")));
  t.false(call("string=?", s("abc"), s("abd")));
  t.true(call("string=?", s(""), s("")));
  t.true(call("string<?", s("abc"), s("abd")));
  t.true(call("string<?", s("ab"), s("abc")));
  t.false(call("string<?", s("abc"), s("ab")));
  t.true(call("string<?", s("a"), s("b"), s("c")));
  t.false(call("string<?", s("a"), s("c"), s("b")));
  t.true(call("string>?", s("b"), s("abc")));
  t.true(call("string<=?", s("a"), s("a"), s("b")));
  t.true(call("string>=?", s("b"), s("b"), s("a")));
  t.true(call("string<?", s("Z"), s("a")));
  // U+FFFD is below U+1F600 by code point, though above its surrogates in UTF-16.
  t.true(call("string<?", s("\ufffd"), s("😀")));
  t.true(call("string>?", s("😀"), s("\uffff")));
  t.true(call("string<?", s("\ud7ff"), s("😀"), s("\u{10ffff}")));
  const mutated = s("hbllo");
  call("string-set!", mutated, 1, c("e"));
  t.true(call("string=?", mutated, lit("hello")));
  t.is(raised(() => call("string=?", s("a"), c("a"))).kind, "type");
});

test("string comparisons agree with comparing code point arrays", (t) => {
  const cmp = (a: number[], b: number[]) => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
    return a.length - b.length;
  };
  fc.assert(
    fc.property(text, text, (a, b) => {
      const d = cmp(cps(a), cps(b));
      t.is(call("string<?", s(a), s(b)), d < 0);
      t.is(call("string=?", s(a), s(b)), d === 0);
      t.is(call("string>=?", s(a), s(b)), d >= 0);
      t.is(call("string>?", s(a), s(b)), d > 0);
      t.is(call("string<=?", s(a), s(b)), d <= 0);
    }),
    { numRuns: 500 },
  );
});

test("the -ci comparisons use full case folding", (t) => {
  t.true(call("string-ci=?", s("AbC"), s("aBc")));
  t.false(call("string-ci=?", s("AbC"), s("aBd")));
  t.true(call("string-ci<?", s("apple"), s("BANANA")));
  t.true(call("string-ci>?", s("Zebra"), s("apple")));
  t.true(call("string-ci<=?", s("ABC"), s("abc")));
  t.false(call("string-ci>=?", s("abc"), s("ABD")));
  t.true(call("string-ci=?", s("\u039b\u038c\u0393\u039f\u03a3"), s("\u03bb\u03cc\u03b3\u03bf\u03c2"), s("\u03bb\u03cc\u03b3\u03bf\u03c3")));
  t.true(call("string-ci=?", s("Straße"), s("STRASSE")));
  t.true(call("string-ci=?", s("ẞ"), s("ss")));
  t.true(call("string-ci=?", s("ꭰꭱ"), s("ᎠᎡ")));
  t.false(call("string-ci=?", s("ı"), s("i")));
  t.true(call("string-ci=?", s("\u212a"), s("K")));
});

test("string-upcase uses the full mappings", (t) => {
  t.is(js(call("string-upcase", s("hello"))), "HELLO");
  t.is(js(call("string-upcase", s("straße"))), "STRASSE");
  t.is(js(call("string-upcase", s("\u03bb\u03cc\u03b3\u03bf\u03c2"))), "\u039b\u038c\u0393\u039f\u03a3");
  t.is(js(call("string-upcase", s("123-abc!"))), "123-ABC!");
  t.is(js(call("string-upcase", s("ﬁ"))), "FI");
  t.is(js(call("string-upcase", s("ŉ"))), "\u02bcN");
  t.is(js(call("string-upcase", s("ΐ"))), "\u0399\u0308\u0301");
  t.is(js(call("string-upcase", s("ᾳ"))), "\u0391\u0399");
  t.is(js(call("string-upcase", s("ı"))), "I");
  t.is(js(call("string-upcase", s("𐐨😀"))), "𐐀😀");
  // A new string, mutable even when the argument is a literal.
  const up = call("string-upcase", lit("abc"));
  call("string-set!", up, 0, c("x"));
  t.is(js(up), "xBC");
});

test("string-downcase applies the final sigma rule", (t) => {
  t.is(js(call("string-downcase", s("HeLLo World"))), "hello world");
  t.is(js(call("string-downcase", s("ЖУК"))), "жук");
  t.is(js(call("string-downcase", s("\u039f\u0394\u039f\u03a3"))), "\u03bf\u03b4\u03bf\u03c2");
  t.is(
    js(call("string-downcase", s("\u039f\u0394\u039f\u03a3 \u039a\u0391\u0399 \u03a3\u0391\u03a3"))),
    "\u03bf\u03b4\u03bf\u03c2 \u03ba\u03b1\u03b9 \u03c3\u03b1\u03c2",
  );
  t.is(js(call("string-downcase", s("\u03a3"))), "\u03c3"); // not preceded by a cased letter
  t.is(js(call("string-downcase", s("\u0391\u03a3\u0391"))), "\u03b1\u03c3\u03b1"); // followed by a cased letter
  t.is(js(call("string-downcase", s("\u0391\u03a31"))), "\u03b1\u03c21");
  t.is(js(call("string-downcase", s("İ"))), "i\u0307");
  t.is(js(call("string-downcase", s("ẞ"))), "ß");
});

test("string-downcase agrees with a reference final-sigma rule on Greek text", (t) => {
  const greek = fc.array(fc.constantFrom("Α", "Β", "Σ", " ", "1"), { maxLength: 10 }).map((a) => a.join(""));
  const lower: Record<string, string> = { Α: "α", Β: "β", " ": " ", "1": "1" };
  const letter = (ch: string | undefined) => ch === "Α" || ch === "Β" || ch === "Σ";
  fc.assert(
    fc.property(greek, (g) => {
      const chars = [...g];
      const expected = chars
        .map((ch, i) => (ch === "Σ" ? (letter(chars[i - 1]) && !letter(chars[i + 1]) ? "\u03c2" : "\u03c3") : lower[ch]))
        .join("");
      t.is(js(call("string-downcase", s(g))), expected);
    }),
  );
});

test("string-foldcase uses full case folding", (t) => {
  t.is(js(call("string-foldcase", s("HeLLo"))), "hello");
  t.is(js(call("string-foldcase", s("Straße"))), "strasse");
  t.is(js(call("string-foldcase", s("\u03a3\u0391\u03a3"))), "\u03c3\u03b1\u03c3");
  t.is(js(call("string-foldcase", s("\u1f48\u0394\u03a5\u03a3\u03a3\u0395\u038e\u03a3"))), "\u1f40\u03b4\u03c5\u03c3\u03c3\u03b5\u03cd\u03c3");
  t.is(js(call("string-foldcase", s("ẞ"))), "ss");
  t.is(js(call("string-foldcase", s("ﬁ"))), "fi");
  t.is(js(call("string-foldcase", s("İ"))), "i\u0307");
  t.is(js(call("string-foldcase", s("ıI"))), "ıi");
  t.is(js(call("string-foldcase", s("ꭰᏸᎠ"))), "\u13a0\u13f0\u13a0");
  t.is(js(call("string-foldcase", s("ᾈ"))), "\u1f00\u03b9");
  t.is(js(call("string-foldcase", s("ŉ"))), "\u02bcn");
  t.is(js(call("string-foldcase", s("\u212a\u00b5\u017f"))), "k\u03bcs");
  t.is(js(call("string-foldcase", s("𐐀"))), "𐐨");
});

test("case mapping and folding work character by character, and folding is idempotent", (t) => {
  fc.assert(
    fc.property(text, text, (a, b) => {
      const f = (x: string) => js(call("string-foldcase", s(x)));
      const u = (x: string) => js(call("string-upcase", s(x)));
      t.is(f(a + b), f(a) + f(b));
      t.is(f(f(a)), f(a));
      t.is(u(a + b), u(a) + u(b));
    }),
    { numRuns: 500 },
  );
});

test("substring, string-append and string-copy index by code point", (t) => {
  t.is(js(call("substring", s("hello"), 1, 3)), "el");
  t.is(js(call("substring", s("hello"), 0, 0)), "");
  t.is(js(call("substring", s("a😀b"), 1, 2)), "😀");
  t.is(js(call("substring", s("a😀b"), 2, 3)), "b");
  t.is(raised(() => call("substring", s("abc"), 2, 1)).kind, "range");
  t.is(raised(() => call("substring", s("abc"), 0, 4)).kind, "range");
  t.is(raised(() => call("substring", s("abc"), 4, 4)).kind, "range");
  t.is(js(call("string-append", s("foo"), s("bar"))), "foobar");
  t.is(js(call("string-append")), "");
  t.is(js(call("string-append", s("a"), s(""), s("😀"), s("λ"))), "a😀λ");
  t.is(raised(() => call("string-append", s("a"), c("b"))).kind, "type");
  t.is(js(call("string-copy", s("hello"))), "hello");
  t.is(js(call("string-copy", s("hello"), 1)), "ello");
  t.is(js(call("string-copy", s("h😀llo"), 1, 3)), "😀l");
  const orig = s("abc");
  const copy = call("string-copy", orig);
  t.not(copy, orig);
  call("string-set!", copy, 0, c("z"));
  t.is(js(orig), "abc");
});

test("substring agrees with slicing the code point array", (t) => {
  fc.assert(
    fc.property(text, fc.nat(14), fc.nat(14), (x, i, j) => {
      const a = cps(x);
      if (i <= j && j <= a.length) t.deepEqual(cps(js(call("substring", s(x), i, j))), a.slice(i, j));
      else t.is(raised(() => call("substring", s(x), i, j)).kind, "range");
    }),
    { numRuns: 300 },
  );
});

test("string-append and substring agree with the code point arrays, their results' lengths and characters too", (t) => {
  // string-append's result knows from its parts whether it holds a surrogate (no scan), and substring's
  // from its string's: each part below is a fresh string, a substring, or one mutated to its code point form.
  const part = fc.tuple(text, fc.constantFrom("fresh", "substring", "mutated"));
  fc.assert(
    fc.property(fc.array(part, { maxLength: 6 }), fc.nat(40), (parts, k) => {
      const ms = parts.map(([x, how]) => {
        if (how === "substring") return call("substring", s(`!${x}`), 1) as MString;
        if (how === "mutated" && x.length > 0) {
          const m = s(x);
          call("string-set!", m, 0, c(x));
          return m;
        }
        return s(x);
      });
      const want = parts.flatMap(([x]) => cps(x));
      const r = call("string-append", ...ms) as MString;
      t.is(call("string-length", r), want.length);
      t.deepEqual(cps(js(r)), want);
      for (let i = 0; i < want.length; i++) t.is((call("string-ref", r, i) as Char).code, want[i]);
      const i = Math.min(k, want.length);
      const sub = call("substring", r, i) as MString;
      t.is(call("string-length", sub), want.length - i);
      if (i < want.length) t.is((call("string-ref", sub, 0) as Char).code, want[i]);
      const again = call("string-append", r, sub) as MString;
      t.is(call("string-length", again), 2 * want.length - i);
    }),
    { numRuns: 300 },
  );
});

test("string-append builds a long string one character at a time, and it reads back whole", (t) => {
  // Joined with `+`, the parts stay a rope until read, and the result's length needs no scan when no part
  // holds a surrogate: 200,000 appends, which copied the whole string each time before. (With an astral
  // character the length still needs the code points, counted anew for each new string.)
  let acc = s("");
  for (let i = 0; i < 200_000; i++) acc = call("string-append", acc, s(i % 2 === 0 ? "a" : "λ")) as MString;
  t.is(call("string-length", acc), 200_000);
  t.is((call("string-ref", acc, 199_999) as Char).code, 0x3bb);
  t.is((call("string-ref", acc, 100_000) as Char).code, 0x61);
  t.is(js(acc), "aλ".repeat(100_000));
  const astral = call("string-append", acc, s("😀")) as MString;
  t.is(call("string-length", astral), 200_001);
  t.is((call("string-ref", astral, 200_000) as Char).code, 0x1f600);
});

test("string->list and list->string", (t) => {
  t.deepEqual(listToArray(call("string->list", s("a😀c"))), [c("a"), c("😀"), c("c")]);
  t.deepEqual(listToArray(call("string->list", s("abcde"), 2)), [c("c"), c("d"), c("e")]);
  t.deepEqual(listToArray(call("string->list", s("abcde"), 1, 3)), [c("b"), c("c")]);
  t.is(call("string->list", s("")), NIL);
  t.is(raised(() => call("string->list", s("abc"), 2, 1)).kind, "range");
  t.is(js(call("list->string", arrayToList([c("a"), c("λ"), c("😀")]))), "aλ😀");
  t.is(js(call("list->string", NIL)), "");
  const e = raised(() => call("list->string", arrayToList([c("a"), 1])));
  t.is(e.kind, "type");
  t.regex(e.message, /^bad argument #1 to 'list->string' \(list of characters expected/);
  t.is(raised(() => call("list->string", new Pair(c("a"), c("b")))).kind, "type");
  const circ = arrayToList([c("a")]) as Pair;
  circ.cdr = circ;
  t.is(raised(() => call("list->string", circ)).kind, "type");
  const long = call("list->string", arrayToList(new Array(100_000).fill(c("a"))));
  t.is(call("string-length", long), 100_000);
});

test("string-copy! copies by code point and handles overlap both ways", (t) => {
  const m = call("make-string", 5, c("-"));
  call("string-copy!", m, 1, s("ab"));
  t.is(js(m), "-ab--");
  const m2 = call("make-string", 5, c("-"));
  call("string-copy!", m2, 0, s("xyz"), 1, 2);
  t.is(js(m2), "y----");
  const o = s("abcde");
  call("string-copy!", o, 1, o, 0, 3);
  t.is(js(o), "aabce");
  const o2 = s("abcde");
  call("string-copy!", o2, 0, o2, 2);
  t.is(js(o2), "cdede");
  const a = s("a😀b");
  call("string-copy!", a, 0, s("λ😁"));
  t.is(js(a), "λ😁b");
  const e = raised(() => call("string-copy!", s("abc"), 2, s("xy")));
  t.is(e.kind, "range");
  t.regex(e.message, /^bad argument #2 to 'string-copy!'/);
  t.is(raised(() => call("string-copy!", s("abc"), 4, s(""))).kind, "range");
  t.is(raised(() => call("string-copy!", s("abc"), 0, s("xy"), 1, 3)).kind, "range");
});

test("string-copy! agrees with a copy through a temporary array", (t) => {
  fc.assert(
    fc.property(text, fc.nat(12), fc.nat(12), fc.nat(12), fc.boolean(), (x, at, start, end, same) => {
      const to = s(x);
      const from = same ? to : s([...x].reverse().join(""));
      const toA = cps(x);
      const fromA = cps(from.toString());
      if (start <= end && end <= fromA.length && at <= toA.length && end - start <= toA.length - at) {
        const expected = toA.slice();
        expected.splice(at, end - start, ...fromA.slice(start, end));
        call("string-copy!", to, at, from, start, end);
        t.deepEqual(cps(js(to)), expected);
      } else t.is(raised(() => call("string-copy!", to, at, from, start, end)).kind, "range");
    }),
    { numRuns: 500 },
  );
});

test("string-fill! with optional range", (t) => {
  const a = call("make-string", 3, c("a"));
  call("string-fill!", a, c("z"));
  t.is(js(a), "zzz");
  const b = s("abcde");
  call("string-fill!", b, c("*"), 1, 3);
  t.is(js(b), "a**de");
  const d = s("a😀cde");
  call("string-fill!", d, c("😁"), 3);
  t.is(js(d), "a😀c😁😁");
  t.is(raised(() => call("string-fill!", s("abc"), c("x"), 1, 5)).kind, "range");
});

test("string->vector and vector->string", (t) => {
  t.deepEqual(call("string->vector", s("xλ😀")), [c("x"), c("λ"), c("😀")]);
  t.deepEqual(call("string->vector", s("abcde"), 1, 3), [c("b"), c("c")]);
  t.is(js(call("vector->string", [c("a"), c("b")])), "ab");
  t.is(js(call("vector->string", [c("1"), c("2"), c("3"), c("4")], 1, 3)), "23");
  t.is(js(call("vector->string", [])), "");
  t.is(raised(() => call("vector->string", [c("a"), 5])).kind, "type");
  // Elements outside the range are not looked at.
  t.is(js(call("vector->string", [5, c("a")], 1)), "a");
  t.is(raised(() => call("vector->string", [c("a")], 0, 2)).kind, "range");
});

test("every string result is a fresh MString and every character a Char", (t) => {
  fc.assert(
    fc.property(text, (x) => {
      for (const name of ["string-upcase", "string-downcase", "string-foldcase", "string-copy"]) {
        const r = call(name, lit(x));
        t.true(r instanceof MString && !r.immutable);
      }
      for (const ch of listToArray(call("string->list", s(x))) as any[]) t.true(ch instanceof Char);
    }),
    { numRuns: 200 },
  );
});
