// Procedures: closures, primitives, continuations and parameters share one shape.
//
// Calling convention (see docs/architecture.md): a call with n ≤ 3 arguments is
// `p.f<n>(a, ...)`, with more `p.fN([a, ...])`, always with `this` = p. Every
// procedure fills all five entries (wrong arities get a stub that raises the
// arity error), so a call site does one monomorphic load and one call. An entry
// returns the value, a MultipleValues, or the machine's TAIL marker when it made
// a tail call (its target and arguments are then in the machine's registers).

import type { SourceLoc } from "./loc.js";

export type ProcKind = "lambda" | "primitive" | "continuation" | "parameter";

export interface ProcInfo {
  /** Name for messages and backtraces ("" for anonymous lambdas). */
  name: string;
  minArgs: number;
  /** -1 when the procedure takes any number of arguments beyond minArgs. */
  maxArgs: number;
  kind: ProcKind;
  doc?: string;
  loc?: SourceLoc;
}

export type Fn0 = (this: Procedure) => any;
export type Fn1 = (this: Procedure, a: any) => any;
export type Fn2 = (this: Procedure, a: any, b: any) => any;
export type Fn3 = (this: Procedure, a: any, b: any, c: any) => any;
export type FnN = (this: Procedure, args: any[]) => any;

export interface Entries {
  f0: Fn0;
  f1: Fn1;
  f2: Fn2;
  f3: Fn3;
  fN: FnN;
}

export class Procedure {
  f0: Fn0;
  f1: Fn1;
  f2: Fn2;
  f3: Fn3;
  fN: FnN;
  /** Free variables of a closure (flat closure), else null. */
  env: any[] | null;
  info: ProcInfo;
  /** Kind-specific data: a parameter's state, a continuation's frames, a primitive's table entry. */
  data: any;

  constructor(e: Entries, env: any[] | null, info: ProcInfo, data: any = null) {
    this.f0 = e.f0;
    this.f1 = e.f1;
    this.f2 = e.f2;
    this.f3 = e.f3;
    this.fN = e.fN;
    this.env = env;
    this.info = info;
    this.data = data;
  }
}

export function procName(p: Procedure): string {
  return p.info.name || "#<procedure>";
}

/** "n", "at least n" or "n to m": the arity as messages print it. */
export function arityText(info: ProcInfo): string {
  if (info.maxArgs < 0) return `at least ${info.minArgs}`;
  if (info.maxArgs === info.minArgs) return `${info.minArgs}`;
  return `${info.minArgs} to ${info.maxArgs}`;
}
