// Exact → double and double → exact, the conversions that cannot fail: correctly rounded
// bigint/ratio → double, and a finite double's exact rational value. Nothing here raises, so
// the reader, the printer and complex construction (rect.ts) can use it without importing the
// error module (which imports the printer).

import { Flonum, makeRational, type ExactInteger, type Ratnum, type SNumber } from "./repr.js";
import { chargeDiv } from "./cost.js";

const TWO_53 = 2n ** 53n;

/** Powers of two used by `ldexp`; both are exact doubles (2^1023 is normal, 2^-1022 the smallest normal). */
const P2_1023 = 2 ** 1023;
const P2_M1022 = 2 ** -1022;

/**
 * m · 2^e without intermediate rounding: the scaling is split so that every
 * intermediate product stays a normal double (exact), and only the last
 * multiplication can round (or overflow, or go subnormal). Callers pass an `m`
 * with |m| ≤ 2^53 and an `e` chosen so that the result is representable.
 */
export function ldexp(m: number, e: number): number {
  while (e > 1023) {
    m *= P2_1023;
    e -= 1023;
    if (!Number.isFinite(m)) return m;
  }
  while (e < -1022) {
    m *= P2_M1022;
    e += 1022;
    if (m === 0) return m;
  }
  return m * 2 ** e;
}

/** Number of bits of |n| (0 for 0): ⌊log2 |n|⌋ + 1. */
export function bitLength(n: bigint): number {
  if (n < 0n) n = -n;
  if (n === 0n) return 0;
  // Hex digits are linear to produce; only the leading digit needs counting.
  const h = n.toString(16);
  return (h.length - 1) * 4 + (32 - Math.clz32(parseInt(h[0] as string, 16)));
}

/**
 * num/den as the nearest double (ties to even), for any sizes: den > 0.
 * Dividing Number(num) by Number(den) would round twice (and overflow to
 * ∞/∞ = NaN for huge ratios of huge numbers), so the quotient is computed in
 * bigints to 53 significant bits (fewer in the subnormal range) and rounded once.
 */
export function ratioToFloat(num: bigint, den: bigint): number {
  if (num === 0n) return 0;
  const neg = num < 0n;
  if (neg) num = -num;
  let v: number;
  if (num <= TWO_53 && den <= TWO_53) {
    // Both operands are exact doubles: IEEE division rounds correctly.
    v = Number(num) / Number(den);
  } else {
    chargeDiv(num, den);
    const e = bitLength(num) - bitLength(den); // 2^(e-1) < num/den < 2^(e+1)
    const ge = e >= 0 ? num >= den << BigInt(e) : num << BigInt(-e) >= den;
    const fl = ge ? e : e - 1; // ⌊log2(num/den)⌋
    if (fl >= 1024) {
      v = Infinity;
    } else {
      // The weight of the last bit kept: 53 bits, or the subnormal grid 2^-1074.
      const lsb = Math.max(fl - 52, -1074);
      let n2 = num;
      let d2 = den;
      if (lsb >= 0) d2 = den << BigInt(lsb);
      else n2 = num << BigInt(-lsb);
      let q = n2 / d2;
      const twiceR = (n2 - q * d2) * 2n;
      if (twiceR > d2 || (twiceR === d2 && (q & 1n) === 1n)) q += 1n;
      v = ldexp(Number(q), lsb); // q ≤ 2^53: Number(q) is exact
    }
  }
  return neg ? -v : v;
}

/** The nearest double to a real number (exact values are rounded correctly). */
export function toFloat(x: SNumber): number {
  if (typeof x === "number") return x;
  if (x instanceof Flonum) return x.v;
  if (typeof x === "bigint") return Number(x); // ECMAScript rounds BigInt → Number to nearest, ties to even
  return ratioToFloat(x.num, x.den);
}

// A scratch view to read a double's bits; pure (no state survives a call).
const bits = new DataView(new ArrayBuffer(8));

/** The exact value of a finite double. */
export function floatToExact(v: number): ExactInteger | Ratnum {
  if (Number.isInteger(v)) return Number.isSafeInteger(v) ? v + 0 : BigInt(v); // + 0 turns −0 into 0
  bits.setFloat64(0, v);
  const hi = bits.getUint32(0);
  const lo = bits.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (biased === 0) e = -1074; // subnormal: no hidden bit
  else {
    mant |= 1n << 52n;
    e = biased - 1075;
  }
  if (hi >>> 31) mant = -mant;
  // v is not an integer, so e < 0 and the value is mant / 2^-e.
  return makeRational(mant, 1n << BigInt(-e));
}
