// floor, ceiling, round, truncate; numerator and denominator; rationalize.
import test from "ava";
import fc from "fast-check";
import {
  numFloor,
  numCeiling,
  numRound,
  numTruncate,
  numerator,
  denominator,
  rationalize,
  div,
} from "../../../../interpreter/values/numbers/arith.js";
import { Ratnum, Flonum, floValue, makeRational } from "../../../../interpreter/values/numbers/repr.js";
import { show, flo, rat, raised } from "./show.js";

const all = (x: Parameters<typeof numFloor>[0]) => show([numFloor(x), numCeiling(x), numTruncate(x), numRound(x)]);

test("rounding follows R7RS's examples", (t) => {
  t.is(all(flo(-4.3)), "[flo:-5 flo:-4 flo:-4 flo:-4]");
  t.is(all(flo(3.5)), "[flo:3 flo:4 flo:3 flo:4]");
  t.is(all(flo(-6.7)), "[flo:-7 flo:-6 flo:-6 flo:-7]");
  t.is(all(flo(8.5)), "[flo:8 flo:9 flo:8 flo:8]");
  t.is(show(numRound(rat(7, 2))), "fix:4");
  t.is(show(numRound(7)), "fix:7");
  t.is(all(2n ** 80n), `[big:${2n ** 80n} big:${2n ** 80n} big:${2n ** 80n} big:${2n ** 80n}]`);
});

test("round takes halves to even, exact and inexact", (t) => {
  t.is(show([2.5, -2.5, 0.5, 1.5, -0.5, -1.5].map((v) => numRound(flo(v)))), "[flo:2 flo:-2 flo:0 flo:2 flo:-0 flo:-2]");
  t.is(show([rat(11, 2), rat(13, 2), rat(-11, 2), rat(-13, 2), rat(1, 2), rat(-1, 2)].map(numRound)), "[fix:6 fix:6 fix:-6 fix:-6 fix:0 fix:0]");
  t.is(show([rat(-11, 2)].flatMap((x) => [numFloor(x), numCeiling(x), numTruncate(x)])), "[fix:-6 fix:-5 fix:-5]");
  t.is(show(numRound(rat(7, 3))), "fix:2");
  t.is(show(numRound(rat(-8, 3))), "fix:-3");
  // 2^52 + 0.5 is not a double; 4503599627370497 (2^52 + 1) is, and is already integral.
  t.is(show(numRound(flo(4503599627370497))), "flo:4503599627370497");
  t.is(show(numRound(flo(0.49999999999999994))), "flo:0"); // the largest double below 0.5
});

test("rounded doubles are the nearest integer, ties to even; floor and ceiling bracket", (t) => {
  fc.assert(
    // Below 2^52 in magnitude, so that f + 1 and c − 1 are exact in the checks.
    fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: -(2 ** 52), max: 2 ** 52 }), (v) => {
      const r = floValue(numRound(flo(v)) as Flonum);
      const f = floValue(numFloor(flo(v)) as Flonum);
      const c = floValue(numCeiling(flo(v)) as Flonum);
      const tr = floValue(numTruncate(flo(v)) as Flonum);
      const d = Math.abs(r - v);
      const roundOk = Number.isInteger(r) && (d < 0.5 || (d === 0.5 && r % 2 === 0));
      const bracketOk = f <= v && v < f + 1 && c >= v && v > c - 1 && Number.isInteger(f) && Number.isInteger(c);
      const truncOk = Math.abs(tr) <= Math.abs(v) && Math.abs(v) - Math.abs(tr) < 1;
      return roundOk && bracketOk && truncOk;
    }),
    { numRuns: 3000 },
  );
  // From 2^52 on, every double is an integer and rounds to itself.
  fc.assert(
    fc.property(fc.double({ noNaN: true, min: 2 ** 52 }), fc.boolean(), (m, negative) => {
      const v = negative ? -m : m;
      return [numFloor, numCeiling, numRound, numTruncate].every((f) => floValue(f(flo(v)) as Flonum) === v);
    }),
  );
  t.pass();
});

test("rounding a ratio brackets it between consecutive integers", (t) => {
  fc.assert(
    fc.property(fc.bigInt({ min: -(2n ** 90n), max: 2n ** 90n }), fc.bigInt({ min: 2n, max: 2n ** 70n }), (n, d) => {
      const x = makeRational(n, d);
      if (!(x instanceof Ratnum)) return true;
      const f = BigInt(numFloor(x) as number | bigint);
      const c = BigInt(numCeiling(x) as number | bigint);
      const r = BigInt(numRound(x) as number | bigint);
      // f ≤ x < f + 1 ⇔ f·den ≤ num < (f+1)·den; the ceiling is f + 1 for a non-integer.
      const twice = 2n * (x.num - r * x.den); // 2·(x − r)·den
      const roundOk = (twice < 0n ? -twice : twice) <= x.den && ((twice !== x.den && twice !== -x.den) || r % 2n === 0n);
      return f * x.den <= x.num && x.num < (f + 1n) * x.den && c === f + 1n && roundOk;
    }),
    { numRuns: 2000 },
  );
  t.pass();
});

