// Character sets (SRFI 14) as inversion lists over Unicode scalar values, and the standard sets.
//
// A set is a sorted array of half-open ranges [start0, end0, start1, end1, …]
// of code points: membership is a binary search, the algebra a merge of two
// boundary lists, so char-set:full (1.1 million characters) is four numbers.
// Surrogate code points (U+D800–U+DFFF) are never members: they are not
// characters. The standard sets are computed from the JS engine's Unicode data
// (regex property escapes, as the R7RS char predicates are), once per process,
// on first use, following John Cowan's 2019 definitions for SRFI 14 in terms of
// Unicode properties.

import { spend, allocate, COST } from "../../interpreter/api.js";

/** The code point past the last one. */
export const CODE_LIMIT = 0x110000;
const SURROGATE_START = 0xd800;
const SURROGATE_END = 0xe000;

/** A character set. Mutable only through the linear-update procedures, and never when frozen (the standard sets). */
export class CharSet {
  private r: readonly number[] | null;
  private make: (() => readonly number[]) | null;
  readonly frozen: boolean;
  /** `ranges` may be a function giving them, called on first use (the standard sets are computed only if used). */
  constructor(ranges: readonly number[] | (() => readonly number[]), frozen = false) {
    if (typeof ranges === "function") {
      this.r = null;
      this.make = ranges;
    } else {
      this.r = ranges;
      this.make = null;
    }
    this.frozen = frozen;
  }

  /** Half-open ranges, sorted, disjoint and not touching: [s0, e0, s1, e1, …]. */
  get ranges(): readonly number[] {
    if (this.r === null) {
      this.r = (this.make as () => readonly number[])();
      this.make = null;
    }
    return this.r;
  }

  set ranges(v: readonly number[]) {
    if (this.frozen) throw new Error("a frozen char-set cannot change");
    this.r = v;
    this.make = null;
    this.test = null;
  }

  private test: ((cp: number) => boolean) | null = null;

  /**
   * A membership test with a table for ASCII, where most text is; made once
   * per content (a linear-update procedure that changes the ranges drops it),
   * so a string procedure called in a loop does not rebuild it every call.
   */
  tester(): (cp: number) => boolean {
    if (this.test !== null) return this.test;
    const ascii = new Uint8Array(128);
    const r = this.ranges;
    for (let i = 0; i < r.length && (r[i] as number) < 128; i += 2) for (let c = r[i] as number; c < Math.min(r[i + 1] as number, 128); c++) ascii[c] = 1;
    return (this.test = (cp) => (cp < 128 ? ascii[cp] === 1 : this.has(cp)));
  }

  has(cp: number): boolean {
    const r = this.ranges;
    // The last boundary <= cp: inside a range when its index is even.
    let lo = 0;
    let hi = r.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((r[mid] as number) <= cp) lo = mid + 1;
      else hi = mid;
    }
    return (lo & 1) === 1;
  }

  get size(): number {
    let n = 0;
    const r = this.ranges;
    for (let i = 0; i < r.length; i += 2) n += (r[i + 1] as number) - (r[i] as number);
    return n;
  }

  toString(): string {
    const n = this.size;
    if (n <= 16) {
      let s = "";
      for (const cp of this.codePoints(16)) s += String.fromCodePoint(cp);
      return `#<char-set ${JSON.stringify(s)}>`;
    }
    return `#<char-set ${n} characters>`;
  }

  /** The members in ascending order, at most `limit` of them. */
  codePoints(limit = Infinity): number[] {
    const out: number[] = [];
    const r = this.ranges;
    for (let i = 0; i < r.length && out.length < limit; i += 2) {
      for (let c = r[i] as number; c < (r[i + 1] as number) && out.length < limit; c++) out.push(c);
    }
    return out;
  }
}

/** Normalises a list of possibly overlapping, unsorted ranges into an inversion list, without surrogates. */
export function fromRanges(pairs: [number, number][]): number[] {
  const split: [number, number][] = [];
  for (const [s, e] of pairs) {
    if (s >= e) continue;
    if (s < SURROGATE_END && e > SURROGATE_START) {
      if (s < SURROGATE_START) split.push([s, SURROGATE_START]);
      if (e > SURROGATE_END) split.push([SURROGATE_END, e]);
    } else split.push([s, e]);
  }
  split.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [s, e] of split) {
    const n = out.length;
    if (n > 0 && s <= (out[n - 1] as number)) {
      if (e > (out[n - 1] as number)) out[n - 1] = e;
    } else out.push(s, e);
  }
  return out;
}

/** The inversion list of a set of code points (any order, repeats allowed). */
export function fromCodePoints(cps: readonly number[]): number[] {
  allocate(cps.length * 16);
  spend(cps.length * COST.elementNs * Math.max(1, Math.log2(cps.length + 1)));
  const sorted = Float64Array.from(cps).sort();
  const out: number[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const c = sorted[i] as number;
    const n = out.length;
    if (n > 0 && c <= (out[n - 1] as number)) {
      if (c === out[n - 1]) out[n - 1] = c + 1;
    } else out.push(c, c + 1);
  }
  return out;
}

type Op = (inA: boolean, inB: boolean) => boolean;

/** Merges two inversion lists under a boolean operation of membership. */
export function combine(a: readonly number[], b: readonly number[], op: Op): number[] {
  allocate((a.length + b.length) * 8);
  spend((a.length + b.length) * COST.elementNs);
  const out: number[] = [];
  let i = 0;
  let j = 0;
  let inA = false;
  let inB = false;
  let inOut = false;
  while (i < a.length || j < b.length) {
    const x = i < a.length ? (a[i] as number) : Infinity;
    const y = j < b.length ? (b[j] as number) : Infinity;
    const at = Math.min(x, y);
    if (x === at) {
      inA = !inA;
      i++;
    }
    if (y === at) {
      inB = !inB;
      j++;
    }
    const now = op(inA, inB);
    if (now !== inOut) {
      out.push(at);
      inOut = now;
    }
  }
  return out;
}

