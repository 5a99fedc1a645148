// Exact ↔ inexact conversions: correctly rounded bigint/ratio → double, and double → exact rational.

import { Compnum, Flonum, flo, isFlonum, type ExactInteger, type Ratnum, type SNumber } from "./repr.js";
import { makeRect } from "./rect.js";
import { rangeError } from "../../errors.js";
import { toFloat, floatToExact } from "./float.js";

// The conversions that cannot fail live in float.ts (they import no error module, so the
// reader and the printer can use them); they are exported from here too.
export { ldexp, bitLength, ratioToFloat, toFloat, floatToExact } from "./float.js";

/** `(exact z)`: flonums become their exact value; +inf.0, -inf.0 and +nan.0 have none (a range error). */
export function toExact(x: SNumber, who = "exact"): ExactInteger | Ratnum {
  if (typeof x === "number") {
    if (Number.isInteger(x)) return x;
    if (!Number.isFinite(x)) rangeError(who, 1, `${floatName(x)} has no exact representation`, x);
    return floatToExact(x);
  }
  if (x instanceof Flonum) {
    if (!Number.isFinite(x.v)) rangeError(who, 1, `${floatName(x.v)} has no exact representation`, x);
    return floatToExact(x.v);
  }
  const z: unknown = x;
  // An exact complex is typed as its real part's type here: callers that can see one handle it as a number.
  if (z instanceof Compnum) {
    if (!isFlonum(z.re)) return x as ExactInteger;
    // The error says which part has no exact value (the condition carries the whole argument).
    for (const [part, name] of [[z.re, "real"], [z.im, "imaginary"]] as const) {
      const v = toFloat(part);
      if (!Number.isFinite(v)) rangeError(who, 1, `its ${name} part ${floatName(v)} has no exact representation`, x);
    }
    return makeRect(toExact(z.re, who), toExact(z.im, who)) as ExactInteger;
  }
  return x;
}

/** `(inexact z)`: the nearest flonum (flonums are returned as they are). */
export function toInexact(x: SNumber): Flonum | number {
  if (x instanceof Flonum) return x;
  if (typeof x === "number" && !Number.isInteger(x)) return x;
  const z: unknown = x;
  if (z instanceof Compnum) return (isFlonum(z.re) ? x : makeRect(flo(toFloat(z.re)), flo(toFloat(z.im)))) as Flonum;
  return flo(toFloat(x));
}

function floatName(v: number): string {
  return v !== v ? "+nan.0" : v > 0 ? "+inf.0" : "-inf.0";
}
