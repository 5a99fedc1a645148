// Functions and values that compiled code calls by name (the `H` object of a compilation unit).
//
// Small on purpose: V8 inlines them into the generated code, so the fast path
// (a pair, a fixnum, an in-range index) costs a type check and a load.

import { Pair, LiteralPair, NIL, LITERAL } from "../values/pair.js";
import { Procedure } from "../values/procedure.js";
import { Sym } from "../values/symbol.js";
import { MString } from "../values/string.js";
import { Char } from "../values/char.js";
import { Box, UNSPECIFIED, UNINIT, EOF, MultipleValues, valuesToArray } from "../values/misc.js";
import { add, sub, mul, neg, numEq, lt, gt, le, ge, quotient, remainder, modulo, isZero as numIsZero } from "../values/numbers/arith.js";
import { char as charOf } from "../values/char.js";
import { eqv, equal } from "../values/equal.js";
import { argError, rangeError, raiseError, literalError } from "../errors.js";
import { TAIL, notProcedure, Unbound, JS_DEPTH_LIMIT } from "./runtime.js";
import { applyArray } from "./frames.js";

export function car(x: any): any {
  return x instanceof Pair ? x.car : argError("car", 1, "pair", x);
}
export function cdr(x: any): any {
  return x instanceof Pair ? x.cdr : argError("cdr", 1, "pair", x);
}
export function setCar(x: any, v: any): any {
  if (!(x instanceof Pair)) argError("set-car!", 1, "pair", x);
  if (x instanceof LiteralPair) literalError("set-car!", 1, "pair", x);
  x.car = v;
  return UNSPECIFIED;
}
export function setCdr(x: any, v: any): any {
  if (!(x instanceof Pair)) argError("set-cdr!", 1, "pair", x);
  if (x instanceof LiteralPair) literalError("set-cdr!", 1, "pair", x);
  x.cdr = v;
  return UNSPECIFIED;
}
export function isZero(x: any): boolean {
  return x === 0 || (typeof x !== "number" && numIsZero(x));
}
export function vref(v: any, i: any): any {
  if (Array.isArray(v) && typeof i === "number" && i >= 0 && i < v.length && Number.isInteger(i)) return v[i];
  return vrefSlow(v, i);
}
function vrefSlow(v: any, i: any): never {
  if (!Array.isArray(v)) argError("vector-ref", 1, "vector", v);
  if (typeof i !== "number" || !Number.isInteger(i) || i < 0) argError("vector-ref", 2, "exact non-negative integer", i);
  return rangeError("vector-ref", 2, `index ${i} out of range [0, ${v.length})`, i);
}
export function vset(v: any, i: any, x: any): any {
  // A literal vector carries the LITERAL mark; an ordinary one misses it on a cached lookup.
  if (Array.isArray(v) && typeof i === "number" && i >= 0 && i < v.length && Number.isInteger(i) && (v as any)[LITERAL] !== true) {
    v[i] = x;
    return UNSPECIFIED;
  }
  if (!Array.isArray(v)) argError("vector-set!", 1, "vector", v);
  if ((v as any)[LITERAL] === true) literalError("vector-set!", 1, "vector", v);
  if (typeof i !== "number" || !Number.isInteger(i) || i < 0) argError("vector-set!", 2, "exact non-negative integer", i);
  return rangeError("vector-set!", 2, `index ${i} out of range [0, ${v.length})`, i);
}
export function vlen(v: any): number {
  return Array.isArray(v) ? v.length : argError("vector-length", 1, "vector", v);
}

export function charEq(a: any, b: any): boolean {
  if (a instanceof Char && b instanceof Char) return a === b;
  return argError("char=?", a instanceof Char ? 2 : 1, "character", a instanceof Char ? b : a);
}
export function charLt(a: any, b: any): boolean {
  if (a instanceof Char && b instanceof Char) return a.code < b.code;
  return argError("char<?", a instanceof Char ? 2 : 1, "character", a instanceof Char ? b : a);
}
export function charCode(c: any): number {
  return c instanceof Char ? c.code : argError("char->integer", 1, "character", c);
}
export function slen(s: any): number {
  return s instanceof MString ? s.length : argError("string-length", 1, "string", s);
}
export function sref(s: any, i: any): any {
  if (s instanceof MString && typeof i === "number" && i >= 0 && i < s.length && Number.isInteger(i)) return charOf(s.ref(i));
  if (!(s instanceof MString)) argError("string-ref", 1, "string", s);
  if (typeof i !== "number" || !Number.isInteger(i) || i < 0) argError("string-ref", 2, "exact non-negative integer", i);
  return rangeError("string-ref", 2, `index ${i} out of range [0, ${s.length})`, i);
}

/** Value of a global that may be unbound. */
export function gv(cell: { v: any; name: Sym }): any {
  const v = cell.v;
  if (v instanceof Unbound) raiseError("unbound", `unbound variable: ${cell.name.name}`, [cell.name]);
  return v;
}
/** set! of a global that must already be defined. */
export function gset(cell: { v: any; name: Sym }, x: any): any {
  if (cell.v instanceof Unbound) raiseError("unbound", `set!: unbound variable: ${cell.name.name}`, [cell.name]);
  cell.v = x;
  return UNSPECIFIED;
}
/** A letrec variable read before its initialisation ran. */
export function chk(x: any, name: string): any {
  if (x === UNINIT) raiseError("unbound", `variable ${name} used before its definition was evaluated`, []);
  return x;
}

/** Calls `p` with the values `mv` (one value or MultipleValues), non-tail. */
export function applyValues(p: any, mv: any): any {
  if (!(p instanceof Procedure)) notProcedure(p, valuesToArray(mv));
  return mv instanceof MultipleValues ? applyArray(p, mv.vals) : p.f1(mv);
}

/** Everything a compilation unit destructures from `H`. */
export const HELPERS = {
  car,
  cdr,
  setCar,
  setCdr,
  isZero,
  vref,
  vset,
  vlen,
  charEq,
  charLt,
  charCode,
  slen,
  sref,
  quotient,
  remainder,
  modulo,
  gv,
  gset,
  chk,
  applyValues,
  applyArray,
  valuesToArray,
  add,
  sub,
  mul,
  neg,
  numEq,
  lt,
  gt,
  le,
  ge,
  eqv,
  equal,
  np: notProcedure,
  TAIL,
  LIM: JS_DEPTH_LIMIT,
  NIL,
  UNSP: UNSPECIFIED,
  UNINIT,
  EOF,
  Pair,
  P: Procedure,
  Sym,
  MString,
  Char,
  Box,
};
export const HELPER_NAMES = Object.keys(HELPERS);
