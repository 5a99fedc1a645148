// Core IR → JavaScript: one JS function per lambda, and resume functions on demand.
//
// Shape of a compiled lambda (see docs/architecture.md, "The machine"):
//
//   function L3(v1, v2) {
//     var site = 0, f_, t1, v9;  var env = this.env;
//     try {
//       for (;;) {                                   // only when it calls itself in tail position
//         if (--R.fuel < 0 || R.depth > LIM) { site = 0; if (R.poll(this, [v1, v2], L3)) return TAIL; }
//         ... body: non-tail calls set `site`, count R.depth and bounce TAIL;
//             tail calls `return R.tc2(f, a, b)`; self tail calls reassign and `continue` ...
//       }
//     } catch (e) { throw R.unwind(e, this, I3, site, [v1, v2, t1, v9]); }
//   }
//
// The catch is how a continuation gets this activation: `site` says which call
// it was in, the array holds every variable. The resume function for a site is
// generated from the same IR in "resume mode": it restores the variables and
// runs exactly what follows that call (children evaluated before the call are
// skipped — their values are in the restored variables). Temp names and site
// ids are fixed by the first (fast) generation and reused by every resume
// generation, so frames recorded by either kind of function agree.

import type { Node, Lambda, Var, Call, CallWithValues, GlobalCell, GRef, Let, Letrec, If, Seq, LSet, GSet, CaseLambda, Loop, Jump } from "./ir.js";
import { contify } from "./contify.js";
import { chunkSequences } from "./chunk.js";
import { analyze } from "./analyze.js";
import { INLINE, type InlineOp } from "./inline.js";
import type { SourceLoc } from "../values/loc.js";
import { Procedure, type Entries, type ProcInfo } from "../values/procedure.js";
import { NIL } from "../values/pair.js";
import { UNSPECIFIED } from "../values/misc.js";
import { HELPERS, HELPER_NAMES } from "../machine/helpers.js";
import { lambdaEntries } from "../machine/entries.js";
import type { LambdaInfo, ResumeFn } from "../machine/frames.js";
import type { Runtime } from "../machine/runtime.js";
import { Unbound, arityError } from "../machine/runtime.js";

/** Stands for the list of saved variables in emitted code until it is complete. */
const SAVED = "$SAVED$";
/**
 * Stands for this function's weight on the JS stack (see runtime.ts,
 * JS_DEPTH_LIMIT): non-tail call sites add it to R.depth; it grows with the
 * function's variables, which is what makes its JS frame large.
 */
const WEIGHT = "$WEIGHT$";

/**
 * Where a value goes: returned, dropped, or assigned. `exit` names the label to
 * break to after delivering, when the value ends a contified loop's evaluation.
 */
type Dest =
  | { readonly k: "ret" }
  | { readonly k: "eff"; readonly exit?: string }
  | { readonly k: "var"; readonly name: string; readonly mode: "plain" | "newbox" | "setbox"; readonly exit?: string };

const RET: Dest = { k: "ret" };
const EFF: Dest = { k: "eff" };
const toVar = (name: string): Dest => ({ k: "var", name, mode: "plain" });

/** Resume mode: generate only what follows site `site`; `path` holds the nodes from the body down to it. */
interface ResumeCtx {
  readonly site: number;
  readonly path: ReadonlySet<Node>;
}

/**
 * The one resume function of every site inside the statements of a lambda's
 * body sequence (see Unit.bodyResumer): per site, the rest of its statement;
 * then the statements after it, entered through a switch that falls through.
 */
interface BodyPlan {
  readonly seq: Seq;
  readonly cases: readonly { readonly site: number; readonly stmt: number; readonly path: ReadonlySet<Node> }[];
}

/** What the fast generation fixed for a lambda, reused by its resume generations. */
interface FnLayout {
  /** Every JS variable saved in a frame, in `vals` order. */
  readonly saved: string[];
  readonly temps: Map<Node, string>;
  /** Site id → location (sites of calls and of inlined operations that may fail). */
  readonly siteLocs: (SourceLoc | undefined)[];
  /** Site id → the node whose completion it marks (resumable sites only). */
  readonly siteNodes: (Node | undefined)[];
  readonly loops: boolean;
  /** Label numbers of the contified loops. */
  readonly loopIds: Map<Loop, number>;
}

/** A compiled lambda as the machine sees it: name, locations, resume functions. */
export class CompiledLambda implements LambdaInfo, ProcInfo {
  readonly name: string;
  readonly loc: SourceLoc | undefined;
  readonly minArgs: number;
  readonly maxArgs: number;
  readonly kind = "lambda" as const;
  layout!: FnLayout;
  private readonly resumers: (ResumeFn | undefined)[] = [];
  constructor(
    readonly node: Lambda,
    readonly unit: Unit,
  ) {
    this.name = node.name;
    this.loc = node.loc;
    this.minArgs = node.params.length;
    this.maxArgs = node.rest ? -1 : node.params.length;
  }
  siteLoc(site: number): SourceLoc | undefined {
    return this.layout.siteLocs[site];
  }
  resumer(site: number): ResumeFn {
    let r = this.resumers[site];
    if (r === undefined) {
      const body = this.unit.bodyResumer(this);
      r = body !== null && body.sites.has(site) ? body.fn : this.unit.makeResumer(this, site);
      this.resumers[site] = r;
    }
    return r;
  }
  /** The shared resume function of the body sequence's sites (undefined: not made yet; null: none). */
  body: { readonly fn: ResumeFn; readonly sites: ReadonlySet<number> } | null | undefined = undefined;
}