test("numerator and denominator follow R7RS's examples, flonums included", (t) => {
  const q = div(6, 4);
  t.is(show([numerator(q), denominator(q)]), "[fix:3 fix:2]");
  t.is(show(denominator(flo(1.5))), "flo:2");
  t.is(show([numerator(flo(5.5)), denominator(flo(5.5))]), "[flo:11 flo:2]");
  t.is(show([numerator(flo(5)), denominator(flo(5))]), "[flo:5 flo:1]");
  t.is(show([numerator(flo(0.5)), denominator(flo(0.5))]), "[flo:1 flo:2]");
  t.is(show([numerator(rat(-6, 4)), denominator(5), denominator(0)]), "[fix:-6 fix:1 fix:1]");
  t.is(show([numerator(2n ** 80n), denominator(2n ** 80n)]), `[big:${2n ** 80n} fix:1]`);
  t.is(show(denominator(flo(0.1))), "flo:36028797018963970"); // 2^55 as a double
  t.is(raised(() => denominator(flo(Infinity)))?.kind, "type");
  t.is(raised(() => numerator(flo(NaN)))?.kind, "type");
});

test("rationalize follows R7RS's examples", (t) => {
  t.is(show(rationalize(rat(3, 10), rat(1, 10))), "rat:1/3");
  t.is(show(rationalize(flo(0.3), rat(1, 10))), `flo:${1 / 3}`);
  t.is(show(rationalize(rat(7, 10), rat(1, 10))), "rat:2/3");
  t.is(show(rationalize(rat(-7, 10), rat(1, 10))), "rat:-2/3");
  t.is(show(rationalize(rat(7, 10), rat(-1, 10))), "rat:2/3");
  t.is(show(rationalize(flo(0.7), rat(1, 10))), `flo:${2 / 3}`);
  t.is(show(rationalize(rat(1, 3), 0)), "rat:1/3");
  t.is(show(rationalize(rat(1, 4), rat(1, 2))), "fix:0");
  t.is(show(rationalize(rat(5, 2), rat(1, 2))), "fix:2");
  t.is(show(rationalize(17, 3)), "fix:14"); // [14, 20]: the smallest magnitude wins
  // R6RS's examples with infinities.
  t.is(show(rationalize(flo(Infinity), 3)), "flo:Infinity");
  t.is(show(rationalize(3, flo(Infinity))), "flo:0");
  t.is(show(rationalize(flo(Infinity), flo(Infinity))), "flo:NaN");
  t.is(show(rationalize(flo(NaN), 1)), "flo:NaN");
});

test("rationalize returns the rational of smallest denominator within the tolerance", (t) => {
  const small = fc.tuple(fc.integer({ min: -200, max: 200 }), fc.integer({ min: 1, max: 60 }));
  fc.assert(
    fc.property(small, small, ([xn, xd], [yn, yd]) => {
      const x = makeRational(BigInt(xn), BigInt(xd));
      const y = makeRational(BigInt(Math.abs(yn)), BigInt(yd));
      const r = rationalize(x, y);
      const rn = r instanceof Ratnum ? r.num : BigInt(r as number);
      const rd = r instanceof Ratnum ? r.den : 1n;
      // As fractions over the common denominator xd·yd·rd: |r − x| ≤ y.
      const X = BigInt(xn);
      const XD = BigInt(xd);
      const Y = BigInt(Math.abs(yn));
      const YD = BigInt(yd);
      const diff = rn * XD - X * rd; // (r − x)·rd·xd
      const within = (diff < 0n ? -diff : diff) * YD <= Y * rd * XD;
      // No denominator below rd has a numerator landing in [x − y, x + y].
      let simplest = true;
      for (let d = 1n; d < rd && simplest; d++) {
        // Integers n with lo ≤ n/d ≤ hi, lo = (X·YD − Y·XD)/(XD·YD), hi = (X·YD + Y·XD)/(XD·YD).
        const den = XD * YD;
        const loN = (X * YD - Y * XD) * d;
        const hiN = (X * YD + Y * XD) * d;
        const ceil = (a: bigint) => (a >= 0n ? (a + den - 1n) / den : -(-a / den));
        const floor = (a: bigint) => (a >= 0n ? a / den : -((-a + den - 1n) / den));
        if (ceil(loN) <= floor(hiN)) simplest = false;
      }
      // Among denominator rd, the smallest |numerator|.
      const smallestNum = rn === 0n || rd > 1n || [rn - 1n, rn + 1n].every((m) => {
        if ((m < 0n ? -m : m) >= (rn < 0n ? -rn : rn)) return true;
        const dm = m * XD - X;
        return (dm < 0n ? -dm : dm) * YD > Y * XD;
      });
      return within && simplest && smallestNum;
    }),
    { numRuns: 1500 },
  );
  t.pass();
});

test("rationalize of a long continued fraction does not recurse", (t) => {
  // Consecutive Fibonacci ratios have the longest continued fractions for their size.
  let a = 1n;
  let b = 1n;
  for (let i = 0; i < 20000; i++) [a, b] = [b, a + b];
  const r = rationalize(makeRational(b, a), 0);
  t.true(r instanceof Ratnum && r.num === b && r.den === a);
});
