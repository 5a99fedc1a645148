// Characters: comparisons, Unicode classification and digit values, simple case mappings and folding.
//
// Expected Unicode facts were checked against UnicodeData.txt, CaseFolding.txt,
// DerivedCoreProperties.txt and PropList.txt (Unicode 15), not taken from the code.
import test from "ava";
import fc from "fast-check";
import {
  Char,
  char,
  MString,
  Flonum,
} from "../../../interpreter/api.js";
import { call, raised } from "../../helpers/prim.js";

const c = (s: string | number) => char(typeof s === "number" ? s : (s.codePointAt(0) as number));
const code = (x: Char) => x.code;

test("char? and the char <-> integer conversions", (t) => {
  t.true(call("char?", c("a")));
  t.false(call("char?", new MString("a")));
  t.false(call("char?", 97));
  t.is(call("char->integer", c("a")), 97);
  t.is(call("char->integer", c(0x1f600)), 0x1f600);
  t.is(call("integer->char", 955), c("λ"));
  t.is(call("integer->char", 0), c(0));
  t.is(call("integer->char", 0x10ffff), c(0x10ffff));
  t.is(call("integer->char", 0xe000), c(0xe000));
});

test("integer->char accepts only Unicode scalar values", (t) => {
  for (const bad of [0xd800, 0xdfff, 0x110000, -1]) {
    const cond = raised(() => call("integer->char", bad));
    t.is(cond.kind, "range", String(bad));
    t.regex(cond.message, /^bad argument #1 to 'integer->char' \(/);
  }
  t.is(raised(() => call("integer->char", 2n ** 70n)).kind, "range");
  t.is(raised(() => call("integer->char", new Flonum(65))).kind, "type");
});

test("char comparisons take two or more arguments and are transitive by code point", (t) => {
  t.true(call("char<?", c("a"), c("b"), c("c")));
  t.false(call("char<?", c("a"), c("a")));
  t.false(call("char<?", c("a"), c("c"), c("b")));
  t.true(call("char<=?", c("a"), c("a"), c("b")));
  t.true(call("char>?", c("c"), c("b"), c("a")));
  t.false(call("char>?", c("c"), c("b"), c("b")));
  t.true(call("char>=?", c("b"), c("b"), c("a")));
  t.true(call("char=?", c("a"), c("a"), c("a")));
  t.false(call("char=?", c("a"), c("a"), c("b")));
  t.true(call("char<?", c("A"), c("a")));
  t.true(call("char<?", c("z"), c("λ"), c(0xffff), c(0x1f600)));
  t.is(raised(() => call("char<?", c("a"), c("b"), 3)).kind, "type");
  t.regex(raised(() => call("char=?", c("a"), "b")).message, /^bad argument #2 to 'char=\?' \(character expected/);
});

test("char comparisons agree with comparing code points", (t) => {
  const cp = fc.oneof(fc.integer({ min: 0, max: 0xd7ff }), fc.integer({ min: 0xe000, max: 0x10ffff }));
  fc.assert(
    fc.property(fc.array(cp, { minLength: 2, maxLength: 5 }), (cps) => {
      const cs = cps.map((x) => char(x));
      const pairs = cps.slice(1).map((x, i) => [cps[i] as number, x]);
      t.is(call("char<?", ...cs), pairs.every(([a, b]) => (a as number) < (b as number)));
      t.is(call("char<=?", ...cs), pairs.every(([a, b]) => (a as number) <= (b as number)));
      t.is(call("char=?", ...cs), pairs.every(([a, b]) => a === b));
      t.is(call("char>?", ...cs), pairs.every(([a, b]) => (a as number) > (b as number)));
      t.is(call("char>=?", ...cs), pairs.every(([a, b]) => (a as number) >= (b as number)));
    }),
  );
});

test("the -ci comparisons compare folded characters", (t) => {
  t.true(call("char-ci=?", c("a"), c("A"), c("a")));
  t.true(call("char-ci<?", c("a"), c("B")));
  t.true(call("char-ci>?", c("b"), c("A")));
  t.true(call("char-ci<=?", c("Z"), c("z")));
  t.false(call("char-ci>=?", c("a"), c("Z")));
  t.true(call("char-ci=?", c("λ"), c("Λ")));
  t.true(call("char-ci=?", c("Σ"), c("ς"), c("σ")));
  t.true(call("char-ci=?", c(0x212a), c("k"))); // KELVIN SIGN
  t.false(call("char-ci=?", c("ß"), c(0x1e9e), c("s")));
  t.true(call("char-ci=?", c("ß"), c(0x1e9e))); // ẞ simple-folds to ß
});

test("char-alphabetic? follows the Unicode Alphabetic property", (t) => {
  for (const x of ["a", "Z", "λ", "ж", "中", "ª", "\u0345", "\u2160", "\u24b6", "\u02b0"]) t.true(call("char-alphabetic?", c(x)), x);
  for (const x of ["1", " ", "-", "\u0663", "😀", "\u00b2"]) t.false(call("char-alphabetic?", c(x)), x);
});

test("char-numeric? is true exactly for decimal digits (Nd) of any script", (t) => {
  for (const x of [0x30, 0x39, 0x662, 0xe50, 0xbe6, 0x1d7ce, 0x11066]) t.true(call("char-numeric?", c(x)), x.toString(16));
  // Superscript two (No), Roman numeral twelve (Nl), a fraction (No), a letter: numeric but not decimal.
  for (const x of [0xb2, 0x216b, 0x2155, 0x61]) t.false(call("char-numeric?", c(x)), x.toString(16));
});

test("char-whitespace? follows White_Space", (t) => {
  for (const x of [0x20, 0x09, 0x0a, 0x0d, 0x0b, 0x0c, 0x85, 0xa0, 0x1680, 0x2003, 0x2028, 0x3000]) t.true(call("char-whitespace?", c(x)), x.toString(16));
  for (const x of [0x61, 0x200b, 0xfeff, 0x00]) t.false(call("char-whitespace?", c(x)), x.toString(16));
});

test("char-upper-case? and char-lower-case? follow Uppercase and Lowercase", (t) => {
  for (const x of ["A", "Σ", "Ж", "\u2160", "\u24b6", "\u{10400}"]) t.true(call("char-upper-case?", c(x)), x);
  for (const x of ["a", "1", "ǅ", "ª"]) t.false(call("char-upper-case?", c(x)), x);
  for (const x of ["a", "σ", "ς", "é", "ß", "ª", "\u02b0", "\u0345"]) t.true(call("char-lower-case?", c(x)), x);
  for (const x of ["A", "1", "ǅ", " "]) t.false(call("char-lower-case?", c(x)), x);
});

test("digit-value of decimal digits in many scripts, #f otherwise", (t) => {
  t.is(call("digit-value", c("7")), 7);
  t.is(call("digit-value", c("0")), 0);
  t.is(call("digit-value", c("a")), false);
  t.is(call("digit-value", c(0x663)), 3); // ARABIC-INDIC DIGIT THREE
  t.is(call("digit-value", c(0xaed)), 7); // GUJARATI DIGIT SEVEN
  t.is(call("digit-value", c(0xf29)), 9); // TIBETAN DIGIT NINE
  t.is(call("digit-value", c(0xe50)), 0); // THAI DIGIT ZERO
  t.is(call("digit-value", c(0x1d7d8)), 0); // MATHEMATICAL DOUBLE-STRUCK DIGIT ZERO, inside a run of 50
  t.is(call("digit-value", c(0x1d7e1)), 9); // … DOUBLE-STRUCK NINE
  t.is(call("digit-value", c(0x1d7e2)), 0); // MATHEMATICAL SANS-SERIF DIGIT ZERO
  t.is(call("digit-value", c(0x1d7ff)), 9); // MATHEMATICAL MONOSPACE DIGIT NINE
  t.is(call("digit-value", c(0x11069)), 3); // BRAHMI DIGIT THREE
  t.is(call("digit-value", c(0xb2)), false); // SUPERSCRIPT TWO is not Nd
  t.is(call("digit-value", c(0x216b)), false);
});

test("every maximal run of Nd code points is whole runs of ten, and digit-value counts within them", (t) => {
  const nd = /\p{Nd}/u;
  let start = -1;
  let runs = 0;
  for (let cp = 0; cp <= 0x110000; cp++) {
    const is = cp < 0x110000 && (cp < 0xd800 || cp > 0xdfff) && nd.test(String.fromCodePoint(cp));
    if (is && start < 0) start = cp;
    if (!is && start >= 0) {
      runs++;
      t.is((cp - start) % 10, 0, `run at ${start.toString(16)}`);
      for (let d = start; d < cp; d++) if (call("digit-value", char(d)) !== (d - start) % 10) t.fail(d.toString(16));
      start = -1;
    }
  }
  t.true(runs >= 60);
});

test("char-upcase and char-downcase use simple one-to-one mappings", (t) => {
  t.is(call("char-upcase", c("a")), c("A"));
  t.is(call("char-upcase", c("A")), c("A"));
  t.is(call("char-downcase", c("A")), c("a"));
  t.is(call("char-upcase", c("1")), c("1"));
  t.is(call("char-upcase", c("λ")), c("Λ"));
  t.is(call("char-upcase", c("ÿ")), c(0x178));
  t.is(call("char-upcase", c("ς")), c("Σ"));
  t.is(call("char-downcase", c("Σ")), c("σ"));
  t.is(call("char-upcase", c(0x10428)), c(0x10400)); // Deseret
  t.is(call("char-upcase", c(0x1e922)), c(0x1e900)); // Adlam
  // Full mapping to several characters, no simple mapping: the character itself.
  t.is(call("char-upcase", c("ß")), c("ß"));
  t.is(call("char-upcase", c(0x149)), c(0x149)); // ŉ
  t.is(call("char-upcase", c(0xfb01)), c(0xfb01)); // ﬁ
  t.is(call("char-upcase", c(0x390)), c(0x390)); // ΐ
  // Full mapping to several characters, but a simple mapping exists.
  t.is(call("char-upcase", c(0x1fb3)), c(0x1fbc)); // ᾳ → ᾼ
  t.is(call("char-upcase", c(0x1f80)), c(0x1f88));
  t.is(call("char-upcase", c(0x1ff3)), c(0x1ffc));
  t.is(call("char-downcase", c(0x130)), c("i")); // İ → i, not i + U+0307
  t.is(call("char-downcase", c(0x1e9e)), c("ß"));
  t.is(call("char-upcase", c(0x17f)), c("S")); // ſ
  t.is(call("char-upcase", c(0x131)), c("I")); // ı
  t.is(call("char-upcase", c(0x1c5)), c(0x1c4)); // ǅ → Ǆ
  t.is(call("char-downcase", c(0x1c5)), c(0x1c6)); // ǅ → ǆ
  t.is(call("char-downcase", c(0x212a)), c("k")); // KELVIN SIGN
  t.is(call("char-upcase", c(0xab70)), c(0x13a0)); // Cherokee small a → A
  t.is(call("char-downcase", c(0x13a0)), c(0xab70));
});

test("char-foldcase is Unicode simple case folding", (t) => {
  const fold = (x: number) => code(call("char-foldcase", c(x)));
  t.is(fold(0x41), 0x61);
  t.is(fold(0x61), 0x61);
  t.is(fold(0x3a3), 0x3c3); // Σ → σ
  t.is(fold(0x3c2), 0x3c3); // ς → σ
  t.is(fold(0x416), 0x436); // Ж → ж
  t.is(fold(0x212a), 0x6b); // KELVIN SIGN → k
  t.is(fold(0x17f), 0x73); // ſ → s
  t.is(fold(0xb5), 0x3bc); // MICRO SIGN → μ
  t.is(fold(0x345), 0x3b9); // COMBINING YPOGEGRAMMENI → ι
  t.is(fold(0x1c5), 0x1c6); // ǅ → ǆ
  t.is(fold(0x1e9e), 0xdf); // ẞ → ß (status S)
  t.is(fold(0x1f88), 0x1f80); // ᾈ → ᾀ (status S)
  t.is(fold(0x1fbc), 0x1fb3); // ᾼ → ᾳ (status S)
  t.is(fold(0xdf), 0xdf); // ß: only a full folding
  t.is(fold(0x130), 0x130); // İ: only F and Turkic T foldings
  t.is(fold(0x131), 0x131); // ı: only touched by the Turkic T folding of I
  t.is(fold(0x49), 0x69);
  t.is(fold(0x13a0), 0x13a0); // Cherokee folds to the uppercase letters
  t.is(fold(0xab70), 0x13a0);
  t.is(fold(0x13f8), 0x13f0);
  t.is(fold(0x13f0), 0x13f0);
  t.is(fold(0x10400), 0x10428); // Deseret
});

test("case mappings always return a character, and folding is idempotent", (t) => {
  const cp = fc.oneof(fc.integer({ min: 0, max: 0x2fff }), fc.integer({ min: 0, max: 0xd7ff }), fc.integer({ min: 0xe000, max: 0x10ffff }));
  fc.assert(
    fc.property(cp, (x) => {
      for (const name of ["char-upcase", "char-downcase", "char-foldcase"]) t.true(call(name, char(x)) instanceof Char);
      const f = call("char-foldcase", char(x));
      t.is(call("char-foldcase", f), f);
    }),
    { numRuns: 2000 },
  );
});