/** Options of one compilation. */
export interface CompileOptions {
  /** Print the generated JS to this function (the disassembler switch). */
  trace?: (js: string) => void;
}

/** A compiled unit: its pools, its lambdas, and the generated code. */
export class Unit {
  readonly K: any[] = [];
  readonly C: GlobalCell[] = [];
  readonly I: CompiledLambda[] = [];
  codes: ((...a: any[]) => any)[] = [];
  entries: Entries[] = [];
  private readonly kIndex = new Map<any, number>();
  private readonly cIndex = new Map<GlobalCell, number>();
  constructor(
    readonly rt: Runtime,
    readonly opts: CompileOptions,
  ) {}

  konst(v: any): string {
    let i = this.kIndex.get(v);
    if (i === undefined) {
      i = this.K.length;
      this.K.push(v);
      this.kIndex.set(v, i);
    }
    return `K${i}`;
  }
  cell(c: GlobalCell): string {
    let i = this.cIndex.get(c);
    if (i === undefined) {
      i = this.C.length;
      this.C.push(c);
      this.cIndex.set(c, i);
    }
    return `C${i}`;
  }

  /** The prelude of the unit's code: every pool entry as a constant. */
  private prelude(): string {
    const out = [`"use strict";`, `const {${HELPER_NAMES.join(", ")}} = H;`];
    if (this.K.length) out.push(`const ${this.K.map((_, i) => `K${i} = U.K[${i}]`).join(", ")};`);
    if (this.C.length) out.push(`const ${this.C.map((_, i) => `C${i} = U.C[${i}]`).join(", ")};`);
    out.push(`const ${this.I.map((_, i) => `I${i} = U.I[${i}]`).join(", ")};`);
    return out.join("\n");
  }

  /**
   * The prelude of one resume function: only the pool entries its code names.
   * (The whole unit's would make every resume function as long as the unit
   * has constants and lambdas: a capture's cost would grow with them.)
   */
  private preludeFor(body: string): string {
    const out = [`"use strict";`, `const {${HELPER_NAMES.join(", ")}} = H;`];
    const used = new Set<string>();
    const decls: string[] = [];
    for (const m of body.matchAll(/\b(K|C|I|L|EN)(\d+)\b/g)) {
      const name = m[0];
      if (used.has(name)) continue;
      used.add(name);
      const pool = m[1] === "K" ? "K" : m[1] === "C" ? "C" : m[1] === "I" ? "I" : m[1] === "L" ? "codes" : "entries";
      const len = pool === "K" ? this.K.length : pool === "C" ? this.C.length : this.I.length;
      if (Number(m[2]) < len) decls.push(`${name} = U.${pool}[${m[2]}]`);
    }
    if (decls.length) out.push(`const ${decls.join(", ")};`);
    return out.join("\n");
  }

  /** Generates, evaluates and links the code of every lambda; returns the unit's top-level thunk. */
  build(top: Lambda): Procedure {
    contify(top);
    chunkSequences(top);
    const { lambdas } = analyze(top);
    markSelf(top);
    for (const l of lambdas) this.I.push(new CompiledLambda(l, this));
    const fns = this.I.map((cl) => new FnGen(this, cl, null).generate());
    const src = [
      this.prelude(),
      `let ${this.I.map((_, i) => `EN${i}`).join(", ")};`,
      ...fns,
      `return { codes: [${this.I.map((_, i) => `L${i}`).join(", ")}], init(en) { ${this.I.map((_, i) => `EN${i} = en[${i}];`).join(" ")} } };`,
    ].join("\n");
    this.opts.trace?.(src);
    const made = new Function("R", "H", "U", src)(this.rt, HELPERS, this) as {
      codes: ((...a: any[]) => any)[];
      init(en: Entries[]): void;
    };
    this.codes = made.codes;
    this.entries = this.I.map((cl, i) => lambdaEntries(made.codes[i] as any, cl.node.params.length, cl.node.rest !== null));
    made.init(this.entries);
    return new Procedure(this.entries[0] as Entries, [], {
      name: top.name,
      minArgs: 0,
      maxArgs: 0,
      kind: "lambda",
      ...(top.loc ? { loc: top.loc } : {}),
    });
  }

  /**
   * The resume function shared by every site in the statements of `cl`'s body
   * sequence (the body, under let and letrec bodies only), made on first use,
   * or null when the body is no sequence. One function for all of them, so a
   * procedure that captures after each of its statements (a guard per tool
   * call, an assertion per line of a test) compiles its rest once, not once
   * per statement: resuming after statement j runs the rest of statement j,
   * then falls through the statements after it.
   */
  bodyResumer(cl: CompiledLambda): { readonly fn: ResumeFn; readonly sites: ReadonlySet<number> } | null {
    if (cl.body !== undefined) return cl.body;
    let n: Node = cl.node.body;
    while (n.t === "let" || n.t === "letrec") n = n.body;
    if (n.t !== "seq") return (cl.body = null);
    const seq = n;
    // Which statement each node belongs to (nested lambdas are other functions).
    const stmtOf = new Map<Node, number>();
    seq.es.forEach((e, j) => {
      const stack: Node[] = [e];
      while (stack.length) {
        const x = stack.pop() as Node;
        stmtOf.set(x, j);
        if (x.t !== "lambda") stack.push(...children(x));
      }
    });
    const cases: { site: number; stmt: number; path: ReadonlySet<Node> }[] = [];
    const sites = new Set<number>();
    cl.layout.siteNodes.forEach((node, site) => {
      if (node === undefined) return;
      const j = stmtOf.get(node);
      if (j === undefined) return;
      cases.push({ site, stmt: j, path: pathTo(seq.es[j] as Node, node) });
      sites.add(site);
    });
    if (cases.length === 0) return (cl.body = null);
    const body = new FnGen(this, cl, { site: 0, path: new Set() }, { seq, cases }).generate();
    const src = `${this.preludeFor(body)}\nreturn ${body};`;
    this.opts.trace?.(src);
    const fn = new Function("R", "H", "U", src)(this.rt, HELPERS, this) as ResumeFn;
    return (cl.body = { fn, sites });
  }

