// SRFI 14's procedures that call no procedure argument, over the CharSet of char-set.ts.
//
// The procedures that take a predicate or a mapping (char-set-fold,
// char-set-filter, char-set-map …) are Scheme, in stdlib/srfi/14.sld; they walk
// a set through %char-set-ranges. Cursors are exact integers: the code point of
// the current member, and CODE_LIMIT past the end.

import {
  type ProcSpec,
  type ArgType,
  T,
  NIL,
  Pair,
  Char,
  char,
  MString,
  Sym,
  makeValues,
  listToArray,
  argError,
  rangeError,
  allocate,
  spend,
  COST,
} from "../../interpreter/api.js";
import { CharSet, CODE_LIMIT, FULL, STANDARD_NAMES, combine, complement, difference, fromCodePoints, fromRanges, intersection, standardRanges, union, xor } from "./char-set.js";

/** The argument type of a character set. */
export const CS: ArgType = { name: "char-set", test: (x: any) => x instanceof CharSet };

/** A fresh set with these ranges. */
const fresh = (ranges: readonly number[]): CharSet => new CharSet(ranges);

/**
 * The result of a linear-update procedure: `target` itself changed when it
 * may be (SRFI 14 allows it), a new set when it is frozen (a standard set).
 */
function update(target: CharSet, ranges: readonly number[]): CharSet {
  if (target.frozen) return fresh(ranges);
  target.ranges = ranges;
  return target;
}

function listCodes(who: string, argNo: number, l: any): number[] {
  const items = listToArray(l);
  if (items === null) argError(who, argNo, "list of characters", l);
  const out = new Array<number>(items.length);
  for (let i = 0; i < items.length; i++) {
    const c = items[i];
    if (!(c instanceof Char)) argError(who, argNo, "list of characters", l);
    out[i] = c.code;
  }
  return out;
}

function stringCodes(s: MString): number[] {
  allocate(s.length * COST.codePointBytes);
  return s.slice();
}

/** The ranges of [lower, upper) of code points, after the checks of ucs-range->char-set. */
function ucsRange(who: string, lower: number, upper: number, error: any): number[] {
  if (upper < lower) rangeError(who, 2, `upper ${upper} is less than lower ${lower}`, upper);
  // Surrogates and codes past U+10FFFF are not characters of any UCS assignment this
  // implementation lacks: there is no character to be missing, so they are left out
  // (and error? does not apply to them).
  void error;
  return fromRanges([[Math.min(lower, CODE_LIMIT), Math.min(upper, CODE_LIMIT)]]);
}

