// The binary operations compiled code calls directly: a fixnum fast path, then a generic slow path.
//
// Each exported hot op is a few lines so that V8 inlines it at the call site
// (its bytecode size decides how many call sites of a loop get inlined).
// The inline case is both arguments JS numbers: fixnums (safe integers, never
// −0) and non-integral flonums, which are bare doubles too (ADR 0046). The
// double result r is computed once; a non-integral r is a flonum already (an
// operation on two fixnums never gives one), so it is returned as it is,
// allocating nothing. An integral r is returned when both operands were
// fixnums and r is in the safe range.
//
// Everything else goes to a small out-of-line `*Mixed` function: an integral
// result from a bare flonum (1.5 + 1.5 is the boxed 3.0), a boxed (integral)
// flonum with a number or another box (contagion: a flonum, boxed only when
// integral), and from there to the generic `*Slow` function (overflow to
// bigint, rationals, complex numbers, type errors). The comparisons keep two
// inline cases, two JS numbers and two boxes, and compare a box with a number
// as doubles out of line.
//
// The range checks use the literal ±(2^53 − 1) rather than imported constants
// so that the fast path has no module-binding loads.
//
// Overflow detection is exact: for safe integers a and b, a ± b and a · b are
// computed with one rounding, which is monotone, so the rounded result is
// outside ±(2^53 − 1) exactly when the true one is, and inside it is exact.

import { Compnum, Flonum, Ratnum, flo, isFixnum, isFlonum, normBig, makeRational, type ExactInteger, type SNumber } from "./repr.js";
import { toFloat, floatToExact } from "./convert.js";
import { argError, raiseError } from "../../errors.js";
import { chargeDiv, chargeLinear, chargeMul } from "./cost.js";
import { makeRect, realPart, imagPart, cdDiv } from "./rect.js";

/** `(+ a b)`. (−0 only comes from −0 + −0, and bare numbers are never −0.) */
export function add(a: unknown, b: unknown): SNumber {
  if (typeof a === "number" && typeof b === "number") {
    const r = a + b;
    if (!Number.isInteger(r)) return r;
    if (r <= 9007199254740991 && r >= -9007199254740991 && Number.isInteger(a) && Number.isInteger(b)) return r;
  }
  return addMixed(a, b);
}

/** add when the inline case fails: an integral result from a bare flonum, a boxed flonum, fixnum overflow, the rest. */
function addMixed(a: unknown, b: unknown): SNumber {
  if (typeof a === "number") {
    if (typeof b === "number") {
      if (!Number.isInteger(a) || !Number.isInteger(b)) return new Flonum(a + b); // integral, from a bare flonum: 1.5 + 1.5
    } else if (b instanceof Flonum) return flo(a + b.v);
  } else if (a instanceof Flonum) {
    if (b instanceof Flonum) return flo(a.v + b.v);
    if (typeof b === "number") return flo(a.v + b);
  }
  return addSlow(a, b, "+");
}

/** `(- a b)`. (x − x is +0.) */
export function sub(a: unknown, b: unknown): SNumber {
  if (typeof a === "number" && typeof b === "number") {
    const r = a - b;
    if (!Number.isInteger(r)) return r;
    if (r <= 9007199254740991 && r >= -9007199254740991 && Number.isInteger(a) && Number.isInteger(b)) return r;
  }
  return subMixed(a, b);
}

/** sub when the inline case fails (see addMixed). */
function subMixed(a: unknown, b: unknown): SNumber {
  if (typeof a === "number") {
    if (typeof b === "number") {
      if (!Number.isInteger(a) || !Number.isInteger(b)) return new Flonum(a - b); // integral, from a bare flonum: 2.5 - 0.5
    } else if (b instanceof Flonum) return flo(a - b.v);
  } else if (a instanceof Flonum) {
    if (b instanceof Flonum) return flo(a.v - b.v);
    if (typeof b === "number") return flo(a.v - b);
  }
  return subSlow(a, b);
}

