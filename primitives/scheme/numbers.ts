// The procedures of R7RS §6.2 (numbers), (scheme complex) included, as a primitive table.
//
// Non-real complex numbers are Compnum values (ADR 0039); real?, <, floor and
// the other real-only procedures refuse them with "real number" type errors.

import {
  flo,
  isFlonum,
  MString,
  T,
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
  gcd,
  lcm,
  isOdd,
  isEven,
  exactIntegerSqrt,
  numFloor,
  numCeiling,
  numRound,
  numTruncate,
  numerator,
  denominator,
  rationalize,
  numExp,
  numLog,
  numSin,
  numCos,
  numTan,
  numAsin,
  numAcos,
  numAtan,
  numSqrt,
  numExpt,
  isInteger,
  isRational,
  isNan,
  isInfinite,
  isFiniteNum,
  isZero,
  isPositive,
  isNegative,
  isNumber,
  isReal,
  isInexact,
  isExactInteger,
  makeRect,
  makePolar,
  realPart,
  imagPart,
  cMagnitude,
  cAngle,
  Compnum,
  numAbs,
  numMax,
  numMin,
  square,
  toExact,
  toInexact,
  makeValues,
  numberToString,
  parseNumber,
  rangeError,
  type ArgType,
  type ProcSpec,
  type SNumber,
} from "../../interpreter/api.js";

const rational: ArgType = { name: "rational number", test: isRational };
const naturalInteger: ArgType = {
  name: "exact non-negative integer",
  test: (x) => (typeof x === "number" && Number.isInteger(x) && x >= 0) || (typeof x === "bigint" && x >= 0n),
};

/** A comparison over one or more arguments, true when `rel` holds for each adjacent pair (so it is transitive). */
function chain(rel: (a: unknown, b: unknown) => boolean): (z1: SNumber, zs: SNumber[]) => boolean {
  return (z1, zs) => {
    let prev = z1;
    for (const z of zs) {
      if (!rel(prev, z)) return false;
      prev = z;
    }
    return true;
  };
}

/** Checks a radix argument: any base from 2 to 36 (R7RS requires 2, 8, 10 and 16). */
function radixArg(who: string, radix: unknown): number {
  if (radix === undefined) return 10;
  if (typeof radix !== "number" || !Number.isInteger(radix) || radix < 2 || radix > 36) return rangeError(who, 2, "radix must be between 2 and 36", radix);
  return radix;
}

