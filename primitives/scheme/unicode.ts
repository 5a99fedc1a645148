// Unicode character properties, case mapping and folding, and code-point string order.
//
// Everything derives from the JS engine's Unicode data (regex property escapes
// and String.prototype.toUpperCase/toLowerCase, which implement the full,
// locale-independent mappings of UnicodeData.txt + SpecialCasing.txt, with the
// Final_Sigma rule in toLowerCase). The simple (one character) mappings and the
// case folding that R7RS asks for are derived from those, plus the small
// exception tables below for the few characters where the derivation differs
// from UnicodeData.txt / CaseFolding.txt (checked against those files over
// every assigned character of Unicode 15).

const ALPHABETIC = /\p{Alphabetic}/u;
const DECIMAL = /\p{Nd}/u; // gc=Nd is exactly Numeric_Type=Decimal (Unicode stability policy)
const WHITE_SPACE = /\p{White_Space}/u;
const UPPERCASE = /\p{Uppercase}/u;
const LOWERCASE = /\p{Lowercase}/u;

function has(re: RegExp, cp: number): boolean {
  return re.test(String.fromCodePoint(cp));
}

/** Unicode Alphabetic. */
export function isAlphabetic(cp: number): boolean {
  if (cp < 128) return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a);
  return has(ALPHABETIC, cp);
}

/** Unicode Numeric_Type=Decimal (general category Nd). */
export function isDecimalDigit(cp: number): boolean {
  if (cp < 128) return cp >= 0x30 && cp <= 0x39;
  return has(DECIMAL, cp);
}

/** Unicode White_Space. */
export function isWhiteSpace(cp: number): boolean {
  if (cp < 128) return cp === 0x20 || (cp >= 0x09 && cp <= 0x0d);
  return has(WHITE_SPACE, cp);
}

/** Unicode Uppercase (includes Other_Uppercase, e.g. Ⅰ U+2160). */
export function isUpperCase(cp: number): boolean {
  if (cp < 128) return cp >= 0x41 && cp <= 0x5a;
  return has(UPPERCASE, cp);
}

/** Unicode Lowercase (includes Other_Lowercase, e.g. ª U+00AA). */
export function isLowerCase(cp: number): boolean {
  if (cp < 128) return cp >= 0x61 && cp <= 0x7a;
  return has(LOWERCASE, cp);
}

/**
 * The digit value of a decimal digit, or -1. Unicode encodes every Nd digit in
 * runs of ten consecutive code points from 0 to 9, and where runs touch (the
 * mathematical digits U+1D7CE..U+1D7FF) they are whole runs of ten, so the
 * value is the distance from the start of the maximal Nd run, modulo 10. The
 * walk back is at most 49 steps; the test suite checks the run structure over
 * every code point of the engine's Unicode version.
 */
export function digitValue(cp: number): number {
  if (cp < 128) return cp >= 0x30 && cp <= 0x39 ? cp - 0x30 : -1;
  if (!has(DECIMAL, cp)) return -1;
  let start = cp;
  while (has(DECIMAL, start - 1)) start--;
  return (cp - start) % 10;
}

/** The single code point of `s`, or -1 when `s` has zero or several. */
function singleCodePoint(s: string): number {
  const c = s.codePointAt(0);
  if (c === undefined) return -1;
  return s.length === (c > 0xffff ? 2 : 1) ? c : -1;
}

// Simple mappings that differ from "the full mapping when it is one character,
// else the character itself": letters with ypogegrammeni, whose full uppercase
// is two characters (ᾳ → ΑΙ) but whose simple uppercase is the titlecase letter
// (ᾳ → ᾼ), and İ, whose full lowercase is i + U+0307 but simple lowercase is i.
const SIMPLE_UPPER = new Map<number, number>([
  [0x1fb3, 0x1fbc],
  [0x1fc3, 0x1fcc],
  [0x1ff3, 0x1ffc],
]);
for (let i = 0; i < 8; i++) {
  SIMPLE_UPPER.set(0x1f80 + i, 0x1f88 + i);
  SIMPLE_UPPER.set(0x1f90 + i, 0x1f98 + i);
  SIMPLE_UPPER.set(0x1fa0 + i, 0x1fa8 + i);
}
const SIMPLE_LOWER = new Map<number, number>([[0x130, 0x69]]);

