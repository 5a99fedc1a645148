// A session: an interpreter wired to the session log, the read guard and the agent primitives.
//
// The composition root for `nodwyn repl`, `run` and `-e` (and for an agent's
// loop): every evaluation is logged as eval.req / eval.result, every file
// decision of the guard as guard.decision; the project's checkers are loaded
// from .nodwyn/checks.scm under the repository root into an interpreter of
// their own (checks.ts). What the session's evaluations may do is the row of
// capabilities.ts for its kind: an agent's session is always sandboxed.

import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import {
  Condition,
  Procedure,
  UNSPECIFIED,
  MultipleValues,
  hostError,
  writeToString,
  formatRaised,
  locationOf,
  SchemeError,
  type FileAccess,
  type Interpreter,
  type Limits,
  type Outcome,
  type ProcSpec,
} from "../../interpreter/api.js";
import { configLocation, loadConfig } from "../config/index.js";
import { createGuard, findRepoRoot, CheckerRegistry, DEFAULT_GUARD_SETTINGS, type GuardSettings, type AskFn, type Guard, type GuardDecision } from "../guard/index.js";
import { placeFailure } from "./diagnose.js";
import { createSearchEngine, DEFAULT_SEARCH_LIMITS, type SearchEngine } from "../search/index.js";
import { createSessionLog, cutText, newSessionId, openForAppend, resolveDataDir, type LogWriter, type SessionConfigPayload, type TruncatedError } from "../log/index.js";
import { DEFAULT_INDEX_LIMITS, RepoIndex, type RepoIndexOptions } from "../index/index.js";
import { Redactor, environmentSecrets } from "../redact/index.js";
import { fileToolPrimitives, indexToolPrimitives, memoryScopes, memoryToolPrimitives, recallToolPrimitives } from "../../primitives/agent/index.js";
import { ConversationMemory, HeldTurn, renderSearch, DEFAULT_HITS, MAX_HITS, RECALL_DEFAULTS } from "../memory/index.js";
import { RESULT_CAP_MAX } from "../window/index.js";
import { flushFilePorts } from "../../primitives/scheme/io.js";
import { createNodeInterpreter, nodeFileAccess, consoleSinks, VERSION } from "./node-interpreter.js";
import { guardedFileAccess, isSandboxed, processAccessFor, type EvaluationKind } from "./capabilities.js";
import { ProjectChecks, CHECKS_FILE, DEFAULT_CHECKER_STEPS, DEFAULT_CHECKER_TIMEOUT_MS, type ChecksLoad } from "./checks.js";

