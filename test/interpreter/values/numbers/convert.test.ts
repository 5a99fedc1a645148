// Exact ↔ inexact conversion: correct rounding of bigints and ratios, exact values of doubles, round trips.
import test from "ava";
import fc from "fast-check";
import {
  bitLength,
  ldexp,
  ratioToFloat,
  floatToExact,
  toExact,
  toInexact,
  toFloat,
} from "../../../../interpreter/values/numbers/arith.js";
import { Ratnum } from "../../../../interpreter/values/numbers/repr.js";
import { show, rat, flo, raised } from "./show.js";

/** The exact value of a finite double as [n, k] meaning n / 2^k, by doubling until integral (test-side reference). */
function exactOf(v: number): [bigint, bigint] {
  let k = 0n;
  while (!Number.isInteger(v)) {
    v *= 2; // exact: a non-integer double is far from overflow
    k += 1n;
  }
  return [BigInt(v), k];
}

/** Sign of a/b − c/d for positive b, d. */
function cmpRat(a: bigint, b: bigint, c: bigint, d: bigint): number {
  const x = a * d - c * b;
  return x < 0n ? -1 : x > 0n ? 1 : 0;
}

/** The next double above v > 0 (by its bits, test-side). */
function nextUp(v: number): number {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, v);
  dv.setBigUint64(0, dv.getBigUint64(0) + 1n);
  return dv.getFloat64(0);
}

function nextDown(v: number): number {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, v);
  dv.setBigUint64(0, dv.getBigUint64(0) - 1n);
  return dv.getFloat64(0);
}

test("bitLength counts the bits of the magnitude", (t) => {
  t.is(bitLength(0n), 0);
  t.is(bitLength(1n), 1);
  t.is(bitLength(255n), 8);
  t.is(bitLength(256n), 9);
  t.is(bitLength(-(2n ** 100n)), 101);
  t.is(bitLength(2n ** 100n - 1n), 100);
});

test("ldexp reaches the subnormal and the largest powers of two exactly", (t) => {
  t.is(ldexp(1, -1074), Number.MIN_VALUE);
  t.is(ldexp(1, -1022), 2.2250738585072014e-308);
  t.is(ldexp(2 ** 53 - 1, 971), Number.MAX_VALUE);
  t.is(ldexp(1, 1024), Infinity);
  t.is(ldexp(3, 4), 48);
});

test("inexact of a bigint is rounded as ECMAScript's Number(bigint), to nearest and ties to even", (t) => {
  fc.assert(
    fc.property(fc.bigInt({ min: -(2n ** 1100n), max: 2n ** 1100n }), (n) => ratioToFloat(n, 1n) === Number(n)),
    { numRuns: 2000 },
  );
  t.is(show(toInexact(12345678901234567890n)), "flo:12345678901234567000");
  t.is(toFloat(12345678901234567890n), 1.2345678901234567e19);
  t.is(show(toInexact(2n ** 64n)), "flo:18446744073709552000");
  t.is(toFloat(2n ** 1024n), Infinity);
  // Halfway between the largest double and 2^1024: ties to even goes up, to infinity.
  t.is(ratioToFloat(2n ** 1024n - 2n ** 970n, 1n), Infinity);
  t.is(ratioToFloat(2n ** 1024n - 2n ** 970n - 1n, 1n), Number.MAX_VALUE);
});

test("a ratio of huge numbers rounds like the IEEE division of its reduced form", (t) => {
  // (a·c)/(b·c) takes the bigint path; a/b with a, b < 2^53 is one correctly rounded IEEE division.
  const small = fc.bigInt({ min: 1n, max: 2n ** 53n - 1n });
  const factor = fc.bigInt({ min: 2n ** 60n, max: 2n ** 400n });
  fc.assert(
    fc.property(small, small, factor, fc.boolean(), (a, b, c, negative) => {
      const num = negative ? -a * c : a * c;
      const want = Number(a) / Number(b);
      return ratioToFloat(num, b * c) === (negative ? -want : want);
    }),
    { numRuns: 2000 },
  );
  t.pass();
});

