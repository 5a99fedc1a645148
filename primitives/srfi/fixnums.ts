// SRFI 143's fixnum operations: exact integers of fx-width = 53 bits, two's complement, as JS numbers.
//
// fx-width is 53, so fixnums are the integers from -2^52 to 2^52 - 1: a JS
// double holds every one exactly, and so does every sum or difference of two
// (which is how overflow is seen). The fixnum rule makes a non-fixnum argument
// or result "an error"; here it is always signalled, a range error naming the
// procedure. Bitwise operations share SRFI 151's (bitwise.ts).

import { type ProcSpec, type ArgType, T, makeValues, argError, rangeError, raiseError } from "../../interpreter/api.js";
import { bitCount, bitField, firstSetBit, integerLength, norm, replaceField, shift } from "./bitwise.js";

export const FX_WIDTH = 53;
export const FX_GREATEST = 2 ** 52 - 1;
export const FX_LEAST = -(2 ** 52);

const isFixnum = (x: any): x is number => typeof x === "number" && Number.isInteger(x) && x >= FX_LEAST && x <= FX_GREATEST;

/** The argument type of a fixnum. */
export const FX: ArgType = { name: "fixnum", test: isFixnum };

/** The result of who, or an error when it is not a fixnum (the fixnum rule, signalled). */
function fx(who: string, r: number | bigint): number {
  if (typeof r === "number" && r >= FX_LEAST && r <= FX_GREATEST && Number.isSafeInteger(r)) return r;
  return raiseError("range", `${who}: the result ${String(r)} is not a fixnum (fx-width is ${FX_WIDTH})`, [r], who);
}

const TWO_W = 1n << BigInt(FX_WIDTH);
const HALF_W = 1n << BigInt(FX_WIDTH - 1);

/** balanced/ by 2^w: two values, the remainder r in [-2^(w-1), 2^(w-1)) and the quotient q, with s = q 2^w + r. */
function carry(s: bigint): any {
  let r = ((s % TWO_W) + TWO_W) % TWO_W;
  if (r >= HALF_W) r -= TWO_W;
  const q = (s - r) / TWO_W;
  return makeValues([Number(r), Number(q)]);
}

function compare(name: string, test: (a: number, b: number) => boolean, doc: string): ProcSpec {
  return {
    name,
    params: ["i ..."],
    types: [FX],
    doc,
    impl(xs: number[]) {
      for (let k = 1; k < xs.length; k++) if (!test(xs[k - 1] as number, xs[k] as number)) return false;
      return true;
    },
  };
}

function unary(name: string, f: (i: number) => number | boolean, doc: string): ProcSpec {
  return { name, params: ["i"], types: [FX], doc, impl: f };
}

function binary(name: string, f: (i: number, j: number) => number, doc: string): ProcSpec {
  return { name, params: ["i", "j"], types: [FX, FX], doc, impl: f };
}

function checkIndex(who: string, argNo: number, k: number): void {
  if (k >= FX_WIDTH) rangeError(who, argNo, `bit index ${k} is not less than fx-width ${FX_WIDTH}`, k);
}

function checkField(who: string, startArg: number, start: number, end: number): void {
  if (start < 0) argError(who, startArg, "fixnum index", start);
  if (end < start || end > FX_WIDTH) rangeError(who, startArg + 1, `the field [${start}, ${end}) is not within [0, ${FX_WIDTH}]`, end);
}

/** Bitwise operations on fixnums: their results are fixnums whenever their arguments are. */
const and2 = (a: number, b: number): number => ((a | 0) === a && (b | 0) === b ? a & b : Number(BigInt(a) & BigInt(b)));
const ior2 = (a: number, b: number): number => ((a | 0) === a && (b | 0) === b ? a | b : Number(BigInt(a) | BigInt(b)));
const xor2 = (a: number, b: number): number => ((a | 0) === a && (b | 0) === b ? a ^ b : Number(BigInt(a) ^ BigInt(b)));

function bitwise(name: string, op: (a: number, b: number) => number, identity: number, doc: string): ProcSpec {
  return {
    name,
    params: ["i ..."],
    types: [FX],
    doc,
    impl(xs: number[]) {
      let acc = identity;
      for (const x of xs) acc = op(acc, x);
      return acc;
    },
  };
}

