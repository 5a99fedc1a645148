// The Interpreter: one instance owns its symbols, environments, libraries, ports and machine.
//
// It composes the stages — reader, expander, compiler, machine — and offers
// evaluation of source text (REPL style, value of the last form), of whole
// R7RS programs (each top-level form expanded when reached, the rest of the
// program part of every continuation), and of single data (eval).

import { SymbolTable, Sym } from "./values/symbol.js";
import { Pair, NIL, arrayToList, listToArray } from "./values/pair.js";
import { UNSPECIFIED, EOF } from "./values/misc.js";
import { MString } from "./values/string.js";
import { Procedure } from "./values/procedure.js";
import { Condition } from "./values/condition.js";
import { Port, type PortSink, type PortSource } from "./values/port.js";
import { Flonum, flo } from "./values/numbers/repr.js";
import type { SourceLoc } from "./values/loc.js";
import { formatLoc } from "./values/loc.js";
import { Reader, locationOf } from "./reader/reader.js";
import { writeToString } from "./printer/printer.js";
import { SchemeError, makeCondition, hostError } from "./errors.js";
import type { Ctx, FileAccess, ProcessAccess } from "./ctx.js";
import { T, type ProcSpec } from "./procspec.js";
import { Expander, type ExpandHost } from "./expander/expand.js";
import { installForms } from "./expander/forms.js";
import { TopEnv, strip, type Binding } from "./expander/syntax.js";
import { LibraryManager, type LibraryLoader, type Library } from "./expander/library.js";
import { GlobalCell, mkSeq, type Lambda, type Node } from "./compiler/ir.js";
import { compile, type CompileOptions } from "./compiler/codegen.js";
import { INLINE } from "./compiler/inline.js";
import { Runtime, Unbound, TAIL, type Limits, type Outcome, backtraceOf } from "./machine/runtime.js";
import { Frame, Unwind, LimitStop, recallFrame, type ResumeFn } from "./machine/frames.js";
import { makePrimitive } from "./machine/entries.js";
import { controlPrimitives, makeParameter, parameterValue } from "./machine/control.js";
import { detectHeapProbe, type HeapProbe } from "./machine/heap.js";

export interface InterpreterOptions {
  /** Procedures to define in the builtins (the R7RS tables, agent primitives …). */
  primitives?: readonly ProcSpec[];
  /** File access for file ports, load, file-exists? and delete-file; null: none granted. */
  files?: FileAccess | null;
  /** Process access (command-line, environment variables, exit); null: none granted. */
  process?: ProcessAccess | null;
  /** Where libraries and the standard library's Scheme sources are found. */
  libraries?: LibraryLoader | null;
  /** Extra cond-expand features (platform ones, from the host). */
  features?: readonly string[];
  /**
   * Library names that are other names of libraries, by key: "srfi 1 lists" →
   * "srfi 1" makes `(import (srfi 1 lists))` give the bindings of `(srfi 1)`.
   */
  libraryAliases?: ReadonlyMap<string, string>;
  /**
   * Libraries of procedures implemented in TypeScript, by key, e.g. "nodwyn
   * primitives srfi 13" → its table: `(import (nodwyn primitives srfi 13))`
   * makes them (once per interpreter, on first import) and binds their names.
   */
  primitiveLibraries?: ReadonlyMap<string, readonly ProcSpec[]>;
  stdout?: PortSink;
  stderr?: PortSink;
  stdin?: PortSource;
  /** Default limits of every evaluation. */
  limits?: Limits;
  /**
   * How the memory budget measures the JS heap (Limits.memoryBytes). Default:
   * V8's heap statistics when running on Node; null: no measure, and then no
   * memory budget.
   */
  heap?: HeapProbe | null;
  /** Receives the generated JavaScript of every compilation unit (the disassembler switch). */
  trace?: (js: string) => void;
  /** Libraries the interaction environment (REPL, `-e`, evaluate) imports. */
  replImports?: readonly string[];
}

/** Options of one evaluation. */
export interface EvalOptions {
  /** File name for source locations. */
  file?: string;
  limits?: Limits;
  /** Environment to evaluate in (default: the interaction environment). */
  env?: TopEnv;
}

