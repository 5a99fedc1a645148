// Bytevectors (R7RS §6.9), including the UTF-8 conversions to and from strings.

import { type ProcSpec, T, MString, UNSPECIFIED, allocate, spend, COST, mutableVector } from "../../interpreter/api.js";
import { checkAllocLength, checkCopyTarget, checkIndex, checkRange, making, visiting } from "./vectors.js";

/** Announces `n` new bytes and the time to copy them. */
function makingBytes(n: number): void {
  allocate(n);
  spend(n * COST.charNs);
}

// fatal: false — invalid UTF-8 decodes to U+FFFD (see utf8->string's doc);
// ignoreBOM: true — a leading U+FEFF is a character of the text, not dropped.
const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
const encoder = new TextEncoder();

/** The bytevector primitives of R7RS §6.9. */
export const bytevectorPrimitives: ProcSpec[] = [
  {
    name: "bytevector?",
    params: ["obj"],
    doc: "True when obj is a bytevector.",
    impl: (x: any) => x instanceof Uint8Array,
  },
  {
    name: "make-bytevector",
    params: ["k", "[byte]"],
    types: [T.index, T.byte],
    doc: "A new bytevector of k bytes, each byte (0 when byte is not given).",
    impl(k: number, byte?: number) {
      checkAllocLength("make-bytevector", 1, k, undefined, 1);
      const bv = new Uint8Array(k);
      if (byte !== undefined && byte !== 0) bv.fill(byte);
      return bv;
    },
  },
  {
    name: "bytevector",
    params: ["byte ..."],
    types: [T.byte],
    doc: "A new bytevector of the arguments, each an exact integer from 0 to 255.",
    impl(bytes: number[]) {
      making(bytes.length, 1);
      return Uint8Array.from(bytes);
    },
  },
  {
    name: "bytevector-length",
    params: ["bytevector"],
    types: [T.bytevector],
    doc: "The number of bytes of bytevector.",
    impl: (bv: Uint8Array) => bv.length,
  },
  {
    name: "bytevector-u8-ref",
    params: ["bytevector", "k"],
    types: [T.bytevector, T.index],
    doc: "Byte k of bytevector (0-based), an exact integer from 0 to 255.",
    impl: (bv: Uint8Array, k: number) => bv[checkIndex("bytevector-u8-ref", 2, k, bv.length)] as number,
  },
  {
    name: "bytevector-u8-set!",
    params: ["bytevector", "k", "byte"],
    types: [T.bytevector, T.index, T.byte],
    doc: "Stores byte as byte k of bytevector.",
    impl(bv: Uint8Array, k: number, byte: number) {
      mutableVector("bytevector-u8-set!", 1, bv)[checkIndex("bytevector-u8-set!", 2, k, bv.length)] = byte;
      return UNSPECIFIED;
    },
  },
  {
    name: "bytevector-copy",
    params: ["bytevector", "[start]", "[end]"],
    types: [T.bytevector, T.index, T.index],
    doc: "A new bytevector of the bytes of bytevector from start (default 0) to end (default the length).",
    impl(bv: Uint8Array, start?: number, end?: number) {
      const [s, e] = checkRange("bytevector-copy", 2, start, end, bv.length);
      makingBytes(e - s);
      // A copy into a plain Uint8Array (a host Buffer's slice would share memory).
      return new Uint8Array(bv.subarray(s, e));
    },
  },
  {
    name: "bytevector-copy!",
    params: ["to", "at", "from", "[start]", "[end]"],
    types: [T.bytevector, T.index, T.bytevector, T.index, T.index],
    doc:
      "Copies the bytes of from between start and end into to, starting at index at. " +
      "Correct when to and from are the same bytevector and the regions overlap.",
    impl(to: Uint8Array, at: number, from: Uint8Array, start?: number, end?: number) {
      mutableVector("bytevector-copy!", 1, to);
      const [s, e] = checkRange("bytevector-copy!", 4, start, end, from.length);
      checkCopyTarget("bytevector-copy!", at, e - s, to.length);
      visiting(e - s);
      // TypedArray.set copies as if through a temporary when the buffers overlap.
      to.set(from.subarray(s, e), at);
      return UNSPECIFIED;
    },
  },
  {
    name: "bytevector-append",
    params: ["bytevector ..."],
    types: [T.bytevector],
    doc: "A new bytevector of the bytes of the bytevectors, in order.",
    impl(bvs: Uint8Array[]) {
      let n = 0;
      for (const bv of bvs) n += bv.length;
      checkAllocLength("bytevector-append", 1, n, undefined, 1);
      const out = new Uint8Array(n);
      let at = 0;
      for (const bv of bvs) {
        out.set(bv, at);
        at += bv.length;
      }
      return out;
    },
  },
  {
    name: "utf8->string",
    params: ["bytevector", "[start]", "[end]"],
    types: [T.bytevector, T.index, T.index],
    doc:
      "A new string decoded from the UTF-8 bytes of bytevector from start (default 0) to end (default the length). " +
      "Invalid UTF-8 never fails: each malformed sequence becomes the replacement character U+FFFD.",
    impl(bv: Uint8Array, start?: number, end?: number) {
      const [s, e] = checkRange("utf8->string", 2, start, end, bv.length);
      makingBytes((e - s) * 2);
      return new MString(decoder.decode(bv.subarray(s, e)));
    },
  },
  {
    name: "string->utf8",
    params: ["string", "[start]", "[end]"],
    types: [T.string, T.index, T.index],
    doc: "A new bytevector of the UTF-8 encoding of the characters of string from start (default 0) to end (default the length).",
    impl(str: MString, start?: number, end?: number) {
      const [s, e] = checkRange("string->utf8", 2, start, end, str.length);
      makingBytes((e - s) * 4);
      const text = s === 0 && e === str.length ? str.toString() : str.substring(s, e).toString();
      return encoder.encode(text);
    },
  },
];
