// SRFI 151's bitwise operations against BigInt's, on random integers of every size (fixnums, past 2^53, negative).
import test from "ava";
import fc from "fast-check";
import { bitCount, bitField, integerLength, norm, not, replaceField, shift } from "../../../primitives/srfi/bitwise.js";
import { bitwisePrimitives } from "../../../primitives/srfi/bitwise.js";

const op = (name: string) => {
  const spec = bitwisePrimitives.find((s) => s.name === name);
  if (spec === undefined) throw new Error(name);
  return spec.impl as (...a: any[]) => any;
};

/** Exact integers as nodwyn holds them: numbers while safe, bigints beyond. */
const integer = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }).map((n) => norm(BigInt(n))),
  fc.bigInt({ min: -(2n ** 60n), max: 2n ** 60n }).map(norm),
  fc.bigInt({ min: -(2n ** 200n), max: 2n ** 200n }).map(norm),
);

const popcount = (b: bigint): number => (b < 0n ? ~b : b).toString(2).split("").filter((c) => c === "1").length;
const bitLength = (b: bigint): number => {
  const n = b < 0n ? ~b : b;
  return n === 0n ? 0 : n.toString(2).length;
};

test("and, ior, xor, not, nand and eqv agree with BigInt and give normalised integers", (t) => {
  fc.assert(
    fc.property(integer, integer, (a, b) => {
      const A = BigInt(a);
      const B = BigInt(b);
      const same = (x: any, y: bigint) => BigInt(x) === y && (typeof x === "number" ? Number.isSafeInteger(x) : x > BigInt(Number.MAX_SAFE_INTEGER) || x < BigInt(Number.MIN_SAFE_INTEGER));
      return (
        same(op("bitwise-and")([a, b]), A & B) &&
        same(op("bitwise-ior")([a, b]), A | B) &&
        same(op("bitwise-xor")([a, b]), A ^ B) &&
        same(not(a), ~A) &&
        same(op("bitwise-nand")(a, b), ~(A & B)) &&
        same(op("bitwise-eqv")([a, b]), ~(A ^ B))
      );
    }),
  );
  t.pass();
});

test("shifts, counts, lengths and fields agree with BigInt", (t) => {
  fc.assert(
    fc.property(integer, fc.integer({ min: -300, max: 300 }), fc.integer({ min: 0, max: 150 }), fc.integer({ min: 0, max: 150 }), (a, k, s, w) => {
      const A = BigInt(a);
      const shifted = k >= 0 ? A << BigInt(k) : A >> BigInt(-k);
      const field = (A >> BigInt(s)) & ((1n << BigInt(w)) - 1n);
      const m = ((1n << BigInt(w)) - 1n) << BigInt(s);
      const replaced = (A & ~m) | ((7n << BigInt(s)) & m);
      return (
        BigInt(shift(a, k)) === shifted &&
        bitCount(a) === popcount(A) &&
        integerLength(a) === bitLength(A) &&
        BigInt(bitField(a, s, s + w)) === field &&
        BigInt(replaceField(a, 7, s, s + w)) === replaced
      );
    }),
  );
  t.pass();
});
