// A session: an interpreter wired to the session log, the read guard and the agent primitives.
//
// The composition root for `nodwyn repl`, `run` and `-e` (and for an agent's
// loop): every evaluation is logged as eval.req / eval.result, every file
// decision of the guard as guard.decision; the project's checkers are loaded
// from .nodwyn/checks.scm under the repository root.

import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  Condition,
  MString,
  Procedure,
  UNSPECIFIED,
  MultipleValues,
  FileAccessError,
  T,
  hostError,
  writeToString,
  formatRaised,
  type FileAccess,
  type Interpreter,
  type Limits,
  type Outcome,
  type ProcSpec,
} from "../../interpreter/api.js";
import { createGuard, findRepoRoot, CheckerRegistry, GuardError, type Guard, type GuardDecision } from "../guard/index.js";
import { createSearchEngine, DEFAULT_SEARCH_LIMITS, type SearchEngine } from "../search/index.js";
import { createSessionLog, newSessionId, openForAppend, type LogWriter, type SessionConfigPayload, type TruncatedError } from "../log/index.js";
import { Redactor } from "../redact/index.js";
import { fileToolPrimitives, schemeChecker } from "../../primitives/agent/index.js";
import { flushFilePorts } from "../../primitives/scheme/io.js";
import { createNodeInterpreter, nodeFileAccess, nodeProcessAccess, consoleSinks, VERSION } from "./node-interpreter.js";

export interface SessionOptions {
  /** What opened it: "repl", "run", "-e", "agent". */
  origin: string;
  /** Working directory (the repository root is its git top level unless `root` is given). */
  cwd?: string;
  root?: string;
  /** Record a session log (default true; `--no-log` turns it off). */
  log?: boolean;
  /** Scheme file ports and `load` read through the guard too (always in agent sessions). */
  sandbox?: boolean;
  libraryPaths?: readonly string[];
  limits?: Limits;
  /** What `command-line` returns. */
  commandLine?: string[];
  /** Full argv, for the session.start record. */
  argv?: string[];
  /** Environment (data dir resolution). */
  env?: NodeJS.ProcessEnv;
  trace?: (js: string) => void;
  /** Console sinks (default: the process's). */
  stdout?: { write(c: string | Uint8Array): void };
  stderr?: { write(c: string | Uint8Array): void };
  /** Who evaluates: "user" for a person, "model" for the model's eval tool. */
  actor?: string;
  /** Steps a checker may take per decision. */
  checkerSteps?: number;
  /** Procedures beyond the file tools (an agent session's shell-exec). */
  extraPrimitives?: readonly ProcSpec[];
  /** More of the session's configuration for its session.start (or session.resume): strategy, model, server, context. */
  start?: Omit<SessionConfigPayload, "version" | "origin" | "cwd" | "repo" | "argv">;
  /** Reopen this existing session's log (under its lock) and append session.resume, instead of a new log. */
  resume?: string;
  /** The redactor of the log (default a new one): share the one credentials are registered on. */
  redactor?: Redactor;
}

/** What (nodwyn agent) exports. */
export const AGENT_NAMES = ["fs-read", "fs-find", "index-grep", "register-check"] as const;

/** Output kept in an eval.result record, at most. */
const MAX_LOGGED_OUTPUT = 64 * 1024;

export class Session {
  readonly interp: Interpreter;
  readonly root: string;
  readonly checkers: CheckerRegistry;
  readonly writer: LogWriter | null;
  /** Redacts what the log records (none without a log). */
  readonly redactor: Redactor | null;
  /** A torn last line the resume repaired (recorded in a note after session.resume), else null. */
  readonly repaired: TruncatedError | null = null;
  actor: string;
  private capture: string[] | null = null;
  private captured = 0;
  private current: AbortSignal | undefined;