// Case folding that differs from lower(upper(lower(c))): dotless ı folds to
// itself (only the Turkic T mappings touch it), and Cherokee folds to the
// uppercase letters, which were encoded first (ꭰ U+AB70 → Ꭰ U+13A0,
// ᏸ U+13F8 → Ᏸ U+13F0, Ꭰ → Ꭰ).
const FOLD = new Map<number, number>([[0x131, 0x131]]);
for (let c = 0x13a0; c <= 0x13f5; c++) FOLD.set(c, c);
for (let i = 0; i < 6; i++) FOLD.set(0x13f8 + i, 0x13f0 + i);
for (let i = 0; i < 80; i++) FOLD.set(0xab70 + i, 0x13a0 + i);
/** Characters for which a string must be folded character by character. */
const FOLD_SPECIAL = /[\u0131\u13a0-\u13f5\u13f8-\u13fd\uab70-\uabbf]/;
const ASCII = /^[\x00-\x7f]*$/;

/** Simple uppercase mapping (UnicodeData.txt): one character to one character. */
export function upcaseChar(cp: number): number {
  if (cp < 128) return cp >= 0x61 && cp <= 0x7a ? cp - 32 : cp;
  const e = SIMPLE_UPPER.get(cp);
  if (e !== undefined) return e;
  const u = singleCodePoint(String.fromCodePoint(cp).toUpperCase());
  return u < 0 ? cp : u;
}

/** Simple lowercase mapping (UnicodeData.txt): one character to one character. */
export function downcaseChar(cp: number): number {
  if (cp < 128) return cp >= 0x41 && cp <= 0x5a ? cp + 32 : cp;
  const e = SIMPLE_LOWER.get(cp);
  if (e !== undefined) return e;
  const l = singleCodePoint(String.fromCodePoint(cp).toLowerCase());
  return l < 0 ? cp : l;
}

/** Full case folding of one non-special character, derived from the case mappings. */
function foldDerived(ch: string): string {
  // lower first so that ẞ → ß → SS → ss; upper then lower merges the variant
  // lowercase forms (ς, ϐ, ſ, µ, U+0345, K) into the ordinary lowercase letter.
  return ch.toLowerCase().toUpperCase().toLowerCase().replace(/ς/g, "σ");
}

/** Simple case folding (CaseFolding.txt statuses C and S). */
export function foldcaseChar(cp: number): number {
  if (cp < 128) return cp >= 0x41 && cp <= 0x5a ? cp + 32 : cp;
  const e = FOLD.get(cp);
  if (e !== undefined) return e;
  const ch = String.fromCodePoint(cp);
  const f = singleCodePoint(foldDerived(ch));
  if (f >= 0) return f;
  // The full folding is several characters (ß → ss, ᾈ → ἀι): the simple
  // folding is then the lowercase letter when that is one character (ẞ → ß,
  // ᾈ → ᾀ), else the character itself (ß, İ).
  const l = singleCodePoint(ch.toLowerCase());
  return l < 0 ? cp : l;
}

/** Full uppercase mapping (ß → SS). */
export function upcaseString(s: string): string {
  return s.toUpperCase();
}

/** Full lowercase mapping, with Σ → ς at the end of a word (Final_Sigma). */
export function downcaseString(s: string): string {
  return s.toLowerCase();
}

/** Full case folding (CaseFolding.txt statuses C and F): ß → ss, Σ and ς → σ. */
export function foldcaseString(s: string): string {
  if (ASCII.test(s)) return s.toLowerCase();
  // Folding is context-free, so the whole string can go through the engine at
  // once unless it holds a character whose folding is not derived.
  if (!FOLD_SPECIAL.test(s)) return foldDerived(s);
  let out = "";
  for (const ch of s) {
    const e = FOLD.get(ch.codePointAt(0) as number);
    out += e !== undefined ? String.fromCodePoint(e) : foldDerived(ch);
  }
  return out;
}

/**
 * Compares two JS strings by code point (not by UTF-16 unit, where U+E000..U+FFFF
 * would sort after the astral characters): negative, zero or positive.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) {
        // Move surrogates above U+E000..U+FFFF, keeping each group's order.
        x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
        y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
      }
      return x - y;
    }
  }
  return a.length - b.length;
}
