// Rounding to integers (floor, ceiling, round, truncate), numerator/denominator, and rationalize.

import { Flonum, Ratnum, flo, isFlonum, makeRational, normBig, type ExactInteger, type SNumber } from "./repr.js";
import { floatToExact, toFloat, toInexact } from "./convert.js";
import { add, sub, sign } from "./ops.js";
import { argError } from "../../errors.js";

type Mode = "floor" | "ceiling" | "round" | "truncate";

/** ⌊num/den⌋ for den > 0. */
function bigFloorDiv(num: bigint, den: bigint): bigint {
  const q = num / den;
  return num < 0n && q * den !== num ? q - 1n : q;
}

/** A ratnum rounded to an integer in `mode` (ties to even for round). */
function roundRat(x: Ratnum, mode: Mode): ExactInteger {
  const fl = bigFloorDiv(x.num, x.den); // x is not an integer, so ceiling = floor + 1
  switch (mode) {
    case "floor":
      return normBig(fl);
    case "ceiling":
      return normBig(fl + 1n);
    case "truncate":
      return normBig(x.num < 0n ? fl + 1n : fl);
    case "round": {
      const twice = (x.num - fl * x.den) * 2n; // 2·(x − ⌊x⌋)·den, compared with den
      if (twice < x.den) return normBig(fl);
      if (twice > x.den) return normBig(fl + 1n);
      return normBig((fl & 1n) === 0n ? fl : fl + 1n);
    }
    default:
      return mode satisfies never;
  }
}

/** A double rounded in `mode`; the sign of a zero result follows v (round −0.4 is −0.0). */
function roundFloat(v: number, mode: Mode): number {
  switch (mode) {
    case "floor":
      return Math.floor(v);
    case "ceiling":
      return Math.ceil(v);
    case "truncate":
      return Math.trunc(v);
    case "round": {
      const f = Math.floor(v);
      const d = v - f; // exact: the fraction of a double is representable
      const r = d < 0.5 ? f : d > 0.5 ? f + 1 : f % 2 === 0 ? f : f + 1;
      return r === 0 && (v < 0 || Object.is(v, -0)) ? -0 : r;
    }
    default:
      return mode satisfies never;
  }
}

function rounder(mode: Mode): (x: SNumber) => SNumber {
  return (x) => {
    if (typeof x === "number") return Number.isInteger(x) ? x : flo(roundFloat(x, mode)); // NaN and ±inf.0 stay bare
    if (typeof x === "bigint") return x;
    if (x instanceof Ratnum) return roundRat(x, mode);
    if (x instanceof Flonum) return new Flonum(roundFloat(x.v, mode));
    return argError(mode, 1, "real number", x);
  };
}

/** `(floor x)`: the largest integer ≤ x, exact for exact x. */
export const numFloor: (x: SNumber) => SNumber = rounder("floor");
/** `(ceiling x)`: the smallest integer ≥ x. */
export const numCeiling: (x: SNumber) => SNumber = rounder("ceiling");
/** `(round x)`: the nearest integer, ties to even. */
export const numRound: (x: SNumber) => SNumber = rounder("round");
/** `(truncate x)`: the integer nearest x toward zero. */
export const numTruncate: (x: SNumber) => SNumber = rounder("truncate");

/** A finite flonum as exact, or a type error (numerator/denominator want a rational). */
function rationalArg(x: Flonum | number, who: string): ExactInteger | Ratnum {
  const v = typeof x === "number" ? x : x.v;
  if (!Number.isFinite(v)) return argError(who, 1, "rational number", x);
  return floatToExact(v);
}

/** `(numerator q)`: of the fraction in lowest terms; a flonum's is computed on its exact value and made inexact. */
export function numerator(q: SNumber): SNumber {
  if ((typeof q === "number" && Number.isInteger(q)) || typeof q === "bigint") return q;
  if (q instanceof Ratnum) return normBig(q.num);
  if (isFlonum(q)) {
    const e = rationalArg(q, "numerator");
    return new Flonum(e instanceof Ratnum ? Number(e.num) : Number(e));
  }
  return argError("numerator", 1, "rational number", q);
}

