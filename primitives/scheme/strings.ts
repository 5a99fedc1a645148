// Strings (R7RS §6.7): construction, access, comparison, case, copying and conversions.
//
// Every index counts characters (code points): an astral character such as 😀
// is one character, never two UTF-16 units.

import {
  type ProcSpec,
  T,
  NIL,
  Pair,
  Char,
  char,
  MString,
  UNSPECIFIED,
  argError,
  allocate,
  spend,
  COST,
} from "../../interpreter/api.js";
import { checkAllocLength, checkCopyTarget, checkIndex, checkRange, making, properList, visiting } from "./vectors.js";
import { compareCodePoints, downcaseString, foldcaseString, upcaseString } from "./unicode.js";

/** Announces a new string of about `n` characters (held as a JS string: 2 bytes each at most) and the time to make it. */
function makingString(n: number): void {
  allocate(n * 2);
  spend(n * COST.charNs);
}

function checkMutable(who: string, argNo: number, s: MString): void {
  if (s.immutable) argError(who, argNo, "mutable string (a literal is immutable: string-copy it)", s);
}

type Order = (c: number) => boolean;

const ORDERS: readonly [string, Order, string][] = [
  ["=?", (c) => c === 0, "all equal"],
  ["<?", (c) => c < 0, "strictly increasing"],
  [">?", (c) => c > 0, "strictly decreasing"],
  ["<=?", (c) => c <= 0, "non-decreasing"],
  [">=?", (c) => c >= 0, "non-increasing"],
];

/** string=? … string>=? (lexicographic by code point) and string-ci=? … (after string-foldcase). */
function comparisons(ci: boolean): ProcSpec[] {
  const key = ci ? (s: MString) => foldcaseString(s.toString()) : (s: MString) => s.toString();
  return ORDERS.map(([suffix, order, what]) => ({
    name: `string${ci ? "-ci" : ""}${suffix}`,
    params: ["string ..."],
    types: [T.string],
    doc: ci
      ? `True when the strings, compared after string-foldcase (full case folding: "Straße" and "STRASSE" are equal), are ${what}, lexicographically by code point; true for fewer than two strings (SRFI 152's extension).`
      : `True when the strings are ${what}, lexicographically by code point (a proper prefix is less); true for fewer than two strings (SRFI 152's extension).`,
    impl(all: MString[]) {
      if (all.length < 2) return true;
      const [a, b] = all as [MString, MString];
      const rest = all.slice(2);
      let n = a.length + b.length;
      for (const s of rest) n += s.length;
      spend(n * COST.charNs);
      let prev = key(b);
      if (!order(compareCodePoints(key(a), prev))) return false;
      for (const s of rest) {
        const k = key(s);
        if (!order(compareCodePoints(prev, k))) return false;
        prev = k;
      }
      return true;
    },
  }));
}

/** The JS text of s from start to end (the optional range SRFI 13 adds to R7RS procedures). */
function rangeOf(who: string, s: MString, start: number | undefined, end: number | undefined): string {
  if (start === undefined && end === undefined) return s.toString();
  const [a, b] = checkRange(who, 2, start, end, s.length);
  return s.substring(a, b).toString();
}

/** The code points of a list of characters, or a type error. */
function listChars(who: string, l: any): number[] {
  const items = properList(who, 1, l, "list of characters");
  making(items.length, COST.codePointBytes);
  const cps = new Array<number>(items.length);
  for (let i = 0; i < items.length; i++) {
    const c = items[i];
    if (!(c instanceof Char)) argError(who, 1, "list of characters", l);
    cps[i] = c.code;
  }
  return cps;
}

