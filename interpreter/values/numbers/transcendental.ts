// exp, log, the trigonometric functions, sqrt and expt.
//
// Real arguments whose result is real take the real path, unchanged. A complex
// argument, or a real one outside the real domain (the square root or logarithm
// of a negative number, asin/acos outside [−1, 1], a negative base to a
// non-integer power) gives the principal value R7RS §6.2.6 defines, computed in
// doubles by complex.ts (exact only for sqrt of an exact square: (sqrt -4) is +2i).

import { Compnum, Flonum, Ratnum, flo, floValue, isFlonum, normBig, type ExactInteger, type SNumber } from "./repr.js";
import { cdAcos, cdAsin, cdAtan, cdCos, cdDiv, cdExp, cdExpt, cdLog, cdSin, cdSqrt, cdTan, cMul, fromCD, makeRect, toCD, type CD } from "./complex.js";
import { add, div, sub } from "./ops.js";
import { bitLength, ratioToFloat, toFloat } from "./convert.js";
import { isqrt, iroot } from "./integers.js";
import { divisionByZero } from "./ops.js";
import { argError, rangeError } from "../../errors.js";
import { spend } from "../../budget.js";
import { announceBits, mulNs, MAX_BIGINT_BITS } from "./cost.js";

/**
 * Largest result `expt` computes exactly, in bits: V8's largest BigInt (2^30
 * bits, 128 MiB). Before that the memory budget and the deadline stop a
 * power too large for them (its size and time are announced first).
 */
export const MAX_EXPT_BITS = MAX_BIGINT_BITS;

function isNum(x: unknown): x is SNumber {
  return typeof x === "number" || typeof x === "bigint" || x instanceof Flonum || x instanceof Ratnum;
}

/** A numeric argument as a double, or a type error. */
function realArg(x: unknown, who: string, argNo = 1): number {
  if (!isNum(x)) return argError(who, argNo, "number", x);
  return toFloat(x);
}

/** f applied to a complex argument (or a real one outside f's real domain), as an inexact number. */
function viaComplex(f: (z: CD) => CD, z: unknown): SNumber {
  return fromCD(f(toCD(z)));
}

/** A real number below zero (−0.0 is not). */
function isNegReal(z: unknown): boolean {
  if (typeof z === "number") return z < 0;
  if (z instanceof Flonum) return z.v < 0;
  if (typeof z === "bigint") return z < 0n;
  return z instanceof Ratnum && z.num < 0n;
}

/** `(exp z)`: e^z, inexact. */
export function numExp(z: SNumber): SNumber {
  if ((z as unknown) instanceof Compnum) return viaComplex(cdExp, z);
  return flo(Math.exp(realArg(z, "exp")));
}

/** ln of a positive exact number, also beyond the range of doubles (huge bigints, tiny ratios). */
function logExact(x: ExactInteger | Ratnum): number {
  const v = toFloat(x);
  if (v >= 2.2250738585072014e-308 && v < Infinity) return Math.log(v);
  if (x instanceof Ratnum) return logBig(x.num) - logBig(x.den);
  return logBig(typeof x === "bigint" ? x : BigInt(x));
}

/** ln n for a bigint n > 0: ln(n / 2^k) + k ln 2, keeping 64 significant bits of n. */
function logBig(n: bigint): number {
  const k = bitLength(n) - 64;
  if (k <= 0) return Math.log(Number(n));
  return Math.log(Number(n >> BigInt(k))) + k * Math.LN2;
}

/** ln z as a double; negative z has no real logarithm; ln 0 is −∞. */
function lnOf(z: SNumber, who: string, argNo: number): number {
  if (z instanceof Flonum) return Math.log(z.v);
  if (typeof z === "number" && !Number.isInteger(z)) return Math.log(z);
  if (!isNum(z)) return argError(who, argNo, "number", z);
  if (z === 0) return -Infinity;
  return logExact(z);
}

