// Raising Scheme conditions from TypeScript: what primitives and the stages call on bad input.
//
// A SchemeError is thrown as a JS exception, but it is not a JS Error (no JS
// stack is captured: they are ordinary control flow). The machine turns it into
// a Scheme `raise` at the point of the failure, so handlers, guard and
// backtraces see it like any other raised condition.

import { Condition, type ErrorKind } from "./values/condition.js";
import type { SourceLoc } from "./values/loc.js";
import { LiteralPair, isLiteral } from "./values/pair.js";
import { writeShort } from "./printer/printer.js";

export class SchemeError {
  readonly condition: Condition;
  constructor(condition: Condition) {
    this.condition = condition;
  }
}

export function makeCondition(kind: ErrorKind, message: string, irritants: readonly any[] = [], who?: string, loc?: SourceLoc): Condition {
  const c = new Condition(kind, message, irritants, who);
  if (loc) c.loc = loc;
  return c;
}

/** Raises a condition of `kind`. */
export function raiseError(kind: ErrorKind, message: string, irritants: readonly any[] = [], who?: string, loc?: SourceLoc): never {
  throw new SchemeError(makeCondition(kind, message, irritants, who, loc));
}

/** `bad argument #2 to 'who' (string expected, got 42)`: a type error for argument `argNo` (1-based). */
export function argError(who: string, argNo: number, expected: string, got: unknown): never {
  throw new SchemeError(
    makeCondition("type", `bad argument #${argNo} to '${who}' (${expected} expected, got ${writeShort(got)})`, [got], who),
  );
}

/**
 * A literal constant given to a mutator (R7RS §3.4: it is an error to mutate
 * one): `bad argument #1 to 'set-car!' (mutable pair (a literal is immutable:
 * list-copy it) expected, got (1 2))`. Names the copy that fixes the program.
 */
export function literalError(who: string, argNo: number, what: "pair" | "vector" | "bytevector", got: unknown): never {
  const copy = what === "pair" ? "list-copy" : what === "vector" ? "vector-copy" : "bytevector-copy";
  return argError(who, argNo, `mutable ${what} (a literal is immutable: ${copy} it)`, got);
}

/** Refuses a literal pair (read from program text) as the pair a mutator changes; returns the pair. */
export function mutablePair<P>(who: string, argNo: number, p: P): P {
  if (p instanceof LiteralPair) literalError(who, argNo, "pair", p);
  return p;
}

/** Refuses a literal vector or bytevector as the one a mutator changes; returns it. */
export function mutableVector<V extends object>(who: string, argNo: number, v: V): V {
  if (isLiteral(v)) literalError(who, argNo, v instanceof Uint8Array ? "bytevector" : "vector", v);
  return v;
}

/** A range error for argument `argNo`: `bad argument #2 to 'vector-ref' (index 5 out of range [0, 3))`. */
export function rangeError(who: string, argNo: number, detail: string, got: unknown): never {
  throw new SchemeError(makeCondition("range", `bad argument #${argNo} to '${who}' (${detail})`, [got], who));
}

/** A host failure with a stable code (e.g. "ENOENT", "guard-denied", "no-file-access"). */
export function hostError(code: string, message: string, irritants: readonly any[] = [], who?: string): never {
  const c = makeCondition("host", message, irritants, who);
  c.code = code;
  throw new SchemeError(c);
}

/** A file error (file-error? is true of it), e.g. a file that cannot be opened. */
export function fileError(who: string, message: string, path: unknown, code?: string): never {
  const c = makeCondition("file", message, [path], who);
  if (code) c.code = code;
  throw new SchemeError(c);
}