/** An evaluation that ended with an uncaught condition or a limit. */
export class EvalError extends Error {
  /** The raised object (a Condition for errors and limits). */
  readonly raised: any;
  readonly condition: Condition | null;
  constructor(raised: any, condition: Condition | null) {
    super(formatRaised(raised));
    this.name = "EvalError";
    this.raised = raised;
    this.condition = condition;
  }
}

/** `file:line:col: message: irritants` for a raised object. */
export function formatRaised(raised: any): string {
  if (raised instanceof Condition) {
    const where = raised.loc ? formatLoc(raised.loc) + ": " : "";
    // These messages already show their irritants (a syntax error shows its form, shortened).
    const irritants = raised.irritants.length && raised.kind !== "syntax" && !/^bad argument|^attempt to call|wrong number|^(set!: )?unbound variable/.test(raised.message)
      ? ": " + raised.irritants.map((x) => writeToString(x, "write")).join(" ")
      : "";
    return `${where}${raised.message}${irritants}`;
  }
  return `uncaught exception: ${writeToString(raised, "write")}`;
}

/**
 * (exit) or (emergency-exit) whose host did not end the process (a sandboxed
 * session's ProcessAccess.exit returns): the evaluation ends here, with a
 * `limit` condition of code "exit" and the status as its irritant, which no
 * Scheme handler can catch.
 */
function exitStop(who: string, code: number): never {
  const c = makeCondition("limit", `${who}: the evaluation ended with status ${code}`, [code], who);
  c.code = "exit";
  throw new LimitStop(c);
}

/** Scheme sources evaluated into the builtins environment when an interpreter is created, in order. */
const PRELUDE_FILES = ["nodwyn/prelude.scm", "nodwyn/io.scm"];

export const BASE_FEATURES = ["r7rs", "exact-closed", "exact-complex", "ratios", "exact-integer", "full-unicode", "ieee-float", "nodwyn"];

const DEFAULT_REPL_IMPORTS = [
  "(scheme base)",
  "(scheme case-lambda)",
  "(scheme char)",
  "(scheme cxr)",
  "(scheme eval)",
  "(scheme file)",
  "(scheme inexact)",
  "(scheme lazy)",
  "(scheme load)",
  "(scheme process-context)",
  "(scheme read)",
  "(scheme repl)",
  "(scheme time)",
  "(scheme write)",
];

