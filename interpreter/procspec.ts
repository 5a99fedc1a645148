// How a procedure implemented in TypeScript is declared: one table entry per procedure.
//
// The registration layer (machine/primitive.ts) reads an entry, derives the arity
// from `params`, checks the count and the `types` of the arguments, and only
// then calls `impl` — so an implementation receives validated arguments and every
// bad-argument error reads the same. docs/reference/ is generated from entries.

import { Char } from "./values/char.js";
import { MString } from "./values/string.js";
import { Sym, Keyword } from "./values/symbol.js";
import { Pair, NIL } from "./values/pair.js";
import { Procedure } from "./values/procedure.js";
import { Flonum, Ratnum, isNumber, isReal } from "./values/numbers/repr.js";
import type { Ctx } from "./ctx.js";

/** A check on one argument, named as it appears in messages ("string expected"). */
export interface ArgType {
  readonly name: string;
  readonly test: (x: any) => boolean;
}

/**
 * One procedure. `params` name the parameters as the reference shows them:
 * `"k"` is required, `"[start]"` optional (impl receives `undefined` when it is
 * missing), `"obj ..."` takes the remaining arguments (impl receives them as
 * one JS array, possibly empty). `types` is aligned with `params` (`null` = any
 * value; the rest type applies to every rest argument).
 */
export interface ProcSpec {
  readonly name: string;
  readonly params: readonly string[];
  readonly types?: readonly (ArgType | null)[];
  readonly doc: string;
  /** Called with `this` = the interpreter context. Returns a Scheme value (never undefined). */
  readonly impl: (this: Ctx, ...args: any[]) => any;
  /** impl returns a Promise of the value: the machine suspends the evaluation until it settles. */
  readonly async?: boolean;
}

function t(name: string, test: (x: any) => boolean): ArgType {
  return { name, test };
}

/** The common argument types. */
export const T = {
  any: t("any value", () => true),
  number: t("number", isNumber),
  real: t("real number", isReal),
  integer: t("integer", (x) => (typeof x === "number" && Number.isInteger(x)) || typeof x === "bigint" || (x instanceof Flonum && Number.isInteger(x.v))),
  exactInteger: t("exact integer", (x) => (typeof x === "number" && Number.isInteger(x)) || typeof x === "bigint"),
  exactRational: t("exact rational", (x) => (typeof x === "number" && Number.isInteger(x)) || typeof x === "bigint" || x instanceof Ratnum),
  /** An exact non-negative integer small enough to index anything (a fixnum ≥ 0). */
  index: t("exact non-negative integer", (x) => typeof x === "number" && Number.isInteger(x) && x >= 0),
  byte: t("byte (exact integer 0..255)", (x) => typeof x === "number" && Number.isInteger(x) && x >= 0 && x <= 255),
  char: t("character", (x) => x instanceof Char),
  string: t("string", (x) => x instanceof MString),
  symbol: t("symbol", (x) => x instanceof Sym),
  keyword: t("keyword", (x) => x instanceof Keyword),
  pair: t("pair", (x) => x instanceof Pair),
  /** Only checks the first pair: procedures walking a list check its end themselves. */
  list: t("list", (x) => x === NIL || x instanceof Pair),
  procedure: t("procedure", (x) => x instanceof Procedure),
  vector: t("vector", (x) => Array.isArray(x)),
  bytevector: t("bytevector", (x) => x instanceof Uint8Array),
  boolean: t("boolean", (x) => typeof x === "boolean"),
} as const;

/** Parses `params` into the arity the registration layer checks. */
export function specArity(params: readonly string[]): { min: number; max: number; rest: boolean } {
  let min = 0;
  let max = 0;
  let rest = false;
  for (const p of params) {
    if (p.endsWith("...")) rest = true;
    else if (p.startsWith("[")) max++;
    else {
      min++;
      max++;
    }
  }
  return { min, max: rest ? -1 : max, rest };
}