/** `(log z)` and `(log z1 z2)`: the natural logarithm, or the logarithm of z1 in base z2. */
export function numLog(z1: SNumber, z2?: SNumber): SNumber {
  if ((z1 as unknown) instanceof Compnum || (z2 as unknown) instanceof Compnum || isNegReal(z1) || isNegReal(z2)) {
    if (!isNum(z1) && !((z1 as unknown) instanceof Compnum)) return argError("log", 1, "number", z1);
    const a = cdLog(toCD(z1));
    if (z2 === undefined) return fromCD(a);
    if (!isNum(z2) && !((z2 as unknown) instanceof Compnum)) return argError("log", 2, "number", z2);
    return fromCD(cdDiv(a, cdLog(toCD(z2))));
  }
  const a = lnOf(z1, "log", 1);
  if (z2 === undefined) return flo(a);
  // Bases 2 and 10 use the dedicated functions when they can, which are exact on powers.
  const x = z1 instanceof Flonum ? z1.v : toFloat(z1);
  if (x > 0 && x < Infinity) {
    if (z2 === 2 || (z2 instanceof Flonum && z2.v === 2)) return flo(Math.log2(x));
    if (z2 === 10 || (z2 instanceof Flonum && z2.v === 10)) return flo(Math.log10(x));
  }
  return flo(a / lnOf(z2, "log", 2));
}

/** `(sin z)`. */
export function numSin(z: SNumber): SNumber {
  if ((z as unknown) instanceof Compnum) return viaComplex(cdSin, z);
  return flo(Math.sin(realArg(z, "sin")));
}

/** `(cos z)`. */
export function numCos(z: SNumber): SNumber {
  if ((z as unknown) instanceof Compnum) return viaComplex(cdCos, z);
  return flo(Math.cos(realArg(z, "cos")));
}

/** `(tan z)`. */
export function numTan(z: SNumber): SNumber {
  if ((z as unknown) instanceof Compnum) return viaComplex(cdTan, z);
  return flo(Math.tan(realArg(z, "tan")));
}

/** `(asin z)` for −1 ≤ z ≤ 1. */
export function numAsin(z: SNumber): SNumber {
  if ((z as unknown) instanceof Compnum) return viaComplex(cdAsin, z);
  const v = realArg(z, "asin");
  if (v < -1 || v > 1) return viaComplex(cdAsin, z);
  return flo(Math.asin(v));
}

/** `(acos z)` for −1 ≤ z ≤ 1. */
export function numAcos(z: SNumber): SNumber {
  if ((z as unknown) instanceof Compnum) return viaComplex(cdAcos, z);
  const v = realArg(z, "acos");
  if (v < -1 || v > 1) return viaComplex(cdAcos, z);
  return flo(Math.acos(v));
}

/** `(atan z)`, and `(atan y x)`: the angle of the point (x, y), in (−π, π]. */
export function numAtan(y: SNumber, x?: SNumber): SNumber {
  if (x === undefined && (y as unknown) instanceof Compnum) return viaComplex(cdAtan, y);
  if ((y as unknown) instanceof Compnum) return argError("atan", 1, "real number", y);
  if ((x as unknown) instanceof Compnum) return argError("atan", 2, "real number", x);
  const yv = realArg(y, "atan", 1);
  if (x === undefined) return flo(Math.atan(yv));
  return flo(Math.atan2(yv, realArg(x, "atan", 2)));
}

/**
 * `(sqrt z)`: exact when z is an exact perfect square (of an integer or a
 * rational, e.g. 1/4 → 1/2), otherwise the correctly rounded flonum.
 */
export function numSqrt(z: SNumber): SNumber {
  if (z instanceof Flonum) {
    if (z.v < 0) return makeRect(flo(0), flo(Math.sqrt(-z.v))); // −0.0 is not < 0: its root is −0.0
    return flo(Math.sqrt(z.v));
  }
  const c: unknown = z;
  if (c instanceof Compnum) return complexSqrt(c);
  if (isNegReal(z)) {
    const s = numSqrt(sub(0, z));
    return makeRect(isFlonum(s) ? flo(0) : 0, s);
  }
  if (typeof z === "number") {
    const s = Math.sqrt(z); // one correct rounding of an exact double
    return Number.isInteger(s) && s * s === z ? s : flo(s);
  }
  if (typeof z === "bigint") {
    const s = isqrt(z);
    return s * s === z ? normBig(s) : flo(sqrtRatio(z, 1n));
  }
  if (z instanceof Ratnum) {
    const sn = isqrt(z.num);
    const sd = isqrt(z.den);
    // num and den are coprime, so their roots are too: the quotient is in lowest terms.
    if (sn * sn === z.num && sd * sd === z.den) return new Ratnum(sn, sd);
    return flo(sqrtRatio(z.num, z.den));
  }
  return argError("sqrt", 1, "number", z);
}

/**
 * The principal square root of a non-real z: exact when z is exact and the
 * square of an exact complex ((sqrt -3+4i) is 1+2i), else inexact.
 */