/** `(* a b)`. An inexact factor keeps the sign of a zero: (* 0 -1.5) is −0.0. */
export function mul(a: unknown, b: unknown): SNumber {
  if (typeof a === "number" && typeof b === "number") {
    const r = a * b;
    if (!Number.isInteger(r)) return r;
    if (r <= 9007199254740991 && r >= -9007199254740991 && Number.isInteger(a) && Number.isInteger(b)) return r + 0; // + 0 turns −0 (0 · negative) into 0
  }
  return mulMixed(a, b);
}

/** mul when the inline case fails (see addMixed). */
function mulMixed(a: unknown, b: unknown): SNumber {
  if (typeof a === "number") {
    if (typeof b === "number") {
      if (!Number.isInteger(a) || !Number.isInteger(b)) return new Flonum(a * b); // integral, from a bare flonum: 0.5 * 4
    } else if (b instanceof Flonum) return flo(a * b.v);
  } else if (a instanceof Flonum) {
    if (b instanceof Flonum) return flo(a.v * b.v);
    if (typeof b === "number") return flo(a.v * b);
  }
  return mulSlow(a, b);
}

/** `(/ a b)`: exact operands give an exact (possibly rational) result; an exact zero divisor raises. */
export function div(a: unknown, b: unknown): SNumber {
  if (typeof a === "number" && typeof b === "number" && b !== 0) {
    if (!Number.isInteger(a) || !Number.isInteger(b)) return flo(a / b);
    if (a % b === 0) return a / b + 0;
  }
  return divMixed(a, b);
}

function divMixed(a: unknown, b: unknown): SNumber {
  if (b instanceof Flonum) {
    if (typeof a === "number") return flo(a / b.v); // an inexact zero divisor gives ±inf.0 or +nan.0
    if (a instanceof Flonum) return flo(a.v / b.v);
  } else if (a instanceof Flonum && typeof b === "number" && b !== 0) return flo(a.v / b);
  return divSlow(a, b);
}

/** `(- a)`. */
export function neg(a: unknown): SNumber {
  if (typeof a === "number") return Number.isInteger(a) ? 0 - a : -a; // 0 − 0 is +0; the safe range is symmetric
  return negSlow(a);
}

function negSlow(a: unknown): SNumber {
  // Negation, not 0 − a: (- 0.0) is −0.0.
  if (a instanceof Flonum) return new Flonum(-a.v);
  return subSlow(0, a, 1);
}

// The comparisons: two JS numbers (fixnums or bare flonums), two boxed flonums,
// or one of each are all exact doubles, so the double comparison is exact.

/** A JS number's or a boxed flonum's double, or NaN for anything else (so compareSlow decides). */
function dbl(x: unknown): number {
  return typeof x === "number" ? x : x instanceof Flonum ? x.v : NaN;
}

/** Either operand is not a number or a boxed flonum (dbl gave NaN for it), or both are and one is a NaN. */
function mixedCmp(a: unknown, b: unknown, who: string): number {
  const x = dbl(a);
  const y = dbl(b);
  if (x === x && y === y) return x < y ? -1 : x > y ? 1 : 0;
  return compareSlow(a, b, who);
}

/** `(= a b)`. */
export function numEq(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") return a === b;
  if (a instanceof Flonum && b instanceof Flonum) return a.v === b.v;
  return mixedCmp(a, b, "=") === 0;
}

/** `(< a b)`. */
export function lt(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") return a < b;
  if (a instanceof Flonum && b instanceof Flonum) return a.v < b.v;
  return mixedCmp(a, b, "<") < 0;
}

/** `(<= a b)`. */
export function le(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") return a <= b;
  if (a instanceof Flonum && b instanceof Flonum) return a.v <= b.v;
  return mixedCmp(a, b, "<=") <= 0;
}

/** `(> a b)`. */
export function gt(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") return a > b;
  if (a instanceof Flonum && b instanceof Flonum) return a.v > b.v;
  return mixedCmp(a, b, ">") > 0;
}

/** `(>= a b)`. */
export function ge(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") return a >= b;
  if (a instanceof Flonum && b instanceof Flonum) return a.v >= b.v;
  return mixedCmp(a, b, ">=") >= 0;
}

