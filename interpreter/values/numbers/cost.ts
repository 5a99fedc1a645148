// What bignum arithmetic costs, charged to the running evaluation before V8 does the work.
//
// One BigInt operation of V8 cannot be interrupted: a product of two
// 10^8-bit numbers takes seconds, a gcd by Euclid's algorithm on 10^6-bit
// numbers minutes. So each operation on a large operand first announces its
// result's size (the memory budget) and an estimate of its time (the step
// budget, and the deadline: work that cannot end before it stops at once) —
// see budget.ts. The models are fitted to V8 11 (Node 20) on a 2020 server
// core and err on the high side; what matters is that they grow as the work
// does. Operands below SMALL bits are not charged (a few microseconds at most).

import { allocate, spend } from "../../budget.js";

/** Operands with fewer bits than this are not charged. */
const SMALL_BITS = 4096;
const SMALL = 1n << BigInt(SMALL_BITS);
// Size classes above it, told apart by comparisons (constant time: lengths
// differ). The negative bounds are constants too: `-SMALL` in an expression
// would build a new bigint at every comparison.
const MID = 1n << 16384n;
const LARGE = 1n << 65536n;
const NEG_SMALL = -SMALL;
const NEG_MID = -MID;
const NEG_LARGE = -LARGE;

/** V8's largest BigInt: 2^30 bits. Larger results throw a RangeError; they are refused as a range error before. */
export const MAX_BIGINT_BITS = 2 ** 30;

/** True when bigint x has SMALL_BITS bits or more: O(1) (a comparison of lengths first). */
export function isLarge(x: bigint): boolean {
  return x >= SMALL || x <= NEG_SMALL;
}

/** Number of bits of |n| (0 for 0): ⌊log2 |n|⌋ + 1. Linear in the size of n. */
export function bitLength(n: bigint): number {
  if (n < 0n) n = -n;
  if (n === 0n) return 0;
  // Hex digits are linear to produce; only the leading digit needs counting.
  const h = n.toString(16);
  return (h.length - 1) * 4 + (32 - Math.clz32(parseInt(h[0] as string, 16)));
}

/**
 * Bits of x for the cost models: an upper bound found by comparisons below
 * 2^65536 (counting the bits exactly costs more than a linear operation on
 * such a number), exact above.
 */
function bitsOf(x: bigint | number): number {
  if (typeof x === "number") return 64;
  if (x < SMALL && x > NEG_SMALL) return SMALL_BITS;
  if (x < MID && x > NEG_MID) return 16384;
  if (x < LARGE && x > NEG_LARGE) return 65536;
  return bitLength(x);
}

/** Nanoseconds of a linear pass over n bits (addition, comparison, shift, conversion). */
export function linearNs(n: number): number {
  return n / 8;
}

/** Nanoseconds of multiplying an n-bit by an m-bit number (schoolbook, then Karatsuba/Toom/FFT). */
export function mulNs(n: number, m: number): number {
  if (n < m) [n, m] = [m, n];
  return n * Math.max(1 / 8, Math.min(m / 2000, Math.log2(Math.max(m, 2)) / 2));
}

/** Nanoseconds of dividing an n-bit by an m-bit number (quotient and remainder). */
export function divNs(n: number, m: number): number {
  // By a one-word divisor V8 divides in a single linear pass.
  if (m <= 64) return n / 8;
  const q = n - m;
  return 1.5 * n + (q > 64 ? 4 * mulNs(q, m) : 0);
}

/** Nanoseconds of writing an n-bit number in a radix that is not a power of two (or reading it). */
export function radixNs(n: number): number {
  const l = Math.log2(Math.max(n, 2));
  return 0.2 * n * l * l;
}

/** Announces a bigint result of about `bits` bits; false when V8 cannot make one that large (then refuse it). */
export function announceBits(bits: number): boolean {
  allocate(bits / 8 + 32);
  return bits <= MAX_BIGINT_BITS;
}

/** True when x is a bigint of 65536 bits or more: only such numbers make a linear operation worth charging. */
function isHuge(x: bigint | number): x is bigint {
  return typeof x === "bigint" && (x >= LARGE || x <= NEG_LARGE);
}

/**
 * Charges a + b, a − b or a comparison. Linear operations are charged only on
 * operands of 2^16 bits or more (below, one takes microseconds, and telling
 * sizes apart costs more than the charge is worth).
 */
export function chargeLinear(a: bigint | number, b: bigint | number): void {
  if (isHuge(a) || isHuge(b)) {
    const n = Math.max(bitsOf(a), bitsOf(b));
    allocate(n / 8);
    spend(linearNs(n) * 2);
  }
}

/** Charges a · b: when both are large (superlinear), or one is huge (linear in it). */
export function chargeMul(a: bigint | number, b: bigint | number): void {
  const both = typeof a === "bigint" && typeof b === "bigint" && isLarge(a) && isLarge(b);
  if (both || isHuge(a) || isHuge(b)) {
    const n = bitsOf(a);
    const m = bitsOf(b);
    allocate((n + m) / 8);
    spend(mulNs(n, m));
  }
}

/** Charges a division of a by b (quotient or remainder): by a large divisor, or of a huge dividend. */
export function chargeDiv(a: bigint | number, b: bigint | number): void {
  const long = typeof a === "bigint" && typeof b === "bigint" && isLarge(a) && isLarge(b);
  if (long || isHuge(a)) {
    const n = bitsOf(a);
    allocate(n / 8);
    spend(divNs(n, Math.min(n, bitsOf(b))));
  }
}

/** Charges writing bigint x in `radix` (number->string, the printer). */
export function chargeToString(x: bigint, radix: number): void {
  if (!isLarge(x)) return;
  const n = bitLength(x);
  const pow2 = (radix & (radix - 1)) === 0;
  allocate((n / Math.log2(radix)) * 2);
  spend(pow2 ? linearNs(n) : radixNs(n));
}

/** Charges reading `digits` digits of `radix` into a bigint (the reader, string->number). */
export function chargeFromDigits(digits: number, radix: number): void {
  if (digits < 1024) return;
  const n = digits * Math.log2(radix);
  allocate(n / 8);
  spend((radix & (radix - 1)) === 0 ? linearNs(n) : radixNs(n));
}
