// Number syntax (R7RS §7.1.1) → numbers: what the reader and string->number share.
//
// Grammar accepted (case-insensitive throughout):
//   number  = prefix real
//   prefix  = at most one radix (#b #o #d #x) and at most one exactness (#e #i), in either order
//   real    = [sign] ureal | sign "inf.0" | sign "nan.0"
//   ureal   = digits | digits "/" digits | decimal
//   decimal = (radix 10 only) digits ["." digits*] [exp] | "." digits [exp];  exp = marker [sign] digits
//   marker  = "e", or one of the precision markers "s" "f" "d" "l" R7RS §6.2.5 allows
//             in place of it (all mean a double here, as in R5RS)
// Extension: in radixes other than 10, `digits "." digits*` (no exponent) is accepted
// so that number->string of an inexact number in radix 2/8/16 reads back
// (R7RS leaves non-decimal inexact text unspecified).
//   complex = real | real ("+" | "-") [ureal | "inf.0" | "nan.0"] "i" | ("+" | "-") [ureal | ...] "i"
//           | real "@" real        (the prefix's radix and exactness apply to both parts)
//
// Exact results are computed from the digits with bigints, never through a
// double, so `#e1.2e-1` is exactly 3/25; inexact results are correctly rounded
// (`Number` on decimal text, `ratioToDouble` for rationals).

import { Flonum, Ratnum, flo, makeRational, normBig, type SNumber } from "./repr.js";
import { makePolar, makeRect } from "./rect.js";
import { chargeFromDigits } from "./cost.js";

/**
 * Largest |power of ten| an exact decimal may be scaled by (`#e1e100000`). Beyond it
 * the text is rejected rather than building a bigint of millions of digits.
 */
export const MAX_EXACT_EXPONENT = 100000;

/** The value of digit character `c` in `radix`, or -1. */
function digitValue(c: number, radix: number): number {
  let d: number;
  if (c >= 48 && c <= 57) d = c - 48;
  else {
    const l = c | 0x20;
    if (l >= 97 && l <= 122) d = l - 87;
    else return -1;
  }
  return d < radix ? d : -1;
}

/** Index just past the run of `radix` digits starting at `i`. */
function scanDigits(text: string, i: number, radix: number): number {
  while (i < text.length && digitValue(text.charCodeAt(i), radix) >= 0) i++;
  return i;
}

/** Non-negative digit text in `radix` as a bigint (the text is known to be valid and non-empty). */
function bigFromDigits(digits: string, radix: number): bigint {
  chargeFromDigits(digits.length, radix);
  switch (radix) {
    case 10:
      return BigInt(digits);
    case 16:
      return BigInt("0x" + digits);
    case 8:
      return BigInt("0o" + digits);
    case 2:
      return BigInt("0b" + digits);
  }
  // Other radixes (string->number with radix 3, 36, ...): fold chunks of digits
  // that stay exact in a double, so the bigint work is per chunk, not per digit.
  const R = BigInt(radix);
  let acc = 0n;
  let i = 0;
  while (i < digits.length) {
    const end = Math.min(i + 8, digits.length);
    let chunk = 0;
    let scale = 1n;
    for (let j = i; j < end; j++) {
      chunk = chunk * radix + digitValue(digits.charCodeAt(j), radix);
      scale *= R;
    }
    acc = acc * scale + BigInt(chunk);
    i = end;
  }
  return acc;
}

function bitLength(x: bigint): number {
  const h = x.toString(16);
  const top = parseInt(h[0] as string, 16);
  return (h.length - 1) * 4 + (32 - Math.clz32(top));
}

/**
 * num/den rounded to the nearest double (ties to even), for any bigints with
 * den > 0. Correct for every magnitude, subnormals and overflow to ±Infinity
 * included; used for `#i` rationals and available to exact→inexact conversion.
 */
export function ratioToDouble(num: bigint, den: bigint): number {
  if (num === 0n) return 0;
  const neg = num < 0n;
  const a = neg ? -num : num;
  const e = bitLength(a) - bitLength(den); // a/den lies in (2^(e-1), 2^(e+1))
  // Choose k so that q = floor(a·2^k/den) has exactly 53 bits: then q·2^-k is
  // the value truncated to double precision, and the remainder rounds it.
  let k = 53 - e;
  const quotient = (k: number): [bigint, bigint, bigint] => {
    const n = k >= 0 ? a << BigInt(k) : a;
    const d = k >= 0 ? den : den << BigInt(-k);
    return [n / d, n % d, d];
  };
  let [q, r, d] = quotient(k);
  if (q >= 1n << 53n) {
    k -= 1;
    [q, r, d] = quotient(k);
  }
  if (52 - k > 1023) return neg ? -Infinity : Infinity;
  if (k > 1074) {
    // Below the normal range: subnormals have a fixed ulp of 2^-1074.
    k = 1074;
    [q, r, d] = quotient(k);
  }
  const twice = r * 2n;
  if (twice > d || (twice === d && (q & 1n) === 1n)) q += 1n;
  // q ≤ 2^53 is exact as a double and 2^-k is a representable power of two, so
  // the product is exact (or overflows to Infinity exactly when it should).
  const v = Number(q) * 2 ** -k;
  return neg ? -v : v;
}

