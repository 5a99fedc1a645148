// What the string SRFIs' TypeScript procedures share: a code-point view of a string, ranges, criteria, case folding.
//
// Scheme strings count code points; JS strings count UTF-16 units. A Text
// holds the JS string of an MString and, only when it has astral characters,
// the UTF-16 offset of every code point, so that an operation can work on the
// JS string with native methods (indexOf, slice, join) and translate indexes
// at its ends. For strings without astral characters — nearly all text — the
// translation is the identity and costs nothing.

import { type ArgType, Char, MString, Procedure, rangeError, argError, listToArray, spend, allocate, COST } from "../../interpreter/api.js";
import { CharSet, standardRanges } from "./char-set.js";
import { downcaseChar, upcaseChar } from "../scheme/unicode.js";

/** Charges the work of scanning n characters to the running evaluation (interpreter/budget.ts). */
export function scanning(n: number): void {
  spend(n * COST.charNs);
}

/** Announces a new string of about n characters, and the time to make it. */
export function producing(n: number): void {
  allocate(n * 2);
  spend(n * COST.charNs);
}

export class Text {
  readonly js: string;
  /** Length in code points. */
  readonly n: number;
  /** offs[i] = UTF-16 offset of code point i (offs[n] = js.length); null when they are equal. */
  private readonly offs: Int32Array | null;

  constructor(s: MString) {
    this.js = s.toString();
    this.n = s.length;
    if (this.n === this.js.length) this.offs = null;
    else {
      allocate((this.n + 1) * 4);
      scanning(this.n);
      const offs = new Int32Array(this.n + 1);
      let u = 0;
      for (let i = 0; i < this.n; i++) {
        offs[i] = u;
        u += (this.js.codePointAt(u) as number) > 0xffff ? 2 : 1;
      }
      offs[this.n] = u;
      this.offs = offs;
    }
  }

  /** True when code point indexes are UTF-16 offsets. */
  get bmp(): boolean {
    return this.offs === null;
  }

  /** The UTF-16 offset of code point index i (0 ≤ i ≤ n). */
  off(i: number): number {
    return this.offs === null ? i : (this.offs[i] as number);
  }

  /** The code point index of UTF-16 offset u (which starts a code point). */
  index(u: number): number {
    const offs = this.offs;
    if (offs === null) return u;
    let lo = 0;
    let hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((offs[mid] as number) < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Code point i. */
  at(i: number): number {
    return this.offs === null ? this.js.charCodeAt(i) : (this.js.codePointAt(this.offs[i] as number) as number);
  }

  /** The JS string of code points [a, b). */
  slice(a: number, b: number): string {
    return this.js.slice(this.off(a), this.off(b));
  }
}

/** Resolves optional [start end] against a length: defaults 0 and len, 0 ≤ start ≤ end ≤ len checked. */
export function range(who: string, startArgNo: number, start: number | undefined, end: number | undefined, len: number): [number, number] {
  const s = start ?? 0;
  const e = end ?? len;
  if (s > len) rangeError(who, startArgNo, `start ${s} out of range [0, ${len}]`, s);
  if (e > len || e < s) rangeError(who, startArgNo + 1, `end ${e} out of range [${s}, ${len}]`, e);
  // Every operation on a range looks at its characters (at most): charge that before doing it.
  scanning(e - s);
  return [s, e];
}

/** A character or a char-set: the criteria the TypeScript procedures test themselves (predicates are Scheme's). */
export type Criterion = Char | CharSet;

export const CRITERION: ArgType = { name: "character, char-set or predicate", test: (x: any) => x instanceof Char || x instanceof CharSet };

/** A test of code points for a criterion. */
export function matcher(c: Criterion): (cp: number) => boolean {
  if (c instanceof Char) {
    const code = c.code;
    return (cp) => cp === code;
  }
  return c.tester();
}

/** char-set:whitespace and char-set:graphic, the defaults of string-trim and string-tokenize. */
export const WHITESPACE = new CharSet(() => standardRanges("whitespace") as readonly number[], true);
export const GRAPHIC = new CharSet(() => standardRanges("graphic") as readonly number[], true);

/** SRFI 13's case folding of a character: (char-downcase (char-upcase c)), the simple 1-1 mappings. */
export function fold13(cp: number): number {
  return downcaseChar(upcaseChar(cp));
}

/** The code points of text[a, b), folded when ci. */
export function codes(t: Text, a: number, b: number, ci: boolean): Int32Array {
  allocate((b - a) * 4);
  const out = new Int32Array(b - a);
  for (let i = a; i < b; i++) out[i - a] = ci ? fold13(t.at(i)) : t.at(i);
  return out;
}

/** The name of a procedure for error messages (string-parse-start+end's proc argument). */
export function procedureName(p: any): string {
  if (p instanceof Procedure) return p.info.name || "procedure";
  if (p instanceof MString) return p.toString();
  return typeof p === "object" && p !== null && "name" in p ? String((p as { name: unknown }).name) : String(p);
}

/** The strings of a proper list of strings, or a type error. */
export function stringList(who: string, argNo: number, l: any): MString[] {
  const items = listToArray(l);
  if (items === null || !items.every((x) => x instanceof MString)) argError(who, argNo, "list of strings", l);
  let n = 0;
  for (const s of items as MString[]) n += s.length;
  producing(n);
  return items as MString[];
}

/** A new string from code points. */
export function fromCodes(cps: ArrayLike<number>): MString {
  producing(cps.length);
  let s = "";
  const CHUNK = 4096;
  for (let i = 0; i < cps.length; i += CHUNK) s += String.fromCodePoint(...Array.prototype.slice.call(cps, i, i + CHUNK));
  return new MString(s);
}