/** The procedures of (nodwyn primitives srfi 143). */
export const fixnumPrimitives: ProcSpec[] = [
  { name: "fixnum?", params: ["obj"], doc: `True when obj is an exact integer from fx-least (-2^52) to fx-greatest (2^52 - 1).`, impl: isFixnum },
  compare("fx=?", (a, b) => a === b, "True when the fixnums are all equal (= for fixnums)."),
  compare("fx<?", (a, b) => a < b, "True when the fixnums are strictly increasing."),
  compare("fx>?", (a, b) => a > b, "True when the fixnums are strictly decreasing."),
  compare("fx<=?", (a, b) => a <= b, "True when the fixnums are non-decreasing."),
  compare("fx>=?", (a, b) => a >= b, "True when the fixnums are non-increasing."),
  unary("fxzero?", (i) => i === 0, "True when i is 0."),
  unary("fxpositive?", (i) => i > 0, "True when i is greater than 0."),
  unary("fxnegative?", (i) => i < 0, "True when i is less than 0."),
  unary("fxodd?", (i) => Math.abs(i % 2) === 1, "True when i is odd."),
  unary("fxeven?", (i) => i % 2 === 0, "True when i is even."),
  {
    name: "fxmax",
    params: ["i", "j ..."],
    types: [FX, FX],
    doc: "The largest of the fixnums.",
    impl: (i: number, js: number[]) => Math.max(i, ...js),
  },
  {
    name: "fxmin",
    params: ["i", "j ..."],
    types: [FX, FX],
    doc: "The smallest of the fixnums.",
    impl: (i: number, js: number[]) => Math.min(i, ...js),
  },
  binary("fx+", (i, j) => fx("fx+", i + j), "i + j; an error when the sum is not a fixnum."),
  binary("fx-", (i, j) => fx("fx-", i - j), "i - j; an error when the difference is not a fixnum."),
  unary("fxneg", (i) => fx("fxneg", -i), "-i; an error for fx-least, whose negation is not a fixnum."),
  binary("fx*", (i, j) => fx("fx*", i * j || 0), "i × j; an error when the product is not a fixnum."),
  binary("fxquotient", (i, j) => (j === 0 ? rangeError("fxquotient", 2, "division by zero", j) : fx("fxquotient", Math.trunc(i / j) || 0)), "The quotient of i by j, rounded toward zero."),
  binary("fxremainder", (i, j) => (j === 0 ? rangeError("fxremainder", 2, "division by zero", j) : (i % j) || 0), "The remainder of i by j, with the sign of i."),
  unary("fxabs", (i) => fx("fxabs", Math.abs(i)), "The absolute value of i; an error for fx-least."),
  unary("fxsquare", (i) => fx("fxsquare", i * i), "i × i; an error when it is not a fixnum."),
  {
    name: "fxsqrt",
    params: ["i"],
    types: [FX],
    doc: "Two values, s and r: the largest s with s × s <= i, and i - s × s (exact-integer-sqrt); i must be non-negative.",
    impl(i: number) {
      if (i < 0) rangeError("fxsqrt", 1, "a negative number has no exact square root", i);
      let s = Math.floor(Math.sqrt(i));
      while (s * s > i) s--;
      while ((s + 1) * (s + 1) <= i) s++;
      return makeValues([s, i - s * s]);
    },
  },
  {
    name: "fx+/carry",
    params: ["i", "j", "k"],
    types: [FX, FX, FX],
    doc: "Two values r and q with i + j + k = q × 2^fx-width + r, r in [-2^52, 2^52) (balanced division).",
    impl: (i: number, j: number, k: number) => carry(BigInt(i) + BigInt(j) + BigInt(k)),
  },
  {
    name: "fx-/carry",
    params: ["i", "j", "k"],
    types: [FX, FX, FX],
    doc: "Two values r and q with i - j - k = q × 2^fx-width + r, r in [-2^52, 2^52) (balanced division).",
    impl: (i: number, j: number, k: number) => carry(BigInt(i) - BigInt(j) - BigInt(k)),
  },
  {
    name: "fx*/carry",
    params: ["i", "j", "k"],
    types: [FX, FX, FX],
    doc: "Two values r and q with i × j + k = q × 2^fx-width + r, r in [-2^52, 2^52) (balanced division).",
    impl: (i: number, j: number, k: number) => carry(BigInt(i) * BigInt(j) + BigInt(k)),
  },
  unary("fxnot", (i) => -i - 1, "The bitwise complement of i."),
  bitwise("fxand", and2, -1, "The bitwise and of the fixnums (-1 for none)."),
  bitwise("fxior", ior2, 0, "The bitwise inclusive or of the fixnums (0 for none)."),
  bitwise("fxxor", xor2, 0, "The bitwise exclusive or of the fixnums (0 for none)."),
  {
    name: "fxarithmetic-shift",
    params: ["i", "count"],
    types: [FX, FX],
    doc: "i shifted left by count bits (right, rounding down, when count is negative); |count| must be less than fx-width and the result a fixnum.",
    impl(i: number, count: number) {
      if (Math.abs(count) >= FX_WIDTH) rangeError("fxarithmetic-shift", 2, `a shift of ${count} is not less than fx-width ${FX_WIDTH} in magnitude`, count);
      return fx("fxarithmetic-shift", norm(BigInt(shift(i, count))) as number);
    },
  },
  {
    name: "fxarithmetic-shift-left",
    params: ["i", "count"],
    types: [FX, FX],
    doc: "i shifted left by count bits, 0 <= count < fx-width; the result must be a fixnum.",
    impl(i: number, count: number) {
      if (count < 0 || count >= FX_WIDTH) rangeError("fxarithmetic-shift-left", 2, `a shift of ${count} is not in [0, ${FX_WIDTH})`, count);
      return fx("fxarithmetic-shift-left", norm(BigInt(shift(i, count))) as number);
    },
  },
  {
    name: "fxarithmetic-shift-right",
    params: ["i", "count"],
    types: [FX, FX],
    doc: "i shifted right by count bits, rounding down, 0 <= count < fx-width.",
    impl(i: number, count: number) {
      if (count < 0 || count >= FX_WIDTH) rangeError("fxarithmetic-shift-right", 2, `a shift of ${count} is not in [0, ${FX_WIDTH})`, count);
      return shift(i, -count) as number;
    },
  },
  unary("fxbit-count", (i) => bitCount(i), "The number of 1 bits of i when it is non-negative, of 0 bits when it is negative."),
  unary("fxlength", (i) => integerLength(i), "The number of bits needed to represent i (its complement when negative)."),
  {
    name: "fxif",
    params: ["mask", "i", "j"],
    types: [FX, FX, FX],
    doc: "The bits of i where mask has 1 bits and those of j where it has 0 bits.",
    impl: (m: number, i: number, j: number) => ior2(and2(m, i), and2(-m - 1, j)),
  },
  {
    name: "fxbit-set?",
    params: ["index", "i"],
    types: [FX, FX],
    doc: "True when bit index of i is 1. SRFI 143 leaves an index of fx-width or more an error; here it is the sign bit, as SRFI 151's bit-set? has it.",
    impl(k: number, i: number) {
      if (k < 0) argError("fxbit-set?", 1, "non-negative fixnum", k);
      if (k >= FX_WIDTH) return i < 0;
      return (bitField(i, k, k + 1) as number) === 1;
    },
  },
  {
    name: "fxcopy-bit",
    params: ["index", "i", "boolean"],
    types: [FX, FX, T.boolean],
    doc: "i with bit index set to 1 when boolean is #t, to 0 when it is #f; index must be in [0, fx-width).",
    impl(k: number, i: number, b: boolean) {
      if (k < 0) argError("fxcopy-bit", 1, "non-negative fixnum", k);
      checkIndex("fxcopy-bit", 1, k);
      return fx("fxcopy-bit", norm(BigInt(replaceField(i, b ? 1 : 0, k, k + 1))) as number);
    },
  },
  unary("fxfirst-set-bit", (i) => firstSetBit(i), "The index of the least significant 1 bit of i, or -1 for 0."),
  {
    name: "fxbit-field",
    params: ["i", "start", "end"],
    types: [FX, FX, FX],
    doc: "Bits start (included) to end (excluded) of i, shifted down to bit 0.",
    impl(i: number, start: number, end: number) {
      checkField("fxbit-field", 2, start, end);
      return bitField(i, start, end) as number;
    },
  },
  {
    name: "fxbit-field-rotate",
    params: ["i", "count", "start", "end"],
    types: [FX, FX, FX, FX],
    doc: "i with the field [start, end) rotated by count bits towards the high end.",
    impl(i: number, count: number, start: number, end: number) {
      checkField("fxbit-field-rotate", 3, start, end);
      const width = end - start;
      if (width === 0) return i;
      const c = ((count % width) + width) % width;
      const f = bitField(i, start, end) as number;
      const rotated = Number((BigInt(f) << BigInt(c) | BigInt(f) >> BigInt(width - c)) & ((1n << BigInt(width)) - 1n));
      return fx("fxbit-field-rotate", norm(BigInt(replaceField(i, rotated, start, end))) as number);
    },
  },
  {
    name: "fxbit-field-reverse",
    params: ["i", "start", "end"],
    types: [FX, FX, FX],
    doc: "i with the bits of the field [start, end) in reverse order.",
    impl(i: number, start: number, end: number) {
      checkField("fxbit-field-reverse", 2, start, end);
      const width = end - start;
      const f = BigInt(bitField(i, start, end));
      let r = 0n;
      for (let k = 0; k < width; k++) if ((f >> BigInt(k)) & 1n) r |= 1n << BigInt(width - 1 - k);
      return fx("fxbit-field-reverse", norm(BigInt(replaceField(i, norm(r), start, end))) as number);
    },
  },
];