export class Interpreter {
  readonly symbols = new SymbolTable();
  readonly rt = new Runtime();
  readonly expander: Expander;
  readonly libraries: LibraryManager;
  readonly builtins: TopEnv;
  readonly ctx: Ctx;
  readonly stdout: Port;
  readonly stderr: Port;
  readonly stdin: Port;
  private opts: InterpreterOptions;
  private compileOpts: CompileOptions;
  private readonly params: { input: Procedure; output: Procedure; error: Procedure };
  private interaction: TopEnv | null = null;
  /** Library source files the loader read, and the files they include: their own includes are read by the loader too. */
  private readonly librarySources = new Set<string>();
  /** Serialises evaluations: the machine runs one at a time. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(opts: InterpreterOptions = {}) {
    this.opts = opts;
    this.compileOpts = opts.trace ? { trace: opts.trace } : {};
    this.stdout = new Port("textual", "out", "stdout", { sink: opts.stdout ?? { write: () => {} } });
    this.stderr = new Port("textual", "out", "stderr", { sink: opts.stderr ?? { write: () => {} } });
    this.stdin = new Port("textual", "in", "stdin", opts.stdin ? { source: opts.stdin } : {});
    const rt = this.rt;
    rt.heap = opts.heap === undefined ? detectHeapProbe() : opts.heap;
    this.params = {
      input: makeParameter(rt, this.stdin, false),
      output: makeParameter(rt, this.stdout, false),
      error: makeParameter(rt, this.stderr, false),
    };
    const params = this.params;
    this.ctx = {
      symbols: this.symbols,
      files: opts.files ?? null,
      process: opts.process ?? null,
      currentInputPort: () => parameterValue(rt, params.input),
      currentOutputPort: () => parameterValue(rt, params.output),
      currentErrorPort: () => parameterValue(rt, params.error),
    };
    const self = this;
    const host: ExpandHost = {
      symbols: this.symbols,
      locationOf,
      importInto: (top, spec, loc) => self.libraries.importInto(top, spec, loc),
      defineLibrary: (form, loc) => {
        self.libraries.define(form, loc, loc?.file);
      },
      readInclude: (path, from, fold, loc) => self.readInclude(path, from, fold, loc),
      features: () => [...BASE_FEATURES, ...(self.opts.features ?? [])],
      libraryExists: (name) => self.libraries.exists(name),
    };
    this.expander = new Expander(host);
    this.builtins = this.newTopEnv("(nodwyn builtins)", false);
    this.expander.builtins = this.builtins;
    this.libraries = new LibraryManager({
      expander: this.expander,
      loader: opts.libraries ?? null,
      readSource: (text, file, fold) => {
        this.librarySources.add(file);
        return this.read(text, file, fold);
      },
      evalTop: (form, env, loc) => this.evalTopSync(form, env, loc),
      newTopEnv: (name, interactive) => this.newTopEnv(name, interactive),
      ...(opts.libraryAliases ? { aliases: opts.libraryAliases } : {}),
      ...(opts.primitiveLibraries ? { primitiveLibraries: opts.primitiveLibraries } : {}),
      makePrimitiveLibrary: (name, specs) => this.makePrimitiveLibrary(name, specs),
    });
    installForms(this.expander, this.builtins);
    this.definePrimitives(controlPrimitives(rt));
    this.definePrimitives(this.corePrimitives());
    if (opts.primitives) this.definePrimitives(opts.primitives);
    this.defineValue("current-input-port", params.input);
    this.defineValue("current-output-port", params.output);
    this.defineValue("current-error-port", params.error);
    // call-with-values is compiled in place when called directly.
    this.builtins.cellFor(this.symbols.intern("call-with-values")).prim = "call-with-values";
    this.loadPrelude();
    this.libraries.register({ name: "(nodwyn builtins)", env: this.builtins, exports: this.builtins.table, file: undefined });
  }

  /**
   * Hands the host's services to an interpreter made without them — the command
   * makes its interpreter while building a start-up snapshot, before it knows the
   * console, the files it may touch or the limits. What is given replaces what
   * was there.
   */
  attachHost(o: Pick<InterpreterOptions, "files" | "process" | "stdout" | "stderr" | "stdin" | "limits" | "trace" | "replImports" | "features">): void {
    const ctx = this.ctx as { files: FileAccess | null; process: ProcessAccess | null };
    if ("files" in o) ctx.files = o.files ?? null;
    if ("process" in o) ctx.process = o.process ?? null;
    if (o.stdout) this.stdout.sink = o.stdout;
    if (o.stderr) this.stderr.sink = o.stderr;
    if (o.stdin) this.stdin.source = o.stdin;
    this.opts = { ...this.opts, ...o };
    this.compileOpts = this.opts.trace ? { trace: this.opts.trace } : {};
  }

  /** A top-level environment whose new globals are cells of this interpreter. */
  newTopEnv(name: string, interactive: boolean): TopEnv {
    return new TopEnv(name, interactive, (sym, home) => new GlobalCell(sym, new Unbound(sym.name), home));
  }

  // ---- defining procedures --------------------------------------------------------------------

  /** Defines procedures from table entries in the builtins environment (and the interaction environment). */
  definePrimitives(specs: readonly ProcSpec[]): void {
    for (const spec of specs) this.defineValue(spec.name, makePrimitive(spec, this.ctx, this.rt), INLINE[spec.name] ? spec.name : null);
  }

  /** Defines one procedure from a table entry. */
  define(spec: ProcSpec): Procedure {
    const p = makePrimitive(spec, this.ctx, this.rt);
    this.defineValue(spec.name, p);
    return p;
  }

