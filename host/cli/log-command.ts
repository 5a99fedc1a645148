// `nodwyn log`: list, show, verify and tail session logs (no interpreter involved).

import { setTimeout as sleep } from "node:timers/promises";
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

const USAGE = `usage: nodwyn log list [--json]
       nodwyn log show SESSION [--from N] [--through M] [--kind K]... [--json]
       nodwyn log verify SESSION
       nodwyn log tail [-f] [-n N] SESSION
SESSION is a session id (a log under the data directory's sessions/) or a path to a .jsonl file.
`;

class UsageError extends Error {}

/**
 * Runs `nodwyn log …`; `argv` is what follows `log`. Returns the exit code: 0 on
 * success, 1 when a log is missing, damaged or cannot be read (verify: damaged),
 * 2 for a usage error. Errors are one line on stderr, never a stack trace.
 */
export async function logCommand(argv: string[], io: LogCommandIO): Promise<number> {
  const out = new Out(io.stdout);
  try {
    const [sub, ...rest] = argv;
    switch (sub) {
      case "list":
        return await list(rest, io, out);
      case "show":
        return await show(rest, io, out);
      case "verify":
        return await verify(rest, io, out);
      case "tail":
        return await tail(rest, io, out);
      case "help":
      case "--help":
      case "-h":
        io.stdout.write(USAGE);
        return 0;
      default:
        throw new UsageError(sub === undefined ? "a subcommand is required" : `unknown subcommand ${JSON.stringify(sub)}`);
    }
  } catch (e) {
    await out.flush().catch(() => undefined);
    if (e instanceof UsageError) {
      io.stderr.write(`nodwyn log: ${e.message}\n${USAGE}`);
      return 2;
    }
    if (e instanceof LogError) {
      io.stderr.write(`nodwyn log: ${e.message}\n`);
      return 1;
    }
    io.stderr.write(`nodwyn log: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

interface Parsed {
  positional: string[];
  flags: Map<string, string[]>;
}

// Flags with a value take it as the next word or after `=`; the others are booleans.
function parse(args: string[], withValue: readonly string[], booleans: readonly string[]): Parsed {
  const p: Parsed = { positional: [], flags: new Map() };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.startsWith("-") && a.length > 1) {
      const eq = a.indexOf("=");
      const name = eq > 0 ? a.slice(0, eq) : a;
      if (withValue.includes(name)) {
        const v = eq > 0 ? a.slice(eq + 1) : args[++i];
        if (v === undefined) throw new UsageError(`${name} needs a value`);
        p.flags.set(name, [...(p.flags.get(name) ?? []), v]);
      } else if (booleans.includes(name) && eq < 0) p.flags.set(name, ["true"]);
      else throw new UsageError(`unknown option ${a}`);
    } else p.positional.push(a);
  }
  return p;
}

function positiveInt(flag: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!/^[1-9][0-9]{0,15}$/.test(v)) throw new UsageError(`${flag} needs a positive integer, got ${JSON.stringify(v)}`);
  return Number(v);
}

function oneSession(p: Parsed): string {
  if (p.positional.length !== 1)
    throw new UsageError(p.positional.length === 0 ? "SESSION is required" : `one SESSION expected, got ${p.positional.length}`);
  return p.positional[0];
}

// A session id names a log in the data directory; anything with a slash or .jsonl is a path.
function logFile(arg: string, io: LogCommandIO): string {
  if (arg.includes("/") || arg.endsWith(".jsonl")) return arg;
  if (!isValidSessionId(arg)) throw new UsageError(`${JSON.stringify(arg)} is neither a session id nor a .jsonl path`);
  return sessionLogPath(arg, resolveDataDir(io.env ?? process.env));
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

async function list(args: string[], io: LogCommandIO, out: Out): Promise<number> {
  const p = parse(args, [], ["--json"]);
  if (p.positional.length > 0) throw new UsageError("list takes no SESSION");
  const json = p.flags.has("--json");
  const sessions = listSessions(resolveDataDir(io.env ?? process.env));
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
}

async function show(args: string[], io: LogCommandIO, out: Out): Promise<number> {
  const p = parse(args, ["--from", "--through", "--kind"], ["--json"]);
  const file = logFile(oneSession(p), io);
  const from = positiveInt("--from", p.flags.get("--from")?.at(-1)) ?? 1;
  const through = positiveInt("--through", p.flags.get("--through")?.at(-1));
  if (through !== undefined && through < from) throw new UsageError(`--through ${through} is before --from ${from}`);
  let kinds: Set<LogKind> | null = null;
  for (const list of p.flags.get("--kind") ?? []) {
    for (const k of list.split(",")) {
      if (!isKnownKind(k)) throw new UsageError(`unknown kind ${JSON.stringify(k)} (kinds: ${KIND_NAMES.join(", ")})`);
      (kinds ??= new Set()).add(k);
    }
  }
  const json = p.flags.has("--json");
  const reader = readLog(file, through !== undefined ? { through } : {});
  for (const r of reader) {
    if (r.seq < from || (kinds && !kinds.has(r.kind))) continue;
    await out.line(json ? asJson(r) : human(r));
  }
  await out.flush();
  const tail = reader.summary?.tail;
  if (tail) io.stderr.write(`nodwyn log: ${file}:${tail.line}: the last line is incomplete (${tail.bytes} bytes); not shown\n`);
  return 0;
}

async function verify(args: string[], io: LogCommandIO, out: Out): Promise<number> {
  const p = parse(args, [], []);
  const file = logFile(oneSession(p), io);
  const reader = readLog(file);
  try {
    for (const _ of reader.entries());
  } catch (e) {
    if (e instanceof LogError && e.code !== "LOG_NOT_FOUND" && e.code !== "LOG_IO") {
      io.stderr.write(`damaged: ${e.message}\n`);
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
    io.stderr.write(
      `damaged: ${file}:${s.tail.line}: a torn last line (${s.tail.bytes} bytes without a newline) after ${s.records} whole records${range}; resuming the session moves it aside\n`,
    );
    return 1;
  }
  await out.line(`ok: ${file}: ${s.records} records${range}, ${s.end} bytes`);
  await out.flush();
  return 0;
}

async function tail(args: string[], io: LogCommandIO, out: Out): Promise<number> {
  const p = parse(args, ["-n"], ["-f", "--json"]);
  const file = logFile(oneSession(p), io);
  const n = positiveInt("-n", p.flags.get("-n")?.at(-1)) ?? 10;
  const follow = p.flags.has("-f");
  const json = p.flags.has("--json");
  const fmt = json ? asJson : human;
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
  const signal = io.signal;
  while (!signal?.aborted) {
    try {
      await sleep(io.pollMs ?? 250, undefined, signal ? { signal } : {});
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
}
