// ADR 0046: a non-integral flonum is a bare JS number, an integral one a Flonum box, a bare integer always exact.
import test from "ava";
import fc from "fast-check";
import { Flonum, flo, floValue, isFlonum, isExact, isExactInteger } from "../../../../interpreter/values/numbers/repr.js";
import { add, sub, mul, div, neg, numEq, lt, compare, numMax, numMin, toExact, toInexact, isInteger, isRational, isInexact, numEqv, numRound } from "../../../../interpreter/values/numbers/arith.js";
import { eqv } from "../../../../interpreter/values/equal.js";
import { show, canonical, rat } from "./show.js";

test("flo boxes exactly the integral doubles (−0 included) and leaves the others bare", (t) => {
  t.is(flo(1.5), 1.5);
  t.true(Number.isNaN(flo(NaN) as number));
  t.is(flo(Infinity), Infinity);
  t.is(flo(-Infinity), -Infinity);
  t.true(flo(2) instanceof Flonum);
  t.true(flo(1e300) instanceof Flonum);
  const z = flo(-0);
  t.true(z instanceof Flonum && Object.is(z.v, -0));
  t.true(isFlonum(1.5) && isFlonum(NaN) && isFlonum(new Flonum(2)));
  t.false(isFlonum(2));
  t.false(isExact(1.5));
  t.true(isExact(2));
  t.false(isExactInteger(1.5));
  t.false(isExactInteger(Infinity));
});

test("arithmetic on bare flonums: a non-integral result stays bare, an integral one is boxed, never exact", (t) => {
  t.is(show(add(1.5, 1.5)), "flo:3");
  t.true(add(1.5, 1.5) instanceof Flonum);
  t.is(show(mul(0.5, 4)), "flo:2");
  t.is(show(sub(0.5, 0.5)), "flo:0");
  t.is(show(add(1, 0.5)), "flo:1.5");
  t.is(add(1, 0.5), 1.5); // bare: nothing allocated
  t.is(show(add(0.5, 2)), "flo:2.5");
  t.is(show(sub(2.5, 0.5)), "flo:2");
  t.is(show(mul(0, -1.5)), "flo:-0"); // inexact contagion keeps the zero's sign
  t.is(show(mul(0, 1.5)), "flo:0");
  t.is(show(div(1.5, 0.5)), "flo:3"); // not the exact 3 a fixnum-only test of a % b would give
  t.is(show(div(3, 2)), "rat:3/2");
  t.is(show(div(1, 4.5)), `flo:${1 / 4.5}`);
  t.is(show(neg(1.5)), "flo:-1.5");
  t.is(show(add(new Flonum(2), 0.5)), "flo:2.5");
  t.is(show(add(0.5, new Flonum(2))), "flo:2.5");
  t.is(show(add(0.5, rat(1, 2))), "flo:1");
  t.is(show(add(0.5, 2n ** 60n)), `flo:${2 ** 60}`);
  // Fixnums still overflow to bigints, and stay exact.
  t.is(show(add(9007199254740991, 1)), "big:9007199254740992");
  t.is(show(mul(94906267, 94906267)), `big:${94906267n * 94906267n}`);
});

test("NaN and the infinities are bare flonums through arithmetic", (t) => {
  t.true(Number.isNaN(add(NaN, 1) as number));
  t.is(sub(Infinity, 1), Infinity);
  t.is(show(mul(Infinity, 0.5)), "flo:Infinity");
  t.true(Number.isNaN(sub(Infinity, Infinity) as number));
  t.is(show(div(1.5, new Flonum(0))), "flo:Infinity");
  t.false(numEq(NaN, NaN));
  t.false(lt(NaN, 1));
  t.true(Number.isNaN(compare(NaN, 2n ** 70n)));
});

test("predicates and conversions see a bare non-integral number as inexact", (t) => {
  t.false(isInteger(1.5));
  t.true(isInteger(new Flonum(2)));
  t.true(isRational(1.5));
  t.false(isRational(Infinity));
  t.false(isRational(NaN));
  t.true(isInexact(1.5));
  t.false(isInexact(2));
  t.is(show(toExact(2.5)), "rat:5/2");
  t.is(show(toExact(new Flonum(2))), "fix:2");
  t.is(toInexact(1.5), 1.5);
  t.is(show(toInexact(rat(1, 2))), "flo:0.5");
  t.is(show(numRound(2.5)), "flo:2");
  t.is(show(numRound(-0.5)), "flo:-0");
  t.is(show(numMax(1.5, 2)), "flo:2"); // contagion: not the exact 2
  t.is(show(numMin(1.5, 2)), "flo:1.5");
});

test("eqv? distinguishes exactness and equates a NaN with a NaN", (t) => {
  t.false(eqv(2, new Flonum(2)));
  t.true(eqv(1.5, 1.5));
  t.true(eqv(NaN, NaN));
  t.true(numEqv(NaN, NaN));
  t.false(eqv(NaN, 1.5));
  t.false(eqv(1.5, new Flonum(2)));
  t.false(eqv(new Flonum(0), new Flonum(-0)));
});

test("random doubles: every result of + − × / on two flonums or a flonum and a fixnum is canonical and equal to IEEE's", (t) => {
  const real = fc.oneof(fc.double(), fc.integer({ min: -1000, max: 1000 }), fc.double({ min: -1e6, max: 1e6 }).map((v) => Math.round(v * 4) / 4));
  fc.assert(
    fc.property(real, real, fc.boolean(), fc.boolean(), (x, y, bx, by) => {
      // Each operand a flonum (canonically) unless it is a safe integer left exact.
      const fix = (v: number) => Number.isSafeInteger(v) && !Object.is(v, -0);
      const a = bx || !fix(x) ? flo(x) : x;
      const b = by || !fix(y) ? flo(y) : y;
      const inexact = isFlonum(a) || isFlonum(b);
      const av = typeof a === "number" ? a : floValue(a);
      const bv = typeof b === "number" ? b : floValue(b);
      const cases: [unknown, number][] = [
        [add(a, b), av + bv],
        [sub(a, b), av - bv],
        [mul(a, b), av * bv],
      ];
      if (inexact && bv !== 0) cases.push([div(a, b), av / bv]);
      for (const [r, want] of cases) {
        if (!canonical(r)) return false;
        if (inexact) {
          if (!isFlonum(r) || !Object.is(floValue(r), want)) return false;
        } else if (typeof r === "number" && !(Number.isInteger(r) && (r === want || (r === 0 && want === 0)))) return false;
      }
      return true;
    }),
    { numRuns: 5000 },
  );
  t.pass();
});
