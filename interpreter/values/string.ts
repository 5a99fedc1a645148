// Mutable Scheme strings indexed by code point (astral characters count as one).
//
// A string keeps a JS string while it is only read (the common case: text from
// files and the model) and switches to an array of code points when mutated.
// `bmp` caches whether the JS form has no surrogates, in which case code point
// index i is UTF-16 index i and string-ref is O(1) without the array.
//
// The array costs 8 bytes a character where the JS string costs 1 or 2: both
// conversions are announced to the running evaluation's budget (budget.ts).

import { allocate, spend, COST } from "../budget.js";

/** A UTF-16 surrogate code unit (no u flag: the pattern matches code units, so lone and paired surrogates alike). */
const SURROGATE = /[\ud800-\udfff]/;

export class MString {
  private js: string | null;
  private cps: number[] | null;
  private bmp: -1 | 0 | 1;
  /** Literals from source are immutable: string-set! on them is an error. */
  readonly immutable: boolean;

  constructor(s: string, immutable = false) {
    this.js = s;
    this.cps = null;
    this.bmp = -1;
    this.immutable = immutable;
  }

  static fromCodePoints(cps: number[]): MString {
    const m = new MString("");
    m.js = null;
    m.cps = cps;
    return m;
  }

  private isBmp(): boolean {
    if (this.bmp === -1) {
      const s = this.js as string;
      let b: 0 | 1 = 1;
      if (s.length > 64) {
        // The engine's search: a one-byte string (ASCII, Latin-1) cannot hold a surrogate and is answered
        // without a scan; a two-byte one is scanned several times faster than the loop below.
        if (SURROGATE.test(s)) b = 0;
      } else
        for (let i = 0; i < s.length; i++) {
          const c = s.charCodeAt(i);
          if (c >= 0xd800 && c <= 0xdfff) {
            b = 0;
            break;
          }
        }
      this.bmp = b;
    }
    return this.bmp === 1;
  }

  private codePoints(): number[] {
    if (this.cps === null) {
      const s = this.js as string;
      allocate(s.length * COST.codePointBytes);
      spend(s.length * COST.charNs);
      const out: number[] = [];
      for (let i = 0; i < s.length; i++) {
        const c = s.codePointAt(i) as number;
        out.push(c);
        if (c > 0xffff) i++;
      }
      this.cps = out;
    }
    return this.cps;
  }

  /** Number of characters (code points). */
  get length(): number {
    if (this.js !== null && this.isBmp()) return this.js.length;
    return this.codePoints().length;
  }

  /** Code point at character index i (caller checks the range). */
  ref(i: number): number {
    if (this.js !== null && this.isBmp()) return this.js.charCodeAt(i);
    return this.codePoints()[i] as number;
  }

  private mutable(): number[] {
    const cps = this.codePoints();
    this.js = null;
    this.bmp = -1;
    return cps;
  }

  /** Sets character i to code point `cp` (caller checks range and mutability). */
  set(i: number, cp: number): void {
    this.mutable()[i] = cp;
  }

  fill(cp: number, start: number, end: number): void {
    const a = this.mutable();
    for (let i = start; i < end; i++) a[i] = cp;
  }

  /** Copies from[start, end) into this at `at`; correct when the two overlap. */
  copyFrom(at: number, from: MString, start: number, end: number): void {
    const src = from.slice(start, end);
    const a = this.mutable();
    for (let i = 0; i < src.length; i++) a[at + i] = src[i] as number;
  }

  /** Code points [start, end) as a fresh array. */
  slice(start = 0, end = this.length): number[] {
    if (this.js !== null && this.isBmp()) {
      const out = new Array<number>(end - start);
      for (let i = start; i < end; i++) out[i - start] = this.js.charCodeAt(i);
      return out;
    }
    return this.codePoints().slice(start, end);
  }

  /** The text as a JS string (cached until the next mutation). */
  toString(): string {
    if (this.js === null) {
      const cps = this.cps as number[];
      allocate(cps.length * 2);
      spend(cps.length * COST.charNs);
      let s = "";
      const CHUNK = 4096;
      for (let i = 0; i < cps.length; i += CHUNK) s += String.fromCodePoint(...cps.slice(i, i + CHUNK));
      this.js = s;
      this.bmp = -1;
    }
    return this.js;
  }

  /** Characters [start, end) as a new mutable string (known BMP-only, with no scan, when this one is). */
  substring(start: number, end: number): MString {
    if (this.js !== null && this.isBmp()) {
      const m = new MString(this.js.slice(start, end));
      m.bmp = 1;
      return m;
    }
    return MString.fromCodePoints(this.codePoints().slice(start, end));
  }

  /**
   * The strings one after another, as a new mutable string. The JS strings are
   * joined with `+`, which makes the engine's rope (no copy until the text is
   * read whole), and whether the result holds a surrogate follows from the
   * parts' (exactly: a surrogate is a code unit, and concatenation neither makes
   * nor splits one), so its length and string-ref need no scan of the whole.
   */
  static concat(parts: readonly MString[]): MString {
    let s = "";
    let bmp: 0 | 1 = 1;
    for (const p of parts) {
      s += p.toString();
      if (bmp === 1 && !p.isBmp()) bmp = 0;
    }
    const m = new MString(s);
    m.bmp = bmp;
    return m;
  }
}
