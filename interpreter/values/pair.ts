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
