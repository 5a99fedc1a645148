// Non-real complex numbers (ADR 0039): construction, arithmetic and the (scheme complex) accessors.
//
// Nothing here is on a fast path: ops.ts reaches these functions only from its
// out-of-line *Slow functions, once the real cases have failed. Exact complex
// numbers have exact rational parts and exact arithmetic; inexact ones have two
// flonum parts. The transcendental functions work on doubles (`CD` pairs).

import { Compnum, Flonum, flo, isFlonum, type RealNumber, type SNumber } from "./repr.js";
import { toFloat, toExact } from "./convert.js";
import { add, mul } from "./ops.js";
import { makeRect, cdDiv, cdMul, type CD } from "./rect.js";

// Construction and the parts live in rect.ts, the four operations and = in ops.ts (which the
// real arithmetic reaches without an import cycle); they are exported from here too.
export { makeRect, makePolar, realPart, imagPart, cdDiv, cdMul, type CD } from "./rect.js";
export { cAdd, cSub, cMul, cDiv, cEq } from "./ops.js";


export function isCompnum(x: unknown): x is Compnum {
  return x instanceof Compnum;
}



export function cExact(z: Compnum, who: string): SNumber {
  return makeRect(toExact(z.re, who), toExact(z.im, who));
}

export function cInexact(z: Compnum): SNumber {
  return makeRect(flo(toFloat(z.re)), flo(toFloat(z.im)));
}

/** `(magnitude z)` of a non-real z: exact when both parts are exact and |z|² is an exact square. */
export function cMagnitude(z: Compnum, sqrt: (x: SNumber) => SNumber): SNumber {
  if (isFlonum(z.re)) return flo(Math.hypot(toFloat(z.re), toFloat(z.im)));
  return sqrt(add(mul(z.re, z.re), mul(z.im, z.im)));
}

export function cAngle(z: Compnum): Flonum | number {
  return flo(Math.atan2(toFloat(z.im), toFloat(z.re)));
}

/** eqv? on two complex numbers, given eqv? on reals. */
export function cEqv(a: Compnum, b: unknown, eqv: (x: SNumber, y: SNumber) => boolean): boolean {
  return b instanceof Compnum && eqv(a.re, b.re) && eqv(a.im, b.im);
}

// ---------------------------------------------------------------------------
// Double-precision complex functions, principal values as R7RS §6.2.6 defines them.


export function toCD(z: unknown): CD {
  return z instanceof Compnum ? [toFloat(z.re), toFloat(z.im)] : [toFloat(z as RealNumber), 0];
}

export function fromCD(z: CD): SNumber {
  return makeRect(flo(z[0]), flo(z[1]));
}


export function cdExp(z: CD): CD {
  const m = Math.exp(z[0]);
  if (z[1] === 0) return [m, z[1]];
  return [m * Math.cos(z[1]), m * Math.sin(z[1])];
}

/** Principal logarithm: ln|z| + i·angle(z), the angle in (−π, π]. */
export function cdLog(z: CD): CD {
  return [Math.log(Math.hypot(z[0], z[1])), Math.atan2(z[1], z[0])];
}

/** Principal square root: a non-negative real part (the branch cut on the negative reals, its values those of the upper half-plane). */
export function cdSqrt(z: CD): CD {
  const [x, y] = z;
  if (x === 0 && y === 0) return [0, y];
  const m = Math.hypot(x, y);
  if (x >= 0) {
    const r = Math.sqrt((m + x) / 2);
    return [r, y / (2 * r)];
  }
  const s = Math.sqrt((m - x) / 2);
  // On the cut itself (y = ±0) the root is +i·√|x| whatever the zero's sign: R7RS
  // puts the cut's values on the upper side, and chibi's suite has (sqrt -1.0-0.0i) ⇒ +i.
  const im = y < 0 ? -s : s;
  return [y / (2 * im), im];
}

export function cdSin(z: CD): CD {
  return [Math.sin(z[0]) * Math.cosh(z[1]), Math.cos(z[0]) * Math.sinh(z[1])];
}

export function cdCos(z: CD): CD {
  return [Math.cos(z[0]) * Math.cosh(z[1]), -Math.sin(z[0]) * Math.sinh(z[1])];
}

export function cdTan(z: CD): CD {
  return cdDiv(cdSin(z), cdCos(z));
}

/** asin z = −i ln(iz + √(1 − z²)). */
export function cdAsin(z: CD): CD {
  const iz: CD = [-z[1], z[0]];
  const z2 = cdMul(z, z);
  const w = cdSqrt([1 - z2[0], 0 - z2[1]]); // 0 − 0 is +0: a real z > 1 takes the upper side of the cut, as R7RS's formula gives
  const l = cdLog([iz[0] + w[0], iz[1] + w[1]]);
  return [l[1], -l[0]];
}

/** acos z = π/2 − asin z. */
export function cdAcos(z: CD): CD {
  const a = cdAsin(z);
  return [Math.PI / 2 - a[0], -a[1]];
}

/** atan z = (ln(1 + iz) − ln(1 − iz)) / 2i. */
export function cdAtan(z: CD): CD {
  const iz: CD = [-z[1], z[0]];
  const a = cdLog([1 + iz[0], iz[1]]);
  const b = cdLog([1 - iz[0], -iz[1]]);
  const d: CD = [a[0] - b[0], a[1] - b[1]];
  // d / 2i = (d.im − i·d.re) / 2
  return [d[1] / 2, -d[0] / 2];
}

/** z1^z2 = e^(z2 ln z1), with 0^z2 = 0 for z2 with a positive real part. */
export function cdExpt(a: CD, b: CD): CD {
  // R7RS: 0^z is 1 for z = 0 and 0 for a positive real part; for any other z no direction is defined.
  if (a[0] === 0 && a[1] === 0) return b[0] === 0 && b[1] === 0 ? [1, 0] : b[0] > 0 ? [0, 0] : [NaN, NaN];
  return cdExp(cdMul(b, cdLog(a)));
}

