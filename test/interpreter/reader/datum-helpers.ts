// Test helpers for the reader and printer: reading shortcuts and structural equality of datums.
import { Reader, type ReadOptions } from "../../../interpreter/reader/reader.js";
import { SchemeError } from "../../../interpreter/errors.js";
import { Pair, NIL } from "../../../interpreter/values/pair.js";
import { Sym, Keyword, SymbolTable } from "../../../interpreter/values/symbol.js";
import { Char } from "../../../interpreter/values/char.js";
import { MString } from "../../../interpreter/values/string.js";
import { Compnum, Flonum, Ratnum } from "../../../interpreter/values/numbers/repr.js";

export function reader(text: string, opts: Partial<ReadOptions> = {}, symbols = new SymbolTable()): Reader {
  return new Reader(text, { symbols, file: "t.scm", ...opts });
}

export function readOne(text: string, symbols = new SymbolTable(), opts: Partial<ReadOptions> = {}): any {
  return reader(text, opts, symbols).read();
}

export function readAll(text: string, symbols = new SymbolTable(), opts: Partial<ReadOptions> = {}): any[] {
  return reader(text, opts, symbols).readAll();
}

export interface ReadFailure {
  where: string; // "line:col"
  message: string;
  code: string | undefined;
  kind: string;
}

/** The read error `text` raises (reading every datum), or null when it reads cleanly. */
export function readFailure(text: string): ReadFailure | null {
  try {
    readAll(text);
    return null;
  } catch (e) {
    if (!(e instanceof SchemeError)) throw e;
    const c = e.condition;
    return { where: c.loc ? `${c.loc.line}:${c.loc.col}` : "?", message: c.message, code: c.code, kind: c.kind };
  }
}

function sameAtom(a: any, b: any): boolean {
  if (a === b) return true;
  if (typeof a === "number" && typeof b === "number") return Number.isNaN(a) && Number.isNaN(b); // bare flonums (ADR 0046)
  if (typeof a === "bigint" || typeof b === "bigint") return typeof a === typeof b && a === b;
  if (a instanceof Flonum && b instanceof Flonum) return Object.is(a.v, b.v) || (Number.isNaN(a.v) && Number.isNaN(b.v));
  if (a instanceof Ratnum && b instanceof Ratnum) return a.num === b.num && a.den === b.den;
  if (a instanceof Compnum && b instanceof Compnum) return sameAtom(a.re, b.re) && sameAtom(a.im, b.im);
  if (a instanceof MString && b instanceof MString) return a.toString() === b.toString();
  if (a instanceof Char && b instanceof Char) return a.code === b.code;
  if (a instanceof Sym && b instanceof Sym) return a.name === b.name;
  if (a instanceof Keyword && b instanceof Keyword) return a.name === b.name;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return a.length === b.length && a.every((x, i) => x === b[i]);
  return false;
}

/**
 * Structural equality of two datums (pairs, vectors, and atoms compared by
 * value), terminating on cycles: a pair of nodes met again is assumed equal
 * (bisimulation). Symbols compare by name, so datums from two symbol tables compare.
 */
export function sameDatum(a: any, b: any): boolean {
  const assumed = new Map<object, Set<object>>();
  const todo: [any, any][] = [[a, b]];
  while (todo.length > 0) {
    const [x, y] = todo.pop() as [any, any];
    const xc = x instanceof Pair || Array.isArray(x);
    const yc = y instanceof Pair || Array.isArray(y);
    if (!xc || !yc) {
      if (xc !== yc || !sameAtom(x, y)) return false;
      continue;
    }
    let s = assumed.get(x);
    if (s?.has(y)) continue;
    if (!s) assumed.set(x, (s = new Set()));
    s.add(y);
    if (x instanceof Pair) {
      if (!(y instanceof Pair)) return false;
      todo.push([x.car, y.car], [x.cdr, y.cdr]);
    } else {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) todo.push([x[i], y[i]]);
    }
  }
  return true;
}

/**
 * True when the pair/vector graphs of `a` and `b` are the same shape including
 * sharing: a one-to-one correspondence of their nodes (atoms compared by value).
 */
export function isomorphic(a: any, b: any): boolean {
  const ab = new Map<object, object>();
  const ba = new Map<object, object>();
  const todo: [any, any][] = [[a, b]];
  while (todo.length > 0) {
    const [x, y] = todo.pop() as [any, any];
    const xc = x instanceof Pair || Array.isArray(x);
    const yc = y instanceof Pair || Array.isArray(y);
    if (!xc || !yc) {
      if (xc !== yc || !sameAtom(x, y)) return false;
      continue;
    }
    const mx = ab.get(x);
    const my = ba.get(y);
    if (mx !== undefined || my !== undefined) {
      if (mx !== y || my !== x) return false;
      continue;
    }
    ab.set(x, y);
    ba.set(y, x);
    if (x instanceof Pair) {
      if (!(y instanceof Pair)) return false;
      todo.push([x.car, y.car], [x.cdr, y.cdr]);
    } else {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) todo.push([x[i], y[i]]);
    }
  }
  return true;
}

export { NIL };
