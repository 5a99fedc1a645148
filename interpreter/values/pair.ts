// Pairs and the empty list: the list structure every other stage builds on.

import type { SourceLoc } from "./loc.js";

/** The empty list '(); a singleton, compared with `===`. */
export class Nil {
  toString(): string {
    return "()";
  }
}
export const NIL: Nil = new Nil();

/** A mutable pair. Pairs read from program text are LiteralPairs (immutable; the first pairs of forms carry their place). */
export class Pair {
  car: any;
  cdr: any;
  constructor(car: any, cdr: any) {
    this.car = car;
    this.cdr = cdr;
  }
}

/**
 * A pair the reader made from program text: part of a literal constant, which
 * set-car!, set-cdr! and the other Scheme mutators refuse (R7RS §3.4: it is an
 * error to mutate a literal); only the mutators ask `instanceof LiteralPair`.
 *
 * It also carries where it was read (`loc`) when it is the first pair of a
 * list or of a quote-like form read with locations on, and `undefined`
 * otherwise: one class for both, every instance with the same two-plus-one
 * fields, so that car and cdr see the two pair shapes they always saw (Pair
 * and this) and stay as fast as before; a third class for unlocated literal
 * pairs cost up to 1.2x on list loops (docs/decisions/0044-immutable-literals.md).
 * A field rather than a WeakMap of pairs: V8's weak tables grow superlinearly
 * in cost (10^6 entries took seconds to read 10^6 characters of `'`).
 */
export class LiteralPair extends Pair {
  readonly loc: SourceLoc | undefined;
  constructor(car: any, cdr: any, loc: SourceLoc | undefined) {
    super(car, cdr);
    this.loc = loc;
  }
}

/**
 * The mark of a vector or bytevector the reader made from program text (a
 * literal constant): a non-enumerable own property the mutators look for, so
 * the elements stay a plain JS array or Uint8Array and reads are unchanged.
 */
export const LITERAL: unique symbol = Symbol("nodwyn.literal");

/** Marks a vector or bytevector read from program text as a literal; returns it. */
export function markLiteral<T extends object>(x: T): T {
  Object.defineProperty(x, LITERAL, { value: true });
  return x;
}

/** True for a vector or bytevector marked by `markLiteral`. */
export function isLiteral(x: any): boolean {
  return x[LITERAL] === true;
}

export function cons(a: any, b: any): Pair {
  return new Pair(a, b);
}

/** Builds a proper list from JS values (which must already be Scheme values). */
export function list(...items: any[]): any {
  return arrayToList(items);
}

export function arrayToList(items: readonly any[], tail: any = NIL, start = 0): any {
  let r = tail;
  for (let i = items.length - 1; i >= start; i--) r = new Pair(items[i], r);
  return r;
}

/**
 * The elements of a proper list as an array, or null when `x` is not a proper
 * list (improper or circular). Never loops forever.
 */
export function listToArray(x: any): any[] | null {
  const out: any[] = [];
  let slow = x;
  while (x instanceof Pair) {
    out.push(x.car);
    x = x.cdr;
    if (!(x instanceof Pair)) break;
    out.push(x.car);
    x = x.cdr;
    slow = slow.cdr;
    if (x === slow) return null;
  }
  return x === NIL ? out : null;
}

/** Length of a proper list, -1 for an improper list, -2 for a circular one. */
export function listLength(x: any): number {
  let n = 0;
  let slow = x;
  for (;;) {
    if (x === NIL) return n;
    if (!(x instanceof Pair)) return -1;
    x = x.cdr;
    n++;
    if (x === NIL) return n;
    if (!(x instanceof Pair)) return -1;
    x = x.cdr;
    n++;
    slow = slow.cdr;
    if (x === slow) return -2;
  }
}

export function isList(x: any): boolean {
  return listLength(x) >= 0;
}