test("a ratio rounds to the nearest double: it lies within half an ulp on either side", (t) => {
  const part = fc.bigInt({ min: 1n, max: 2n ** 300n });
  fc.assert(
    fc.property(part, part, (n, d) => {
      const v = ratioToFloat(n, d);
      if (!(v > 0 && Number.isFinite(v))) return false;
      const [vn, vk] = exactOf(v);
      const [un, uk] = exactOf(nextUp(v));
      const [dn, dk] = exactOf(nextDown(v));
      // Midpoints (v + up)/2 and (down + v)/2 as n / 2^k.
      const k = [vk, uk, dk].reduce((a, b) => (a > b ? a : b)) + 1n;
      const up = (vn << (k - vk)) + (un << (k - uk));
      const down = (vn << (k - vk)) + (dn << (k - dk));
      const den = 1n << k;
      const atMostUp = cmpRat(n, d, up, den * 2n) <= 0;
      const atLeastDown = cmpRat(n, d, down, den * 2n) >= 0;
      return atMostUp && atLeastDown;
    }),
    { numRuns: 1000 },
  );
  t.pass();
});

test("tiny ratios round correctly into the subnormal range and to zero", (t) => {
  t.is(ratioToFloat(1n, 2n ** 1074n), Number.MIN_VALUE);
  t.is(ratioToFloat(1n, 2n ** 1075n), 0); // exactly half the smallest subnormal: ties to even (0)
  t.is(ratioToFloat(3n, 2n ** 1076n), Number.MIN_VALUE); // 0.75 of it
  t.is(ratioToFloat(3n, 2n ** 1075n), 2 * Number.MIN_VALUE); // 1.5 of it: ties to even (2)
  t.is(ratioToFloat(-1n, 10n ** 400n), -0);
  t.is(ratioToFloat(10n ** 400n, 10n ** 400n + 1n), 1);
  t.is(ratioToFloat(10n ** 400n, 3n * 10n ** 400n), 1 / 3);
});

test("inexact of a ratio is correctly rounded", (t) => {
  t.is(show(toInexact(rat(1, 3))), "flo:0.3333333333333333");
  t.is(show(toInexact(rat(1, 4))), "flo:0.25");
  t.is(show(toInexact(rat(-7, 2))), "flo:-3.5");
  t.is(show(toInexact(flo(7.5))), "flo:7.5");
  t.is(show(toInexact(7)), "flo:7");
});

test("exact gives the exact value of a double", (t) => {
  t.is(show(toExact(flo(2.5))), "rat:5/2");
  t.is(show(toExact(flo(2))), "fix:2");
  t.is(show(toExact(flo(-0.125))), "rat:-1/8");
  t.is(show(toExact(flo(-0))), "fix:0");
  t.is(show(toExact(flo(1e18))), "big:1000000000000000000"); // beyond 2^53, so a bigint
  t.is(show(toExact(flo(1e15))), "fix:1000000000000000");
  t.is(show(toExact(flo(1e20))), "big:100000000000000000000");
  t.is(show(toExact(flo(4.611686018427388e18))), "big:4611686018427387904"); // 2^62
  t.is(show(toExact(flo(0.1))), "rat:3602879701896397/36028797018963968");
  t.is(show(toExact(flo(1 / 3))), "rat:6004799503160661/18014398509481984");
  t.is(show(toExact(flo(Number.MIN_VALUE))), `rat:1/${2n ** 1074n}`);
  t.is(show(toExact(7)), "fix:7");
  t.is(show(toExact(rat(1, 3))), "rat:1/3");
});

test("the exact value of a random double is n/2^k with n·2^-k equal to it", (t) => {
  fc.assert(
    fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (v) => {
      const e = floatToExact(v);
      const [n, k] = exactOf(v);
      // Reduce the reference n/2^k.
      let rn = n;
      let rk = k;
      while (rk > 0n && (rn & 1n) === 0n) {
        rn >>= 1n;
        rk -= 1n;
      }
      if (rk === 0n) return typeof e === "number" ? BigInt(e) === rn : e === rn;
      return e instanceof Ratnum && e.num === rn && e.den === 1n << rk;
    }),
    { numRuns: 3000 },
  );
  t.pass();
});

test("inexact ∘ exact is the identity on finite doubles, and exact ∘ inexact on doubles' exact values", (t) => {
  fc.assert(
    fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (v) => {
      const back = toFloat(toInexact(toExact(flo(v))));
      return back === v || (v === 0 && back === 0); // −0.0 becomes exact 0, then 0.0
    }),
    { numRuns: 3000 },
  );
  fc.assert(
    fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (v) => {
      const e = floatToExact(v);
      return show(toExact(toInexact(e))) === show(e);
    }),
    { numRuns: 1000 },
  );
  t.pass();
});

test("exact of an infinity or a NaN is a range error", (t) => {
  for (const v of [Infinity, -Infinity, NaN]) {
    const c = raised(() => toExact(flo(v)));
    t.is(c?.kind, "range");
    t.is(c?.who, "exact");
  }
  t.true(raised(() => toExact(flo(NaN)))?.message.includes("+nan.0"));
});
