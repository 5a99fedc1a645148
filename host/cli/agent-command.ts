// `nodwyn chat`, `nodwyn ask` and `nodwyn resume`: an agent session from the command line (declared in commands/).
//
// Exit codes of ask (and of chat and resume when they cannot start):
//   0 the turn ended done · 1 it failed, or the session could not start (configuration, strategy, model)
//   2 a usage error · 3 a budget ended it (limit) · 4 the spend budget ended it (spend_limit) · 130 cancelled (Ctrl-C)

import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { ConfigError, loadConfig, selectModel, type Config, type ModelChoice as ConfigChoice } from "../config/index.js";
import { createProvider, ModelError, type ModelProvider } from "../model/index.js";
import { LogError, readLog, type LogRecord } from "../log/index.js";
import { Redactor } from "../redact/index.js";
import { killRunningShells } from "../shell/index.js";
import { AgentSession, DEFAULT_STRATEGY, type AgentOptions, type TurnOutcome } from "../session/agent.js";
import { STDLIB_DIR } from "../session/node-interpreter.js";
import { SessionError } from "../session/session.js";
import type { TurnBudgets } from "../session/budgets.js";
import { chatInput } from "./chat-input.js";
import { sessionArg } from "./session-arg.js";
import { UsageError, flag, optionValue, optionValues, type Invocation } from "./command.js";
import { ChatView, askGuardOnInput, askOnInput, runChat, useColor } from "./chat.js";

/** What the agent commands read from the invocation (commands/chat.ts, ask.ts, resume.ts declare the options). */
interface Parsed {
  model?: string;
  strategy?: string;
  root?: string;
  libs: string[];
  budgets: { -readonly [K in keyof TurnBudgets]?: TurnBudgets[K] };
  evalLimits: { steps?: number; timeoutMs?: number; memoryBytes?: number };
  json: boolean;
  color: boolean | undefined;
  words: string[];
}

/** ask's exit code for each outcome. */
export const EXIT_CODES: Readonly<Record<TurnOutcome, number>> = { done: 0, failed: 1, limit: 3, spend_limit: 4, cancelled: 130 };

function parse(cmd: "chat" | "ask" | "resume", inv: Invocation): Parsed {
  const num = (name: string) => {
    const v = optionValue(inv, name);
    return v === undefined ? undefined : Number(v);
  };
  const p: Parsed = { libs: [...optionValues(inv, "--lib-dir")], budgets: {}, evalLimits: {}, json: flag(inv, "--json"), color: flag(inv, "--no-color") ? false : flag(inv, "--color") ? true : undefined, words: [...inv.args, ...inv.rest] };
  const model = optionValue(inv, "--model");
  if (model !== undefined) p.model = model;
  const strategy = optionValue(inv, "--strategy");
  if (strategy !== undefined) p.strategy = strategy;
  const root = optionValue(inv, "--root");
  if (root !== undefined) p.root = root;
  const set = <K extends keyof Parsed["budgets"]>(k: K, v: number | undefined) => {
    if (v !== undefined) p.budgets[k] = v;
  };
  set("modelCalls", num("--max-model-calls"));
  set("toolCalls", num("--max-tool-calls"));
  set("tokens", num("--max-tokens"));
  const secs = num("--max-seconds");
  if (secs !== undefined) p.budgets.wallMs = secs * 1000;
  set("spendUsd", num("--max-spend"));
  const steps = num("--steps");
  if (steps !== undefined) p.evalLimits.steps = steps;
  const timeout = num("--timeout");
  if (timeout !== undefined) p.evalLimits.timeoutMs = timeout;
  const memory = num("--memory");
  if (memory !== undefined) p.evalLimits.memoryBytes = memory * 1024 * 1024;
  return p;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of stream) parts.push(typeof c === "string" ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(parts).toString("utf8");
}

/** What the session.model and session.start records of a log say its model and strategy were. */
function recordedChoice(records: Iterable<LogRecord>): { name?: string; model?: string; strategy?: string } {
  const out: { name?: string; model?: string; strategy?: string } = {};
  for (const r of records) {
    const p = r.payload as Record<string, unknown>;
    if (r.kind === "session.model") {
      if (typeof p.name === "string") out.name = p.name;
      else delete out.name;
      if (typeof p.model === "string") out.model = p.model;
    } else if ((r.kind === "session.start" || r.kind === "session.resume") && typeof p.strategy === "string") out.strategy = p.strategy;
  }
  return out;
}

/**
 * The strategy --strategy names: a file, else (for a bare name with no such
 * file, like `evict`) the strategy of that name nodwyn ships,
 * stdlib/strategies/NAME.scm.
 */
export function strategyPath(cwd: string, given: string): string {
  const file = resolve(cwd, given);
  if (existsSync(file) || !/^[a-z][a-z0-9-]*$/.test(given)) return file;
  const shipped = join(STDLIB_DIR, "strategies", `${given}.scm`);
  return existsSync(shipped) ? shipped : file;
}

