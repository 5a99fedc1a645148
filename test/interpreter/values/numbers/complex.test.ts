// Non-real complex numbers (ADR 0039): literals in every radix, printing that reads back,
// canonical forms, exact arithmetic on rational parts, exactness conversions.
import test from "ava";
import fc from "fast-check";
import { parseNumber } from "../../../../interpreter/values/numbers/parse.js";
import { numberToString } from "../../../../interpreter/values/numbers/format.js";
import { add, sub, mul, div, numEq } from "../../../../interpreter/values/numbers/ops.js";
import { makeRect, makePolar, cExact, cInexact } from "../../../../interpreter/values/numbers/complex.js";
import { toExact } from "../../../../interpreter/values/numbers/convert.js";
import { Compnum, type SNumber } from "../../../../interpreter/values/numbers/repr.js";
import { show, flo, rat, canonical, raised } from "./show.js";
import { makeInterp } from "../../../helpers/interp.js";

const parse = (s: string, radix = 10) => show(parseNumber(s, radix));

test("complex literals: rectangular, pure imaginary, polar, prefixes", (t) => {
  t.is(parse("1+2i"), "cpx:(fix:1 fix:2)");
  t.is(parse("+i"), "cpx:(fix:0 fix:1)");
  t.is(parse("-i"), "cpx:(fix:0 fix:-1)");
  t.is(parse("1-i"), "cpx:(fix:1 fix:-1)");
  t.is(parse("1/2+3/4i"), "cpx:(rat:1/2 rat:3/4)");
  t.is(parse("1+0i"), "fix:1"); // an exact 0 imaginary part is a real
  t.is(parse("1+0.0i"), "cpx:(flo:1 flo:0)");
  t.is(parse("#e1.5-0.5i"), "cpx:(rat:3/2 rat:-1/2)");
  t.is(parse("#i1+2i"), "cpx:(flo:1 flo:2)");
  t.is(parse("-inf.0+nan.0i"), "cpx:(flo:-Infinity flo:NaN)");
  t.is(parse("+inf.0i"), "cpx:(flo:0 flo:Infinity)");
  t.is(parse("1e-2+3e-4i"), "cpx:(flo:0.01 flo:0.0003)");
  t.is(parse("1@0"), "fix:1"); // exact angle 0: the magnitude itself
  t.is(parse("1@2"), `cpx:(flo:${Math.cos(2)} flo:${Math.sin(2)})`);
  // Radix prefixes apply to both parts.
  t.is(parse("#b101+11i"), "cpx:(fix:5 fix:3)");
  t.is(parse("#o17-7i"), "cpx:(fix:15 fix:-7)");
  t.is(parse("#x1+fi"), "cpx:(fix:1 fix:15)");
  t.is(parse("#x-a/2+i"), "cpx:(fix:-5 fix:1)");
  t.is(parse("#e#x1+fi"), "cpx:(fix:1 fix:15)");
  t.is(parse("11+1i", 2), "cpx:(fix:3 fix:1)");
});

test("printing: the parts, a sign, i; an exact 0 real part left out, in any radix", (t) => {
  t.is(numberToString(makeRect(1, 2)), "1+2i");
  t.is(numberToString(makeRect(0, 1)), "+i");
  t.is(numberToString(makeRect(0, -1)), "-i");
  t.is(numberToString(makeRect(0, 2)), "+2i");
  t.is(numberToString(makeRect(rat(1, 2), rat(-3, 4))), "1/2-3/4i");
  t.is(numberToString(makeRect(flo(1), flo(2))), "1.0+2.0i");
  t.is(numberToString(makeRect(flo(-Infinity), flo(NaN))), "-inf.0+nan.0i");
  t.is(numberToString(makeRect(5, 3), 2), "101+11i");
  t.is(numberToString(makeRect(15, -7), 8), "17-7i");
  t.is(numberToString(makeRect(1, 15), 16), "1+fi");
});

test("canonical forms: exact 0 imaginary part is the real, mixed exactness is inexact", (t) => {
  t.is(show(makeRect(3, 0)), "fix:3");
  t.is(show(makeRect(flo(3), 0)), "flo:3");
  t.is(show(makeRect(3, flo(0))), "cpx:(flo:3 flo:0)");
  t.is(show(makeRect(1, flo(2))), "cpx:(flo:1 flo:2)");
  t.is(show(makePolar(2, 0)), "fix:2");
  for (const z of [makeRect(1, 2), makeRect(1, flo(2)), makeRect(rat(1, 3), 2n ** 70n)]) t.true(canonical(z), show(z));
});

