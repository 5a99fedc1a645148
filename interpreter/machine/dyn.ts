// The dynamic environment: dynamic-wind winders, exception handlers and parameter bindings.
//
// Immutable and shared: a continuation captures the Dyn current at the capture,
// and reinstating one makes its Dyn current again. Changing any part makes a
// new Dyn, so capture is a pointer copy.

import type { Procedure } from "../values/procedure.js";

export class Winder {
  readonly depth: number;
  constructor(
    readonly before: Procedure,
    readonly after: Procedure,
    /** The dynamic environment of the dynamic-wind call: before and after run in it. */
    readonly outer: Dyn,
    readonly parent: Winder | null,
  ) {
    this.depth = parent === null ? 1 : parent.depth + 1;
  }
}

/**
 * What a `guard` installs besides its handler (ADR 0045): the clauses, as
 * (lambda (condition reraise) ...), and the dynamic environment of the guard
 * (the one its clauses run in). Its identity is the guard activation: the
 * guard's heap frame holds it, and an escape names it.
 */
export class GuardMark {
  constructor(
    readonly tag: any,
    readonly clauses: Procedure,
    readonly outer: Dyn,
  ) {}
}

export class HandlerList {
  constructor(
    readonly handler: Procedure,
    readonly next: HandlerList | null,
    /** Set when the handler is a guard's: a raise may then test its clauses without reifying the stack. */
    readonly guard: GuardMark | null = null,
  ) {}
}

export class ParamBinding {
  constructor(
    readonly param: Procedure,
    /** A one-element array so that a parameter's binding is a location. */
    readonly cell: [any],
    readonly next: ParamBinding | null,
  ) {}
}

export class Dyn {
  constructor(
    readonly winders: Winder | null,
    readonly handlers: HandlerList | null,
    readonly params: ParamBinding | null,
  ) {}
  withWinder(before: Procedure, after: Procedure): Dyn {
    return new Dyn(new Winder(before, after, this, this.winders), this.handlers, this.params);
  }
  withHandler(h: Procedure): Dyn {
    return new Dyn(this.winders, new HandlerList(h, this.handlers), this.params);
  }
  withGuard(h: Procedure, mark: GuardMark): Dyn {
    return new Dyn(this.winders, new HandlerList(h, this.handlers, mark), this.params);
  }
  withHandlers(hs: HandlerList | null): Dyn {
    return new Dyn(this.winders, hs, this.params);
  }
  withParams(params: readonly Procedure[], values: readonly any[]): Dyn {
    let p = this.params;
    for (let i = 0; i < params.length; i++) p = new ParamBinding(params[i] as Procedure, [values[i]], p);
    return new Dyn(this.winders, this.handlers, p);
  }
}

export const ROOT_DYN = new Dyn(null, null, null);
