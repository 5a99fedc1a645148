// SRFI 13's procedures that call no procedure argument: searching, padding, trimming, comparing, joining, case.
//
// Those that take a char/char-set/pred criterion are here for characters and
// char-sets; stdlib/srfi/13.sld tests predicates itself and calls these for
// the rest. Every index counts code points (text.ts).

import {
  type ProcSpec,
  type ArgType,
  T,
  NIL,
  Pair,
  Char,
  MString,
  Sym,
  UNSPECIFIED,
  makeValues,
  listToArray,
  argError,
  rangeError,
} from "../../interpreter/api.js";
import { CharSet } from "./char-set.js";
import { CS } from "./char-sets.js";
import { CRITERION, GRAPHIC, Text, WHITESPACE, codes, fold13, fromCodes, matcher, procedureName, producing, range, stringList, type Criterion } from "./text.js";
import { compareCodePoints, downcaseChar, foldcaseChar, isLowerCase, isUpperCase, upcaseChar } from "../scheme/unicode.js";

const S = T.string;
const I = T.index;

function checkMutable(who: string, argNo: number, s: MString): void {
  if (s.immutable) argError(who, argNo, "mutable string (a literal is immutable: string-copy it)", s);
}

// ---- searching -----------------------------------------------------------------------

/** The first index in [a, b) whose code point `test` accepts (or rejects, when `skip`), or false. */
function scanLeft(t: Text, a: number, b: number, test: (cp: number) => boolean, skip: boolean): number | false {
  for (let i = a; i < b; i++) if (test(t.at(i)) !== skip) return i;
  return false;
}

function scanRight(t: Text, a: number, b: number, test: (cp: number) => boolean, skip: boolean): number | false {
  for (let i = b - 1; i >= a; i--) if (test(t.at(i)) !== skip) return i;
  return false;
}

/** string-index: a character found with the engine's indexOf on the range. */
function indexOfChar(t: Text, a: number, b: number, c: Char, right: boolean): number | false {
  const hay = t.js.slice(t.off(a), t.off(b));
  const needle = String.fromCodePoint(c.code);
  const u = right ? hay.lastIndexOf(needle) : hay.indexOf(needle);
  return u < 0 ? false : t.index(t.off(a) + u);
}

function searcher(name: string, right: boolean, skip: boolean, doc: string): ProcSpec {
  return {
    name,
    params: ["s", "char/char-set/pred", "[start]", "[end]"],
    types: [S, CRITERION, I, I],
    doc,
    impl(s: MString, c: Criterion, start?: number, end?: number) {
      const t = new Text(s);
      const [a, b] = range(name, 3, start, end, t.n);
      if (!skip && c instanceof Char) return indexOfChar(t, a, b, c, right);
      const test = matcher(c);
      return right ? scanRight(t, a, b, test, skip) : scanLeft(t, a, b, test, skip);
    },
  };
}

/** The index in t1[a1, b1) of the first (or last) occurrence of t2[a2, b2), or false. */
function contains(t1: Text, a1: number, b1: number, t2: Text, a2: number, b2: number, ci: boolean, right = false): number | false {
  if (!ci) {
    const hay = t1.js.slice(t1.off(a1), t1.off(b1));
    const needle = t2.slice(a2, b2);
    const u = right ? hay.lastIndexOf(needle) : hay.indexOf(needle);
    return u < 0 ? false : t1.index(t1.off(a1) + u);
  }
  // Case-folded: Knuth-Morris-Pratt over the folded code points, linear in the text.
  const hay = codes(t1, a1, b1, true);
  const pat = codes(t2, a2, b2, true);
  const m = pat.length;
  if (m === 0) return right ? b1 : a1;
  const fail = new Int32Array(m);
  for (let i = 1, k = 0; i < m; i++) {
    while (k > 0 && pat[i] !== pat[k]) k = fail[k - 1] as number;
    if (pat[i] === pat[k]) k++;
    fail[i] = k;
  }
  let found: number | false = false;
  for (let i = 0, k = 0; i < hay.length; i++) {
    while (k > 0 && hay[i] !== pat[k]) k = fail[k - 1] as number;
    if (hay[i] === pat[k]) k++;
    if (k === m) {
      found = a1 + i - m + 1;
      if (!right) return found;
      k = fail[k - 1] as number;
    }
  }
  return found;
}

// ---- comparing -----------------------------------------------------------------------

/** The two ranges of a (s1 s2 [start1 end1 start2 end2]) procedure. */
function twoRanges(who: string, s1: MString, s2: MString, st1?: number, e1?: number, st2?: number, e2?: number): { t1: Text; t2: Text; a1: number; b1: number; a2: number; b2: number } {
  const t1 = new Text(s1);
  const t2 = new Text(s2);
  const [a1, b1] = range(who, 3, st1, e1, t1.n);
  const [a2, b2] = range(who, 5, st2, e2, t2.n);
  return { t1, t2, a1, b1, a2, b2 };
}

