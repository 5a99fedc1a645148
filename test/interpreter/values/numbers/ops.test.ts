// The hot binary operations: fixnum fast paths against a bigint reference, overflow, contagion, exact comparison, integer division.
import test from "ava";
import fc from "fast-check";
import {
  add,
  sub,
  mul,
  div,
  neg,
  numEq,
  lt,
  le,
  gt,
  ge,
  quotient,
  remainder,
  modulo,
  floorDiv,
  floorRem,
  truncDiv,
  truncRem,
  floorDivRem,
  truncDivRem,
  toInexact,
} from "../../../../interpreter/values/numbers/arith.js";
import { Ratnum, type SNumber } from "../../../../interpreter/values/numbers/repr.js";
import { show, rat, flo, raised, canonical } from "./show.js";

const MAX = Number.MAX_SAFE_INTEGER;
const BMAX = BigInt(MAX);

/** A bigint in canonical form, computed independently of the code under test. */
function canon(b: bigint): number | bigint {
  return b >= -BMAX && b <= BMAX ? Number(b) : b;
}

function big(x: number | bigint): bigint {
  return typeof x === "bigint" ? x : BigInt(x);
}

/** Exact integers concentrated around ±2^53, where fixnums overflow into bigints, plus some small ones. */
const edgeInt: fc.Arbitrary<number | bigint> = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  fc.integer({ min: MAX - 2000, max: MAX }),
  fc.integer({ min: -MAX, max: -MAX + 2000 }),
  fc.integer({ min: -MAX, max: MAX }),
  fc.bigInt({ min: BMAX - 3000n, max: BMAX + 3000n }).map(canon),
  fc.bigInt({ min: -BMAX - 3000n, max: -BMAX + 3000n }).map(canon),
  fc.bigInt({ min: -(2n ** 120n), max: 2n ** 120n }).map(canon),
);

test("add, sub and mul agree with bigint arithmetic and return canonical integers", (t) => {
  fc.assert(
    fc.property(edgeInt, edgeInt, (a, b) => {
      const cases: [SNumber, bigint][] = [
        [add(a, b), big(a) + big(b)],
        [sub(a, b), big(a) - big(b)],
        [mul(a, b), big(a) * big(b)],
        [neg(a), -big(a)],
      ];
      for (const [got, want] of cases) {
        if (!canonical(got) || show(got) !== show(canon(want))) return false;
      }
      return true;
    }),
    { numRuns: 3000 },
  );
  t.pass();
});

test("fixnum results cross into bigints exactly at 2^53", (t) => {
  t.is(show(add(MAX, 0)), `fix:${MAX}`);
  t.is(show(add(MAX, 1)), "big:9007199254740992");
  t.is(show(add(9007199254740992n, 1)), "big:9007199254740993");
  t.is(show(sub(9007199254740993n, 9007199254740992n)), "fix:1");
  t.is(show(sub(-MAX, 1)), "big:-9007199254740992");
  t.is(show(mul(4294967296, 4294967296)), "big:18446744073709551616");
  t.is(show(mul(99999999999, 99999999999)), "big:9999999999800000000001");
  t.is(show(add(18446744073709551615n, 1)), "big:18446744073709551616");
  t.is(show(neg(-MAX)), `fix:${MAX}`);
});

test("a fixnum result is never -0", (t) => {
  t.is(show(mul(0, -5)), "fix:0");
  t.is(show(mul(-5, 0)), "fix:0");
  t.is(show(neg(0)), "fix:0");
  t.is(show(sub(0, 0)), "fix:0");
  t.is(show(div(0, -5)), "fix:0");
  t.is(show(quotient(0, -5)), "fix:0");
  t.is(show(quotient(3, -5)), "fix:0");
  t.is(show(remainder(-4, 2)), "fix:0");
  t.is(show(modulo(-4, 2)), "fix:0");
  t.is(show(truncRem(-6, 3)), "fix:0");
  t.is(show(floorDiv(0, -3)), "fix:0");
  t.is(show(floorRem(-6, -3)), "fix:0");
});

