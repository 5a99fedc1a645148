// Numerical predicates, eqv? on numbers, and abs, max, min, square.
import test from "ava";
import {
  isInteger,
  isRational,
  isInexact,
  isNan,
  isInfinite,
  isFiniteNum,
  isZero,
  isPositive,
  isNegative,
  numEqv,
  numAbs,
  numMax,
  numMin,
  square,
} from "../../../../interpreter/values/numbers/arith.js";
import { makeRational } from "../../../../interpreter/values/numbers/repr.js";
import { show, flo, rat, raised } from "./show.js";

const inf = flo(Infinity);
const ninf = flo(-Infinity);
const nan = flo(NaN);

test("integer? and rational? follow R7RS", (t) => {
  t.true(isInteger(3));
  t.true(isInteger(flo(3)));
  t.true(isInteger(makeRational(8n, 4n)));
  t.true(isInteger(flo(1e100)));
  t.true(isInteger(2n ** 100n));
  t.false(isInteger(flo(3.5)));
  t.false(isInteger(rat(3, 7)));
  t.false(isInteger(inf));
  t.false(isInteger(nan));
  t.false(isInteger("1"));
  t.true(isRational(rat(6, 10)));
  t.true(isRational(flo(0.5)));
  t.false(isRational(ninf));
  t.false(isRational(nan));
  t.false(isRational("a"));
});

test("exactness, NaN and infinity predicates", (t) => {
  t.false(isInexact(rat(1, 3)));
  t.true(isInexact(flo(0.5)));
  t.deepEqual([isFiniteNum(7), isFiniteNum(inf), isFiniteNum(flo(1e300)), isFiniteNum(nan), isFiniteNum(2n ** 2000n)], [true, false, true, false, true]);
  t.deepEqual([isInfinite(ninf), isInfinite(inf), isInfinite(flo(1e308)), isInfinite(nan), isInfinite(3)], [true, true, false, false, false]);
  t.deepEqual([isNan(nan), isNan(1), isNan(flo(1.5)), isNan(rat(1, 2))], [true, false, false, false]);
  t.is(raised(() => isNan("x" as never))?.kind, "type");
});

test("zero?, positive? and negative?, with signed zeros and NaN", (t) => {
  t.deepEqual([isZero(0), isZero(flo(-0)), isZero(flo(1e-300)), isZero(2n ** 80n), isZero(rat(1, 2)), isZero(nan)], [true, true, false, false, false, false]);
  t.deepEqual([isPositive(rat(1, 100)), isPositive(0), isPositive(flo(0)), isPositive(inf), isPositive(nan), isPositive(2n ** 80n)], [true, false, false, true, false, true]);
  t.deepEqual([isNegative(ninf), isNegative(flo(-0)), isNegative(-1), isNegative(rat(-1, 2)), isNegative(-(2n ** 80n)), isNegative(nan)], [true, false, true, true, true, false]);
});

test("eqv? on numbers needs the same exactness, and tells the zeros apart", (t) => {
  t.true(numEqv(2, 2));
  t.false(numEqv(2, flo(2)));
  t.true(numEqv(2n ** 100n, 2n ** 100n));
  t.true(numEqv(rat(1, 2), rat(1, 2)));
  t.false(numEqv(rat(1, 2), flo(0.5)));
  t.true(numEqv(flo(1.5), flo(1.5)));
  t.false(numEqv(flo(0), flo(-0)));
  t.true(numEqv(nan, nan));
  t.false(numEqv(100000000, 100000001));
});

test("abs", (t) => {
  t.is(show([numAbs(-7), numAbs(7), numAbs(rat(-7, 2)), numAbs(flo(7.5)), numAbs(ninf), numAbs(flo(-0))]), "[fix:7 fix:7 rat:7/2 flo:7.5 flo:Infinity flo:0]");
  t.is(show(numAbs(-Number.MAX_SAFE_INTEGER)), `fix:${Number.MAX_SAFE_INTEGER}`);
  t.is(show(numAbs(-(2n ** 64n))), `big:${2n ** 64n}`);
});

test("max and min follow R7RS, inexact when any argument is", (t) => {
  t.is(show(numMax(3, 4)), "fix:4");
  t.is(show(numMax(flo(3.9), 4)), "flo:4");
  t.is(show(numMax(flo(2.5), 6)), "flo:6");
  t.is(show(numMin(1, flo(2))), "flo:1");
  t.is(show(numMin(3, flo(3.1))), "flo:3");
  t.is(show(numMax(rat(1, 2), rat(1, 3))), "rat:1/2");
  t.is(show(numMax(rat(1, 3), flo(0.25))), `flo:${1 / 3}`);
  t.is(show(numMin(ninf, 5)), "flo:-Infinity");
  t.is(show(numMax(100, inf)), "flo:Infinity");
  t.is(show(numMax(2n ** 80n, 3)), `big:${2n ** 80n}`);
  t.is(show(numMax(nan, 1)), "flo:NaN");
  t.is(show(numMin(1, nan)), "flo:NaN");
  t.is(raised(() => numMax(1, "a" as never))?.who, "max");
});

test("square", (t) => {
  t.is(show([square(42), square(2), square(13), square(flo(1.5)), square(rat(-1, 2))]), "[fix:1764 fix:4 fix:169 flo:2.25 rat:1/4]");
  t.is(show(square(2n ** 40n)), `big:${2n ** 80n}`);
  t.is(show(square(94906266)), `big:${94906266n ** 2n}`);
  t.is(raised(() => square("x" as never))?.who, "square");
});
