// The special forms of R7RS (and a few of nodwyn's), as bindings of the builtins environment.
//
// Core forms build IR directly. Derived forms build IR too where that is
// simplest (cond, case, do, named let, let-values …), referring to built-in
// procedures through the builtins environment, so no user binding can break
// them. Forms that produce definitions (define-record-type, define-values,
// include, cond-expand) are transformers returning `(begin …)` of core
// identifiers, so bodies and the top level splice them like any macro output.

import { Pair, NIL, listToArray, arrayToList } from "../values/pair.js";
import { MString } from "../values/string.js";
import type { SourceLoc } from "../values/loc.js";
import { UNSPECIFIED } from "../values/misc.js";
import { Var, type Node, type Lambda, mkConst, mkSeq } from "../compiler/ir.js";
import { Scope, lookup, isIdentifier, symOf, strip, syntaxError, Alias, type Env, type Identifier, type TopEnv, type Transformer, type SpecialExpander } from "./syntax.js";
import type { Expander } from "./expand.js";
import { raiseError } from "../errors.js";
import { writeShort } from "../printer/printer.js";

type L = SourceLoc | undefined;

function items(form: Pair, ex: string, loc: L, min: number, max = Infinity): any[] {
  const a = listToArray(form);
  if (a === null || a.length - 1 < min || a.length - 1 > max) return syntaxError(`${ex}: bad syntax`, form, loc, ex);
  return a;
}

/** A transformer implemented in TypeScript (for forms that produce definitions). */
class NativeTransformer implements Transformer {
  constructor(
    readonly name: string,
    private readonly fn: (form: Pair, env: Env, loc: L) => any,
  ) {}
  expand(form: Pair, env: Env, loc: L): any {
    return this.fn(form, env, loc);
  }
}

