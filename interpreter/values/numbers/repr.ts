// Representation of the numeric tower (ADR 0046).
//
//   exact integer  — a JS number holding a safe integer (|n| ≤ 2^53 − 1, never −0),
//                    or a JS bigint when, and only when, it is outside that range;
//   exact rational — Ratnum {num, den}: bigints, den > 1, gcd(num, den) = 1;
//   inexact real   — a bare JS number when its value is not an integer (1.5, +nan.0,
//                    +inf.0, -inf.0), and Flonum {v}, a boxed double, when it is
//                    (2.0, -0.0, 1e300), so that 2 and 2.0 stay distinct;
//   non-real complex — Compnum {re, im}: two reals of the same exactness, im never
//                    an exact 0 (ADR 0039; built by rect.ts's makeRect).
//
// Exactness is decided by representation: a JS number is an exact integer
// ("fixnum") exactly when Number.isInteger holds for it, and otherwise a flonum.
// `typeof x === "number"` is still the fast path of arithmetic, but a fast path
// that means "fixnum" must also check Number.isInteger (ops.ts shows how), and
// code that makes a flonum from a double calls `flo`, which boxes only
// integral values. Non-integral flonum arithmetic therefore allocates nothing.

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

/** The flonum with value v: bare when v is not an integer, a Flonum box when it is (−0 included). */
export function flo(v: number): Flonum | number {
  return Number.isInteger(v) ? new Flonum(v) : v;
}

/** Is x a fixnum, an exact integer held in a JS number? (A bare number that is not an integer is a flonum.) */
export function isFixnum(x: unknown): x is number {
  return typeof x === "number" && Number.isInteger(x);
}

/** Is x a flonum (either form)? */
export function isFlonum(x: unknown): x is Flonum | number {
  return x instanceof Flonum || (typeof x === "number" && !Number.isInteger(x));
}

/** The double of a flonum in either form (a bare number is its own value). */
export function floValue(x: Flonum | number): number {
  return typeof x === "number" ? x : x.v;
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
  return !(isFlonum(x) || (y instanceof Compnum && isFlonum(y.re)));
}

export function isExactInteger(x: unknown): x is ExactInteger {
  return (typeof x === "number" && Number.isInteger(x)) || typeof x === "bigint";
}
