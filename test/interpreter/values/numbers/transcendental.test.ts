// sqrt, expt, exp, log and trigonometry: exact results where R7RS wants them, correct rounding, no complex results.
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
import { Flonum, Ratnum } from "../../../../interpreter/values/numbers/repr.js";
import { show, flo, rat, raised } from "./show.js";

/** Within a relative 1e-12 of `want`. */
function near(x: unknown, want: number): boolean {
  return x instanceof Flonum && Math.abs(x.v - want) <= 1e-12 * Math.max(1, Math.abs(want));
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

test("sqrt of a negative number is a range error: there are no complex numbers", (t) => {
  for (const x of [-4, flo(-4), rat(-1, 4), -(2n ** 80n), flo(-Infinity)]) {
    const c = raised(() => numSqrt(x));
    t.is(c?.kind, "range");
    t.is(c?.who, "sqrt");
  }
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

test("expt without a real result, or with a zero base and a negative exponent, is an error", (t) => {
  t.is(raised(() => numExpt(-8, rat(1, 3)))?.kind, "range");
  t.is(raised(() => numExpt(flo(-8), flo(0.5)))?.kind, "range");
  t.is(raised(() => numExpt(-2, flo(0.5)))?.kind, "range");
  t.is(raised(() => numExpt(0, -1))?.message, "division by zero");
  t.is(raised(() => numExpt(0, flo(-1)))?.message, "division by zero");
  t.is(raised(() => numExpt("2" as never, 3))?.kind, "type");
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

test("log of a negative number is a range error", (t) => {
  t.is(raised(() => numLog(-1))?.kind, "range");
  t.is(raised(() => numLog(flo(-1)))?.kind, "range");
  t.is(raised(() => numLog(8, -2))?.kind, "range");
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
  t.is(raised(() => numAsin(2))?.kind, "range");
  t.is(raised(() => numAcos(flo(-1.5)))?.kind, "range");
  t.is(raised(() => numSin("x" as never))?.kind, "type");
});
