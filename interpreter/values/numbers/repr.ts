// Representation of the numeric tower (no complex numbers).
//
//   exact integer  — a JS number holding a safe integer (|n| ≤ 2^53 − 1, never −0),
//                    or a JS bigint when, and only when, it is outside that range;
//   exact rational — Ratnum {num, den}: bigints, den > 1, gcd(num, den) = 1;
//   inexact real   — Flonum {v}: a boxed IEEE double (so that 2 and 2.0 differ).
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

export type ExactInteger = number | bigint;
export type SNumber = number | bigint | Ratnum | Flonum;

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
  return typeof x === "number" || typeof x === "bigint" || x instanceof Flonum || x instanceof Ratnum;
}

export function isExact(x: SNumber): boolean {
  return !(x instanceof Flonum);
}

export function isExactInteger(x: unknown): x is ExactInteger {
  return typeof x === "number" || typeof x === "bigint";
}
