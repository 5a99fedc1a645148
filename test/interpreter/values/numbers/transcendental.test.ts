// sqrt, expt, exp, log and trigonometry: exact results where R7RS wants them, correct rounding, and
// principal complex values (R7RS §6.2.6) where the real result does not exist.
import test from "ava";
import fc from "fast-check";
import {
  numSqrt,
  sqrtRatio,
  numExpt,
  numExp,
  numLog,
  numSin,
  numCos,
  numTan,
  numAsin,
  numAcos,
  numAtan,
  floatToExact,
  MAX_EXPT_BITS,
} from "../../../../interpreter/values/numbers/arith.js";
import { Compnum, Ratnum, floValue, isFlonum } from "../../../../interpreter/values/numbers/repr.js";
import { makeRect } from "../../../../interpreter/values/numbers/complex.js";
import { show, flo, rat, raised } from "./show.js";

/** Within a relative 1e-12 of `want`. */
function near(x: unknown, want: number): boolean {
  return isFlonum(x) && Math.abs(floValue(x) - want) <= 1e-12 * Math.max(1, Math.abs(want));
}

/** An inexact complex within 1e-12 (relative to its size, absolute near 0) of re + im·i. */
function nearC(x: unknown, re: number, im: number): boolean {
  if (!(x instanceof Compnum) || !isFlonum(x.re) || !isFlonum(x.im)) return false;
  const tol = 1e-12 * Math.max(1, Math.hypot(re, im));
  return Math.abs(floValue(x.re) - re) <= tol && Math.abs(floValue(x.im) - im) <= tol;
}

test("sqrt is exact on exact perfect squares, big ones and ratios included", (t) => {
  t.is(show(numSqrt(16)), "fix:4");
  t.is(show(numSqrt(0)), "fix:0");
  t.is(show(numSqrt(rat(1, 4))), "rat:1/2");
  t.is(show(numSqrt(rat(9, 4))), "rat:3/2");
  t.is(show(numSqrt(10n ** 40n)), "big:100000000000000000000");
  t.is(show(numSqrt(10n ** 20n)), "fix:10000000000");
  t.is(show(numSqrt(94906265 ** 2)), "fix:94906265");
});

test("sqrt of other numbers is the correctly rounded flonum", (t) => {
  t.is(show(numSqrt(2)), `flo:${Math.SQRT2}`);
  t.is(show(numSqrt(flo(16))), "flo:4");
  t.is(show(numSqrt(flo(-0))), "flo:-0");
  t.is(show(numSqrt(flo(Infinity))), "flo:Infinity");
  t.is(show(numSqrt(flo(NaN))), "flo:NaN");
  t.is(show(numSqrt(rat(1, 2))), `flo:${Math.SQRT1_2}`);
  // √(2·4^60) = √2 · 2^60, and scaling by a power of two is exact.
  t.is(show(numSqrt(2n * 4n ** 60n)), `flo:${Math.SQRT2 * 2 ** 60}`);
  // Beyond the range of doubles: √(2·4^600) = √2 · 2^600.
  t.is(show(numSqrt(2n * 4n ** 600n)), `flo:${Math.SQRT2 * 2 ** 600}`);
  t.is(show(numSqrt(rat(1n, 2n * 4n ** 600n))), `flo:${Math.SQRT1_2 / 2 ** 600}`);
});

test("sqrtRatio agrees with IEEE sqrt on the exact value of any double", (t) => {
  fc.assert(
    fc.property(fc.double({ min: 0, noNaN: true, noDefaultInfinity: true }), (v) => {
      const e = floatToExact(v);
      const [n, d] = e instanceof Ratnum ? [e.num, e.den] : [BigInt(e), 1n];
      return sqrtRatio(n, d) === Math.sqrt(v);
    }),
    { numRuns: 3000 },
  );
  fc.assert(
    fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), fc.integer({ min: 0, max: 400 }), (m, k) => {
      // √(m·4^k) = √m · 2^k exactly, so both round the same.
      return sqrtRatio(BigInt(m) * 4n ** BigInt(k), 1n) === Math.sqrt(m) * 2 ** k;
    }),
    { numRuns: 2000 },
  );
  t.pass();
});

test("sqrt of a negative real is i times the root of its magnitude, exact when that root is", (t) => {
  t.is(show(numSqrt(-4)), "cpx:(fix:0 fix:2)"); // +2i
  t.is(show(numSqrt(flo(-4))), "cpx:(flo:0 flo:2)"); // +2.0i
  t.is(show(numSqrt(rat(-1, 4))), "cpx:(fix:0 rat:1/2)"); // +1/2i
  t.is(show(numSqrt(-(2n ** 80n))), `cpx:(fix:0 fix:${2 ** 40})`);
  t.is(show(numSqrt(flo(-Infinity))), "cpx:(flo:0 flo:Infinity)");
  // Not an exact square: inexact, √2·i.
  t.is(show(numSqrt(-2)), `cpx:(flo:0 flo:${Math.SQRT2})`);
  // −0.0 is not negative: its root is −0.0, a real.
  t.is(show(numSqrt(flo(-0))), "flo:-0");
});

