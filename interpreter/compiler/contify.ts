// Contification: a letrec-bound procedure that is only ever called in tail position
// (a named let, a `do` loop, a `while` macro) becomes a loop in its parent's code.
//
// The candidate is `(letrec ((v (lambda params body))) entry)` where every
// reference to v is a call with the right number of arguments in tail position
// of `body` or of `entry`, and none is inside another lambda. Then no closure is
// needed: the parameters become variables of the parent, the calls become jumps,
// and the free variables of the loop are read directly instead of through an
// environment. A procedure that escapes, or is called in a non-tail position, or
// from a nested lambda, stays a procedure.

import type { Node, Lambda, Letrec, Loop, Jump, Var, Call } from "./ir.js";

/** Rewrites the tree of `top` in place. */
export function contify(top: Lambda): void {
  top.body = rewrite(top.body);
}

function rewrite(n: Node): Node {
  switch (n.t) {
    case "const":
    case "lref":
    case "gref":
      return n;
    case "lset":
      return { ...n, e: rewrite(n.e) };
    case "gset":
      return { ...n, e: rewrite(n.e) };
    case "if":
      return { t: "if", c: rewrite(n.c), a: rewrite(n.a), b: rewrite(n.b) };
    case "seq":
      return { t: "seq", es: n.es.map(rewrite) };
    case "lambda":
      n.body = rewrite(n.body);
      return n;
    case "case-lambda":
      for (const c of n.clauses) c.body = rewrite(c.body);
      return n;
    case "call":
      return { ...n, f: rewrite(n.f), args: n.args.map(rewrite) };
    case "let":
      return { t: "let", vars: n.vars, inits: n.inits.map(rewrite), body: rewrite(n.body) };
    case "cwv":
      return { ...n, producer: rewrite(n.producer), consumer: rewrite(n.consumer) };
    case "letrec": {
      // Inner loops first, so that a loop jumping to an outer one from inside
      // itself no longer hides that call in a lambda.
      const inner: Letrec = { t: "letrec", vars: n.vars, inits: n.inits.map(rewrite), body: rewrite(n.body) };
      return asLoop(inner) ?? inner;
    }
    case "loop":
      // In place: the jumps inside refer to this very node.
      n.entry = rewrite(n.entry);
      n.body = rewrite(n.body);
      return n;
    case "jump":
      return { ...n, args: n.args.map(rewrite) };
  }
}

/** The Loop for a contifiable letrec, or null. */
function asLoop(n: Letrec): Loop | null {
  if (n.vars.length !== 1) return null;
  const v = n.vars[0] as Var;
  const l = n.inits[0] as Node;
  if (l.t !== "lambda" || l.rest !== null) return null;
  const calls: Call[] = [];
  if (!onlyTailCalls(l.body, v, l.params.length, true, calls) || !onlyTailCalls(n.body, v, l.params.length, true, calls)) return null;
  if (calls.length === 0) return null;
  const loop: Loop = { t: "loop", params: l.params, entry: n.body, body: l.body, name: l.name, ...(l.loc ? { loc: l.loc } : {}) };
  const targets = new Set<Node>(calls);
  loop.entry = replaceCalls(n.body, targets, loop);
  loop.body = replaceCalls(l.body, targets, loop);
  return loop;
}

/**
 * True when every occurrence of v in x is the operator of a call with `arity`
 * arguments in tail position (`tail` says whether x itself is). Collects the calls.
 */
function onlyTailCalls(x: Node, v: Var, arity: number, tail: boolean, calls: Call[]): boolean {
  switch (x.t) {
    case "const":
    case "gref":
      return true;
    case "lref":
      return x.v !== v;
    case "lset":
      return x.v !== v && onlyTailCalls(x.e, v, arity, false, calls);
    case "gset":
      return onlyTailCalls(x.e, v, arity, false, calls);
    case "if":
      return onlyTailCalls(x.c, v, arity, false, calls) && onlyTailCalls(x.a, v, arity, tail, calls) && onlyTailCalls(x.b, v, arity, tail, calls);
    case "seq":
      return x.es.every((e, i) => onlyTailCalls(e, v, arity, tail && i === x.es.length - 1, calls));
    case "lambda":
      return !mentions(x.body, v);
    case "case-lambda":
      return x.clauses.every((c) => !mentions(c.body, v));
    case "call":
      if (x.f.t === "lref" && x.f.v === v) {
        if (!tail || x.args.length !== arity) return false;
        calls.push(x);
        return x.args.every((a) => onlyTailCalls(a, v, arity, false, calls));
      }
      return onlyTailCalls(x.f, v, arity, false, calls) && x.args.every((a) => onlyTailCalls(a, v, arity, false, calls));
    case "let":
      return x.inits.every((e) => onlyTailCalls(e, v, arity, false, calls)) && onlyTailCalls(x.body, v, arity, tail, calls);
    case "letrec":
      return x.inits.every((e) => onlyTailCalls(e, v, arity, false, calls)) && onlyTailCalls(x.body, v, arity, tail, calls);
    case "cwv":
      return !mentions(x.producer, v) && !mentions(x.consumer, v);
    case "loop":
      return onlyTailCalls(x.entry, v, arity, tail, calls) && onlyTailCalls(x.body, v, arity, tail, calls);
    case "jump":
      return x.args.every((a) => onlyTailCalls(a, v, arity, false, calls));
  }
}

function mentions(x: Node, v: Var): boolean {
  switch (x.t) {
    case "const":
    case "gref":
      return false;
    case "lref":
      return x.v === v;
    case "lset":
      return x.v === v || mentions(x.e, v);
    case "gset":
      return mentions(x.e, v);
    case "if":
      return mentions(x.c, v) || mentions(x.a, v) || mentions(x.b, v);
    case "seq":
      return x.es.some((e) => mentions(e, v));
    case "lambda":
      return mentions(x.body, v);
    case "case-lambda":
      return x.clauses.some((c) => mentions(c.body, v));
    case "call":
      return mentions(x.f, v) || x.args.some((a) => mentions(a, v));
    case "let":
    case "letrec":
      return x.inits.some((e) => mentions(e, v)) || mentions(x.body, v);
    case "cwv":
      return mentions(x.producer, v) || mentions(x.consumer, v);
    case "loop":
      return mentions(x.entry, v) || mentions(x.body, v);
    case "jump":
      return x.args.some((a) => mentions(a, v));
  }
}

/** x with the calls in `targets` replaced by jumps to `loop` (not entering lambdas: none are there). */
function replaceCalls(x: Node, targets: Set<Node>, loop: Loop): Node {
  const r = (y: Node) => replaceCalls(y, targets, loop);
  switch (x.t) {
    case "call":
      if (targets.has(x)) {
        const j: Jump = { t: "jump", loop, args: x.args.map(r), ...(x.loc ? { loc: x.loc } : {}) };
        return j;
      }
      return { ...x, f: r(x.f), args: x.args.map(r) };
    case "if":
      return { t: "if", c: r(x.c), a: r(x.a), b: r(x.b) };
    case "seq":
      return { t: "seq", es: x.es.map(r) };
    case "let":
      return { t: "let", vars: x.vars, inits: x.inits.map(r), body: r(x.body) };
    case "letrec":
      return { t: "letrec", vars: x.vars, inits: x.inits.map(r), body: r(x.body) };
    case "lset":
      return { ...x, e: r(x.e) };
    case "gset":
      return { ...x, e: r(x.e) };
    case "loop":
      x.entry = r(x.entry);
      x.body = r(x.body);
      return x;
    case "jump":
      return { ...x, args: x.args.map(r) };
    default:
      return x;
  }
}
