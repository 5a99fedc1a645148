// Pairs and lists (R7RS §6.4) and the c[ad]{2,4}r of (scheme cxr): loops only, cycle-safe.
//
// member and assoc with a predicate call Scheme procedures, so they live in
// stdlib/ over the two-argument `%member` and `%assoc` here.

import {
  type ProcSpec,
  T,
  NIL,
  Pair,
  UNSPECIFIED,
  arrayToList,
  listLength,
  eqv,
  equal,
  argError,
  rangeError,
  COST,
  mutablePair,
} from "../../interpreter/api.js";
import { MAX_ALLOC_LENGTH, checkAllocLength, making, visiting } from "./vectors.js";

/** Largest make-list: a pair costs several times a vector slot. */
const MAX_LIST_LENGTH = MAX_ALLOC_LENGTH / 4;

/**
 * (c[ad]+r x): `path` is the name between c and r, applied right to left.
 * A non-pair on the way is a type error on the argument, saying which part
 * had to be a pair.
 */
function cxr(path: string): ProcSpec {
  const name = `c${path}r`;
  const ops: boolean[] = []; // true = car, in application order
  for (let i = path.length - 1; i >= 0; i--) ops.push(path[i] === "a");
  const parts = path.split("").map((c) => (c === "a" ? "car" : "cdr"));
  const desc = `The ${parts.join(" of the ")} of pair: ${parts.map((p) => `(${p} `).join("")}pair${")".repeat(parts.length)}.`;
  return {
    name,
    params: ["pair"],
    types: [T.pair],
    doc: desc,
    impl(x: any) {
      let v = x;
      for (let i = 0; i < ops.length; i++) {
        if (!(v instanceof Pair)) argError(name, 1, i === 0 ? "pair" : `pair whose c${path.slice(path.length - i)}r is a pair`, x);
        v = ops[i] ? v.car : v.cdr;
      }
      return v;
    },
  };
}

function cxrs(): ProcSpec[] {
  const out: ProcSpec[] = [];
  for (let len = 2; len <= 4; len++)
    for (let bits = 0; bits < 1 << len; bits++) {
      let path = "";
      for (let i = len - 1; i >= 0; i--) path += bits & (1 << i) ? "d" : "a";
      out.push(cxr(path));
    }
  return out;
}

/** A type error unless x is a proper list (circular and improper lists fail); its length, the walk charged. */
function checkProperList(who: string, argNo: number, x: any): number {
  const n = listLength(x);
  if (n < 0) argError(who, argNo, "proper list", x);
  visiting(n);
  return n;
}

/**
 * The pair of `l` at index k (for list-ref and list-set!): a range error when
 * the list has no more than k pairs.
 */
function pairAt(who: string, l: any, k: number): Pair {
  visiting(k);
  let p = l;
  for (let i = 0; i < k; i++) {
    if (!(p instanceof Pair)) rangeError(who, 2, `index ${k} out of range [0, ${i})`, k);
    p = p.cdr;
  }
  if (!(p instanceof Pair)) rangeError(who, 2, `index ${k} out of range [0, ${k})`, k);
  return p;
}

/**
 * The first tail of `l` whose car satisfies `same(x, car)`, or #f. `l` must be
 * a proper list: an improper end or a cycle (found by a tortoise moving at
 * half speed) is a type error rather than an endless search.
 */
function memGeneric(who: string, x: any, l: any, same: (a: any, b: any) => boolean): any {
  let p = l;
  let slow = l;
  let odd = false;
  let n = 0;
  while (p instanceof Pair) {
    if (same(x, p.car)) {
      visiting(n);
      return p;
    }
    if ((++n & 0xffff) === 0) visiting(0x10000);
    p = p.cdr;
    if ((odd = !odd)) continue;
    slow = slow.cdr;
    if (slow === p) argError(who, 2, "proper list", l);
  }
  if (p !== NIL) argError(who, 2, "proper list", l);
  visiting(n & 0xffff);
  return false;
}

/** Like memGeneric over an association list: returns the first pair whose car matches. */
function assGeneric(who: string, x: any, l: any, same: (a: any, b: any) => boolean): any {
  let p = l;
  let slow = l;
  let odd = false;
  let n = 0;
  while (p instanceof Pair) {
    const entry = p.car;
    if (!(entry instanceof Pair)) argError(who, 2, "association list (a list of pairs)", l);
    if (same(x, entry.car)) {
      visiting(n & 0xffff);
      return entry;
    }
    if ((++n & 0xffff) === 0) visiting(0x10000);
    p = p.cdr;
    if ((odd = !odd)) continue;
    slow = slow.cdr;
    if (slow === p) argError(who, 2, "association list (a list of pairs)", l);
  }
  if (p !== NIL) argError(who, 2, "association list (a list of pairs)", l);
  visiting(n & 0xffff);
  return false;
}

const same = (a: any, b: any): boolean => a === b;

// %member and %assoc report errors as 'member' and 'assoc': they are what the
// user called (through the stdlib wrappers).

/** The pair and list primitives of R7RS §6.4 and (scheme cxr). */
export const listPrimitives: ProcSpec[] = [
  {
    name: "pair?",
    params: ["obj"],
    doc: "True when obj is a pair.",
    impl: (x: any) => x instanceof Pair,
  },
  {
    name: "cons",
    params: ["obj1", "obj2"],
    doc: "A new pair whose car is obj1 and whose cdr is obj2.",
    impl: (a: any, b: any) => new Pair(a, b),
  },
  {
    name: "car",
    params: ["pair"],
    types: [T.pair],
    doc: "The car (first field) of pair.",
    impl: (p: Pair) => p.car,
  },
  {
    name: "cdr",
    params: ["pair"],
    types: [T.pair],
    doc: "The cdr (second field) of pair.",
    impl: (p: Pair) => p.cdr,
  },
  {
    name: "set-car!",
    params: ["pair", "obj"],
    types: [T.pair, null],
    doc: "Stores obj in the car of pair.",
    impl(p: Pair, x: any) {
      mutablePair("set-car!", 1, p).car = x;
      return UNSPECIFIED;
    },
  },
  {
    name: "set-cdr!",
    params: ["pair", "obj"],
    types: [T.pair, null],
    doc: "Stores obj in the cdr of pair.",
    impl(p: Pair, x: any) {
      mutablePair("set-cdr!", 1, p).cdr = x;
      return UNSPECIFIED;
    },
  },
  ...cxrs(),
  {
    name: "null?",
    params: ["obj"],
    doc: "True when obj is the empty list.",
    impl: (x: any) => x === NIL,
  },
  {
    name: "list?",
    params: ["obj"],
    doc: "True when obj is a proper list: the empty list, or pairs ending in the empty list. False for circular and improper lists.",
    impl: (x: any) => listLength(x) >= 0,
  },
  {
    name: "make-list",
    params: ["k", "[fill]"],
    types: [T.index, null],
    doc: "A new list of k elements, each fill (#f when fill is not given).",
    impl(k: number, fill: any) {
      checkAllocLength("make-list", 1, k, MAX_LIST_LENGTH, COST.pairBytes);
      const v = fill === undefined ? false : fill;
      let r: any = NIL;
      for (let i = 0; i < k; i++) r = new Pair(v, r);
      return r;
    },
  },
  {
    name: "list",
    params: ["obj ..."],
    doc: "A new list of the arguments.",
    impl(objs: any[]) {
      making(objs.length, COST.pairBytes);
      return arrayToList(objs);
    },
  },
  {
    name: "length",
    params: ["list"],
    types: [T.list],
    doc: "The number of elements of list. An improper or circular list is an error.",
    impl: (l: any) => checkProperList("length", 1, l),
  },
  {
    name: "append",
    params: ["list ..."],
    doc:
      "A list of the elements of the lists followed by the last argument, which is shared, not copied " +
      "(it may be any object: the result is then improper). Every argument but the last must be a proper list.",
    impl(args: any[]) {
      if (args.length === 0) return NIL;
      const last = args.length - 1;
      let n = 0;
      for (let i = 0; i < last; i++) n += checkProperList("append", i + 1, args[i]);
      making(n, COST.pairBytes);
      const head = new Pair(false, NIL);
      let tail = head;
      for (let i = 0; i < last; i++) {
        const l = args[i];
        for (let p = l; p !== NIL; p = p.cdr) {
          const c = new Pair(p.car, NIL);
          tail.cdr = c;
          tail = c;
        }
      }
      tail.cdr = args[last];
      return head.cdr;
    },
  },
  {
    name: "reverse",
    params: ["list"],
    types: [T.list],
    doc: "A new list of the elements of list in reverse order.",
    impl(l: any) {
      making(checkProperList("reverse", 1, l), COST.pairBytes);
      let r: any = NIL;
      for (let p = l; p !== NIL; p = p.cdr) r = new Pair(p.car, r);
      return r;
    },
  },
  {
    name: "list-tail",
    params: ["list", "k"],
    types: [T.any, T.index],
    doc: "The sublist of list obtained by omitting the first k elements (shared, not copied). The list must have at least k elements.",
    impl(l: any, k: number) {
      visiting(k);
      let p = l;
      for (let i = 0; i < k; i++) {
        if (!(p instanceof Pair)) rangeError("list-tail", 2, `${k} is more than the ${i} elements of the list`, k);
        p = p.cdr;
      }
      return p;
    },
  },
  {
    name: "list-ref",
    params: ["list", "k"],
    types: [T.list, T.index],
    doc: "Element k of list (0-based). The list must have more than k elements.",
    impl: (l: any, k: number) => pairAt("list-ref", l, k).car,
  },
  {
    name: "list-set!",
    params: ["list", "k", "obj"],
    types: [T.list, T.index, null],
    doc: "Stores obj as element k of list (0-based). The list must have more than k elements.",
    impl(l: any, k: number, x: any) {
      mutablePair("list-set!", 1, pairAt("list-set!", l, k)).car = x;
      return UNSPECIFIED;
    },
  },
  {
    name: "list-copy",
    params: ["obj"],
    doc:
      "A copy of the pairs of the list obj; the elements are shared. An improper list's final cdr is kept; " +
      "an obj that is not a pair is returned as is. A circular list is an error.",
    impl(x: any) {
      if (!(x instanceof Pair)) return x;
      const n = listLength(x);
      if (n === -2) argError("list-copy", 1, "list that is not circular", x);
      // An improper list's length is not known yet: its pairs are counted on the way.
      if (n >= 0) making(n, COST.pairBytes);
      let k = 0;
      const head = new Pair(false, NIL);
      let tail = head;
      let p: any = x;
      for (; p instanceof Pair; p = p.cdr) {
        const c = new Pair(p.car, NIL);
        tail.cdr = c;
        tail = c;
        if (n < 0 && (++k & 0xffff) === 0) making(0x10000, COST.pairBytes);
      }
      tail.cdr = p;
      return head.cdr;
    },
  },
  {
    name: "memq",
    params: ["obj", "list"],
    types: [null, T.list],
    doc: "The first tail of list whose car is eq? to obj, or #f.",
    impl: (x: any, l: any) => memGeneric("memq", x, l, same),
  },
  {
    name: "memv",
    params: ["obj", "list"],
    types: [null, T.list],
    doc: "The first tail of list whose car is eqv? to obj, or #f.",
    impl: (x: any, l: any) => memGeneric("memv", x, l, eqv),
  },
  {
    name: "%member",
    params: ["obj", "list"],
    types: [null, T.list],
    doc: "The first tail of list whose car is equal? to obj, or #f (member without a predicate).",
    impl: (x: any, l: any) => memGeneric("member", x, l, equal),
  },
  {
    name: "assq",
    params: ["obj", "alist"],
    types: [null, T.list],
    doc: "The first pair of the association list alist whose car is eq? to obj, or #f.",
    impl: (x: any, l: any) => assGeneric("assq", x, l, same),
  },
  {
    name: "assv",
    params: ["obj", "alist"],
    types: [null, T.list],
    doc: "The first pair of the association list alist whose car is eqv? to obj, or #f.",
    impl: (x: any, l: any) => assGeneric("assv", x, l, eqv),
  },
  {
    name: "%assoc",
    params: ["obj", "alist"],
    types: [null, T.list],
    doc: "The first pair of the association list alist whose car is equal? to obj, or #f (assoc without a predicate).",
    impl: (x: any, l: any) => assGeneric("assoc", x, l, equal),
  },
];