// Integer division. For fixnums, a % b is exact (fmod never rounds), a − a % b
// is an exact multiple of b no larger than |a|, so (a − a % b) / b is the exact
// truncated quotient. Floor variants adjust the truncated results; computing
// a − floorRem directly could leave the safe range and round.

/** `(quotient a b)` = `(truncate-quotient a b)`. */
export function quotient(a: unknown, b: unknown): SNumber {
  if (isFixnum(a) && isFixnum(b) && b !== 0) return (a - (a % b)) / b + 0;
  return intDivSlow(a, b, "quotient", TRUNC_Q);
}

/** `(remainder a b)` = `(truncate-remainder a b)`: the sign of a. */
export function remainder(a: unknown, b: unknown): SNumber {
  if (isFixnum(a) && isFixnum(b) && b !== 0) return (a % b) + 0;
  return intDivSlow(a, b, "remainder", TRUNC_R);
}

/** `(modulo a b)` = `(floor-remainder a b)`: the sign of b. */
export function modulo(a: unknown, b: unknown): SNumber {
  if (isFixnum(a) && isFixnum(b) && b !== 0) {
    const r = a % b;
    return (r !== 0 && r < 0 !== b < 0 ? r + b : r) + 0;
  }
  return intDivSlow(a, b, "modulo", FLOOR_R);
}

/** `(floor-quotient a b)`: ⌊a/b⌋. */
export function floorDiv(a: unknown, b: unknown): SNumber {
  if (isFixnum(a) && isFixnum(b) && b !== 0) {
    const r = a % b;
    const q = (a - r) / b;
    return (r !== 0 && r < 0 !== b < 0 ? q - 1 : q) + 0;
  }
  return intDivSlow(a, b, "floor-quotient", FLOOR_Q);
}

/** `(floor-remainder a b)`: a − b⌊a/b⌋ (same as `modulo`, named for floor/). */
export function floorRem(a: unknown, b: unknown): SNumber {
  if (isFixnum(a) && isFixnum(b) && b !== 0) {
    const r = a % b;
    return (r !== 0 && r < 0 !== b < 0 ? r + b : r) + 0;
  }
  return intDivSlow(a, b, "floor-remainder", FLOOR_R);
}

/** `(truncate-quotient a b)`. */
export function truncDiv(a: unknown, b: unknown): SNumber {
  if (isFixnum(a) && isFixnum(b) && b !== 0) return (a - (a % b)) / b + 0;
  return intDivSlow(a, b, "truncate-quotient", TRUNC_Q);
}

/** `(truncate-remainder a b)`. */
export function truncRem(a: unknown, b: unknown): SNumber {
  if (isFixnum(a) && isFixnum(b) && b !== 0) return (a % b) + 0;
  return intDivSlow(a, b, "truncate-remainder", TRUNC_R);
}

/** `(floor/ a b)` as [quotient, remainder]. */
export function floorDivRem(a: unknown, b: unknown): [SNumber, SNumber] {
  if (isFixnum(a) && isFixnum(b) && b !== 0) return [floorDiv(a, b), floorRem(a, b)];
  return [intDivSlow(a, b, "floor/", FLOOR_Q), intDivSlow(a, b, "floor/", FLOOR_R)];
}

/** `(truncate/ a b)` as [quotient, remainder]. */
export function truncDivRem(a: unknown, b: unknown): [SNumber, SNumber] {
  if (isFixnum(a) && isFixnum(b) && b !== 0) return [truncDiv(a, b), truncRem(a, b)];
  return [intDivSlow(a, b, "truncate/", TRUNC_Q), intDivSlow(a, b, "truncate/", TRUNC_R)];
}

/** Charges the cross products of x/xd ± y/yd (or a comparison of two ratios). */
function chargeRatio(x: ExactInteger | Ratnum, y: ExactInteger | Ratnum): void {
  chargeMul(numOf(x), denOf(y));
  chargeMul(numOf(y), denOf(x));
  chargeMul(denOf(x), denOf(y));
}

/** Is x a number of the tower? (Local copy of repr's test, typed for `unknown`.) */
function isNum(x: unknown): x is SNumber {
  return typeof x === "number" || typeof x === "bigint" || x instanceof Flonum || x instanceof Ratnum;
}