/** Binds every special form, transformer and auxiliary keyword in `top` (the builtins environment). */
export function installForms(ex: Expander, top: TopEnv): void {
  const special = (name: string, expand: SpecialExpander) => top.table.set(ex.sym(name), { k: "special", name, expand });
  const macro = (name: string, fn: (form: Pair, env: Env, loc: L) => any) =>
    top.table.set(ex.sym(name), { k: "macro", m: new NativeTransformer(name, fn) });
  for (const aux of ["else", "=>", "...", "_", "unquote", "unquote-splicing"]) top.table.set(ex.sym(aux), { k: "aux", name: aux });

  const list = (xs: any[], tail: any = NIL) => arrayToList(xs, tail);
  const withLoc = (loc: L) => (loc ? { loc } : {});
  const lambdaNode = (params: Var[], rest: Var | null, body: Node, name: string, loc: L): Lambda => ({
    t: "lambda",
    params,
    rest,
    body,
    name,
    ...withLoc(loc),
  });
  const thunk = (body: Node, loc: L): Lambda => lambdaNode([], null, body, "", loc);
  const letTemp = (name: string, init: Node, body: (v: Var) => Node): Node => {
    const v = new Var(name);
    return { t: "let", vars: [v], inits: [init], body: body(v) };
  };
  const ref = (v: Var): Node => ({ t: "lref", v });

  // ---- core ----------------------------------------------------------------------------------

  special("quote", (form, _env, loc) => mkConst(strip(items(form, "quote", loc, 1, 1)[1])));

  special("lambda", (form, env, loc) => {
    const a = listToArray(form);
    if (a === null || a.length < 3) return syntaxError("lambda: expected (lambda formals body ...)", form, loc, "lambda");
    return ex.lambda(a[1], (form.cdr as Pair).cdr, env, "", form, loc);
  });

  special("if", (form, env, loc) => {
    const a = items(form, "if", loc, 2, 3);
    return {
      t: "if",
      c: ex.expand(a[1], env, loc),
      a: ex.expand(a[2], env, loc),
      b: a.length === 4 ? ex.expand(a[3], env, loc) : mkConst(UNSPECIFIED),
    };
  });

  special("define", (form, _env, loc) => syntaxError("define: only allowed at the top level or at the start of a body", form, loc, "define"));
  special("define-syntax", (form, _env, loc) =>
    syntaxError("define-syntax: only allowed at the top level or at the start of a body", form, loc, "define-syntax"),
  );
  special("syntax-rules", (form, _env, loc) => syntaxError("syntax-rules: only allowed as a macro transformer", form, loc, "syntax-rules"));
  special("import", (form, _env, loc) => syntaxError("import: only allowed at the top level of a program", form, loc, "import"));
  special("define-library", (form, _env, loc) => syntaxError("define-library: only allowed at the top level", form, loc, "define-library"));

  special("begin", (form, env, loc) => {
    const a = listToArray(form.cdr);
    if (a === null) return syntaxError("begin: bad syntax", form, loc, "begin");
    return ex.expandSeq(a, env, loc);
  });

  special("set!", (form, env, loc) => {
    const a = items(form, "set!", loc, 2, 2);
    const id = a[1];
    if (!isIdentifier(id)) return syntaxError("set!: expected a variable", form, loc, "set!");
    const target = ex.expand(id, env, loc);
    const e = ex.expand(a[2], env, loc);
    if (target.t === "lref") return { t: "lset", v: target.v, e, ...withLoc(loc) };
    if (target.t === "gref") {
      const top = (env instanceof Scope ? env.top() : (env as TopEnv));
      const sym = symOf(id);
      if (!(id instanceof Alias) && top.imported.has(sym) && lookup(id, env)?.k === "global" && !top.interactive)
        return syntaxError(`set!: cannot assign '${sym.name}', which is imported`, form, loc, "set!");
      if (target.cell.constant) return syntaxError(`set!: cannot assign '${sym.name}', which is imported`, form, loc, "set!");
      return { t: "gset", cell: target.cell, e, define: false, ...withLoc(loc) };
    }
    return syntaxError("set!: expected a variable", form, loc, "set!");
  });

  const syntaxBindings = (form: Pair, env: Env, loc: L, rec: boolean): Node => {
    const name = rec ? "letrec-syntax" : "let-syntax";
    const a = items(form, name, loc, 1);
    const bindings = listToArray(a[1]);
    if (bindings === null) return syntaxError(`${name}: bad bindings`, form, loc, name);
    const scope = new Scope(env);
    for (const b of bindings) {
      const bi = b instanceof Pair ? listToArray(b) : null;
      if (bi === null || bi.length !== 2 || !isIdentifier(bi[0])) return syntaxError(`${name}: bad binding`, b, loc, name);
      scope.bind(bi[0], ex.transformer(bi[1], rec ? scope : env, symOf(bi[0]).name, loc));
    }
    return ex.body(a.slice(2), new Scope(scope), loc);
  };
  special("let-syntax", (form, env, loc) => syntaxBindings(form, env, loc, false));
  special("letrec-syntax", (form, env, loc) => syntaxBindings(form, env, loc, true));

  special("syntax-error", (form, _env, loc) => {
    const a = items(form, "syntax-error", loc, 1);
    const msg = a[1] instanceof MString ? a[1].toString() : String(strip(a[1]));
    // R7RS §4.3.3: the message, then the args (each written), like error's irritants.
    const args = a.slice(2).map(strip);
    return raiseError("syntax", args.length ? `${msg}: ${args.map((x) => writeShort(x, 80)).join(" ")}` : msg, args, "syntax-error", loc);
  });

  // ---- quasiquote ----------------------------------------------------------------------------

  const isQ = (x: any, env: Env, name: string): boolean =>
    isIdentifier(x) && (ex.isAux(x, env, name) || (lookup(x, env) === undefined && symOf(x).name === name) || isSpecial(x, env, name));
  const isSpecial = (x: any, env: Env, name: string): boolean => {
    const b = isIdentifier(x) ? lookup(x, env) : undefined;
    return b !== undefined && b.k === "special" && b.name === name;
  };
  const tagged = (x: any, env: Env, name: string): boolean =>
    x instanceof Pair && isQ(x.car, env, name) && x.cdr instanceof Pair && x.cdr.cdr === NIL;
  const hasUnquote = (x: any, env: Env, depth: number): boolean => {
    if (x instanceof Pair) {
      if (tagged(x, env, "unquote") || tagged(x, env, "unquote-splicing")) return true;
      if (tagged(x, env, "quasiquote")) return hasUnquote(x.cdr.car, env, depth + 1);
      for (let y: any = x; y instanceof Pair; y = y.cdr) {
        if (hasUnquote(y.car, env, depth)) return true;
        if (y.cdr instanceof Pair && (tagged(y.cdr, env, "unquote") || tagged(y.cdr, env, "unquote-splicing"))) return true;
        if (!(y.cdr instanceof Pair)) return hasUnquote(y.cdr, env, depth);
      }
      return false;
    }
    if (Array.isArray(x)) return x.some((e) => hasUnquote(e, env, depth));
    return false;
  };
  const qq = (x: any, env: Env, depth: number, loc: L): Node => {
    if (!hasUnquote(x, env, depth)) return mkConst(strip(x));
    if (x instanceof Pair) {
      if (tagged(x, env, "unquote")) {
        if (depth === 1) return ex.expand(x.cdr.car, env, loc);
        return ex.coreCall("list", [mkConst(ex.sym("unquote")), qq(x.cdr.car, env, depth - 1, loc)], loc);
      }
      if (tagged(x, env, "quasiquote"))
        return ex.coreCall("list", [mkConst(ex.sym("quasiquote")), qq(x.cdr.car, env, depth + 1, loc)], loc);
      if (tagged(x, env, "unquote-splicing") && depth > 1)
        return ex.coreCall("list", [mkConst(ex.sym("unquote-splicing")), qq(x.cdr.car, env, depth - 1, loc)], loc);
      // Walk the spine; build from the end.
      const elems: any[] = [];
      let y: any = x;
      while (y instanceof Pair && !tagged(y, env, "unquote") && !tagged(y, env, "unquote-splicing")) {
        elems.push(y.car);
        y = y.cdr;
      }
      let acc: Node = y === NIL ? mkConst(NIL) : qq(y, env, depth, loc);
      for (let i = elems.length - 1; i >= 0; i--) {
        const e = elems[i];
        if (tagged(e, env, "unquote-splicing") && depth === 1) {
          const spliced = ex.expand(e.cdr.car, env, loc);
          acc = acc.t === "const" && acc.v === NIL ? spliced : ex.coreCall("append", [spliced, acc], loc);
        } else acc = ex.coreCall("cons", [qq(e, env, depth, loc), acc], loc);
      }
      return acc;
    }
    if (Array.isArray(x)) return ex.coreCall("list->vector", [qq(arrayToList(x), env, depth, loc)], loc);
    return mkConst(strip(x));
  };
  special("quasiquote", (form, env, loc) => qq(items(form, "quasiquote", loc, 1, 1)[1], env, 1, loc));
  special("unquote", (form, _env, loc) => syntaxError("unquote: not inside a quasiquote", form, loc, "unquote"));
  special("unquote-splicing", (form, _env, loc) => syntaxError("unquote-splicing: not inside a quasiquote", form, loc, "unquote-splicing"));

  // ---- let family ----------------------------------------------------------------------------

  /** Parses ((id init) ...) bindings. */
  const parseBindings = (x: any, form: any, who: string, loc: L, allowNoInit = false): { ids: Identifier[]; inits: any[] } => {
    const bs = listToArray(x);
    if (bs === null) return syntaxError(`${who}: bindings must be a list`, form, loc, who);
    const ids: Identifier[] = [];
    const inits: any[] = [];
    for (const b of bs) {
      const bi = b instanceof Pair ? listToArray(b) : null;
      if (bi === null || !isIdentifier(bi[0]) || bi.length > 2 || (bi.length === 1 && !allowNoInit))
        return syntaxError(`${who}: bad binding`, b, loc, who);
      ids.push(bi[0] as Identifier);
      inits.push(bi.length === 2 ? bi[1] : undefined);
    }
    return { ids, inits };
  };
  const checkDistinct = (ids: Identifier[], form: any, who: string, loc: L) => {
    const seen = new Set<Identifier>();
    for (const id of ids) {
      if (seen.has(id)) syntaxError(`${who}: duplicate binding of '${symOf(id).name}'`, form, loc, who);
      seen.add(id);
    }
  };

  special("let", (form, env, loc) => {
    const a = items(form, "let", loc, 1);
    if (isIdentifier(a[1])) {
      // Named let: the name is bound in the body only; the inits see the outer environment.
      if (a.length < 4) return syntaxError("let: bad syntax", form, loc, "let");
      const name = a[1] as Identifier;
      const { ids, inits } = parseBindings(a[2], form, "let", loc);
      checkDistinct(ids, form, "let", loc);
      const initNodes = inits.map((i) => ex.expand(i, env, loc));
      const nameScope = new Scope(env);
      const loopVar = new Var(symOf(name).name);
      nameScope.bind(name, { k: "local", v: loopVar });
      const lam = ex.lambda(list(ids), ((form.cdr as Pair).cdr as Pair).cdr, nameScope, symOf(name).name, form, loc);
      return { t: "letrec", vars: [loopVar], inits: [lam], body: { t: "call", f: ref(loopVar), args: initNodes, ...withLoc(loc) } };
    }
    if (a.length < 3) return syntaxError("let: expected a body", form, loc, "let");
    const { ids, inits } = parseBindings(a[1], form, "let", loc);
    checkDistinct(ids, form, "let", loc);
    const initNodes = ids.map((id, i) => ex.expandNamed(inits[i], env, loc, symOf(id).name));
    const scope = new Scope(env);
    const vars = ids.map((id) => {
      const v = new Var(symOf(id).name);
      scope.bind(id, { k: "local", v });
      return v;
    });
    const body = ex.body(a.slice(2), scope, loc);
    return vars.length ? { t: "let", vars, inits: initNodes, body } : body;
  });

  special("let*", (form, env, loc) => {
    const a = items(form, "let*", loc, 2);
    const { ids, inits } = parseBindings(a[1], form, "let*", loc);
    let scope: Env = env;
    const vars: Var[] = [];
    const initNodes: Node[] = [];
    ids.forEach((id, i) => {
      initNodes.push(ex.expandNamed(inits[i], scope, loc, symOf(id).name));
      const s = new Scope(scope);
      const v = new Var(symOf(id).name);
      s.bind(id, { k: "local", v });
      vars.push(v);
      scope = s;
    });
    let body = ex.body(a.slice(2), new Scope(scope), loc);
    for (let i = vars.length - 1; i >= 0; i--) body = { t: "let", vars: [vars[i] as Var], inits: [initNodes[i] as Node], body };
    return body;
  });

  const letrec = (who: string) => (form: Pair, env: Env, loc: L): Node => {
    const a = items(form, who, loc, 2);
    const { ids, inits } = parseBindings(a[1], form, who, loc);
    checkDistinct(ids, form, who, loc);
    const scope = new Scope(env);
    const vars = ids.map((id) => {
      const v = new Var(symOf(id).name);
      scope.bind(id, { k: "local", v });
      return v;
    });
    const initNodes = ids.map((id, i) => ex.expandNamed(inits[i], scope, loc, symOf(id).name));
    return { t: "letrec", vars, inits: initNodes, body: ex.body(a.slice(2), new Scope(scope), loc) };
  };
  special("letrec", letrec("letrec"));
  special("letrec*", letrec("letrec*"));

  // ---- conditionals --------------------------------------------------------------------------

  special("and", (form, env, loc) => {
    const a = items(form, "and", loc, 0);
    if (a.length === 1) return mkConst(true);
    let n = ex.expand(a[a.length - 1], env, loc);
    for (let i = a.length - 2; i >= 1; i--) n = { t: "if", c: ex.expand(a[i], env, loc), a: n, b: mkConst(false) };
    return n;
  });

  special("or", (form, env, loc) => {
    const a = items(form, "or", loc, 0);
    if (a.length === 1) return mkConst(false);
    let n = ex.expand(a[a.length - 1], env, loc);
    for (let i = a.length - 2; i >= 1; i--) {
      const rest = n;
      n = letTemp("or", ex.expand(a[i], env, loc), (t) => ({ t: "if", c: ref(t), a: ref(t), b: rest }));
    }
    return n;
  });

  special("when", (form, env, loc) => {
    const a = items(form, "when", loc, 1);
    return { t: "if", c: ex.expand(a[1], env, loc), a: ex.expandSeq(a.slice(2), env, loc), b: mkConst(UNSPECIFIED) };
  });
  special("unless", (form, env, loc) => {
    const a = items(form, "unless", loc, 1);
    return { t: "if", c: ex.expand(a[1], env, loc), a: mkConst(UNSPECIFIED), b: ex.expandSeq(a.slice(2), env, loc) };
  });

  /** cond clauses → nested ifs; `fallback` is what no clause matching gives (default: unspecified). */
  // cond and case expand their clauses in order, then nest the IR from the last clause
  // back: no JS recursion per clause, so thousands of clauses expand.
  type CondPiece = { else: Node } | { test: Node; arrow?: Node; body?: Node };
  const condClauses = (clauses: any[], env: Env, loc: L, form: any, fallback: (() => Node) | null): Node => {
    const pieces: CondPiece[] = [];
    for (let i = 0; i < clauses.length; i++) {
      const c = clauses[i];
      const ci = c instanceof Pair ? listToArray(c) : null;
      if (ci === null || ci.length === 0) return syntaxError("cond: bad clause", c, loc, "cond");
      if (ex.isAux(ci[0], env, "else")) {
        if (i !== clauses.length - 1) return syntaxError("cond: else must be the last clause", form, loc, "cond");
        pieces.push({ else: ex.expandSeq(ci.slice(1), env, loc) });
        break;
      }
      const test = ex.expand(ci[0], env, loc);
      if (ci.length === 1) pieces.push({ test });
      else if (ex.isAux(ci[1], env, "=>")) {
        if (ci.length !== 3) return syntaxError("cond: expected (test => receiver)", c, loc, "cond");
        pieces.push({ test, arrow: ex.expand(ci[2], env, loc) });
      } else pieces.push({ test, body: ex.expandSeq(ci.slice(1), env, loc) });
    }
    const last = pieces[pieces.length - 1];
    let acc: Node = last !== undefined && "else" in last ? last.else : fallback ? fallback() : mkConst(UNSPECIFIED);
    for (let i = pieces.length - 1; i >= 0; i--) {
      const p = pieces[i] as CondPiece;
      if ("else" in p) continue;
      const rest = acc;
      if (p.body !== undefined) acc = { t: "if", c: p.test, a: p.body, b: rest };
      else if (p.arrow !== undefined) {
        const f = p.arrow;
        acc = letTemp("cond", p.test, (t) => ({ t: "if", c: ref(t), a: { t: "call", f, args: [ref(t)], ...withLoc(loc) }, b: rest }));
      } else acc = letTemp("cond", p.test, (t) => ({ t: "if", c: ref(t), a: ref(t), b: rest }));
    }
    return acc;
  };
  special("cond", (form, env, loc) => condClauses(items(form, "cond", loc, 0).slice(1), env, loc, form, null));

  special("case", (form, env, loc) => {
    const a = items(form, "case", loc, 1);
    const key = ex.expand(a[1], env, loc);
    const clauses = a.slice(2);
    return letTemp("key", key, (k) => {
      const tests: (Node | null)[] = []; // null: the else clause
      const results: Node[] = [];
      clauses.forEach((c, i) => {
        const ci = c instanceof Pair ? listToArray(c) : null;
        if (ci === null || ci.length < 2) return syntaxError("case: bad clause", c, loc, "case");
        const isElse = ex.isAux(ci[0], env, "else");
        if (isElse && i !== clauses.length - 1) return syntaxError("case: else must be the last clause", form, loc, "case");
        const arrow = ex.isAux(ci[1], env, "=>");
        if (arrow && ci.length !== 3) return syntaxError("case: expected (data => receiver)", c, loc, "case");
        results.push(
          arrow ? ({ t: "call", f: ex.expand(ci[2], env, loc), args: [ref(k)], ...withLoc(loc) } as Node) : ex.expandSeq(ci.slice(1), env, loc),
        );
        if (isElse) return tests.push(null);
        const data = listToArray(strip(ci[0]));
        if (data === null) return syntaxError("case: data must be a list", c, loc, "case");
        let test: Node = mkConst(false);
        for (let j = data.length - 1; j >= 0; j--) {
          const d = data[j];
          const cmp = ex.coreCall(isEqComparable(d) ? "eq?" : "eqv?", [ref(k), mkConst(d)], loc);
          test = j === data.length - 1 ? cmp : { t: "if", c: cmp, a: mkConst(true), b: test };
        }
        return tests.push(test);
      });
      let acc: Node = mkConst(UNSPECIFIED);
      for (let i = clauses.length - 1; i >= 0; i--) {
        const test = tests[i] as Node | null;
        acc = test === null ? (results[i] as Node) : { t: "if", c: test, a: results[i] as Node, b: acc };
      }
      return acc;
    });
  });

  special("do", (form, env, loc) => {
    const a = items(form, "do", loc, 2);
    const specs = listToArray(a[1]);
    if (specs === null) return syntaxError("do: bad variable specs", form, loc, "do");
    const ids: Identifier[] = [];
    const inits: Node[] = [];
    const steps: any[] = [];
    for (const s of specs) {
      const si = s instanceof Pair ? listToArray(s) : null;
      if (si === null || si.length < 2 || si.length > 3 || !isIdentifier(si[0])) return syntaxError("do: bad variable spec", s, loc, "do");
      ids.push(si[0] as Identifier);
      inits.push(ex.expand(si[1], env, loc));
      steps.push(si.length === 3 ? si[2] : si[0]);
    }
    checkDistinct(ids, form, "do", loc);
    const exit = a[2] instanceof Pair ? listToArray(a[2]) : null;
    if (exit === null || exit.length === 0) return syntaxError("do: expected (test expr ...)", form, loc, "do");
    const loopVar = new Var("do-loop");
    const scope = new Scope(env);
    const params = ids.map((id) => {
      const v = new Var(symOf(id).name);
      scope.bind(id, { k: "local", v });
      return v;
    });
    const commands = a.slice(3).map((c) => ex.expand(c, scope, loc));
    const again: Node = { t: "call", f: ref(loopVar), args: steps.map((s) => ex.expand(s, scope, loc)), ...withLoc(loc) };
    const body: Node = {
      t: "if",
      c: ex.expand(exit[0], scope, loc),
      a: ex.expandSeq(exit.slice(1), scope, loc),
      b: mkSeq([...commands, again]),
    };
    return { t: "letrec", vars: [loopVar], inits: [lambdaNode(params, null, body, "do-loop", loc)], body: { t: "call", f: ref(loopVar), args: inits, ...withLoc(loc) } };
  });

  special("case-lambda", (form, env, loc) => {
    const a = items(form, "case-lambda", loc, 0);
    const clauses = a.slice(1).map((c) => {
      if (!(c instanceof Pair)) return syntaxError("case-lambda: bad clause", c, loc, "case-lambda");
      return ex.lambda(c.car, c.cdr, env, "", c, loc);
    });
    return { t: "case-lambda", clauses, name: "", ...withLoc(loc) };
  });

  // ---- multiple values -------------------------------------------------------------------------

  /** Binds formals in `scope`, returning the lambda's parameters. */
  const bindFormals = (formals: any, scope: Scope, form: any, loc: L): { params: Var[]; rest: Var | null } => {
    const { req, rest } = ex.parseFormals(formals, form, loc);
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
    return { params, rest: restVar };
  };

  const letValues = (who: string, sequential: boolean) => (form: Pair, env: Env, loc: L): Node => {
    const a = items(form, who, loc, 2);
    const bs = listToArray(a[1]);
    if (bs === null) return syntaxError(`${who}: bad bindings`, form, loc, who);
    const layers: { producer: Node; params: Var[]; rest: Var | null }[] = [];
    const shared = new Scope(env);
    let scope: Env = env;
    for (const b of bs) {
      const bi = b instanceof Pair ? listToArray(b) : null;
      if (bi === null || bi.length !== 2) return syntaxError(`${who}: bad binding`, b, loc, who);
      const producer = ex.expand(bi[1], scope, loc);
      let target: Scope;
      if (sequential) {
        target = new Scope(scope);
        scope = target;
      } else target = shared;
      const { params, rest } = bindFormals(bi[0], target, b, loc);
      layers.push({ producer, params, rest });
    }
    let body = ex.body(a.slice(2), new Scope(sequential ? scope : shared), loc);
    for (let i = layers.length - 1; i >= 0; i--) {
      const ly = layers[i] as (typeof layers)[number];
      body = { t: "cwv", producer: thunk(ly.producer, loc), consumer: lambdaNode(ly.params, ly.rest, body, "", loc), ...withLoc(loc) };
    }
    return body;
  };
  special("let-values", letValues("let-values", false));
  special("let*-values", letValues("let*-values", true));

  macro("define-values", (form, _env, loc) => {
    const a = items(form, "define-values", loc, 2, 2);
    const { req, rest } = ex.parseFormals(a[1], form, loc);
    const tmp = new Alias(ex.symbols.gensym("vals"), ex.builtins);
    const fresh = [...req, ...(rest ? [rest] : [])].map((id) => new Alias(symOf(id), ex.builtins));
    const freshFormals = arrayToList(fresh.slice(0, req.length), rest ? fresh[req.length] : NIL);
    const defs: any[] = [
      list([
        ex.core("define"),
        tmp,
        list([
          ex.core("call-with-values"),
          list([ex.core("lambda"), NIL, a[2]]),
          list([ex.core("lambda"), freshFormals, list([ex.core("list"), ...fresh])]),
        ]),
      ]),
    ];
    req.forEach((id, i) => defs.push(list([ex.core("define"), id, list([ex.core("list-ref"), tmp, i])])));
    // The consumer lists the required values and then the rest list as one element.
    if (rest) defs.push(list([ex.core("define"), rest, list([ex.core("list-ref"), tmp, req.length])]));
    return list([ex.core("begin"), ...defs]);
  });

  // ---- dynamic environment -----------------------------------------------------------------------

  special("parameterize", (form, env, loc) => {
    const a = items(form, "parameterize", loc, 2);
    // Each binding is (parameter-expression value-expression): the first need not be an identifier.
    const bs = listToArray(a[1]);
    if (bs === null) return syntaxError("parameterize: bindings must be a list", form, loc, "parameterize");
    const params: Node[] = [];
    const vals: Node[] = [];
    for (const b of bs) {
      const bi = b instanceof Pair ? listToArray(b) : null;
      if (bi === null || bi.length !== 2) return syntaxError("parameterize: bad binding", b, loc, "parameterize");
      params.push(ex.expand(bi[0], env, loc));
      vals.push(ex.expand(bi[1], env, loc));
    }
    const body = ex.lambda(NIL, (form.cdr as Pair).cdr, env, "parameterize", form, loc);
    return ex.coreCall("%parameterize", [ex.coreCall("list", params, loc), ex.coreCall("list", vals, loc), body], loc);
  });

  special("guard", (form, env, loc) => {
    const a = items(form, "guard", loc, 1);
    const spec = a[1];
    if (!(spec instanceof Pair) || !isIdentifier(spec.car)) return syntaxError("guard: expected (guard (var clause ...) body ...)", form, loc, "guard");
    const clauses = listToArray(spec.cdr);
    if (clauses === null) return syntaxError("guard: bad clauses", form, loc, "guard");
    const body = ex.lambda(NIL, (form.cdr as Pair).cdr, env, "guard", form, loc);
    const scope = new Scope(env);
    const cv = new Var(symOf(spec.car).name);
    scope.bind(spec.car, { k: "local", v: cv });
    const reraise = new Var("reraise");
    const handlerBody = condClauses(clauses, scope, loc, form, () => ({ t: "call", f: ref(reraise), args: [], ...withLoc(loc) }));
    return ex.coreCall("%guard", [body, lambdaNode([cv, reraise], null, handlerBody, "guard-handler", loc)], loc);
  });

  special("delay-force", (form, env, loc) => {
    const a = items(form, "delay-force", loc, 1, 1);
    return ex.coreCall("%make-lazy-promise", [thunk(ex.expand(a[1], env, loc), loc)], loc);
  });
  special("delay", (form, env, loc) => {
    const a = items(form, "delay", loc, 1, 1);
    return ex.coreCall("%make-lazy-promise", [thunk(ex.coreCall("make-promise", [ex.expand(a[1], env, loc)], loc), loc)], loc);
  });

  // ---- records -----------------------------------------------------------------------------

  macro("define-record-type", (form, _env, loc) => {
    const a = items(form, "define-record-type", loc, 2);
    const typeName = a[1];
    if (!isIdentifier(typeName)) return syntaxError("define-record-type: expected a type name", form, loc, "define-record-type");
    const ctor = a[2];
    const pred = a[3];
    const fieldSpecs = a.slice(4).map((f) => (isIdentifier(f) ? [f] : f instanceof Pair ? listToArray(f) : null));
    const fields: Identifier[] = [];
    for (const fs of fieldSpecs) {
      if (fs === null || fs.length < 1 || fs.length > 3 || !fs.every(isIdentifier))
        return syntaxError("define-record-type: bad field spec", form, loc, "define-record-type");
      fields.push(fs[0] as Identifier);
    }
    const fieldIndex = (id: any): number => {
      const i = fields.findIndex((f) => f === id || symOf(f) === symOf(id));
      if (i < 0) syntaxError(`define-record-type: '${symOf(id).name}' is not a field`, form, loc, "define-record-type");
      return i;
    };
    const q = (x: any) => list([ex.core("quote"), x]);
    const def = (id: any, e: any) => list([ex.core("define"), id, e]);
    const plain = symOf(typeName).name.replace(/^<(.*)>$/, "$1");
    const out: any[] = [def(typeName, list([ex.core("%make-record-type"), q(ex.sym(plain)), q(list(fields.map((f) => symOf(f))))]))];
    if (ctor !== false && ctor !== undefined) {
      let cname: any;
      let cfields: any[];
      if (isIdentifier(ctor)) {
        cname = ctor;
        cfields = fields;
      } else {
        const ci = ctor instanceof Pair ? listToArray(ctor) : null;
        if (ci === null || !ci.every(isIdentifier)) return syntaxError("define-record-type: bad constructor spec", form, loc, "define-record-type");
        cname = ci[0];
        cfields = ci.slice(1);
      }
      out.push(def(cname, list([ex.core("%record-constructor"), typeName, q(list(cfields.map(fieldIndex))), q(symOf(cname))])));
    }
    if (isIdentifier(pred)) out.push(def(pred, list([ex.core("%record-predicate"), typeName, q(symOf(pred))])));
    fieldSpecs.forEach((fs, i) => {
      const f = fs as Identifier[];
      if (f[1]) out.push(def(f[1], list([ex.core("%record-accessor"), typeName, i, q(symOf(f[1]))])));
      if (f[2]) out.push(def(f[2], list([ex.core("%record-modifier"), typeName, i, q(symOf(f[2]))])));
    });
    return list([ex.core("begin"), ...out]);
  });

  // ---- inclusion and features -------------------------------------------------------------------

  const include = (who: string, fold: boolean) => (form: Pair, _env: Env, loc: L) => {
    const a = items(form, who, loc, 1);
    const forms: any[] = [];
    for (const f of a.slice(1)) {
      if (!(f instanceof MString)) return syntaxError(`${who}: expected file names (strings)`, form, loc, who);
      forms.push(...ex.host.readInclude(f.toString(), loc?.file, fold, loc));
    }
    return list([ex.core("begin"), ...forms]);
  };
  macro("include", include("include", false));
  macro("include-ci", include("include-ci", true));

  macro("cond-expand", (form, env, loc) => {
    const a = items(form, "cond-expand", loc, 0);
    for (const c of a.slice(1)) {
      if (!(c instanceof Pair)) return syntaxError("cond-expand: bad clause", c, loc, "cond-expand");
      if (ex.isAux(c.car, env, "else") || (isIdentifier(c.car) && symOf(c.car).name === "else") || featureMatch(ex, c.car, form, loc))
        return list([ex.core("begin"), ...(listToArray(c.cdr) ?? [])]);
    }
    return list([ex.core("begin")]);
  });
}

