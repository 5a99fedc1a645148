// An agent session: the log, the window, a model, the tools, and a strategy in Scheme that drives each turn.
//
// The composition root of `nodwyn chat`, `ask` and `resume`. The strategy
// decides; the host records: every record of the loop is written here
// (user.msg, llm.req, llm.resp, tool.call, tool.result, turn.end,
// turn.checkpoint, session.model, cred.register, approval.change, checkpoint,
// head.move), each turn's
// budgets are kept here, and the window is folded from the log file itself.
//
// Two interpreters: the model's (the Session: its eval tool and primitives,
// sandboxed, actor "model") and the strategy's (its own, with the strategy
// procedures of strategy-api.ts, reading through the same guard as actor
// "strategy"), so the model's definitions can never reach the strategy's.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Condition, MString, Procedure, UNSPECIFIED, formatRaised, hostError, type Interpreter } from "../../interpreter/api.js";
import { fileToolPrimitives, fileWritePrimitives, shellExecPrimitive, type ShellServices, type WriteReport, type WriteServices } from "../../primitives/agent/index.js";
import { checkWrite, writeGuarded, WriteDeniedError, type WriteTarget } from "../guard/index.js";
import { createSessionLog, newSessionId, readLog, resolveDataDir, type LogRecord, type LogWriter } from "../log/index.js";
import { TreeControl, TreeError, type AskConflict, type MoveResult } from "./tree-control.js";
import { VERSION } from "./node-interpreter.js";
import { MIN_SECRET_LENGTH, Redactor } from "../redact/index.js";
import type { AskFn } from "../guard/index.js";
import { ModelError, type Message, type ModelProvider, type ModelResponse, type StreamEvent, type ToolCall, type ToolDefinition } from "../model/types.js";
import { article, createWindow, recipeContext, textTokensV2, reserveOf, resultCapChars, RECIPE_VERSION, WindowError, type Built, type BuildParams, type RecipeWindow } from "../window/index.js";
import { runShell, scrubEnv, ShellApprovals, DEFAULT_SHELL_TIMEOUT_MS, type AskApproval } from "../shell/index.js";
import { Session, SessionError } from "./session.js";
import { createNodeInterpreter, sourceName, STDLIB_DIR } from "./node-interpreter.js";
import { processAccessFor } from "./capabilities.js";
import { LogFollower } from "./log-follower.js";
import { CellBook, parseStateLabel, stateLabel, stubText, type EvictionState } from "./eviction.js";
import { DEFAULT_BUDGETS, TurnMeter, type BudgetDimension, type TurnBudgets } from "./budgets.js";
import { CacheEstimator, endpointHost, usageRecord, type Prices } from "../model/usage.js";
import { modelTools, OutputCapture, parseToolArguments, DEFAULT_EVAL_LIMITS, type ModelTool } from "./tools.js";
import { strategyPrimitives, type CompactionRequest, type NarrowRequest, type Record_, type RequestInfo, type StrategyLoop } from "./strategy-api.js";

/** The model a session talks to, as configuration resolved it. */
export interface ModelChoice {
  /** The id the server knows. */
  readonly id: string;
  /** The [servers.NAME] entry (or the provider's own name: "scripted"). */
  readonly server: string;
  /** The registry entry ([models.NAME] or control). */
  readonly name?: string;
  readonly url?: string;
  readonly contextWindow: number;
  /** Which of the budget's sources gave contextWindow (host/config/context-budget.ts); "unknown": none did, the window is a guess. Default "config". */
  readonly contextSource?: string;
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  /** Configured prices ([models.NAME] price_*), for cost and the spend budget. */
  readonly prices?: Prices;
}

/**
 * A credential the session holds, recorded as cred.register (class and id
 * only). Its value is registered with the session's redactor: the value given
 * here, else, for an id "env:NAME" (a server's key_env), the environment
 * variable's — so a provider made with another redactor, or none, still has
 * its key kept out of the log. The provider's own credential is one of them
 * whether or not it is listed.
 */
export interface Credential {
  readonly class: string;
  readonly id: string;
  readonly value?: string;
}

/** What a front-end (chat, ask) is told while a turn runs. All optional. */
export interface TurnObserver {
  /** A piece of the model's reply as it streams. */
  onStream?(event: StreamEvent): void;
  onRequest?(info: { readonly seq: number; readonly tokens: number }): void;
  onResponse?(info: { readonly seq: number; readonly text: string; readonly toolCalls: readonly ToolCall[]; readonly inputTokens: number; readonly outputTokens: number; readonly cost?: number }): void;
  onToolStart?(call: { readonly id: string; readonly name: string; readonly arguments: string }): void;
  onToolEnd?(result: { readonly id: string; readonly name: string; readonly arguments: string; readonly ok: boolean; readonly chars: number; readonly durationMs: number; readonly error?: string }): void;
  onCheckpoint?(info: { readonly dimension: BudgetDimension; readonly used: number; readonly limit: number }): void;
  /** What the strategy's own program printed. */
  onStrategyOutput?(text: string): void;
}

/** How a turn ended (turn.end's outcome). */
export type TurnOutcome = "done" | "cancelled" | "failed" | "limit" | "spend_limit";

/** What a turn did. */
export interface TurnResult {
  readonly turn: number;
  readonly outcome: TurnOutcome;
  /** The text of the turn's last reply ("" when there was none). */
  readonly text: string;
  readonly error?: string;
  readonly modelCalls: number;
  readonly toolCalls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Replies whose server gave no token counts (their zeros are not counts). */
  readonly unreported: number;
  /** USD, when priced. */
  readonly cost?: number;
  readonly elapsedMs: number;
  /** The seqs of the turn's user.msg and turn.end. */
  readonly firstSeq: number;
  readonly endSeq: number;
}

export interface AgentOptions {
  /** "chat", "ask", "resume" (session.start's origin). */
  readonly origin: string;
  readonly cwd?: string;
  readonly root?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly argv?: string[];
  readonly provider: ModelProvider;
  readonly model: ModelChoice;
  /** Who chose the model (session.model's actor): "config", "person" (a flag). */
  readonly modelChosenBy?: string;
  /** The strategy program (default stdlib/strategies/shell.scm). */
  readonly strategyFile?: string;
  readonly budgets?: Partial<TurnBudgets>;
  /** [control] compact_threshold: compact.scm's compact-threshold in estimated tokens (session-info's compact-threshold). */
  readonly compactThreshold?: number;
  /** The configured allow-list of shell command prefixes. */
  readonly shellAllow?: readonly string[];
  /** Asks the person to approve a command; null where no one can answer (ask). */
  readonly askApproval: AskApproval | null;
  /** Puts a checker's `ask` verdict to the person (chat at a terminal); without it an ask leaves the file out. */
  readonly askGuard?: AskFn;
  readonly shellTimeoutMs?: number;
  readonly observer?: TurnObserver;
  /** Limits of each model evaluation (the eval tool). */
  readonly evalLimits?: { readonly steps?: number; readonly timeoutMs?: number; readonly memoryBytes?: number };
  /** Steps the strategy may take per turn (default 10,000,000). */
  readonly strategySteps?: number;
  /** Credentials besides the provider's own (which the session takes from provider.credential). */
  readonly credentials?: readonly Credential[];
  /** The redactor of the session's log (default a new one); the credentials' values are registered with it. */
  readonly redactor?: Redactor;
  /** Reopen this session (nodwyn resume) instead of starting one. */
  readonly resume?: string;
  /** Notes recorded as the session opens, before session.model (a model not restored). */
  readonly notes?: readonly string[];
  readonly libraryPaths?: readonly string[];
  /** Test hook of the write guard: runs between its checks and the write (a race simulated). */
  readonly beforeWrite?: (abs: string, rel: string) => void;
}

