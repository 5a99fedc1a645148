// The numerical type and property predicates of R7RS §6.2.6, and eqv? on numbers.

import { Compnum, Flonum, Ratnum, isFlonum, type SNumber } from "./repr.js";
import { argError } from "../../errors.js";

/** `(integer? obj)`: exact integers and integer-valued flonums (not ±inf.0 or +nan.0). */
export function isInteger(x: unknown): boolean {
  return (typeof x === "number" && Number.isInteger(x)) || typeof x === "bigint" || (x instanceof Flonum && Number.isInteger(x.v));
}

/** `(rational? obj)`: every exact number and every finite flonum. */
export function isRational(x: unknown): boolean {
  return (typeof x === "number" && Number.isFinite(x)) || typeof x === "bigint" || x instanceof Ratnum || (x instanceof Flonum && Number.isFinite(x.v));
}

/** `(inexact? z)`. */
export function isInexact(x: SNumber): boolean {
  const z: unknown = x;
  return isFlonum(x) || (z instanceof Compnum && isFlonum(z.re));
}

function floatOf(z: SNumber, who: string): number | null {
  if (typeof z === "number") return z; // a fixnum's double answers these predicates as the exact value does
  if (z instanceof Flonum) return z.v;
  if (typeof z === "bigint" || z instanceof Ratnum) return null;
  return argError(who, 1, "number", z);
}

/** `(nan? z)`: only +nan.0 (exact numbers never are). */
export function isNan(z: SNumber): boolean {
  const c: unknown = z;
  if (c instanceof Compnum) return isNan(c.re) || isNan(c.im);
  const v = floatOf(z, "nan?");
  return v !== null && v !== v;
}

/** `(infinite? z)`: +inf.0 and -inf.0. */
export function isInfinite(z: SNumber): boolean {
  const c: unknown = z;
  if (c instanceof Compnum) return isInfinite(c.re) || isInfinite(c.im);
  const v = floatOf(z, "infinite?");
  return v === Infinity || v === -Infinity;
}

/** `(finite? z)`: every exact number, and flonums other than ±inf.0 and +nan.0. */
export function isFiniteNum(z: SNumber): boolean {
  const c: unknown = z;
  if (c instanceof Compnum) return isFiniteNum(c.re) && isFiniteNum(c.im);
  const v = floatOf(z, "finite?");
  return v === null || Number.isFinite(v);
}

/** `(zero? z)`: 0, 0.0 and −0.0. */
export function isZero(z: SNumber): boolean {
  if (typeof z === "number") return z === 0;
  const c: unknown = z;
  if (c instanceof Compnum) return isZero(c.re) && isZero(c.im);
  const v = floatOf(z, "zero?");
  return v === 0; // a bigint or ratnum is never zero
}

/** `(positive? x)`: false for zeros and +nan.0. */
export function isPositive(x: SNumber): boolean {
  if (typeof x === "number") return x > 0;
  if (typeof x === "bigint") return x > 0n;
  if (x instanceof Ratnum) return x.num > 0n;
  if (x instanceof Flonum) return x.v > 0;
  return argError("positive?", 1, "real number", x);
}

/** `(negative? x)`: false for zeros (−0.0 included) and +nan.0. */
export function isNegative(x: SNumber): boolean {
  if (typeof x === "number") return x < 0;
  if (typeof x === "bigint") return x < 0n;
  if (x instanceof Ratnum) return x.num < 0n;
  if (x instanceof Flonum) return x.v < 0;
  return argError("negative?", 1, "real number", x);
}

/**
 * `eqv?` on two numbers: same exactness and the same value. Flonums compare
 * by their bits' meaning as Object.is does: 0.0 and −0.0 differ (they give
 * different results, e.g. under `/`), and a NaN is eqv? to itself.
 */
export function numEqv(a: SNumber, b: SNumber): boolean {
  if (typeof a === "number") return typeof b === "number" && Object.is(a, b); // bare numbers are never −0: only NaN differs from ===
  if (typeof a === "bigint") return a === b;
  if (a instanceof Flonum) return b instanceof Flonum && Object.is(a.v, b.v);
  const c: unknown = a;
  const d: unknown = b;
  if (c instanceof Compnum) return d instanceof Compnum && numEqv(c.re, d.re) && numEqv(c.im, d.im);
  return b instanceof Ratnum && a.num === b.num && a.den === b.den;
}