/** Length of the common prefix of t1[a1, b1) and t2[a2, b2). */
function prefixLength(t1: Text, a1: number, b1: number, t2: Text, a2: number, b2: number, ci: boolean): number {
  const n = Math.min(b1 - a1, b2 - a2);
  let k = 0;
  if (!ci) while (k < n && t1.at(a1 + k) === t2.at(a2 + k)) k++;
  else while (k < n && fold13(t1.at(a1 + k)) === fold13(t2.at(a2 + k))) k++;
  return k;
}

function suffixLength(t1: Text, a1: number, b1: number, t2: Text, a2: number, b2: number, ci: boolean): number {
  const n = Math.min(b1 - a1, b2 - a2);
  let k = 0;
  if (!ci) while (k < n && t1.at(b1 - 1 - k) === t2.at(b2 - 1 - k)) k++;
  else while (k < n && fold13(t1.at(b1 - 1 - k)) === fold13(t2.at(b2 - 1 - k))) k++;
  return k;
}

/** -1, 0 or 1: how t1[a1, b1) compares with t2[a2, b2), code point by code point (folded when ci). */
function compare(t1: Text, a1: number, b1: number, t2: Text, a2: number, b2: number, ci: boolean): number {
  if (!ci) return Math.sign(compareCodePoints(t1.slice(a1, b1), t2.slice(a2, b2)));
  const k = prefixLength(t1, a1, b1, t2, a2, b2, true);
  if (k === b1 - a1) return k === b2 - a2 ? 0 : -1;
  if (k === b2 - a2) return 1;
  return fold13(t1.at(a1 + k)) < fold13(t2.at(a2 + k)) ? -1 : 1;
}

const ORDERS: readonly [string, (c: number) => boolean, string][] = [
  ["=", (c) => c === 0, "equal to"],
  ["<>", (c) => c !== 0, "not equal to"],
  ["<", (c) => c < 0, "less than"],
  [">", (c) => c > 0, "greater than"],
  ["<=", (c) => c <= 0, "less than or equal to"],
  [">=", (c) => c >= 0, "greater than or equal to"],
];

const RANGES2 = ["s1", "s2", "[start1]", "[end1]", "[start2]", "[end2]"];
const RANGES2_TYPES = [S, S, I, I, I, I];

function comparisons(ci: boolean): ProcSpec[] {
  return ORDERS.map(([suffix, order, what]) => {
    const name = `string${ci ? "-ci" : ""}${suffix}`;
    return {
      name,
      params: RANGES2,
      types: RANGES2_TYPES,
      doc: `True when s1[start1, end1) is ${what} s2[start2, end2), lexicographically by code point${ci ? ", both case-folded by the 1-1 mappings ((char-downcase (char-upcase c)))" : " (a proper prefix is less)"}.`,
      impl(s1: MString, s2: MString, st1?: number, e1?: number, st2?: number, e2?: number) {
        const r = twoRanges(name, s1, s2, st1, e1, st2, e2);
        return order(compare(r.t1, r.a1, r.b1, r.t2, r.a2, r.b2, ci));
      },
    };
  });
}

