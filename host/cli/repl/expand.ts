// ,expand FORM: a form fully expanded (macros gone, derived forms as core forms), given back as Scheme data to print.
//
// The expander's output is the interpreter's core language (interpreter/compiler/ir.ts):
// this reads it structurally and writes each node as the Scheme form it means.
// Variables keep their names; two different variables of one name that a
// macro's hygiene told apart are written name, name.2, … The expansion runs in
// a copy of the REPL's environment, so a define-syntax in FORM defines nothing.

import { NIL, Pair, Sym, UNSPECIFIED, arrayToList, type Interpreter } from "../../../interpreter/api.js";

/** The expansion of every form of `text`, as data (one datum per form). */
export function expandForms(interp: Interpreter, text: string, file: string): unknown[] {
  const forms = interp.read(text, file);
  const real = interp.interactionEnvironment();
  const top = interp.newTopEnv("expand", true);
  for (const [k, v] of real.table) top.table.set(k, v);
  for (const k of real.imported) top.imported.add(k);
  // Only expanded, never run: a new definition makes a cell in the copy, a define-syntax binds there.
  return forms.map((f) => new Unexpander(interp).node(interp.expander.expandTop(f, top, undefined)));
}

class Unexpander {
  private readonly names = new Map<object, string>();
  private readonly taken = new Map<string, number>();
  constructor(private readonly interp: Interpreter) {}

  private sym(s: string): Sym {
    return this.interp.symbols.intern(s);
  }

  private list(...xs: unknown[]): unknown {
    return arrayToList(xs);
  }

  /** The name a variable is written with. */
  private varName(v: { name: string }): Sym {
    let n = this.names.get(v);
    if (n === undefined) {
      const count = (this.taken.get(v.name) ?? 0) + 1;
      this.taken.set(v.name, count);
      n = count === 1 ? v.name : `${v.name}.${count}`;
      this.names.set(v, n);
    }
    return this.sym(n);
  }

  private constant(v: unknown): unknown {
    if (v === UNSPECIFIED) return this.list(this.sym("if"), false, false);
    if (v instanceof Sym || v instanceof Pair || v === NIL) return this.list(this.sym("quote"), v);
    return v;
  }

  private formals(params: { name: string }[], rest: { name: string } | null): unknown {
    let tail: unknown = rest === null ? NIL : this.varName(rest);
    for (let i = params.length - 1; i >= 0; i--) tail = new Pair(this.varName(params[i] as { name: string }), tail);
    return tail;
  }

  /** Sequence nodes as a body: their forms spliced. */
  private body(n: any): unknown[] {
    return n.t === "seq" ? n.es.map((e: any) => this.node(e)) : [this.node(n)];
  }

  node(n: any): unknown {
    switch (n.t as string) {
      case "const":
        return this.constant(n.v);
      case "lref":
        return this.varName(n.v);
      case "gref":
        return n.cell.name;
      case "lset":
        return this.list(this.sym("set!"), this.varName(n.v), this.node(n.e));
      case "gset":
        return this.list(this.sym(n.define ? "define" : "set!"), n.cell.name, this.node(n.e));
      case "if":
        return this.list(this.sym("if"), this.node(n.c), this.node(n.a), this.node(n.b));
      case "seq":
        return arrayToList([this.sym("begin"), ...this.body(n)]);
      case "lambda":
        return arrayToList([this.sym("lambda"), this.formals(n.params, n.rest), ...this.body(n.body)]);
      case "case-lambda":
        return arrayToList([this.sym("case-lambda"), ...n.clauses.map((c: any) => arrayToList([this.formals(c.params, c.rest), ...this.body(c.body)]))]);
      case "call":
        return arrayToList([this.node(n.f), ...n.args.map((a: any) => this.node(a))]);
      case "let":
      case "letrec": {
        const binds = n.vars.map((v: any, i: number) => this.list(this.varName(v), this.node(n.inits[i])));
        return arrayToList([this.sym(n.t === "let" ? "let" : "letrec*"), arrayToList(binds), ...this.body(n.body)]);
      }
      case "cwv":
        return this.list(this.sym("call-with-values"), this.node(n.producer), this.node(n.consumer));
      case "loop": {
        const name = this.sym(n.name || "loop");
        return this.list(this.sym("let"), name, arrayToList(n.params.map((p: any) => this.list(this.varName(p), false))), this.node(n.body));
      }
      case "jump":
        return arrayToList([this.sym(n.loop.name || "loop"), ...n.args.map((a: any) => this.node(a))]);
      default:
        return this.sym(`#<${String(n.t)}>`);
    }
  }
}