/** Any number (complex included), or a type error naming argument `argNo` of `who`. */
function complexArg(x: unknown, who: string, argNo: number): unknown {
  if (isNum(x) || x instanceof Compnum) return x;
  return argError(who, argNo, "number", x);
}

function isExactInt(x: unknown): x is ExactInteger {
  return (typeof x === "number" && Number.isInteger(x)) || typeof x === "bigint";
}

function big(x: ExactInteger): bigint {
  return typeof x === "bigint" ? x : BigInt(x);
}

/** x as a double, or a type error naming argument `argNo` of `who`. */
function floatArg(x: unknown, who: string, argNo: number): number {
  if (typeof x === "number") return x;
  if (x instanceof Flonum) return x.v;
  if (!isNum(x)) return argError(who, argNo, "number", x);
  return toFloat(x);
}

/** Numerator of an exact argument (its type already known to be exact). */
function numOf(x: ExactInteger | Ratnum): bigint {
  return x instanceof Ratnum ? x.num : big(x);
}

function denOf(x: ExactInteger | Ratnum): bigint {
  return x instanceof Ratnum ? x.den : 1n;
}

function exactArg(x: unknown, who: string, argNo: number): ExactInteger | Ratnum {
  if (isExactInt(x) || x instanceof Ratnum) return x;
  return argError(who, argNo, "number", x);
}

/** a + b for any numbers (and the overflowing fixnum case). */
export function addSlow(a: unknown, b: unknown, who: string): SNumber {
  if (isFlonum(a) || isFlonum(b)) {
    if (a instanceof Compnum || b instanceof Compnum) return cAdd(a, b);
    return flo(floatArg(a, who, 1) + floatArg(b, who, 2));
  }
  if (isExactInt(a) && isExactInt(b)) {
    chargeLinear(a, b);
    return normBig(big(a) + big(b));
  }
  if (a instanceof Compnum || b instanceof Compnum) return cAdd(complexArg(a, who, 1), complexArg(b, who, 2));
  const x = exactArg(a, who, 1);
  const y = exactArg(b, who, 2);
  const xd = denOf(x);
  const yd = denOf(y);
  if (xd === yd) {
    chargeLinear(numOf(x), numOf(y));
    return makeRational(numOf(x) + numOf(y), xd);
  }
  chargeRatio(x, y);
  return makeRational(numOf(x) * yd + numOf(y) * xd, xd * yd);
}

/** a − b; `argBase` shifts argument numbers so that `(- x)` reports its only argument as #1. */
function subSlow(a: unknown, b: unknown, argBase = 0): SNumber {
  const who = "-";
  if (isFlonum(a) || isFlonum(b)) {
    if (a instanceof Compnum || b instanceof Compnum) return cSub(a, b);
    return flo(floatArg(a, who, 1) - floatArg(b, who, 2 - argBase));
  }
  if (isExactInt(a) && isExactInt(b)) {
    chargeLinear(a, b);
    return normBig(big(a) - big(b));
  }
  if (a instanceof Compnum || b instanceof Compnum) return cSub(complexArg(a, who, 1), complexArg(b, who, 2 - argBase));
  const x = exactArg(a, who, 1);
  const y = exactArg(b, who, 2 - argBase);
  const xd = denOf(x);
  const yd = denOf(y);
  if (xd === yd) {
    chargeLinear(numOf(x), numOf(y));
    return makeRational(numOf(x) - numOf(y), xd);
  }
  chargeRatio(x, y);
  return makeRational(numOf(x) * yd - numOf(y) * xd, xd * yd);
}