  /** Generates the resume function of `cl` for `site`. */
  makeResumer(cl: CompiledLambda, site: number): ResumeFn {
    const node = cl.layout.siteNodes[site];
    if (node === undefined) throw new Error(`no resumable site ${site} in ${cl.name}`);
    const path = pathTo(cl.node.body, node);
    const body = new FnGen(this, cl, { site, path }).generate();
    const src = `${this.preludeFor(body)}\nreturn ${body};`;
    this.opts.trace?.(src);
    return new Function("R", "H", "U", src)(this.rt, HELPERS, this) as ResumeFn;
  }
}

/** Records on each lambda how it may refer to itself (for self tail calls as loops). */
function markSelf(n: Node): void {
  const visit = (x: Node): void => {
    switch (x.t) {
      case "letrec":
        x.vars.forEach((v, i) => {
          const init = x.inits[i] as Node;
          if (init.t === "lambda" && !v.assigned) (init as any).selfVar = v;
        });
        x.inits.forEach(visit);
        return visit(x.body);
      case "gset":
        if (x.e.t === "lambda") (x.e as any).selfCell = x.cell;
        return visit(x.e);
      case "lset":
        return visit(x.e);
      case "if":
        visit(x.c);
        visit(x.a);
        return visit(x.b);
      case "seq":
        return x.es.forEach(visit);
      case "lambda":
        return visit(x.body);
      case "case-lambda":
        return x.clauses.forEach(visit);
      case "call":
        visit(x.f);
        return x.args.forEach(visit);
      case "let":
        x.inits.forEach(visit);
        return visit(x.body);
      case "cwv":
        visit(x.producer);
        return visit(x.consumer);
      case "loop":
        visit(x.entry);
        return visit(x.body);
      case "jump":
        return x.args.forEach(visit);
      default:
        return;
    }
  };
  visit(n);
}

/** The nodes on the way from `root` down to `target` (not entering nested lambdas). */
function pathTo(root: Node, target: Node): Set<Node> {
  const path: Node[] = [];
  const found = (x: Node): boolean => {
    path.push(x);
    if (x === target) return true;
    for (const c of children(x)) if (found(c)) return true;
    path.pop();
    return false;
  };
  if (!found(root)) throw new Error("resume site not found in its lambda");
  return new Set(path);
}

function children(x: Node): Node[] {
  switch (x.t) {
    case "lset":
    case "gset":
      return [x.e];
    case "if":
      return [x.c, x.a, x.b];
    case "seq":
      return x.es;
    case "call":
      return [x.f, ...x.args];
    case "let":
    case "letrec":
      return [...x.inits, x.body];
    case "cwv":
      return [x.producer, x.consumer];
    case "loop":
      return [x.entry, x.body];
    case "jump":
      return x.args;
    default:
      return [];
  }
}

function inlineOp(n: Call): InlineOp | null {
  if (n.f.t !== "gref") return null;
  const prim = n.f.cell.prim;
  if (prim === null) return null;
  const op = INLINE[prim];
  return op !== undefined && op.arity.includes(n.args.length) ? op : null;
}

/** JS source of a fixnum, a finite bare flonum (ADR 0046), a boolean or other immediate constant, or null. */
function immediate(v: any): string | null {
  if (typeof v === "number" && Number.isFinite(v)) return v < 0 ? `(${v})` : `${v}`; // NaN and ±inf.0 go to the constant table
  if (v === true) return "true";
  if (v === false) return "false";
  if (v === NIL) return "NIL";
  if (v === UNSPECIFIED) return "UNSP";
  return null;
}

/** Generates one lambda (fast mode) or one of its resume functions. */
class FnGen {
  private readonly out: string[] = [];
  private readonly lambda: Lambda;
  private readonly layout: FnLayout;
  private readonly simpleMemo = new Map<Node, boolean>();
  private readonly freeIndex = new Map<Var, number>();
  private loops = false;
  /** What a jump to each contified loop being generated does: `break E3;`, `continue B3;` … */
  private readonly jumpTo = new Map<Loop, string>();

  constructor(
    private readonly unit: Unit,
    cl: CompiledLambda,
    private readonly rs: ResumeCtx | null,
    private readonly plan: BodyPlan | null = null,
  ) {
    this.lambda = cl.node;
    (this.lambda.free ?? []).forEach((v, i) => this.freeIndex.set(v, i));
    if (rs === null) {
      const saved: string[] = [];
      for (const p of this.lambda.params) saved.push(this.paramName(p));
      if (this.lambda.rest) saved.push(this.paramName(this.lambda.rest));
      for (const p of this.allParams()) if (p.boxed) saved.push(this.varName(p));
      cl.layout = { saved, temps: new Map(), siteLocs: [undefined], siteNodes: [undefined], loops: false, loopIds: new Map() };
    }
    this.layout = cl.layout;
  }

