// Non-real complex numbers (ADR 0039): construction, arithmetic and the (scheme complex) accessors.
//
// Nothing here is on a fast path: ops.ts reaches these functions only from its
// out-of-line *Slow functions, once the real cases have failed. Exact complex
// numbers have exact rational parts and exact arithmetic; inexact ones have two
// flonum parts. The transcendental functions work on doubles (`CD` pairs).

import { Compnum, Flonum, type RealNumber, type SNumber } from "./repr.js";
import { add, sub, mul, div, numEq } from "./ops.js";
import { toFloat, toExact } from "./convert.js";

/** The real number x + yi in canonical form: x itself when y is an exact 0. */
export function makeRect(x: RealNumber, y: RealNumber): SNumber {
  if (y === 0) return x;
  if (x instanceof Flonum || y instanceof Flonum) {
    return new Compnum(x instanceof Flonum ? x : new Flonum(toFloat(x)), y instanceof Flonum ? y : new Flonum(toFloat(y))) as unknown as SNumber;
  }
  return new Compnum(x, y) as unknown as SNumber;
}

/** The number with magnitude m and angle a: m itself when a is an exact 0, else inexact. */
export function makePolar(m: RealNumber, a: RealNumber): SNumber {
  if (a === 0) return m;
  const r = toFloat(m);
  const t = toFloat(a);
  return makeRect(new Flonum(r * Math.cos(t)), new Flonum(r * Math.sin(t)));
}

export function isCompnum(x: unknown): x is Compnum {
  return x instanceof Compnum;
}

/** The real part of any number. */
export function realPart(z: unknown): RealNumber {
  return z instanceof Compnum ? z.re : (z as RealNumber);
}

/** The imaginary part of any number: exact 0 for a real (R7RS allows 0 or 0.0 for an inexact real; chibi and we say 0). */
export function imagPart(z: unknown): RealNumber {
  return z instanceof Compnum ? z.im : 0;
}

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
  if (br instanceof Flonum || bi instanceof Flonum || ar instanceof Flonum || ai instanceof Flonum) {
    const [x, y] = cdDiv([toFloat(ar), toFloat(ai)], [toFloat(br), toFloat(bi)]);
    return makeRect(new Flonum(x), new Flonum(y));
  }
  const d = add(mul(br, br), mul(bi, bi));
  return makeRect(div(add(mul(ar, br), mul(ai, bi)), d), div(sub(mul(ai, br), mul(ar, bi)), d));
}

export function cEq(a: unknown, b: unknown): boolean {
  return numEq(realPart(a), realPart(b)) && numEq(imagPart(a), imagPart(b));
}

export function cExact(z: Compnum, who: string): SNumber {
  return makeRect(toExact(z.re, who), toExact(z.im, who));
}

export function cInexact(z: Compnum): SNumber {
  return makeRect(new Flonum(toFloat(z.re)), new Flonum(toFloat(z.im)));
}

/** `(magnitude z)` of a non-real z: exact when both parts are exact and |z|² is an exact square. */
export function cMagnitude(z: Compnum, sqrt: (x: SNumber) => SNumber): SNumber {
  if (z.re instanceof Flonum) return new Flonum(Math.hypot(z.re.v, (z.im as Flonum).v));
  return sqrt(add(mul(z.re, z.re), mul(z.im, z.im)));
}

export function cAngle(z: Compnum): Flonum {
  return new Flonum(Math.atan2(toFloat(z.im), toFloat(z.re)));
}

/** eqv? on two complex numbers, given eqv? on reals. */
export function cEqv(a: Compnum, b: unknown, eqv: (x: SNumber, y: SNumber) => boolean): boolean {
  return b instanceof Compnum && eqv(a.re, b.re) && eqv(a.im, b.im);
}

// ---------------------------------------------------------------------------
// Double-precision complex functions, principal values as R7RS §6.2.6 defines them.

/** A complex number as two doubles. */
export type CD = [number, number];

export function toCD(z: unknown): CD {
  return z instanceof Compnum ? [toFloat(z.re), toFloat(z.im)] : [toFloat(z as RealNumber), 0];
}

export function fromCD(z: CD): SNumber {
  return makeRect(new Flonum(z[0]), new Flonum(z[1]));
}

function cdMul(a: CD, b: CD): CD {
  return [a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]];
}

/** a / b by Smith's method, which avoids overflow in |b|². */
function cdDiv(a: CD, b: CD): CD {
  const [ar, ai] = a;
  const [br, bi] = b;
  if (Math.abs(br) >= Math.abs(bi)) {
    if (br === 0 && bi === 0) return [ar / 0, ai / 0];
    const r = bi / br;
    const d = br + bi * r;
    return [(ar + ai * r) / d, (ai - ar * r) / d];
  }
  const r = br / bi;
  const d = br * r + bi;
  return [(ar * r + ai) / d, (ai * r - ar) / d];
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

export { cdDiv, cdMul };