/** A 26-bit FNV-1a hash of code points, reduced to [0, bound) when bound is positive. */
function hash(t: Text, a: number, b: number, ci: boolean, bound: number | bigint | undefined): number {
  let h = 0x811c9dc5;
  for (let i = a; i < b; i++) {
    h ^= ci ? fold13(t.at(i)) : t.at(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  h &= 0x3ffffff;
  if (bound === undefined || bound === 0 || bound === 0n) return h;
  if (typeof bound === "bigint") return bound > BigInt(h) ? h : Number(BigInt(h) % bound);
  return h % bound;
}

const BOUND: ArgType = { name: "exact non-negative integer", test: (x: any) => (typeof x === "number" && Number.isInteger(x) && x >= 0) || (typeof x === "bigint" && x >= 0n) };

// ---- case ----------------------------------------------------------------------------

/** The simple titlecase of a code point: its simple uppercase, except the digraphs (ǆ → ǅ) and Georgian (itself). */
export function titlecaseChar(cp: number): number {
  switch (cp) {
    case 0x1c4:
    case 0x1c5:
    case 0x1c6:
      return 0x1c5;
    case 0x1c7:
    case 0x1c8:
    case 0x1c9:
      return 0x1c8;
    case 0x1ca:
    case 0x1cb:
    case 0x1cc:
      return 0x1cb;
    case 0x1f1:
    case 0x1f2:
    case 0x1f3:
      return 0x1f2;
  }
  // Georgian Mkhedruli has uppercase (Mtavruli) letters but titlecases to itself.
  if ((cp >= 0x10d0 && cp <= 0x10fa) || (cp >= 0x10fd && cp <= 0x10ff)) return cp;
  return upcaseChar(cp);
}

const TITLE = /\p{Lt}/u;

/** Cased in Unicode's sense: Lowercase, Uppercase or titlecase. */
function isCased(cp: number): boolean {
  return isLowerCase(cp) || isUpperCase(cp) || TITLE.test(String.fromCodePoint(cp));
}

/** The code points of t[a, b) titlecased word by word: after a cased character down, otherwise title. */
function titlecased(t: Text, a: number, b: number): number[] {
  const out: number[] = [];
  let prevCased = false;
  for (let i = a; i < b; i++) {
    const c = t.at(i);
    out.push(prevCased ? downcaseChar(c) : titlecaseChar(c));
    prevCased = isCased(c);
  }
  return out;
}

function caseRange(name: string, map: (t: Text, a: number, b: number) => number[], doc: string, inPlace: boolean): ProcSpec {
  return {
    name,
    params: ["s", "[start]", "[end]"],
    types: [S, I, I],
    doc,
    impl(s: MString, start?: number, end?: number) {
      if (inPlace) checkMutable(name, 1, s);
      const t = new Text(s);
      const [a, b] = range(name, 2, start, end, t.n);
      const cps = map(t, a, b);
      if (!inPlace) return fromCodes(cps);
      for (let i = 0; i < cps.length; i++) s.set(a + i, cps[i] as number);
      return UNSPECIFIED;
    },
  };
}

const mapped = (f: (cp: number) => number) => (t: Text, a: number, b: number) => {
  const out: number[] = [];
  for (let i = a; i < b; i++) out.push(f(t.at(i)));
  return out;
};

// ---- joining, padding, trimming ----------------------------------------------------------------

const GRAMMARS = ["infix", "strict-infix", "suffix", "prefix"];

function join(who: string, list: any, delimiter: MString | undefined, grammar: Sym | undefined): MString {
  const parts = stringList(who, 1, list).map((s) => s.toString());
  const d = delimiter === undefined ? " " : delimiter.toString();
  producing(d.length * (parts.length + 1));
  const g = grammar === undefined ? "infix" : grammar.name;
  if (!GRAMMARS.includes(g)) argError(who, 3, "grammar infix, strict-infix, suffix or prefix", grammar);
  if (g === "strict-infix" && parts.length === 0) rangeError(who, 1, "an empty list cannot be joined with the strict-infix grammar", list);
  if (g === "suffix") return new MString(parts.map((p) => p + d).join(""));
  if (g === "prefix") return new MString(parts.map((p) => d + p).join(""));
  return new MString(parts.join(d));
}

/** s[start, end) padded on the left (or right) with char to len, or truncated on that side to len. */
function pad(who: string, right: boolean, s: MString, len: number, c: Char | undefined, start?: number, end?: number): MString {
  const t = new Text(s);
  const [a, b] = range(who, 4, start, end, t.n);
  const n = b - a;
  const fill = c === undefined ? " " : String.fromCodePoint(c.code);
  producing(len);
  if (n >= len) return new MString(right ? t.slice(a, a + len) : t.slice(b - len, b));
  const padding = fill.repeat(len - n);
  return new MString(right ? t.slice(a, b) + padding : padding + t.slice(a, b));
}

function trim(who: string, left: boolean, right: boolean, s: MString, c: Criterion | undefined, start?: number, end?: number): MString {
  const t = new Text(s);
  const [a, b] = range(who, 3, start, end, t.n);
  const test = matcher(c ?? WHITESPACE);
  let i = a;
  let j = b;
  if (left) while (i < j && test(t.at(i))) i++;
  if (right) while (j > i && test(t.at(j - 1))) j--;
  return new MString(t.slice(i, j));
}

/** The arguments of string-filter and string-delete in either order: (criterion s …), as SRFI 13 writes it, or (s criterion …). */
function filterArgs(who: string, x: any, y: any): [Criterion, MString] {
  if (x instanceof MString && (y instanceof Char || y instanceof CharSet)) return [y, x];
  if (!(y instanceof MString)) argError(who, 2, "string", y);
  if (!(x instanceof Char || x instanceof CharSet)) argError(who, 1, "character, char-set or predicate", x);
  return [x, y];
}

function filter(who: string, keep: boolean, x: any, y: any, start?: number, end?: number): MString {
  const [c, s] = filterArgs(who, x, y);
  const t = new Text(s);
  const [a, b] = range(who, 3, start, end, t.n);
  const test = matcher(c);
  const out: number[] = [];
  for (let i = a; i < b; i++) {
    const cp = t.at(i);
    if (test(cp) === keep) out.push(cp);
  }
  return fromCodes(out);
}

// ---- replicating ---------------------------------------------------------------------------------

/** The code points [from, to) of the infinite repetition of t[a, b); from and to may be bignums, their difference not. */
function replicated(who: string, t: Text, from: number | bigint, to: number | bigint, a: number, b: number): number[] {
  const count = BigInt(to) - BigInt(from);
  if (count < 0n) rangeError(who, 3, `to ${to} is less than from ${from}`, to);
  if (count > 2n ** 26n) rangeError(who, 3, `${count} characters exceed the maximum string length`, to);
  const n = Number(count);
  const len = b - a;
  if (len === 0) {
    if (n > 0) rangeError(who, 4, "an empty substring cannot be replicated", a);
    return [];
  }
  const L = BigInt(len);
  const first = Number(((BigInt(from) % L) + L) % L);
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = t.at(a + ((first + i) % len));
  return out;
}

// ---- parsing start and end ---------------------------------------------------------------------------

const isExactInt = (x: any): x is number => typeof x === "number" && Number.isInteger(x);

/** string-parse-start+end's checks: [rest, start, end]. */
function parseStartEnd(proc: any, s: any, args: any, final: boolean): [any, number, number] {
  const who = procedureName(proc);
  if (!(s instanceof MString)) argError(who, 1, "string", s);
  const len = s.length;
  const items = listToArray(args);
  if (items === null) argError(who, 3, "list", args);
  if (final && items.length > 2) argError(who, 3, "at most two arguments, start and end", args);
  if (items.length === 0) return [NIL, 0, len];
  const start = items[0];
  if (!isExactInt(start) || start < 0 || start > len) rangeError(who, 2, `start ${String(start)} out of range [0, ${len}]`, start);
  if (items.length === 1) return [(args as Pair).cdr, start, len];
  const end = items[1];
  if (!isExactInt(end) || end < start || end > len) rangeError(who, 3, `end ${String(end)} out of range [${start}, ${len}]`, end);
  return [((args as Pair).cdr as Pair).cdr, start, end];
}

const substringOk = (s: any, start: any, end: any): boolean =>
  s instanceof MString && isExactInt(start) && isExactInt(end) && start >= 0 && start <= end && end <= s.length;

/** The KMP restart vector of pattern[a, b) (SRFI 13's definition, -1 where a restart at the pattern's start is useless). */
export function kmpRestart(cps: ArrayLike<number>): number[] {
  const m = cps.length;
  // pi[j]: the length of the longest proper prefix of cps[0, j] that is also its suffix.
  const pi = new Int32Array(m);
  for (let j = 1, k = 0; j < m; j++) {
    while (k > 0 && cps[j] !== cps[k]) k = pi[k - 1] as number;
    if (cps[j] === cps[k]) k++;
    pi[j] = k;
  }
  const rv = new Array<number>(m).fill(-1);
  for (let i = 1; i < m; i++) {
    const f = pi[i - 1] as number;
    rv[i] = f > 0 ? f : cps[i] === cps[0] ? -1 : 0;
  }
  return rv;
}

// ---- the table ------------------------------------------------------------------------------------------

/** The procedures of (nodwyn primitives srfi 13). */
export const stringPrimitives13: ProcSpec[] = [
  {
    name: "string-range",
    params: ["who", "s", "start-arg-no", "start", "end"],
    types: [T.symbol, S, I, null, null],
    doc: "Two values: start and end (#f for the default, 0 and the length of s), checked as the range of s that argument number start-arg-no of who begins.",
    impl(who: Sym, s: MString, n: number, start: any, end: any) {
      const arg = (x: any, k: number): number | undefined => {
        if (x === false) return undefined;
        if (typeof x !== "number" || !Number.isInteger(x) || x < 0) return argError(who.name, k, "exact non-negative integer", x);
        return x;
      };
      const [a, b] = range(who.name, n, arg(start, n), arg(end, n + 1), s.length);
      return makeValues([a, b]);
    },
  },
  {
    name: "string-null?",
    params: ["s"],
    types: [S],
    doc: "True when s is the empty string.",
    impl: (s: MString) => s.length === 0,
  },
  {
    name: "string-every",
    params: ["char/char-set/pred", "s", "[start]", "[end]"],
    types: [CRITERION, S, I, I],
    doc: "True when every character of s[start, end) is char or in char-set (for a predicate: its last value, or #t for none).",
    impl(c: Criterion, s: MString, start?: number, end?: number) {
      const t = new Text(s);
      const [a, b] = range("string-every", 3, start, end, t.n);
      return scanLeft(t, a, b, matcher(c), true) === false;
    },
  },
  {
    name: "string-any",
    params: ["char/char-set/pred", "s", "[start]", "[end]"],
    types: [CRITERION, S, I, I],
    doc: "True when some character of s[start, end) is char or in char-set (for a predicate: its first true value).",
    impl(c: Criterion, s: MString, start?: number, end?: number) {
      const t = new Text(s);
      const [a, b] = range("string-any", 3, start, end, t.n);
      return scanLeft(t, a, b, matcher(c), false) !== false;
    },
  },
  {
    name: "reverse-list->string",
    params: ["char-list"],
    types: [T.list],
    doc: "A new string of the characters of char-list in reverse order: (list->string (reverse char-list)).",
    impl(l: any) {
      const items = listToArray(l);
      if (items === null || !items.every((c) => c instanceof Char)) return argError("reverse-list->string", 1, "list of characters", l);
      return fromCodes(items.reverse().map((c: Char) => c.code));
    },
  },
  {
    name: "string-join",
    params: ["string-list", "[delimiter]", "[grammar]"],
    types: [T.list, S, T.symbol],
    doc: "The strings joined with delimiter (\" \" by default) between them (grammar infix, the default), between them and never for an empty list (strict-infix: an error), after each (suffix) or before each (prefix).",
    impl: (l: any, d?: MString, g?: Sym) => join("string-join", l, d, g),
  },
  {
    name: "substring/shared",
    params: ["s", "start", "[end]"],
    types: [S, I, I],
    doc: "The characters of s from start to end (default the length); here always a new string.",
    impl(s: MString, start: number, end?: number) {
      const t = new Text(s);
      const [a, b] = range("substring/shared", 2, start, end, t.n);
      return new MString(t.slice(a, b));
    },
  },
  ...(["string-take", "string-drop", "string-take-right", "string-drop-right"] as const).map(
    (name): ProcSpec => ({
      name,
      params: ["s", "nchars"],
      types: [S, I],
      doc: {
        "string-take": "A new string of the first nchars characters of s.",
        "string-drop": "A new string of all but the first nchars characters of s.",
        "string-take-right": "A new string of the last nchars characters of s.",
        "string-drop-right": "A new string of all but the last nchars characters of s.",
      }[name],
      impl(s: MString, k: number) {
        const t = new Text(s);
        if (k > t.n) rangeError(name, 2, `${k} characters from a string of ${t.n}`, k);
        switch (name) {
          case "string-take":
            return new MString(t.slice(0, k));
          case "string-drop":
            return new MString(t.slice(k, t.n));
          case "string-take-right":
            return new MString(t.slice(t.n - k, t.n));
          case "string-drop-right":
            return new MString(t.slice(0, t.n - k));
        }
      },
    }),
  ),
  {
    name: "string-pad",
    params: ["s", "len", "[char]", "[start]", "[end]"],
    types: [S, I, T.char, I, I],
    doc: "A new string of length len: s[start, end) with char (a space by default) added on the left, or its last len characters when it is longer.",
    impl: (s: MString, len: number, c?: Char, start?: number, end?: number) => pad("string-pad", false, s, len, c, start, end),
  },
  {
    name: "string-pad-right",
    params: ["s", "len", "[char]", "[start]", "[end]"],
    types: [S, I, T.char, I, I],
    doc: "A new string of length len: s[start, end) with char (a space by default) added on the right, or its first len characters when it is longer.",
    impl: (s: MString, len: number, c?: Char, start?: number, end?: number) => pad("string-pad-right", true, s, len, c, start, end),
  },
  ...([
    ["string-trim", true, false, "on the left"],
    ["string-trim-right", false, true, "on the right"],
    ["string-trim-both", true, true, "on both sides"],
  ] as const).map(
    ([name, left, right, where]): ProcSpec => ({
      name,
      params: ["s", "[char/char-set/pred]", "[start]", "[end]"],
      types: [S, CRITERION, I, I],
      doc: `A new string of s[start, end) without the characters ${where} that are char, in char-set, or satisfy pred (char-set:whitespace by default).`,
      impl: (s: MString, c?: Criterion, start?: number, end?: number) => trim(name, left, right, s, c, start, end),
    }),
  ),
  {
    name: "string-mismatch",
    params: ["s1", "s2", "ci", "[start1]", "[end1]", "[start2]", "[end2]"],
    types: [S, S, T.boolean, I, I, I, I],
    doc: "Two values: the index in s1 of the first character where s1[start1, end1) and s2[start2, end2) differ (end1 when they are equal), and -1, 0 or 1 as s1's range is less than, equal to or greater than s2's (case-folded when ci).",
    impl(s1: MString, s2: MString, ci: boolean, st1?: number, e1?: number, st2?: number, e2?: number) {
      const t1 = new Text(s1);
      const t2 = new Text(s2);
      const who = ci ? "string-compare-ci" : "string-compare";
      const [a1, b1] = range(who, 6, st1, e1, t1.n);
      const [a2, b2] = range(who, 8, st2, e2, t2.n);
      const order = compare(t1, a1, b1, t2, a2, b2, ci);
      const k = prefixLength(t1, a1, b1, t2, a2, b2, ci);
      return makeValues([order === 0 ? b1 : a1 + k, order]);
    },
  },
  ...comparisons(false),
  ...comparisons(true),
  ...([false, true] as const).map(
    (ci): ProcSpec => ({
      name: ci ? "string-hash-ci" : "string-hash",
      params: ["s", "[bound]", "[start]", "[end]"],
      types: [S, BOUND, I, I],
      doc: `A hash of s[start, end) in [0, bound)${ci ? ", the same for strings string-ci= to each other" : ", the same for string= strings"}; with bound 0 or none, a non-negative fixnum.`,
      impl(s: MString, bound?: number | bigint, start?: number, end?: number) {
        const t = new Text(s);
        const [a, b] = range(ci ? "string-hash-ci" : "string-hash", 3, start, end, t.n);
        return hash(t, a, b, ci, bound);
      },
    }),
  ),
  ...([
    ["string-prefix-length", false, false],
    ["string-suffix-length", true, false],
    ["string-prefix-length-ci", false, true],
    ["string-suffix-length-ci", true, true],
  ] as const).map(
    ([name, suffix, ci]): ProcSpec => ({
      name,
      params: RANGES2,
      types: RANGES2_TYPES,
      doc: `The length of the longest common ${suffix ? "suffix" : "prefix"} of s1[start1, end1) and s2[start2, end2)${ci ? ", case-folded by the 1-1 mappings" : ""}.`,
      impl(s1: MString, s2: MString, st1?: number, e1?: number, st2?: number, e2?: number) {
        const r = twoRanges(name, s1, s2, st1, e1, st2, e2);
        return (suffix ? suffixLength : prefixLength)(r.t1, r.a1, r.b1, r.t2, r.a2, r.b2, ci);
      },
    }),
  ),
  ...([
    ["string-prefix?", false, false],
    ["string-suffix?", true, false],
    ["string-prefix-ci?", false, true],
    ["string-suffix-ci?", true, true],
  ] as const).map(
    ([name, suffix, ci]): ProcSpec => ({
      name,
      params: RANGES2,
      types: RANGES2_TYPES,
      doc: `True when s1[start1, end1) is a ${suffix ? "suffix" : "prefix"} of s2[start2, end2)${ci ? ", case-folded by the 1-1 mappings" : ""}.`,
      impl(s1: MString, s2: MString, st1?: number, e1?: number, st2?: number, e2?: number) {
        const r = twoRanges(name, s1, s2, st1, e1, st2, e2);
        return (suffix ? suffixLength : prefixLength)(r.t1, r.a1, r.b1, r.t2, r.a2, r.b2, ci) === r.b1 - r.a1;
      },
    }),
  ),
  searcher("string-index", false, false, "The index of the first character of s[start, end) that is char, in char-set or satisfies pred, or #f."),
  searcher("string-index-right", true, false, "The index of the last character of s[start, end) that is char, in char-set or satisfies pred, or #f."),
  searcher("string-skip", false, true, "The index of the first character of s[start, end) that is not char, not in char-set or fails pred, or #f."),
  searcher("string-skip-right", true, true, "The index of the last character of s[start, end) that is not char, not in char-set or fails pred, or #f."),
  {
    name: "string-count",
    params: ["s", "char/char-set/pred", "[start]", "[end]"],
    types: [S, CRITERION, I, I],
    doc: "How many characters of s[start, end) are char, are in char-set or satisfy pred.",
    impl(s: MString, c: Criterion, start?: number, end?: number) {
      const t = new Text(s);
      const [a, b] = range("string-count", 3, start, end, t.n);
      const test = matcher(c);
      let n = 0;
      for (let i = a; i < b; i++) if (test(t.at(i))) n++;
      return n;
    },
  },
  ...([false, true] as const).map(
    (ci): ProcSpec => ({
      name: ci ? "string-contains-ci" : "string-contains",
      params: RANGES2,
      types: RANGES2_TYPES,
      doc: `The index in s1 where s2[start2, end2) first occurs within s1[start1, end1)${ci ? ", case-folded by the 1-1 mappings" : ""}, or #f.`,
      impl(s1: MString, s2: MString, st1?: number, e1?: number, st2?: number, e2?: number) {
        const r = twoRanges(ci ? "string-contains-ci" : "string-contains", s1, s2, st1, e1, st2, e2);
        return contains(r.t1, r.a1, r.b1, r.t2, r.a2, r.b2, ci);
      },
    }),
  ),
  caseRange("string-titlecase", titlecased, "A new string of s[start, end) with each character after a cased character downcased and every other one titlecased: \"3com makes\" gives \"3Com Makes\".", false),
  caseRange("string-titlecase!", titlecased, "Titlecases s[start, end) in place, as string-titlecase does.", true),
  caseRange("string-upcase!", mapped(upcaseChar), "Upcases s[start, end) in place, by the 1-1 mappings (\"ß\" stays itself: in place the length cannot change).", true),
  caseRange("string-downcase!", mapped(downcaseChar), "Downcases s[start, end) in place, by the 1-1 mappings.", true),
  caseRange("string-reverse", (t, a, b) => Array.from(codes(t, a, b, false)).reverse(), "A new string of the characters of s[start, end) in reverse order.", false),
  caseRange("string-reverse!", (t, a, b) => Array.from(codes(t, a, b, false)).reverse(), "Reverses the characters of s[start, end) in place.", true),
  {
    name: "string-concatenate",
    params: ["string-list"],
    types: [T.list],
    doc: "A new string of the strings of string-list, in order: (apply string-append string-list) for a list of any length.",
    impl: (l: any) => new MString(stringList("string-concatenate", 1, l).join("")),
  },
  {
    name: "string-concatenate/shared",
    params: ["string-list"],
    types: [T.list],
    doc: "string-concatenate (here always a new string).",
    impl: (l: any) => new MString(stringList("string-concatenate/shared", 1, l).join("")),
  },
  {
    name: "string-append/shared",
    params: ["s ..."],
    types: [S],
    doc: "string-append (here always a new string).",
    impl: (ss: MString[]) => new MString(ss.join("")),
  },
  ...(["string-concatenate-reverse", "string-concatenate-reverse/shared"] as const).map(
    (name): ProcSpec => ({
      name,
      params: ["string-list", "[final-string]", "[end]"],
      types: [T.list, S, I],
      doc: "A new string of the strings of string-list in reverse order, followed by the first end characters of final-string (all of them by default; none when it is not given).",
      impl(l: any, final?: MString, end?: number) {
        const parts = stringList(name, 1, l).map((s) => s.toString()).reverse();
        if (final !== undefined) {
          const t = new Text(final);
          const [, b] = range(name, 2, 0, end, t.n);
          parts.push(t.slice(0, b));
        }
        return new MString(parts.join(""));
      },
    }),
  ),
  {
    name: "xsubstring",
    params: ["s", "from", "[to]", "[start]", "[end]"],
    types: [S, T.exactInteger, T.exactInteger, I, I],
    doc: "The characters from index from to index to (default from + end - start) of s[start, end) repeated without end in both directions: (xsubstring \"abcdef\" 2) is \"cdefab\", (xsubstring \"abc\" 0 7) is \"abcabca\".",
    impl(s: MString, from: number | bigint, to?: number | bigint, start?: number, end?: number) {
      const t = new Text(s);
      const [a, b] = range("xsubstring", 4, start, end, t.n);
      return fromCodes(replicated("xsubstring", t, from, to ?? BigInt(from) + BigInt(b - a), a, b));
    },
  },
  {
    name: "string-xcopy!",
    params: ["target", "tstart", "s", "sfrom", "[sto]", "[start]", "[end]"],
    types: [S, I, S, T.exactInteger, T.exactInteger, I, I],
    doc: "Writes (xsubstring s sfrom sto start end) into target from index tstart.",
    impl(target: MString, tstart: number, s: MString, from: number | bigint, to?: number | bigint, start?: number, end?: number) {
      checkMutable("string-xcopy!", 1, target);
      const t = new Text(s);
      const [a, b] = range("string-xcopy!", 6, start, end, t.n);
      const cps = replicated("string-xcopy!", t, from, to ?? BigInt(from) + BigInt(b - a), a, b);
      if (tstart > target.length || cps.length > target.length - tstart)
        rangeError("string-xcopy!", 2, `no room for ${cps.length} characters at index ${tstart} of a string of length ${target.length}`, tstart);
      for (let i = 0; i < cps.length; i++) target.set(tstart + i, cps[i] as number);
      return UNSPECIFIED;
    },
  },
  {
    name: "string-replace",
    params: ["s1", "s2", "start1", "end1", "[start2]", "[end2]"],
    types: [S, S, I, I, I, I],
    doc: "A new string: s1 with its characters from start1 to end1 replaced by s2[start2, end2).",
    impl(s1: MString, s2: MString, st1: number, e1: number, st2?: number, e2?: number) {
      const r = twoRanges("string-replace", s1, s2, st1, e1, st2, e2);
      return new MString(r.t1.slice(0, r.a1) + r.t2.slice(r.a2, r.b2) + r.t1.slice(r.b1, r.t1.n));
    },
  },
  {
    name: "string-tokenize",
    params: ["s", "[token-set]", "[start]", "[end]"],
    types: [S, CS, I, I],
    doc: "The list of the maximal non-empty runs of characters of s[start, end) in token-set (char-set:graphic by default): (string-tokenize \"a b  c\") is (\"a\" \"b\" \"c\").",
    impl(s: MString, cs?: CharSet, start?: number, end?: number) {
      const t = new Text(s);
      const [a, b] = range("string-tokenize", 3, start, end, t.n);
      const test = matcher(cs ?? GRAPHIC);
      const head = new Pair(false, NIL);
      let tail = head;
      let i = a;
      while (i < b) {
        while (i < b && !test(t.at(i))) i++;
        if (i >= b) break;
        const j0 = i;
        while (i < b && test(t.at(i))) i++;
        const cell = new Pair(new MString(t.slice(j0, i)), NIL);
        tail.cdr = cell;
        tail = cell;
      }
      return head.cdr;
    },
  },
  {
    name: "string-filter",
    params: ["char/char-set/pred", "s", "[start]", "[end]"],
    doc: "A new string of the characters of s[start, end) that are char, are in char-set or satisfy pred (the string may also come first).",
    impl: (x: any, y: any, start?: number, end?: number) => filter("string-filter", true, x, y, start, end),
    types: [null, null, I, I],
  },
  {
    name: "string-delete",
    params: ["char/char-set/pred", "s", "[start]", "[end]"],
    doc: "A new string of the characters of s[start, end) that are not char, are not in char-set or fail pred (the string may also come first).",
    impl: (x: any, y: any, start?: number, end?: number) => filter("string-delete", false, x, y, start, end),
    types: [null, null, I, I],
  },
  {
    name: "string-parse-start+end",
    params: ["proc", "s", "args"],
    doc: "Three values: args without its first two elements, and those two as start and end (0 and the length of s by default), checked to be 0 <= start <= end <= (string-length s); an error naming proc otherwise.",
    impl(proc: any, s: any, args: any) {
      const [rest, a, b] = parseStartEnd(proc, s, args, false);
      return makeValues([rest, a, b]);
    },
  },
  {
    name: "string-parse-final-start+end",
    params: ["proc", "s", "args"],
    doc: "Two values: start and end from args (at most two elements), as string-parse-start+end checks and defaults them.",
    impl(proc: any, s: any, args: any) {
      const [, a, b] = parseStartEnd(proc, s, args, true);
      return makeValues([a, b]);
    },
  },
  {
    name: "check-substring-spec",
    params: ["proc", "s", "start", "end"],
    doc: "An error naming proc unless s is a string and 0 <= start <= end <= (string-length s).",
    impl(proc: any, s: any, start: any, end: any) {
      if (!substringOk(s, start, end)) {
        if (!(s instanceof MString)) argError(procedureName(proc), 1, "string", s);
        rangeError(procedureName(proc), 2, `[${String(start)}, ${String(end)}) is not a range of a string of length ${s.length}`, start);
      }
      return UNSPECIFIED;
    },
  },
  {
    name: "substring-spec-ok?",
    params: ["s", "start", "end"],
    doc: "True when s is a string and start and end are exact integers with 0 <= start <= end <= (string-length s).",
    impl: (s: any, start: any, end: any) => substringOk(s, start, end),
  },
  {
    name: "make-kmp-restart-vector",
    params: ["s", "ci", "[start]", "[end]"],
    types: [S, T.boolean, I, I],
    doc: "The Knuth-Morris-Pratt restart vector of s[start, end), comparing with char=? (or char-ci=? when ci).",
    impl(s: MString, ci: boolean, start?: number, end?: number) {
      const t = new Text(s);
      const [a, b] = range("make-kmp-restart-vector", 3, start, end, t.n);
      const cps: number[] = [];
      for (let i = a; i < b; i++) cps.push(ci ? foldcaseChar(t.at(i)) : t.at(i));
      return kmpRestart(cps);
    },
  },
];