export const union: Op = (a, b) => a || b;
export const intersection: Op = (a, b) => a && b;
export const difference: Op = (a, b) => a && !b;
export const xor: Op = (a, b) => a !== b;

/** Every character: all scalar values. */
export const FULL: readonly number[] = [0, SURROGATE_START, SURROGATE_END, CODE_LIMIT];

/** The complement within the characters. */
export function complement(a: readonly number[]): number[] {
  return combine(FULL, a, difference);
}

// ---- the standard sets -----------------------------------------------------------------

/**
 * Where Unicode assigns characters with the properties of the standard sets:
 * planes 0 to 3 and the first block of plane 14 (tags, variation selectors).
 * Planes 4 to 13 are unassigned and planes 15 and 16 are private use (in no
 * standard set); the tests check that no character outside these ranges has
 * any of the properties, so a newer engine's Unicode would be noticed.
 */
export const SCANNED: readonly [number, number][] = [
  [0, 0x40000],
  [0xe0000, 0xe1000],
];

/** The scalar values of SCANNED in order, as one JS string (built once, on first need). */
let scanText: string | null = null;

/** A JS string of the scalar values in [start, end), in order. */
export function charactersOf(start: number, end: number): string {
  const parts: string[] = [];
  const chunk: number[] = [];
  for (let c = start; c < end; c++) {
    if (c === SURROGATE_START) c = SURROGATE_END;
    chunk.push(c);
    if (chunk.length === 4096) {
      parts.push(String.fromCodePoint(...chunk));
      chunk.length = 0;
    }
  }
  parts.push(String.fromCodePoint(...chunk));
  return parts.join("");
}

function everyCharacter(): string {
  if (scanText === null) scanText = SCANNED.map(([s, e]) => charactersOf(s, e)).join("");
  return scanText;
}

/** The inversion list of the characters a regex (a class of one character, /u) matches, over SCANNED. */
function fromProperty(cls: string): number[] {
  const text = everyCharacter();
  const re = new RegExp(`(?:${cls})+`, "gu");
  const pairs: [number, number][] = [];
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const start = text.codePointAt(m.index) as number;
    const lastAt = m.index + m[0].length - 1;
    // The last code unit may be the low half of an astral character.
    const lowHalf = text.charCodeAt(lastAt) >= 0xdc00 && text.charCodeAt(lastAt) <= 0xdfff && lastAt > m.index;
    const last = text.codePointAt(lowHalf ? lastAt - 1 : lastAt) as number;
    pairs.push([start, last + 1]);
  }
  // fromRanges splits any run that crossed the (absent) surrogates or the gap between the scanned ranges.
  const out: [number, number][] = [];
  for (const [a, b] of pairs) {
    if (a < (SCANNED[0] as [number, number])[1] && b > (SCANNED[1] as [number, number])[0]) {
      out.push([a, (SCANNED[0] as [number, number])[1]], [(SCANNED[1] as [number, number])[0], b]);
    } else out.push([a, b]);
  }
  return fromRanges(out);
}

const r = (...codes: number[]): [number, number][] => {
  const out: [number, number][] = [];
  for (let i = 0; i < codes.length; i += 2) out.push([codes[i] as number, codes[i + 1] as number]);
  return out;
};

/** The property classes of the standard sets, for checking what SCANNED leaves out. */
export const STANDARD_PROPERTIES = "\\p{L}|\\p{N}|\\p{M}|\\p{S}|\\p{P}|\\p{White_Space}|\\p{Lowercase}|\\p{Uppercase}|\\p{Alphabetic}|\\p{Zs}";

/** How each standard set is made: a property class, or ranges. */
const STANDARD: Readonly<Record<string, () => number[]>> = {
  "lower-case": () => fromProperty("\\p{Lowercase}"),
  "upper-case": () => fromProperty("\\p{Uppercase}"),
  "title-case": () => fromProperty("\\p{Lt}"),
  letter: () => fromProperty("\\p{Alphabetic}"),
  digit: () => fromProperty("\\p{Nd}"),
  "letter+digit": () => fromProperty("\\p{Alphabetic}|\\p{Nd}"),
  graphic: () => fromProperty("\\p{L}|\\p{N}|\\p{M}|\\p{S}|\\p{P}"),
  printing: () => fromProperty("\\p{L}|\\p{N}|\\p{M}|\\p{S}|\\p{P}|\\p{White_Space}"),
  whitespace: () => fromProperty("\\p{White_Space}"),
  "iso-control": () => fromRanges(r(0, 0x20, 0x7f, 0xa0)),
  punctuation: () => fromProperty("\\p{P}"),
  symbol: () => fromProperty("\\p{S}"),
  "hex-digit": () => fromRanges(r(0x30, 0x3a, 0x41, 0x47, 0x61, 0x67)),
  blank: () => fromProperty("\\p{Zs}|\\t"),
  ascii: () => [0, 0x80],
  empty: () => [],
  full: () => [...FULL],
};

/** The names of the standard sets: char-set:NAME. */
export const STANDARD_NAMES: readonly string[] = Object.keys(STANDARD);

const standardCache = new Map<string, readonly number[]>();

/** The ranges of standard set `name` (computed once per process), or null for an unknown name. */
export function standardRanges(name: string): readonly number[] | null {
  const make = STANDARD[name];
  if (make === undefined) return null;
  let v = standardCache.get(name);
  if (v === undefined) standardCache.set(name, (v = make()));
  return v;
}
