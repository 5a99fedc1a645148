// The core language the expander produces and the compiler consumes.
//
// Variables are resolved: a local is a Var object (unique per binding), a
// global is a GlobalCell shared by every environment that imports it. Nodes
// carry the source location of the form they came from, for errors.

import type { SourceLoc } from "../values/loc.js";
import type { Sym } from "../values/symbol.js";

/** A lexical variable: one per binding occurrence. Analysis fills the flags. */
export class Var {
  readonly name: string;
  readonly id: number;
  /** set! somewhere (then it lives in a Box unless it is a loop-free local never captured). */
  assigned = false;
  /** Referenced from a lambda other than the one that binds it. */
  captured = false;
  /** Bound by letrec/letrec* (may be referenced before initialisation). */
  letrec = false;
  /** A letrec variable not bound to a lambda: reads check it was initialised. */
  uninitCheck = false;
  /** Bound to a lambda that is only ever called (never assigned), see analyze.ts. */
  known: Lambda | null = null;
  /** The lambda whose body binds it (null at the top of a compilation unit). */
  owner: Lambda | null = null;
  private static counter = 0;
  constructor(name: string) {
    this.name = name;
    this.id = ++Var.counter;
  }
  /** Needs a Box: assigned and visible to more than straight-line code. */
  get boxed(): boolean {
    return this.assigned;
  }
}

/** A global variable's storage, shared by every environment that imports it. */
export class GlobalCell {
  v: any;
  readonly name: Sym;
  /** Name of an inlinable operation when this cell holds a built-in primitive (see compiler/inline.ts). */
  prim: string | null = null;
  /** Imported or library-internal binding that code may treat as never reassigned. */
  constant = false;
  /** Library (or environment) that defines it, for messages. */
  readonly home: string;
  constructor(name: Sym, v: any, home: string) {
    this.name = name;
    this.v = v;
    this.home = home;
  }
}

export type Node =
  | Const
  | LRef
  | GRef
  | LSet
  | GSet
  | If
  | Seq
  | Lambda
  | CaseLambda
  | Call
  | Let
  | Letrec
  | CallWithValues
  | Loop
  | Jump;

export interface Const {
  readonly t: "const";
  readonly v: any;
}
export interface LRef {
  readonly t: "lref";
  readonly v: Var;
  readonly loc?: SourceLoc;
}
export interface GRef {
  readonly t: "gref";
  readonly cell: GlobalCell;
  readonly loc?: SourceLoc;
}
export interface LSet {
  readonly t: "lset";
  readonly v: Var;
  readonly e: Node;
  readonly loc?: SourceLoc;
}
export interface GSet {
  readonly t: "gset";
  readonly cell: GlobalCell;
  readonly e: Node;
  /** A definition (allowed on an unbound cell) rather than set!. */
  readonly define: boolean;
  readonly loc?: SourceLoc;
}
export interface If {
  readonly t: "if";
  readonly c: Node;
  readonly a: Node;
  readonly b: Node;
}
export interface Seq {
  readonly t: "seq";
  readonly es: Node[];
}
export interface Lambda {
  readonly t: "lambda";
  readonly params: Var[];
  readonly rest: Var | null;
  body: Node;
  name: string;
  readonly loc?: SourceLoc;
  /** Filled by analysis: free variables in env order. */
  free?: Var[];
  /** Filled by analysis: unique id within the compilation unit. */
  id?: number;
}
export interface CaseLambda {
  readonly t: "case-lambda";
  readonly clauses: Lambda[];
  name: string;
  readonly loc?: SourceLoc;
}
export interface Call {
  readonly t: "call";
  readonly f: Node;
  readonly args: Node[];
  readonly loc?: SourceLoc;
  /** Filled by codegen for non-tail calls: the resumption point id. */
  site?: number;
}
export interface Let {
  readonly t: "let";
  readonly vars: Var[];
  readonly inits: Node[];
  readonly body: Node;
}
/** letrec* semantics: inits run in order, each may refer to every var. */
export interface Letrec {
  readonly t: "letrec";
  readonly vars: Var[];
  readonly inits: Node[];
  readonly body: Node;
}
/** (call-with-values producer consumer) with the producer called in place. */
export interface CallWithValues {
  readonly t: "cwv";
  readonly producer: Node;
  readonly consumer: Node;
  readonly loc?: SourceLoc;
  site?: number;
}

/**
 * A loop in place of a letrec-bound procedure that is only ever called in tail
 * position (contify.ts): `entry` runs first; a Jump to this loop from `entry` or
 * from `body` rebinds `params` and runs `body`. Its value is the value of the
 * tail of `entry` or `body` that does not jump.
 */
export interface Loop {
  readonly t: "loop";
  readonly params: Var[];
  /** Set once, after the jumps inside point at this node. */
  entry: Node;
  body: Node;
  readonly name: string;
  readonly loc?: SourceLoc;
  /** Filled by codegen: the resumable site of the loop head (where a time slice ends). */
  site?: number;
}
/** A tail call of a contified procedure: rebind the loop's parameters and go round. */
export interface Jump {
  readonly t: "jump";
  readonly loop: Loop;
  readonly args: Node[];
  readonly loc?: SourceLoc;
}

export const mkConst = (v: any): Const => ({ t: "const", v });
export const mkSeq = (es: Node[]): Node => (es.length === 1 ? (es[0] as Node) : { t: "seq", es });