export interface SessionOptions {
  /** What opened it: "repl", "run", "-e", "agent". */
  origin: string;
  /** Working directory (the repository root is its git top level unless `root` is given). */
  cwd?: string;
  root?: string;
  /** Record a session log (default true; `--no-log` turns it off). */
  log?: boolean;
  /**
   * "agent": the model's session (its `eval` tool); sandboxed whatever `sandbox`
   * says. "person" (default, unless `actor` is "model"): a person's REPL, `-e`
   * or `run`. See capabilities.ts for what each may do.
   */
  kind?: SessionKind;
  /** A person's session with Scheme's file ports, `load` and the environment confined (--sandbox); agent sessions always are. */
  sandbox?: boolean;
  /** The environment variables a sandboxed session may read (default DEFAULT_ENV_ALLOW). */
  envAllow?: readonly string[];
  libraryPaths?: readonly string[];
  limits?: Limits;
  /** What `command-line` returns. */
  commandLine?: string[];
  /** Full argv, for the session.start record. */
  argv?: string[];
  /** The environment: where the data dir is resolved from, and what get-environment-variable reads (through the kind's rule). Default process.env. */
  env?: NodeJS.ProcessEnv;
  trace?: (js: string) => void;
  /** Console sinks (default: the process's). */
  stdout?: { write(c: string | Uint8Array): void };
  stderr?: { write(c: string | Uint8Array): void };
  /** Who evaluates: "user" for a person, "model" for the model's eval tool. */
  actor?: string;
  /**
   * A batch command's session (run, -e): the records that another follows at
   * once — session.start (its first eval.req follows) and eval.result (the next
   * eval.req, or session.end) — are written without an fdatasync of their own,
   * and the next record's makes both durable (LogWriter's `durable: false`).
   * Half the fdatasyncs of a run; a REPL or an agent, which waits after
   * either, keeps one per record.
   */
  batch?: boolean;
  /** Steps a checker may take per decision. */
  checkerSteps?: number;
  /** Milliseconds a checker may take per decision (default 2000). */
  checkerTimeoutMs?: number;
  /**
   * The person's guard settings ([guard] of config.toml, checked by
   * parseGuardConfig). Default: read from the configuration file `env` names;
   * a file with any problem refuses the session (ConfigError).
   */
  guardSettings?: GuardSettings;
  /** Procedures beyond the file tools (an agent session's shell-exec). */
  extraPrimitives?: readonly ProcSpec[];
  /** More of the session's configuration for its session.start (or session.resume): strategy, model, server, context. */
  start?: Omit<SessionConfigPayload, "version" | "origin" | "cwd" | "repo" | "argv">;
  /** Reopen this existing session's log (under its lock) and append session.resume, instead of a new log. */
  resume?: string;
  /** The redactor of the log (default a new one): share the one credentials are registered on. */
  redactor?: Redactor;
  /** The repository index's data directory, limits, clock and git (host/index RepoIndexOptions); tests lower the budgets. */
  index?: Partial<Pick<RepoIndexOptions, "dataDir" | "limits" | "clock" | "git" | "maxPageCount">>;
  /** Characters of one result the model's window shows (recall stops at a whole line within it; default 32,000). */
  memoryCapChars?: () => number;
  /** Puts a checker's `ask` to the person (the REPL's prompt); without it an ask leaves the file out. */
  ask?: AskFn;
}

/** What (nodwyn agent) exports. register-check is not there: it exists only while .nodwyn/checks.scm loads. */
export const AGENT_NAMES = ["fs-read", "fs-find", "index-grep", "index-search", "index-update", "recall", "recall-log", "recall-entry", "recall-search"] as const;

/** Who a session is for: a model (an agent's session, always sandboxed) or a person. */
export type SessionKind = "agent" | "person";

/** Output kept in an eval.result record, at most (characters). */
const MAX_LOGGED_OUTPUT = 64 * 1024;
/**
 * Output captured past that, so that a secret the cut would fall in is still
 * whole when the capture is redacted, before it is cut (a private key block
 * is a few kilobytes).
 */
const CAPTURE_OVERLAP = 64 * 1024;

export class Session {
  readonly interp: Interpreter;
  readonly root: string;
  readonly checkers: CheckerRegistry;
  readonly writer: LogWriter | null;
  /** Redacts what the log records (none without a log). */
  readonly redactor: Redactor | null;
  /** A torn last line the resume repaired (recorded in a note after session.resume), else null. */
  readonly repaired: TruncatedError | null = null;
  /** What kind of evaluation this session's interpreter runs (the row of CAPABILITIES it has). */
  readonly evaluationKind: EvaluationKind;
  /** The project's checkers (.nodwyn/checks.scm), in an interpreter of their own. */
  readonly checks: ProjectChecks;
  /** The status of an (exit) a sandboxed evaluation asked for: the evaluation ended; the host decides what follows. Null when none. */
  exitRequested: number | null = null;
  private readonly checkerTimeoutMs: number;
  /** The person's guard settings in effect. */
  readonly guardSettings: GuardSettings;
  actor: string;
  private capture: string[] | null = null;
  private captured = 0;
  /** Characters of output past the capture, counted, not kept. */
  private uncaptured = 0;
  private current: AbortSignal | undefined;
  private running: AbortController | null = null;
  /** The default limits of every evaluation (the interpreter's too). */
  private readonly limits: Limits;
  private readonly ask: AskFn | null;
  /** The text of recent evaluations by file name ("<repl-3>", "<-e>"), for error reports that quote or search it. */
  readonly sources = new Map<string, string>();

