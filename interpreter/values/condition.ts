// Conditions: the one error type of nodwyn, what `raise` of an error carries.

import type { SourceLoc } from "./loc.js";

/** What kind of failure a condition reports; stable, part of the API. */
export type ErrorKind =
  | "read" // malformed source text or `read` input
  | "syntax" // a malformed special form or a macro use that matches no rule
  | "unbound" // reference to an unbound variable
  | "type" // an argument of the wrong type
  | "arity" // a call with the wrong number of arguments
  | "range" // an index or value out of range
  | "file" // a file could not be opened, read, written or deleted
  | "host" // a failure of a host service, with a stable `code`
  | "limit" // an evaluation limit was reached (steps, deadline, abort, depth, memory)
  | "user"; // raised by `error` in Scheme code

/** One line of a Scheme backtrace. */
export interface TraceEntry {
  readonly name: string;
  readonly loc?: SourceLoc;
  /** True for an entry kept from the ring of recent tail calls. */
  readonly tail?: boolean;
}

export class Condition {
  readonly kind: ErrorKind;
  readonly message: string;
  /** Scheme values. */
  readonly irritants: readonly any[];
  /** The procedure that reported it, for `bad argument` messages and backtraces. */
  who: string | undefined;
  loc: SourceLoc | undefined;
  backtrace: TraceEntry[] | undefined;
  /** For host conditions, a stable machine-readable code (e.g. "ENOENT", "guard-denied"). */
  code: string | undefined;
  /** For conditions wrapping an arbitrary raised object that was not handled. */
  payload: any;
  /** The continuation of the raise point (machine-internal; the backtrace is computed from it on demand). */
  frames: unknown;
  /** Recent tail calls at the raise point (machine-internal). */
  tailRing: unknown;

  constructor(kind: ErrorKind, message: string, irritants: readonly any[] = [], who?: string) {
    this.kind = kind;
    this.message = message;
    this.irritants = irritants;
    this.who = who;
    this.loc = undefined;
    this.backtrace = undefined;
    this.code = undefined;
    this.payload = undefined;
    this.frames = undefined;
    this.tailRing = undefined;
  }
}
