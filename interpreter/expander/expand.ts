// The expander: datums → core IR, with macros expanded once and every variable resolved.
//
// Special forms are bindings (see forms.ts), so a user's local `if` shadows the
// special form and a macro's `if` (an Alias) still finds it. Bodies are
// scanned for definitions (also those produced by macros and `begin`) and
// become letrec*; top-level forms are expanded one at a time, so a
// `define-syntax` affects the forms after it.

import { Pair, NIL, listToArray } from "../values/pair.js";
import { Sym, type SymbolTable } from "../values/symbol.js";
import { Keyword } from "../values/symbol.js";
import { MString } from "../values/string.js";
import { Char } from "../values/char.js";
import { Compnum, Flonum, Ratnum } from "../values/numbers/repr.js";
import type { SourceLoc } from "../values/loc.js";
import { Var, type Node, type Lambda, type GlobalCell, mkConst, mkSeq } from "../compiler/ir.js";
import { UNSPECIFIED } from "../values/misc.js";
import {
  Alias,
  Scope,
  TopEnv,
  lookup,
  homeOf,
  isIdentifier,
  symOf,
  strip,
  syntaxError,
  type Binding,
  type Env,
  type Identifier,
} from "./syntax.js";
import { SyntaxRules } from "./syntax-rules.js";

/** A pre-expanded node standing in a datum (used by forms that build their output as IR). */
export class IRDatum {
  constructor(readonly node: Node) {}
}

/** What the expander needs from the interpreter around it. */
export interface ExpandHost {
  readonly symbols: SymbolTable;
  /** Finds the location of a datum read from source. */
  locationOf(x: unknown): SourceLoc | undefined;
  /** Processes an import set at the top level of `top` (libraries are loaded and instantiated as needed). */
  importInto(top: TopEnv, spec: any, loc: SourceLoc | undefined): void;
  /** Defines a library from a define-library form (REPL or program file). */
  defineLibrary(form: Pair, loc: SourceLoc | undefined): void;
  /** Reads the forms of an included file, relative to the file containing the include. */
  readInclude(path: string, fromFile: string | undefined, foldCase: boolean, loc: SourceLoc | undefined): any[];
  /** The cond-expand feature identifiers. */
  features(): string[];
  /** True when a library of this name exists (loaded or on the search path). */
  libraryExists(name: any): boolean;
}

/** One item of a body after its definitions are scanned. */
type BodyItem = { def: Var; form: any; env: Env; loc: SourceLoc | undefined; name: string } | { expr: any; env: Env; loc: SourceLoc | undefined };

export class Expander {
  readonly symbols: SymbolTable;
  /** The environment of the core forms and built-in procedures: what derived forms expand into. */
  builtins!: TopEnv;

  constructor(readonly host: ExpandHost) {
    this.symbols = host.symbols;
  }

  sym(name: string): Sym {
    return this.symbols.intern(name);
  }
  /** An identifier meaning `name` of the builtins, whatever the use site has bound. */
  core(name: string): Alias {
    return new Alias(this.sym(name), this.builtins);
  }
  /** IR reference to a built-in global. */
  coreRef(name: string): Node {
    return { t: "gref", cell: this.builtins.cellFor(this.sym(name)) };
  }
  coreCall(name: string, args: Node[], loc: SourceLoc | undefined): Node {
    return { t: "call", f: this.coreRef(name), args, ...(loc ? { loc } : {}) };
  }

  locOf(x: unknown, inherited: SourceLoc | undefined): SourceLoc | undefined {
    return (x instanceof Pair ? this.host.locationOf(x) : undefined) ?? inherited;
  }

  /** The binding of the head of `form` when it is an identifier. */
  headBinding(form: any, env: Env): Binding | undefined {
    if (form instanceof Pair && isIdentifier(form.car)) return lookup(form.car, env);
    return undefined;
  }

  /** True when `x` is an identifier bound to the auxiliary keyword `name` (`else`, `=>`, …). */
  isAux(x: any, env: Env, name: string): boolean {
    if (!isIdentifier(x)) return false;
    const b = lookup(x, env);
    if (b === undefined) return false;
    return b.k === "aux" && b.name === name;
  }

