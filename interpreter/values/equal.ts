// eqv?, eq? and equal? (iterative, and terminating on cyclic data).

import { Pair } from "./pair.js";
import { MString } from "./string.js";
import { Compnum, Flonum, Ratnum } from "./numbers/repr.js";
import { spend, COST } from "../budget.js";

/** Elements compared between two charges to the running evaluation's budget (budget.ts). */
const CHARGE_EVERY = 1 << 16;

/**
 * R7RS `eq?`: identity. Fixnums and bigints are JS primitives compared by
 * value and characters are cached, so small exact integers, bignums and
 * characters are `eq?` when equal, and so are non-integral flonums, which are
 * bare doubles (ADR 0046) — except a NaN, which `===` never equates; integral
 * flonums and ratnums are boxed and are not.
 */
export function eq(a: any, b: any): boolean {
  return a === b;
}

/**
 * R7RS `eqv?`: `eq?`, plus numbers of the same exactness by value. Flonums
 * compare like `Object.is` on their doubles: 0.0 and -0.0 differ, and a NaN is
 * eqv to a NaN (JS cannot observe NaN payloads reliably, so all NaNs are one).
 */
export function eqv(a: any, b: any): boolean {
  if (a === b) return true;
  // Fixnums, bigints and bare flonums are primitives: === above already compared them
  // by value, except a NaN (bare numbers are never −0).
  if (typeof a === "number") return a !== a && typeof b === "number" && b !== b;
  if (a instanceof Flonum) return b instanceof Flonum && Object.is(a.v, b.v);
  if (a instanceof Ratnum) return b instanceof Ratnum && a.num === b.num && a.den === b.den;
  if (a instanceof Compnum) return b instanceof Compnum && eqv(a.re, b.re) && eqv(a.im, b.im);
  return false;
}

/**
 * Elements compared before cycle tracking starts. Acyclic data of ordinary
 * size is compared without allocating; past this budget a union-find bounds
 * the work on cyclic (and heavily shared) data to near-linear.
 */
const UNTRACKED_BUDGET = 100_000;

/** A union-find node: one per pair or vector popped after the budget ran out. */
interface UfNode {
  parent: UfNode | null;
  size: number;
}

/**
 * Union-find over compound objects. `merge(x, y)` returns true when x and y
 * were already in one class, i.e. their equality is already being assumed
 * (coinductively) and checked elsewhere.
 */
class EquivClasses {
  private readonly nodes = new Map<object, UfNode>();

  private find(x: object): UfNode {
    let n = this.nodes.get(x);
    if (n === undefined) {
      n = { parent: null, size: 1 };
      this.nodes.set(x, n);
      return n;
    }
    // Path halving: iterative, so long chains cannot overflow the JS stack.
    let p = n.parent;
    while (p !== null) {
      const g = p.parent;
      if (g === null) return p;
      n.parent = g;
      n = g;
      p = n.parent;
    }
    return n;
  }

  merge(x: object, y: object): boolean {
    const rx = this.find(x);
    const ry = this.find(y);
    if (rx === ry) return true;
    if (rx.size < ry.size) {
      rx.parent = ry;
      ry.size += rx.size;
    } else {
      ry.parent = rx;
      rx.size += ry.size;
    }
    return false;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** equal? on objects that are not pairs or vectors. */
function atomEqual(x: any, y: any): boolean {
  if (x instanceof MString) {
    if (!(y instanceof MString)) return false;
    const a = x.toString();
    const b = y.toString();
    if (a.length > 256 && a.length === b.length) spend(a.length * COST.charNs);
    return a === b;
  }
  if (x instanceof Uint8Array) {
    if (!(y instanceof Uint8Array)) return false;
    if (x.length > 256 && x.length === y.length) spend(x.length * COST.charNs);
    return sameBytes(x, y);
  }
  return eqv(x, y);
}

/**
 * R7RS `equal?`: pairs and vectors compared element by element, strings by
 * content (code points), bytevectors byte by byte, everything else by `eqv`.
 *
 * Iterative, and terminating on circular structure: two structures are equal
 * when their (possibly infinite) unfoldings are. The two list spines are
 * walked together in a loop whose atoms are compared on the spot and whose
 * compound elements are pushed on an explicit stack (so nesting depth only
 * costs heap). A cycle along the spines is caught by a tortoise on the pair of
 * spines (the state repeats, so everything after it was already compared).
 * Any other cycle passes through a popped pair or vector again: after
 * UNTRACKED_BUDGET elements, each popped (x, y) is merged into one
 * equivalence class before its elements are compared, and a popped (x, y)
 * already in one class is not compared again. Every class is justified by the
 * comparisons pushed at its merges, so `true` is sound; the merges are bounded
 * by the number of objects, so the walk ends. Flat lists never touch the
 * union-find, whatever their length.
 */
export function equal(a: any, b: any): boolean {
  const stack: any[] = [a, b];
  let budget = UNTRACKED_BUDGET;
  let classes: EquivClasses | null = null;
  let charged = budget;
  while (stack.length > 0) {
    if (charged - budget >= CHARGE_EVERY) {
      spend((charged - budget) * COST.elementNs * 4);
      charged = budget;
    }
    let y = stack.pop();
    let x = stack.pop();
    if (x === y) continue;
    if (x instanceof Pair) {
      if (!(y instanceof Pair)) return false;
      if (budget <= 0 && (classes ??= new EquivClasses()).merge(x, y)) continue;
      let tx: Pair = x;
      let ty: Pair = y;
      let odd = false;
      let cyclic = false;
      for (;;) {
        const ax = x.car;
        const ay = y.car;
        if (ax !== ay) {
          if (ax instanceof Pair || Array.isArray(ax)) stack.push(ax, ay);
          else if (!atomEqual(ax, ay)) return false;
        }
        if (--budget - charged <= -CHARGE_EVERY) {
          spend((charged - budget) * COST.elementNs * 4);
          charged = budget;
        }
        x = x.cdr;
        y = y.cdr;
        if (!(x instanceof Pair) || !(y instanceof Pair)) break;
        if ((odd = !odd)) continue;
        tx = tx.cdr;
        ty = ty.cdr;
        if (x === tx && y === ty) {
          cyclic = true;
          break;
        }
      }
      if (!cyclic && x !== y) stack.push(x, y);
      continue;
    }
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      if (x.length === 0) continue;
      if (budget <= 0 && (classes ??= new EquivClasses()).merge(x, y)) continue;
      budget -= x.length;
      for (let i = x.length - 1; i >= 0; i--) {
        const ex = x[i];
        const ey = y[i];
        if (ex === ey) continue;
        if (ex instanceof Pair || Array.isArray(ex)) stack.push(ex, ey);
        else if (!atomEqual(ex, ey)) return false;
      }
      continue;
    }
    if (!atomEqual(x, y)) return false;
  }
  return true;
}