  private allParams(): Var[] {
    return this.lambda.rest ? [...this.lambda.params, this.lambda.rest] : this.lambda.params;
  }
  /** The JS name holding a parameter's incoming value. */
  private paramName(v: Var): string {
    return v.boxed ? `a${v.id}` : `v${v.id}`;
  }
  private varName(v: Var): string {
    return `v${v.id}`;
  }
  private emit(s: string): void {
    this.out.push(s);
  }
  private declare(name: string): string {
    if (this.rs === null && !this.layout.saved.includes(name)) this.layout.saved.push(name);
    return name;
  }
  private temp(n: Node): string {
    let t = this.layout.temps.get(n);
    if (t === undefined) {
      if (this.rs !== null) throw new Error("resume generation met a node the fast generation never saw");
      t = `t${this.layout.temps.size + 1}`;
      this.layout.temps.set(n, t);
      this.declare(t);
    }
    return t;
  }
  private newSite(node: Node | undefined, loc: SourceLoc | undefined): number {
    this.layout.siteLocs.push(loc);
    this.layout.siteNodes.push(node);
    return this.layout.siteLocs.length - 1;
  }

  generate(): string {
    const l = this.lambda;
    const id = l.id as number;
    const rs = this.rs;
    const body: string[] = [];
    const saveOut = this.out.splice(0);
    if (this.plan !== null) this.genBodyPlan(this.plan);
    else this.genStmt(l.body, RET, rs);
    body.push(...this.out.splice(0));
    this.out.push(...saveOut);
    if (rs === null) (this.layout as { loops: boolean }).loops = this.loops;
    const saved = this.layout.saved;
    const params = rs === null ? [...l.params, ...(l.rest ? [l.rest] : [])].map((p) => this.paramName(p)) : ["frame", "$v"];
    const decls = saved.filter((n) => !(rs === null && params.includes(n)));
    const lines: string[] = [];
    lines.push(rs === null ? `function L${id}(${params.join(", ")}) {` : `function (${params.join(", ")}) {`);
    lines.push(`var site = 0, f_${decls.length ? ", " + decls.join(", ") : ""};`);
    if ((l.free ?? []).length) lines.push(`var env = this.env;`);
    if (rs !== null) lines.push(`var $s = frame.vals; ${saved.map((n, i) => `${n} = $s[${i}];`).join(" ")}`);
    lines.push("try {");
    const boxParams = this.allParams()
      .filter((p) => p.boxed)
      .map((p) => `${this.varName(p)} = new Box(${this.paramName(p)});`)
      .join(" ");
    const rawParams = this.allParams()
      .map((p) => this.paramName(p))
      .join(", ");
    const poll = `if (--R.fuel < 0 || R.depth > LIM) { site = 0; if (R.poll(this, [${rawParams}], L${id})) return TAIL; }`;
    if (rs === null) {
      if (this.loops) lines.push("F: for (;;) {");
      lines.push(poll);
      if (boxParams) lines.push(boxParams);
      lines.push(...body);
      if (this.loops) lines.push("}");
    } else lines.push(...body);
    lines.push(`} catch (e) { return R.caught(e, this, I${id}, site, [${saved.join(", ")}]); }`);
    lines.push("}");
    // Call sites were emitted before every saved variable was known.
    return lines.join("\n").replaceAll(SAVED, saved.join(", ")).replaceAll(WEIGHT, String(saved.length + 16));
  }

  /** The shared resume function's body: the rest of the resumed statement, then the statements after it. */
  private genBodyPlan(plan: BodyPlan): void {
    const es = plan.seq.es;
    const last = es.length - 1;
    this.emit("var $k = 0;");
    this.emit("C: switch (frame.site) {");
    for (const c of plan.cases) {
      this.emit(`case ${c.site}: {`);
      this.genStmt(es[c.stmt] as Node, c.stmt === last ? RET : EFF, { site: c.site, path: c.path });
      this.emit(`$k = ${c.stmt + 1}; break C; }`);
    }
    this.emit("}");
    this.emit("switch ($k) {");
    for (let j = 1; j <= last; j++) {
      this.emit(`case ${j}:`);
      this.genStmt(es[j] as Node, j === last ? RET : EFF, null);
    }
    this.emit("}");
  }

  // ---- expressions -------------------------------------------------------------------

  private isSimple(n: Node): boolean {
    let r = this.simpleMemo.get(n);
    if (r !== undefined) return r;
    switch (n.t) {
      case "const":
      case "lref":
      case "gref":
      case "lambda":
      case "case-lambda":
        r = true;
        break;
      case "lset":
      case "gset":
        r = this.isSimple(n.e);
        break;
      case "if":
        r = this.isSimple(n.c) && this.isSimple(n.a) && this.isSimple(n.b);
        break;
      case "seq":
        r = n.es.every((e) => this.isSimple(e));
        break;
      case "call":
        r = inlineOp(n) !== null && n.args.every((a) => this.isSimple(a));
        break;
      default:
        r = false;
    }
    this.simpleMemo.set(n, r);
    return r;
  }