  /** Binds `name` to `value` in the builtins environment (and in the interaction environment if it exists). */
  defineValue(name: string, value: any, prim: string | null = null): void {
    const sym = this.symbols.intern(name);
    const cell = this.builtins.cellFor(sym);
    cell.v = value;
    cell.constant = true;
    if (prim) cell.prim = prim;
    if (this.interaction) {
      const b: Binding = { k: "global", cell };
      this.interaction.table.set(sym, b);
      this.interaction.imported.add(sym);
    }
  }

  private corePrimitives(): ProcSpec[] {
    const self = this;
    return [
      {
        name: "eval",
        params: ["expr", "[environment]"],
        doc: "Evaluates expr (a datum) in the environment (default: the interaction environment). A tail call.",
        impl(expr: any, env: any) {
          const top = env === undefined ? self.interactionEnvironment() : envOf(env);
          const thunk = self.compileTop(expr, top, undefined);
          return self.rt.tc0(thunk);
        },
      },
      {
        name: "environment",
        params: ["import-set ..."],
        doc: "An environment containing the bindings of the import sets, for eval.",
        impl(sets: any[]) {
          const top = self.newTopEnv("environment", true);
          for (const s of sets) self.libraries.importInto(top, s, undefined);
          return new Environment(top);
        },
      },
      {
        name: "interaction-environment",
        params: [],
        doc: "The environment of the REPL: the standard libraries, and the definitions made in it.",
        impl: () => new Environment(self.interactionEnvironment()),
      },
      {
        name: "scheme-report-environment",
        params: ["version"],
        doc: "An environment with the bindings of (scheme r5rs) (version must be 5).",
        impl(v: any) {
          if (v !== 5) hostError("bad-version", "scheme-report-environment: only version 5 is supported", [v]);
          const top = self.newTopEnv("scheme-report-environment", true);
          self.libraries.importInto(top, arrayToList([self.symbols.intern("scheme"), self.symbols.intern("r5rs")]), undefined);
          return new Environment(top);
        },
      },
      {
        name: "null-environment",
        params: ["version"],
        doc: "An environment with only the syntax of (scheme r5rs) (version must be 5).",
        impl(v: any) {
          if (v !== 5) hostError("bad-version", "null-environment: only version 5 is supported", [v]);
          const top = self.newTopEnv("null-environment", true);
          // The syntactic keywords of (scheme r5rs); all of the builtins' syntax when there are no libraries.
          const r5rs = arrayToList([self.symbols.intern("scheme"), self.symbols.intern("r5rs")]);
          const from = self.libraries.exists(r5rs) ? self.libraries.get(r5rs, undefined).exports : self.builtins.table;
          for (const [s, b] of from) {
            if (b.k === "global") continue;
            top.table.set(s, b);
            top.imported.add(s);
          }
          return new Environment(top);
        },
      },
      {
        name: "load",
        params: ["filename", "[environment]"],
        types: [T.string, null],
        doc: "Reads and evaluates the forms of a file in the environment (default: the interaction environment).",
        impl(name: MString, env: any) {
          const files = self.ctx.files;
          if (files === null) hostError("no-file-access", "load: no file access was granted to this interpreter", [name], "load");
          const path = name.toString();
          let text: string;
          try {
            text = new TextDecoder("utf-8", { fatal: false }).decode(files.readFile(path));
          } catch (e: any) {
            const c = makeCondition("file", `load: cannot read ${path}: ${e?.message ?? e}`, [name], "load");
            c.code = e?.code;
            throw new SchemeError(c);
          }
          const forms = self.read(text, path);
          const top = env === undefined ? self.interactionEnvironment() : envOf(env);
          return self.sequence(forms, top);
        },
      },
      {
        name: "features",
        params: [],
        doc: "The cond-expand feature identifiers of this implementation, a list of symbols.",
        impl: () => arrayToList([...BASE_FEATURES, ...(self.opts.features ?? [])].map((f) => self.symbols.intern(f))),
      },
      {
        name: "%exit",
        params: ["[status]"],
        doc: "Internal: ends the program with a status (after the prelude's exit ran the dynamic-wind afters).",
        impl(status: any) {
          const code = status === undefined || status === true ? 0 : status === false ? 1 : typeof status === "number" && Number.isInteger(status) ? status : 1;
          self.stdout.flush();
          self.stderr.flush();
          if (self.ctx.process === null) hostError("no-process-access", "exit: no process access was granted to this interpreter", [status], "exit");
          self.ctx.process.exit(code);
          return exitStop("exit", code);
        },
      },
      {
        name: "emergency-exit",
        params: ["[status]"],
        doc: "Ends the program at once, without running outstanding dynamic-wind afters.",
        impl(status: any) {
          const code = status === undefined || status === true ? 0 : status === false ? 1 : typeof status === "number" && Number.isInteger(status) ? status : 1;
          self.stdout.flush();
          self.stderr.flush();
          if (self.ctx.process === null) hostError("no-process-access", "emergency-exit: no process access was granted to this interpreter", [status]);
          self.ctx.process.exit(code);
          return exitStop("emergency-exit", code);
        },
      },
    ];
  }

