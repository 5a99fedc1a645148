// The gcd of two bigints: Euclid's algorithm for small ones, Lehmer's for large ones, charged as it goes.
//
// Euclid's algorithm takes about 0.6 steps per bit, each a full-size
// division: quadratic with a large constant (10^6-bit operands took minutes).
// Lehmer's (Knuth, TAOCP vol. 2, 4.5.2, Algorithm L) runs Euclid on the
// leading 50 bits in doubles, as long as the quotients are certain, and
// applies the whole run to the full numbers at once: one pass of four
// products by small numbers per ~25 bits removed. Still quadratic, about
// twenty times faster, and every pass is charged to the running evaluation
// (budget.ts), so a deadline or a step budget stops it.

import { spend } from "../../budget.js";
import { bitLength, isLarge, linearNs } from "./cost.js";

/** Leading bits taken for the single-precision run: sums of two stay below 2^53, exact in doubles. */
const P = 50;
const TWO_P = 2 ** P;

/** gcd(a, b) ≥ 0 for any bigints. */
export function bigGcd(a: bigint, b: bigint): bigint {
  if (a < 0n) a = -a;
  if (b < 0n) b = -b;
  if (a < b) [a, b] = [b, a];
  if (isLarge(b)) [a, b] = lehmer(a, b);
  while (b !== 0n) {
    const t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/** Lehmer's steps on a ≥ b > 0 until b is small; returns the pair (a, b) with the same gcd, a ≥ b. */
function lehmer(a: bigint, b: bigint): [bigint, bigint] {
  let n = bitLength(a);
  while (isLarge(b)) {
    // The leading P bits of a, and b's bits at the same position.
    let shift = n - P;
    let x = Number(a >> BigInt(shift));
    // n is an estimate after a pass (what the coefficients suggest it removed): correct it when off.
    if (x < TWO_P / 2 || x >= TWO_P) {
      n = bitLength(a);
      shift = n - P;
      x = Number(a >> BigInt(shift));
    }
    let y = Number(b >> BigInt(shift));
    spend(linearNs(n) * 10);
    let A = 1;
    let B = 0;
    let C = 0;
    let D = 1;
    for (;;) {
      const yc = y + C;
      const yd = y + D;
      if (yc === 0 || yd === 0) break;
      const q = floorDiv(x + A, yc);
      if (q !== floorDiv(x + B, yd)) break;
      let t = A - q * C;
      A = C;
      C = t;
      t = B - q * D;
      B = D;
      D = t;
      t = x - q * y;
      x = y;
      y = t;
    }
    if (B === 0) {
      // No quotient was certain (b much smaller than a, or a rare tie): one full-precision step.
      const t = a % b;
      a = b;
      b = t;
      n = bitLength(a);
    } else {
      const na = BigInt(A) * a + BigInt(B) * b;
      const nb = BigInt(C) * a + BigInt(D) * b;
      a = na;
      b = nb;
      // The pass removed about as many bits as its coefficients have.
      n -= Math.max(0, Math.floor(Math.log2(Math.max(Math.abs(A), Math.abs(B), 1))) - 1);
    }
    if (a < b) [a, b] = [b, a];
  }
  return [a, b];
}

/** ⌊p / q⌋ for integers 0 ≤ p < 2^52, 0 < q < 2^52, exactly (a rounded quotient is corrected). */
function floorDiv(p: number, q: number): number {
  let f = Math.floor(p / q);
  const r = p - f * q;
  if (r < 0) f--;
  else if (r >= q) f++;
  return f;
}
