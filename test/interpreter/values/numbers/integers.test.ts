// gcd, lcm, parity and integer roots.
import test from "ava";
import fc from "fast-check";
import { gcd, lcm, isOdd, isEven, isqrt, iroot, exactIntegerSqrt } from "../../../../interpreter/values/numbers/arith.js";
import { show, flo, rat, raised } from "./show.js";

const BMAX = BigInt(Number.MAX_SAFE_INTEGER);
function canon(b: bigint): number | bigint {
  return b >= -BMAX && b <= BMAX ? Number(b) : b;
}
function big(x: unknown): bigint {
  return typeof x === "bigint" ? x : BigInt(x as number);
}
const anyInt = fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.bigInt({ min: -(2n ** 200n), max: 2n ** 200n }).map(canon));

test("gcd and lcm follow R7RS's examples", (t) => {
  t.is(show(gcd(32, -36)), "fix:4");
  t.is(show(lcm(32, -36)), "fix:288");
  t.is(show(lcm(flo(32), -36)), "flo:288");
  t.is(show(gcd(48, -18)), "fix:6");
  t.is(show(gcd(0, 5)), "fix:5");
  t.is(show(gcd(0, 0)), "fix:0");
  t.is(show(lcm(0, 5)), "fix:0");
  t.is(show(gcd(2n ** 40n, 6n ** 20n)), "fix:1048576"); // 6^20 = 2^20·3^20
  t.is(show(gcd(flo(12), flo(18))), "flo:6");
});

test("gcd divides both arguments, and gcd · lcm = |a · b|", (t) => {
  fc.assert(
    fc.property(anyInt, anyInt, (a, b) => {
      const g = big(gcd(a, b));
      const l = big(lcm(a, b));
      const x = big(a);
      const y = big(b);
      const abs = (v: bigint) => (v < 0n ? -v : v);
      if (g < 0n || l < 0n) return false;
      if (x === 0n && y === 0n) return g === 0n && l === 0n;
      const divides = x % g === 0n && y % g === 0n;
      // No larger common divisor: the cofactors are coprime.
      let p = abs(x / g);
      let q = abs(y / g);
      while (q !== 0n) [p, q] = [q, p % q];
      const coprime = p === 1n;
      return divides && coprime && g * l === abs(x * y);
    }),
    { numRuns: 1500 },
  );
  t.pass();
});

test("gcd and lcm reject non-integers", (t) => {
  t.is(raised(() => gcd(rat(1, 2), 3))?.kind, "type");
  t.true(raised(() => lcm(2, flo(1.5)))?.message.startsWith("bad argument #2 to 'lcm' (integer expected"));
});

test("odd? and even? on exact and inexact integers, big ones included", (t) => {
  t.true(isOdd(-3));
  t.true(isEven(0));
  t.true(isEven(2n ** 70n));
  t.true(isOdd(2n ** 70n + 1n));
  t.true(isOdd(-(2n ** 70n) - 1n));
  t.true(isEven(flo(4)));
  t.true(isOdd(flo(3)));
  t.false(isOdd(flo(1e300)));
  t.is(raised(() => isOdd(flo(1.5)))?.kind, "type");
});

test("isqrt and iroot give the floor of the root", (t) => {
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 2n ** 300n }), fc.integer({ min: 2, max: 7 }), (n, k) => {
      const s = isqrt(n);
      const r = iroot(n, k);
      const K = BigInt(k);
      return s * s <= n && (s + 1n) * (s + 1n) > n && r ** K <= n && (r + 1n) ** K > n;
    }),
    { numRuns: 1500 },
  );
  t.is(isqrt(0n), 0n);
  t.is(isqrt(2n ** 52n - 1n), 67108863n); // 2^26 − 1, since (2^26)^2 = 2^52
  t.is(iroot(10n ** 60n, 3), 10n ** 20n);
  t.is(iroot(10n ** 60n - 1n, 3), 10n ** 20n - 1n);
});

test("exact-integer-sqrt gives s and k − s²", (t) => {
  t.is(show(exactIntegerSqrt(4)), "[fix:2 fix:0]");
  t.is(show(exactIntegerSqrt(5)), "[fix:2 fix:1]");
  t.is(show(exactIntegerSqrt(0)), "[fix:0 fix:0]");
  t.is(show(exactIntegerSqrt(17)), "[fix:4 fix:1]");
  t.is(show(exactIntegerSqrt(10n ** 40n + 5n)), "[big:100000000000000000000 fix:5]");
  t.is(show(exactIntegerSqrt(Number.MAX_SAFE_INTEGER)), `[fix:94906265 fix:${Number.MAX_SAFE_INTEGER - 94906265 ** 2}]`);
  fc.assert(
    fc.property(fc.oneof(fc.maxSafeNat(), fc.bigInt({ min: 0n, max: 2n ** 200n }).map(canon)), (k) => {
      const [s, r] = exactIntegerSqrt(k).map(big) as [bigint, bigint];
      return s * s + r === big(k) && r >= 0n && r <= 2n * s;
    }),
    { numRuns: 2000 },
  );
  t.is(raised(() => exactIntegerSqrt(-1))?.kind, "type");
  t.is(raised(() => exactIntegerSqrt(-(2n ** 80n)))?.kind, "type");
});
