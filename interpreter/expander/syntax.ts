// Identifiers, environments and bindings: the vocabulary of hygienic expansion.
//
// Hygiene by renaming: when a macro's template inserts a symbol, the expander
// inserts an Alias of it instead, remembering the environment where the macro
// was defined. A binding form that binds an alias binds that alias object only,
// so it can never capture a user's identifier; an alias that no expansion
// bound is looked up in the macro's definition environment, so a user's local
// `if` or `list` never changes what a macro's `if` or `list` means.

import { Sym } from "../values/symbol.js";
import { Pair } from "../values/pair.js";
import type { SourceLoc } from "../values/loc.js";
import type { GlobalCell, Var } from "../compiler/ir.js";
import { raiseError } from "../errors.js";
import { writeShort } from "../printer/printer.js";
import { Unbound } from "../machine/runtime.js";

export type Identifier = Sym | Alias;

/** A symbol renamed by one macro expansion. */
export class Alias {
  constructor(
    /** What was renamed (an Alias again when a macro's output is itself a macro definition). */
    readonly name: Identifier,
    /** The environment the renaming macro was defined in. */
    readonly env: Env,
  ) {}
  /** The symbol underneath all renamings. */
  get sym(): Sym {
    let x: Identifier = this;
    while (x instanceof Alias) x = x.name;
    return x;
  }
}

export function isIdentifier(x: unknown): x is Identifier {
  return x instanceof Sym || x instanceof Alias;
}

export function symOf(id: Identifier): Sym {
  return id instanceof Alias ? id.sym : id;
}

/** Expands one special form: `form` is the whole form, `env` where it appears. */
export type SpecialExpander = (form: Pair, env: Env, loc: SourceLoc | undefined) => any;

export type Binding =
  | { readonly k: "special"; readonly name: string; readonly expand: SpecialExpander }
  | { readonly k: "macro"; readonly m: Transformer }
  | { readonly k: "local"; readonly v: Var }
  | { readonly k: "global"; readonly cell: GlobalCell }
  /** Names only meaningful inside other forms (`else`, `=>`, `...`, `_`, `unquote`): errors when used alone. */
  | { readonly k: "aux"; readonly name: string };

/** A macro transformer: turns a use into its expansion. */
export interface Transformer {
  readonly name: string;
  expand(form: Pair, useEnv: Env, loc: SourceLoc | undefined): any;
}

export abstract class Env {}

/** A local scope: lambda parameters, let variables, internal definitions, let-syntax. */
export class Scope extends Env {
  readonly table = new Map<Identifier, Binding>();
  constructor(readonly parent: Env) {
    super();
  }
  bind(id: Identifier, b: Binding): void {
    this.table.set(id, b);
  }
  top(): TopEnv {
    let e: Env = this;
    while (e instanceof Scope) e = e.parent;
    return e as TopEnv;
  }
}

/** A top-level environment: a library's, a program's, the REPL's or one made by `environment`. */
export class TopEnv extends Env {
  readonly table = new Map<Sym, Binding>();
  /** Names bound by import (a definition of one of them is an error outside the REPL). */
  readonly imported = new Set<Sym>();
  /** Top-level definitions of identifiers a macro introduced: private to that expansion. */
  readonly aliases = new Map<Alias, Binding>();
  constructor(
    /** For messages: "(scheme base)", "program", "repl". */
    readonly name: string,
    /** The REPL: definitions may replace imported bindings. */
    readonly interactive: boolean,
    /** Makes the cell for a new global of this environment. */
    readonly makeCell: (name: Sym, home: string) => GlobalCell,
  ) {
    super();
  }
  /** The global cell for `sym`, created unbound when the name is new here. */
  cellFor(sym: Sym): GlobalCell {
    const b = this.table.get(sym);
    if (b !== undefined && b.k === "global") return b.cell;
    const cell = this.makeCell(sym, this.name);
    this.table.set(sym, { k: "global", cell });
    return cell;
  }
}

