// SRFI 1's procedures that are faster in TypeScript: removing duplicates under eq?, eqv?, equal?, string=? or char=? by hashing.
//
// SRFI 1's delete-duplicates compares every pair of elements with its `=`
// argument, O(n²). When `=` is eq?, eqv?, equal? (the default), string=? or
// char=? the result is the same with a key of each element that the predicate
// respects, in linear time; (srfi 1) calls this then, and its Scheme loop otherwise.

import { type ProcSpec, T, NIL, Pair, Sym, MString, Char, Flonum, Ratnum, Compnum, equal, argError, spend, allocate, COST } from "../../interpreter/api.js";

type Mode = "eq" | "eqv" | "equal" | "string" | "char";

/** Atoms of a structured value that go into its hash: enough to spread real data, bounded so hashing stays linear. */
const HASH_ATOMS = 24;

/** A Map key under which eqv? elements meet: numbers by value (exactness kept apart), anything else by identity. */
function eqvKey(x: any): unknown {
  if (x instanceof Flonum) return Object.is(x.v, -0) ? "f-0" : `f${x.v}`;
  if (x instanceof Ratnum) return `r${x.num}/${x.den}`;
  if (x instanceof Compnum) return `c${eqvKey(x.re)}|${eqvKey(x.im)}`;
  return x;
}

/** A hash of a pair, vector, string or bytevector that equal? respects (equal values, equal hashes). */
function equalHash(x: any): string {
  let out = "";
  let atoms = 0;
  const stack: any[] = [x];
  while (stack.length > 0 && atoms < HASH_ATOMS) {
    const v = stack.pop();
    atoms++;
    if (v instanceof Pair) {
      out += "(";
      stack.push(v.cdr, v.car);
    } else if (Array.isArray(v)) {
      out += `#${v.length}(`;
      for (let i = Math.min(v.length, HASH_ATOMS) - 1; i >= 0; i--) stack.push(v[i]);
    } else if (v instanceof MString) out += `"${v.toString()}`;
    else if (v instanceof Uint8Array) out += `#u8${v.length}:${v.subarray(0, HASH_ATOMS).join(",")}`;
    else if (v === NIL) out += ")";
    else if (v instanceof Sym) out += `'${v.name}`;
    else if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean") out += ` ${String(v)}`;
    else {
      const k = eqvKey(v);
      // Anything else (characters, records, procedures …) is compared by equal? in its bucket.
      out += typeof k === "string" ? ` ${k}` : " ?";
    }
  }
  return out;
}

function isStructured(x: any): boolean {
  return x instanceof Pair || Array.isArray(x) || x instanceof MString || x instanceof Uint8Array;
}

/** The elements of the proper list `l` without later duplicates under `mode`, in their order; in `l`'s own pairs when `inPlace`. */
function dedupe(who: string, l: any, mode: Mode, inPlace: boolean): any {
  const seen = new Map<unknown, any[] | true>();
  const head = new Pair(false, NIL);
  let tail = head;
  let p = l;
  let slow = l;
  let n = 0;
  for (; p instanceof Pair; p = p.cdr) {
    const x = p.car;
    let fresh: boolean;
    if (mode === "equal" && isStructured(x)) {
      const h = equalHash(x);
      const bucket = seen.get(h);
      if (bucket === undefined) {
        seen.set(h, [x]);
        fresh = true;
      } else if (bucket === true || bucket.some((y) => equal(y, x))) fresh = false;
      else {
        bucket.push(x);
        fresh = true;
      }
    } else if (mode === "string" || mode === "char") {
      // As the Scheme loop would: string=? (or char=?) is called as (= kept later) from the second element on, and
      // refuses anything else: a later element as argument #2, the first one (kept, never compared alone) as #1.
      const ok = (v: any) => (mode === "string" ? v instanceof MString : v instanceof Char);
      if (n > 0 && (!ok(l.car) || !ok(x))) argError(mode === "string" ? "string=?" : "char=?", ok(l.car) ? 2 : 1, mode === "string" ? "string" : "char", ok(l.car) ? x : l.car);
      const k = ok(x) ? (mode === "string" ? (x as MString).toString() : (x as Char).code) : x;
      fresh = !seen.has(k);
      if (fresh) seen.set(k, true);
    } else {
      const k = mode === "eq" ? x : eqvKey(x);
      fresh = !seen.has(k);
      if (fresh) seen.set(k, true);
    }
    // Each element costs a hash and a lookup, and a kept one a pair: charged in batches of 1024.
    if ((n & 1023) === 1023) {
      spend(1024 * COST.elementNs * 8);
      allocate(1024 * (COST.pairBytes + COST.slotBytes));
    }
    if (fresh) {
      const c = inPlace ? p : new Pair(x, NIL);
      tail.cdr = c;
      tail = c;
    }
    // A circular list is not a list: the slow pointer, at half speed, meets the fast one in a cycle.
    if ((++n & 1) === 0) {
      slow = slow.cdr;
      if (slow === p.cdr) argError(who, 1, "proper list (not circular)", l);
    }
  }
  if (p !== NIL) argError(who, 1, "proper list", l);
  tail.cdr = NIL;
  return head.cdr;
}

const MODES: Record<string, Mode> = { "eq?": "eq", "eqv?": "eqv", "equal?": "equal", "string=?": "string", "char=?": "char" };

/** The procedures of (nodwyn primitives srfi 1). */
export const listPrimitives1: ProcSpec[] = [
  {
    name: "delete-duplicates",
    params: ["list", "equivalence", "in-place"],
    types: [T.list, T.symbol, T.boolean],
    doc: "The elements of list without the later ones eq?, eqv?, equal?, string=? or char=? (the symbol equivalence names which) to an earlier one, in their order, in linear time; in list's own pairs when in-place is true.",
    impl(l: any, eqName: Sym, inPlace: boolean) {
      const who = inPlace ? "delete-duplicates!" : "delete-duplicates";
      const mode = MODES[eqName.name];
      if (mode === undefined) argError(who, 2, "eq?, eqv?, equal?, string=? or char=?", eqName);
      return dedupe(who, l, mode, inPlace);
    },
  },
];