/** The names (nodwyn strategy) exports, for the hint of a strategy that forgot to import it (read when first needed). */
let strategyNames: ReadonlySet<string> | null = null;
function isStrategyName(name: string): boolean {
  if (strategyNames === null) {
    let names: string[] = [];
    try {
      const sld = readFileSync(join(STDLIB_DIR, "nodwyn", "strategy.sld"), "utf8");
      names = (/\(export([^)]*)\)/.exec(sld)?.[1] ?? "").split(/\s+/).filter(Boolean);
    } catch {
      // no hint then
    }
    strategyNames = new Set(names);
  }
  return strategyNames.has(name);
}

/** The longest a shell-exec call may ask for (timeout-seconds). */
export const MAX_SHELL_TIMEOUT_MS = 3_600_000;

/** The default strategy's file. */
export const DEFAULT_STRATEGY = join(STDLIB_DIR, "strategies", "compact.scm");

const DEFAULT_EVAL_STEPS = DEFAULT_EVAL_LIMITS.steps;
const DEFAULT_EVAL_TIMEOUT_MS = DEFAULT_EVAL_LIMITS.timeoutMs;

/** Why a turn was stopped from outside the strategy. */
type Stop = { kind: "cancelled" } | { kind: "limit"; dimension: BudgetDimension; message: string } | { kind: "ended"; outcome: "done" | "failed"; message: string | null };

interface Handle {
  readonly built: Built;
  /** The window's version when it was built: a request is stale once the window changed. */
  readonly version: number;
  readonly additions: readonly Message[];
}

interface TurnState {
  readonly no: number;
  readonly meter: TurnMeter;
  readonly controller: AbortController;
  stop: Stop | null;
  readonly pending: Set<Promise<unknown>>;
  /** Calls of the last reply not yet answered, in order. */
  open: Map<string, ToolCall & { readonly respSeq: number }>;
  lastText: string;
  readonly handles: Map<number, Handle>;
}

/** An agent session. Open one with AgentSession.open; run turns with turn(); close it. */
export class AgentSession implements StrategyLoop {
  readonly session: Session;
  readonly writer: LogWriter;
  readonly redactor: Redactor;
  private readonly strategyInterp: Interpreter;
  /** The window of the recipe new sessions record (RECIPE_VERSION), folded from the log. */
  private readonly view: RecipeWindow;
  /** The session tree (folded from the log as the window folds it: it is the window's branch filter) and the checkpoints. */
  private readonly treeCtl: TreeControl;
  private readonly follower: LogFollower;
  private readonly tools: readonly ModelTool[];
  /** The tool definitions as offered, redacted once. */
  private definitions: readonly ToolDefinition[];
  private readonly approvals: ShellApprovals;
  private readonly budgets: TurnBudgets;
  private system = "";
  private onMessage: Procedure | null = null;
  private onCommand: Procedure | null = null;
  private strategyName = "";
  private turnNo = 0;
  private earlierCost = 0;
  private current: TurnState | null = null;
  /** on-command is running (a command's model calls get a state of their own: commandState). */
  private commanding = false;
  /** The program is loading (offer-tool is allowed only then). */
  private loading = false;
  /** Tools the strategy offers and answers itself (offer-tool, answer-tool). */
  private readonly strategyTools = new Set<string>();
  /** The latest replies' output tokens and whether they stopped at the output limit (record-compaction reads its note's). */
  private readonly replyFacts = new Map<number, { outputTokens: number; truncated: boolean }>();
  private nextHandle = 1;
  private shellEnv: Record<string, string> | null = null;
  /** The session's estimated_cached_tokens baselines (ADR 0002, 2026-10-16 and 2026-10-27). */
  private readonly estimator = new CacheEstimator();
  private constructor(
    private o: AgentOptions,
    session: Session,
    redactor: Redactor,
    approvalsRef: { approvals: ShellApprovals | null },
    private readonly output: OutputCapture,
    /** Every credential value the session knows, for shell-exec's environment to be scrubbed of. */
    private readonly secrets: readonly string[],
  ) {
    this.session = session;
    this.redactor = redactor;
    if (session.writer === null) throw new SessionError("an agent session needs its log");
    this.writer = session.writer;
    this.follower = new LogFollower(this.writer.file, this.writer.session);
    this.treeCtl = new TreeControl({
      root: session.root,
      dataDir: resolveDataDir(o.env ?? process.env),
      session: this.writer.session,
      writer: this.writer,
      sync: () => this.follower.read((r) => this.view.add(r)),
    });
    this.view = createWindow(RECIPE_VERSION, { branch: this.treeCtl.tree });
    this.budgets = { ...DEFAULT_BUDGETS, ...(o.budgets ?? {}) };
    this.approvals = new ShellApprovals({
      allow: o.shellAllow ?? [],
      ask: o.askApproval,
      record: (c) => void this.writer.append("approval.change", { ...c }),
      promptPrefix: this.writer.session,
    });
    approvalsRef.approvals = this.approvals;
    const evalLimits = {
      steps: o.evalLimits?.steps ?? DEFAULT_EVAL_STEPS,
      timeoutMs: o.evalLimits?.timeoutMs ?? DEFAULT_EVAL_TIMEOUT_MS,
      ...(o.evalLimits?.memoryBytes !== undefined ? { memoryBytes: o.evalLimits.memoryBytes } : {}),
    };
    this.tools = modelTools(session, { output: this.output, evalLimits });
    this.definitions = redactor.redactJSON(this.tools.map((t) => t.definition)).value;
    this.strategyInterp = this.makeStrategyInterpreter();
  }

  /** Opens (or, with `resume`, reopens) a session and loads its strategy. */
  static async open(o: AgentOptions): Promise<AgentSession> {
    const redactor = o.redactor ?? new Redactor();
    const credentials = sessionCredentials(o);
    for (const c of credentials) for (const v of c.values) redactor.registerSecret(v);
    const approvalsRef: { approvals: ShellApprovals | null } = { approvals: null };
    let self: AgentSession | null = null;
    const shell: ShellServices = {
      defaultTimeoutMs: o.shellTimeoutMs ?? DEFAULT_SHELL_TIMEOUT_MS,
      maxTimeoutMs: Math.max(MAX_SHELL_TIMEOUT_MS, o.shellTimeoutMs ?? 0),
      signal: () => self?.current?.controller.signal,
      run: async (command, opts) => {
        if (self === null || approvalsRef.approvals === null) return { refused: "the session is not open" };
        return self.runCommand(command, opts);
      },
    };
    const writes: WriteServices = {
      read: async (path) => {
        if (self === null) throw new SessionError("the session is not open");
        return self.session.guard.readText(path, { actor: "model" });
      },
      write: async (path, text, w) => {
        if (self === null) return { refused: "the session is not open", code: "not-approved" };
        return self.writeFile(path, text, w);
      },
    };
    const strategyFile = o.strategyFile ?? DEFAULT_STRATEGY;
    const output = new OutputCapture();
    const context = recipeContext(RECIPE_VERSION, o.model.contextWindow, o.model.maxOutputTokens);
    const session = await Session.open({
      origin: o.origin,
      ...(o.cwd ? { cwd: o.cwd } : {}),
      ...(o.root ? { root: o.root } : {}),
      ...(o.env ? { env: o.env } : {}),
      argv: o.argv ?? [],
      kind: "agent",
      actor: "model",
      ...(o.askGuard ? { ask: o.askGuard } : {}),
      libraryPaths: o.libraryPaths ?? [],
      redactor,
      extraPrimitives: [shellExecPrimitive(shell), ...fileWritePrimitives(writes)],
      // recall stops at a whole line within the cut the window gives one result.
      memoryCapChars: () => resultCapChars(o.model.contextWindow, reserveOf(o.model.contextWindow, o.model.maxOutputTokens)),
      start: { strategy: strategyFile, model: o.model.id, server: o.model.server, context },
      ...(o.resume !== undefined ? { resume: o.resume } : {}),
      // The model's evaluations print into the eval tool's result, not to the terminal.
      stdout: output.sink,
      stderr: output.sink,
    });
    let agent: AgentSession;
    try {
      agent = new AgentSession(o, session, redactor, approvalsRef, output, credentials.flatMap((c) => c.values));
      self = agent;
      for (const c of credentials) agent.writer.append("cred.register", { class: c.class, id: c.id });
      if (o.resume !== undefined) agent.recover();
      else agent.follower.read((r) => agent.view.add(r));
      for (const text of o.notes ?? []) agent.writer.append("note", { text, topic: "session.model" });
      agent.writer.append("session.model", {
        model: o.model.id,
        server: o.model.server,
        ...(o.model.name !== undefined ? { name: o.model.name } : {}),
        ...(o.model.url !== undefined ? { url: o.model.url } : {}),
        actor: o.modelChosenBy ?? "config",
        context,
      });
      await agent.loadStrategy(strategyFile);
    } catch (e) {
      session.close("failed to open", 1);
      throw e;
    }
    return agent;
  }