  private loadPrelude(): void {
    const loader = this.opts.libraries;
    for (const file of PRELUDE_FILES) {
      const found = loader?.findFile(file) ?? null;
      if (found === null) continue;
      this.evalTopForms(this.read(found.text, found.path), this.builtins);
    }
    const travel = this.builtins.table.get(this.symbols.intern("%continue"));
    if (travel && travel.k === "global" && travel.cell.v instanceof Procedure) this.rt.travelProc = travel.cell.v;
    const guardRaise = this.builtins.table.get(this.symbols.intern("%guard-raise"));
    if (guardRaise && guardRaise.k === "global" && guardRaise.cell.v instanceof Procedure) this.rt.guardRaiseProc = guardRaise.cell.v;
    const assign = this.builtins.table.get(this.symbols.intern("%parameter-assign!"));
    if (assign && assign.k === "global" && assign.cell.v instanceof Procedure) this.rt.assignProc = assign.cell.v;
  }

  // ---- reading --------------------------------------------------------------------------------------

  /** All data of a source text, with locations. */
  read(text: string, file: string, foldCase = false): any[] {
    return new Reader(text, { file, symbols: this.symbols, locations: true, foldCase }).readAll();
  }

  /**
   * The forms of a file named by include, include-ci or include-library-declarations.
   * A library's own parts (included from its .sld, or from what that includes) are
   * read by the library loader, like the library. Everything else — programs, the
   * REPL, eval, loaded files — reads through the host's file access, so that a
   * guard sees an include as it sees load and file ports.
   */
  private readInclude(path: string, from: string | undefined, fold: boolean, loc: SourceLoc | undefined): any[] {
    const loader = this.opts.libraries ?? null;
    let found: { path: string; text: string };
    try {
      if (loader !== null && from !== undefined && this.librarySources.has(from)) {
        found = loader.readInclude(path, from);
        this.librarySources.add(found.path);
      } else {
        const files = this.ctx.files;
        if (files === null) return hostError("no-file-access", `include: no file access was granted to this interpreter`, [new MString(path)], "include");
        const full = loader?.resolveInclude ? loader.resolveInclude(path, from) : path;
        found = { path: full, text: new TextDecoder("utf-8", { fatal: false }).decode(files.readFile(full)) };
      }
    } catch (e: any) {
      if (e instanceof SchemeError) {
        e.condition.loc ??= loc;
        throw e;
      }
      const c = makeCondition("file", `include: cannot read ${path}: ${e?.message ?? e}`, [new MString(path)], "include", loc);
      if (e?.code) c.code = e.code;
      throw new SchemeError(c);
    }
    return this.read(found.text, found.path, fold);
  }

  // ---- environments -----------------------------------------------------------------------------------

