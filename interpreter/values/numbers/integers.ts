// Integer procedures: gcd, lcm, parity, and exact integer roots (exact-integer-sqrt, and k-th roots for sqrt/expt).

import { Flonum, bigGcd, normBig, type ExactInteger, type SNumber } from "./repr.js";
import { bitLength } from "./convert.js";
import { argError } from "../../errors.js";
import { spend } from "../../budget.js";
import { divNs, isLarge, mulNs } from "./cost.js";

/** An integer (exact, or an integer-valued flonum) as a bigint, or a type error. */
export function integerArg(x: unknown, who: string, argNo: number): bigint {
  if (typeof x === "number" && Number.isInteger(x)) return BigInt(x);
  if (typeof x === "bigint") return x;
  if (x instanceof Flonum && Number.isInteger(x.v)) return BigInt(x.v);
  return argError(who, argNo, "integer", x);
}

/** The exact result `r`, made inexact when `inexact`. */
function result(r: bigint, inexact: boolean): SNumber {
  return inexact ? new Flonum(Number(r)) : normBig(r);
}

/** `(gcd a b)` of two integers: non-negative; inexact if either argument is. */
export function gcd(a: SNumber, b: SNumber): SNumber {
  if (typeof a === "number" && typeof b === "number" && Number.isInteger(a) && Number.isInteger(b)) {
    let x = Math.abs(a);
    let y = Math.abs(b);
    while (y !== 0) {
      const t = x % y;
      x = y;
      y = t;
    }
    return x;
  }
  return result(bigGcd(integerArg(a, "gcd", 1), integerArg(b, "gcd", 2)), a instanceof Flonum || b instanceof Flonum);
}

/** `(lcm a b)` of two integers: non-negative, 0 when either is 0; inexact if either argument is. */
export function lcm(a: SNumber, b: SNumber): SNumber {
  const x = integerArg(a, "lcm", 1);
  const y = integerArg(b, "lcm", 2);
  let r = 0n;
  if (x !== 0n && y !== 0n) {
    r = (x / bigGcd(x, y)) * y;
    if (r < 0n) r = -r;
  }
  return result(r, a instanceof Flonum || b instanceof Flonum);
}

/** `(odd? n)` for an integer n. */
export function isOdd(n: SNumber): boolean {
  if (typeof n === "number" && Number.isInteger(n)) return n % 2 !== 0;
  return (integerArg(n, "odd?", 1) & 1n) === 1n;
}

/** `(even? n)` for an integer n. */
export function isEven(n: SNumber): boolean {
  if (typeof n === "number" && Number.isInteger(n)) return n % 2 === 0;
  return (integerArg(n, "even?", 1) & 1n) === 0n;
}

/** ⌊√n⌋ for a bigint n ≥ 0. */
export function isqrt(n: bigint): bigint {
  if (n < 2n ** 52n) {
    // Math.sqrt of an exact double is correctly rounded; nudge past any rounding up.
    let s = BigInt(Math.floor(Math.sqrt(Number(n))));
    while (s * s > n) s -= 1n;
    while ((s + 1n) * (s + 1n) <= n) s += 1n;
    return s;
  }
  return iroot(n, 2);
}

/**
 * ⌊n^(1/k)⌋ for a bigint n ≥ 0 and an integer k ≥ 2, by Newton's iteration
 * from an overestimate (the iterates decrease monotonically to the root).
 * A large n starts from the root of its leading half, scaled: that
 * overestimate is already right to half the digits, so one or two full-size
 * iterations finish (precision doubling: about three full-size divisions in
 * all, where starting from a power of two took one per bit of the exponent).
 */
export function iroot(n: bigint, k: number): bigint {
  if (n < 2n) return n;
  const bk = BigInt(k);
  const k1 = bk - 1n;
  const bits = bitLength(n);
  let x: bigint;
  // s: the root's low bits left out of the recursive estimate (a quarter of its digits for k = 2).
  const s = Math.floor(bits / (2 * k));
  if (bits > 128 && s > 0) {
    // r = ⌊(n >> ks)^(1/k)⌋ ≤ n^(1/k) / 2^s < r + 1, so (r + 1)·2^s > n^(1/k).
    x = (iroot(n >> BigInt(k * s), k) + 1n) << BigInt(s);
  } else {
    x = 1n << BigInt(Math.ceil(bits / k)); // 2^⌈bits/k⌉ > n^(1/k)
  }
  const large = isLarge(n);
  for (;;) {
    // One iteration: x^(k-1) (k-1 products of root-sized numbers) and a division of n by it.
    if (large) spend(divNs(bits, (bits * (k - 1)) / k) + (k - 1) * mulNs(bits / k, bits / k));
    const y = (k1 * x + n / x ** k1) / bk;
    if (y >= x) return x;
    x = y;
  }
}

/** `(exact-integer-sqrt k)`: [s, r] with s² + r = k and s the largest such s, for an exact k ≥ 0. */
export function exactIntegerSqrt(k: ExactInteger): [ExactInteger, ExactInteger] {
  if (typeof k === "number" && Number.isInteger(k) && k >= 0) {
    let s = Math.floor(Math.sqrt(k));
    // s² ≤ k < 2^53 is exact; a square past 2^53 may round, but monotonically, so the tests stay right.
    while (s * s > k) s--;
    while ((s + 1) * (s + 1) <= k) s++;
    return [s, k - s * s];
  }
  const n = typeof k === "bigint" ? k : BigInt(k);
  if (n < 0n) return argError("exact-integer-sqrt", 1, "exact non-negative integer", k);
  const s = isqrt(n);
  return [normBig(s), normBig(n - s * s)];
}