  private constructor(opts: SessionOptions) {
    const cwd = resolve(opts.cwd ?? process.cwd());
    this.root = resolve(opts.root ?? findRepoRoot(cwd));
    this.actor = opts.actor ?? "user";
    this.redactor = opts.log === false ? null : (opts.redactor ?? new Redactor());
    const config: SessionConfigPayload = { version: VERSION, origin: opts.origin, cwd, repo: this.root, argv: opts.argv ?? [], ...(opts.start ?? {}) };
    const logOpts = { redactor: this.redactor ?? undefined, ...(opts.env ? { env: opts.env } : {}) };
    if (this.redactor === null) this.writer = null;
    else if (opts.resume !== undefined) {
      const r = openForAppend(opts.resume, { ...logOpts, resume: config });
      this.writer = r.writer;
      this.repaired = r.truncated;
    } else this.writer = createSessionLog(newSessionId(), config, logOpts);
    this.checkers = new CheckerRegistry();
    const out = opts.stdout ?? consoleSinks.stdout;
    const err = opts.stderr ?? consoleSinks.stderr;
    const tee = (sink: { write(c: string | Uint8Array): void }) => ({
      write: (c: string | Uint8Array) => {
        sink.write(c);
        if (this.capture !== null && this.captured < MAX_LOGGED_OUTPUT) {
          const s = typeof c === "string" ? c : Buffer.from(c).toString("utf8");
          this.capture.push(s);
          this.captured += s.length;
        }
      },
    });
    const files: FileAccess = opts.sandbox ? this.guardedFileAccess() : nodeFileAccess;
    this.interp = createNodeInterpreter({
      libraryPaths: opts.libraryPaths ?? [],
      files,
      process: {
        ...nodeProcessAccess(opts.commandLine ?? []),
        // (exit) ends the process: what is buffered is written and the log closed first.
        exit: (code: number): never => {
          this.flushFiles();
          this.close("exit", code);
          return process.exit(code);
        },
      },
      stdout: tee(out),
      stderr: tee(err),
      stdin: consoleSinks.stdin,
      limits: opts.limits ?? {},
      ...(opts.trace ? { trace: opts.trace } : {}),
      extraPrimitives: [
        ...fileToolPrimitives(this.fileServices()),
        this.registerCheckPrimitive(opts.checkerSteps ?? 200_000),
        ...(opts.extraPrimitives ?? []),
      ],
    });
  }

  private _guard: Guard | null = null;
  private _search: SearchEngine | null = null;

  /** The read guard (made on first use: most evaluations read no file). */
  get guard(): Guard {
    return (this._guard ??= createGuard({
      root: this.root,
      checkers: this.checkers,
      actor: this.actor,
      log: (d) => this.logDecision(d),
      logBatch: (ds) => this.logDecisions(ds),
    }));
  }

  /** The scan engine behind fs-find and index-grep, over the guard. */
  get search(): SearchEngine {
    return (this._search ??= createSearchEngine(this.guard));
  }

  private fileServices() {
    const self = this;
    // The primitives' docs quote the search limits when their tables are made:
    // those come from the defaults, so the guard and the engine wait for a search.
    const search: SearchEngine = {
      get guard() {
        return self.guard;
      },
      limits: DEFAULT_SEARCH_LIMITS,
      find: (...a) => self.search.find(...a),
      grep: (...a) => self.search.grep(...a),
      close: () => self._search?.close() ?? Promise.resolve(),
      stats: () => self.search.stats(),
    };
    return {
      root: this.root,
      get guard() {
        return self.guard;
      },
      search,
      actor: () => this.actor,
      signal: () => this.current,
    };
  }

  /** Opens a session and loads the project's checkers (.nodwyn/checks.scm under the root). */
  static async open(opts: SessionOptions): Promise<Session> {
    const s = new Session(opts);
    // Programs see only what they import: the agent primitives are a library.
    s.interp.registerLibrary("(nodwyn agent)", AGENT_NAMES);
    const checks = join(s.root, ".nodwyn", "checks.scm");
    if (existsSync(checks)) {
      const out = await s.interp.evaluateOutcome(readFileSync(checks, "utf8"), { file: checks });
      if (!out.ok) {
        s.close("checks.scm failed", 1);
        throw new SessionError(`${checks}: the project's checkers failed to load: ${formatRaised(out.error)}`);
      }
    }
    return s;
  }

  private logDecision(d: GuardDecision): void {
    this.logDecisions([d]);
  }

  /** Decisions about several files at once (a search's batch): one durable write. */
  private logDecisions(ds: readonly GuardDecision[]): void {
    if (this.writer === null) return;
    this.writer.appendAll(
      ds.map((d) => ({
        kind: "guard.decision" as const,
        payload: {
          path: d.path,
          op: "read",
          decision: d.decision,
          rule: d.rule,
          actor: d.actor,
          ...(d.reason !== undefined ? { reason: d.reason } : {}),
          ...(d.checker !== undefined ? { checker: d.checker } : {}),
        },
      })),
    );
  }

  /** Scheme's file ports and load, read through the guard as `actor`; writing is not granted. */
  guardedFileAccess(actor?: string): FileAccess {
    const guard = this.guard;
    const refuse = (path: string, what: string): never => {
      throw new FileAccessError("EACCES", path, `${what} is not permitted in a sandboxed session`);
    };
    return {
      readFile: (path) => {
        try {
          return guard.readFileSync(path, { actor: actor ?? this.actor });
        } catch (e) {
          if (e instanceof GuardError) throw new FileAccessError((e as any).code ?? "guard-denied", path, e.message);
          throw e;
        }
      },
      writeFile: (path) => refuse(path, "writing files"),
      deleteFile: (path) => refuse(path, "deleting files"),
      exists: (path) => {
        try {
          guard.locate(path, { actor: actor ?? this.actor });
          return existsSync(resolve(this.root, path));
        } catch {
          return false;
        }
      },
    };
  }