  /** The session id. */
  get id(): string {
    return this.writer.session;
  }

  /** The number of turns the session holds (resumed ones included). */
  get turns(): number {
    return this.turnNo;
  }

  /** The tool definitions offered to the model. */
  get toolDefinitions(): readonly ToolDefinition[] {
    return this.definitions;
  }

  get model(): ModelChoice {
    return this.o.model;
  }

  get strategy(): string {
    return this.strategyName;
  }

  // ---- opening -------------------------------------------------------------------------------

  private makeStrategyInterpreter(): Interpreter {
    const session = this.session;
    const sink = { write: (c: string | Uint8Array) => this.o.observer?.onStrategyOutput?.(typeof c === "string" ? c : Buffer.from(c).toString("utf8")) };
    const interp = createNodeInterpreter({
      libraryPaths: this.o.libraryPaths ?? [],
      files: session.guardedFileAccess("strategy"),
      // CAPABILITIES.strategy: no environment; (exit) ends the strategy's evaluation (the turn then fails), never the process.
      process: processAccessFor("strategy"),
      stdout: sink,
      stderr: sink,
      extraPrimitives: [
        ...fileToolPrimitives({
          root: session.root,
          get guard() {
            return session.guard;
          },
          get search() {
            return session.search;
          },
          actor: () => "strategy",
          signal: () => this.current?.controller.signal,
        }),
        ...strategyPrimitives(this),
      ],
    });
    interp.registerLibrary("(nodwyn agent)", ["fs-read", "fs-find", "index-grep"]);
    return interp;
  }

  private async loadStrategy(file: string): Promise<void> {
    let source: string;
    try {
      source = readFileSync(file, "utf8");
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const why = code === "ENOENT" ? "there is no such file" : code === "EISDIR" ? "it is a directory" : code === "EACCES" ? "permission denied" : (code ?? (e as Error).message);
      throw new SessionError(`cannot read the strategy ${file}: ${why} (--strategy names a Scheme program; without it the session runs ${DEFAULT_STRATEGY})`);
    }
    this.loading = true;
    let out;
    try {
      out = await this.strategyInterp.runProgram(source, sourceName(file), { steps: this.o.strategySteps ?? DEFAULT_EVAL_STEPS, timeoutMs: 60_000 });
    } finally {
      this.loading = false;
    }
    if (!out.ok) {
      const text = formatRaised(out.error);
      // A strategy procedure unbound: the program did not import the library that has it.
      const name = /unbound variable: (\S+)/.exec(text)?.[1];
      const hint = name !== undefined && isStrategyName(name) ? ` — ${name} is in (nodwyn strategy): begin the program with (import (scheme base) (nodwyn strategy))` : "";
      throw new SessionError(`the strategy ${file} failed to load: ${text}${hint}`);
    }
    if (this.onMessage === null) throw new SessionError(`the strategy ${file} did not call (register-strategy! name on-message)`);
  }

  /**
   * A resume: folds the whole log into the window, then answers every tool
   * call a crash left without a result (in call order, after session.resume,
   * as the 2026-11-12 amendment orders them) and ends the interrupted turn.
   */
  private recover(): void {
    let open = new Map<string, { tool: string; started: boolean }>();
    let turnOpen = false;
    let turns = 0;
    let cost = 0;
    this.follower.read((r: LogRecord) => {
      this.view.add(r);
      const p = r.payload as Record<string, any>;
      switch (r.kind) {
        case "user.msg":
          turns++;
          turnOpen = true;
          break;
        case "turn.end":
          turnOpen = false;
          break;
        case "llm.resp":
          if (p.error === undefined) {
            open = new Map();
            for (const c of (p.tool_calls as any[]) ?? []) open.set(String(c.id), { tool: String(c.name), started: false });
            if (typeof p.usage?.cost === "number") cost += p.usage.cost;
            // The session's earlier replies of this model are its cache estimate's baseline.
            const u = p.usage;
            if (p.model === this.o.model.id && typeof u?.input_tokens === "number" && typeof u.prompt_eval_ms === "number" && u.cached_tokens === undefined)
              this.estimator.observe(this.endpoint(), { inputTokens: u.input_tokens, outputTokens: u.output_tokens ?? 0, promptEvalMs: u.prompt_eval_ms, wallMs: u.wall_ms ?? 0 });
          }
          break;
        case "tool.call": {
          const c = open.get(String(p.call_id));
          if (c) c.started = true;
          break;
        }
        case "tool.result":
          open.delete(String(p.call_id));
          break;
        default:
          break;
      }
    });
    this.turnNo = turns;
    this.earlierCost = cost;
    for (const [id, c] of open) {
      this.writer.append("tool.result", {
        call_id: id,
        tool: c.tool,
        ok: false,
        error: c.started
          ? "interrupted: the session ended while this call was running (it may have had effects); it was resumed later"
          : "not run: the session ended before this call ran; it was resumed later",
        recovered: true,
      });
    }
    if (turnOpen) this.writer.append("turn.end", { outcome: "failed", turn: turns, error: "interrupted: the session ended during this turn; it was resumed later" });
    this.follower.read((r) => this.view.add(r));
  }

  // ---- turns ----------------------------------------------------------------------------------

  /** Runs one turn for a message of the person. Never rejects for what the model, a tool or the strategy did. */
  async turn(text: string, o: { readonly signal?: AbortSignal } = {}): Promise<TurnResult> {
    if (this.current !== null) throw new SessionError("a turn is already running");
    if (this.onMessage === null) throw new SessionError("no strategy is registered");
    const no = ++this.turnNo;
    const state = this.freshTurnState(no);
    const onAbort = () => this.stopTurn({ kind: "cancelled" });
    if (o.signal?.aborted) onAbort();
    o.signal?.addEventListener("abort", onAbort, { once: true });
    const timer = setTimeout(() => this.budgetReached({ dimension: "time", used: state.meter.elapsedMs, limit: this.budgets.wallMs }), this.budgets.wallMs);
    const first = this.writer.append("user.msg", { text, actor: "person" });
    let error: string | undefined;
    let failed = false;
    try {
      if (state.stop === null) {
        await this.strategyInterp.call(this.onMessage, [new MString(text)], {
          steps: this.o.strategySteps ?? DEFAULT_EVAL_STEPS,
          signal: state.controller.signal,
          ...(this.o.evalLimits?.memoryBytes !== undefined ? { memoryBytes: this.o.evalLimits.memoryBytes } : {}),
        });
      }
    } catch (e: any) {
      if (e?.name !== "EvalError") throw e;
      const c: Condition | null = e.condition;
      // A stop from outside shows as the evaluation's abort; anything else is the strategy's failure.
      if (!(state.stop !== null && c?.kind === "limit" && c.code === "aborted")) {
        failed = true;
        error = formatRaised(e.raised);
      }
    } finally {
      clearTimeout(timer);
      o.signal?.removeEventListener("abort", onAbort);
    }
    // What a stopped strategy left running (a model call, a tool) records its own end first.
    while (state.pending.size > 0) await Promise.allSettled([...state.pending]);
    const stop = state.stop as Stop | null;
    let outcome: TurnOutcome;
    if (stop?.kind === "cancelled") outcome = "cancelled";
    else if (stop?.kind === "limit") {
      outcome = stop.dimension === "cost" ? "spend_limit" : "limit";
      error = stop.message;
    } else if (stop?.kind === "ended") {
      outcome = stop.outcome;
      if (stop.message !== null) error = stop.message;
    } else if (failed) outcome = "failed";
    else outcome = "done";
    if (outcome === "failed" && error === undefined) error = "the strategy failed";
    const why = outcome === "cancelled" ? "the turn was cancelled" : outcome === "done" ? "the turn ended" : `the turn ended (${outcome})`;
    for (const [id, c] of state.open) this.answer(id, c.name, false, undefined, `not run: ${why} before this call ran`, 0);
    state.open.clear();
    this.treeCtl.endTurn(no);
    const m = state.meter;
    const end = this.writer.append("turn.end", { outcome, turn: no, elapsed_ms: m.elapsedMs, ...(error !== undefined ? { error } : {}) });
    this.earlierCost += m.cost;
    this.current = null;
    return {
      turn: no,
      outcome,
      text: state.lastText,
      ...(error !== undefined ? { error } : {}),
      modelCalls: m.modelCalls,
      toolCalls: m.toolCalls,
      inputTokens: m.inputTokens,
      outputTokens: m.outputTokens,
      unreported: m.unreported,
      ...(m.priced > 0 ? { cost: m.cost } : {}),
      elapsedMs: m.elapsedMs,
      firstSeq: first.seq,
      endSeq: end.seq,
    };
  }