/** Exactness requested by a prefix. */
type Exactness = 0 /* none */ | 1 /* #e */ | 2 /* #i */;

/**
 * Parses the whole of `text` as a number in `radix` (2 to 36; prefixes in the
 * text override it). Returns false when the text is not a number. Never throws,
 * and rejects (rather than computes) exact decimals scaled beyond
 * 10^±MAX_EXACT_EXPONENT.
 */
export function parseNumber(text: string, radix = 10): SNumber | false {
  const n = text.length;
  if (n === 0 || !(radix >= 2 && radix <= 36 && Number.isInteger(radix))) return false;
  let i = 0;
  let exactness: Exactness = 0;
  let radixSeen = false;
  while (i < n && text.charCodeAt(i) === 35 /* # */) {
    if (i + 1 >= n) return false;
    switch (text.charCodeAt(i + 1) | 0x20) {
      case 120 /* x */:
      case 98 /* b */:
      case 111 /* o */:
      case 100 /* d */: {
        if (radixSeen) return false;
        radixSeen = true;
        const c = text.charCodeAt(i + 1) | 0x20;
        radix = c === 120 ? 16 : c === 98 ? 2 : c === 111 ? 8 : 10;
        break;
      }
      case 101 /* e */:
        if (exactness !== 0) return false;
        exactness = 1;
        break;
      case 105 /* i */:
        if (exactness !== 0) return false;
        exactness = 2;
        break;
      default:
        return false;
    }
    i += 2;
  }
  if (i >= n) return false;
  if (i > 0) text = text.slice(i);
  const last = text.charCodeAt(text.length - 1) | 0x20;
  // i is a digit from radix 19 up: there, text ending in i is a real.
  if (last === 105 /* i */ && radix < 19) return parseImaginary(text, radix, exactness);
  const at = text.indexOf("@");
  if (at >= 0) {
    const m = parseReal(text.slice(0, at), radix, exactness);
    const a = m === false ? false : parseReal(text.slice(at + 1), radix, exactness);
    return a === false || m === false ? false : makePolar(m, a);
  }
  return parseReal(text, radix, exactness);
}

/** `[real] sign [ureal] i`, the text after the prefix (it ends in i). */
function parseImaginary(text: string, radix: number, exactness: Exactness): SNumber | false {
  const end = text.length - 1;
  // The sign that starts the imaginary part: the last one not at an exponent (1e-2+3e-4i).
  let k = end - 1;
  for (; k >= 0; k--) {
    const c = text.charCodeAt(k);
    if (c !== 43 && c !== 45) continue;
    if (k === 0) break;
    const p = text.charCodeAt(k - 1);
    if (radix === 10 && isExponentMarker(p) && k >= 2) {
      const q = text.charCodeAt(k - 2);
      if ((q >= 48 && q <= 57) || q === 46) continue; // the sign of an exponent
    }
    break;
  }
  if (k < 0) return false;
  let re: SNumber | false = 0;
  if (k > 0) {
    re = parseReal(text.slice(0, k), radix, exactness);
    if (re === false) return false;
  } else if (exactness === 2) re = flo(0);
  let im: SNumber | false;
  if (k + 1 === end) im = exactness === 2 ? flo(text.charCodeAt(k) === 45 ? -1 : 1) : text.charCodeAt(k) === 45 ? -1 : 1;
  else im = parseReal(text.slice(k, end), radix, exactness);
  if (im === false) return false;
  return makeRect(re, im);
}

