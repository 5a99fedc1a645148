// Number syntax: parseNumber (R7RS §7.1.1) and numberToString, including round trips.
import test from "ava";
import fc from "fast-check";
import { parseNumber, ratioToDouble } from "../../../../interpreter/values/numbers/parse.js";
import { numberToString } from "../../../../interpreter/values/numbers/format.js";
import { Compnum, Flonum, Ratnum, flo, floValue, isFlonum, type SNumber } from "../../../../interpreter/values/numbers/repr.js";

/** A readable tag for a parse result, so assertions compare exactness and value. */
function show(x: SNumber | false): string {
  if (x === false) return "false";
  const z: unknown = x;
  if (z instanceof Compnum) return `cpx:(${show(z.re)} ${show(z.im)})`;
  if (typeof x === "number" && Number.isInteger(x)) return `fix:${x}`;
  if (typeof x === "bigint") return `big:${x}`;
  if (x instanceof Ratnum) return `rat:${x.num}/${x.den}`;
  // A flonum: bare when non-integral, boxed when integral (ADR 0046); a boxed non-integral one is a bug.
  if (x instanceof Flonum && !Number.isInteger(x.v)) return `boxed-non-integral:${x.v}`;
  const v = floValue(x as Flonum | number);
  return `flo:${Object.is(v, -0) ? "-0" : String(v)}`;
}

const cases: [string, number, string][] = [
  ["250", 10, "fix:250"],
  ["250", 16, "fix:592"],
  ["ff", 16, "fix:255"],
  ["FF", 16, "fix:255"],
  ["12", 8, "fix:10"],
  ["-1011", 2, "fix:-11"],
  ["2", 2, "false"],
  ["2.5e2", 10, "flo:250"],
  ["#xff", 10, "fix:255"],
  ["#X1f", 10, "fix:31"],
  ["#x-1A", 10, "fix:-26"],
  ["#b101", 10, "fix:5"],
  ["#B-101", 10, "fix:-5"],
  ["#o17", 10, "fix:15"],
  ["#d10", 16, "fix:10"],
  ["1/2", 10, "rat:1/2"],
  ["-4/6", 10, "rat:-2/3"],
  ["6/3", 10, "fix:2"],
  ["#x1/F", 10, "rat:1/15"],
  [".5", 10, "flo:0.5"],
  ["+.5", 10, "flo:0.5"],
  ["1.", 10, "flo:1"],
  ["-0.0", 10, "flo:-0"],
  ["-0", 10, "fix:0"],
  ["+5", 10, "fix:5"],
  ["1e2", 10, "flo:100"],
  ["1E2", 10, "flo:100"],
  ["12.5e1", 10, "flo:125"],
  // R7RS §6.2.5: the precision markers s f d l may stand for e.
  ["1s2", 10, "flo:100"],
  ["1F2", 10, "flo:100"],
  ["1.5d1", 10, "flo:15"],
  ["-1L-2", 10, "flo:-0.01"],
  ["#e1.5d1", 10, "fix:15"],
  ["-12.5e1", 10, "flo:-125"],
  ["1e-2", 10, "flo:0.01"],
  ["1e400", 10, "flo:Infinity"],
  ["1e-400", 10, "flo:0"],
  ["#e1.5", 10, "rat:3/2"],
  ["#e1e3", 10, "fix:1000"],
  ["#e1.2e-1", 10, "rat:3/25"],
  ["#e-0.5", 10, "rat:-1/2"],
  ["#e#x10", 10, "fix:16"],
  ["#x#e10", 10, "fix:16"],
  ["#x#i10", 10, "flo:16"],
  ["#i3/4", 10, "flo:0.75"],
  ["#i1/2", 10, "flo:0.5"],
  ["#i5", 10, "flo:5"],
  ["+inf.0", 10, "flo:Infinity"],
  ["-inf.0", 10, "flo:-Infinity"],
  ["+INF.0", 10, "flo:Infinity"],
  ["+nan.0", 10, "flo:NaN"],
  ["-nan.0", 10, "flo:NaN"],
  ["#e+inf.0", 10, "false"],
  ["inf.0", 10, "false"],
  ["123456789012345678901234567890", 10, "big:123456789012345678901234567890"],
  ["9007199254740991", 10, "fix:9007199254740991"],
  ["9007199254740992", 10, "big:9007199254740992"],
  ["-9007199254740992", 10, "big:-9007199254740992"],
  ["#x10000000000000000", 10, "big:18446744073709551616"],
  ["z", 36, "fix:35"],
  ["10", 3, "fix:3"],
  // Not numbers.
  ["", 10, "false"],
  ["abc", 10, "false"],
  ["- 5", 10, "false"],
  [" 5", 10, "false"],
  ["5 ", 10, "false"],
  ["1.2.3", 10, "false"],
  ["12a", 10, "false"],
  ["+", 10, "false"],
  ["-", 10, "false"],
  [".", 10, "false"],
  ["...", 10, "false"],
  ["1+", 10, "false"],
  ["+i", 10, "cpx:(fix:0 fix:1)"],
  ["1+2i", 10, "cpx:(fix:1 fix:2)"],
  ["1+2", 10, "false"],
  ["i", 10, "false"],
  ["1i", 10, "false"],
  ["1+2i3", 10, "false"],
  ["1@", 10, "false"],
  ["@1", 10, "false"],
  ["1/0", 10, "false"],
  ["1/", 10, "false"],
  ["/2", 10, "false"],
  ["1/-2", 10, "false"],
  ["1/2.5", 10, "false"],
  ["1e", 10, "false"],
  ["1e+", 10, "false"],
  ["e5", 10, "false"],
  [".e5", 10, "false"],
  ["#", 10, "false"],
  ["#x", 10, "false"],
  ["#e#e1", 10, "false"],
  ["#x#b1", 10, "false"],
  ["#q1", 10, "false"],
  ["#xa.b.c", 10, "false"],
  ["#x1e2", 10, "fix:482"], // e is a hex digit, not an exponent
  ["#b1e1", 10, "false"],
  ["#xd", 10, "fix:13"], // d is a hex digit, not a precision marker
  ["#b1d1", 10, "false"],
  ["1d", 10, "false"],
  ["1x2", 10, "false"],
];