test("exact rationals are normalised, and integral results are integers", (t) => {
  t.is(show(add(rat(1, 2), rat(1, 3))), "rat:5/6");
  t.is(show(add(rat(1, 3), rat(2, 3))), "fix:1");
  t.is(show(mul(rat(2, 3), rat(3, 2))), "fix:1");
  t.is(show(mul(rat(1, 2), 4)), "fix:2");
  t.is(show(sub(rat(1, 2), rat(1, 2))), "fix:0");
  t.is(show(neg(rat(-7, 2))), "rat:7/2");
  t.is(show(mul(rat(1, 10n ** 12n), rat(1, 10n ** 12n))), `rat:1/${10n ** 24n}`);
  t.is(show(div(10n ** 20n, 10n ** 22n)), "rat:1/100");
});

test("exact division gives rationals in lowest terms whose product with the divisor is the dividend", (t) => {
  const nonZero = edgeInt.filter((x) => x !== 0);
  fc.assert(
    fc.property(edgeInt, nonZero, (a, b) => {
      const q = div(a, b);
      if (!canonical(q)) return false;
      if (q instanceof Ratnum) {
        // q = n/d with d > 1, gcd(n, d) = 1, and n·b = a·d
        let x = q.num < 0n ? -q.num : q.num;
        let y = q.den;
        while (y !== 0n) [x, y] = [y, x % y];
        return x === 1n && q.num * big(b) === big(a) * q.den;
      }
      return big(q as number | bigint) * big(b) === big(a);
    }),
    { numRuns: 2000 },
  );
  t.is(show(div(6, 4)), "rat:3/2");
  t.is(show(div(6, 3)), "fix:2");
  t.is(show(div(1, 3)), "rat:1/3");
  t.is(show(div(-MAX, -1)), `fix:${MAX}`);
  t.is(show(div(rat(1, 2), rat(-1, 4))), "fix:-2");
});

test("an inexact operand makes the result inexact (IEEE arithmetic)", (t) => {
  t.is(show(add(1, flo(0.5))), "flo:1.5");
  t.is(show(add(rat(1, 2), flo(0.5))), "flo:1");
  t.is(show(mul(2, flo(0.5))), "flo:1");
  t.is(show(add(flo(0.1), flo(0.2))), "flo:0.30000000000000004");
  t.is(show(div(flo(1), 4)), "flo:0.25");
  t.is(show(div(1, flo(0))), "flo:Infinity");
  t.is(show(div(-1, flo(0))), "flo:-Infinity");
  t.is(show(div(flo(0), flo(0))), "flo:NaN");
  t.is(show(add(flo(Infinity), 1)), "flo:Infinity");
  t.is(show(sub(flo(Infinity), flo(Infinity))), "flo:NaN");
  t.is(show(mul(flo(1e308), flo(10))), "flo:Infinity");
  t.is(show(neg(flo(0))), "flo:-0");
  // The documented choice: an exact zero factor does not make the product exact.
  t.is(show(mul(0, flo(1.5))), "flo:0");
  t.is(show(mul(0, flo(Infinity))), "flo:NaN");
  // A bigint operand is rounded once: 2^64 + 1 is not representable, 2^64 is.
  t.is(show(add(2n ** 64n + 1n, flo(0))), "flo:18446744073709552000");
});

test("dividing by an exact zero is a range error, whatever the dividend", (t) => {
  for (const a of [1, flo(1), rat(1, 2), 0, 2n ** 70n]) {
    const c = raised(() => div(a, 0));
    t.is(c?.kind, "range");
    t.is(c?.message, "division by zero");
    t.is(c?.who, "/");
  }
  t.is(raised(() => quotient(1, 0))?.who, "quotient");
  t.is(raised(() => modulo(2n ** 70n, 0))?.kind, "range");
  t.is(raised(() => floorDivRem(5, flo(0)))?.who, "floor/");
  t.is(raised(() => truncRem(flo(5), 0))?.kind, "range");
});

