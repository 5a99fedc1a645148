// SRFI 151's bitwise operations on exact integers of any size, as two's-complement bitstrings.
//
// Exact integers are JS numbers while they are safe integers and bigints
// beyond (interpreter/values/numbers): an operation runs on 32-bit numbers
// natively when its arguments fit, on bigints otherwise, and its result is
// normalised back to a number when it fits. The procedures that call a
// procedure argument (bitwise-fold, bitwise-unfold …) are in stdlib/srfi/151.sld.

import { type ProcSpec, type ArgType, T, NIL, Pair, listToArray, argError, rangeError, spend, allocate, COST } from "../../interpreter/api.js";

type Int = number | bigint;

const I = T.exactInteger;
const N = T.index;

/** A signed 32-bit integer: JS bitwise operators work on it exactly. */
const small = (x: Int): x is number => typeof x === "number" && (x | 0) === x;
const big = (x: Int): bigint => (typeof x === "bigint" ? x : BigInt(x));
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);

/** The exact integer as nodwyn represents it: a number when safe, a bigint beyond. */
export function norm(b: bigint): Int {
  return b >= MIN_SAFE && b <= MAX_SAFE ? Number(b) : b;
}

/** Charges an operation on integers of about `bits` bits (bigint work grows with their size). */
function work(bits: number): void {
  spend(bits * COST.elementNs / 32);
}

function bitsOf(x: Int): number {
  return typeof x === "number" ? 53 : x.toString(16).length * 4;
}

export function not(i: Int): Int {
  return typeof i === "number" ? -i - 1 : norm(~i);
}

function and2(a: Int, b: Int): Int {
  if (small(a) && small(b)) return a & b;
  work(Math.max(bitsOf(a), bitsOf(b)));
  return norm(big(a) & big(b));
}
function ior2(a: Int, b: Int): Int {
  if (small(a) && small(b)) return a | b;
  work(Math.max(bitsOf(a), bitsOf(b)));
  return norm(big(a) | big(b));
}
function xor2(a: Int, b: Int): Int {
  if (small(a) && small(b)) return a ^ b;
  work(Math.max(bitsOf(a), bitsOf(b)));
  return norm(big(a) ^ big(b));
}

/** The number of bits needed to represent i (≥ 0) or its complement (i < 0). */
export function integerLength(i: Int): number {
  if (typeof i === "number") {
    const n = i < 0 ? -i - 1 : i;
    if (n < 0x80000000) return 32 - Math.clz32(n);
    return n.toString(2).length;
  }
  const n = i < 0n ? ~i : i;
  return n === 0n ? 0 : n.toString(2).length;
}

/** Shifts left (count > 0) or right with floor (count < 0). */
export function shift(i: Int, count: number): Int {
  if (count === 0 || i === 0 || i === 0n) return i;
  if (count > 0) {
    if (typeof i === "number" && count < 31 && Math.abs(i) < 2 ** (52 - count)) return i * 2 ** count;
    const bits = integerLength(i) + count;
    if (bits > 2 ** 26) rangeError("arithmetic-shift", 2, `a result of ${bits} bits is too large`, count);
    allocate(bits / 8);
    work(bits);
    return norm(big(i) << BigInt(count));
  }
  const c = -count;
  if (small(i)) return c >= 32 ? (i < 0 ? -1 : 0) : i >> c;
  if (c >= integerLength(i)) return (typeof i === "number" ? i < 0 : i < 0n) ? -1 : 0;
  if (typeof i === "number") return Math.floor(i / 2 ** c);
  work(bitsOf(i));
  return norm(i >> BigInt(c));
}