/** What `id` means in `env`; undefined for a free identifier of a top-level environment. */
export function lookup(id: Identifier, env: Env): Binding | undefined {
  let e: Env = env;
  for (;;) {
    while (e instanceof Scope) {
      const b = e.table.get(id);
      if (b !== undefined) return b;
      e = e.parent;
    }
    if (id instanceof Alias) {
      const b = (e as TopEnv).aliases.get(id);
      if (b !== undefined) return b;
      e = id.env;
      id = id.name;
      continue;
    }
    return (e as TopEnv).table.get(id);
  }
}

/** The top-level environment where `id` would be defined if it is free in `env`. */
export function homeOf(id: Identifier, env: Env): { top: TopEnv; sym: Sym } {
  let e: Env = env;
  for (;;) {
    while (e instanceof Scope) e = e.parent;
    if (id instanceof Alias) {
      e = id.env;
      id = id.name;
      continue;
    }
    return { top: e as TopEnv, sym: id };
  }
}

/** free-identifier=?: same binding, or both free with the same name. */
export function sameBinding(a: Identifier, aEnv: Env, b: Identifier, bEnv: Env): boolean {
  const ba = lookup(a, aEnv);
  const bb = lookup(b, bEnv);
  if (ba === undefined || bb === undefined) {
    if (ba !== bb) return false;
    return symOf(a) === symOf(b);
  }
  return sameMeaning(ba, bb);
}

/** Two bindings that mean the same: the same cell, variable, special form, keyword or macro. */
export function sameMeaning(a: Binding, b: Binding): boolean {
  if (a === b) return true;
  if (a.k !== b.k) return false;
  switch (a.k) {
    case "global":
      return a.cell === (b as typeof a).cell;
    case "local":
      return a.v === (b as typeof a).v;
    case "special":
      return a.expand === (b as typeof a).expand;
    case "aux":
      return a.name === (b as typeof a).name;
    case "macro":
      return a.m === (b as typeof a).m;
  }
}

/**
 * syntax->datum: the datum with every Alias replaced by its symbol. Returns `x`
 * itself when it contains no alias (so quoted literals keep their identity and
 * any sharing or cycles); terminates on cyclic data.
 */
export function strip(x: any): any {
  if (x instanceof Alias) return x.sym;
  if (!(x instanceof Pair) && !Array.isArray(x)) return x;
  if (!containsAlias(x)) return x;
  const done = new Map<any, any>();
  const copy = (y: any): any => {
    if (y instanceof Alias) return y.sym;
    if (y instanceof Pair) {
      const seen = done.get(y);
      if (seen !== undefined) return seen;
      // Copy the spine iteratively; recurse only into cars.
      const head = new Pair(null, null);
      done.set(y, head);
      let out = head;
      let cur: any = y;
      for (;;) {
        out.car = copy(cur.car);
        const next = cur.cdr;
        if (next instanceof Pair) {
          const s = done.get(next);
          if (s !== undefined) {
            out.cdr = s;
            break;
          }
          const p = new Pair(null, null);
          done.set(next, p);
          out.cdr = p;
          out = p;
          cur = next;
        } else {
          out.cdr = copy(next);
          break;
        }
      }
      return head;
    }
    if (Array.isArray(y)) {
      const seen = done.get(y);
      if (seen !== undefined) return seen;
      const v: any[] = new Array(y.length);
      done.set(y, v);
      for (let i = 0; i < y.length; i++) v[i] = copy(y[i]);
      return v;
    }
    return y;
  };
  return copy(x);
}

function containsAlias(x: any): boolean {
  const seen = new Set<any>();
  const stack = [x];
  while (stack.length) {
    const y = stack.pop();
    if (y instanceof Alias) return true;
    if (y instanceof Pair) {
      if (seen.has(y)) continue;
      seen.add(y);
      stack.push(y.car, y.cdr);
    } else if (Array.isArray(y)) {
      if (seen.has(y)) continue;
      seen.add(y);
      for (const e of y) stack.push(e);
    }
  }
  return false;
}

/** Raises a syntax error about `form`. */
export function syntaxError(message: string, form: unknown, loc: SourceLoc | undefined, who?: string): never {
  return raiseError("syntax", `${message}: ${writeShort(strip(form), 80)}`, [strip(form)], who, loc);
}

/** True when the cell holds no value yet. */
export function isUnboundCell(c: GlobalCell): boolean {
  return c.v instanceof Unbound;
}