export const numberPrimitives: ProcSpec[] = [
  // Type predicates: every number is complex; the non-real ones are not real.
  { name: "number?", params: ["obj"], doc: "True when obj is a number.", impl: (x) => isNumber(x) },
  { name: "complex?", params: ["obj"], doc: "True when obj is a number, real or not (`(complex? 1+2i)` is #t).", impl: (x) => isNumber(x) },
  { name: "real?", params: ["obj"], doc: "True when obj is a real number: `(real? 1+2i)` is #f, `(real? 1.0)` is #t.", impl: (x) => isReal(x) },
  {
    name: "rational?",
    params: ["obj"],
    doc: "True when obj is a rational number: any exact number, or a finite flonum.",
    impl: (x) => isRational(x),
  },
  {
    name: "integer?",
    params: ["obj"],
    doc: "True when obj is an integer, exact or inexact: `(integer? 2.0)` is #t.",
    impl: (x) => isInteger(x),
  },
  { name: "exact?", params: ["z"], types: [T.number], doc: "True when z is exact (an integer, a ratio, or a complex with exact parts).", impl: (z) => !isInexact(z) },
  { name: "inexact?", params: ["z"], types: [T.number], doc: "True when z is inexact (a flonum, or a complex with flonum parts).", impl: (z) => isInexact(z) },
  { name: "exact-integer?", params: ["obj"], doc: "True when obj is an exact integer.", impl: (x) => isExactInteger(x) },
  { name: "finite?", params: ["z"], types: [T.number], doc: "True unless z is +inf.0, -inf.0 or +nan.0.", impl: (z) => isFiniteNum(z) },
  { name: "infinite?", params: ["z"], types: [T.number], doc: "True when z is +inf.0 or -inf.0.", impl: (z) => isInfinite(z) },
  { name: "nan?", params: ["z"], types: [T.number], doc: "True when z is +nan.0.", impl: (z) => isNan(z) },

  // Comparisons: exact, so that mixing exact and inexact arguments stays transitive.
  {
    name: "=",
    params: ["z1", "z2 ..."],
    types: [T.number, T.number],
    doc: "True when all arguments are numerically equal; exact and inexact numbers are compared exactly.",
    impl: chain(numEq),
  },
  { name: "<", params: ["x1", "x2 ..."], types: [T.real, T.real], doc: "True when the arguments are strictly increasing.", impl: chain(lt) },
  { name: ">", params: ["x1", "x2 ..."], types: [T.real, T.real], doc: "True when the arguments are strictly decreasing.", impl: chain(gt) },
  { name: "<=", params: ["x1", "x2 ..."], types: [T.real, T.real], doc: "True when the arguments are non-decreasing.", impl: chain(le) },
  { name: ">=", params: ["x1", "x2 ..."], types: [T.real, T.real], doc: "True when the arguments are non-increasing.", impl: chain(ge) },
  { name: "zero?", params: ["z"], types: [T.number], doc: "True when z is zero (0, 0.0 or -0.0).", impl: (z) => isZero(z) },
  { name: "positive?", params: ["x"], types: [T.real], doc: "True when x is greater than zero.", impl: (x) => isPositive(x) },
  { name: "negative?", params: ["x"], types: [T.real], doc: "True when x is less than zero (-0.0 is not).", impl: (x) => isNegative(x) },
  { name: "odd?", params: ["n"], types: [T.integer], doc: "True when the integer n is odd.", impl: (n) => isOdd(n) },
  { name: "even?", params: ["n"], types: [T.integer], doc: "True when the integer n is even.", impl: (n) => isEven(n) },
  {
    name: "max",
    params: ["x1", "x2 ..."],
    types: [T.real, T.real],
    doc: "The largest argument; inexact when any argument is: `(max 2.5 6)` is 6.0.",
    impl: (x1: SNumber, xs: SNumber[]) => xs.reduce(numMax, x1),
  },
  {
    name: "min",
    params: ["x1", "x2 ..."],
    types: [T.real, T.real],
    doc: "The smallest argument; inexact when any argument is.",
    impl: (x1: SNumber, xs: SNumber[]) => xs.reduce(numMin, x1),
  },

  // Arithmetic.
  {
    name: "+",
    params: ["z ..."],
    types: [T.number],
    doc: "The sum of the arguments (0 for none); exact when all arguments are exact.",
    impl: (zs: SNumber[]) => {
      let r: SNumber = 0;
      for (const z of zs) r = add(r, z);
      return r;
    },
  },
  {
    name: "*",
    params: ["z ..."],
    types: [T.number],
    doc: "The product of the arguments (1 for none); inexact when any argument is, so `(* 0 1.5)` is 0.0.",
    impl: (zs: SNumber[]) => {
      let r: SNumber = 1;
      for (const z of zs) r = mul(r, z);
      return r;
    },
  },
  {
    name: "-",
    params: ["z1", "z2 ..."],
    types: [T.number, T.number],
    doc: "With one argument its negation; otherwise z1 minus the sum of the others.",
    impl: (z1: SNumber, zs: SNumber[]) => {
      if (zs.length === 0) return neg(z1);
      let r = z1;
      for (const z of zs) r = sub(r, z);
      return r;
    },
  },
  {
    name: "/",
    params: ["z1", "z2 ..."],
    types: [T.number, T.number],
    doc: "With one argument its reciprocal; otherwise z1 divided by the others. Exact arguments give an exact result (a ratio such as 1/3); dividing by an exact zero is an error.",
    impl: (z1: SNumber, zs: SNumber[]) => {
      if (zs.length === 0) return div(1, z1);
      let r = z1;
      for (const z of zs) r = div(r, z);
      return r;
    },
  },
  { name: "abs", params: ["x"], types: [T.real], doc: "The absolute value of x.", impl: (x) => numAbs(x) },

  // Integer division.
  {
    name: "floor/",
    params: ["n1", "n2"],
    types: [T.integer, T.integer],
    doc: "Two values: the quotient rounded toward negative infinity, and the remainder, which has the sign of n2.",
    impl: (a, b) => makeValues(floorDivRem(a, b)),
  },
  {
    name: "floor-quotient",
    params: ["n1", "n2"],
    types: [T.integer, T.integer],
    doc: "The quotient of n1 by n2 rounded toward negative infinity.",
    impl: (a, b) => floorDiv(a, b),
  },
  {
    name: "floor-remainder",
    params: ["n1", "n2"],
    types: [T.integer, T.integer],
    doc: "n1 minus n2 times (floor-quotient n1 n2): it has the sign of n2.",
    impl: (a, b) => floorRem(a, b),
  },
  {
    name: "truncate/",
    params: ["n1", "n2"],
    types: [T.integer, T.integer],
    doc: "Two values: the quotient rounded toward zero, and the remainder, which has the sign of n1.",
    impl: (a, b) => makeValues(truncDivRem(a, b)),
  },
  {
    name: "truncate-quotient",
    params: ["n1", "n2"],
    types: [T.integer, T.integer],
    doc: "The quotient of n1 by n2 rounded toward zero.",
    impl: (a, b) => truncDiv(a, b),
  },
  {
    name: "truncate-remainder",
    params: ["n1", "n2"],
    types: [T.integer, T.integer],
    doc: "n1 minus n2 times (truncate-quotient n1 n2): it has the sign of n1.",
    impl: (a, b) => truncRem(a, b),
  },
  { name: "quotient", params: ["n1", "n2"], types: [T.integer, T.integer], doc: "The same as truncate-quotient.", impl: (a, b) => quotient(a, b) },
  { name: "remainder", params: ["n1", "n2"], types: [T.integer, T.integer], doc: "The same as truncate-remainder.", impl: (a, b) => remainder(a, b) },
  { name: "modulo", params: ["n1", "n2"], types: [T.integer, T.integer], doc: "The same as floor-remainder.", impl: (a, b) => modulo(a, b) },
  {
    name: "gcd",
    params: ["n ..."],
    types: [T.integer],
    doc: "The greatest common divisor of the integers, non-negative (0 for none).",
    impl: (ns: SNumber[]) => ns.reduce(gcd, 0),
  },
  {
    name: "lcm",
    params: ["n ..."],
    types: [T.integer],
    doc: "The least common multiple of the integers, non-negative (1 for none).",
    impl: (ns: SNumber[]) => ns.reduce(lcm, 1),
  },
  {
    name: "numerator",
    params: ["q"],
    types: [rational],
    doc: "The numerator of q in lowest terms; of a flonum, computed on its exact value: `(numerator 0.5)` is 1.0.",
    impl: (q) => numerator(q),
  },
  {
    name: "denominator",
    params: ["q"],
    types: [rational],
    doc: "The positive denominator of q in lowest terms (1 for integers): `(denominator 0.5)` is 2.0.",
    impl: (q) => denominator(q),
  },

  // Rounding.
  { name: "floor", params: ["x"], types: [T.real], doc: "The largest integer not greater than x (exact when x is).", impl: (x) => numFloor(x) },
  { name: "ceiling", params: ["x"], types: [T.real], doc: "The smallest integer not less than x.", impl: (x) => numCeiling(x) },
  { name: "truncate", params: ["x"], types: [T.real], doc: "The integer closest to x whose magnitude is not greater than that of x.", impl: (x) => numTruncate(x) },
  {
    name: "round",
    params: ["x"],
    types: [T.real],
    doc: "The integer closest to x, rounding halves to even: `(round 2.5)` is 2.0, `(round 7/2)` is 4.",
    impl: (x) => numRound(x),
  },
  {
    name: "rationalize",
    params: ["x", "y"],
    types: [T.real, T.real],
    doc: "The simplest rational number differing from x by no more than y: `(rationalize 3/10 1/10)` is 1/3.",
    impl: (x, y) => rationalize(x, y),
  },

  // (scheme inexact)
  { name: "exp", params: ["z"], types: [T.number], doc: "e raised to the power z, inexact.", impl: (z) => numExp(z) },
  {
    name: "log",
    params: ["z1", "[z2]"],
    types: [T.number, T.number],
    doc: "The natural logarithm of z1 (the principal value: `(log -1)` is about 3.14159i), or its logarithm in base z2.",
    impl: (z1, z2) => numLog(z1, z2),
  },
  { name: "sin", params: ["z"], types: [T.number], doc: "The sine of z (radians).", impl: (z) => numSin(z) },
  { name: "cos", params: ["z"], types: [T.number], doc: "The cosine of z (radians).", impl: (z) => numCos(z) },
  { name: "tan", params: ["z"], types: [T.number], doc: "The tangent of z (radians).", impl: (z) => numTan(z) },
  { name: "asin", params: ["z"], types: [T.number], doc: "The arcsine of z (outside [-1, 1], and for complex z, the principal complex value).", impl: (z) => numAsin(z) },
  { name: "acos", params: ["z"], types: [T.number], doc: "The arccosine of z (outside [-1, 1], and for complex z, the principal complex value).", impl: (z) => numAcos(z) },
  {
    name: "atan",
    params: ["z", "[x]"],
    types: [T.number, T.real],
    doc: "The arctangent of z (complex allowed); with x, the angle of the point (x, z) for real z, between -pi and pi.",
    impl: (y, x) => numAtan(y, x),
  },
  { name: "square", params: ["z"], types: [T.number], doc: "The square of z, that is z times z.", impl: (z) => square(z) },
  {
    name: "sqrt",
    params: ["z"],
    types: [T.number],
    doc: "The principal square root of z: exact for exact perfect squares (`(sqrt 1/4)` is 1/2, `(sqrt -4)` is +2i), otherwise inexact.",
    impl: (z) => numSqrt(z),
  },
  {
    name: "exact-integer-sqrt",
    params: ["k"],
    types: [naturalInteger],
    doc: "Two values s and r with k = s*s + r and s the largest such integer.",
    impl: (k) => makeValues(exactIntegerSqrt(k)),
  },
  {
    name: "expt",
    params: ["z1", "z2"],
    types: [T.number, T.number],
    doc: "z1 raised to the power z2: exact when z1 is exact and z2 an exact integer (`(expt 2 -2)` is 1/4); (expt z 0) is 1.",
    impl: (z1, z2) => numExpt(z1, z2),
  },

  // (scheme complex)
  {
    name: "make-rectangular",
    params: ["x1", "x2"],
    types: [T.real, T.real],
    doc: "The number x1 + x2·i: `(make-rectangular 1 2)` is 1+2i; an exact 0 x2 gives x1, and an inexact part makes both inexact.",
    impl: (x1, x2) => makeRect(x1, x2),
  },
  {
    name: "make-polar",
    params: ["x1", "x2"],
    types: [T.real, T.real],
    doc: "The number with magnitude x1 and angle x2 (radians), in rectangular form; inexact unless x2 is an exact 0.",
    impl: (x1, x2) => makePolar(x1, x2),
  },
  { name: "real-part", params: ["z"], types: [T.number], doc: "The real part of z.", impl: (z) => realPart(z) },
  { name: "imag-part", params: ["z"], types: [T.number], doc: "The imaginary part of z (exact 0 for a real number).", impl: (z) => imagPart(z) },
  {
    name: "magnitude",
    params: ["z"],
    types: [T.number],
    doc: "The magnitude of z: its absolute value for a real, exact for an exact complex whose magnitude is rational (`(magnitude 3+4i)` is 5).",
    impl: (z: SNumber) => ((z as unknown) instanceof Compnum ? cMagnitude(z as unknown as Compnum, numSqrt) : numAbs(z)),
  },
  {
    name: "angle",
    params: ["z"],
    types: [T.number],
    doc: "The angle of z, in (-pi, pi]: exact 0 for a non-negative exact real, pi for a negative one.",
    impl: (z: SNumber) =>
      (z as unknown) instanceof Compnum
        ? cAngle(z as unknown as Compnum)
        : isFlonum(z)
          ? flo(Math.atan2(0, typeof z === "number" ? z : z.v))
          : isNegative(z)
            ? Math.PI
            : 0,
  },

  // Exactness.
  {
    name: "exact",
    params: ["z"],
    types: [T.number],
    doc: "The exact number nearest z, which for a flonum is its exact value: `(exact 2.5)` is 5/2. Infinities and NaN have none.",
    impl: (z) => toExact(z, "exact"),
  },
  {
    name: "inexact",
    params: ["z"],
    types: [T.number],
    doc: "The flonum nearest z (correctly rounded).",
    impl: (z) => toInexact(z),
  },
  { name: "inexact->exact", params: ["z"], types: [T.number], doc: "The same as exact (R5RS name).", impl: (z) => toExact(z, "inexact->exact") },
  { name: "exact->inexact", params: ["z"], types: [T.number], doc: "The same as inexact (R5RS name).", impl: (z) => toInexact(z) },

  // Conversion to and from text.
  {
    name: "number->string",
    params: ["z", "[radix]"],
    types: [T.number, T.exactInteger],
    doc: "The external representation of z in radix (10 by default; 2, 8 and 16 as R7RS requires, or any base up to 36).",
    impl: (z, radix) => new MString(numberToString(z, radixArg("number->string", radix))),
  },
  {
    name: "string->number",
    params: ["string", "[radix]"],
    types: [T.string, T.exactInteger],
    doc: "The number that string denotes in radix (10 by default; a prefix such as #x overrides it), or #f when it denotes none.",
    impl: (s: MString, radix) => parseNumber(s.toString(), radixArg("string->number", radix)),
  },
];