function complexSqrt(z: Compnum): SNumber {
  if (!isFlonum(z.re)) {
    // √(a+bi) = √((m+a)/2) ± i√((m−a)/2), m = |z|, the sign of b.
    const m = numSqrt(add(mulR(z.re, z.re), mulR(z.im, z.im)));
    if (!isFlonum(m)) {
      const x = numSqrt(div(add(m, z.re), 2));
      const y = numSqrt(div(sub(m, z.re), 2));
      if (!isFlonum(x) && !isFlonum(y)) return makeRect(x, isNegReal(z.im) ? sub(0, y) : y);
    }
  }
  return viaComplex(cdSqrt, z);
}

function mulR(a: SNumber, b: SNumber): SNumber {
  return cMul(a, b);
}

/**
 * √(num/den) correctly rounded, num ≥ 0, den > 0. The integer part m of
 * num·4^k/den is made ≥ 112 bits, so s = ⌊√m⌋ has ≥ 56: when the root is not
 * exact it lies strictly between s and s + 1, and (2s + 1)/2^(k+1) rounds to
 * the same double as the root (rounding boundaries are at least 2 units of s apart).
 */
export function sqrtRatio(num: bigint, den: bigint): number {
  if (num === 0n) return 0;
  const k = Math.ceil((112 - (bitLength(num) - bitLength(den))) / 2) + 1;
  let n = num;
  let d = den;
  if (k >= 0) n = num << BigInt(2 * k);
  else d = den << BigInt(-2 * k);
  const m = n / d;
  const s = isqrt(m);
  const exact = s * s === m && m * d === n;
  const top = exact ? s * 2n : s * 2n + 1n;
  // value = top / 2^(k+1)
  return k + 1 >= 0 ? ratioToFloat(top, 1n << BigInt(k + 1)) : ratioToFloat(top << BigInt(-(k + 1)), 1n);
}

function isExactNum(x: SNumber): x is ExactInteger | Ratnum {
  return !isFlonum(x);
}

function isNegative(x: ExactInteger | Ratnum): boolean {
  return typeof x === "number" ? x < 0 : typeof x === "bigint" ? x < 0n : x.num < 0n;
}

/**
 * `(expt z1 z2)`: exact when z1 is exact and z2 an exact integer (negative
 * exponents give rationals; (expt 0 0) is 1), or when z2 is an exact rational
 * and z1 an exact perfect power ((expt 8 2/3) is 4); inexact otherwise
 * ((expt 0.0 0) is 1.0 as IEEE pow gives, (expt 0 1.0) is 0.0).
 */
export function numExpt(z1: SNumber, z2: SNumber): SNumber {
  const c1: unknown = z1;
  const c2: unknown = z2;
  if (c1 instanceof Compnum || c2 instanceof Compnum) {
    if (!isNum(z1) && !(c1 instanceof Compnum)) return argError("expt", 1, "number", z1);
    if (!isNum(z2) && !(c2 instanceof Compnum)) return argError("expt", 2, "number", z2);
    // An exact 0 to a non-real power: 0 when the real part is positive (exact when the power is), else
    // no value, a division by zero as for (expt 0 -1).
    if (z1 === 0 && c2 instanceof Compnum) {
      if (!(toFloat(c2.re) > 0)) return divisionByZero("expt", z1);
      if (!isFlonum(c2.re)) return 0;
    }
    if (c1 instanceof Compnum && !isFlonum(c1.re) && ((typeof z2 === "number" && Number.isInteger(z2)) || typeof z2 === "bigint")) {
      return complexPow(z1, BigInt(z2));
    }
    return viaComplex2(z1, z2);
  }
  if (!isNum(z1)) return argError("expt", 1, "number", z1);
  if (!isNum(z2)) return argError("expt", 2, "number", z2);
  if ((typeof z2 === "number" && Number.isInteger(z2)) || typeof z2 === "bigint") {
    if (isExactNum(z1)) return exactPow(z1, BigInt(z2));
    const v = floValue(z1 as Flonum | number);
    // Parity from the exact exponent: Number() of a huge odd bigint may be even.
    if (v < 0) {
      const odd = typeof z2 === "number" ? z2 % 2 !== 0 : (z2 & 1n) === 1n;
      const m = Math.pow(-v, Number(z2));
      return flo(odd ? -m : m);
    }
    return flo(Math.pow(v, Number(z2)));
  }
  if (z2 instanceof Ratnum && isExactNum(z1) && !isNegative(z1)) {
    const r = exactRoot(z1, z2.den);
    if (r !== null) return exactPow(r, z2.num);
  }
  const p = toFloat(z2);
  if (isExactNum(z1)) {
    if (z1 === 0) {
      if (p < 0) return divisionByZero("expt", z1);
      return flo(p === 0 ? 1 : p > 0 ? 0 : NaN);
    }
    const negative = isNegative(z1);
    if (negative && !Number.isInteger(p) && p === p) return viaComplex2(z1, z2);
    const b = toFloat(z1);
    // A positive base beyond the range of doubles: go through logarithms.
    if (!negative && (b === Infinity || b === 0)) return flo(Math.exp(p * logExact(z1)));
    return flo(Math.pow(b, p));
  }
  const b = floValue(z1 as Flonum | number);
  if (b < 0 && !Number.isInteger(p) && p === p) return viaComplex2(z1, z2);
  return flo(Math.pow(b, p));
}