  /**
   * Hands a chat command the host does not handle (/compact focus) to the
   * strategy's on-command; false when it has none or did not handle it.
   */
  async command(name: string, args: string): Promise<boolean> {
    if (this.onCommand === null) return false;
    if (this.current !== null) throw new SessionError("a turn is running: commands run between turns");
    this.commanding = true;
    try {
      const v = await this.strategyInterp.call(this.onCommand, [new MString(name), new MString(args)], {
        steps: this.o.strategySteps ?? DEFAULT_EVAL_STEPS,
        timeoutMs: Math.max(60_000, this.budgets.wallMs),
      });
      return v !== false;
    } finally {
      this.commanding = false;
      const s = this.current as TurnState | null;
      if (s !== null) {
        // A command that asked the model (/compact's handover note): what it left running records its end, its calls are answered.
        while (s.pending.size > 0) await Promise.allSettled([...s.pending]);
        for (const [id, c] of s.open) this.answer(id, c.name, false, undefined, "not run: the command ended before this call ran", 0);
        this.earlierCost += s.meter.cost;
        this.current = null;
      }
    }
  }

  /**
   * The state a command's model calls run in (issue 16: /compact asks for a
   * handover note between turns): made when the command first needs one, with
   * the last turn's number and a budget of its own; no user.msg, no turn.end.
   */
  private commandState(): TurnState {
    return this.freshTurnState(this.turnNo);
  }

  /** A turn's state with a budget of its own, made the current one. */
  private freshTurnState(no: number): TurnState {
    const state: TurnState = {
      no,
      meter: new TurnMeter(this.budgets, this.earlierCost),
      controller: new AbortController(),
      stop: null,
      pending: new Set(),
      open: new Map(),
      lastText: "",
      handles: new Map(),
    };
    this.current = state;
    return state;
  }

  // ---- the session tree (issue 17, docs/decisions/0027) --------------------------------------------

  private idle(who: string): void {
    if (this.current !== null) throw new TreeError("turn-running", `${who}: a turn is running; the head moves between turns (from a chat command or on-command)`);
  }

  /** Rewinds the last turn: the head to its parent, its files restored unless keepFiles (changed ones put to ask). */
  async undo(o: { readonly keepFiles?: boolean; readonly ask?: AskConflict; readonly actor?: string } = {}): Promise<MoveResult> {
    this.idle("undo");
    return this.treeCtl.move(this.treeCtl.undoTarget(), "undo", o);
  }

  /** Returns to the branch the last rewind left. */
  async redo(o: { readonly keepFiles?: boolean; readonly ask?: AskConflict; readonly actor?: string } = {}): Promise<MoveResult> {
    this.idle("redo");
    return this.treeCtl.move(this.treeCtl.redoTarget(), "redo", o);
  }

  /** Moves the head to a turn (0: the start), to continue from it; its files as they were after it. */
  async moveTo(turn: number, o: { readonly keepFiles?: boolean; readonly ask?: AskConflict; readonly actor?: string } = {}): Promise<MoveResult> {
    this.idle("tree");
    return this.treeCtl.move(turn, "tree", o);
  }

  /** The session tree: every turn, its parent, first words, time, whether it changed files, and the head. */
  checkpoints(): { head: number; redo: number | null; turns: { turn: number; parent: number; seq: number; text: string; ts: string; outcome: string; files: readonly string[]; onBranch: boolean; children: readonly number[] }[] } {
    this.follower.read((r) => this.view.add(r));
    const t = this.treeCtl.tree;
    return {
      head: t.head,
      redo: t.redoTarget,
      turns: [...t.turns.values()].map((x) => ({
        turn: x.turn,
        parent: x.parent,
        seq: x.seq,
        text: x.text,
        ts: x.ts,
        outcome: x.outcome,
        files: x.checkpoint?.files ?? [],
        onBranch: t.onHeadBranch(x.turn),
        children: x.children,
      })),
    };
  }

  /**
   * Starts a new session at the current head: a log whose session.start
   * records forked_from (session, turn, seq), holding a copy of the head's
   * branch (its turns' conversation records, their checkpoints; the copied
   * requests without their digests, which held the old prefix), closed. Returns
   * its id: `nodwyn resume ID` (or chat's /fork) continues it.
   */
  fork(): { session: string; turn: number; copied: number } {
    this.idle("fork");
    this.follower.read((r) => this.view.add(r));
    const tree = this.treeCtl.tree;
    const head = tree.head;
    const path = tree.path(head);
    const branch = new Set(path);
    const renumber = new Map(path.map((t, i) => [t, i + 1]));
    const records = [...readLog(this.writer.file)];
    const start = records[0]?.payload as Record<string, any>;
    const id = newSessionId();
    const dataDir = resolveDataDir(this.o.env ?? process.env);
    const w = createSessionLog(
      id,
      {
        version: VERSION,
        origin: "fork",
        ...(typeof start?.cwd === "string" ? { cwd: start.cwd } : {}),
        repo: this.session.root,
        argv: [],
        ...(typeof start?.strategy === "string" ? { strategy: start.strategy } : {}),
        model: this.o.model.id,
        server: this.o.model.server,
        context: recipeContext(RECIPE_VERSION, this.o.model.contextWindow, this.o.model.maxOutputTokens),
        forked_from: { session: this.id, turn: head, seq: this.writer.lastSeq },
      },
      { dataDir, redactor: this.redactor },
    );
    let copied = 0;
    try {
      const map = new Map<number, number>();
      const keep = new Set(["user.msg", "llm.req", "llm.resp", "tool.call", "tool.result", "turn.end", "checkpoint", "summary", "summary.drop"]);
      w.append("note", { text: `forked from session ${this.id} at turn ${head} (seq ${this.writer.lastSeq}): the conversation of its branch follows, copied; the copied requests keep no digest`, topic: "fork" });
      for (const r of records) {
        const t = tree.turnAt(r.seq);
        if (t === 0 || !branch.has(t) || !keep.has(r.kind) || r.kind === "summary" || r.kind === "summary.drop") continue;
        const p = { ...(r.payload as Record<string, any>) };
        if (r.kind === "llm.req") {
          delete p.recipe;
          delete p.digest;
        }
        // Turns are numbered again in the fork: the branch's k-th turn is its turn k.
        if (typeof p.turn === "number") p.turn = renumber.get(p.turn) ?? p.turn;
        if (typeof p.req_seq === "number") p.req_seq = map.get(p.req_seq) ?? 0;
        if (typeof p.resp_seq === "number") p.resp_seq = map.get(p.resp_seq) ?? 0;
        const a = w.append(r.kind as any, p);
        map.set(r.seq, a.seq);
        copied++;
      }
      w.append("session.model", {
        model: this.o.model.id,
        server: this.o.model.server,
        ...(this.o.model.name !== undefined ? { name: this.o.model.name } : {}),
        ...(this.o.model.url !== undefined ? { url: this.o.model.url } : {}),
        actor: "fork",
        context: recipeContext(RECIPE_VERSION, this.o.model.contextWindow, this.o.model.maxOutputTokens),
      });
      w.append("session.end", { reason: "forked", exit_code: 0 });
    } finally {
      w.close();
    }
    this.treeCtl.shareWith(id);
    this.writer.append("note", { text: `forked into session ${id} at turn ${head}`, topic: "fork", data: { session: id, turn: head } });
    return { session: id, turn: head, copied };
  }

