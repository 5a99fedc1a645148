// Vectors (R7RS §6.8), and the index and range checks shared by the sequence primitives.

import {
  type ProcSpec,
  T,
  NIL,
  Pair,
  UNSPECIFIED,
  listToArray,
  listLength,
  argError,
  rangeError,
  allocate,
  spend,
  COST,
  mutableVector,
} from "../../interpreter/api.js";

/**
 * Largest length make-vector, make-string and make-bytevector accept, and
 * the longest vector any primitive builds. The memory budget stops most
 * requests long before (docs/decisions/0006-resource-limits.md); this bound
 * holds whatever the budget, far below the lengths at which V8 ends the
 * process instead of throwing (2^27 elements for an array).
 */
export const MAX_ALLOC_LENGTH = 2 ** 26;

/**
 * Announces to the running evaluation's budget `n` new elements of `bytes`
 * each, and the time to make them: what every primitive that builds something
 * in proportion to its input does before building it, so that a request the
 * memory budget cannot hold ends the evaluation before any of it is made.
 */
export function making(n: number, bytes: number): void {
  allocate(n * bytes);
  spend(n * COST.elementNs);
}

/** Charges the time of visiting `n` elements (a walk along a list, a scan of a vector or string). */
export function visiting(n: number): void {
  spend(n * COST.elementNs);
}

/**
 * Announces k elements of `bytes` each (see `making`) and checks the length
 * to allocate (k ≤ max, by default MAX_ALLOC_LENGTH); returns k.
 */
export function checkAllocLength(who: string, argNo: number, k: number, max = MAX_ALLOC_LENGTH, bytes: number = COST.slotBytes): number {
  // The budget first: a request it cannot hold is a memory limit, whatever its length.
  making(k, bytes);
  if (k > max) rangeError(who, argNo, `length ${k} exceeds the maximum ${max}`, k);
  return k;
}

/** Checks that k is an index of a sequence of `len` elements (0 ≤ k < len); returns it. */
export function checkIndex(who: string, argNo: number, k: number, len: number): number {
  if (k >= len) rangeError(who, argNo, `index ${k} out of range [0, ${len})`, k);
  return k;
}

/**
 * Resolves the optional `[start [end]]` arguments of a sequence of `len`
 * elements (start is argument number `startArgNo`, end the next one):
 * defaults 0 and len, and 0 ≤ start ≤ end ≤ len is checked.
 */
export function checkRange(
  who: string,
  startArgNo: number,
  start: number | undefined,
  end: number | undefined,
  len: number,
): [number, number] {
  const s = start ?? 0;
  const e = end ?? len;
  if (s > len) rangeError(who, startArgNo, `start ${s} out of range [0, ${len}]`, s);
  if (e > len || e < s) rangeError(who, startArgNo + 1, `end ${e} out of range [${s}, ${len}]`, e);
  return [s, e];
}

/**
 * Checks the destination of a `*-copy!`: `at` within [0, toLen] and room for
 * `count` elements from there.
 */
export function checkCopyTarget(who: string, at: number, count: number, toLen: number): void {
  if (at > toLen) rangeError(who, 2, `index ${at} out of range [0, ${toLen}]`, at);
  if (count > toLen - at) rangeError(who, 2, `no room for ${count} elements at index ${at} of a destination of length ${toLen}`, at);
}

/**
 * The elements of a proper list as an array, or a type error naming the
 * argument. The array is announced to the budget before it is made.
 */
export function properList(who: string, argNo: number, x: any, expected = "proper list"): any[] {
  const n = listLength(x);
  if (n < 0) argError(who, argNo, expected, x);
  if (n > MAX_ALLOC_LENGTH) rangeError(who, argNo, `a list of ${n} elements is longer than the longest vector (${MAX_ALLOC_LENGTH})`, x);
  making(n, COST.slotBytes);
  return listToArray(x) as any[];
}

/** Builds a list of v[start..end) without recursion. */
function sliceToList(v: readonly any[], start: number, end: number): any {
  making(end - start, COST.pairBytes);
  let r: any = NIL;
  for (let i = end - 1; i >= start; i--) r = new Pair(v[i], r);
  return r;
}