function mulSlow(a: unknown, b: unknown): SNumber {
  const who = "*";
  // Inexact contagion even for an exact 0 factor: (* 0 1.5) is 0.0, as IEEE
  // arithmetic gives (and (* 0 +inf.0) is +nan.0). R7RS allows either.
  if (isFlonum(a) || isFlonum(b)) {
    if (a instanceof Compnum || b instanceof Compnum) return cMul(a, b);
    return flo(floatArg(a, who, 1) * floatArg(b, who, 2));
  }
  if (isExactInt(a) && isExactInt(b)) {
    chargeMul(a, b);
    return normBig(big(a) * big(b));
  }
  if (a instanceof Compnum || b instanceof Compnum) return cMul(complexArg(a, who, 1), complexArg(b, who, 2));
  const x = exactArg(a, who, 1);
  const y = exactArg(b, who, 2);
  chargeMul(numOf(x), numOf(y));
  chargeMul(denOf(x), denOf(y));
  return makeRational(numOf(x) * numOf(y), denOf(x) * denOf(y));
}

function isExactZero(x: unknown): boolean {
  return x === 0;
}

/** The condition every division by an exact zero raises. */
export function divisionByZero(who: string, dividend: unknown): never {
  return raiseError("range", "division by zero", [dividend], who);
}

function divSlow(a: unknown, b: unknown): SNumber {
  const who = "/";
  if (!isNum(a) || !isNum(b)) {
    complexArg(a, who, 1);
    complexArg(b, who, 2);
    if (isExactZero(b)) return divisionByZero(who, a);
    return cDiv(a, b);
  }
  // R7RS: dividing by an exact zero is an error, whatever the dividend.
  if (isExactZero(b)) return divisionByZero(who, a);
  if (isFlonum(a) || isFlonum(b)) return flo(toFloat(a) / toFloat(b));
  const x = a as ExactInteger | Ratnum;
  const y = b as ExactInteger | Ratnum;
  chargeMul(numOf(x), denOf(y));
  chargeMul(denOf(x), numOf(y));
  return makeRational(numOf(x) * denOf(y), denOf(x) * numOf(y));
}

/**
 * Compares two real numbers exactly: -1, 0, 1, or NaN when unordered (a NaN is
 * involved), so that `c < 0`, `c === 0` … are all false for NaN. Comparing an
 * exact number with a flonum converts the flonum to exact rather than the other
 * way round: R7RS requires the comparison predicates to be transitive.
 */
export function compareSlow(a: unknown, b: unknown, who: string): number {
  const expected = who === "=" ? "number" : "real number";
  if (who === "=" && (a instanceof Compnum || b instanceof Compnum)) {
    return cEq(complexArg(a, who, 1), complexArg(b, who, 2)) ? 0 : 1;
  }
  if (!isNum(a)) return argError(who, 1, expected, a);
  if (!isNum(b)) return argError(who, 2, expected, b);
  return compare(a, b);
}

/** Exact comparison of two numbers: -1, 0, 1, or NaN when either is a NaN. */
export function compare(a: SNumber, b: SNumber): number {
  // Two JS numbers (fixnums or bare flonums) are exact doubles: the float comparison is exact.
  if (typeof a === "number" && typeof b === "number") return cmpFloat(a, b);
  if (isFlonum(a)) {
    const av = typeof a === "number" ? a : a.v;
    if (b instanceof Flonum || typeof b === "number") return cmpFloat(av, typeof b === "number" ? b : b.v);
    return -cmpExactFloat(b, av);
  }
  if (isFlonum(b)) {
    const bv = typeof b === "number" ? b : b.v;
    // A fixnum is an exact double, so the float comparison is exact.
    if (typeof a === "number") return cmpFloat(a, bv);
    return cmpExactFloat(a, bv);
  }
  return cmpExact(a, b);
}

function cmpFloat(x: number, y: number): number {
  return x < y ? -1 : x > y ? 1 : x === y ? 0 : NaN;
}

/** Compares an exact number with a double. */
function cmpExactFloat(a: ExactInteger | Ratnum, v: number): number {
  if (v !== v) return NaN;
  if (v === Infinity) return -1;
  if (v === -Infinity) return 1;
  return cmpExact(a, floatToExact(v));
}