test("a non-number argument is a type error naming the procedure and the argument", (t) => {
  const c = raised(() => add(1, "x"));
  t.is(c?.kind, "type");
  t.is(c?.who, "+");
  t.true(c?.message.startsWith("bad argument #2 to '+' (number expected"));
  t.true(raised(() => sub("x", 1))?.message.startsWith("bad argument #1 to '-'"));
  t.true(raised(() => neg(true))?.message.startsWith("bad argument #1 to '-'"));
  t.true(raised(() => mul(flo(1), null))?.message.startsWith("bad argument #2 to '*'"));
  t.true(raised(() => div(rat(1, 2), "y"))?.message.startsWith("bad argument #2 to '/'"));
  t.true(raised(() => lt("a", 1))?.message.startsWith("bad argument #1 to '<' (real number expected"));
  t.true(raised(() => numEq(1, "a"))?.message.startsWith("bad argument #2 to '=' (number expected"));
  t.true(raised(() => quotient(flo(1.5), 2))?.message.startsWith("bad argument #1 to 'quotient' (integer expected"));
  t.true(raised(() => modulo(7, rat(1, 2)))?.message.startsWith("bad argument #2 to 'modulo' (integer expected"));
});

test("comparisons agree with bigint comparison on exact integers", (t) => {
  fc.assert(
    fc.property(edgeInt, edgeInt, (a, b) => {
      const x = big(a);
      const y = big(b);
      return numEq(a, b) === (x === y) && lt(a, b) === x < y && le(a, b) === x <= y && gt(a, b) === x > y && ge(a, b) === x >= y;
    }),
    { numRuns: 2000 },
  );
  t.pass();
});

test("comparing exact and inexact numbers is exact, hence transitive", (t) => {
  // 2^53 + 1 is not a double: converting it to inexact would make it = 2^53.
  const two53 = flo(9007199254740992);
  t.false(numEq(9007199254740993n, two53));
  t.true(gt(9007199254740993n, two53));
  t.true(lt(two53, 9007199254740993n));
  // Bawden's example: a = 2^1000 − 1, b = 2^1000 as a flonum, c = 2^1000 + 1.
  const p = 2n ** 1000n;
  const b = toInexact(p);
  t.true(numEq(p, b));
  t.false(numEq(p - 1n, b));
  t.false(numEq(b, p + 1n));
  t.true(lt(p - 1n, b) && lt(b, p + 1n));
  // Ratios against flonums.
  t.true(numEq(rat(1, 2), flo(0.5)));
  t.true(lt(rat(1, 3), flo(0.34)));
  t.false(numEq(rat(1, 10), flo(0.1))); // 0.1 is not exactly 1/10
  t.true(lt(rat(1, 10), flo(0.1))); // 0.1 is 0.1000000000000000055…
  t.true(numEq(2n ** 100n, flo(2 ** 100)));
  t.true(numEq(1, flo(1)));
  // Infinities are beyond every exact number.
  t.true(lt(10n ** 400n, flo(Infinity)));
  t.true(gt(-(10n ** 400n), flo(-Infinity)));
  t.true(lt(flo(-Infinity), flo(-1e308)));
});

test("bigint against flonum comparison matches integer reasoning", (t) => {
  const wide = fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(canon);
  const dbl = fc.double({ min: -(2 ** 80), max: 2 ** 80, noNaN: true });
  fc.assert(
    fc.property(wide, dbl, (a, v) => {
      const x = big(a);
      // For an integer x: x < v ⇔ x < ⌈v⌉ and x = v ⇔ v is the integer x.
      const ceil = BigInt(Math.ceil(v));
      const eq = Number.isInteger(v) && BigInt(v) === x;
      return lt(a, flo(v)) === x < ceil && numEq(a, flo(v)) === eq && gt(a, flo(v)) === (!eq && !(x < ceil));
    }),
    { numRuns: 2000 },
  );
  t.pass();
});

test("NaN is unordered: every comparison with it is false", (t) => {
  const nan = flo(NaN);
  for (const x of [1, flo(1), nan, rat(1, 2), 2n ** 80n]) {
    t.false(numEq(nan, x));
    t.false(lt(nan, x));
    t.false(le(x, nan));
    t.false(gt(nan, x));
    t.false(ge(x, nan));
  }
});

