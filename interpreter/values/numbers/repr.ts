// Representation of the numeric tower.
//
//   exact integer  — a JS number holding a safe integer (|n| ≤ 2^53 − 1, never −0),
//                    or a JS bigint when, and only when, it is outside that range;
//   exact rational — Ratnum {num, den}: bigints, den > 1, gcd(num, den) = 1;
//   inexact real   — Flonum {v}: a boxed IEEE double (so that 2 and 2.0 differ);
//   non-real complex — Compnum {re, im}: two reals of the same exactness, im never
//                    an exact 0 (ADR 0039; built by rect.ts's makeRect).
//
// Every JS `number` seen by Scheme code is therefore an exact integer ("fixnum"),
// which is what makes `typeof x === "number"` the fast path of arithmetic.

import { bigGcd } from "./gcd.js";

export const MAX_SAFE = Number.MAX_SAFE_INTEGER;
export const MIN_SAFE = Number.MIN_SAFE_INTEGER;
const BIG_MAX_SAFE = BigInt(MAX_SAFE);
const BIG_MIN_SAFE = BigInt(MIN_SAFE);

export class Flonum {
  readonly v: number;
  constructor(v: number) {
    this.v = v;
  }
}

export class Ratnum {
  readonly num: bigint;
  readonly den: bigint;
  /** Use `makeRational`, which normalises; this constructor trusts its arguments. */
  constructor(num: bigint, den: bigint) {
    this.num = num;
    this.den = den;
  }
}

/**
 * A non-real complex number in rectangular form. Use rect.ts's `makeRect`,
 * which canonicalises (an exact 0 imaginary part gives the real part; mixed
 * exactness makes both parts inexact); this constructor trusts its arguments.
 */
export class Compnum {
  readonly re: RealNumber;
  readonly im: RealNumber;
  constructor(re: RealNumber, im: RealNumber) {
    this.re = re;
    this.im = im;
  }
}

export type ExactInteger = number | bigint;
export type RealNumber = number | bigint | Ratnum | Flonum;
/** Any number; most operations that take one are typed for reals and check for Compnum in their slow paths. */
export type SNumber = RealNumber;
export type AnyNumber = RealNumber | Compnum;

export function flo(v: number): Flonum {
  return new Flonum(v);
}

/** A bigint as an exact integer in canonical form (a JS number when it is safe). */
export function normBig(b: bigint): ExactInteger {
  return b >= BIG_MIN_SAFE && b <= BIG_MAX_SAFE ? Number(b) : b;
}

/** An exact integer as a bigint. */
export function toBig(n: ExactInteger): bigint {
  return typeof n === "bigint" ? n : BigInt(n);
}

export { bigGcd };

/** num/den in canonical form: an exact integer when den divides num. den ≠ 0. */
export function makeRational(num: bigint, den: bigint): ExactInteger | Ratnum {
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  const g = bigGcd(num, den);
  if (g !== 1n) {
    num /= g;
    den /= g;
  }
  return den === 1n ? normBig(num) : new Ratnum(num, den);
}

export function isNumber(x: unknown): x is SNumber {
  return typeof x === "number" || typeof x === "bigint" || x instanceof Flonum || x instanceof Ratnum || x instanceof Compnum;
}

/** A number that is not a non-real complex. */
export function isReal(x: unknown): x is RealNumber {
  return typeof x === "number" || typeof x === "bigint" || x instanceof Flonum || x instanceof Ratnum;
}

export function isExact(x: SNumber): boolean {
  const y: unknown = x;
  return !(x instanceof Flonum || (y instanceof Compnum && y.re instanceof Flonum));
}

export function isExactInteger(x: unknown): x is ExactInteger {
  return typeof x === "number" || typeof x === "bigint";
}