/** Compares two exact numbers. */
export function cmpExact(a: ExactInteger | Ratnum, b: ExactInteger | Ratnum): number {
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
  let x: bigint;
  let y: bigint;
  if (isExactInt(a) && isExactInt(b)) {
    chargeLinear(a, b);
    x = big(a);
    y = big(b);
  } else {
    chargeRatio(a, b);
    x = numOf(a) * denOf(b);
    y = numOf(b) * denOf(a);
  }
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Which of the four integer-division results intDivSlow computes. */
type IntDivOp = 0 | 1 | 2 | 3;
const TRUNC_Q: IntDivOp = 0;
const TRUNC_R: IntDivOp = 1;
const FLOOR_Q: IntDivOp = 2;
const FLOOR_R: IntDivOp = 3;

/** An integer argument (exact, or an integer-valued flonum) as a bigint. */
function intArg(x: unknown, who: string, argNo: number): bigint {
  if (isFixnum(x)) return BigInt(x);
  if (typeof x === "bigint") return x;
  if (x instanceof Flonum && Number.isInteger(x.v)) return BigInt(x.v);
  return argError(who, argNo, "integer", x);
}

/**
 * One of the integer divisions over any integers. Computed exactly on bigints;
 * an inexact operand makes the result inexact (the exact result, rounded).
 */
export function intDivSlow(a: unknown, b: unknown, who: string, op: IntDivOp): SNumber {
  const x = intArg(a, who, 1);
  const y = intArg(b, who, 2);
  if (y === 0n) return divisionByZero(who, a);
  chargeDiv(x, y);
  let q = x / y; // truncates
  let r = x - q * y;
  if ((op === FLOOR_Q || op === FLOOR_R) && r !== 0n && r < 0n !== y < 0n) {
    q -= 1n;
    r += y;
  }
  const res = op === TRUNC_Q || op === FLOOR_Q ? q : r;
  return a instanceof Flonum || b instanceof Flonum ? new Flonum(Number(res)) : normBig(res); // intArg rejected bare flonums
}

/** Sign of a real number: -1, 0, 1, or NaN for a NaN. (−0.0 is 0.) */
export function sign(x: SNumber): number {
  if (typeof x === "number") return x < 0 ? -1 : x > 0 ? 1 : x === 0 ? 0 : NaN;
  if (typeof x === "bigint") return x < 0n ? -1 : 1;
  if (x instanceof Ratnum) return x.num < 0n ? -1 : 1;
  const v = x.v;
  return v < 0 ? -1 : v > 0 ? 1 : v === 0 ? 0 : NaN;
}

// ---- non-real operands (ADR 0039): reached only from the out-of-line cases above ----

export function cAdd(a: unknown, b: unknown): SNumber {
  return makeRect(add(realPart(a), realPart(b)), add(imagPart(a), imagPart(b)));
}

export function cSub(a: unknown, b: unknown): SNumber {
  return makeRect(sub(realPart(a), realPart(b)), sub(imagPart(a), imagPart(b)));
}

export function cMul(a: unknown, b: unknown): SNumber {
  const ar = realPart(a);
  const ai = imagPart(a);
  const br = realPart(b);
  const bi = imagPart(b);
  if (ai === 0) return makeRect(mul(ar, br), mul(ar, bi));
  if (bi === 0) return makeRect(mul(ar, br), mul(ai, br));
  return makeRect(sub(mul(ar, br), mul(ai, bi)), add(mul(ar, bi), mul(ai, br)));
}

/** a / b; b is known not to be an exact 0. */
export function cDiv(a: unknown, b: unknown): SNumber {
  const ar = realPart(a);
  const ai = imagPart(a);
  const br = realPart(b);
  const bi = imagPart(b);
  if (bi === 0) return makeRect(div(ar, br), div(ai, br));
  if (isFlonum(br) || isFlonum(bi) || isFlonum(ar) || isFlonum(ai)) {
    const [x, y] = cdDiv([toFloat(ar), toFloat(ai)], [toFloat(br), toFloat(bi)]);
    return makeRect(flo(x), flo(y));
  }
  const d = add(mul(br, br), mul(bi, bi));
  return makeRect(div(add(mul(ar, br), mul(ai, bi)), d), div(sub(mul(ai, br), mul(ar, bi)), d));
}

export function cEq(a: unknown, b: unknown): boolean {
  return numEq(realPart(a), realPart(b)) && numEq(imagPart(a), imagPart(b));
}
