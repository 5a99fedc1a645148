// Numbers → text (number->string and the printer).
//
// Exact numbers print in any radix 2..36. Flonums in radix 10 print as the
// shortest text that reads back to the same double (ECMAScript's Number→String
// is exactly that algorithm), always with a "." so that they read back inexact, and
// an exponent with its sign: 1.0, 0.5, 1.0e+21, 1.5e-7, 5.0e-324, -0.0, +inf.0, -inf.0, +nan.0.
//
// Inexact numbers in other radixes: R7RS leaves them unspecified. We print the
// digits JS produces for that radix (enough to identify the double), with ".0"
// when integral: (number->string 255. 16) ⇒ "ff.0", (number->string .5 2) ⇒ "0.1".
// parseNumber accepts a "." in radixes other than 10 (without exponent), so
// these read back with the same radix.

import { Compnum, Flonum, Ratnum, type SNumber } from "./repr.js";
import { chargeToString } from "./cost.js";

/** Text of a double in radix 10: shortest round-trip form, always visibly inexact. */
function flonumToString(v: number, radix: number): string {
  if (v !== v) return "+nan.0";
  if (v === Infinity) return "+inf.0";
  if (v === -Infinity) return "-inf.0";
  if (v === 0) return Object.is(v, -0) ? "-0.0" : "0.0";
  if (radix !== 10) {
    const s = v.toString(radix);
    return s.includes(".") ? s : s + ".0";
  }
  const s = String(v);
  const e = s.indexOf("e");
  // A mantissa always carries its point and the exponent its sign, as C's printf and the Schemes
  // that use it print them (chibi's r7rs-tests accept only such spellings): 1e+21 ⇒ 1.0e+21,
  // 5e-324 ⇒ 5.0e-324, 1.7976931348623157e+308 as it is.
  if (e >= 0) return s.lastIndexOf(".", e) >= 0 ? s : s.slice(0, e) + ".0" + s.slice(e);
  return s.includes(".") ? s : s + ".0";
}

/**
 * The external representation of `n` in `radix` (2 to 36; R7RS requires 2, 8, 10
 * and 16). A radix outside 2..36 is treated as 10: the number->string primitive
 * checks its argument before calling this.
 */
export function numberToString(n: SNumber, radix = 10): string {
  if (!(radix >= 2 && radix <= 36 && Number.isInteger(radix))) radix = 10;
  if (typeof n === "number") {
    // Every JS number Scheme sees is a safe integer; anything else is printed as a double.
    if (Number.isInteger(n)) return n === 0 ? "0" : n.toString(radix);
    return flonumToString(n, radix);
  }
  if (typeof n === "bigint") {
    chargeToString(n, radix);
    return n.toString(radix);
  }
  if (n instanceof Ratnum) {
    chargeToString(n.num, radix);
    chargeToString(n.den, radix);
    return `${n.num.toString(radix)}/${n.den.toString(radix)}`;
  }
  if (n instanceof Flonum) return flonumToString(n.v, radix);
  const z: unknown = n;
  if (z instanceof Compnum) {
    // re, then the signed im, then i; an exact 0 real part is left out (+2i), an exact ±1 imaginary part is +i / -i.
    const re = z.re === 0 ? "" : numberToString(z.re, radix);
    if (z.im === 1) return re + "+i";
    if (z.im === -1) return re + "-i";
    const im = numberToString(z.im, radix);
    const c = im.charCodeAt(0);
    return re + (c === 43 || c === 45 ? im : "+" + im) + "i";
  }
  return String(n);
}