  /** The REPL's environment: the standard libraries imported, definitions allowed to replace imports. */
  interactionEnvironment(): TopEnv {
    if (this.interaction) return this.interaction;
    const top = this.newTopEnv("repl", true);
    const imports = this.opts.replImports ?? DEFAULT_REPL_IMPORTS;
    if (this.opts.libraries) {
      for (const spec of imports) {
        const datum = this.read(spec, "<repl imports>")[0];
        if (this.libraries.exists(datum)) this.libraries.importInto(top, datum, undefined);
      }
    }
    // Everything else the builtins define (agent primitives, nodwyn extras) is visible too.
    for (const [s, b] of this.builtins.table) {
      if (!top.table.has(s) && !s.name.startsWith("%")) {
        top.table.set(s, b);
        top.imported.add(s);
      }
    }
    this.interaction = top;
    return top;
  }

  /** A fresh environment for a program: it sees only what it imports. */
  programEnvironment(name = "program"): TopEnv {
    return this.newTopEnv(name, false);
  }

  /**
   * Makes a library of built-in procedures the host defined, e.g.
   * `registerLibrary("(nodwyn agent)", ["fs-read", …])`, so that programs can
   * import them. Every name must be bound in the builtins.
   */
  registerLibrary(name: string, names: readonly string[]): Library {
    const exports = new Map<Sym, Binding>();
    for (const n of names) {
      const sym = this.symbols.intern(n);
      const b = this.builtins.table.get(sym);
      if (b === undefined || (b.k === "global" && b.cell.v instanceof Unbound)) throw new Error(`registerLibrary: ${n} is not defined`);
      exports.set(sym, b);
    }
    const lib: Library = { name, env: this.builtins, exports, file: undefined };
    this.libraries.register(lib);
    return lib;
  }

  /** A library whose exports are procedures made from table entries, in an environment of its own (not the builtins). */
  private makePrimitiveLibrary(name: string, specs: readonly ProcSpec[]): Library {
    const env = this.newTopEnv(name, false);
    const exports = new Map<Sym, Binding>();
    for (const spec of specs) {
      const sym = this.symbols.intern(spec.name);
      if (exports.has(sym)) throw new Error(`${name}: two table entries named ${spec.name}`);
      const cell = env.cellFor(sym);
      cell.v = makePrimitive(spec, this.ctx, this.rt);
      cell.constant = true;
      exports.set(sym, { k: "global", cell });
    }
    return { name, env, exports, file: undefined };
  }

  /** Loads (and instantiates) a library by name, e.g. "(scheme base)". */
  library(name: string): Library {
    return this.libraries.get(strip(this.read(name, "<library name>")[0]), undefined);
  }

  // ---- compiling and running ------------------------------------------------------------------------

  /** Expands and compiles one top-level form into a thunk. */
  compileTop(form: any, top: TopEnv, loc: SourceLoc | undefined): Procedure {
    try {
      const node: Node = this.expander.expandTop(form, top, loc);
      // An import or a define-syntax leaves nothing to run: no code to generate.
      if (node.t === "const") return this.constantThunk(node.v);
      const lam: Lambda = { t: "lambda", params: [], rest: null, body: node, name: "top level", ...(loc ? { loc } : {}) };
      return compile(lam, this.rt, this.compileOpts);
    } catch (e) {
      // Expansion and compilation recurse on the nesting of a form: one nested thousands
      // of levels deep runs out of JS stack. Say so, at the form, rather than as a host failure.
      if (e instanceof RangeError && /call stack/i.test(e.message)) {
        const c = makeCondition("syntax", "form nested too deeply to compile (split it into smaller definitions)", [], undefined, loc ?? locationOf(form));
        throw new SchemeError(c);
      }
      throw e;
    }
  }

  /**
   * Evaluates top-level forms that need no value of an earlier form to be
   * expanded (the prelude, a library body): each is expanded in turn — a
   * define-syntax takes effect for the next — and all are compiled as one unit
   * and run once, which costs one JS compilation instead of one per form.
   */
  evalTopForms(forms: readonly any[], top: TopEnv): void {
    const nodes = forms.map((f) => this.expander.expandTop(f, top, locationOf(f)));
    if (nodes.length === 0) return;
    const lam: Lambda = { t: "lambda", params: [], rest: null, body: mkSeq(nodes), name: "top level" };
    const out = this.rt.runSync(compile(lam, this.rt, this.compileOpts), [], {});
    if (!out.ok) throw new SchemeError(out.condition ?? wrapRaised(out.error));
  }