  /** Reference to a variable's storage (the Box itself for boxed variables). */
  private storage(v: Var): string {
    if (v.owner === this.lambda) return this.varName(v);
    const i = this.freeIndex.get(v);
    if (i === undefined) throw new Error(`variable ${v.name} is not free in ${this.lambda.name}`);
    return `env[${i}]`;
  }
  private varValue(v: Var): string {
    const s = v.boxed ? `${this.storage(v)}.v` : this.storage(v);
    return v.uninitCheck ? `chk(${s}, ${JSON.stringify(v.name)})` : s;
  }

  /** JS expression of a simple node. */
  private expr(n: Node): string {
    switch (n.t) {
      case "const":
        return immediate(n.v) ?? this.unit.konst(n.v);
      case "lref":
        return this.varValue(n.v);
      case "gref": {
        const c = this.unit.cell(n.cell);
        if (!this.checkedRef(n)) return `${c}.v`;
        // The check may fail, so it records where: a failing site of the reference's own form.
        return `(site = ${this.refSite(n)}, gv(${c}))`;
      }
      case "lset": {
        const v = n.v;
        return v.boxed ? `(${this.storage(v)}.v = ${this.expr(n.e)}, UNSP)` : `(${this.storage(v)} = ${this.expr(n.e)}, UNSP)`;
      }
      case "gset": {
        const c = this.unit.cell(n.cell);
        return n.define ? `(${c}.v = ${this.expr(n.e)}, UNSP)` : `(site = ${this.setSite(n)}, gset(${c}, ${this.expr(n.e)}))`;
      }
      case "if":
        return `(${this.test(n.c)} ? ${this.expr(n.a)} : ${this.expr(n.b)})`;
      case "seq":
        return `(${n.es.map((e) => this.expr(e)).join(", ")})`;
      case "lambda":
        return this.closure(n);
      case "case-lambda":
        return this.caseLambda(n);
      case "call": {
        const op = inlineOp(n) as InlineOp;
        const e = op.gen(n.args.map((a) => this.expr(a)));
        if (!op.fails) return e;
        const s = this.rs === null ? this.failSite(n) : (n as any).failSite;
        return `(site = ${s}, ${e})`;
      }
      default:
        throw new Error(`not a simple node: ${n.t}`);
    }
  }

  /** The location-only site of a set! of a global (it fails when the global is unbound). */
  private setSite(n: GSet): number {
    if (this.rs !== null) return (n as any).failSite;
    const s = this.newSite(undefined, n.loc);
    (n as any).failSite = s;
    return s;
  }

  /**
   * Whether a global reference is read through the unbound check: the global
   * was not yet defined when the reference was first compiled. Decided once per
   * node, so that a resume function generated after the definition ran hoists
   * and numbers exactly as the first generation did.
   */
  private checkedRef(n: GRef): boolean {
    const m = n as GRef & { checked?: boolean };
    m.checked ??= !n.cell.constant && n.cell.v instanceof Unbound;
    return m.checked;
  }

  /** The location-only site of a checked global reference. */
  private refSite(n: GRef): number {
    if (this.rs !== null) return (n as any).failSite;
    const s = this.newSite(undefined, n.loc);
    (n as any).failSite = s;
    return s;
  }

  private failSite(n: Call): number {
    const s = this.newSite(undefined, n.loc);
    (n as any).failSite = s;
    return s;
  }

  /** A JS boolean expression: is the simple node's value true (not #f)? */
  private test(n: Node): string {
    if (n.t === "call") {
      const op = inlineOp(n);
      if (op?.bool) return this.expr(n);
    }
    if (n.t === "const") return n.v === false ? "false" : "true";
    return `${this.expr(n)} !== false`;
  }

  private closure(l: Lambda): string {
    const id = l.id as number;
    const env = (l.free ?? []).map((v) => this.storage(v)).join(", ");
    return `new P(EN${id}, [${env}], I${id})`;
  }

  private caseLambda(n: CaseLambda): string {
    return `R.caseLambda([${n.clauses.map((c) => this.closure(c)).join(", ")}], ${JSON.stringify(n.name)})`;
  }

  private hasEffect(n: Node): boolean {
    return !(n.t === "const" || n.t === "lref" || n.t === "gref" || n.t === "lambda" || n.t === "case-lambda");
  }

  private deliver(e: string, dest: Dest, effectful = true): void {
    switch (dest.k) {
      case "ret":
        this.emit(`return ${e};`);
        return;
      case "eff":
        if (effectful) this.emit(`${e};`);
        break;
      case "var":
        if (dest.mode === "plain" && dest.name === e) break;
        if (dest.mode === "newbox") this.emit(`${dest.name} = new Box(${e});`);
        else if (dest.mode === "setbox") this.emit(`${dest.name}.v = ${e};`);
        else this.emit(`${dest.name} = ${e};`);
    }
    if (dest.exit !== undefined) this.emit(`break ${dest.exit};`);
  }

  // ---- statements -----------------------------------------------------------------------------

  private genStmt(n: Node, dest: Dest, rs: ResumeCtx | null): void {
    if (rs !== null && !rs.path.has(n)) rs = null;
    if (rs === null && this.isSimple(n)) {
      if (dest.k === "eff" && n.t === "if") {
        this.emit(`if (${this.test(n.c)}) {`);
        this.genStmt(n.a, dest, null);
        this.emit("} else {");
        this.genStmt(n.b, dest, null);
        this.emit("}");
        return;
      }
      this.deliver(this.expr(n), dest, this.hasEffect(n));
      return;
    }
    switch (n.t) {
      case "if":
        return this.genIf(n, dest, rs);
      case "seq":
        return this.genSeq(n, dest, rs);
      case "lset":
      case "gset":
        return this.genSet(n, dest, rs);
      case "call":
        return this.genCall(n, dest, rs);
      case "let":
        return this.genLet(n, dest, rs);
      case "letrec":
        return this.genLetrec(n, dest, rs);
      case "cwv":
        return this.genCwv(n, dest, rs);
      case "loop":
        return this.genLoop(n, dest, rs);
      case "jump":
        return this.genJump(n, rs);
      default:
        throw new Error(`unexpected complex node ${n.t}`);
    }
  }