  private readonly indexOptions: NonNullable<SessionOptions["index"]> & { dataDir: string };
  /** SessionOptions.batch: eval.result waits for the next record's fdatasync. */
  private readonly batch: boolean;

  private constructor(opts: SessionOptions) {
    this.env = opts.env ?? process.env;
    this.indexOptions = { ...opts.index, dataDir: opts.index?.dataDir ?? resolveDataDir(opts.env ?? process.env) };
    const cwd = resolve(opts.cwd ?? process.cwd());
    this.root = resolve(opts.root ?? findRepoRoot(cwd));
    this.actor = opts.actor ?? "user";
    this.limits = opts.limits ?? {};
    this.ask = opts.ask ?? null;
    this.redactor = opts.log === false ? null : (opts.redactor ?? new Redactor());
    // The values of the environment's secret-named variables are replaced wherever they appear in the log.
    if (this.redactor !== null) for (const v of environmentSecrets(opts.env ?? process.env)) this.redactor.registerSecret(v);
    const config: SessionConfigPayload = { version: VERSION, origin: opts.origin, cwd, repo: this.root, argv: opts.argv ?? [], ...(opts.start ?? {}) };
    this.batch = opts.batch === true;
    const logOpts = { redactor: this.redactor ?? undefined, ...(opts.env ? { env: opts.env } : {}), ...(this.batch ? { deferStart: true } : {}) };
    if (this.redactor === null) this.writer = null;
    else if (opts.resume !== undefined) {
      const r = openForAppend(opts.resume, { ...logOpts, resume: config });
      this.writer = r.writer;
      this.repaired = r.truncated;
    } else this.writer = createSessionLog(newSessionId(), config, logOpts);
    this.heldTurn = this.writer !== null ? new HeldTurn(this.writer) : null;
    this.checkers = new CheckerRegistry();
    const out = opts.stdout ?? consoleSinks.stdout;
    const err = opts.stderr ?? consoleSinks.stderr;
    const tee = (sink: { write(c: string | Uint8Array): void }) => ({
      write: (c: string | Uint8Array) => {
        sink.write(c);
        if (this.capture !== null) {
          if (this.captured < MAX_LOGGED_OUTPUT + CAPTURE_OVERLAP) {
            const s = typeof c === "string" ? c : Buffer.from(c).toString("utf8");
            this.capture.push(s);
            this.captured += s.length;
          } else this.uncaptured += typeof c === "string" ? c.length : c.length;
        }
      },
    });
    this.guardSettings = opts.guardSettings ?? guardSettingsOf(opts.env ?? process.env);
    this.checkerTimeoutMs = opts.checkerTimeoutMs ?? this.guardSettings.checkerTimeoutMs ?? DEFAULT_CHECKER_TIMEOUT_MS;
    const kind: SessionKind = opts.kind ?? (opts.actor === "model" ? "agent" : "person");
    this.evaluationKind = kind === "agent" ? "model" : opts.sandbox ? "person-sandbox" : "person";
    const files: FileAccess = isSandboxed(this.evaluationKind) ? this.guardedFileAccess() : nodeFileAccess;
    const processAccess = processAccessFor(this.evaluationKind, {
      commandLine: opts.commandLine ?? [],
      env: opts.env ?? process.env,
      ...(opts.envAllow ? { envAllow: opts.envAllow } : {}),
      onExit: (code) => {
        if (this.evaluationKind === "person") {
          // (exit) ends a person's own program: what is buffered is written and the log closed first.
          this.flushFiles();
          this.close("exit", code);
          process.exit(code);
        }
        // Sandboxed: the evaluation ends (the interpreter stops it); the host decides what follows.
        this.exitRequested = code;
      },
    });
    this.checks = new ProjectChecks({
      root: this.root,
      registry: this.checkers,
      steps: opts.checkerSteps ?? this.guardSettings.checkerSteps ?? DEFAULT_CHECKER_STEPS,
      timeoutMs: this.checkerTimeoutMs,
      libraryPaths: opts.libraryPaths ?? [],
      output: err,
      onLoad: (l) => this.checksLoaded(l, err),
    });
    const memory = { memory: () => this.memory, renderSearch, maxHits: MAX_HITS, defaultHits: DEFAULT_HITS };
    this.memoryCapChars = opts.memoryCapChars ?? (() => RESULT_CAP_MAX);
    this.interp = createNodeInterpreter({
      libraryPaths: opts.libraryPaths ?? [],
      files,
      process: processAccess,
      stdout: tee(out),
      stderr: tee(err),
      stdin: consoleSinks.stdin,
      limits: opts.limits ?? {},
      ...(opts.trace ? { trace: opts.trace } : {}),
      extraPrimitives: [
        ...fileToolPrimitives(this.fileServices()),
        ...indexToolPrimitives({ index: () => this.index, actor: () => this.actor, signal: () => this.current, limits: { ...DEFAULT_INDEX_LIMITS, ...opts.index?.limits }, scopes: memoryScopes(memory) }),
        ...memoryToolPrimitives(memory),
        ...recallToolPrimitives({ recall: () => this.memory, defaults: RECALL_DEFAULTS }),
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
      denylist: this.guardSettings.denylist,
      hardLinks: this.guardSettings.hardLinks,
      ...(this.guardSettings.caseInsensitive !== undefined ? { caseInsensitive: this.guardSettings.caseInsensitive } : {}),
      limits: {
        checkerTimeoutMs: this.checkerTimeoutMs,
        ...(this.guardSettings.maxReadsPerTurn !== undefined ? { maxReadsPerTurn: this.guardSettings.maxReadsPerTurn } : {}),
        ...(this.guardSettings.maxBytesPerTurn !== undefined ? { maxBytesPerTurn: this.guardSettings.maxBytesPerTurn } : {}),
      },
      log: (d) => this.logDecision(d),
      logBatch: (ds) => this.logDecisions(ds),
      ask: this.ask,
    }));
  }

