// Long sequences in chunks: a capture's cost must not grow with the statements around it.
//
// A resume function continues its procedure after one call site, so it holds
// the code of everything after that site in the procedure (codegen.ts). In a
// body of N statements that each capture (N guards, a test suite's N
// assertions) the N resume functions together hold N²/2 statements, each
// saving every temp of the body: the cost of a capture grew with the number of
// captures before it. Here a sequence with more than CHUNK statements that
// make calls is cut into chunks of at most CHUNK such statements; each chunk
// after the first becomes a procedure of no arguments that ends by calling the
// next, and the sequence keeps the first chunk and a call of the second:
//
//   (begin s1 … s20)  ⇒  (letrec ((c1 (lambda () s9 … s16 (c2)))
//                                 (c2 (lambda () s17 … s20)))
//                          s1 … s8 (c1))
//
// The chunks are made once, where the sequence starts (flat closures over the
// variables they use; assigned variables are boxes, so every chunk sees the
// same locations), and each calls the next in tail position, so the JS stack
// and the continuation hold one chunk at a time. A resume function now holds
// at most the rest of one chunk, and a frame the variables of one chunk.
//
// A chunk cannot hold a jump to a contified loop outside it (a jump is a
// branch inside one JS function): the cut points are all after the last
// statement holding such a jump, so a long loop body is left as it is.

import { Var, type Node, type Lambda, type Call, type Loop } from "./ir.js";
import type { SourceLoc } from "../values/loc.js";
import { INLINE } from "./inline.js";

/** Statements that make calls, at most, per chunk. */
export const CHUNK = 8;

/** Rewrites every long sequence of the unit rooted at `top`, in place (run after contify, before analyze). */
export function chunkSequences(top: Lambda): void {
  top.body = rewrite(top.body, top);
}

function rewrite(n: Node, owner: Lambda): Node {
  switch (n.t) {
    case "const":
    case "lref":
    case "gref":
      return n;
    case "lset":
    case "gset":
      return { ...n, e: rewrite(n.e, owner) };
    case "if":
      return { t: "if", c: rewrite(n.c, owner), a: rewrite(n.a, owner), b: rewrite(n.b, owner) };
    case "seq":
      return chunked(n.es.map((e) => rewrite(e, owner)), owner);
    case "lambda":
      n.body = rewrite(n.body, n);
      return n;
    case "case-lambda":
      for (const c of n.clauses) c.body = rewrite(c.body, c);
      return n;
    case "call":
      return { ...n, f: rewrite(n.f, owner), args: n.args.map((a) => rewrite(a, owner)) };
    case "let":
      return { t: "let", vars: n.vars, inits: n.inits.map((e) => rewrite(e, owner)), body: rewrite(n.body, owner) };
    case "letrec":
      return { t: "letrec", vars: n.vars, inits: n.inits.map((e) => rewrite(e, owner)), body: rewrite(n.body, owner) };
    case "cwv":
      return { ...n, producer: rewrite(n.producer, owner), consumer: rewrite(n.consumer, owner) };
    case "loop":
      // In place: the jumps inside refer to this very node.
      n.entry = rewrite(n.entry, owner);
      n.body = rewrite(n.body, owner);
      return n;
    case "jump":
      return { ...n, args: n.args.map((a) => rewrite(a, owner)) };
  }
}

/** The sequence `es`, cut into chunks when it is long. */
function chunked(es: Node[], owner: Lambda): Node {
  // Where each chunk after the first starts.
  const starts: number[] = [];
  let firstAllowed = 0;
  es.forEach((e, i) => {
    if (jumpsOut(e)) firstAllowed = i + 1;
  });
  let calls = 0;
  es.forEach((e, i) => {
    if (!makesCalls(e)) return;
    if (calls === CHUNK && i >= firstAllowed) {
      starts.push(i);
      calls = 0;
    }
    calls++;
  });
  if (starts.length === 0) return { t: "seq", es };
  const vars = starts.map(() => new Var("chunk"));
  const callOf = (v: Var, at: Node): Call => {
    const loc = locOf(at);
    return { t: "call", f: { t: "lref", v }, args: [], ...(loc ? { loc } : {}) };
  };
  const inits: Lambda[] = starts.map((s, j) => {
    const end = j + 1 < starts.length ? (starts[j + 1] as number) : es.length;
    const body = es.slice(s, end);
    if (j + 1 < starts.length) body.push(callOf(vars[j + 1] as Var, es[end] as Node));
    const loc = locOf(es[s] as Node) ?? owner.loc;
    return { t: "lambda", params: [], rest: null, body: body.length === 1 ? (body[0] as Node) : { t: "seq", es: body }, name: owner.name, ...(loc ? { loc } : {}) };
  });
  const head = es.slice(0, starts[0]);
  head.push(callOf(vars[0] as Var, es[starts[0] as number] as Node));
  return { t: "letrec", vars, inits, body: head.length === 1 ? (head[0] as Node) : { t: "seq", es: head } };
}

function locOf(n: Node): SourceLoc | undefined {
  return (n as { loc?: SourceLoc }).loc;
}

/** Whether `n` (not counting nested lambdas) makes a procedure call that is not opened in place. */
function makesCalls(n: Node): boolean {
  const stack: Node[] = [n];
  while (stack.length) {
    const x = stack.pop() as Node;
    switch (x.t) {
      case "call":
        if (!inlined(x)) return true;
        stack.push(x.f, ...x.args);
        break;
      case "cwv":
      case "loop":
        return true;
      case "lset":
      case "gset":
        stack.push(x.e);
        break;
      case "if":
        stack.push(x.c, x.a, x.b);
        break;
      case "seq":
        stack.push(...x.es);
        break;
      case "let":
      case "letrec":
        stack.push(...x.inits, x.body);
        break;
      case "jump":
        stack.push(...x.args);
        break;
      default:
        break;
    }
  }
  return false;
}

function inlined(n: Call): boolean {
  if (n.f.t !== "gref") return false;
  const prim = n.f.cell.prim;
  if (prim === null) return false;
  const op = INLINE[prim];
  return op !== undefined && op.arity.includes(n.args.length);
}

/** Whether `n` holds a jump to a loop that is not inside `n` (nested lambdas hold none: see contify.ts). */
function jumpsOut(n: Node): boolean {
  const inside = new Set<Loop>();
  const targets: Loop[] = [];
  const stack: Node[] = [n];
  while (stack.length) {
    const x = stack.pop() as Node;
    switch (x.t) {
      case "jump":
        targets.push(x.loop);
        stack.push(...x.args);
        break;
      case "loop":
        inside.add(x);
        stack.push(x.entry, x.body);
        break;
      case "call":
        stack.push(x.f, ...x.args);
        break;
      case "cwv":
        stack.push(x.producer, x.consumer);
        break;
      case "lset":
      case "gset":
        stack.push(x.e);
        break;
      case "if":
        stack.push(x.c, x.a, x.b);
        break;
      case "seq":
        stack.push(...x.es);
        break;
      case "let":
      case "letrec":
        stack.push(...x.inits, x.body);
        break;
      default:
        break;
    }
  }
  return targets.some((l) => !inside.has(l));
}
