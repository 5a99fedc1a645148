// The project's checkers: .nodwyn/checks.scm loaded into an interpreter of its own, re-read when the file changes.
//
// No other code shares that interpreter: the model's evaluations, a strategy
// and a person's REPL run elsewhere, so none of them can register, replace or
// remove a checker, or redefine a helper a checker calls. `register-check`
// exists only here, and only while the file loads. The interpreter has no file
// access, no process access and no environment (CAPABILITIES.checker). Each
// call of a checker runs with its own step budget and deadline, and a checker
// that ends any other way than with a verdict in time — an error, the budget,
// the deadline, (exit), a late answer — denies. A checks.scm that cannot be
// read or evaluated, or is not a regular file, leaves one checker in place that
// denies every read: a broken file makes nodwyn read less, never more.

import { lstatSync, readFileSync, type Stats } from "node:fs";
import { join } from "node:path";
import { MString, Procedure, Sym, T, UNSPECIFIED, formatRaised, hostError, type Interpreter, type ProcSpec } from "../../interpreter/api.js";
import { denyVerdict, type CheckerFn, type CheckerRegistry } from "../guard/index.js";
import { checkerInfoToScheme, verdictFromScheme } from "../../primitives/agent/index.js";
import { processAccessFor } from "./capabilities.js";
import { createNodeInterpreter } from "./node-interpreter.js";

/** Where a project keeps its checkers, relative to the repository root. */
export const CHECKS_FILE = ".nodwyn/checks.scm";

/** Steps one checker call may take (default). */
export const DEFAULT_CHECKER_STEPS = 200_000;
/** Milliseconds one checker call may take (default). */
export const DEFAULT_CHECKER_TIMEOUT_MS = 2_000;
/** What evaluating checks.scm itself may take. */
const LOAD_STEPS = 10_000_000;
const LOAD_TIMEOUT_MS = 10_000;

/** The name of the checker that stands in for a checks.scm that failed to load. */
export const BROKEN_CHECKS = "checks.scm";

/** register-check's entry (the reference documents it from here): it exists only in the checkers' interpreter. */
export const REGISTER_CHECK: Pick<ProcSpec, "name" | "params" | "doc"> = {
  name: "register-check",
  params: ["name", "checker"],
  doc:
    "In .nodwyn/checks.scm only: registers a project checker. (checker path info) is called before the guard lets any " +
    "file be read and returns allow, deny, (deny \"why\"), ask or (ask \"why\"). A checker that raises an error, exceeds " +
    "its step or time budget, or returns anything else denies. Registering a name again replaces it. See docs/guides/checkers.md.",
};

/** What a load of checks.scm did, as the session logs it (a note with topic "checks.load"). */
export interface ChecksLoad {
  /** "start": the session opened; "changed": the file changed since; "removed": it is gone. */
  readonly reason: "start" | "changed" | "removed";
  readonly ok: boolean;
  /** The checkers now in effect, in consultation order. */
  readonly checkers: readonly string[];
  /** Why it failed (then every read is denied). */
  readonly error?: string;
}

export interface ProjectChecksOptions {
  /** The repository root (the file is root/.nodwyn/checks.scm). */
  readonly root: string;
  /** The guard's registry, whose checkers this replaces on every load. */
  readonly registry: CheckerRegistry;
  /** Steps per checker call (default DEFAULT_CHECKER_STEPS). */
  readonly steps?: number;
  /** Milliseconds per checker call (default DEFAULT_CHECKER_TIMEOUT_MS). */
  readonly timeoutMs?: number;
  /** Library directories the checks file may import from (the session's -I). */
  readonly libraryPaths?: readonly string[];
  /** Where the checks file's own output (display, write) goes. */
  readonly output?: { write(c: string | Uint8Array): void };
  /** Told of every load (the session writes a note; a failure is also shown to the person). */
  readonly onLoad?: (load: ChecksLoad) => void;
  /** The clock a checker call is timed with, in milliseconds (default performance.now; tests pass their own). */
  readonly clock?: () => number;
}

type Seen = { readonly dev: number; readonly ino: number; readonly size: number; readonly mtimeMs: number; readonly ctimeMs: number } | null;

/**
 * The checkers of one project, kept in the guard's registry. `refresh()` (the
 * registry's source) looks at the file and loads it again when it changed:
 * a new interpreter each time, so nothing of an earlier version survives.
 */
export class ProjectChecks {
  readonly file: string;
  private readonly o: ProjectChecksOptions;
  private seen: Seen = null;
  private started = false;
  private loading = false;
  private last: ChecksLoad | null = null;

  constructor(o: ProjectChecksOptions) {
    this.o = o;
    this.file = join(o.root, CHECKS_FILE);
    o.registry.setSource(() => this.refresh());
  }

  /** What the last load did; null when there is no checks file and never was. */
  get state(): ChecksLoad | null {
    return this.last;
  }

  /** Loads the file if it changed since the last look (or on the first call). Never throws. */
  refresh(): void {
    if (this.loading) return;
    const st = this.look();
    const first = !this.started;
    this.started = true;
    if (!first && sameFile(st, this.seen)) return;
    const before = this.seen;
    this.seen = st;
    if (st === null) {
      if (before === null && first) return; // no checks file, and none before
      this.o.registry.replaceAll([]);
      this.report({ reason: "removed", ok: true, checkers: [] });
      return;
    }
    this.load(first ? "start" : "changed");
  }