test("expt is exact for an exact base and an exact integer exponent", (t) => {
  const cases: [Parameters<typeof numExpt>, string][] = [
    [[2, 10], "fix:1024"],
    [[2, -2], "rat:1/4"],
    [[2, -1], "rat:1/2"],
    [[0, 0], "fix:1"],
    [[0, 5], "fix:0"],
    [[rat(1, 2), 3], "rat:1/8"],
    [[rat(-2, 3), -3], "rat:-27/8"],
    [[-2, 3], "fix:-8"],
    [[3, 3], "fix:27"],
    [[2, 100], `big:${2n ** 100n}`],
    [[3, 50], `big:${3n ** 50n}`],
    [[-1, 2n ** 70n + 1n], "fix:-1"],
    [[1, 2n ** 70n], "fix:1"],
    [[-(2n ** 60n), 2], `big:${2n ** 120n}`],
    [[10n ** 20n, -1], `rat:1/${10n ** 20n}`],
    [[-(10n ** 20n), -1], `rat:-1/${10n ** 20n}`],
  ];
  for (const [args, want] of cases) t.is(show(numExpt(...args)), want, `expt ${args.map(show).join(" ")}`);
});

test("expt with an exact rational exponent is exact on perfect powers", (t) => {
  t.is(show(numExpt(8, rat(2, 3))), "fix:4");
  t.is(show(numExpt(4, rat(1, 2))), "fix:2");
  t.is(show(numExpt(rat(27, 8), rat(-1, 3))), "rat:2/3");
  t.is(show(numExpt(0, rat(1, 2))), "fix:0");
  t.true(near(numExpt(2, rat(1, 2)), Math.SQRT2));
});

test("expt with an inexact operand is inexact", (t) => {
  t.is(show(numExpt(flo(2), 3)), "flo:8");
  t.is(show(numExpt(flo(0), 0)), "flo:1");
  t.is(show(numExpt(0, flo(1))), "flo:0");
  t.is(show(numExpt(0, flo(0))), "flo:1");
  t.is(show(numExpt(9, flo(0.5))), "flo:3");
  t.is(show(numExpt(-8, flo(3))), "flo:-512");
  t.is(show(numExpt(flo(-1), 2n ** 70n + 1n)), "flo:-1"); // the parity comes from the exact exponent
  t.is(show(numExpt(flo(2), -1)), "flo:0.5");
  // A base beyond the doubles: (10^400)^0.5 = 10^200.
  t.true(near(numExpt(10n ** 400n, flo(0.5)), 1e200));
});

test("expt of a negative base to a non-integer power is the principal complex value", (t) => {
  // e^((1/3)(ln 8 + iπ)) = 2(cos π/3 + i sin π/3) = 1 + √3·i.
  t.true(nearC(numExpt(-8, rat(1, 3)), 1, Math.sqrt(3)));
  // e^(0.5(ln 8 + iπ)) = √8·i (the real part is cos(π/2)·√8, about 1.7e-16).
  t.true(nearC(numExpt(flo(-8), flo(0.5)), 0, Math.sqrt(8)));
  t.true(nearC(numExpt(-2, flo(0.5)), 0, Math.SQRT2));
});

test("expt with a zero base and a negative exponent, or a non-number, is an error", (t) => {
  t.is(raised(() => numExpt(0, -1))?.message, "division by zero");
  t.is(raised(() => numExpt(0, flo(-1)))?.message, "division by zero");
  t.is(raised(() => numExpt("2" as never, 3))?.kind, "type");
});

test("expt of zero to a non-real power: 0 for a positive real part (exact for an exact power), else no value", (t) => {
  // R7RS 6.2.6: 0^z is 1 if z = 0, and 0 if (real-part z) is positive.
  t.is(show(numExpt(0, makeRect(1, 1))), "fix:0");
  t.is(show(numExpt(0, makeRect(flo(1), flo(1)))), "cpx:(flo:0 flo:0)");
  t.is(show(numExpt(flo(0), makeRect(2, 1))), "cpx:(flo:0 flo:0)");
  // |0^z| = 0^Re(z): with Re(z) ≤ 0 there is no limit, as (expt 0 -1) has none.
  t.is(raised(() => numExpt(0, makeRect(0, 1)))?.message, "division by zero");
  t.is(raised(() => numExpt(0, makeRect(-1, 1)))?.message, "division by zero");
  t.is(show(numExpt(flo(0), makeRect(flo(-1), flo(1)))), "cpx:(flo:NaN flo:NaN)");
});

test("expt refuses exact results too large to build instead of hanging", (t) => {
  const c = raised(() => numExpt(2, 10n ** 10n));
  t.is(c?.kind, "range");
  t.is(c?.who, "expt");
  // Just under the limit is computed (the memory budget of an evaluation may refuse it first).
  t.is(MAX_EXPT_BITS, 2 ** 30);
  const r = numExpt(2, 2 ** 20);
  t.is(typeof r, "bigint");
});