/** `real`: the whole of `text` (no prefix) in `radix`. */
function parseReal(text: string, radix: number, exactness: Exactness): SNumber | false {
  const n = text.length;
  let i = 0;
  if (n === 0) return false;

  let neg = false;
  let signed = false;
  const s0 = text.charCodeAt(i);
  if (s0 === 43 /* + */ || s0 === 45 /* - */) {
    neg = s0 === 45;
    signed = true;
    i++;
    if (i >= n) return false;
  }

  // +inf.0 -inf.0 +nan.0 -nan.0: only with an explicit sign, never exact.
  if (signed && n - i === 5 && text.charCodeAt(i + 3) === 46 /* . */) {
    const word = text.slice(i).toLowerCase();
    if (word === "inf.0") return exactness === 1 ? false : flo(neg ? -Infinity : Infinity);
    if (word === "nan.0") return exactness === 1 ? false : flo(NaN);
  }

  const intStart = i;
  const intEnd = scanDigits(text, i, radix);
  i = intEnd;

  if (i === n) {
    if (intEnd === intStart) return false;
    return integerValue(text.slice(intStart, intEnd), radix, neg, exactness);
  }

  const c = text.charCodeAt(i);
  if (c === 47 /* / */) {
    if (intEnd === intStart) return false;
    const denStart = i + 1;
    const denEnd = scanDigits(text, denStart, radix);
    if (denEnd === denStart || denEnd !== n) return false;
    const num = bigFromDigits(text.slice(intStart, intEnd), radix);
    const den = bigFromDigits(text.slice(denStart, denEnd), radix);
    if (den === 0n) return false; // n/0 has no value; string->number says #f
    const sNum = neg ? -num : num;
    if (exactness === 2) return flo(neg && num === 0n ? -0 : ratioToDouble(sNum, den));
    return makeRational(sNum, den);
  }

  // A decimal: digits, an optional fraction, an optional exponent (radix 10 only).
  let fracStart = i;
  let fracEnd = i;
  if (c === 46 /* . */) {
    fracStart = i + 1;
    fracEnd = scanDigits(text, fracStart, radix);
    i = fracEnd;
  } else if (radix !== 10 || !isExponentMarker(c)) {
    return false;
  }
  if (intEnd === intStart && fracEnd === fracStart) return false; // no digit at all
  let expText = "";
  if (i < n) {
    if (radix !== 10 || !isExponentMarker(text.charCodeAt(i))) return false;
    let j = i + 1;
    const es = text.charCodeAt(j);
    if (es === 43 || es === 45) j++;
    const expDigitsEnd = scanDigits(text, j, 10);
    if (expDigitsEnd === j || expDigitsEnd !== n) return false;
    expText = text.slice(i + 1, n);
    i = n;
  }
  const intDigits = text.slice(intStart, intEnd);
  const fracDigits = text.slice(fracStart, fracEnd);

  if (radix === 10 && exactness !== 1) {
    // JS Number() on decimal text is correctly rounded; the grammar was checked above.
    const v = Number(`${neg ? "-" : ""}${intDigits || "0"}.${fracDigits || "0"}${expText ? "e" + expText : ""}`);
    return flo(v);
  }

  // Exact value from the digits: mantissa · radix^(exp − fraction digits).
  const mantissa = bigFromDigits((intDigits + fracDigits) || "0", radix);
  let scale = -fracDigits.length;
  if (expText) {
    const e = expText.replace(/^[+-]/, "").replace(/^0+/, "");
    if (e.length > 9) {
      if (mantissa !== 0n) return false; // absurd exponent: refuse rather than hang
    } else {
      scale += (expText.charCodeAt(0) === 45 ? -1 : 1) * Number(e || "0");
    }
  }
  if (mantissa === 0n) return exactness === 1 ? 0 : flo(neg ? -0 : 0);
  if (radix === 10 && Math.abs(scale) > MAX_EXACT_EXPONENT) return false;
  const R = BigInt(radix);
  const m = neg ? -mantissa : mantissa;
  const exact = scale >= 0 ? normBig(m * R ** BigInt(scale)) : makeRational(m, R ** BigInt(-scale));
  if (exactness === 1) return exact;
  return flo(exactToDouble(exact));
}

/** e, or the precision markers s f d l (either case). */
function isExponentMarker(c: number): boolean {
  const l = c | 0x20;
  return l === 101 /* e */ || l === 115 /* s */ || l === 102 /* f */ || l === 100 /* d */ || l === 108 /* l */;
}

function exactToDouble(x: number | bigint | Ratnum): number {
  if (typeof x === "number") return x;
  if (typeof x === "bigint") return Number(x);
  return ratioToDouble(x.num, x.den);
}

function integerValue(digits: string, radix: number, neg: boolean, exactness: Exactness): SNumber {
  let v: number | bigint;
  if (radix === 10 && digits.length <= 15) {
    v = Number(digits);
    if (neg) v = -v;
    if (v === 0) v = 0; // never -0 as an exact integer
  } else {
    const b = bigFromDigits(digits, radix);
    v = normBig(neg ? -b : b);
  }
  if (exactness === 2) {
    if (v === 0) return new Flonum(neg ? -0 : 0);
    return flo(Number(v)); // Number(bigint) rounds to nearest, ties to even
  }
  return v;
}