  /** Expands macro uses at the head of `form` until it is not one. */
  macroexpandHead(form: any, env: Env, loc: SourceLoc | undefined): any {
    for (;;) {
      const b = this.headBinding(form, env);
      if (b === undefined || b.k !== "macro") return form;
      const l = this.locOf(form, loc);
      form = b.m.expand(form as Pair, env, l);
      loc = l;
    }
  }

  // ---- expressions -------------------------------------------------------------------------

  expand(x: any, env: Env, loc: SourceLoc | undefined): Node {
    if (x instanceof IRDatum) return x.node;
    if (isIdentifier(x)) return this.variable(x, env, loc);
    if (x instanceof Pair) {
      const l = this.locOf(x, loc);
      if (isIdentifier(x.car)) {
        const b = lookup(x.car, env);
        if (b !== undefined) {
          switch (b.k) {
            case "special":
              return b.expand(x, env, l);
            case "macro":
              return this.expand(b.m.expand(x, env, l), env, l);
            case "aux":
              return syntaxError(`'${b.name}' is not allowed here`, x, l);
          }
        }
      }
      return this.application(x, env, l);
    }
    if (x === NIL) return syntaxError("empty combination () is not an expression (quote it: '())", x, loc);
    if (Array.isArray(x)) return mkConst(strip(x));
    if (isSelfEvaluating(x)) return mkConst(x);
    return syntaxError("not an expression", x, loc);
  }

  private variable(id: Identifier, env: Env, loc: SourceLoc | undefined): Node {
    const b = lookup(id, env);
    if (b === undefined) {
      const { top, sym } = homeOf(id, env);
      // A free `:name` (not `:` or `::…`) means the keyword #:name (ADR 0033); once
      // something defines it, code compiled after that sees the definition.
      const n = sym.name;
      if (n.length > 1 && n.charCodeAt(0) === 58 && n.charCodeAt(1) !== 58) return mkConst(this.symbols.keyword(n.slice(1)));
      return { t: "gref", cell: top.cellFor(sym), ...(loc ? { loc } : {}) };
    }
    switch (b.k) {
      case "local":
        return { t: "lref", v: b.v, ...(loc ? { loc } : {}) };
      case "global":
        return { t: "gref", cell: b.cell, ...(loc ? { loc } : {}) };
      default:
        return syntaxError(`syntax keyword '${symOf(id).name}' used as a variable`, id, loc);
    }
  }

  private application(x: Pair, env: Env, loc: SourceLoc | undefined): Node {
    const items = listToArray(x);
    if (items === null) return syntaxError("a procedure call must be a proper list", x, loc);
    const f = this.expand(items[0], env, loc);
    const args = items.slice(1).map((a) => this.expand(a, env, loc));
    // (call-with-values producer consumer) is compiled in place: no procedure call in between.
    if (f.t === "gref" && f.cell.prim === "call-with-values" && args.length === 2)
      return { t: "cwv", producer: args[0] as Node, consumer: args[1] as Node, ...(loc ? { loc } : {}) };
    return { t: "call", f, args, ...(loc ? { loc } : {}) };
  }

  /** Expands each form of a non-empty sequence (no definitions). */
  expandSeq(forms: any[], env: Env, loc: SourceLoc | undefined): Node {
    if (forms.length === 0) return mkConst(UNSPECIFIED);
    return mkSeq(forms.map((f) => this.expand(f, env, loc)));
  }

  // ---- lambda and bodies ---------------------------------------------------------------------

  /** Parses formals into identifiers (required) and the rest identifier or null. */
  parseFormals(formals: any, form: any, loc: SourceLoc | undefined): { req: Identifier[]; rest: Identifier | null } {
    const req: Identifier[] = [];
    let f = formals;
    while (f instanceof Pair) {
      if (!isIdentifier(f.car)) syntaxError("parameters must be identifiers", form, loc);
      req.push(f.car);
      f = f.cdr;
    }
    let rest: Identifier | null = null;
    if (f !== NIL) {
      if (!isIdentifier(f)) syntaxError("parameters must be identifiers", form, loc);
      rest = f;
    }
    const all = rest ? [...req, rest] : req;
    for (let i = 0; i < all.length; i++)
      for (let j = i + 1; j < all.length; j++) if (all[i] === all[j]) syntaxError(`duplicate parameter '${symOf(all[i] as Identifier).name}'`, form, loc);
    return { req, rest };
  }