/** A 32-bit FNV-1a hash of the ranges, then reduced to [0, bound) when bound is positive. */
function hashOf(cs: CharSet, bound: number | bigint | undefined): number {
  let h = 0x811c9dc5;
  for (const x of cs.ranges) {
    h ^= x;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  h &= 0x3ffffff; // a fixnum, whatever the bound
  if (bound === undefined || bound === 0 || bound === 0n) return h;
  if (typeof bound === "bigint") return bound > BigInt(h) ? h : Number(BigInt(h) % bound);
  return h % bound;
}

const nonNegative: ArgType = { name: "exact non-negative integer", test: (x: any) => (typeof x === "number" && Number.isInteger(x) && x >= 0) || (typeof x === "bigint" && x >= 0n) };

/** (name cs1 cs2 …) that folds op over the sets, from `identity` when there are none. */
function algebra(name: string, op: (a: readonly number[], b: readonly number[]) => number[], identity: readonly number[], doc: string): ProcSpec {
  return {
    name,
    params: ["cs ..."],
    types: [CS],
    doc,
    impl(sets: CharSet[]) {
      let acc: readonly number[] = sets.length > 0 ? (sets[0] as CharSet).ranges : identity;
      for (let i = 1; i < sets.length; i++) acc = op(acc, (sets[i] as CharSet).ranges);
      return fresh(acc);
    },
  };
}

/** The linear-update form of an n-ary algebra procedure: at least one set, the first one updated. */
function algebraBang(name: string, op: (a: readonly number[], b: readonly number[]) => number[], doc: string): ProcSpec {
  return {
    name,
    params: ["cs1", "cs2 ..."],
    types: [CS, CS],
    doc,
    impl(first: CharSet, rest: CharSet[]) {
      let acc = first.ranges;
      for (const s of rest) acc = op(acc, s.ranges);
      return update(first, acc);
    },
  };
}

const orOf = (a: readonly number[], b: readonly number[]) => combine(a, b, union);
const andOf = (a: readonly number[], b: readonly number[]) => combine(a, b, intersection);
const minus = (a: readonly number[], b: readonly number[]) => combine(a, b, difference);
const xorOf = (a: readonly number[], b: readonly number[]) => combine(a, b, xor);

function sameRanges(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The first member of cs at or after code point `from`, or CODE_LIMIT. */
function nextMember(cs: CharSet, from: number): number {
  const r = cs.ranges;
  for (let i = 0; i < r.length; i += 2) {
    if ((r[i + 1] as number) > from) return Math.max(r[i] as number, from);
  }
  return CODE_LIMIT;
}

/** The procedures of (nodwyn primitives srfi 14). */
export const charSetPrimitives: ProcSpec[] = [
  {
    name: "char-set?",
    params: ["obj"],
    doc: "True when obj is a character set.",
    impl: (x: any) => x instanceof CharSet,
  },
  {
    name: "char-set=",
    params: ["cs ..."],
    types: [CS],
    doc: "True when the character sets all have the same members (true for none or one).",
    impl: (sets: CharSet[]) => sets.every((s, i) => i === 0 || sameRanges((sets[i - 1] as CharSet).ranges, s.ranges)),
  },
  {
    name: "char-set<=",
    params: ["cs ..."],
    types: [CS],
    doc: "True when each character set is a subset of the next (true for none or one).",
    impl: (sets: CharSet[]) => sets.every((s, i) => i === 0 || minus((sets[i - 1] as CharSet).ranges, s.ranges).length === 0),
  },
  {
    name: "char-set-hash",
    params: ["cs", "[bound]"],
    types: [CS, nonNegative],
    doc: "A hash of cs in [0, bound), equal for char-set= sets; with bound 0 or none, a non-negative fixnum.",
    impl: (cs: CharSet, bound?: number | bigint) => hashOf(cs, bound),
  },
  {
    name: "char-set-cursor",
    params: ["cs"],
    types: [CS],
    doc: "A cursor at the first member of cs (members go in code point order); at the end when cs is empty.",
    impl: (cs: CharSet) => nextMember(cs, 0),
  },
  {
    name: "char-set-ref",
    params: ["cs", "cursor"],
    types: [CS, T.exactInteger],
    doc: "The member of cs the cursor is at; an error for the end cursor.",
    impl(cs: CharSet, cursor: number) {
      if (typeof cursor !== "number" || !Number.isInteger(cursor) || cursor < 0 || cursor >= CODE_LIMIT || !cs.has(cursor)) rangeError("char-set-ref", 2, `${cursor} is not a cursor at a member of the set`, cursor);
      return char(cursor);
    },
  },
  {
    name: "char-set-cursor-next",
    params: ["cs", "cursor"],
    types: [CS, T.exactInteger],
    doc: "The cursor at the member of cs after the cursor's; the end cursor after the last one.",
    impl(cs: CharSet, cursor: number) {
      if (typeof cursor !== "number" || !Number.isInteger(cursor) || cursor < 0 || cursor >= CODE_LIMIT) rangeError("char-set-cursor-next", 2, `${cursor} is not a cursor at a member of the set`, cursor);
      return nextMember(cs, cursor + 1);
    },
  },
  {
    name: "end-of-char-set?",
    params: ["cursor"],
    doc: "True when cursor is past the last member of its set.",
    impl: (cursor: any) => cursor === CODE_LIMIT,
  },
  {
    name: "char-set-copy",
    params: ["cs"],
    types: [CS],
    doc: "A new character set with the members of cs.",
    impl: (cs: CharSet) => fresh(cs.ranges),
  },
  {
    name: "char-set",
    params: ["char ..."],
    types: [T.char],
    doc: "A new character set of the characters.",
    impl: (cs: Char[]) => fresh(fromCodePoints(cs.map((c) => c.code))),
  },
  {
    name: "list->char-set",
    params: ["char-list", "[base-cs]"],
    types: [T.list, CS],
    doc: "A new character set of the characters of char-list and the members of base-cs (none by default).",
    impl: (l: any, base?: CharSet) => fresh(orOf(fromCodePoints(listCodes("list->char-set", 1, l)), base?.ranges ?? [])),
  },
  {
    name: "list->char-set!",
    params: ["char-list", "base-cs"],
    types: [T.list, CS],
    doc: "base-cs with the characters of char-list added (a linear update: base-cs may change).",
    impl: (l: any, base: CharSet) => update(base, orOf(fromCodePoints(listCodes("list->char-set!", 1, l)), base.ranges)),
  },
  {
    name: "string->char-set",
    params: ["s", "[base-cs]"],
    types: [T.string, CS],
    doc: "A new character set of the characters of s and the members of base-cs (none by default).",
    impl: (s: MString, base?: CharSet) => fresh(orOf(fromCodePoints(stringCodes(s)), base?.ranges ?? [])),
  },
  {
    name: "string->char-set!",
    params: ["s", "base-cs"],
    types: [T.string, CS],
    doc: "base-cs with the characters of s added (a linear update: base-cs may change).",
    impl: (s: MString, base: CharSet) => update(base, orOf(fromCodePoints(stringCodes(s)), base.ranges)),
  },
  {
    name: "ucs-range->char-set",
    params: ["lower", "upper", "[error?]", "[base-cs]"],
    types: [T.index, T.index, null, CS],
    doc: "A new character set of the characters whose code points are in [lower, upper) — surrogates are no characters — and the members of base-cs (none by default). Every other code up to #x10FFFF is a character here, so error? never applies.",
    impl: (lo: number, hi: number, error: any, base?: CharSet) => fresh(orOf(ucsRange("ucs-range->char-set", lo, hi, error), base?.ranges ?? [])),
  },
  {
    name: "ucs-range->char-set!",
    params: ["lower", "upper", "error?", "base-cs"],
    types: [T.index, T.index, null, CS],
    doc: "base-cs with the characters whose code points are in [lower, upper) added (a linear update: base-cs may change).",
    impl: (lo: number, hi: number, error: any, base: CharSet) => update(base, orOf(ucsRange("ucs-range->char-set!", lo, hi, error), base.ranges)),
  },
  {
    name: "->char-set",
    params: ["x"],
    doc: "x as a character set: the characters of a string, a one-character set for a character, a character set itself.",
    impl(x: any) {
      if (x instanceof CharSet) return x;
      if (x instanceof MString) return fresh(fromCodePoints(stringCodes(x)));
      if (x instanceof Char) return fresh([x.code, x.code + 1]);
      return argError("->char-set", 1, "string, character or char-set", x);
    },
  },
  {
    name: "char-set-size",
    params: ["cs"],
    types: [CS],
    doc: "The number of members of cs.",
    impl: (cs: CharSet) => cs.size,
  },
  {
    name: "char-set->list",
    params: ["cs"],
    types: [CS],
    doc: "A list of the members of cs, in code point order.",
    impl(cs: CharSet) {
      const r = cs.ranges;
      allocate(cs.size * COST.pairBytes);
      spend(cs.size * COST.elementNs);
      let out: any = NIL;
      for (let i = r.length - 2; i >= 0; i -= 2) for (let c = (r[i + 1] as number) - 1; c >= (r[i] as number); c--) out = new Pair(char(c), out);
      return out;
    },
  },
  {
    name: "char-set->string",
    params: ["cs"],
    types: [CS],
    doc: "A new string of the members of cs, in code point order.",
    impl(cs: CharSet) {
      allocate(cs.size * COST.codePointBytes);
      spend(cs.size * COST.charNs);
      return MString.fromCodePoints(cs.codePoints());
    },
  },
  {
    name: "char-set-contains?",
    params: ["cs", "char"],
    types: [CS, T.char],
    doc: "True when char is a member of cs.",
    impl: (cs: CharSet, c: Char) => cs.has(c.code),
  },
  {
    name: "char-set-adjoin",
    params: ["cs", "char ..."],
    types: [CS, T.char],
    doc: "A new character set of the members of cs and the characters.",
    impl: (cs: CharSet, chars: Char[]) => fresh(orOf(cs.ranges, fromCodePoints(chars.map((c) => c.code)))),
  },
  {
    name: "char-set-delete",
    params: ["cs", "char ..."],
    types: [CS, T.char],
    doc: "A new character set of the members of cs but the characters.",
    impl: (cs: CharSet, chars: Char[]) => fresh(minus(cs.ranges, fromCodePoints(chars.map((c) => c.code)))),
  },
  {
    name: "char-set-adjoin!",
    params: ["cs", "char ..."],
    types: [CS, T.char],
    doc: "cs with the characters added (a linear update: cs may change).",
    impl: (cs: CharSet, chars: Char[]) => update(cs, orOf(cs.ranges, fromCodePoints(chars.map((c) => c.code)))),
  },
  {
    name: "char-set-delete!",
    params: ["cs", "char ..."],
    types: [CS, T.char],
    doc: "cs without the characters (a linear update: cs may change).",
    impl: (cs: CharSet, chars: Char[]) => update(cs, minus(cs.ranges, fromCodePoints(chars.map((c) => c.code)))),
  },
  {
    name: "char-set-complement",
    params: ["cs"],
    types: [CS],
    doc: "A new character set of every character that is not a member of cs.",
    impl: (cs: CharSet) => fresh(complement(cs.ranges)),
  },
  {
    name: "char-set-complement!",
    params: ["cs"],
    types: [CS],
    doc: "The complement of cs (a linear update: cs may change).",
    impl: (cs: CharSet) => update(cs, complement(cs.ranges)),
  },
  algebra("char-set-union", orOf, [], "A new character set of the members of any of the sets (empty for none)."),
  algebra("char-set-intersection", andOf, FULL, "A new character set of the members of all the sets (every character for none)."),
  algebra("char-set-xor", xorOf, [], "A new character set of the characters that are members of an odd number of the sets (empty for none)."),
  {
    name: "char-set-difference",
    params: ["cs1", "cs2 ..."],
    types: [CS, CS],
    doc: "A new character set of the members of cs1 that are in none of the other sets.",
    impl(first: CharSet, rest: CharSet[]) {
      let acc = first.ranges;
      for (const s of rest) acc = minus(acc, s.ranges);
      return fresh(acc);
    },
  },
  {
    name: "char-set-diff+intersection",
    params: ["cs1", "cs2 ..."],
    types: [CS, CS],
    doc: "Two values: the members of cs1 in none of the other sets, and those in one of them.",
    impl(first: CharSet, rest: CharSet[]) {
      let others: readonly number[] = [];
      for (const s of rest) others = orOf(others, s.ranges);
      return makeValues([fresh(minus(first.ranges, others)), fresh(andOf(first.ranges, others))]);
    },
  },
  algebraBang("char-set-union!", orOf, "cs1 with the members of the other sets added (a linear update: cs1 may change)."),
  algebraBang("char-set-intersection!", andOf, "cs1 without the members that are not in all the other sets (a linear update: cs1 may change)."),
  algebraBang("char-set-difference!", minus, "cs1 without the members of the other sets (a linear update: cs1 may change)."),
  algebraBang("char-set-xor!", xorOf, "The characters in an odd number of the sets, in cs1 (a linear update: cs1 may change)."),
  {
    name: "char-set-diff+intersection!",
    params: ["cs1", "cs2", "cs3 ..."],
    types: [CS, CS, CS],
    doc: "Two values: the members of cs1 in none of the other sets, and those in one of them (a linear update: cs1 and cs2 may change).",
    impl(first: CharSet, second: CharSet, rest: CharSet[]) {
      let others = second.ranges;
      for (const s of rest) others = orOf(others, s.ranges);
      const diff = minus(first.ranges, others);
      const both = andOf(first.ranges, others);
      return makeValues([update(first, diff), update(second, both)]);
    },
  },
  {
    name: "char-set-standard",
    params: ["name"],
    types: [T.symbol],
    doc: "The standard set char-set:name (lower-case, letter, whitespace …), computed from the engine's Unicode data when first used; linear updates never change it.",
    impl(name: Sym) {
      if (!STANDARD_NAMES.includes(name.name)) argError("char-set-standard", 1, "standard char-set name", name);
      return new CharSet(() => standardRanges(name.name) as readonly number[], true);
    },
  },
  {
    name: "char-set-ranges",
    params: ["cs"],
    types: [CS],
    doc: "The members of cs as a vector of code point ranges #(start0 end0 start1 end1 …), each half-open, in order.",
    impl(cs: CharSet) {
      allocate(cs.ranges.length * COST.slotBytes);
      return [...cs.ranges];
    },
  },
];