/** The string and (scheme char) string primitives of R7RS §6.7. */
export const stringPrimitives: ProcSpec[] = [
  {
    name: "string?",
    params: ["obj"],
    doc: "True when obj is a string.",
    impl: (x: any) => x instanceof MString,
  },
  {
    name: "make-string",
    params: ["k", "[char]"],
    types: [T.index, T.char],
    doc: "A new string of k characters, each char (a space when char is not given).",
    impl(k: number, c?: Char) {
      // A JS string of k copies: 1 byte a character for Latin-1, 2 for the rest of the BMP, 4 for astral ones.
      const code = c === undefined ? 32 : c.code;
      checkAllocLength("make-string", 1, k, undefined, code < 256 ? 1 : code < 0x10000 ? 2 : 4);
      return new MString((c === undefined ? " " : c.toString()).repeat(k));
    },
  },
  {
    name: "string",
    params: ["char ..."],
    types: [T.char],
    doc: "A new string of the argument characters.",
    impl(cs: Char[]) {
      making(cs.length, COST.codePointBytes);
      return MString.fromCodePoints(cs.map((c) => c.code));
    },
  },
  {
    name: "string-length",
    params: ["string"],
    types: [T.string],
    doc: "The number of characters (code points) of string.",
    impl: (s: MString) => s.length,
  },
  {
    name: "string-ref",
    params: ["string", "k"],
    types: [T.string, T.index],
    doc: "Character k of string (0-based, counting code points).",
    impl: (s: MString, k: number) => char(s.ref(checkIndex("string-ref", 2, k, s.length))),
  },
  {
    name: "string-set!",
    params: ["string", "k", "char"],
    types: [T.string, T.index, T.char],
    doc: "Stores char as character k of string. The string must be mutable: a literal or the result of symbol->string is not.",
    impl(s: MString, k: number, c: Char) {
      checkMutable("string-set!", 1, s);
      s.set(checkIndex("string-set!", 2, k, s.length), c.code);
      return UNSPECIFIED;
    },
  },
  ...comparisons(false),
  ...comparisons(true),
  {
    name: "string-upcase",
    params: ["string", "[start]", "[end]"],
    types: [T.string, T.index, T.index],
    doc: "A new string: string (from start to end, SRFI 13's extension) in uppercase by the full Unicode mappings (\"straße\" gives \"STRASSE\").",
    impl(s: MString, start?: number, end?: number) {
      // Full case mappings may lengthen the text (ß to SS): up to three characters for one.
      makingString(s.length * 3);
      return new MString(upcaseString(rangeOf("string-upcase", s, start, end)));
    },
  },
  {
    name: "string-downcase",
    params: ["string", "[start]", "[end]"],
    types: [T.string, T.index, T.index],
    doc: "A new string: string (from start to end, SRFI 13's extension) in lowercase by the full Unicode mappings, with Σ at the end of a word becoming ς.",
    impl(s: MString, start?: number, end?: number) {
      // Full case mappings may lengthen the text (ß to SS): up to three characters for one.
      makingString(s.length * 3);
      return new MString(downcaseString(rangeOf("string-downcase", s, start, end)));
    },
  },
  {
    name: "string-foldcase",
    params: ["string"],
    types: [T.string],
    doc: "A new string: string with Unicode full case folding, for case-insensitive comparison (\"Straße\" gives \"strasse\", Σ and ς give σ).",
    impl(s: MString) {
      // Full case mappings may lengthen the text (ß to SS): up to three characters for one.
      makingString(s.length * 3);
      return new MString(foldcaseString(s.toString()));
    },
  },
  {
    name: "substring",
    params: ["string", "start", "[end]"],
    types: [T.string, T.index, T.index],
    doc: "A new string of the characters of string from start to end (end excluded; the length when left out, as in SRFI 13's substring/shared).",
    impl(s: MString, start: number, end?: number) {
      const [b, e] = checkRange("substring", 2, start, end, s.length);
      makingString(e - b);
      return s.substring(b, e);
    },
  },
  {
    name: "string-append",
    params: ["string ..."],
    types: [T.string],
    doc: "A new string of the characters of the strings, in order.",
    impl(ss: MString[]) {
      let n = 0;
      for (const s of ss) n += s.length;
      makingString(n);
      return MString.concat(ss);
    },
  },
  {
    name: "string->list",
    params: ["string", "[start]", "[end]"],
    types: [T.string, T.index, T.index],
    doc: "A new list of the characters of string from start (default 0) to end (default the length).",
    impl(s: MString, start?: number, end?: number) {
      const [b, e] = checkRange("string->list", 2, start, end, s.length);
      making(e - b, COST.pairBytes + COST.codePointBytes);
      const cps = s.slice(b, e);
      let r: any = NIL;
      for (let i = cps.length - 1; i >= 0; i--) r = new Pair(char(cps[i] as number), r);
      return r;
    },
  },
  {
    name: "list->string",
    params: ["list"],
    types: [T.list],
    doc: "A new string of the characters of list, a proper list of characters.",
    impl: (l: any) => MString.fromCodePoints(listChars("list->string", l)),
  },
  {
    name: "string-copy",
    params: ["string", "[start]", "[end]"],
    types: [T.string, T.index, T.index],
    doc: "A new mutable string of the characters of string from start (default 0) to end (default the length).",
    impl(s: MString, start?: number, end?: number) {
      const [b, e] = checkRange("string-copy", 2, start, end, s.length);
      makingString(e - b);
      return s.substring(b, e);
    },
  },
  {
    name: "string-copy!",
    params: ["to", "at", "from", "[start]", "[end]"],
    types: [T.string, T.index, T.string, T.index, T.index],
    doc:
      "Copies the characters of from between start and end into the mutable string to, starting at index at. " +
      "Correct when to and from are the same string and the regions overlap.",
    impl(to: MString, at: number, from: MString, start?: number, end?: number) {
      checkMutable("string-copy!", 1, to);
      const [b, e] = checkRange("string-copy!", 4, start, end, from.length);
      checkCopyTarget("string-copy!", at, e - b, to.length);
      making(e - b, COST.codePointBytes);
      if (e > b) to.copyFrom(at, from, b, e);
      return UNSPECIFIED;
    },
  },
  {
    name: "string-fill!",
    params: ["string", "char", "[start]", "[end]"],
    types: [T.string, T.char, T.index, T.index],
    doc: "Stores char in the characters of the mutable string from start (default 0) to end (default the length).",
    impl(s: MString, c: Char, start?: number, end?: number) {
      checkMutable("string-fill!", 1, s);
      const [b, e] = checkRange("string-fill!", 3, start, end, s.length);
      visiting(e - b);
      if (e > b) s.fill(c.code, b, e);
      return UNSPECIFIED;
    },
  },
  {
    name: "string->vector",
    params: ["string", "[start]", "[end]"],
    types: [T.string, T.index, T.index],
    doc: "A new vector of the characters of string from start (default 0) to end (default the length).",
    impl(s: MString, start?: number, end?: number) {
      const [b, e] = checkRange("string->vector", 2, start, end, s.length);
      making(e - b, COST.slotBytes * 2);
      return s.slice(b, e).map((cp) => char(cp));
    },
  },
  {
    name: "vector->string",
    params: ["vector", "[start]", "[end]"],
    types: [T.vector, T.index, T.index],
    doc: "A new string of the elements of vector, which must be characters, from start (default 0) to end (default the length).",
    impl(v: any[], start?: number, end?: number) {
      const [b, e] = checkRange("vector->string", 2, start, end, v.length);
      making(e - b, COST.codePointBytes);
      const cps = new Array<number>(e - b);
      for (let i = b; i < e; i++) {
        const c = v[i];
        if (!(c instanceof Char)) argError("vector->string", 1, "vector of characters", v);
        cps[i - b] = c.code;
      }
      return MString.fromCodePoints(cps);
    },
  },
];