test("integer division follows R7RS's floor/ and truncate/ examples", (t) => {
  t.is(show(floorDivRem(5, 2)), "[fix:2 fix:1]");
  t.is(show(floorDivRem(-5, 2)), "[fix:-3 fix:1]");
  t.is(show(floorDivRem(5, -2)), "[fix:-3 fix:-1]");
  t.is(show(floorDivRem(-5, -2)), "[fix:2 fix:-1]");
  t.is(show(truncDivRem(5, 2)), "[fix:2 fix:1]");
  t.is(show(truncDivRem(-5, 2)), "[fix:-2 fix:-1]");
  t.is(show(truncDivRem(5, -2)), "[fix:-2 fix:1]");
  t.is(show(truncDivRem(-5, -2)), "[fix:2 fix:-1]");
  t.is(show(truncDivRem(flo(-5), 2)), "[flo:-2 flo:-1]");
  t.is(show([modulo(13, 4), remainder(13, 4)]), "[fix:1 fix:1]");
  t.is(show([modulo(-13, 4), remainder(-13, 4)]), "[fix:3 fix:-1]");
  t.is(show([modulo(13, -4), remainder(13, -4)]), "[fix:-3 fix:1]");
  t.is(show([modulo(-13, -4), remainder(-13, -4)]), "[fix:-1 fix:-1]");
  t.is(show(remainder(-13, flo(-4))), "flo:-1");
  t.is(show(quotient(17, -5)), "fix:-3");
  // 10^20 = 7 · 14285714285714285714 + 2
  t.is(show(floorDivRem(-(10n ** 20n), 7)), "[big:-14285714285714285715 fix:5]");
  t.is(show(truncDivRem(-(10n ** 20n), 7)), "[big:-14285714285714285714 fix:-2]");
  t.is(show(quotient(10n ** 30n, 10n ** 12n)), "big:1000000000000000000");
});

test("floor division of fixnums near -2^53 does not round (the exact quotient times the divisor leaves the safe range)", (t) => {
  // ⌊(−2^53 + 1)/3⌋ · 3 = −2^53 − 2, which a double cannot hold.
  const a = -MAX;
  t.is(show(floorDiv(a, 3)), show(canon(-3002399751580331n)));
  t.is(show(floorRem(a, 3)), "fix:2");
  t.is(show(floorDivRem(a, 3)), "[fix:-3002399751580331 fix:2]");
});

/** ⌊a/b⌋ and the matching remainder, by bigint reasoning written for the test. */
function refFloor(a: bigint, b: bigint): [bigint, bigint] {
  let q = a / b;
  if (q * b !== a && a < 0n !== b < 0n) q -= 1n;
  return [q, a - q * b];
}

test("fast and slow integer division agree with the definitions on random integers", (t) => {
  const nonZero = edgeInt.filter((x) => x !== 0);
  fc.assert(
    fc.property(edgeInt, nonZero, (a, b) => {
      const x = big(a);
      const y = big(b);
      const [fq, fr] = refFloor(x, y);
      const tq = x / y;
      const tr = x % y;
      const want = [fq, fr, tq, tr, tq, tr, fr].map(canon).map(show).join(" ");
      const got = [floorDiv(a, b), floorRem(a, b), truncDiv(a, b), truncRem(a, b), quotient(a, b), remainder(a, b), modulo(a, b)];
      return got.every(canonical) && got.map(show).join(" ") === want;
    }),
    { numRuns: 3000 },
  );
  t.pass();
});

test("floor/ and truncate/ satisfy n1 = n2·q + r with the remainder's sign rules", (t) => {
  const nonZero = edgeInt.filter((x) => x !== 0);
  fc.assert(
    fc.property(edgeInt, nonZero, (a, b) => {
      const x = big(a);
      const y = big(b);
      const abs = (v: bigint) => (v < 0n ? -v : v);
      const [fq, fr] = floorDivRem(a, b).map((v) => big(v as number | bigint));
      const [tq, tr] = truncDivRem(a, b).map((v) => big(v as number | bigint));
      const floorOk = fq! * y + fr! === x && abs(fr!) < abs(y) && (fr === 0n || fr! < 0n === y < 0n);
      const truncOk = tq! * y + tr! === x && abs(tr!) < abs(y) && (tr === 0n || tr! < 0n === x < 0n);
      return floorOk && truncOk;
    }),
    { numRuns: 2000 },
  );
  t.pass();
});
