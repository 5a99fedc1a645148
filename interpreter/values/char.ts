// Characters: one Unicode code point each, cached so that equal characters are `===`.

export class Char {
  readonly code: number;
  /** Use `char(code)`; the constructor is for the cache only. */
  constructor(code: number) {
    this.code = code;
  }
  toString(): string {
    return String.fromCodePoint(this.code);
  }
}

const low: Char[] = [];
const high = new Map<number, Char>();

/** The character with code point `code` (0 ≤ code ≤ 0x10FFFF, not a surrogate: callers check). */
export function char(code: number): Char {
  if (code < 0x10000) {
    let c = low[code];
    if (c === undefined) low[code] = c = new Char(code);
    return c;
  }
  let c = high.get(code);
  if (c === undefined) high.set(code, (c = new Char(code)));
  return c;
}

/** True when `code` may be a Scheme character (a Unicode scalar value). */
export function isScalarValue(code: number): boolean {
  return Number.isInteger(code) && code >= 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
}