/** The vector primitives of R7RS §6.8. */
export const vectorPrimitives: ProcSpec[] = [
  {
    name: "vector?",
    params: ["obj"],
    doc: "True when obj is a vector.",
    impl: (x: any) => Array.isArray(x),
  },
  {
    name: "make-vector",
    params: ["k", "[fill]"],
    types: [T.index, null],
    doc: "A new vector of k elements, each fill (#f when fill is not given).",
    impl(k: number, fill: any) {
      checkAllocLength("make-vector", 1, k);
      return new Array(k).fill(fill === undefined ? false : fill);
    },
  },
  {
    name: "vector",
    params: ["obj ..."],
    doc: "A new vector whose elements are the arguments, in order.",
    impl(objs: any[]) {
      making(objs.length, COST.slotBytes);
      return objs.slice();
    },
  },
  {
    name: "vector-length",
    params: ["vector"],
    types: [T.vector],
    doc: "The number of elements of vector.",
    impl: (v: any[]) => v.length,
  },
  {
    name: "vector-ref",
    params: ["vector", "k"],
    types: [T.vector, T.index],
    doc: "Element k of vector (0-based); k must be less than the length.",
    impl: (v: any[], k: number) => v[checkIndex("vector-ref", 2, k, v.length)],
  },
  {
    name: "vector-set!",
    params: ["vector", "k", "obj"],
    types: [T.vector, T.index, null],
    doc: "Stores obj as element k of vector; k must be less than the length.",
    impl(v: any[], k: number, x: any) {
      mutableVector("vector-set!", 1, v)[checkIndex("vector-set!", 2, k, v.length)] = x;
      return UNSPECIFIED;
    },
  },
  {
    name: "vector->list",
    params: ["vector", "[start]", "[end]"],
    types: [T.vector, T.index, T.index],
    doc: "A new list of the elements of vector from start (default 0) to end (default the length).",
    impl(v: any[], start?: number, end?: number) {
      const [s, e] = checkRange("vector->list", 2, start, end, v.length);
      return sliceToList(v, s, e);
    },
  },
  {
    name: "list->vector",
    params: ["list"],
    types: [T.list],
    doc: "A new vector of the elements of list, which must be a proper list.",
    impl: (l: any) => properList("list->vector", 1, l),
  },
  {
    name: "vector-copy",
    params: ["vector", "[start]", "[end]"],
    types: [T.vector, T.index, T.index],
    doc: "A new vector of the elements of vector from start to end (a shallow copy: the elements are shared).",
    impl(v: any[], start?: number, end?: number) {
      const [s, e] = checkRange("vector-copy", 2, start, end, v.length);
      making(e - s, COST.slotBytes);
      return v.slice(s, e);
    },
  },
  {
    name: "vector-copy!",
    params: ["to", "at", "from", "[start]", "[end]"],
    types: [T.vector, T.index, T.vector, T.index, T.index],
    doc:
      "Copies the elements of from between start and end into to, starting at index at. " +
      "Correct when to and from are the same vector and the regions overlap.",
    impl(to: any[], at: number, from: any[], start?: number, end?: number) {
      mutableVector("vector-copy!", 1, to);
      const [s, e] = checkRange("vector-copy!", 4, start, end, from.length);
      checkCopyTarget("vector-copy!", at, e - s, to.length);
      visiting(e - s);
      if (to === from) to.copyWithin(at, s, e);
      else for (let i = s; i < e; i++) to[at + i - s] = from[i];
      return UNSPECIFIED;
    },
  },
  {
    name: "vector-append",
    params: ["vector ..."],
    types: [T.vector],
    doc: "A new vector of the elements of the vectors, in order.",
    impl(vs: any[][]) {
      let n = 0;
      for (const v of vs) n += v.length;
      checkAllocLength("vector-append", 1, n);
      const out = new Array(n);
      let at = 0;
      for (const v of vs) for (let i = 0; i < v.length; i++) out[at++] = v[i];
      return out;
    },
  },
  {
    name: "vector-fill!",
    params: ["vector", "fill", "[start]", "[end]"],
    types: [T.vector, null, T.index, T.index],
    doc: "Stores fill in the elements of vector from start (default 0) to end (default the length).",
    impl(v: any[], fill: any, start?: number, end?: number) {
      mutableVector("vector-fill!", 1, v);
      const [s, e] = checkRange("vector-fill!", 3, start, end, v.length);
      visiting(e - s);
      v.fill(fill, s, e);
      return UNSPECIFIED;
    },
  },
];