/** The context window as the chat's first line says it: its size, or that no source knows it. */
function contextWords(c: ConfigChoice): string {
  return c.contextSource === "unknown" ? `context unknown: /context says how to give it; sized at ${c.contextWindow.toLocaleString("en-US")} tokens meanwhile` : `context ${c.contextWindow.toLocaleString("en-US")} tokens`;
}

/** The model options of an agent session from a configured choice. */
function modelOf(choice: ConfigChoice): AgentOptions["model"] {
  return {
    id: choice.model,
    server: choice.server,
    name: choice.name,
    url: choice.url,
    contextWindow: choice.contextWindow,
    contextSource: choice.contextSource,
    ...(choice.maxOutputTokens !== undefined ? { maxOutputTokens: choice.maxOutputTokens } : {}),
    ...(choice.prices ? { prices: choice.prices } : {}),
  };
}

/** Runs `nodwyn chat|ask|resume …`; returns the exit code. Errors are one paragraph on stderr, never a stack trace. */
export async function runAgentCommand(cmd: "chat" | "ask" | "resume", inv: Invocation): Promise<number> {
  const p = parse(cmd, inv);
  const io = {
    stdin: inv.io.stdin as NodeJS.ReadableStream & { isTTY?: boolean },
    stdout: inv.io.stdout as NodeJS.WritableStream & { isTTY?: boolean },
    stderr: inv.io.stderr as NodeJS.WritableStream & { isTTY?: boolean },
    env: inv.io.env,
    cwd: inv.io.cwd,
    argv: [...inv.argv],
  };
  const fail = (message: string): number => {
    io.stderr.write(`nodwyn ${cmd}: ${message.endsWith("\n") ? message : message + "\n"}`);
    return 1;
  };
  let agent: AgentSession | null = null;
  try {
    const config: Config = loadConfig({ env: io.env });
    // A resume talks to the model the session last talked to, while the configuration still has it.
    let flag = p.model;
    const notes: string[] = [];
    let strategyFile = p.strategy !== undefined ? strategyPath(io.cwd, p.strategy) : undefined;
    let resumeId: string | undefined;
    if (cmd === "resume") {
      const arg = sessionArg(p.words[0] as string, inv, { paths: false });
      resumeId = arg.session;
      const file = arg.file;
      if (!existsSync(file)) return fail(`no session ${resumeId} in ${arg.dataDir} (nodwyn log list shows them)`);
      const rec = recordedChoice(readLog(file));
      if (flag === undefined && rec.name !== undefined) {
        try {
          selectModel(config, { flag: rec.name, env: io.env, cwd: io.cwd });
          flag = rec.name;
        } catch (e) {
          if (!(e instanceof ConfigError)) throw e;
          notes.push(`the session's model ${rec.name} is not in the configuration any more (${e.message.split("\n")[0]}); it talks to the configured default now`);
        }
      }
      if (strategyFile === undefined && rec.strategy !== undefined && existsSync(rec.strategy)) strategyFile = rec.strategy;
    }
    const choice = selectModel(config, { ...(flag !== undefined ? { flag } : {}), env: io.env, cwd: io.cwd });
    for (const problem of choice.contextProblems ?? []) notes.push(problem);
    const redactor = new Redactor();
    const provider: ModelProvider = createProvider(choice.spec, { redactor, env: io.env });
    const view = cmd === "ask" ? new ChatView(io.stderr, useColor(io.stderr, io.env, p.color)) : new ChatView(io.stdout, useColor(io.stdout, io.env, p.color));
    const input = cmd === "ask" ? null : chatInput(io.stdin, io.stdout, io.env);
    const quietAsk = cmd === "ask" && io.stderr.isTTY !== true;
    const openOpts: AgentOptions = {
      origin: cmd,
      cwd: io.cwd,
      ...(p.root ? { root: resolve(io.cwd, p.root) } : {}),
      env: io.env,
      argv: io.argv,
      provider,
      model: modelOf(choice),
      modelChosenBy: choice.source === "flag" ? "person" : choice.source === "env" ? "env" : "config",
      ...(strategyFile !== undefined ? { strategyFile } : {}),
      budgets: {
        modelCalls: config.budget.modelCalls,
        toolCalls: config.budget.toolCalls,
        tokens: config.budget.tokens,
        wallMs: config.budget.wallMs,
        spendUsd: config.budget.spend,
        ...p.budgets,
      },
      ...(config.compactThreshold !== undefined ? { compactThreshold: config.compactThreshold } : {}),
      shellAllow: config.shell.allow,
      shellTimeoutMs: config.shell.timeoutMs,
      askApproval: input !== null && input.interactive ? askOnInput(input, view) : null,
      ...(input !== null && input.interactive ? { askGuard: askGuardOnInput(input, view) } : {}),
      // ask shows its progress on stderr at a terminal; piped, it prints only the answer.
      ...(quietAsk ? {} : { observer: cmd === "ask" ? { onToolStart: (c) => view.onToolStart(c), onToolEnd: (r) => view.onToolEnd(r), onCheckpoint: (b) => view.onCheckpoint(b) } : view }),
      // One redactor for the provider and the log (the session registers the provider's key with it too).
      redactor,
      libraryPaths: p.libs,
      evalLimits: p.evalLimits,
      ...(resumeId !== undefined ? { resume: resumeId, notes } : {}),
    };
    agent = await AgentSession.open(openOpts);
    // The session the chat talks in: /fork moves it to the fork.
    let live: AgentSession = agent;
    let liveProvider = provider;
    // Leaving early (a closed stdout, SIGTERM, a hang-up) closes the log with its session.end; SIGINT cancels a running turn.
    inv.onExit((reason, code) => live.close(reason, code));
    const onSignal = (sig: NodeJS.Signals) => {
      // A command the model started would outlive the process in its own group.
      killRunningShells();
      // SIGTERM ends the session as the batch commands do (reason "interrupted", host/cli/signals.ts).
      live.close(sig === "SIGTERM" ? "interrupted" : `signal ${sig}`, sig === "SIGTERM" ? 143 : 129);
      process.exit(sig === "SIGTERM" ? 143 : 129);
    };
    process.once("SIGTERM", onSignal);
    process.once("SIGHUP", onSignal);
    const offSignals = () => {
      process.off("SIGTERM", onSignal);
      process.off("SIGHUP", onSignal);
    };
    if (cmd === "ask") {
      const fromStdin = !(p.words.length > 0 && !(p.words.length === 1 && p.words[0] === "-"));
      if (fromStdin && io.stdin.isTTY === true) io.stderr.write("nodwyn ask: type the message, then Ctrl-D on an empty line\n");
      const message = fromStdin ? await readAll(io.stdin) : p.words.join(" ");
      if (message.trim() === "") {
        agent.close("no message", 2);
        agent = null;
        throw new UsageError("no message: give it as arguments or on standard input", 'e.g. nodwyn ask "where is the config read?"');
      }
      const ac = new AbortController();
      const onInt = () => ac.abort();
      process.on("SIGINT", onInt);
      const r = await agent.turn(message, { signal: ac.signal });
      process.off("SIGINT", onInt);
      if (p.json) {
        for (const x of readLog(agent.writer.file)) if (x.seq >= r.firstSeq && x.seq <= r.endSeq) io.stdout.write(JSON.stringify(x) + "\n");
      } else if (r.text) io.stdout.write(r.text.endsWith("\n") ? r.text : r.text + "\n");
      if (r.outcome !== "done") io.stderr.write(`nodwyn ask: the turn ended ${r.outcome}${r.error ? `: ${r.error}` : ""}\n`);
      else if (!quietAsk) view.footer(agent, r);
      const code = EXIT_CODES[r.outcome];
      agent.close(r.outcome, code);
      agent = null;
      offSignals();
      return code;
    }
    const person = input!;
    const intro = cmd === "resume" ? `resumed ${agent.id} (${agent.turns} turn${agent.turns === 1 ? "" : "s"})` : `session ${agent.id}`;
    io.stdout.write(
      `nodwyn chat — ${choice.model} on ${choice.server} (${contextWords(choice)}) · strategy ${agent.strategy || DEFAULT_STRATEGY} · ${intro}\n` +
        "Ctrl-C cancels a turn, Ctrl-D ends the session, /help for more.\n",
    );
    for (const n of notes) io.stdout.write(`note: ${n}\n`);
    const code = await runChat(agent, person, view, io.stdout, {
      switchTo: async (id) => {
        live.close("forked", 0);
        const { resume: _r, notes: _n, ...rest } = openOpts;
        void _r, void _n;
        live = await AgentSession.open({ ...rest, model: live.model, provider: liveProvider, origin: "chat", resume: id });
        agent = live;
        return live;
      },
      switchModel: async (name) => {
        const next = selectModel(config, { flag: name, env: io.env, cwd: io.cwd });
        const prov = createProvider(next.spec, { redactor, env: io.env });
        live.switchModel(modelOf(next), prov, "person");
        liveProvider = prov;
        if (prov.credential) live.writer.append("cred.register", { class: prov.credential.class, id: prov.credential.id });
        return `from the next turn the session talks to ${next.model} on ${next.server} (${contextWords(next)})`;
      },
    }, io.env);
    person.close();
    live.close("eof", code);
    agent = null;
    offSignals();
    return code;
  } catch (e) {
    if (agent !== null) agent.close("error", 1);
    if (e instanceof LogError && e.code === "LOG_LOCKED" && cmd === "resume")
      return fail(`${e.message}: another nodwyn (a chat, an ask or a resume) has this session open; end it there first (Ctrl-D), then resume`);
    if (e instanceof ConfigError || e instanceof ModelError || e instanceof SessionError || e instanceof LogError) return fail(e.message);
    throw e;
  }
}
