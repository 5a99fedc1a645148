// Complex numbers' construction and parts (ADR 0039), and complex double arithmetic: what the
// reader, the exactness conversions and the arithmetic of ops.ts need, with no import of either.

import { Compnum, flo, isFlonum, type RealNumber, type SNumber } from "./repr.js";
import { toFloat } from "./float.js";

/** The real number x + yi in canonical form: x itself when y is an exact 0. */
export function makeRect(x: RealNumber, y: RealNumber): SNumber {
  if (y === 0) return x;
  if (isFlonum(x) || isFlonum(y)) {
    return new Compnum(isFlonum(x) ? x : flo(toFloat(x)), isFlonum(y) ? y : flo(toFloat(y))) as unknown as SNumber;
  }
  return new Compnum(x, y) as unknown as SNumber;
}

/** The number with magnitude m and angle a: m itself when a is an exact 0, else inexact. */
export function makePolar(m: RealNumber, a: RealNumber): SNumber {
  if (a === 0) return m;
  const r = toFloat(m);
  const t = toFloat(a);
  return makeRect(flo(r * Math.cos(t)), flo(r * Math.sin(t)));
}

/** The real part of any number. */
export function realPart(z: unknown): RealNumber {
  return z instanceof Compnum ? z.re : (z as RealNumber);
}

/** The imaginary part of any number: exact 0 for a real (R7RS allows 0 or 0.0 for an inexact real; chibi and we say 0). */
export function imagPart(z: unknown): RealNumber {
  return z instanceof Compnum ? z.im : 0;
}

/** A complex number as two doubles. */
export type CD = [number, number];

export function cdMul(a: CD, b: CD): CD {
  return [a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]];
}

/** a / b by Smith's method, which avoids overflow in |b|². */
export function cdDiv(a: CD, b: CD): CD {
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