for (const [text, radix, expected] of cases) {
  test(`parseNumber(${JSON.stringify(text)}, ${radix}) is ${expected}`, (t) => {
    t.is(show(parseNumber(text, radix)), expected);
  });
}

test("exact decimals are computed from the digits, not through a double", (t) => {
  t.is(show(parseNumber("#e0.1")), "rat:1/10");
  t.is(show(parseNumber("#e1.23456789012345678901234567890")), "rat:12345678901234567890123456789/10000000000000000000000000000");
  const big = parseNumber("#e1e400");
  t.is(typeof big, "bigint");
  t.is(big, 10n ** 400n);
  t.is(show(parseNumber("#e1e-3")), "rat:1/1000");
});

test("absurd exponents never hang: inexact ones saturate, exact ones are refused", (t) => {
  t.is(show(parseNumber("1e99999999999999999999")), "flo:Infinity");
  t.is(show(parseNumber("1e-99999999999999999999")), "flo:0");
  t.is(parseNumber("#e1e99999999999999999999"), false);
  t.is(parseNumber("#e1e1000000"), false);
  t.is(show(parseNumber("#e0e99999999999999999999")), "fix:0");
});

test("#i rationals are correctly rounded even when numerator and denominator exceed doubles", (t) => {
  // 1/3 scaled by 10^400 on both sides: the double nearest 1/3 is 1/3 in JS.
  const r = parseNumber("#i" + "1" + "0".repeat(400) + "/" + "3" + "0".repeat(400));
  t.true(isFlonum(r) && floValue(r) === 1 / 3);
});

test("ratioToDouble rounds to nearest, ties to even, through subnormals and overflow", (t) => {
  t.is(ratioToDouble(1n, 3n), 1 / 3);
  t.is(ratioToDouble(-1n, 10n), -0.1);
  t.is(ratioToDouble(1n, 2n ** 1074n), 5e-324); // smallest subnormal
  t.is(ratioToDouble(1n, 2n ** 1075n), 0); // half of it: tie to even (0)
  t.is(ratioToDouble(3n, 2n ** 1075n), 1e-323); // 1.5 ulp: tie to even (2 ulp)
  t.is(ratioToDouble(2n ** 1024n - 2n ** 970n, 1n), Infinity); // halfway to 2^1024
  t.is(ratioToDouble(2n ** 1024n - 2n ** 970n - 1n, 1n), Number.MAX_VALUE);
  t.is(ratioToDouble(2n ** 53n + 1n, 1n), 2 ** 53); // tie to even
  t.is(ratioToDouble(2n ** 53n + 3n, 1n), 2 ** 53 + 4);
});

test("ratioToDouble agrees with IEEE division when both operands are exact doubles", (t) => {
  fc.assert(
    fc.property(fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }), fc.integer({ min: 1, max: 2 ** 53 - 1 }), (a, b) => {
      return Object.is(ratioToDouble(BigInt(a), BigInt(b)), a / b) || (a === 0 && ratioToDouble(0n, BigInt(b)) === 0);
    }),
  );
  t.pass();
});