test("exp and log are inexact, with bases 2 and 10 exact on powers", (t) => {
  t.is(show(numExp(0)), "flo:1");
  t.true(near(numExp(1), Math.E));
  t.true(near(numExp(3), 20.085536923187668));
  t.is(show(numLog(1)), "flo:0");
  t.is(show(numLog(100, 10)), "flo:2");
  t.is(show(numLog(4096, 2)), "flo:12");
  t.is(show(numLog(8, 2)), "flo:3");
  t.is(show(numLog(flo(8), flo(2))), "flo:3");
  t.true(near(numLog(numExp(42)), 42));
  t.true(near(numLog(27, 3), 3));
  t.is(show(numLog(0)), "flo:-Infinity");
});

test("log works beyond the range of doubles", (t) => {
  t.true(near(numLog(10n ** 400n), 400 * Math.LN10));
  t.true(near(numLog(rat(1n, 10n ** 400n)), -400 * Math.LN10));
  t.true(near(numLog(2n ** 2000n, 2), 2000));
  t.true(near(numLog(rat(10n ** 400n + 1n, 10n ** 399n)), Math.LN10));
});

test("log of a negative number is ln|z| + πi, and a negative base divides by that", (t) => {
  t.is(show(numLog(-1)), `cpx:(flo:0 flo:${Math.PI})`);
  t.is(show(numLog(flo(-1))), `cpx:(flo:0 flo:${Math.PI})`);
  t.true(nearC(numLog(-8), Math.log(8), Math.PI));
  // ln 8 / (ln 2 + πi) = 3 ln 2 (ln 2 − πi) / (ln² 2 + π²).
  const l2 = Math.LN2;
  const d = l2 * l2 + Math.PI * Math.PI;
  t.true(nearC(numLog(8, -2), (3 * l2 * l2) / d, (-3 * l2 * Math.PI) / d));
  t.true(Math.abs((3 * l2 * l2) / d - 0.13926) < 1e-5 && Math.abs((-3 * l2 * Math.PI) / d + 0.63119) < 1e-5);
  t.is(show(numLog(flo(NaN))), "flo:NaN");
});

test("trigonometry matches the math, atan with two arguments covers every quadrant", (t) => {
  t.is(show(numSin(0)), "flo:0");
  t.is(show(numCos(0)), "flo:1");
  t.is(show(numTan(0)), "flo:0");
  t.true(near(numTan(flo(0.5)), 0.5463024898437905));
  t.true(near(numSin(flo(Math.PI / 2)), 1));
  t.is(show(numAsin(0)), "flo:0");
  t.is(show(numAsin(1)), `flo:${Math.PI / 2}`);
  t.is(show(numAcos(1)), "flo:0");
  t.is(show(numAcos(-1)), `flo:${Math.PI}`);
  t.is(show(numAtan(1)), `flo:${Math.PI / 4}`);
  t.is(show(numAtan(flo(0), flo(1))), "flo:0");
  t.is(show(numAtan(flo(-0), flo(1))), "flo:-0");
  t.is(show(numAtan(1, 1)), `flo:${Math.PI / 4}`);
  t.is(show(numAtan(flo(1), flo(0))), `flo:${Math.PI / 2}`);
  t.is(show(numAtan(flo(0), flo(-1))), `flo:${Math.PI}`);
  t.is(show(numAtan(flo(-0), flo(-1))), `flo:${-Math.PI}`);
  t.is(show(numAtan(-1, -1)), `flo:${(-3 * Math.PI) / 4}`);
  t.is(show(numAtan(flo(-1), flo(0))), `flo:${-Math.PI / 2}`);
  t.is(raised(() => numSin("x" as never))?.kind, "type");
});

test("asin and acos outside [-1, 1] give R7RS's principal values", (t) => {
  // asin 2 = −i ln(2i + √(1 − 4)) = −i ln(i(2 + √3)) = π/2 − i ln(2 + √3).
  const a = numAsin(2);
  t.true(nearC(a, Math.PI / 2, -Math.log(2 + Math.sqrt(3))));
  t.true(nearC(a, Math.PI / 2, -1.3169578969248166));
  // asin −1.5 = −i ln(−1.5i + i√1.25) = −π/2 − i ln(1.5 − √1.25); acos = π/2 − asin = π + i ln(1.5 − √1.25).
  t.true(nearC(numAcos(flo(-1.5)), Math.PI, Math.log(1.5 - Math.sqrt(1.25))));
  t.true(Math.abs(Math.log(1.5 - Math.sqrt(1.25)) + 0.96242) < 1e-5);
  // acos 2 = π/2 − asin 2 = i ln(2 + √3).
  t.true(nearC(numAcos(2), 0, Math.log(2 + Math.sqrt(3))));
});