  /** A simple node that records a failure site (an inlined operation that may raise). */
  private mayFail(n: Node): boolean {
    switch (n.t) {
      case "call": {
        const op = inlineOp(n);
        return (op !== null && op.fails) || n.args.some((a) => this.mayFail(a));
      }
      case "if":
        return this.mayFail(n.c) || this.mayFail(n.a) || this.mayFail(n.b);
      case "seq":
        return n.es.some((e) => this.mayFail(e));
      case "lset":
      case "gset":
        return n.t === "gset" ? !n.define || this.mayFail(n.e) : this.mayFail(n.e);
      case "gref":
        return this.checkedRef(n);
      default:
        return false;
    }
  }

  /** Evaluates `n` into a temp (or returns its expression when simple). */
  private operand(n: Node, rs: ResumeCtx | null, skip: boolean, force = false): string {
    if (!force && this.isSimple(n) && (rs === null || !rs.path.has(n))) return this.expr(n);
    const t = this.temp(n);
    if (!skip) this.genStmt(n, toVar(t), rs);
    return t;
  }

  private genIf(n: If, dest: Dest, rs: ResumeCtx | null): void {
    if (rs !== null && rs.path.has(n.a)) return this.genStmt(n.a, dest, rs);
    if (rs !== null && rs.path.has(n.b)) return this.genStmt(n.b, dest, rs);
    let test: string;
    if (this.isSimple(n.c)) test = this.test(n.c);
    else {
      const t = this.temp(n.c);
      this.genStmt(n.c, toVar(t), rs);
      test = `${t} !== false`;
    }
    this.emit(`if (${test}) {`);
    this.genStmt(n.a, dest, null);
    this.emit("} else {");
    this.genStmt(n.b, dest, null);
    this.emit("}");
  }

  private genSeq(n: Seq, dest: Dest, rs: ResumeCtx | null): void {
    let i = 0;
    if (rs !== null) {
      i = n.es.findIndex((e) => rs.path.has(e));
    }
    for (; i < n.es.length; i++) {
      const e = n.es[i] as Node;
      this.genStmt(e, i === n.es.length - 1 ? dest : EFF, rs !== null && rs.path.has(e) ? rs : null);
    }
  }

  private genSet(n: LSet | GSet, dest: Dest, rs: ResumeCtx | null): void {
    const t = this.operand(n.e, rs, false);
    if (n.t === "lset") {
      if (n.v.boxed) this.emit(`${this.storage(n.v)}.v = ${t};`);
      else this.emit(`${this.storage(n.v)} = ${t};`);
    } else {
      const c = this.unit.cell(n.cell);
      this.emit(n.define ? `${c}.v = ${t};` : `site = ${this.setSite(n)}; gset(${c}, ${t});`);
    }
    this.deliver("UNSP", dest, false);
  }

  private genCall(n: Call, dest: Dest, rs: ResumeCtx | null): void {
    if (rs !== null && n.site === rs.site) {
      this.deliver("$v", dest);
      return;
    }
    const op = inlineOp(n);
    const ops = op ? n.args : [n.f, ...n.args];
    const pathIdx = rs === null ? -1 : ops.findIndex((o) => rs.path.has(o));
    const vals: string[] = [];
    // Operands that call are evaluated first, in order, into temps; simple ones are read at the call.
    // A non-tail call sets `site` just before the call, so an operand that sets its own
    // (an inlined operation that may fail) is evaluated into a temp first.
    const hoistFailing = !op && dest.k !== "ret";
    // A global in operator position needs no unbound check: calling an unbound value says so.
    const isOperatorRef = (o: Node, i: number): boolean => !op && i === 0 && o.t === "gref";
    ops.forEach((o, i) => {
      const complex = !this.isSimple(o) || i === pathIdx || (hoistFailing && !isOperatorRef(o, i) && this.mayFail(o));
      if (!complex) return;
      vals[i] = this.operand(o, i === pathIdx ? rs : null, rs !== null && i < pathIdx, true);
    });
    ops.forEach((o, i) => {
      if (vals[i] !== undefined) return;
      vals[i] = isOperatorRef(o, i) ? `${this.unit.cell((o as GRef).cell)}.v` : this.expr(o);
    });
    if (op) {
      let e = op.gen(vals);
      if (op.fails) {
        const s = this.rs === null ? this.failSite(n) : (n as any).failSite;
        e = `(site = ${s}, ${e})`;
      }
      this.deliver(e, dest);
      return;
    }
    const f = vals[0] as string;
    const args = vals.slice(1);
    if (dest.k === "ret") return this.tailCall(n, f, args);
    const s = this.rs === null ? this.callSite(n) : (n.site as number);
    const t = this.temp(n);
    this.emit(`site = ${s}; R.depth += ${WEIGHT};`);
    this.emit(`${t} = ${this.callExpr(f, args)};`);
    this.emit(this.afterCall(t, s));
    this.deliver(t, dest);
  }