  /** Builds a Lambda from formals and a body (a list of forms). */
  lambda(formals: any, body: any, env: Env, name: string, form: any, loc: SourceLoc | undefined): Lambda {
    const { req, rest } = this.parseFormals(formals, form, loc);
    const scope = new Scope(env);
    const params = req.map((id) => {
      const v = new Var(symOf(id).name);
      scope.bind(id, { k: "local", v });
      return v;
    });
    let restVar: Var | null = null;
    if (rest) {
      restVar = new Var(symOf(rest).name);
      scope.bind(rest, { k: "local", v: restVar });
    }
    const forms = listToArray(body);
    if (forms === null) return syntaxError("a body must be a proper list", form, loc);
    const lam: Lambda = { t: "lambda", params, rest: restVar, body: mkConst(UNSPECIFIED), name, ...(loc ? { loc } : {}) };
    lam.body = this.body(forms, scope, loc);
    return lam;
  }

  /**
   * A body: definitions (possibly produced by macros or spliced from `begin`)
   * then expressions, as letrec*. `scope` is fresh and owned by the body.
   */
  body(forms: any[], scope: Scope, loc: SourceLoc | undefined): Node {
    const items: BodyItem[] = [];
    const queue = forms.map((f) => ({ f, loc }));
    let sawDef = false;
    while (queue.length) {
      const { f: raw, loc: l0 } = queue.shift() as { f: any; loc: SourceLoc | undefined };
      const l = this.locOf(raw, l0);
      const form = this.macroexpandHead(raw, scope, l);
      const b = this.headBinding(form, scope);
      if (b !== undefined && b.k === "special") {
        if (b.name === "begin") {
          const sub = listToArray(form.cdr);
          if (sub === null) syntaxError("begin: expected a list of forms", form, l);
          queue.unshift(...(sub as any[]).map((f) => ({ f, loc: l })));
          continue;
        }
        if (b.name === "define") {
          const { id, init, name } = this.parseDefine(form, l);
          const v = new Var(name);
          scope.bind(id, { k: "local", v });
          items.push({ def: v, form: init, env: scope, loc: l, name });
          sawDef = true;
          continue;
        }
        if (b.name === "define-syntax") {
          this.defineSyntax(form, scope, l, (id, binding) => scope.bind(id, binding));
          continue;
        }
      }
      items.push({ expr: form, env: scope, loc: l });
    }
    if (!sawDef) {
      if (items.length === 0) return mkConst(UNSPECIFIED);
      return mkSeq(items.map((it) => this.expand((it as { expr: any }).expr, it.env, it.loc)));
    }
    // letrec*: expressions before the last definition run in order, as dummy definitions.
    let lastDef = -1;
    items.forEach((it, i) => {
      if ("def" in it) lastDef = i;
    });
    const vars: Var[] = [];
    const inits: Node[] = [];
    const tail: Node[] = [];
    items.forEach((it, i) => {
      if ("def" in it) {
        vars.push(it.def);
        inits.push(this.expandNamed(it.form, it.env, it.loc, it.name));
      } else if (i < lastDef) {
        vars.push(new Var("_"));
        inits.push(this.expand(it.expr, it.env, it.loc));
      } else tail.push(this.expand(it.expr, it.env, it.loc));
    });
    return { t: "letrec", vars, inits, body: tail.length ? mkSeq(tail) : mkConst(UNSPECIFIED) };
  }

  /** Expands `form`, naming it `name` when it is a lambda (for messages and backtraces). */
  expandNamed(form: any, env: Env, loc: SourceLoc | undefined, name: string): Node {
    const n = this.expand(form, env, loc);
    if (n.t === "lambda" && !n.name) n.name = name;
    if (n.t === "case-lambda" && !n.name) n.name = name;
    return n;
  }

