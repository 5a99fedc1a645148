// `nodwyn log`: list, show, verify, tail and prune session logs (no interpreter involved).

import { readdirSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { UsageError, flag, optionValue, optionValues, positiveInteger, type Command, type CommandIO, type Invocation } from "./command.js";
import { runCommandLine } from "./run-command-line.js";
import {
  KIND_NAMES,
  LogError,
  isKnownKind,
  isLockedByWriter,
  isValidSessionId,
  listSessions,
  readLog,
  resolveDataDir,
  sessionLogPath,
  type LogEntry,
  type LogKind,
  type LogRecord,
} from "../log/index.js";

/** Where `nodwyn log` writes and what it reads its data directory from. */
export interface LogCommandIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** The environment the data directory is resolved from (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Ends `tail -f` (the CLI aborts it on SIGINT); the command then returns 0. */
  signal?: AbortSignal;
  /** How often `tail -f` looks for new records, in milliseconds (default 250). */
  pollMs?: number;
}

/** The retention `nodwyn log prune` applies without --older-than. */
export const DEFAULT_RETENTION = "30d";

const SESSION_HELP =
  "SESSION is a session id (a log under the data directory's sessions/), `last` for the latest one, or a path to a .jsonl file.";

/** `nodwyn log …`: the command and its subcommands, for the command table (commands/index.ts). */
export const logCommandSpec: Command = {
  name: "log",
  summary: "list, show, verify, tail and prune session logs",
  usage: "nodwyn log list|show|verify|tail|prune [options]",
  description: `Every evaluation of nodwyn repl, run and -e is recorded in a session log (docs/log-format.md).\n${SESSION_HELP}`,
  subcommands: [
    {
      name: "list",
      summary: "every session log, oldest first",
      usage: "nodwyn log list [--json]",
      options: [{ name: "--json", help: "one JSON object per session" }],
      args: { min: 0, max: 0, names: "" },
      run: (inv) => list(inv),
    },
    {
      name: "show",
      summary: "print a session's records",
      usage: "nodwyn log show SESSION [--from N] [--through M] [--kind K]... [--json]",
      description: SESSION_HELP,
      options: [
        { name: "--from", value: "N", help: "start at record N", check: positiveInteger },
        { name: "--through", value: "M", help: "stop after record M", check: positiveInteger },
        { name: "--kind", value: "K", repeatable: true, help: "only records of kind K (comma-separated or repeated)" },
        { name: "--json", help: "the records as JSON lines" },
      ],
      args: { min: 1, max: 1, names: "SESSION" },
      examples: ["nodwyn log show last", "nodwyn log show last --kind eval.req,eval.result --json"],
      run: (inv) => show(inv),
    },
    {
      name: "verify",
      summary: "check that a log is whole (exit 1 when damaged)",
      usage: "nodwyn log verify SESSION",
      description: SESSION_HELP,
      args: { min: 1, max: 1, names: "SESSION" },
      run: (inv) => verify(inv),
    },
    {
      name: "tail",
      summary: "the last records of a log; -f follows it",
      usage: "nodwyn log tail [-f] [-n N] [--json] SESSION",
      description: SESSION_HELP,
      options: [
        { name: "--follow", short: "-f", help: "keep printing records as they are appended (Ctrl-C ends)" },
        { name: "--lines", short: "-n", value: "N", help: "how many records (default 10)", check: positiveInteger },
        { name: "--json", help: "the records as JSON lines" },
      ],
      args: { min: 1, max: 1, names: "SESSION" },
      examples: ["nodwyn log tail -f last"],
      run: (inv) => tail(inv),
    },
    {
      name: "prune",
      summary: `delete session logs older than a duration (default ${DEFAULT_RETENTION})`,
      usage: "nodwyn log prune [--older-than DURATION] [--dry-run] [--json]",
      description:
        "Nothing is deleted unless you run this: logs are kept until pruned. A log is old when it has not changed\n" +
        `for DURATION (default ${DEFAULT_RETENTION}: a number and a unit, s m h d or w, e.g. 12h, 30d, 2w). A log a live\n` +
        "session still holds is never deleted; the files beside a log (its .mem, torn-tail backups) go with it.",
      options: [
        { name: "--older-than", value: "DURATION", help: `age past which a log is deleted (default ${DEFAULT_RETENTION})`, check: (v) => (parseDuration(v) === null ? `a duration such as 30d, 12h or 2w is expected, got ${JSON.stringify(v)}` : undefined) },
        { name: "--dry-run", help: "say what would be deleted, delete nothing" },
        { name: "--json", help: "one JSON object per log deleted" },
      ],
      args: { min: 0, max: 0, names: "" },
      examples: ["nodwyn log prune", "nodwyn log prune --older-than 7d --dry-run"],
      run: (inv) => prune(inv),
    },
  ],
};


const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** "30d" → milliseconds; null when it is not a duration. */
export function parseDuration(v: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*([smhdw])$/.exec(v.trim());
  if (m === null) return null;
  return Number(m[1]) * (UNIT_MS[m[2] as string] as number);
}

/**
 * Runs `nodwyn log …` (for tests and embedders; the CLI goes through its
 * command table); `argv` is what follows `log`. Returns the exit code: 0 on
 * success, 1 when a log is missing, damaged or cannot be read (verify:
 * damaged), 2 for a usage error. Errors are one line on stderr, never a stack trace.
 */
export async function logCommand(argv: string[], io: LogCommandIO): Promise<number> {
  const env = io.env ?? process.env;
  const full: CommandIO = { stdout: io.stdout, stderr: io.stderr, stdin: process.stdin, env, cwd: process.cwd() };
  return runCommandLine(["log", ...argv], [logCommandSpec], {
    ...full,
    ...(io.signal ? { signal: io.signal } : {}),
    ...(io.pollMs !== undefined ? { pollMs: io.pollMs } : {}),
  });
}

/** Reports the log's own failures (exit 1) in one line. */
async function guarded(inv: Invocation, fn: (out: Out) => Promise<number>): Promise<number> {
  const out = new Out(inv.io.stdout);
  try {
    return await fn(out);
  } catch (e) {
    await out.flush().catch(() => undefined);
    if (e instanceof LogError) {
      inv.io.stderr.write(`nodwyn log: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}

function oneSession(inv: Invocation): string {
  return inv.args[0] as string;
}

// A session id names a log in the data directory; anything with a slash or .jsonl is a path.
function logFile(arg: string, inv: Invocation): string {
  if (arg.includes("/") || arg.endsWith(".jsonl")) return arg;
  const dataDir = resolveDataDir(inv.io.env);
  if (arg === "last") {
    const all = listSessions(dataDir);
    const latest = all[all.length - 1];
    if (latest === undefined) throw new UsageError(`no session logs in ${dataDir} yet`, "run nodwyn repl, run or -e first: each records a session");
    return latest.file;
  }
  if (!isValidSessionId(arg)) throw new UsageError(`${JSON.stringify(arg)} is neither a session id nor a .jsonl path`, "nodwyn log list shows the sessions; `last` names the latest");
  return sessionLogPath(arg, dataDir);
}

// Buffers output and honours the stream's backpressure, so showing a 1 GB log never holds it in memory.
class Out {
  private parts: string[] = [];
  private size = 0;
  constructor(private readonly stream: NodeJS.WritableStream) {}
  async line(s: string): Promise<void> {
    this.parts.push(s, "\n");
    this.size += s.length + 1;
    if (this.size >= 64 * 1024) await this.flush();
  }
  async flush(): Promise<void> {
    if (this.parts.length === 0) return;
    const text = this.parts.join("");
    this.parts = [];
    this.size = 0;
    if (!this.stream.write(text)) await new Promise<void>((resolve) => this.stream.once("drain", () => resolve()));
  }
}

function human(r: LogRecord): string {
  return `${String(r.seq).padStart(6)}  ${r.ts}  ${r.kind.padEnd(16)}  ${JSON.stringify(r.payload)}`;
}

function asJson(r: LogRecord): string {
  return JSON.stringify({ seq: r.seq, ts: r.ts, session: r.session, kind: r.kind, payload: r.payload });
}

async function list(inv: Invocation): Promise<number> {
  return guarded(inv, async (out) => {
    const json = flag(inv, "--json");
    const sessions = listSessions(resolveDataDir(inv.io.env));
    if (!json) await out.line(`${"SESSION".padEnd(28)}  ${"MODIFIED".padEnd(24)}  ${"BYTES".padStart(10)}  ORIGIN`);
    for (const s of sessions) {
      // Only the first record: list must stay fast however long the logs are.
      let first: LogRecord | null = null;
      try {
        for (const r of readLog(s.file, { session: s.session })) {
          first = r;
          break;
        }
      } catch {
        first = null; // a damaged log is still listed; `verify` says what is wrong
      }
      const origin = first && typeof first.payload.origin === "string" ? first.payload.origin : "";
      if (json)
        await out.line(
          JSON.stringify({
            session: s.session,
            file: s.file,
            bytes: s.bytes,
            modified: s.modified.toISOString(),
            started: first?.ts ?? null,
            origin: origin || null,
          }),
        );
      else
        await out.line(
          `${s.session.padEnd(28)}  ${s.modified.toISOString().padEnd(24)}  ${String(s.bytes).padStart(10)}  ${first ? origin || "-" : "(unreadable)"}`,
        );
    }
    await out.flush();
    return 0;
  });
}

async function show(inv: Invocation): Promise<number> {
  const file = logFile(oneSession(inv), inv);
  const fromV = optionValue(inv, "--from");
  const throughV = optionValue(inv, "--through");
  const from = fromV === undefined ? 1 : Number(fromV);
  const through = throughV === undefined ? undefined : Number(throughV);
  if (through !== undefined && through < from) throw new UsageError(`--through ${through} is before --from ${from}`);
  let kinds: Set<LogKind> | null = null;
  for (const list of optionValues(inv, "--kind")) {
    for (const k of list.split(",")) {
      if (!isKnownKind(k)) throw new UsageError(`unknown kind ${JSON.stringify(k)}`, `the kinds: ${KIND_NAMES.join(", ")}`);
      (kinds ??= new Set()).add(k);
    }
  }
  const json = flag(inv, "--json");
  return guarded(inv, async (out) => {
    const reader = readLog(file, through !== undefined ? { through } : {});
    for (const r of reader) {
      if (r.seq < from || (kinds && !kinds.has(r.kind))) continue;
      await out.line(json ? asJson(r) : human(r));
    }
    await out.flush();
    const tail = reader.summary?.tail;
    if (tail) inv.io.stderr.write(`nodwyn log: ${file}:${tail.line}: the last line is incomplete (${tail.bytes} bytes); not shown\n`);
    return 0;
  });
}

async function verify(inv: Invocation): Promise<number> {
  const file = logFile(oneSession(inv), inv);
  return guarded(inv, async (out) => {
    const reader = readLog(file);
    try {
      for (const _ of reader.entries());
    } catch (e) {
      if (e instanceof LogError && e.code !== "LOG_NOT_FOUND" && e.code !== "LOG_IO") {
        inv.io.stderr.write(`damaged: ${e.message}\n`);
        return 1;
      }
      throw e;
    }
    const s = reader.summary!;
    const range = s.records > 0 ? ` (seq 1..${s.lastSeq})` : "";
    if (s.tail) {
      if (isLockedByWriter(file)) {
        await out.line(`ok: ${file}: ${s.records} records${range}, ${s.end} bytes; a writer is appending the next one`);
        await out.flush();
        return 0;
      }
      inv.io.stderr.write(
        `damaged: ${file}:${s.tail.line}: a torn last line (${s.tail.bytes} bytes without a newline) after ${s.records} whole records${range}; resuming the session moves it aside\n`,
      );
      return 1;
    }
    await out.line(`ok: ${file}: ${s.records} records${range}, ${s.end} bytes`);
    await out.flush();
    return 0;
  });
}

async function tail(inv: Invocation): Promise<number> {
  const file = logFile(oneSession(inv), inv);
  const nV = optionValue(inv, "--lines");
  const n = nV === undefined ? 10 : Number(nV);
  const follow = flag(inv, "--follow");
  const fmt = flag(inv, "--json") ? asJson : human;
  return guarded(inv, async (out) => {
    // Forward through the whole log, strictly, keeping the last n: damage anywhere is reported.
    const ring: LogEntry[] = [];
    const reader = readLog(file);
    for (const e of reader.entries()) {
      ring.push(e);
      if (ring.length > n) ring.shift();
    }
    for (const e of ring) await out.line(fmt(e.record));
    await out.flush();
    if (!follow) return 0;
    const s = reader.summary!;
    let start = { offset: s.end, line: s.records + 1, lastSeq: s.lastSeq };
    const signal = inv.io.signal;
    while (!signal?.aborted) {
      try {
        await sleep(inv.io.pollMs ?? 250, undefined, signal ? { signal } : {});
      } catch {
        break; // aborted
      }
      for (const e of readLog(file, { start }).entries()) {
        await out.line(fmt(e.record));
        start = { offset: e.end, line: e.line + 1, lastSeq: e.record.seq };
      }
      await out.flush();
    }
    return 0;
  });
}

async function prune(inv: Invocation): Promise<number> {
  const span = optionValue(inv, "--older-than") ?? DEFAULT_RETENTION;
  const age = parseDuration(span) as number;
  const dry = flag(inv, "--dry-run");
  const json = flag(inv, "--json");
  const now = Date.now();
  return guarded(inv, async (out) => {
    let count = 0;
    let bytes = 0;
    let held = 0;
    for (const s of listSessions(resolveDataDir(inv.io.env))) {
      if (now - s.modified.getTime() <= age) continue;
      if (isLockedByWriter(s.file)) {
        held++;
        continue; // a live session: never deleted under its writer
      }
      // The log and what lives beside it: <id>.mem, <id>.jsonl.torn-*.
      const dir = dirname(s.file);
      const base = basename(s.file);
      const beside = readdirSync(dir).filter((f) => f !== base && (f.startsWith(`${base}.`) || f === `${s.session}.mem`));
      if (!dry) {
        for (const f of beside) rmSync(join(dir, f), { recursive: true, force: true });
        rmSync(s.file, { force: true });
      }
      count++;
      bytes += s.bytes;
      if (json) await out.line(JSON.stringify({ session: s.session, file: s.file, bytes: s.bytes, modified: s.modified.toISOString(), deleted: !dry }));
      else await out.line(`${dry ? "would delete" : "deleted"} ${s.session} (${s.bytes} bytes, last changed ${s.modified.toISOString()})`);
    }
    if (!json) {
      await out.line(
        `${dry ? "would delete" : "deleted"} ${count} session log${count === 1 ? "" : "s"} older than ${span} (${bytes} bytes)` +
          (held > 0 ? `; ${held} still in use, kept` : ""),
      );
    }
    await out.flush();
    return 0;
  });
}