/** z1^z2 as the principal value e^(z2 log z1), inexact. */
function viaComplex2(z1: SNumber, z2: SNumber): SNumber {
  return fromCD(cdExpt(toCD(z1), toCD(z2)));
}

/** An exact complex to an exact integer power, by squaring. */
function complexPow(z: SNumber, e: bigint): SNumber {
  if (e < 0n) return div(1, complexPow(z, -e));
  let result: SNumber = 1;
  let base = z;
  while (e > 0n) {
    if ((e & 1n) === 1n) result = cMul(result, base);
    e >>= 1n;
    if (e > 0n) base = cMul(base, base);
  }
  return result;
}

/** The exact q-th root of a non-negative exact number, or null when it is not a perfect q-th power. */
function exactRoot(x: ExactInteger | Ratnum, q: bigint): ExactInteger | Ratnum | null {
  const num = x instanceof Ratnum ? x.num : BigInt(x);
  const den = x instanceof Ratnum ? x.den : 1n;
  if (num === 0n) return 0;
  // A q-th root of an n-bit number > 1 needs q ≤ n; beyond that only 1 is a perfect power.
  const limit = BigInt(Math.max(bitLength(num), bitLength(den)));
  if (q > limit) return num === 1n && den === 1n ? 1 : null;
  const k = Number(q);
  const rn = iroot(num, k);
  if (rn ** q !== num) return null;
  const rd = iroot(den, k);
  if (rd ** q !== den) return null;
  return rd === 1n ? normBig(rn) : new Ratnum(rn, rd);
}

/** log2 |n| for a bigint n ≠ 0, to a few digits (exact enough to size a power). */
function log2Abs(n: bigint): number {
  if (n < 0n) n = -n;
  if (n <= 2n ** 53n) return Math.log2(Number(n));
  const bits = bitLength(n);
  return bits - 53 + Math.log2(Number(n >> BigInt(bits - 53)));
}

/** b^e for exact b and an exact integer e. */
function exactPow(b: ExactInteger | Ratnum, e: bigint): ExactInteger | Ratnum {
  if (e === 0n) return 1; // including (expt 0 0)
  const num = b instanceof Ratnum ? b.num : BigInt(b);
  const den = b instanceof Ratnum ? b.den : 1n;
  if (num === 0n) return e > 0n ? 0 : divisionByZero("expt", b);
  if (den === 1n && (num === 1n || num === -1n)) return num === -1n && (e & 1n) === 1n ? -1 : 1;
  const k = e < 0n ? -e : e;
  // The result's size, announced to the memory budget before anything is computed
  // (a bit count beyond 2^53 is still only an estimate, which is all it needs to be).
  const resultBits = (log2Abs(num) + log2Abs(den)) * Number(k);
  if (!announceBits(resultBits) || resultBits > MAX_EXPT_BITS) {
    return rangeError("expt", 2, `exponent too large: the exact result would exceed ${MAX_EXPT_BITS} bits`, e);
  }
  // Squarings up to the result's size: the last one, of half-size numbers, dominates.
  if (resultBits > 4096) spend(3 * mulNs(resultBits / 2, resultBits / 2));
  const pn = num ** k;
  const pd = den ** k;
  // Powers of coprime numbers are coprime: the result is already in lowest terms.
  if (e > 0n) return pd === 1n ? normBig(pn) : new Ratnum(pn, pd);
  // The reciprocal: only the sign has to move to the numerator.
  const rn = pn < 0n ? -pd : pd;
  const rd = pn < 0n ? -pn : pn;
  return rd === 1n ? normBig(rn) : new Ratnum(rn, rd);
}