/** `(denominator q)`: positive; 1 for integers; `(denominator 0.5)` is 2.0. */
export function denominator(q: SNumber): SNumber {
  if ((typeof q === "number" && Number.isInteger(q)) || typeof q === "bigint") return 1;
  if (q instanceof Ratnum) return normBig(q.den);
  if (isFlonum(q)) {
    const e = rationalArg(q, "denominator");
    return new Flonum(e instanceof Ratnum ? Number(e.den) : 1);
  }
  return argError("denominator", 1, "rational number", q);
}

/**
 * `(rationalize x y)`: the simplest rational within |y| of x (smallest
 * denominator, then smallest |numerator|). Inexact if either argument is.
 */
export function rationalize(x: SNumber, y: SNumber): SNumber {
  if (!isReal(x)) return argError("rationalize", 1, "real number", x);
  if (!isReal(y)) return argError("rationalize", 2, "real number", y);
  if (isFlonum(x) || isFlonum(y)) {
    const xv = toFloat(x);
    const yv = toFloat(y);
    if (xv !== xv || yv !== yv) return NaN;
    if (!Number.isFinite(yv)) return flo(Number.isFinite(xv) ? 0 : NaN); // every finite x is within ∞ of 0
    if (!Number.isFinite(xv)) return xv;
    return toInexact(simplestBetween(floatToExact(xv), floatToExact(Math.abs(yv))));
  }
  const e = sign(y) < 0 ? sub(0, y) : y;
  return simplestBetween(x as ExactInteger | Ratnum, e as ExactInteger | Ratnum);
}

function isReal(x: unknown): x is SNumber {
  return typeof x === "number" || typeof x === "bigint" || x instanceof Ratnum || x instanceof Flonum;
}

/** The simplest rational in [x − e, x + e], e ≥ 0, all exact. */
function simplestBetween(x: ExactInteger | Ratnum, e: ExactInteger | Ratnum): ExactInteger | Ratnum {
  const lo = sub(x, e) as ExactInteger | Ratnum;
  const hi = add(x, e) as ExactInteger | Ratnum;
  if (sign(lo) > 0) return simplestPositive(lo, hi);
  if (sign(hi) < 0) {
    const r = simplestPositive(sub(0, hi) as ExactInteger | Ratnum, sub(0, lo) as ExactInteger | Ratnum);
    return sub(0, r) as ExactInteger | Ratnum;
  }
  return 0; // the interval contains 0, the simplest rational of all
}

/**
 * The simplest rational in [lo, hi] with 0 < lo ≤ hi, by building its continued
 * fraction: while ⌊lo⌋ = ⌊hi⌋ and lo is not an integer, the answer is
 * ⌊lo⌋ + 1/(simplest in [1/(hi − ⌊lo⌋), 1/(lo − ⌊lo⌋)]). Iterative, because the
 * continued fraction of a huge rational can be long.
 */
function simplestPositive(lo: ExactInteger | Ratnum, hi: ExactInteger | Ratnum): ExactInteger | Ratnum {
  let ln = lo instanceof Ratnum ? lo.num : BigInt(lo);
  let ld = lo instanceof Ratnum ? lo.den : 1n;
  let hn = hi instanceof Ratnum ? hi.num : BigInt(hi);
  let hd = hi instanceof Ratnum ? hi.den : 1n;
  const terms: bigint[] = [];
  for (;;) {
    const fl = ln / ld; // positive: truncation is floor
    if (fl * ld === ln) {
      terms.push(fl); // lo is an integer: nothing simpler lies above it
      break;
    }
    if (fl < hn / hd) {
      terms.push(fl + 1n); // the smallest integer above lo is still ≤ hi
      break;
    }
    terms.push(fl);
    const nlo = [hd, hn - fl * hd] as const; // 1/(hi − fl)
    const nhi = [ld, ln - fl * ld] as const; // 1/(lo − fl)
    [ln, ld] = nlo;
    [hn, hd] = nhi;
  }
  // Fold the continued fraction [t0; t1, …, tk] from the end: p/q ← t + q/p.
  let p = terms[terms.length - 1] as bigint;
  let q = 1n;
  for (let i = terms.length - 2; i >= 0; i--) {
    const t = terms[i] as bigint;
    [p, q] = [t * p + q, p];
  }
  return makeRational(p, q);
}