  /** Evaluates one top-level form to completion, synchronously (library bodies, the prelude). */
  private evalTopSync(form: any, top: TopEnv, loc: SourceLoc | undefined): any {
    const thunk = this.compileTop(form, top, loc);
    const out = this.rt.runSync(thunk, [], {});
    if (!out.ok) throw new SchemeError(out.condition ?? wrapRaised(out.error));
    return out.value;
  }

  /**
   * Evaluates `forms` in `top` one after the other as the continuation of the
   * current call: each form is expanded when reached, and the rest of the
   * sequence is part of every continuation captured in an earlier form.
   * Returns TAIL with the machine's Unwind pending; the value is the last form's.
   */
  sequence(forms: readonly any[], top: TopEnv): any {
    const self = this;
    const compiled = new Map<number, Procedure>();
    const step: ResumeFn = function (frame: Frame, v: any): any {
      const i = frame.vals as number;
      if (i >= forms.length) return v;
      let thunk = compiled.get(i);
      if (thunk === undefined) {
        const form = forms[i];
        thunk = self.compileTop(form, top, locationOf(form));
        compiled.set(i, thunk);
      }
      const u = new Unwind("recall", false);
      u.push(recallFrame(thunk, [], thunk.f0));
      if (i + 1 < forms.length) u.push(new Frame(step, null, null, 0, i + 1));
      self.rt.unw = u;
      return TAIL;
    };
    if (forms.length === 0) return UNSPECIFIED;
    return step.call(null, new Frame(step, null, null, 0, 0), UNSPECIFIED);
  }

  /** A thunk returning `v`. */
  private constantThunk(v: any): Procedure {
    return makePrimitive({ name: "top level", params: [], doc: "", impl: () => v }, this.ctx, this.rt);
  }

  /**
   * A procedure that, when called, reads `source` and runs its forms in `top`
   * as a sequence. Reading is part of the evaluation, so that its limits hold
   * for it too (a source of a few megabytes can make a datum of gigabytes).
   */
  private sourceThunk(source: string, file: string, top: TopEnv): Procedure {
    return makePrimitive(
      {
        name: "top-level",
        params: [],
        doc: "",
        impl: () => {
          const forms = this.read(source, file);
          return forms.length === 0 ? UNSPECIFIED : this.sequence(forms, top);
        },
      },
      this.ctx,
      this.rt,
    );
  }

  private enqueue<T>(fn: () => Promise<T>): Promise<T> {
    const p = this.queue.then(fn, fn);
    this.queue = p.catch(() => {});
    return p;
  }

  private limitsOf(o: EvalOptions): Limits {
    return { ...(this.opts.limits ?? {}), ...(o.limits ?? {}) };
  }

  /**
   * Evaluates the forms of `source` in order (in the interaction environment
   * unless `env` is given) and resolves to the value of the last one. An
   * uncaught condition or a limit rejects with an EvalError.
   */
  async evaluate(source: string, o: EvalOptions = {}): Promise<any> {
    const out = await this.evaluateOutcome(source, o);
    if (!out.ok) throw new EvalError(out.error, out.condition);
    return out.value;
  }

  /** Like evaluate, but resolves to the outcome instead of rejecting. */
  evaluateOutcome(source: string, o: EvalOptions = {}): Promise<Outcome> {
    return this.enqueue(async () => {
      const top = o.env ?? this.interactionEnvironment();
      const out = await this.rt.runAsync(this.sourceThunk(source, o.file ?? "<eval>", top), [], this.limitsOf(o));
      this.flushPorts();
      return out;
    });
  }

  /** Evaluates synchronously; an async primitive is an error here. Returns the value of the last form. */
  evaluateSync(source: string, o: EvalOptions = {}): any {
    const out = this.evaluateSyncOutcome(source, o);
    if (!out.ok) throw new EvalError(out.error, out.condition);
    return out.value;
  }

  evaluateSyncOutcome(source: string, o: EvalOptions = {}): Outcome {
    const top = o.env ?? this.interactionEnvironment();
    const out = this.rt.runSync(this.sourceThunk(source, o.file ?? "<eval>", top), [], this.limitsOf(o));
    this.flushPorts();
    return out;
  }