  /**
   * Moves the conversation to another model between turns (chat's /model):
   * session.model with from, model, server, name, url, actor and the window's
   * context sized for it. A resume restores the latest one.
   */
  switchModel(model: ModelChoice, provider: ModelProvider, actor = "person"): number {
    if (this.current !== null) throw new SessionError("the model changes between turns: wait for the turn to end");
    const from = this.o.model.id;
    const context = recipeContext(RECIPE_VERSION, model.contextWindow, model.maxOutputTokens);
    this.o = { ...this.o, model, provider };
    return this.writer.append("session.model", {
      from,
      model: model.id,
      server: model.server,
      ...(model.name !== undefined ? { name: model.name } : {}),
      ...(model.url !== undefined ? { url: model.url } : {}),
      actor,
      context,
    }).seq;
  }

  /** Names the session (session.title; empty takes the name back). */
  setTitle(title: string, actor = "person"): number {
    return this.writer.append("session.title", { actor, title: title.trim() }).seq;
  }

  /** Ends the session: session.end, then the log is unlocked. */
  close(reason = "exit", exitCode = 0): void {
    this.session.close(reason, exitCode);
  }

  private stopTurn(stop: Stop): void {
    const s = this.current;
    if (s === null || s.stop !== null) return;
    s.stop = stop;
    s.controller.abort();
  }

  /** Records turn.checkpoint for a budget a turn reached, and stops the turn. */
  private budgetReached(b: { dimension: BudgetDimension; used: number; limit: number }): void {
    const s = this.current;
    if (s === null || s.stop !== null) return;
    this.writer.append("turn.checkpoint", { dimension: b.dimension, used: b.used, hard: b.limit, state: s.meter.state(), continuation: "stop" });
    this.o.observer?.onCheckpoint?.(b);
    const what: Record<BudgetDimension, string> = {
      model_calls: `${b.limit} model calls`,
      tool_calls: `${b.limit} tool calls`,
      tokens: `${b.limit} tokens`,
      time: `${Math.round(b.limit / 1000)} s`,
      cost: `$${(b.limit / 1e6).toFixed(2)}`,
    };
    this.stopTurn({ kind: "limit", dimension: b.dimension, message: `the turn reached its budget of ${what[b.dimension]}` });
  }

  /** The server, host and model whose prompt-eval baseline a reply counts against. */
  private endpoint(): { server: string; host: string; model: string } {
    const m = this.o.model;
    return { server: m.server, host: endpointHost(m.url ?? this.o.provider.url), model: m.id };
  }

  private track<T>(s: TurnState, p: Promise<T>): Promise<T> {
    s.pending.add(p);
    const done = () => s.pending.delete(p);
    // The evaluation sees a rejection through its own handler; this one only keeps the set.
    p.then(done, done);
    return p;
  }

  private need(who: string): TurnState {
    const s = this.current ?? (this.commanding ? this.commandState() : null);
    if (s === null) hostErr("no-turn", `${who} can only be called during a turn (from the strategy's on-message)`);
    if (s.stop !== null) hostErr("turn-ended", `${who}: the turn has ended; nothing more is recorded in it`);
    return s;
  }

  // ---- StrategyLoop ------------------------------------------------------------------------------

  registerStrategy(name: string, onMessage: Procedure, onCommand: Procedure | null): void {
    this.strategyName = name;
    this.onMessage = onMessage;
    this.onCommand = onCommand;
  }

  setSystemText(text: string): void {
    this.system = this.redactor.redactJSON(text).value;
  }

  systemText(): string {
    return this.system;
  }

  /** What a build needs beyond the log (all of it is recorded in llm.req). */
  private buildParams(additions: readonly Message[]): BuildParams {
    const m = this.o.model;
    return {
      model: m.id,
      system: this.system,
      tools: this.definitions,
      contextWindow: m.contextWindow,
      ...(m.maxOutputTokens !== undefined ? { maxOutputTokens: m.maxOutputTokens } : {}),
      ...(m.temperature !== undefined ? { temperature: m.temperature } : {}),
      ...(additions.length > 0 ? { additions } : {}),
    };
  }

  private build(additions: readonly Message[], who: string): Handle {
    this.follower.read((r) => this.view.add(r));
    let built: Built;
    try {
      built = this.view.build(this.buildParams(additions));
    } catch (e) {
      // A window that cannot fit (window-overflow) is the strategy's to handle, as a host condition.
      if (e instanceof WindowError) hostErr(`window-${e.code}`, `${who}: ${e.message}`);
      throw e;
    }
    return { built, version: this.view.version, additions };
  }

  private register(s: TurnState, h: Handle): RequestInfo {
    const id = this.nextHandle++;
    s.handles.set(id, h);
    return { id, tokens: h.built.tokens, messages: h.built.request.messages.length };
  }

  private handle(s: TurnState, id: number, who: string): Handle {
    const h = s.handles.get(id);
    if (h === undefined) hostErr("stale-request", `${who}: this request belongs to an earlier turn: call (window) again`);
    return h;
  }

  window(): RequestInfo {
    const s = this.need("window");
    return this.register(s, this.build([], "window"));
  }

  append(id: number, role: "user" | "assistant", text: string): RequestInfo {
    const s = this.need("request-append");
    const h = this.handle(s, id, "request-append");
    this.follower.read((r) => this.view.add(r));
    if (this.view.version !== h.version) hostErr("stale-request", "request-append: the log gained a message since this request was built (or the window changed: a summary, a narrowing): call (window) again");
    const msg = this.redactor.redactJSON({ role, content: text } as Message).value;
    return this.register(s, this.build([...h.additions, msg], "request-append"));
  }

  requestMessages(id: number): readonly Message[] {
    const s = this.need("request-messages");
    return this.handle(s, id, "request-messages").built.request.messages;
  }

  async send(id: number): Promise<Record_ | typeof UNSPECIFIED> {
    // Called after a stop, an async primitive must not reject: the evaluation is ending and no one would see it.
    if (this.current?.stop) return UNSPECIFIED;
    const s = this.need("send");
    const h = this.handle(s, id, "send");
    if (s.open.size > 0)
      hostErr("unanswered-calls", `send: the last reply's tool calls ${[...s.open.keys()].join(", ")} have no results yet: answer each with run-tool or skip-tool first`);
    this.follower.read((r) => this.view.add(r));
    if (this.view.version !== h.version) hostErr("stale-request", "send: the log gained a message since this request was built (or the window changed: a summary, a narrowing): call (window) again");
    if (s.stop !== null) return UNSPECIFIED;
    const over = s.meter.beforeModelCall();
    if (over !== null) {
      this.budgetReached(over);
      return UNSPECIFIED;
    }
    return this.track(s, this.sendBuilt(s, h.built));
  }

