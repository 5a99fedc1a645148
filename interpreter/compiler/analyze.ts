// Analysis of a compilation unit: lambda ids, free variables, captured and assigned variables.
//
// Closures are flat: a lambda's free variables are copied into its env array
// when it is created. That is only sound for variables that never change after
// capture, so every assigned variable, and every letrec variable that may be
// captured before its initialisation has run, lives in a Box.

import type { Node, Lambda, Var } from "./ir.js";

export interface UnitInfo {
  /** Every lambda of the unit in creation order; lambdas[0] is the unit's top-level thunk. */
  readonly lambdas: Lambda[];
}

/** Annotates the tree rooted at `top` in place. */
export function analyze(top: Lambda): UnitInfo {
  const lambdas: Lambda[] = [];
  // Pass 1: owners, assigned and letrec flags, lambda ids.
  const owner = (vars: Iterable<Var>, l: Lambda) => {
    for (const v of vars) v.owner = l;
  };
  const walk1 = (n: Node, cur: Lambda): void => {
    switch (n.t) {
      case "const":
      case "lref":
      case "gref":
        return;
      case "lset":
        n.v.assigned = true;
        return walk1(n.e, cur);
      case "gset":
        return walk1(n.e, cur);
      case "if":
        walk1(n.c, cur);
        walk1(n.a, cur);
        return walk1(n.b, cur);
      case "seq":
        for (const e of n.es) walk1(e, cur);
        return;
      case "lambda":
        n.id = lambdas.length;
        lambdas.push(n);
        owner(n.params, n);
        if (n.rest) n.rest.owner = n;
        return walk1(n.body, n);
      case "case-lambda":
        for (const c of n.clauses) walk1(c, cur);
        return;
      case "call":
        walk1(n.f, cur);
        for (const a of n.args) walk1(a, cur);
        return;
      case "let":
        owner(n.vars, cur);
        for (const e of n.inits) walk1(e, cur);
        return walk1(n.body, cur);
      case "letrec":
        owner(n.vars, cur);
        for (const v of n.vars) v.letrec = true;
        for (const e of n.inits) walk1(e, cur);
        return walk1(n.body, cur);
      case "cwv":
        walk1(n.producer, cur);
        return walk1(n.consumer, cur);
      case "loop":
        owner(n.params, cur);
        walk1(n.entry, cur);
        return walk1(n.body, cur);
      case "jump":
        for (const a of n.args) walk1(a, cur);
        return;
    }
  };
  top.id = 0;
  lambdas.push(top);
  owner(top.params, top);
  walk1(top.body, top);

  // Pass 2: free variables (bottom-up) and captured flags.
  const free = (n: Node, cur: Lambda, acc: Set<Var>): void => {
    switch (n.t) {
      case "const":
      case "gref":
        return;
      case "lref":
        if (n.v.owner !== cur) {
          n.v.captured = true;
          acc.add(n.v);
        }
        return;
      case "lset":
        if (n.v.owner !== cur) {
          n.v.captured = true;
          acc.add(n.v);
        }
        return free(n.e, cur, acc);
      case "gset":
        return free(n.e, cur, acc);
      case "if":
        free(n.c, cur, acc);
        free(n.a, cur, acc);
        return free(n.b, cur, acc);
      case "seq":
        for (const e of n.es) free(e, cur, acc);
        return;
      case "lambda": {
        const inner = new Set<Var>();
        free(n.body, n, inner);
        n.free = [...inner];
        for (const v of inner)
          if (v.owner !== cur) {
            v.captured = true;
            acc.add(v);
          }
        return;
      }
      case "case-lambda":
        for (const c of n.clauses) free(c, cur, acc);
        return;
      case "call":
        free(n.f, cur, acc);
        for (const a of n.args) free(a, cur, acc);
        return;
      case "let":
      case "letrec":
        for (const e of n.inits) free(e, cur, acc);
        return free(n.body, cur, acc);
      case "cwv":
        free(n.producer, cur, acc);
        return free(n.consumer, cur, acc);
      case "loop":
        free(n.entry, cur, acc);
        return free(n.body, cur, acc);
      case "jump":
        for (const a of n.args) free(a, cur, acc);
        return;
    }
  };
  const topFree = new Set<Var>();
  free(top.body, top, topFree);
  top.free = [...topFree];

  // Pass 3: letrec variables initialised by something other than a lambda may be
  // captured (by a lambda created earlier) before they hold a value: box them.
  const walk3 = (n: Node): void => {
    switch (n.t) {
      case "letrec":
        n.vars.forEach((v, i) => {
          const isLambda = (n.inits[i] as Node).t === "lambda";
          if (!isLambda && v.captured) v.assigned = true;
          if (!isLambda || v.assigned) v.uninitCheck = true;
        });
        n.inits.forEach(walk3);
        return walk3(n.body);
      case "lset":
      case "gset":
        return walk3(n.e);
      case "if":
        walk3(n.c);
        walk3(n.a);
        return walk3(n.b);
      case "seq":
        return n.es.forEach(walk3);
      case "lambda":
        return walk3(n.body);
      case "case-lambda":
        return n.clauses.forEach(walk3);
      case "call":
        walk3(n.f);
        return n.args.forEach(walk3);
      case "let":
        n.inits.forEach(walk3);
        return walk3(n.body);
      case "cwv":
        walk3(n.producer);
        return walk3(n.consumer);
      case "loop":
        walk3(n.entry);
        return walk3(n.body);
      case "jump":
        return n.args.forEach(walk3);
      default:
        return;
    }
  };
  walk3(top.body);
  return { lambdas };
}