  /** The scan engine behind fs-find and index-grep, over the guard. */
  get search(): SearchEngine {
    return (this._search ??= createSearchEngine(this.guard));
  }

  private _index: RepoIndex | null = null;
  private _memory: ConversationMemory | null = null;
  /** The unfinished turn, held as the log is written, for the conversation memory's searches (host/memory HeldTurn). */
  private readonly heldTurn: HeldTurn | null;
  private readonly memoryCapChars: () => number;
  private readonly env: NodeJS.ProcessEnv;

  /** The conversation memory of this session's log (host/memory; made on first use). */
  get memory(): ConversationMemory {
    return (this._memory ??= new ConversationMemory({
      // The sessions folder the log is in (<data dir>/sessions/<id>.jsonl).
      dataDir: this.writer !== null ? dirname(dirname(this.writer.file)) : resolveDataDir(this.env),
      session: this.writer?.session ?? null,
      root: this.root,
      env: this.env,
      capChars: this.memoryCapChars,
      ...(this.heldTurn !== null ? { held: () => this.heldTurn!.held() } : {}),
    }));
  }

  /** The repository index of the session's root (made on first use: it opens the store in the data directory). */
  get index(): RepoIndex {
    return (this._index ??= new RepoIndex({
      ...this.indexOptions,
      guard: this.guard,
      search: this.search,
      redactor: this.redactor ?? new Redactor(),
      record: (payload) => void this.writer?.append("index.update", { ...payload }),
    }));
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
    // Loaded now, so that a broken file is reported when the session starts (it then denies every read).
    s.checks.refresh();
    return s;
  }

