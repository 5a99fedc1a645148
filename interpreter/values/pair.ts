// Pairs and the empty list: the list structure every other stage builds on.

/** The empty list '(); a singleton, compared with `===`. */
export class Nil {
  toString(): string {
    return "()";
  }
}
export const NIL: Nil = new Nil();

/** A mutable pair. The first pairs of forms read from code carry their place (LocatedPair, in the reader). */
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
 * error to mutate a literal). A subclass rather than a field, so an ordinary
 * pair costs nothing more and car/cdr read both alike; only the mutators ask
 * `instanceof LiteralPair` (docs/decisions/0044-immutable-literals.md).
 */
export class LiteralPair extends Pair {}

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