function popcount32(n: number): number {
  n = n - ((n >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export function bitCount(i: Int): number {
  if (small(i)) return popcount32(i < 0 ? ~i : i);
  let n = big(i);
  if (n < 0n) n = ~n;
  work(bitsOf(n));
  let c = 0;
  for (const d of n.toString(16)) c += popcount32(parseInt(d, 16));
  return c;
}

/** A mask of the low `bits` bits. */
function mask(bits: number): Int {
  if (bits < 31) return (1 << bits) - 1;
  return norm((1n << BigInt(bits)) - 1n);
}

export function bitField(i: Int, start: number, end: number): Int {
  return and2(shift(i, -start), mask(end - start));
}

function fieldMask(start: number, end: number): Int {
  return shift(mask(end - start), start);
}

/** i with bits [start, end) replaced by the low bits of source. */
export function replaceField(i: Int, source: Int, start: number, end: number): Int {
  const m = fieldMask(start, end);
  return ior2(and2(i, not(m)), and2(shift(source, start), m));
}

function checkField(who: string, startArg: number, start: number, end: number): void {
  if (end < start) rangeError(who, startArg + 1, `end ${end} is less than start ${start}`, end);
  if (end > 2 ** 26) rangeError(who, startArg + 1, `a field ending at bit ${end} is too large`, end);
}

function bitSet(index: number, i: Int): boolean {
  if (index >= integerLength(i)) return typeof i === "number" ? i < 0 : i < 0n;
  return (bitField(i, index, index + 1) as number) === 1;
}

export function firstSetBit(i: Int): number {
  if (i === 0 || i === 0n) return -1;
  if (small(i)) return 31 - Math.clz32(i & -i);
  const b = big(i);
  return (b & -b).toString(2).length - 1;
}

const BOOL: ArgType = T.boolean;

function booleans(who: string, argNo: number, items: readonly any[] | null, whole: any): Int {
  if (items === null || !items.every((b) => typeof b === "boolean")) return argError(who, argNo, "list of booleans", whole);
  let r: bigint = 0n;
  for (let k = items.length - 1; k >= 0; k--) r = (r << 1n) | (items[k] ? 1n : 0n);
  return norm(r);
}

function bitsOfInteger(who: string, i: Int, len: number | undefined): boolean[] {
  if (typeof i === "number" ? i < 0 : i < 0n) argError(who, 1, "exact non-negative integer", i);
  const n = len ?? integerLength(i);
  if (n > 2 ** 26) rangeError(who, 2, `${n} bits are too many`, n);
  allocate(n * COST.pairBytes);
  const out = new Array<boolean>(n);
  for (let k = 0; k < n; k++) out[k] = bitSet(k, i);
  return out;
}

function nary(name: string, op: (a: Int, b: Int) => Int, identity: number, doc: string): ProcSpec {
  return {
    name,
    params: ["i ..."],
    types: [I],
    doc,
    impl(xs: Int[]) {
      let acc: Int = identity;
      for (const x of xs) acc = op(acc, x);
      return acc;
    },
  };
}

function dyadic(name: string, op: (a: Int, b: Int) => Int, doc: string): ProcSpec {
  return { name, params: ["i", "j"], types: [I, I], doc, impl: op };
}

/** The procedures of (nodwyn primitives srfi 151). */
export const bitwisePrimitives: ProcSpec[] = [
  { name: "bitwise-not", params: ["i"], types: [I], doc: "The bitwise complement of i: (bitwise-not 10) is -11.", impl: not },
  nary("bitwise-and", and2, -1, "The bitwise and of the integers (-1 for none): (bitwise-and 11 26) is 10."),
  nary("bitwise-ior", ior2, 0, "The bitwise inclusive or of the integers (0 for none): (bitwise-ior 3 10) is 11."),
  nary("bitwise-xor", xor2, 0, "The bitwise exclusive or of the integers (0 for none): (bitwise-xor 3 10) is 9."),
  nary("bitwise-eqv", (a, b) => not(xor2(a, b)), -1, "The bitwise equivalence of the integers, associatively: (bitwise-eqv a (bitwise-eqv b c)) (-1 for none): (bitwise-eqv 37 12) is -42."),
  dyadic("bitwise-nand", (a, b) => not(and2(a, b)), "(bitwise-not (bitwise-and i j)): (bitwise-nand 11 26) is -11."),
  dyadic("bitwise-nor", (a, b) => not(ior2(a, b)), "(bitwise-not (bitwise-ior i j)): (bitwise-nor 11 26) is -28."),
  dyadic("bitwise-andc1", (a, b) => and2(not(a), b), "(bitwise-and (bitwise-not i) j): (bitwise-andc1 11 26) is 16."),
  dyadic("bitwise-andc2", (a, b) => and2(a, not(b)), "(bitwise-and i (bitwise-not j)): (bitwise-andc2 11 26) is 1."),
  dyadic("bitwise-orc1", (a, b) => ior2(not(a), b), "(bitwise-ior (bitwise-not i) j): (bitwise-orc1 11 26) is -2."),
  dyadic("bitwise-orc2", (a, b) => ior2(a, not(b)), "(bitwise-ior i (bitwise-not j)): (bitwise-orc2 11 26) is -17."),
  {
    name: "arithmetic-shift",
    params: ["i", "count"],
    types: [I, I],
    doc: "i shifted left by count bits when count is positive, right (rounding down) when it is negative: (arithmetic-shift 8 -1) is 4.",
    impl(i: Int, count: Int) {
      if (typeof count === "bigint") {
        if (count < 0n) return (typeof i === "number" ? i < 0 : i < 0n) ? -1 : 0;
        if (i === 0 || i === 0n) return 0;
        return rangeError("arithmetic-shift", 2, "a shift this large has no room", count);
      }
      return shift(i, count);
    },
  },
  { name: "bit-count", params: ["i"], types: [I], doc: "The number of 1 bits of i when it is non-negative, of 0 bits when it is negative: (bit-count -13) is 2.", impl: bitCount },
  { name: "integer-length", params: ["i"], types: [I], doc: "The number of bits needed to represent i (its complement when negative): (integer-length 8) is 4, (integer-length -8) is 3.", impl: integerLength },
  {
    name: "bitwise-if",
    params: ["mask", "i", "j"],
    types: [I, I, I],
    doc: "The bits of i where mask has 1 bits and those of j where it has 0 bits: (bitwise-if 3 1 8) is 9.",
    impl: (m: Int, i: Int, j: Int) => ior2(and2(m, i), and2(not(m), j)),
  },
  {
    name: "bit-set?",
    params: ["index", "i"],
    types: [I, I],
    doc: "True when bit index (0 is the least significant) of i is 1: (bit-set? 3 10) is #t.",
    impl(index: Int, i: Int) {
      if (typeof index === "number" && index < 0) argError("bit-set?", 1, "exact non-negative integer", index);
      if (typeof index === "bigint") return index < 0n ? argError("bit-set?", 1, "exact non-negative integer", index) : typeof i === "number" ? i < 0 : i < 0n;
      return bitSet(index, i);
    },
  },
  {
    name: "copy-bit",
    params: ["index", "i", "boolean"],
    types: [N, I, BOOL],
    doc: "i with bit index set to 1 when boolean is #t, to 0 when it is #f: (copy-bit 2 #b1111 #f) is #b1011.",
    impl: (index: number, i: Int, b: boolean) => replaceField(i, b ? 1 : 0, index, index + 1),
  },
  {
    name: "bit-swap",
    params: ["index1", "index2", "i"],
    types: [N, N, I],
    doc: "i with bits index1 and index2 exchanged: (bit-swap 0 2 4) is 1.",
    impl(a: number, b: number, i: Int) {
      const x = bitSet(a, i);
      const y = bitSet(b, i);
      return replaceField(replaceField(i, y ? 1 : 0, a, a + 1), x ? 1 : 0, b, b + 1);
    },
  },
  {
    name: "any-bit-set?",
    params: ["test-bits", "i"],
    types: [I, I],
    doc: "True when some bit set in test-bits is set in i: (not (zero? (bitwise-and test-bits i))).",
    impl: (t: Int, i: Int) => { const r = and2(t, i); return r !== 0 && r !== 0n; },
  },
  {
    name: "every-bit-set?",
    params: ["test-bits", "i"],
    types: [I, I],
    doc: "True when every bit set in test-bits is set in i: (= test-bits (bitwise-and test-bits i)).",
    impl: (t: Int, i: Int) => and2(t, i) === t || big(and2(t, i)) === big(t),
  },
  { name: "first-set-bit", params: ["i"], types: [I], doc: "The index of the least significant 1 bit of i, or -1 for 0: (first-set-bit 40) is 3.", impl: firstSetBit },
  {
    name: "bit-field",
    params: ["i", "start", "end"],
    types: [I, N, N],
    doc: "Bits start (included) to end (excluded) of i, shifted down to bit 0: (bit-field #b1101101010 3 9) is #b101101.",
    impl(i: Int, start: number, end: number) {
      checkField("bit-field", 2, start, end);
      return bitField(i, start, end);
    },
  },
  {
    name: "bit-field-any?",
    params: ["i", "start", "end"],
    types: [I, N, N],
    doc: "True when some bit of the field [start, end) of i is 1.",
    impl(i: Int, start: number, end: number) {
      checkField("bit-field-any?", 2, start, end);
      const f = bitField(i, start, end);
      return f !== 0 && f !== 0n;
    },
  },
  {
    name: "bit-field-every?",
    params: ["i", "start", "end"],
    types: [I, N, N],
    doc: "True when every bit of the field [start, end) of i is 1.",
    impl(i: Int, start: number, end: number) {
      checkField("bit-field-every?", 2, start, end);
      return big(bitField(i, start, end)) === big(mask(end - start));
    },
  },
  {
    name: "bit-field-clear",
    params: ["i", "start", "end"],
    types: [I, N, N],
    doc: "i with the bits of the field [start, end) set to 0: (bit-field-clear #b101010 1 4) is #b100000.",
    impl(i: Int, start: number, end: number) {
      checkField("bit-field-clear", 2, start, end);
      return replaceField(i, 0, start, end);
    },
  },
  {
    name: "bit-field-set",
    params: ["i", "start", "end"],
    types: [I, N, N],
    doc: "i with the bits of the field [start, end) set to 1: (bit-field-set #b101010 1 4) is #b101110.",
    impl(i: Int, start: number, end: number) {
      checkField("bit-field-set", 2, start, end);
      return replaceField(i, -1, start, end);
    },
  },
  {
    name: "bit-field-replace",
    params: ["dest", "source", "start", "end"],
    types: [I, I, N, N],
    doc: "dest with the field [start, end) replaced by the low end - start bits of source: (bit-field-replace #b101010 #b010 1 4) is #b100100.",
    impl(dest: Int, source: Int, start: number, end: number) {
      checkField("bit-field-replace", 3, start, end);
      return replaceField(dest, source, start, end);
    },
  },
  {
    name: "bit-field-replace-same",
    params: ["dest", "source", "start", "end"],
    types: [I, I, N, N],
    doc: "dest with the field [start, end) replaced by the same field of source: (bit-field-replace-same #b1111 #b0000 1 3) is #b1001.",
    impl(dest: Int, source: Int, start: number, end: number) {
      checkField("bit-field-replace-same", 3, start, end);
      return replaceField(dest, bitField(source, start, end), start, end);
    },
  },
  {
    name: "bit-field-rotate",
    params: ["i", "count", "start", "end"],
    types: [I, I, N, N],
    doc: "i with the field [start, end) rotated by count bits towards the high end (towards the low end when negative): (bit-field-rotate #b110 1 2 4) is #b1010.",
    impl(i: Int, count: Int, start: number, end: number) {
      checkField("bit-field-rotate", 3, start, end);
      const width = end - start;
      if (width === 0) return i;
      const c = Number(((big(count) % BigInt(width)) + BigInt(width)) % BigInt(width));
      const f = bitField(i, start, end);
      const rotated = ior2(and2(shift(f, c), mask(width)), shift(f, c - width));
      return replaceField(i, rotated, start, end);
    },
  },
  {
    name: "bit-field-reverse",
    params: ["i", "start", "end"],
    types: [I, N, N],
    doc: "i with the bits of the field [start, end) in reverse order: (bit-field-reverse 6 1 4) is 12.",
    impl(i: Int, start: number, end: number) {
      checkField("bit-field-reverse", 2, start, end);
      const width = end - start;
      const f = bitField(i, start, end);
      let r = 0n;
      const fb = big(f);
      for (let k = 0; k < width; k++) if ((fb >> BigInt(k)) & 1n) r |= 1n << BigInt(width - 1 - k);
      return replaceField(i, norm(r), start, end);
    },
  },
  {
    name: "bits->list",
    params: ["i", "[len]"],
    types: [I, N],
    doc: "A list of len booleans (the integer length of i by default), bit 0 of the non-negative i first: (bits->list 6 4) is (#f #t #t #f).",
    impl(i: Int, len?: number) {
      const bs = bitsOfInteger("bits->list", i, len);
      let out: any = NIL;
      for (let k = bs.length - 1; k >= 0; k--) out = new Pair(bs[k], out);
      return out;
    },
  },
  {
    name: "bits->vector",
    params: ["i", "[len]"],
    types: [I, N],
    doc: "A vector of len booleans (the integer length of i by default), bit 0 of the non-negative i first.",
    impl: (i: Int, len?: number) => bitsOfInteger("bits->vector", i, len),
  },
  {
    name: "list->bits",
    params: ["list"],
    types: [T.list],
    doc: "The non-negative integer whose bit k is 1 when element k of the list of booleans is #t: (list->bits '(#f #t #t)) is 6.",
    impl: (l: any) => booleans("list->bits", 1, listToArray(l), l),
  },
  {
    name: "vector->bits",
    params: ["vector"],
    types: [T.vector],
    doc: "The non-negative integer whose bit k is 1 when element k of the vector of booleans is #t.",
    impl: (v: any[]) => booleans("vector->bits", 1, v, v),
  },
  {
    name: "bits",
    params: ["bool ..."],
    types: [BOOL],
    doc: "The non-negative integer whose bit k is 1 when argument k is #t: (bits #t #f #t) is 5.",
    impl: (bs: boolean[]) => booleans("bits", 1, bs, bs),
  },
];