  /** After a non-tail call: bounce pending tail calls; save this activation if an Unwind is pending. */
  private afterCall(t: string, site: number): string {
    return `if (${t} === TAIL && (${t} = R.bounce()) === TAIL) return R.save(this, I${this.lambda.id}, ${site}, [${SAVED}]); R.depth -= ${WEIGHT};`;
  }

  private callSite(n: Call): number {
    const s = this.newSite(n, n.loc);
    n.site = s;
    return s;
  }

  private callExpr(f: string, args: string[]): string {
    const n = args.length;
    const inv = n <= 3 ? `f_.f${n}(${args.join(", ")})` : `f_.fN([${args.join(", ")}])`;
    return `((f_ = ${f}) instanceof P ? ${inv} : np(f_, [${args.join(", ")}]))`;
  }

  private tailCall(n: Call, f: string, args: string[]): void {
    const l = this.lambda;
    const selfVar: Var | undefined = (l as any).selfVar;
    const selfCell: GlobalCell | undefined = (l as any).selfCell;
    const fits = l.rest === null && args.length === l.params.length;
    const isSelfVar = fits && selfVar !== undefined && n.f.t === "lref" && n.f.v === selfVar;
    const isSelfCell = fits && selfCell !== undefined && n.f.t === "gref" && n.f.cell === selfCell;
    if (isSelfVar || isSelfCell) {
      // In a resume function the loop restarts in the fast function; the arguments are
      // evaluated first, since their inlined operations set `site`.
      const jump =
        this.rs === null
          ? this.loopJump(args)
          : `{ ${args.length ? `let ${args.map((a, i) => `n${i} = ${a}`).join(", ")}; ` : ""}site = 0; return L${l.id}.call(this${args.map((_, i) => `, n${i}`).join("")}); }`;
      if (isSelfVar) {
        this.emit(`{ ${jump} }`);
        return;
      }
      this.emit(`if (${f} === this) { ${jump} }`);
    }
    const c = args.length;
    // The site is only a location (tail calls are never resumed): where a failing callee was called.
    let site: number = (n as any).tailSite;
    if (this.rs === null) (n as any).tailSite = site = this.newSite(undefined, n.loc);
    const where = `I${l.id}, ${site}`;
    // `site` too: a call of a non-procedure (or an unbound variable) fails inside tcN, in this activation.
    this.emit(
      c <= 3 ? `site = ${site}; return R.tc${c}(${[f, ...args].join(", ")}, ${where});` : `site = ${site}; return R.tcN(${f}, [${args.join(", ")}], ${where});`,
    );
  }

  /** Reassigns the parameters for the next iteration of a self tail call. */
  private loopJump(args: string[]): string {
    this.loops = true;
    const params = this.lambda.params.map((p) => this.paramName(p));
    if (params.length === 0) return "continue F;";
    if (params.length === 1) return `${params[0]} = ${args[0]}; continue F;`;
    const tmp = params.map((_, i) => `n${i}`);
    return `{ let ${tmp.map((t, i) => `${t} = ${args[i]}`).join(", ")}; ${params.map((p, i) => `${p} = ${tmp[i]};`).join(" ")} } continue F;`;
  }

  private genLet(n: Let, dest: Dest, rs: ResumeCtx | null): void {
    const inBody = rs !== null && rs.path.has(n.body);
    if (!inBody) {
      const pathIdx = rs === null ? -1 : n.inits.findIndex((e) => rs.path.has(e));
      n.vars.forEach((v, i) => {
        const name = this.declare(this.varName(v));
        if (rs !== null && i < pathIdx) return;
        this.genStmt(n.inits[i] as Node, { k: "var", name, mode: v.boxed ? "newbox" : "plain" }, i === pathIdx ? rs : null);
      });
    } else n.vars.forEach((v) => this.declare(this.varName(v)));
    this.genStmt(n.body, dest, inBody ? rs : null);
  }

  private genLetrec(n: Letrec, dest: Dest, rs: ResumeCtx | null): void {
    const names = n.vars.map((v) => this.declare(this.varName(v)));
    const inBody = rs !== null && rs.path.has(n.body);
    if (!inBody) {
      const fixable = n.vars.map((v, i) => (n.inits[i] as Node).t === "lambda" && !v.boxed);
      if (rs === null) {
        n.vars.forEach((v, i) => {
          if (!fixable[i]) this.emit(v.boxed ? `${names[i]} = new Box(UNINIT);` : `${names[i]} = UNINIT;`);
        });
        n.vars.forEach((_, i) => {
          if (!fixable[i]) return;
          const l = n.inits[i] as Lambda;
          this.emit(`${names[i]} = new P(EN${l.id}, null, I${l.id});`);
        });
        n.vars.forEach((_, i) => {
          if (!fixable[i]) return;
          const l = n.inits[i] as Lambda;
          this.emit(`${names[i]}.env = [${(l.free ?? []).map((fv) => this.storage(fv)).join(", ")}];`);
        });
      }
      const pathIdx = rs === null ? -1 : n.inits.findIndex((e) => rs.path.has(e));
      n.vars.forEach((v, i) => {
        if (fixable[i]) return;
        if (rs !== null && i < pathIdx) return;
        this.genStmt(n.inits[i] as Node, { k: "var", name: names[i] as string, mode: v.boxed ? "setbox" : "plain" }, i === pathIdx ? rs : null);
      });
    }
    this.genStmt(n.body, dest, inBody ? rs : null);
  }