  /** `(define id expr)`, `(define (id . formals) body...)` and curried `(define ((id a) b) ...)`. */
  parseDefine(form: Pair, loc: SourceLoc | undefined): { id: Identifier; init: any; name: string } {
    const rest = form.cdr;
    if (!(rest instanceof Pair)) return syntaxError("define: expected a name", form, loc, "define");
    let target = rest.car;
    let body = rest.cdr;
    // (define (f . args) body ...) ⇒ (define f (lambda args body ...)), also nested.
    while (target instanceof Pair) {
      body = new Pair(new Pair(this.core("lambda"), new Pair(target.cdr, body)), NIL);
      target = target.car;
    }
    if (!isIdentifier(target)) return syntaxError("define: expected an identifier", form, loc, "define");
    let init: any;
    if (body === NIL) init = new IRDatum(mkConst(UNSPECIFIED));
    else if (body instanceof Pair && body.cdr === NIL) init = body.car;
    else return syntaxError("define: expected one expression", form, loc, "define");
    return { id: target, init, name: symOf(target).name };
  }

  /** `(define-syntax id transformer)`: calls `bind` with the macro binding. */
  defineSyntax(form: Pair, env: Env, loc: SourceLoc | undefined, bind: (id: Identifier, b: Binding) => void): void {
    const items = listToArray(form);
    if (items === null || items.length !== 3 || !isIdentifier(items[1]))
      syntaxError("define-syntax: expected (define-syntax name transformer)", form, loc, "define-syntax");
    const id = (items as any[])[1] as Identifier;
    bind(id, this.transformer((items as any[])[2], env, symOf(id).name, loc));
  }

  /** Evaluates a transformer spec: (syntax-rules ...), or an identifier naming a macro. */
  transformer(spec: any, env: Env, name: string, loc: SourceLoc | undefined): Binding {
    spec = this.macroexpandHead(spec, env, loc);
    if (isIdentifier(spec)) {
      const b = lookup(spec, env);
      if (b !== undefined && (b.k === "macro" || b.k === "special")) return b;
    }
    const b = this.headBinding(spec, env);
    if (b !== undefined && b.k === "special" && b.name === "syntax-rules")
      return { k: "macro", m: SyntaxRules.parse(spec as Pair, env, name, this.locOf(spec, loc)) };
    if (b !== undefined && b.k === "special" && b.name === "er-macro-transformer")
      return syntaxError("er-macro-transformer is not supported; use syntax-rules", spec, loc);
    return syntaxError("expected a syntax-rules transformer", spec, loc);
  }

  // ---- top level ---------------------------------------------------------------------------------

  /**
   * Expands one top-level form of `top`. Definitions of syntax and imports take
   * effect immediately; the returned node is the code to run (UNSPECIFIED when none).
   */
  expandTop(x: any, top: TopEnv, loc: SourceLoc | undefined): Node {
    const l = this.locOf(x, loc);
    const form = this.macroexpandHead(x, top, l);
    let b = this.headBinding(form, top);
    // A program starts out empty: `import` and `define-library` are declarations, recognised by name.
    if (b === undefined && form instanceof Pair && form.car instanceof Sym && (form.car.name === "import" || form.car.name === "define-library"))
      b = this.builtins.table.get(form.car);
    if (b !== undefined && b.k === "special") {
      switch (b.name) {
        case "begin":
          return this.topBegin(form as Pair, top, l);
        case "define": {
          const { id, init, name } = this.parseDefine(form, l);
          const cell = this.defineGlobal(top, id, form, l);
          return { t: "gset", cell, e: this.expandNamed(init, top, l, name), define: true, ...(l ? { loc: l } : {}) };
        }
        case "define-syntax":
          this.defineSyntax(form, top, l, (id, binding) => this.bindTop(top, id, binding, form, l));
          return mkConst(UNSPECIFIED);
        case "import": {
          for (let s = form.cdr; s instanceof Pair; s = s.cdr) this.host.importInto(top, s.car, l);
          return mkConst(UNSPECIFIED);
        }
        case "define-library":
          this.host.defineLibrary(form as Pair, l);
          return mkConst(UNSPECIFIED);
      }
    }
    return this.expand(form, top, l);
  }