  /** (register-check name proc): a project checker consulted by the guard before any file is read. */
  private registerCheckPrimitive(steps: number): ProcSpec {
    const self = this;
    return {
      name: "register-check",
      params: ["name", "checker"],
      types: [{ name: "string or symbol", test: (x) => x instanceof MString || (x && x.constructor?.name === "Sym") }, T.procedure],
      doc:
        "Registers a project checker: (checker path info) is called before the guard lets any file be read and returns " +
        "allow, deny, (deny \"why\"), ask or (ask \"why\"). A checker that raises an error or exceeds its step budget denies. " +
        "See docs/guides/checkers.md.",
      impl(name: any, proc: Procedure) {
        const label = name instanceof MString ? name.toString() : String(name.name);
        self.checkers.register(
          label,
          schemeChecker(self.interp.ctx, label, (path, info) => {
            // A checker runs to completion on its own, with its own step budget,
            // while the evaluation that asked for the read waits.
            const out = self.interp.rt.runSync(proc, [path, info], { steps });
            if (!out.ok) throw new Error(formatRaised(out.error));
            return out.value;
          }),
        );
        return UNSPECIFIED;
      },
    };
  }

  /** Evaluates source (REPL forms or `-e`), logging the request and the result. */
  async evaluate(source: string, o: { file?: string; origin?: string; limits?: Limits } = {}): Promise<Outcome> {
    return this.logged(
      source,
      o.origin ?? "repl",
      o.file,
      () => this.interp.evaluateOutcome(source, { file: o.file ?? "<repl>", ...(o.limits ? { limits: o.limits } : {}) }),
      o.limits?.signal ? { signal: o.limits.signal } : {},
    );
  }

  /**
   * Calls a procedure of the session's interpreter (a model tool's primitive)
   * with `signal` as the current one, so a search or a command stops with it
   * and says so in its result (limits.signal would end the call at once instead).
   * Not logged as an evaluation: the caller records the tool call.
   */
  async callProcedure(proc: Procedure, args: any[], limits: Limits = {}, signal?: AbortSignal): Promise<Outcome> {
    this.current = signal ?? limits.signal;
    try {
      const value = await this.interp.call(proc, args, limits);
      return { ok: true, value };
    } catch (e: any) {
      if (e?.name === "EvalError") return { ok: false, error: e.raised, condition: e.condition };
      throw e;
    } finally {
      this.current = undefined;
      this.flushFiles();
    }
  }

  /** Runs an R7RS program, logged as one evaluation. */
  async runProgram(source: string, file: string): Promise<Outcome> {
    return this.logged(source, "run", file, () => this.interp.runProgram(source, file));
  }

  private async logged(source: string, origin: string, file: string | undefined, run: () => Promise<Outcome>, o: { signal?: AbortSignal } = {}): Promise<Outcome> {
    const req = this.writer?.append("eval.req", { source, origin, actor: this.actor, ...(file ? { file } : {}) });
    this.capture = [];
    this.captured = 0;
    const t0 = performance.now();
    this.current = o.signal;
    let out: Outcome;
    try {
      out = await run();
    } finally {
      this.current = undefined;
    }
    this.flushFiles();
    const output = this.capture.join("").slice(0, MAX_LOGGED_OUTPUT);
    this.capture = null;
    if (this.writer && req) {
      const base = { req_seq: req.seq, elapsed_ms: Math.round(performance.now() - t0), ...(output ? { output } : {}) };
      if (out.ok) {
        const value = showValue(out.value);
        this.writer.append("eval.result", { ok: true, ...base, ...(value ? { value } : {}) });
      } else {
        const kind = out.condition instanceof Condition ? out.condition.kind : "raise";
        this.writer.append("eval.result", { ok: false, ...base, error: formatRaised(out.error), error_kind: kind });
      }
    }
    return out;
  }

  /** Writes what unclosed file output ports still buffer (a failure is reported on stderr). */
  private flushFiles(): void {
    try {
      flushFilePorts(this.interp.ctx);
    } catch (e: any) {
      process.stderr.write(`nodwyn: ${e?.condition?.message ?? e?.message ?? e}\n`);
    }
  }

  /** Ends the session: session.end, then the log is unlocked and closed. */
  close(reason = "exit", exitCode = 0): void {
    // The search's reading thread, if a search started one (it never keeps the process alive).
    const search = this._search;
    this._search = null;
    void search?.close();
    if (this.writer === null || this.writer.isClosed) return;
    try {
      this.writer.append("session.end", { reason, exit_code: exitCode });
    } finally {
      this.writer.close();
    }
  }
}

/** A session could not be opened (its checkers failed to load). */
export class SessionError extends Error {}

/** The text `write` prints for an evaluation's values ("" for none or unspecified). */
export function showValue(v: any): string {
  if (v === UNSPECIFIED) return "";
  if (v instanceof MultipleValues) return v.vals.map((x) => writeToString(x, "write")).join("\n");
  return writeToString(v, "write");
}

export { hostError };