  /** Runs an R7RS program (its own environment: it sees only what it imports). */
  runProgram(source: string, file: string, limits: Limits = {}): Promise<Outcome> {
    return this.enqueue(async () => {
      const top = this.programEnvironment();
      const out = await this.rt.runAsync(this.sourceThunk(source, file, top), [], { ...(this.opts.limits ?? {}), ...limits });
      this.flushPorts();
      return out;
    });
  }

  /** Calls a Scheme procedure with Scheme arguments and resolves to its value. */
  call(proc: Procedure, args: any[], limits: Limits = {}): Promise<any> {
    return this.enqueue(async () => {
      const out = await this.rt.runAsync(proc, args, { ...(this.opts.limits ?? {}), ...limits });
      this.flushPorts();
      if (!out.ok) throw new EvalError(out.error, out.condition);
      return out.value;
    });
  }

  flushPorts(): void {
    this.stdout.flush();
    this.stderr.flush();
  }

  /** The value of a global of the interaction environment, or undefined. */
  lookup(name: string): any {
    const b = this.interactionEnvironment().table.get(this.symbols.intern(name));
    if (b === undefined || b.k !== "global" || b.cell.v instanceof Unbound) return undefined;
    return b.cell.v;
  }

  // ---- the boundary: Scheme values ⇄ JS values -----------------------------------------------------

  /**
   * A Scheme value as plain JS: exact integers as numbers (bigints when large),
   * inexact numbers as numbers, strings and symbols as strings, lists and
   * vectors as arrays, booleans as booleans, '() as [], anything else as its
   * `write` text.
   */
  toJS(v: any): unknown {
    if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") return v;
    if (v instanceof Flonum) return v.v;
    if (v instanceof MString) return v.toString();
    if (v instanceof Sym) return v.name;
    if (v === NIL) return [];
    if (v instanceof Pair) {
      const a = listToArray(v);
      if (a !== null) return a.map((x) => this.toJS(x));
    }
    if (Array.isArray(v)) return v.map((x) => this.toJS(x));
    if (v === UNSPECIFIED || v === EOF) return undefined;
    return writeToString(v, "write");
  }

  /**
   * A JS value as Scheme: integers become exact (bigints exact too), other
   * numbers inexact, strings strings, arrays vectors, plain objects association
   * lists with symbol keys (SRFI 180's JSON mapping), null the symbol null.
   */
  fromJS(x: unknown): any {
    if (typeof x === "number") return Number.isSafeInteger(x) && !Object.is(x, -0) ? x : flo(x); // a non-integral double stays bare (ADR 0046)
    if (typeof x === "bigint") return x >= BigInt(Number.MIN_SAFE_INTEGER) && x <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(x) : x;
    if (typeof x === "boolean") return x;
    if (typeof x === "string") return new MString(x);
    if (x === null) return this.symbols.intern("null");
    if (x === undefined) return UNSPECIFIED;
    if (Array.isArray(x)) return x.map((e) => this.fromJS(e));
    if (typeof x === "object" && Object.getPrototypeOf(x) === Object.prototype) {
      return arrayToList(Object.entries(x as object).map(([k, v]) => new Pair(this.symbols.intern(k), this.fromJS(v))));
    }
    throw new TypeError(`fromJS: cannot convert ${Object.prototype.toString.call(x)} to a Scheme value`);
  }
}

/** A first-class environment (what `environment` and `interaction-environment` return). */
export class Environment {
  constructor(readonly top: TopEnv) {}
}

function envOf(x: any): TopEnv {
  if (x instanceof Environment) return x.top;
  throw new SchemeError(makeCondition("type", `bad argument #2 to 'eval' (environment expected, got ${writeToString(x, "write")})`, [x], "eval"));
}

function wrapRaised(x: any): Condition {
  const c = makeCondition("user", `uncaught exception: ${writeToString(x, "write")}`, [x]);
  c.payload = x;
  return c;
}


export { backtraceOf };
