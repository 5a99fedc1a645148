// SRFI 132's sorts in TypeScript for the orderings the host knows: <, >, string<?, string>?, char<?, char>? and their -ci forms.
//
// stdlib/srfi/132.sld recognises the ordering procedure (by identity) and
// calls these; any other procedure is sorted by the Scheme merge sort there,
// which calls it (a primitive never calls a Scheme procedure). The engine's
// Array.prototype.sort is a stable merge sort (TimSort), so every sort here
// is stable, as list-stable-sort and vector-stable-sort require.

import { type ProcSpec, type ArgType, T, NIL, Pair, MString, Char, Sym, argError, rangeError, allocate, spend, COST, UNSPECIFIED, numCompare, isNumber, mutableVector } from "../../interpreter/api.js";

/** The orderings sorted here, by the name of the procedure (the Scheme side passes it). */
type Order = (a: any, b: any) => number;

import { compareCodePoints, foldcaseString as foldcase } from "../scheme/unicode.js";

function realOrder(who: string): Order {
  return (a, b) => {
    if (typeof a === "number" && typeof b === "number") return a - b;
    if (!isNumber(a)) argError(who, 1, "real number", a);
    if (!isNumber(b)) argError(who, 1, "real number", b);
    const c = numCompare(a, b);
    return Number.isNaN(c) ? 0 : c;
  };
}

function typed(who: string, test: (x: any) => boolean, what: string, key: (x: any) => any): Order {
  return (a, b) => {
    if (!test(a)) argError(who, 1, what, a);
    if (!test(b)) argError(who, 1, what, b);
    const x = key(a);
    const y = key(b);
    if (typeof x === "string") return compareCodePoints(x, y);
    return x < y ? -1 : x > y ? 1 : 0;
  };
}

const isStr = (x: any) => x instanceof MString;
const isChar = (x: any) => x instanceof Char;

/** A string's text; compared by code point, as string<? compares. */
function strKey(x: MString): string {
  return x.toString();
}

/** char-foldcase's code point (a single character's simple folding). */
function foldChar(code: number): number {
  const f = foldcase(String.fromCodePoint(code));
  return [...f].length === 1 ? (f.codePointAt(0) as number) : code;
}

function orderOf(name: string): Order {
  switch (name) {
    case "<":
      return realOrder("<");
    case ">": {
      const o = realOrder(">");
      return (a, b) => o(b, a);
    }
    case "string<?":
      return typed("string<?", isStr, "string", strKey);
    case "string>?": {
      const o = typed("string>?", isStr, "string", strKey);
      return (a, b) => o(b, a);
    }
    case "string-ci<?":
      return typed("string-ci<?", isStr, "string", (s) => foldcase(strKey(s)));
    case "string-ci>?": {
      const o = typed("string-ci>?", isStr, "string", (s) => foldcase(strKey(s)));
      return (a, b) => o(b, a);
    }
    case "char<?":
      return typed("char<?", isChar, "character", (c) => c.code);
    case "char>?": {
      const o = typed("char>?", isChar, "character", (c) => c.code);
      return (a, b) => o(b, a);
    }
    case "char-ci<?":
      return typed("char-ci<?", isChar, "character", (c) => foldChar(c.code));
    case "char-ci>?": {
      const o = typed("char-ci>?", isChar, "character", (c) => foldChar(c.code));
      return (a, b) => o(b, a);
    }
    default:
      throw new Error(`no TypeScript sort for ${name}`);
  }
}

/** Sorts a[start, end) in place, stably. */
function sortRange(a: any[], start: number, end: number, order: string): void {
  const n = end - start;
  spend(n * Math.max(1, Math.log2(n + 1)) * COST.elementNs * 4);
  if (order === "<" || order === ">") {
    // All fixnums: compare by subtraction, no type checks.
    let fix = true;
    for (let i = start; i < end; i++) if (typeof a[i] !== "number") { fix = false; break; }
    if (fix) {
      if (start === 0 && end === a.length) {
        a.sort(order === "<" ? (x, y) => x - y : (x, y) => y - x);
        return;
      }
      const part = a.slice(start, end).sort(order === "<" ? (x, y) => x - y : (x, y) => y - x);
      for (let i = 0; i < n; i++) a[start + i] = part[i];
      return;
    }
  }
  const cmp = orderOf(order);
  const part = start === 0 && end === a.length ? a : a.slice(start, end);
  part.sort(cmp);
  if (part !== a) for (let i = 0; i < n; i++) a[start + i] = part[i];
}

const ORDER: ArgType = { name: "ordering name", test: (x: any) => x instanceof Sym };

function range(who: string, v: any[], start: any, end: any, argNo: number): [number, number] {
  const s = start === undefined ? 0 : start;
  const e = end === undefined ? v.length : end;
  if (s > v.length) rangeError(who, argNo, `start ${s} out of range [0, ${v.length}]`, s);
  if (e > v.length || e < s) rangeError(who, argNo + 1, `end ${e} out of range [${s}, ${v.length}]`, e);
  return [s, e];
}

/** The procedures of (nodwyn primitives srfi 132). */
export const sortingPrimitives: ProcSpec[] = [
  {
    name: "%list-sort",
    params: ["who", "order", "list"],
    types: [T.symbol, ORDER, T.list],
    doc: "A new sorted list of the list's elements, stably, by a known ordering.",
    impl(who: Sym, order: Sym, l: any) {
      const a: any[] = [];
      let p = l;
      while (p instanceof Pair) {
        a.push(p.car);
        p = p.cdr;
      }
      if (p !== NIL) argError(who.name, 2, "proper list", l);
      allocate(a.length * (COST.pairBytes + COST.slotBytes));
      sortRange(a, 0, a.length, order.name);
      let out: any = NIL;
      for (let i = a.length - 1; i >= 0; i--) out = new Pair(a[i], out);
      return out;
    },
  },
  {
    name: "%vector-sort",
    params: ["who", "order", "vector", "[start]", "[end]"],
    types: [T.symbol, ORDER, T.vector, T.index, T.index],
    doc: "A new vector of the sorted elements of vector[start, end), stably, by a known ordering.",
    impl(who: Sym, order: Sym, v: any[], start: any, end: any) {
      const [s, e] = range(who.name, v, start, end, 3);
      allocate((e - s) * COST.slotBytes);
      const out = v.slice(s, e);
      sortRange(out, 0, out.length, order.name);
      return out;
    },
  },
  {
    name: "%vector-sort!",
    params: ["who", "order", "vector", "[start]", "[end]"],
    types: [T.symbol, ORDER, T.vector, T.index, T.index],
    doc: "Sorts vector[start, end) in place, stably, by a known ordering.",
    impl(who: Sym, order: Sym, v: any[], start: any, end: any) {
      mutableVector(who.name, 2, v);
      const [s, e] = range(who.name, v, start, end, 3);
      sortRange(v, s, e, order.name);
      return UNSPECIFIED;
    },
  },
];
