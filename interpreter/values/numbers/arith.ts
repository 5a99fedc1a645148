// Generic arithmetic over the numeric tower: the entry that gathers the number modules (hot ops in ops.ts).
//
// Layout: convert.ts (exact ↔ inexact), ops.ts (the binary operations compiled
// code inlines, with their slow paths), integers.ts (gcd, lcm, parity, integer
// roots), rounding.ts (floor … round, numerator/denominator, rationalize),
// transcendental.ts (exp, log, trigonometry, sqrt, expt), predicates.ts. This
// file adds abs, max, min and square, and re-exports the rest.

import { Compnum, Flonum, Ratnum, isFlonum, type SNumber } from "./repr.js";
import { toInexact } from "./convert.js";
import { compareSlow, mul } from "./ops.js";
import { argError } from "../../errors.js";

export * from "./convert.js";
export * from "./ops.js";
export * from "./integers.js";
export * from "./rounding.js";
export * from "./transcendental.js";
export * from "./predicates.js";
export * from "./complex.js";

/** `(abs x)`. */
export function numAbs(x: SNumber): SNumber {
  if (typeof x === "number") return Math.abs(x); // the safe range is symmetric; a bare flonum is non-integral, so is its abs
  if (typeof x === "bigint") return x < 0n ? -x : x;
  if (x instanceof Ratnum) return x.num < 0n ? new Ratnum(-x.num, x.den) : x;
  if (x instanceof Flonum) return x.v < 0 || Object.is(x.v, -0) ? new Flonum(-x.v) : x;
  return argError("abs", 1, "real number", x);
}

/** The larger (or smaller) of a and b, inexact when either is; +nan.0 when either is a NaN. */
function extremum(a: SNumber, b: SNumber, who: string, wantGreater: boolean): SNumber {
  const c = compareSlow(a, b, who); // exact comparison, so the result is a or b exactly before contagion
  if (c !== c) return NaN;
  const r = (c >= 0) === wantGreater ? a : b;
  return isFlonum(a) || isFlonum(b) ? toInexact(r) : r;
}

/** `(max a b)`: R7RS inexact contagion, `(max 2.5 6)` is 6.0. */
export function numMax(a: SNumber, b: SNumber): SNumber {
  if (typeof a === "number" && typeof b === "number" && Number.isInteger(a) && Number.isInteger(b)) return a >= b ? a : b;
  return extremum(a, b, "max", true);
}

/** `(min a b)`. */
export function numMin(a: SNumber, b: SNumber): SNumber {
  if (typeof a === "number" && typeof b === "number" && Number.isInteger(a) && Number.isInteger(b)) return a <= b ? a : b;
  return extremum(a, b, "min", false);
}

/** `(square z)`: z · z. */
export function square(z: SNumber): SNumber {
  const c: unknown = z;
  if (!(typeof z === "number" || typeof z === "bigint" || z instanceof Ratnum || z instanceof Flonum || c instanceof Compnum)) {
    return argError("square", 1, "number", z);
  }
  return mul(z, z);
}