  private async sendBuilt(s: TurnState, b: Built): Promise<Record_ | typeof UNSPECIFIED> {
    const m = this.o.model;
    const req = this.writer.append("llm.req", {
      model: m.id,
      server: m.server,
      tools: b.request.tools as any,
      params: b.params,
      recipe: b.recipe as any,
      digest: b.digest,
      turn: s.no,
    });
    s.meter.modelCalls++;
    this.o.observer?.onRequest?.({ seq: req.seq, tokens: b.tokens });
    let resp: ModelResponse;
    try {
      resp = await this.o.provider.complete(b.request, {
        signal: s.controller.signal,
        onEvent: (ev) => this.o.observer?.onStream?.(ev),
      });
    } catch (e) {
      const message = e instanceof ModelError ? e.message : `the model call failed: ${(e as Error)?.message ?? e}`;
      const stopped = s.stop !== null;
      this.writer.append("llm.resp", { req_seq: req.seq, model: m.id, error: stopped && s.stop?.kind === "cancelled" ? "cancelled" : message });
      if (stopped) return UNSPECIFIED;
      hostErr("model-error", `send: ${message}`);
    }
    const usage = usageRecord(resp.usage, {
      ...(m.prices ? { prices: m.prices } : {}),
      estimator: this.estimator,
      endpoint: this.endpoint(),
    });
    const calls = resp.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments }));
    const rec = this.writer.append("llm.resp", {
      req_seq: req.seq,
      model: resp.model ?? m.id,
      text: resp.text,
      ...(resp.reasoning ? { thinking: resp.reasoning } : {}),
      ...(calls.length > 0 ? { tool_calls: calls } : {}),
      stop_reason: resp.stopReason,
      usage: usage as any,
    });
    this.replyFacts.set(rec.seq, { outputTokens: resp.usage.outputTokens, truncated: resp.stopReason === "max_tokens" });
    if (this.replyFacts.size > 64) this.replyFacts.delete(this.replyFacts.keys().next().value as number);
    const meter = s.meter;
    if (resp.usage.unreported) meter.unreported++;
    meter.inputTokens += resp.usage.inputTokens;
    meter.outputTokens += resp.usage.outputTokens;
    meter.cachedTokens += resp.usage.cachedTokens ?? usage.estimated_cached_tokens ?? 0;
    if (usage.cost !== undefined) {
      meter.cost += usage.cost;
      meter.priced++;
    } else meter.unpriced++;
    s.lastText = resp.text;
    s.open = new Map(calls.map((c) => [c.id, { ...c, respSeq: rec.seq }]));
    this.o.observer?.onResponse?.({
      seq: rec.seq,
      text: resp.text,
      toolCalls: calls,
      inputTokens: resp.usage.inputTokens,
      outputTokens: resp.usage.outputTokens,
      ...(usage.cost !== undefined ? { cost: usage.cost } : {}),
    });
    const over = meter.afterReply();
    if (over !== null) this.budgetReached(over);
    if (s.stop !== null) return UNSPECIFIED;
    return {
      seq: rec.seq,
      text: resp.text,
      "tool-calls": calls,
      stop: resp.stopReason,
      "input-tokens": resp.usage.inputTokens,
      "output-tokens": resp.usage.outputTokens,
      ...(usage.cost !== undefined ? { cost: usage.cost } : {}),
    };
  }

  async runTool(callId: string): Promise<Record_ | typeof UNSPECIFIED> {
    if (this.current?.stop) return UNSPECIFIED;
    const s = this.need("run-tool");
    const call = s.open.get(callId);
    if (call === undefined) hostErr("unknown-call", `run-tool: ${JSON.stringify(callId)} is not an unanswered tool call of the last reply`);
    if (s.stop !== null) return UNSPECIFIED;
    const over = s.meter.beforeToolCall() ?? (s.meter.elapsedMs >= this.budgets.wallMs ? { dimension: "time" as const, used: s.meter.elapsedMs, limit: this.budgets.wallMs } : null);
    if (over !== null) {
      this.budgetReached(over);
      return UNSPECIFIED;
    }
    s.open.delete(callId);
    return this.track(s, this.runCall(s, call));
  }

  private async runCall(s: TurnState, call: ToolCall & { respSeq: number }): Promise<Record_> {
    const parsed = parseToolArguments(call.arguments);
    this.writer.append("tool.call", { call_id: call.id, tool: call.name, args: parsed.ok ? (parsed.value as any) : call.arguments, resp_seq: call.respSeq });
    s.meter.toolCalls++;
    this.o.observer?.onToolStart?.({ id: call.id, name: call.name, arguments: call.arguments });
    const t0 = performance.now();
    let r: { ok: boolean; output?: string; error?: string; truncated?: boolean };
    const tool = this.tools.find((t) => t.definition.name === call.name);
    if (!parsed.ok) r = { ok: false, error: parsed.error };
    else if (tool === undefined && this.strategyTools.has(call.name)) r = { ok: false, error: `${call.name} is answered by the strategy (answer-tool), not run` };
    else if (tool === undefined) r = { ok: false, error: `there is no tool ${JSON.stringify(call.name)}; the tools are ${this.tools.map((t) => t.definition.name).join(", ")}` };
    else {
      if (call.name === "fs-read" && typeof parsed.value.path === "string") s.meter.files.push(parsed.value.path);
      if (call.name === "shell-exec" && typeof parsed.value.command === "string") s.meter.commands.push(parsed.value.command);
      try {
        r = await tool.run(parsed.value, { signal: s.controller.signal });
      } catch (e) {
        r = { ok: false, error: `${call.name} failed: ${(e as Error)?.message ?? e}` };
      }
    }
    const ms = Math.round(performance.now() - t0);
    return this.answer(call.id, call.name, r.ok, r.output, r.error, ms, r.truncated, call.arguments);
  }

  /** Records one tool.result and returns what run-tool gives the strategy. */
  private answer(id: string, tool: string, ok: boolean, output: string | undefined, error: string | undefined, ms: number, truncated?: boolean, args = ""): Record_ {
    const rec = this.writer.append("tool.result", {
      call_id: id,
      tool,
      ok,
      ...(output !== undefined ? { output } : {}),
      ...(error !== undefined ? { error } : {}),
      duration_ms: ms,
      ...(truncated ? { truncated: true } : {}),
    });
    const chars = (output?.length ?? 0) + (error?.length ?? 0);
    this.o.observer?.onToolEnd?.({ id, name: tool, arguments: args, ok, chars, durationMs: ms, ...(error !== undefined ? { error } : {}) });
    return { seq: rec.seq, "call-id": id, tool, ok, output: output ?? "", chars, "duration-ms": ms, ...(error !== undefined ? { error } : {}) };
  }

  skipTool(callId: string, reason: string): Record_ {
    const s = this.need("skip-tool");
    const call = s.open.get(callId);
    if (call === undefined) hostErr("unknown-call", `skip-tool: ${JSON.stringify(callId)} is not an unanswered tool call of the last reply`);
    s.open.delete(callId);
    return this.answer(call.id, call.name, false, undefined, reason, 0, false, call.arguments);
  }

  note(text: string, topic: string | null): number {
    if (this.current !== null) this.need("record-note");
    return this.writer.append("note", { text, topic: topic ?? "strategy" }).seq;
  }

  endTurn(outcome: "done" | "failed", message: string | null): void {
    this.need("end-turn");
    this.stopTurn({ kind: "ended", outcome, message });
  }

  budget(): Record_ {
    const s = this.need("turn-budget");
    const m = s.meter;
    const b = this.budgets;
    return {
      "model-calls": m.modelCalls,
      "max-model-calls": b.modelCalls,
      "tool-calls": m.toolCalls,
      "max-tool-calls": b.toolCalls,
      tokens: m.tokens,
      "max-tokens": b.tokens,
      "elapsed-ms": m.elapsedMs,
      "max-ms": b.wallMs,
      cost: m.cost,
      "max-cost": b.spendUsd,
    };
  }

  info(): Record_ {
    return {
      session: this.id,
      root: this.session.root,
      model: this.o.model.id,
      server: this.o.model.server,
      "context-window": this.o.model.contextWindow,
      "compact-threshold": this.o.compactThreshold ?? false,
      "context-source": this.o.model.contextSource ?? "config",
      "context-known": (this.o.model.contextSource ?? "config") !== "unknown",
      tools: this.definitions.map((d) => d.name),
      strategy: this.o.strategyFile ?? DEFAULT_STRATEGY,
      turn: this.turnNo,
      interactive: this.o.askApproval !== null,
    };
  }

  // ---- the window's state and narrowing (window-v2) ------------------------------------------------

  private v2(who: string) {
    const w = this.view.v2;
    if (w === null) hostErr("no-window-v2", `${who} needs window-v2; this session's window is ${this.view.recipe}`);
    if (this.current !== null) this.need(who);
    this.follower.read((r) => this.view.add(r));
    return w;
  }

  narrow(o: NarrowRequest): number {
    const who = "context-narrow";
    const w = this.v2(who);
    if (o.reason.trim() === "") hostErr("bad-narrow", `${who}: give the reason (e.g. "compact" or "evict")`);
    if (o.note === undefined && o.respSeq === undefined) hostErr("bad-narrow", `${who}: give the note the narrowed window starts from, or :resp-seq, the reply that is the note`);
    if (o.respSeq !== undefined) {
      const k = w.kindAt(o.respSeq);
      if (k !== "llm.resp") hostErr("bad-narrow", `${who}: :resp-seq ${o.respSeq} is ${k === undefined ? "not in the log" : `${article(k)} ${k} record`}, not a reply (llm.resp)`);
    }
    const last = this.writer.lastSeq;
    if (o.from !== undefined && (o.from < 1 || o.from > last + 1)) hostErr("bad-narrow", `${who}: :from ${o.from} is not a seq of this log (1 to ${last + 1})`);
    return this.writer.append("context.narrow", {
      reason: o.reason,
      ...(o.note !== undefined ? { note: o.note } : {}),
      ...(o.respSeq !== undefined ? { resp_seq: o.respSeq } : {}),
      ...(o.label !== undefined ? { label: o.label } : {}),
      ...(o.lasting ? { lasting: true } : {}),
      ...(o.from !== undefined ? { from: o.from } : {}),
    }).seq;
  }

  // ---- the eviction strategy's stub (eviction.ts, seed 001 "Stub") ------------------------------------

  private cellBook: CellBook | null = null;

  private cells(): CellBook {
    if (this.cellBook === null) this.cellBook = new CellBook(new LogFollower(this.writer.file, this.writer.session));
    this.cellBook.sync();
    return this.cellBook;
  }

  /** What the eviction in force covers (the label of the current context's eviction narrowing); empty before any. */
  evictionState(): EvictionState {
    const top = this.v2("eviction-state").contexts().at(-1);
    return parseStateLabel(top?.label) ?? { turns: null, rounds: null };
  }

  /** The stub text of an eviction state, in seed 001's formats. */
  evictionStub(st: EvictionState): string {
    return stubText(this.cells(), { ...(st.turns ? { turns: st.turns } : {}), ...(st.rounds ? { rounds: st.rounds } : {}) });
  }

  /**
   * Records an eviction: context.narrow (reason evict, lasting) whose note is
   * the stub of st and whose window starts at from. The boundary only moves
   * forward: a from before the current context's is refused.
   */
  recordEviction(from: number, st: EvictionState): number {
    const who = "record-eviction";
    const w = this.v2(who);
    const top = w.contexts().at(-1);
    if (top !== undefined && from < top.from) hostErr("bad-eviction", `${who}: :from ${from} is before the window's first seq ${top.from}: evicted history never comes back`);
    if (st.turns === null && st.rounds === null) hostErr("bad-eviction", `${who}: give the evicted turns (:turns-from :turns-through :turns) or rounds (:rounds-from :rounds-through :rounds :rounds-user)`);
    for (const part of [st.turns, st.rounds])
      if (part !== null && (part.from < 1 || part.through < part.from || part.through >= from || part.count < 1))
        hostErr("bad-eviction", `${who}: the evicted seqs ${part.from}–${part.through} (${part.count}) must be a span before :from ${from}, with a count of at least 1`);
    return this.narrow({ reason: "evict", note: this.evictionStub(st), from, lasting: true, label: stateLabel(st) });
  }

  fold(reason: string | null): number {
    const who = "context-fold";
    const w = this.v2(who);
    const top = w.contexts().at(-1);
    if (top === undefined || top.pushedBy === 0) hostErr("no-context", `${who}: no sub-context is open (only a context-narrow without :lasting opens one)`);
    return this.writer.append("context.fold", { narrow_seq: top.pushedBy, ...(reason !== null ? { reason } : {}) }).seq;
  }

  windowInfo(id: number | null): Record_ {
    const w = this.v2("window-info");
    let additions: readonly Message[] = [];
    if (id !== null) {
      const s = this.need("window-info");
      additions = this.handle(s, id, "window-info").additions;
    }
    const params = this.buildParams(additions);
    const m = this.o.model;
    const reserve = reserveOf(m.contextWindow, m.maxOutputTokens);
    // reserve and budget are known even when the window does not fit (an eviction needs them then most).
    const out: Record<string, unknown> = { recipe: this.view.recipe, "context-window": m.contextWindow, reserve, budget: m.contextWindow - reserve };
    let shownSummaries: readonly number[] = [];
    try {
      const b = this.view.build(params);
      const st = w.shownState(params);
      shownSummaries = st.summaries;
      Object.assign(out, {
        reserve: b.recipe.reserve,
        budget: m.contextWindow - b.recipe.reserve,
        tokens: b.tokens,
        messages: b.request.messages.length,
        elided: st.elided,
        collapsed: st.collapsed,
      });
    } catch (e) {
      if (!(e instanceof WindowError)) throw e;
      out.overflow = e.message;
    }
    out.summaries = w.summaries().map(({ entry, status }) => ({ seq: entry.seq, from: entry.from, through: entry.through, status, shown: shownSummaries.includes(entry.seq) }));
    out.contexts = w.contexts().map((c) => ({ narrow: c.narrowSeq, pushed: c.pushedBy !== 0, lasting: c.lasting, from: c.from, ...(c.label !== undefined ? { label: c.label } : {}) }));
    return out;
  }

  // ---- compaction (issue 16, compact.scm) --------------------------------------------------------------

  offerTool(def: ToolDefinition): void {
    const who = "offer-tool";
    if (!this.loading) hostErr("not-loading", `${who}: a strategy offers its tools while its program loads, before the first request`);
    if (this.definitions.some((d) => d.name === def.name)) hostErr("bad-tool", `${who}: a tool named ${def.name} is already offered`);
    this.strategyTools.add(def.name);
    this.definitions = [...this.definitions, this.redactor.redactJSON(def).value];
  }

  answerTool(callId: string, text: string): Record_ {
    const s = this.need("answer-tool");
    const call = s.open.get(callId);
    if (call === undefined) hostErr("unknown-call", `answer-tool: ${JSON.stringify(callId)} is not an unanswered tool call of the last reply`);
    if (!this.strategyTools.has(call.name)) hostErr("not-a-strategy-tool", `answer-tool: ${call.name} is not a tool the strategy offered (offer-tool): run it with run-tool`);
    s.open.delete(callId);
    this.writer.append("tool.call", { call_id: call.id, tool: call.name, args: (parseToolArguments(call.arguments) as any).value ?? call.arguments, resp_seq: call.respSeq });
    s.meter.toolCalls++;
    return this.answer(call.id, call.name, true, text, undefined, 0, false, call.arguments);
  }

  estimateTokens(text: string): number {
    return textTokensV2(text);
  }

  recordCompaction(o: CompactionRequest): Record_ {
    const who = "record-compaction";
    const w = this.v2(who);
    this.need(who);
    if (o.trigger === "auto" && o.threshold === undefined) hostErr("bad-compaction", `${who}: an automatic compaction records the threshold it passed (:threshold n)`);
    let facts: { outputTokens: number; truncated: boolean } | undefined;
    if (o.noteSeq !== undefined) {
      const k = w.kindAt(o.noteSeq);
      if (k !== "llm.resp") hostErr("bad-compaction", `${who}: :note ${o.noteSeq} is ${k === undefined ? "not in the log" : `${article(k)} ${k} record`}, not the note's reply (llm.resp)`);
      facts = this.replyFacts.get(o.noteSeq);
      if (facts === undefined) hostErr("bad-compaction", `${who}: :note ${o.noteSeq} is not a reply of this session's recent requests`);
    }
    let narrowSeq: number | null = null;
    let after: number | null = null;
    if (o.compacted) {
      if (o.noteSeq === undefined) hostErr("bad-compaction", `${who}: a compaction narrows the window to its handover note: give :note, the note reply's seq`);
      narrowSeq = this.narrow({ reason: "compact", respSeq: o.noteSeq, lasting: true, ...(o.focus !== undefined ? { label: `compact: ${o.focus}` } : {}) });
      this.follower.read((r) => this.view.add(r));
      try {
        after = this.view.build(this.buildParams([])).tokens;
      } catch (e) {
        if (!(e instanceof WindowError)) throw e;
        after = null;
      }
    } else if (o.noteSeq !== undefined) {
      // A compaction that gives up hides its note (and the calls it was answered) from later windows: nothing else may come between.
      for (let s = o.noteSeq + 1; s <= this.writer.lastSeq; s++) {
        const k = w.kindAt(s);
        if (k === "user.msg" || k === "llm.resp") hostErr("bad-compaction", `${who}: the log gained ${article(k)} ${k} (seq ${s}) after the note ${o.noteSeq}: record a compaction that gives up right after its note`);
      }
    }
    const rec = this.writer.append("context.compact", {
      trigger: o.trigger,
      compacted: o.compacted,
      before_tokens: o.before,
      ...(after !== null ? { after_tokens: after } : {}),
      ...(o.threshold !== undefined ? { threshold: o.threshold } : {}),
      ...(o.focus !== undefined ? { focus: o.focus } : {}),
      ...(o.noteSeq !== undefined ? { note_resp_seq: o.noteSeq, note_output_tokens: facts!.outputTokens, note_truncated: facts!.truncated } : {}),
    });
    return { seq: rec.seq, narrow: narrowSeq ?? false, "after-tokens": after ?? false };
  }

  windowUnits(): Record_[] {
    return this.v2("window-units")
      .units()
      .map((u) => ({ ...u, rounds: u.rounds.map((r) => ({ ...r })) }));
  }

  // ---- fs-write and fs-edit's host side ------------------------------------------------------------

  /** guard.decision for a write (op "write"). */
  private logWrite(path: string, decision: "allow" | "deny", rule: string, reason?: string): void {
    this.writer.append("guard.decision", { path, op: "write", decision, rule, actor: "model", ...(reason !== undefined ? { reason } : {}) });
  }

  /** The write rules, then the person's approval, then the checkpoint, then the atomic write (host/guard/write.ts). */
  private async writeFile(path: string, text: string, w: { readonly tool: string; readonly detail: string }): Promise<WriteReport | { refused: string; code: string }> {
    const guard = this.session.guard;
    let t: WriteTarget;
    try {
      t = checkWrite(guard, path);
    } catch (e) {
      if (!(e instanceof WriteDeniedError)) throw e;
      this.logWrite(e.path, "deny", e.rule, e.reason);
      return { refused: e.message, code: "guard-denied" };
    }
    const d = await this.approvals.decideWrite(t.rel, w.detail);
    if (!d.allowed) return { refused: `${t.rel} was not written: ${d.reason ?? "it was not approved"}`, code: "not-approved" };
    await this.beforeChange();
    let out;
    try {
      out = writeGuarded(guard, t.rel, Buffer.from(text, "utf8"), { actor: "model", ...(this.o.beforeWrite ? { beforeWrite: this.o.beforeWrite } : {}) });
    } catch (e) {
      if (!(e instanceof WriteDeniedError)) throw e;
      this.logWrite(e.path, "deny", e.rule, e.reason);
      return { refused: e.message, code: "guard-denied" };
    }
    this.logWrite(out.rel, "allow", "default");
    return { path: out.rel, bytes: out.bytes, created: out.created };
  }

  /** Before a turn first changes the working tree (a write, a command): the checkpoint is captured. */
  private async beforeChange(): Promise<void> {
    const s = this.current;
    if (s !== null) this.treeCtl.beforeChange(s.no);
  }

  // ---- the session tree for a strategy (strategy-api.ts) -------------------------------------------

  private treeErr(e: unknown): never {
    if (e instanceof TreeError) hostErr(e.code, e.message);
    throw e;
  }

  treeInfo(): Record_ {
    const t = this.checkpoints();
    return {
      head: t.head,
      redo: t.redo ?? false,
      turns: t.turns.map((x) => ({ turn: x.turn, parent: x.parent, seq: x.seq, text: x.text, ts: x.ts, outcome: x.outcome, files: [...x.files], "on-branch": x.onBranch, children: [...x.children] })),
    };
  }

  async moveHead(how: "undo" | "redo" | number, keepFiles: boolean): Promise<Record_> {
    const who = typeof how === "number" ? "rewind-to" : how;
    let m: MoveResult;
    try {
      const o = { keepFiles, actor: "strategy" };
      m = how === "undo" ? await this.undo(o) : how === "redo" ? await this.redo(o) : await this.moveTo(how, o);
    } catch (e) {
      if (e instanceof TreeError) hostErr(e.code, `${who}: ${e.message}`);
      throw e;
    }
    return { from: m.from, to: m.to, files: m.files, restored: [...m.restored], kept: [...m.kept], seq: m.seq };
  }

  forkSession(): Record_ {
    try {
      return { ...this.fork() };
    } catch (e) {
      this.treeErr(e);
    }
  }

  // ---- shell-exec's host side -------------------------------------------------------------------

  private async runCommand(command: string, opts: { readonly timeoutMs: number; readonly signal?: AbortSignal }) {
    const decision = await this.approvals.decide(command);
    if (!decision.allowed) return { refused: decision.reason ?? "it was not approved" };
    // A command may change any file: the tree is captured before it runs (once per turn).
    await this.beforeChange();
    this.shellEnv ??= scrubEnv(
      this.o.env ?? process.env,
      this.secrets,
      (v) => v.length >= 8 && this.redactor.redactText(v).text !== v,
    ).env;
    return runShell(command, { cwd: this.session.root, env: this.shellEnv, timeoutMs: opts.timeoutMs, ...(opts.signal ? { signal: opts.signal } : {}) });
  }
}