  /**
   * A contified loop: `E: { entry }` then `B: for (;;) { body }`, inside
   * `D: { … }` when its value goes to a variable (then every value-producing
   * tail breaks to D). Jumps rebind the parameters and break out of the entry
   * or continue the loop. The loop head is a resumable site, where a time slice
   * may end; a resume function resumes in the entry, in one round of the body
   * (`R: { … }`), or at the head, and then runs the loop.
   */
  private genLoop(n: Loop, dest: Dest, rs: ResumeCtx | null): void {
    let id = this.layout.loopIds.get(n);
    if (id === undefined) {
      id = this.layout.loopIds.size + 1;
      this.layout.loopIds.set(n, id);
    }
    const site = this.rs === null ? this.newSite(n, n.loc) : (n.site as number);
    n.site = site;
    for (const p of n.params) {
      this.declare(this.paramName(p));
      if (p.boxed) this.declare(this.varName(p));
    }
    const useD = dest.k !== "ret" && dest.exit === undefined;
    const d2: Dest = useD ? { ...dest, exit: `D${id}` } : dest;
    if (useD) this.emit(`D${id}: {`);
    if (rs === null || rs.path.has(n.entry)) {
      this.jumpTo.set(n, `break E${id};`);
      this.emit(`E${id}: {`);
      this.genStmt(n.entry, d2, rs !== null && rs.path.has(n.entry) ? rs : null);
      this.emit("}");
    } else if (rs.site !== site) {
      // Resuming inside the body: finish this round, then the loop goes on.
      this.jumpTo.set(n, `break R${id};`);
      this.emit(`R${id}: {`);
      this.genStmt(n.body, d2, rs);
      this.emit("}");
    }
    this.jumpTo.set(n, `continue B${id};`);
    this.emit(`B${id}: for (;;) {`);
    this.emit(`if (--R.fuel < 0) { site = ${site}; if (R.pollLoop()) return R.save(this, I${this.lambda.id}, ${site}, [${SAVED}]); }`);
    const boxes = n.params.filter((p) => p.boxed).map((p) => `${this.varName(p)} = new Box(${this.paramName(p)});`);
    if (boxes.length) this.emit(boxes.join(" "));
    this.genStmt(n.body, d2, null);
    this.emit("}");
    if (useD) this.emit("}");
    this.jumpTo.delete(n);
  }

  private genJump(n: Jump, rs: ResumeCtx | null): void {
    // As a call's operands: the ones that call go to temps in order; resuming
    // inside one skips those before it.
    const pathIdx = rs === null ? -1 : n.args.findIndex((a) => rs.path.has(a));
    const vals: string[] = [];
    n.args.forEach((o, i) => {
      if (this.isSimple(o) && i !== pathIdx) return;
      vals[i] = this.operand(o, i === pathIdx ? rs : null, rs !== null && i < pathIdx, true);
    });
    n.args.forEach((o, i) => {
      if (vals[i] === undefined) vals[i] = this.expr(o);
    });
    const params = n.loop.params.map((p) => this.paramName(p));
    const go = this.jumpTo.get(n.loop);
    if (go === undefined) throw new Error("jump outside its loop");
    if (params.length === 0) return this.emit(go);
    this.emit(`{ let ${vals.map((v, i) => `n${i} = ${v}`).join(", ")}; ${params.map((p, i) => `${p} = n${i};`).join(" ")} } ${go}`);
  }

  private genCwv(n: CallWithValues, dest: Dest, rs: ResumeCtx | null): void {
    const t = this.temp(n);
    const site2 = (n as any).site2 as number | undefined;
    if (rs !== null && site2 !== undefined && rs.site === site2) {
      this.deliver("$v", dest);
      return;
    }
    const resumingProducer = rs !== null && n.site === rs.site;
    let cons: string;
    if (!resumingProducer) {
      const pathInCons = rs !== null && rs.path.has(n.consumer);
      const pathInProd = rs !== null && rs.path.has(n.producer);
      cons = this.operand(n.consumer, pathInCons ? rs : null, rs !== null && !pathInCons);
      const prod = this.operand(n.producer, pathInProd ? rs : null, false);
      const s = this.rs === null ? this.newSite(n, n.loc) : (n.site as number);
      n.site = s;
      this.emit(`site = ${s}; R.depth += ${WEIGHT};`);
      this.emit(`${t} = ${this.callExpr(prod, [])};`);
      this.emit(this.afterCall(t, s));
    } else {
      cons = this.isSimple(n.consumer) ? this.expr(n.consumer) : this.temp(n.consumer);
      this.emit(`${t} = $v;`);
    }
    if (dest.k === "ret") {
      this.emit(`return R.tcN(${cons}, valuesToArray(${t}), I${this.lambda.id}, ${n.site});`);
      return;
    }
    let s2 = site2;
    if (this.rs === null) {
      s2 = this.newSite(n, n.loc);
      (n as any).site2 = s2;
      this.layout.siteNodes[s2] = n;
    }
    const r = `${t}`;
    this.emit(`site = ${s2}; R.depth += ${WEIGHT};`);
    this.emit(`${r} = applyValues(${cons}, ${t});`);
    this.emit(this.afterCall(r, s2 as number));
    this.deliver(r, dest);
  }
}

/** Compiles a unit whose top level is the lambda `top` (no parameters) into a thunk procedure. */
export function compile(top: Lambda, rt: Runtime, opts: CompileOptions = {}): Procedure {
  return new Unit(rt, opts).build(top);
}

export { arityError };
