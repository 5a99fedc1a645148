// Characters (R7RS §6.6): comparisons, Unicode classification, digit values and case.

import { type ProcSpec, T, Char, char, isScalarValue, rangeError } from "../../interpreter/api.js";
import {
  isAlphabetic,
  isDecimalDigit,
  isWhiteSpace,
  isUpperCase,
  isLowerCase,
  digitValue,
  upcaseChar,
  downcaseChar,
  foldcaseChar,
} from "./unicode.js";

type Order = (a: number, b: number) => boolean;

const ORDERS: readonly [string, Order, string][] = [
  ["=?", (a, b) => a === b, "all equal"],
  ["<?", (a, b) => a < b, "strictly increasing"],
  [">?", (a, b) => a > b, "strictly decreasing"],
  ["<=?", (a, b) => a <= b, "non-decreasing"],
  [">=?", (a, b) => a >= b, "non-increasing"],
];

/** char=? … char>=? (by code point) and char-ci=? … (by simple case folding). */
function comparisons(ci: boolean): ProcSpec[] {
  const key = ci ? (c: Char) => foldcaseChar(c.code) : (c: Char) => c.code;
  return ORDERS.map(([suffix, order, what]) => ({
    name: `char${ci ? "-ci" : ""}${suffix}`,
    params: ["char1", "char2", "char ..."],
    types: [T.char, T.char, T.char],
    doc: ci
      ? `True when the characters, compared after char-foldcase, are ${what} by code point.`
      : `True when the characters' code points are ${what}.`,
    impl(a: Char, b: Char, rest: Char[]) {
      let prev = key(b);
      if (!order(key(a), prev)) return false;
      for (const c of rest) {
        const k = key(c);
        if (!order(prev, k)) return false;
        prev = k;
      }
      return true;
    },
  }));
}

function predicate(name: string, test: (cp: number) => boolean, doc: string): ProcSpec {
  return { name, params: ["char"], types: [T.char], doc, impl: (c: Char) => test(c.code) };
}

function mapping(name: string, map: (cp: number) => number, doc: string): ProcSpec {
  return { name, params: ["char"], types: [T.char], doc, impl: (c: Char) => char(map(c.code)) };
}

/** The character primitives of R7RS §6.6 ((scheme base) and (scheme char)). */
export const charPrimitives: ProcSpec[] = [
  {
    name: "char?",
    params: ["obj"],
    doc: "True when obj is a character.",
    impl: (x: any) => x instanceof Char,
  },
  ...comparisons(false),
  ...comparisons(true),
  predicate("char-alphabetic?", isAlphabetic, "True when char has the Unicode property Alphabetic (letters of every script, and more)."),
  predicate("char-numeric?", isDecimalDigit, "True when char is a Unicode decimal digit (Numeric_Type=Decimal, general category Nd), of any script."),
  predicate("char-whitespace?", isWhiteSpace, "True when char has the Unicode property White_Space (space, tab, newline, no-break space, …)."),
  predicate("char-upper-case?", isUpperCase, "True when char has the Unicode property Uppercase."),
  predicate("char-lower-case?", isLowerCase, "True when char has the Unicode property Lowercase."),
  {
    name: "digit-value",
    params: ["char"],
    types: [T.char],
    doc: "The value (0 to 9) of char when it is a decimal digit of any script (char-numeric?), else #f.",
    impl(c: Char) {
      const v = digitValue(c.code);
      return v < 0 ? false : v;
    },
  },
  {
    name: "char->integer",
    params: ["char"],
    types: [T.char],
    doc: "The Unicode code point of char.",
    impl: (c: Char) => c.code,
  },
  {
    name: "integer->char",
    params: ["n"],
    types: [T.exactInteger],
    doc: "The character whose code point is n, which must be a Unicode scalar value (0 to #xD7FF or #xE000 to #x10FFFF).",
    impl(n: number | bigint) {
      if (typeof n !== "number" || !isScalarValue(n))
        rangeError("integer->char", 1, `${n} is not a Unicode scalar value (0..#xD7FF or #xE000..#x10FFFF)`, n);
      return char(n);
    },
  },
  mapping(
    "char-upcase",
    upcaseChar,
    "The uppercase of char by the Unicode simple mapping, or char itself when it has none. " +
      "A character whose uppercase is several characters maps to itself: (char-upcase #\\ß) is #\\ß.",
  ),
  mapping("char-downcase", downcaseChar, "The lowercase of char by the Unicode simple mapping, or char itself when it has none."),
  mapping(
    "char-foldcase",
    foldcaseChar,
    "char folded by Unicode simple case folding, for case-insensitive comparison: usually its lowercase " +
      "(#\\Σ and #\\ς both give #\\σ), but Cherokee folds to uppercase and the Turkish dotless ı to itself.",
  ),
];