  /**
   * A `begin` at the top level: its forms are spliced into the top level. As in
   * a body, every form is first expanded far enough to know whether it is a
   * definition (syntax definitions and imports take effect right there, in
   * order, and each defined name gets its cell), and only then are the
   * definitions' expressions and the other forms expanded, in order. So a
   * procedure a macro's `(begin (define (f) (g)) (define (g) …))` introduces
   * calls the `g` of that expansion even when `g` is renamed (R7RS §5.3, §4.3).
   */
  private topBegin(form: Pair, top: TopEnv, loc: SourceLoc | undefined): Node {
    type Deferred = { cell: GlobalCell; init: any; name: string; loc: SourceLoc | undefined } | { expr: any; loc: SourceLoc | undefined };
    const first = listToArray(form.cdr);
    if (first === null) return syntaxError("begin: expected a list of forms", form, loc);
    const items: Deferred[] = [];
    const queue: { f: any; loc: SourceLoc | undefined }[] = first.map((f) => ({ f, loc }));
    while (queue.length) {
      const { f: raw, loc: l0 } = queue.shift() as { f: any; loc: SourceLoc | undefined };
      const l = this.locOf(raw, l0);
      const f = this.macroexpandHead(raw, top, l);
      let b = this.headBinding(f, top);
      if (b === undefined && f instanceof Pair && f.car instanceof Sym && (f.car.name === "import" || f.car.name === "define-library"))
        b = this.builtins.table.get(f.car);
      if (b !== undefined && b.k === "special") {
        if (b.name === "begin") {
          const sub = listToArray(f.cdr);
          if (sub === null) syntaxError("begin: expected a list of forms", f, l);
          queue.unshift(...(sub as any[]).map((x) => ({ f: x, loc: l })));
          continue;
        }
        if (b.name === "define") {
          const { id, init, name } = this.parseDefine(f, l);
          items.push({ cell: this.defineGlobal(top, id, f, l), init, name, loc: l });
          continue;
        }
        if (b.name === "define-syntax" || b.name === "import" || b.name === "define-library") {
          this.expandTop(f, top, l);
          continue;
        }
      }
      items.push({ expr: f, loc: l });
    }
    if (items.length === 0) return mkConst(UNSPECIFIED);
    return mkSeq(
      items.map((it): Node => {
        if ("expr" in it) return this.expand(it.expr, top, it.loc);
        return { t: "gset", cell: it.cell, e: this.expandNamed(it.init, top, it.loc, it.name), define: true, ...(it.loc ? { loc: it.loc } : {}) };
      }),
    );
  }

  /** The cell a top-level definition of `id` assigns (a new binding in the REPL when `id` was imported). */
  defineGlobal(top: TopEnv, id: Identifier, form: any, loc: SourceLoc | undefined) {
    if (id instanceof Alias) {
      // A name a macro introduced: a global of its own, seen only through this alias.
      const b = top.aliases.get(id);
      if (b !== undefined && b.k === "global") return b.cell;
      const cell = top.makeCell(this.symbols.gensym(id.sym.name + "."), top.name);
      top.aliases.set(id, { k: "global", cell });
      return cell;
    }
    const sym = id;
    const target = top;
    const existing = target.table.get(sym);
    if (existing !== undefined && target.imported.has(sym)) {
      if (!target.interactive) return syntaxError(`definition of '${sym.name}', which is imported`, form, loc, "define");
      target.imported.delete(sym);
      target.table.delete(sym);
    } else if (existing !== undefined && existing.k !== "global") {
      if (!target.interactive) return syntaxError(`definition of '${sym.name}', which is bound as syntax`, form, loc, "define");
      target.table.delete(sym);
    }
    return target.cellFor(sym);
  }

  bindTop(top: TopEnv, id: Identifier, b: Binding, form: any, loc: SourceLoc | undefined): void {
    if (id instanceof Alias) {
      top.aliases.set(id, b);
      return;
    }
    const sym = id;
    if (top.imported.has(sym)) {
      if (!top.interactive) syntaxError(`definition of '${sym.name}', which is imported`, form, loc, "define-syntax");
      top.imported.delete(sym);
    }
    top.table.set(sym, b);
  }
}

/** Numbers, strings, characters, booleans, vectors, bytevectors and keywords evaluate to themselves. */
export function isSelfEvaluating(x: unknown): boolean {
  return (
    typeof x === "number" ||
    typeof x === "bigint" ||
    typeof x === "boolean" ||
    x instanceof Flonum ||
    x instanceof Ratnum ||
    x instanceof Compnum ||
    x instanceof MString ||
    x instanceof Char ||
    x instanceof Keyword ||
    x instanceof Uint8Array ||
    Array.isArray(x)
  );
}

export { strip };