/**
 * The session's credentials, each once (by class and id): those the options
 * list, then the provider's own. Each with the values to register: the one
 * given, else for "env:NAME" the variable's in the session's environment and
 * in the process's (the provider may have read either), as set and trimmed.
 */
function sessionCredentials(o: AgentOptions): { class: string; id: string; values: string[] }[] {
  const out: { class: string; id: string; values: string[] }[] = [];
  const all: Credential[] = [...(o.credentials ?? []), ...(o.provider.credential ? [o.provider.credential] : [])];
  for (const c of all) {
    let entry = out.find((x) => x.class === c.class && x.id === c.id);
    if (entry === undefined) out.push((entry = { class: c.class, id: c.id, values: [] }));
    const found: (string | undefined)[] = [c.value];
    if (c.value === undefined && c.id.startsWith("env:")) {
      const name = c.id.slice("env:".length);
      found.push(o.env?.[name], process.env[name]);
    }
    for (const raw of found) {
      if (raw === undefined) continue;
      for (const v of [raw, raw.trim()]) if (v.length >= MIN_SECRET_LENGTH && !entry.values.includes(v)) entry.values.push(v);
    }
  }
  return out;
}

/** Raises a `host` condition the strategy can catch, from the primitive that called. */
function hostErr(code: string, message: string): never {
  hostError(code, message);
}