test("numberToString of exact numbers in radixes 2, 3, 8, 10, 16", (t) => {
  t.is(numberToString(255, 16), "ff");
  t.is(numberToString(255, 2), "11111111");
  t.is(numberToString(-255, 8), "-377");
  t.is(numberToString(new Ratnum(1n, 3n), 3), "1/10");
  t.is(numberToString(new Ratnum(-3n, 4n)), "-3/4");
  t.is(numberToString(2n ** 100n, 16), "1" + "0".repeat(25));
  t.is(numberToString(-(2n ** 70n), 2), "-1" + "0".repeat(70));
  t.is(numberToString(2n ** 70n), "1180591620717411303424");
  t.is(numberToString(0), "0");
});

test("numberToString of flonums is short and visibly inexact", (t) => {
  const cases: [number, string][] = [
    [1.5, "1.5"],
    [3, "3.0"],
    [-0, "-0.0"],
    [0, "0.0"],
    [0.1, "0.1"],
    [-0.25, "-0.25"],
    [100, "100.0"],
    [1e21, "1.0e+21"],
    [1.7976931348623157e308, "1.7976931348623157e+308"],
    [-1.5e300, "-1.5e+300"],
    [1.5e-7, "1.5e-7"],
    [Infinity, "+inf.0"],
    [-Infinity, "-inf.0"],
    [NaN, "+nan.0"],
    [5e-324, "5.0e-324"],
    [2.5e-323, "2.5e-323"],
  ];
  for (const [v, s] of cases) t.is(numberToString(flo(v)), s, String(v));
});

test("flonums in other radixes carry a point and read back in the same radix", (t) => {
  t.is(numberToString(flo(255), 16), "ff.0");
  t.is(numberToString(flo(0.5), 2), "0.1");
  t.is(show(parseNumber("ff.0", 16)), "flo:255");
  t.is(show(parseNumber("0.1", 2)), "flo:0.5");
  t.is(show(parseNumber("#e#x1.8")), "rat:3/2");
});

test("every double reads back from its radix-10 text (and from radix 2, 8, 16)", (t) => {
  fc.assert(
    fc.property(fc.double(), fc.constantFrom(10, 10, 2, 8, 16), (v, radix) => {
      const s = numberToString(flo(v), radix);
      const back = parseNumber(s, radix);
      if (!isFlonum(back)) return false;
      return Number.isNaN(v) ? Number.isNaN(floValue(back)) : Object.is(floValue(back), v);
    }),
    { numRuns: 5000 },
  );
  t.pass();
});

test("exact integers and rationals read back from their text in any radix", (t) => {
  fc.assert(
    fc.property(
      fc.bigInt({ min: -(2n ** 200n), max: 2n ** 200n }),
      fc.bigInt({ min: 1n, max: 2n ** 100n }),
      fc.constantFrom(2, 3, 8, 10, 16, 36),
      (num, den, radix) => {
        for (const x of [num, new Ratnum(num, den)] as SNumber[]) {
          const s = numberToString(x, radix);
          const back = parseNumber(s, radix);
          if (back === false) return false;
          // Compare as exact fractions: a*d' === a'*d.
          const [n1, d1] = typeof x === "bigint" ? [x, 1n] : [(x as Ratnum).num, (x as Ratnum).den];
          const [n2, d2] = typeof back === "bigint" ? [back, 1n] : typeof back === "number" ? [BigInt(back), 1n] : back instanceof Ratnum ? [back.num, back.den] : [0n, 0n];
          if (d2 === 0n || n1 * d2 !== n2 * d1) return false;
        }
        return true;
      },
    ),
  );
  t.pass();
});

test("parseNumber never throws on random text", (t) => {
  fc.assert(
    fc.property(fc.stringMatching(/^[#xXbBoOdDeEiI0-9a-fA-F+\-./ni]{0,24}$/), fc.constantFrom(2, 8, 10, 16), (s, radix) => {
      const r = parseNumber(s, radix);
      const real = (x: unknown) => typeof x === "number" || typeof x === "bigint" || x instanceof Ratnum || x instanceof Flonum;
      // A complex result has two real parts and never an exact 0 imaginary one.
      return r === false || real(r) || ((r as unknown) instanceof Compnum && real((r as unknown as Compnum).re) && real((r as unknown as Compnum).im) && (r as unknown as Compnum).im !== 0);
    }),
    { numRuns: 5000 },
  );
  t.pass();
});

test("decimal text agrees with JS for plain decimals", (t) => {
  fc.assert(
    fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (v) => {
      const s = v.toExponential(20);
      const r = parseNumber(s);
      return isFlonum(r) && Object.is(floValue(r), Number(s));
    }),
  );
  t.pass();
});