  private look(): Seen | null {
    let st: Stats | undefined;
    try {
      st = lstatSync(this.file, { throwIfNoEntry: false });
    } catch {
      // Unreadable folder: load() fails on it and denies.
      return { dev: -1, ino: -1, size: -1, mtimeMs: -1, ctimeMs: -1 };
    }
    if (st === undefined) return null;
    return { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
  }

  private load(reason: ChecksLoad["reason"]): void {
    this.loading = true;
    try {
      const { checkers, error } = this.evaluate();
      if (error !== undefined) {
        const why = `the project's checkers (${CHECKS_FILE}) failed to load, so every read is denied until the file is fixed: ${error}`;
        this.o.registry.replaceAll([{ name: BROKEN_CHECKS, fn: () => denyVerdict(why) }]);
        this.report({ reason, ok: false, checkers: [], error });
        return;
      }
      this.o.registry.replaceAll(checkers);
      this.report({ reason, ok: true, checkers: checkers.map((c) => c.name) });
    } finally {
      this.loading = false;
    }
  }

  private report(load: ChecksLoad): void {
    this.last = load;
    try {
      this.o.onLoad?.(load);
    } catch {
      // Reporting must not change what was loaded.
    }
  }

  /** A new interpreter with the file evaluated in it: the checkers it registered, or why it failed. */
  private evaluate(): { checkers: { name: string; fn: CheckerFn }[]; error?: string } {
    let text: string;
    try {
      const st = lstatSync(this.file);
      if (!st.isFile()) return { checkers: [], error: `${CHECKS_FILE} is not a regular file (a symbolic link or a directory is not followed)` };
      text = readFileSync(this.file, "utf8");
    } catch (e) {
      return { checkers: [], error: `cannot read ${CHECKS_FILE}: ${(e as NodeJS.ErrnoException).code ?? String(e)}` };
    }
    const registered: { name: string; proc: Procedure }[] = [];
    let open = true;
    const registerCheck: ProcSpec = {
      ...REGISTER_CHECK,
      types: [{ name: "string or symbol", test: (x) => x instanceof MString || x instanceof Sym }, T.procedure],
      impl(name: MString | Sym, proc: Procedure) {
        if (!open) hostError("checks-closed", "register-check: checkers are registered only while .nodwyn/checks.scm loads", [name], "register-check");
        const label = name instanceof MString ? name.toString() : name.name;
        if (label === "") hostError("bad-checker-name", "register-check: a checker needs a non-empty name", [name], "register-check");
        const i = registered.findIndex((r) => r.name === label);
        if (i >= 0) registered[i] = { name: label, proc };
        else registered.push({ name: label, proc });
        return UNSPECIFIED;
      },
    };
    const sink = this.o.output ?? { write: () => {} };
    const interp = createNodeInterpreter({
      libraryPaths: this.o.libraryPaths ?? [],
      files: null,
      process: processAccessFor("checker"),
      stdout: sink,
      stderr: sink,
      extraPrimitives: [registerCheck],
    });
    let out;
    try {
      out = interp.evaluateSyncOutcome(text, { file: CHECKS_FILE, limits: { steps: LOAD_STEPS, timeoutMs: LOAD_TIMEOUT_MS } });
    } finally {
      open = false;
    }
    if (!out.ok) return { checkers: [], error: formatRaised(out.error) };
    const steps = this.o.steps ?? DEFAULT_CHECKER_STEPS;
    const timeoutMs = this.o.timeoutMs ?? DEFAULT_CHECKER_TIMEOUT_MS;
    return { checkers: registered.map((r) => ({ name: r.name, fn: this.checker(interp, r.name, r.proc, steps, timeoutMs) })) };
  }

  /** A checker of the guard over a Scheme procedure: synchronous, budgeted, failing closed. */
  private checker(interp: Interpreter, name: string, proc: Procedure, steps: number, timeoutMs: number): CheckerFn {
    const clock = this.o.clock ?? (() => performance.now());
    return (path, info) => {
      const t0 = clock();
      const out = interp.rt.runSync(proc, [new MString(path), checkerInfoToScheme(interp.ctx, info)], { steps, timeoutMs });
      const ms = clock() - t0;
      interp.flushPorts();
      if (!out.ok) {
        const c = out.condition;
        if (c?.kind === "limit" && c.code === "steps") throw new Error(`exceeded its budget of ${steps} steps`);
        if (c?.kind === "limit" && c.code === "timeout") throw new Error(`exceeded its time budget (${timeoutMs} ms)`);
        throw new Error(formatRaised(out.error));
      }
      // A primitive that ignored the deadline must not turn a late answer into a read.
      if (ms > timeoutMs) throw new Error(`exceeded its time budget (${timeoutMs} ms): it answered after ${Math.round(ms)} ms`);
      return verdictFromScheme(out.value, name);
    };
  }
}

function sameFile(a: Seen | null, b: Seen | null): boolean {
  if (a === null || b === null) return a === b;
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}
