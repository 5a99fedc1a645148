// Built-in procedures the compiler opens in place, by primitive name.
//
// A global cell whose `prim` is set holds one of these built-ins and cannot be
// reassigned (an imported binding), so a call with a matching argument count
// becomes the helper call below instead of a procedure call. Helpers live in
// machine/helpers.ts and keep the type checks and error messages of the
// primitive itself.

export interface InlineOp {
  /** Argument counts accepted. */
  readonly arity: readonly number[];
  /** JS expression for the arguments' JS expressions. */
  readonly gen: (a: readonly string[]) => string;
  /** The expression is a JS boolean (usable directly as an `if` test). */
  readonly bool?: boolean;
  /** May raise an error (so the call site's location must be recorded first). */
  readonly fails: boolean;
}

const call = (fn: string) => (a: readonly string[]) => `${fn}(${a.join(", ")})`;

const fold = (fn: string) => (a: readonly string[]) => {
  let e = a[0] as string;
  for (let i = 1; i < a.length; i++) e = `${fn}(${e}, ${a[i]})`;
  return e;
};

export const INLINE: Readonly<Record<string, InlineOp>> = {
  car: { arity: [1], gen: call("car"), fails: true },
  cdr: { arity: [1], gen: call("cdr"), fails: true },
  cons: { arity: [2], gen: (a) => `new Pair(${a[0]}, ${a[1]})`, fails: false },
  caar: { arity: [1], gen: (a) => `car(car(${a[0]}))`, fails: true },
  cadr: { arity: [1], gen: (a) => `car(cdr(${a[0]}))`, fails: true },
  cdar: { arity: [1], gen: (a) => `cdr(car(${a[0]}))`, fails: true },
  cddr: { arity: [1], gen: (a) => `cdr(cdr(${a[0]}))`, fails: true },
  "set-car!": { arity: [2], gen: call("setCar"), fails: true },
  "set-cdr!": { arity: [2], gen: call("setCdr"), fails: true },
  "null?": { arity: [1], gen: (a) => `(${a[0]} === NIL)`, bool: true, fails: false },
  "pair?": { arity: [1], gen: (a) => `(${a[0]} instanceof Pair)`, bool: true, fails: false },
  not: { arity: [1], gen: (a) => `(${a[0]} === false)`, bool: true, fails: false },
  "eq?": { arity: [2], gen: (a) => `(${a[0]} === ${a[1]})`, bool: true, fails: false },
  "eqv?": { arity: [2], gen: call("eqv"), bool: true, fails: false },
  "equal?": { arity: [2], gen: call("equal"), bool: true, fails: false },
  "procedure?": { arity: [1], gen: (a) => `(${a[0]} instanceof P)`, bool: true, fails: false },
  "symbol?": { arity: [1], gen: (a) => `(${a[0]} instanceof Sym)`, bool: true, fails: false },
  "string?": { arity: [1], gen: (a) => `(${a[0]} instanceof MString)`, bool: true, fails: false },
  "vector?": { arity: [1], gen: (a) => `Array.isArray(${a[0]})`, bool: true, fails: false },
  "char?": { arity: [1], gen: (a) => `(${a[0]} instanceof Char)`, bool: true, fails: false },
  "boolean?": { arity: [1], gen: (a) => `(typeof ${a[0]} === "boolean")`, bool: true, fails: false },
  "+": { arity: [2, 3, 4], gen: fold("add"), fails: true },
  "-": { arity: [1, 2, 3, 4], gen: (a) => (a.length === 1 ? `neg(${a[0]})` : fold("sub")(a)), fails: true },
  "*": { arity: [2, 3, 4], gen: fold("mul"), fails: true },
  "=": { arity: [2], gen: call("numEq"), bool: true, fails: true },
  "<": { arity: [2], gen: call("lt"), bool: true, fails: true },
  ">": { arity: [2], gen: call("gt"), bool: true, fails: true },
  "<=": { arity: [2], gen: call("le"), bool: true, fails: true },
  ">=": { arity: [2], gen: call("ge"), bool: true, fails: true },
  "zero?": { arity: [1], gen: call("isZero"), bool: true, fails: true },
  quotient: { arity: [2], gen: call("quotient"), fails: true },
  remainder: { arity: [2], gen: call("remainder"), fails: true },
  modulo: { arity: [2], gen: call("modulo"), fails: true },
  "eof-object?": { arity: [1], gen: (a) => `(${a[0]} === EOF)`, bool: true, fails: false },
  "char=?": { arity: [2], gen: call("charEq"), bool: true, fails: true },
  "char<?": { arity: [2], gen: call("charLt"), bool: true, fails: true },
  "char->integer": { arity: [1], gen: call("charCode"), fails: true },
  "string-length": { arity: [1], gen: call("slen"), fails: true },
  "string-ref": { arity: [2], gen: call("sref"), fails: true },
  "vector-ref": { arity: [2], gen: call("vref"), fails: true },
  "vector-set!": { arity: [3], gen: call("vset"), fails: true },
  "vector-length": { arity: [1], gen: call("vlen"), fails: true },
};