/** Evaluates a cond-expand feature requirement. */
export function featureMatch(ex: Expander, req: any, form: any, loc: L): boolean {
  if (isIdentifier(req)) return ex.host.features().includes(symOf(req).name);
  if (req instanceof Pair && isIdentifier(req.car)) {
    const op = symOf(req.car).name;
    const args = listToArray(req.cdr);
    if (args === null) return syntaxError("cond-expand: bad requirement", req, loc, "cond-expand");
    switch (op) {
      case "and":
        return args.every((r) => featureMatch(ex, r, form, loc));
      case "or":
        return args.some((r) => featureMatch(ex, r, form, loc));
      case "not":
        if (args.length !== 1) return syntaxError("cond-expand: (not requirement)", req, loc, "cond-expand");
        return !featureMatch(ex, args[0], form, loc);
      case "library":
        if (args.length !== 1) return syntaxError("cond-expand: (library name)", req, loc, "cond-expand");
        return ex.host.libraryExists(strip(args[0]));
    }
  }
  return syntaxError("cond-expand: bad feature requirement", req, loc, "cond-expand");
}

/** Data `case` can compare with `eq?` (identity in nodwyn's representation). */
function isEqComparable(d: any): boolean {
  return (typeof d === "number" && Number.isInteger(d)) || typeof d === "boolean" || d === NIL || (d !== null && typeof d === "object" && d.constructor?.name === "Sym") || (d !== null && typeof d === "object" && d.constructor?.name === "Char");
}