test("exact arithmetic on rational parts", (t) => {
  const a = makeRect(1, 2); // 1+2i
  const b = makeRect(3, -1); // 3-i
  t.is(show(add(a, b)), "cpx:(fix:4 fix:1)"); // 4+i
  t.is(show(add(a, makeRect(0, -2))), "fix:1"); // the imaginary parts cancel: a real
  t.is(show(sub(a, b)), "cpx:(fix:-2 fix:3)");
  t.is(show(mul(a, b)), "cpx:(fix:5 fix:5)"); // (1+2i)(3−i) = 3 − i + 6i − 2i² = 5+5i
  t.is(show(mul(makeRect(0, 1), makeRect(0, 1))), "fix:-1"); // i² = −1
  t.is(show(div(a, b)), "cpx:(rat:1/10 rat:7/10)"); // (1+2i)(3+i)/10 = (1+7i)/10
  t.is(show(div(1, makeRect(0, 1))), "cpx:(fix:0 fix:-1)"); // 1/i = −i
  t.is(show(add(a, flo(0.5))), "cpx:(flo:1.5 flo:2)");
  t.true(numEq(a, makeRect(1, 2)));
  t.false(numEq(a, 1));
  t.true(numEq(makeRect(1, 2), makeRect(flo(1), flo(2))));
});

test("exact and inexact convert both parts, and round-trip", (t) => {
  const z = makeRect(rat(1, 2), -3) as unknown as Compnum;
  const i = cInexact(z);
  t.is(show(i), "cpx:(flo:0.5 flo:-3)");
  t.is(show(cExact(i as unknown as Compnum, "exact")), "cpx:(rat:1/2 fix:-3)");
  t.is(show(cExact(makeRect(flo(2), flo(0)) as unknown as Compnum, "exact")), "fix:2"); // 2.0+0.0i ⇒ 2
  // An infinite or NaN part has no exact value: a range error that says which part.
  const e = raised(() => toExact(makeRect(flo(1), flo(Infinity))));
  t.is(e?.kind, "range");
  t.is(e?.message, "bad argument #1 to 'exact' (its imaginary part +inf.0 has no exact representation)");
  t.regex(raised(() => toExact(makeRect(flo(NaN), flo(1))))?.message ?? "", /its real part \+nan\.0 has no exact/);
});

/** A real of any kind: fixnum, bigint, ratio, or (finite or not) flonum. */
const realArb = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map((b) => parseNumber(b.toString()) as SNumber),
  fc.tuple(fc.integer({ min: -999, max: 999 }), fc.integer({ min: 1, max: 999 })).map(([n, d]) => div(n, d)),
  fc.double().map((v) => flo(v)),
);

test("number->string then string->number gives back the same complex number, in radixes 2, 8, 10, 16", (t) => {
  fc.assert(
    fc.property(realArb, realArb, fc.constantFrom(2, 8, 10, 16), (re, im, radix) => {
      const z = makeRect(re, im);
      // Flonum parts print in radixes 2/8/16 as digits "." digits, which parseNumber reads back exactly (its radix extension).
      const back = parseNumber(numberToString(z, radix), radix);
      return back !== false && show(back) === show(z);
    }),
    { numRuns: 3000 },
  );
  t.pass();
});

test("R7RS 6.2 through the evaluator: exact roots and magnitudes, Euler's formula, polar text, exactness", async (t) => {
  const { run } = makeInterp();
  const all = async (src: string) => run(`(import (scheme base) (scheme complex) (scheme inexact)) (list ${src})`);
  // sqrt of an exact negative square is exact: +2i, as (sqrt -1) is +i.
  t.is(await all("(sqrt -4) (exact? (sqrt -4)) (sqrt -1)"), "(+2i #t +i)");
  // |3+4i| = sqrt(9+16) = 5, exact since 25 is an exact square; |−5| = 5.
  t.is(await all("(magnitude 3+4i) (exact? (magnitude 3+4i)) (magnitude -5)"), "(5 #t 5)");
  // e^(iπ) = cos π + i sin π: −1 and the double sin(π), about 1.2e-16.
  t.is(await all("(real-part (exp +3.141592653589793i))"), "(-1.0)");
  t.true(Math.abs(Number(JSON.parse(await run("(imag-part (exp +3.141592653589793i))")))) < 1e-15);
  // Magnitude 1 at an exact angle 0 is the exact 1; i·i = −1, exact.
  t.is(await all('(string->number "1@0") (exact? 1+2i) (* +i +i) (real? 1+0i) (real? 1+0.0i)'), "(1 #t -1 #t #f)");
  t.is(await all("(make-rectangular 1 2) (real-part 1+2i) (imag-part 1+2i) (/ 1+2i 3-i) (exact 1.5-2.5i)"), "(1+2i 1 2 1/10+7/10i 3/2-5/2i)");
  t.is(await all('(number->string 1+2i 2) (inexact 1/2+i) (angle -1)'), `("1+10i" 0.5+1.0i ${Math.PI})`);
  // Ordering is for reals only: the error names the procedure and the argument.
  await t.throwsAsync(run("(< 1+i 2)"), { message: /'<' \(real number expected, got 1\+i\)/ });
});