  /** A load of checks.scm: a note in the log, and a failure shown to the person. */
  private checksLoaded(l: ChecksLoad, err: { write(c: string): void }): void {
    const what =
      l.reason === "removed"
        ? `${CHECKS_FILE} was removed: no project checker is consulted any more`
        : l.ok
          ? `${l.reason === "start" ? "loaded" : "re-read"} ${CHECKS_FILE}${l.reason === "changed" ? " after it changed" : ""}: ${l.checkers.length} checker(s)${l.checkers.length ? ` (${l.checkers.join(", ")})` : ""}`
          : `${CHECKS_FILE} failed to load${l.reason === "changed" ? " after it changed" : ""}, so every file read is denied until it is fixed: ${l.error}`;
    if (!l.ok) err.write(`nodwyn: ${what}\n`);
    this.writer?.append("note", {
      text: what,
      topic: "checks.load",
      data: { file: CHECKS_FILE, reason: l.reason, ok: l.ok, checkers: [...l.checkers], ...(l.error !== undefined ? { error: l.error } : {}) },
    });
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

  /** Scheme's file ports and load, read through the guard as `actor`; writing is not granted (capabilities.ts). */
  guardedFileAccess(actor?: string): FileAccess {
    return guardedFileAccess(() => this.guard, this.root, () => actor ?? this.actor);
  }

  /** Evaluates source (REPL forms or `-e`), logging the request and the result. */
  async evaluate(source: string, o: { file?: string; origin?: string; limits?: Limits; whole?: string } = {}): Promise<Outcome> {
    return this.logged(
      source,
      o.origin ?? "repl",
      o.file,
      (signal) => this.interp.evaluateOutcome(source, { file: o.file ?? "<repl>", limits: { ...o.limits, signal } }),
      // The REPL evaluates an entry form by form: `whole` is the entry, kept for error reports.
      { ...(o.limits?.signal ? { signal: o.limits.signal } : {}), ...(o.whole !== undefined ? { whole: o.whole } : {}) },
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
    return this.logged(source, "run", file, (signal) => this.interp.runProgram(source, file, { signal }));
  }

  /**
   * Runs a program one top-level form at a time (`nodwyn run --jsonl`), calling
   * `each` with every form's outcome; stops at the first failure. Logged as one
   * evaluation; resolves to the last outcome.
   */
  async runProgramEach(source: string, file: string, each: (out: Outcome, form: { index: number; line: number; col: number }) => void): Promise<Outcome> {
    return this.logged(source, "run", file, async (signal) => {
      let forms: any[];
      try {
        forms = this.interp.read(source, file);
      } catch (e) {
        return asFailure(e);
      }
      const top = this.interp.programEnvironment();
      let out: Outcome = { ok: true, value: UNSPECIFIED };
      for (let i = 0; i < forms.length; i++) {
        const loc = locationOf(forms[i]) ?? { line: 0, col: 0 };
        try {
          const thunk = this.interp.compileTop(forms[i], top, locationOf(forms[i]));
          out = await this.interp.rt.runAsync(thunk, [], { ...this.limits, signal });
        } catch (e) {
          out = asFailure(e);
        }
        this.interp.flushPorts();
        placeFailure(out, (f) => (f === file ? source : this.sources.get(f)), file);
        each(out, { index: i + 1, line: loc.line, col: loc.col });
        if (!out.ok) break;
      }
      return out;
    });
  }

  /**
   * Interrupts the evaluation that is running (Ctrl-C at the REPL): it ends at
   * its next poll point with a `limit` condition of code "aborted", and a
   * search or other async primitive waiting on the signal stops too. False when
   * nothing is running.
   */
  interrupt(): boolean {
    const ac = this.running;
    if (ac === null) return false;
    ac.abort();
    return true;
  }

  /** True while an evaluation runs. */
  get busy(): boolean {
    return this.running !== null;
  }

  private async logged(source: string, origin: string, file: string | undefined, run: (signal: AbortSignal) => Promise<Outcome>, o: { signal?: AbortSignal; whole?: string } = {}): Promise<Outcome> {
    const req = this.writer?.append("eval.req", { source, origin, actor: this.actor, ...(file ? { file } : {}) });
    if (file !== undefined) this.remember(file, o.whole ?? source);
    this.capture = [];
    this.captured = 0;
    this.uncaptured = 0;
    const t0 = performance.now();
    // The evaluation's own signal: Ctrl-C (interrupt()) and the caller's signal both abort it.
    const ac = new AbortController();
    const outer = o.signal;
    const forward = () => ac.abort();
    if (outer?.aborted) ac.abort();
    else outer?.addEventListener("abort", forward, { once: true });
    this.current = ac.signal;
    this.running = ac;
    let out: Outcome;
    try {
      out = await run(ac.signal);
    } finally {
      outer?.removeEventListener("abort", forward);
      this.current = undefined;
      this.running = null;
    }
    this.flushFiles();
    // The failure at the place the person can act on (their call, not stdlib's; the variable itself).
    placeFailure(out, (f) => this.sources.get(f), file);
    // Redacted before it is cut, so that the cut never leaves part of a secret (the writer redacts again: nothing more is found).
    const captured = this.capture.join("");
    const output = cutText(this.redactor ? this.redactor.redactText(captured).text : captured, MAX_LOGGED_OUTPUT, `the output of one evaluation is logged up to ${MAX_LOGGED_OUTPUT} characters`, this.uncaptured);
    this.capture = null;
    if (this.writer && req) {
      const base = { req_seq: req.seq, elapsed_ms: Math.round(performance.now() - t0), ...(output ? { output } : {}) };
      if (out.ok) {
        const value = showValue(out.value);
        this.writer.append("eval.result", { ok: true, ...base, ...(value ? { value } : {}) }, { durable: !this.batch });
      } else {
        const kind = out.condition instanceof Condition ? out.condition.kind : "raise";
        this.writer.append("eval.result", { ok: false, ...base, error: formatRaised(out.error), error_kind: kind }, { durable: !this.batch });
      }
    }
    return out;
  }

  /** Keeps an evaluation's text by its file name (the last 500). */
  remember(file: string, source: string): void {
    this.sources.delete(file);
    this.sources.set(file, source);
    if (this.sources.size > 500) this.sources.delete(this.sources.keys().next().value as string);
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
    this._index?.close();
    this._index = null;
    if (this.writer === null || this.writer.isClosed) return;
    try {
      this.writer.append("session.end", { reason, exit_code: exitCode });
    } finally {
      this.heldTurn?.close();
      this.writer.close();
    }
  }
}

function asFailure(e: unknown): Outcome {
  if (e instanceof SchemeError) return { ok: false, error: e.condition, condition: e.condition };
  throw e;
}

/** A session could not be opened (its checkers failed to load). */
export class SessionError extends Error {}

/** The [guard] settings of the configuration file `env` names; the defaults when there is none. Throws ConfigError for a bad file. */
export function guardSettingsOf(env: NodeJS.ProcessEnv): GuardSettings {
  const where = configLocation(env);
  if (!where.explicit && !existsSync(where.path)) return DEFAULT_GUARD_SETTINGS;
  return loadConfig({ env }).guard?.settings ?? DEFAULT_GUARD_SETTINGS;
}

/** The text `write` prints for an evaluation's values ("" for none or unspecified). */
export function showValue(v: any): string {
  if (v === UNSPECIFIED) return "";
  if (v instanceof MultipleValues) return v.vals.map((x) => writeToString(x, "write")).join("\n");
  return writeToString(v, "write");
}

export { hostError };
