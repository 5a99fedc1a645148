// `nodwyn sessions` and `nodwyn session title|archive|delete`: the lifecycle of a repository's sessions (ADR 0002's 2026-10-03 amendments, ADR 0028).
//
// Every change of a closed session appends a record (session.title,
// session.archive) under the log's lock and through the writer's redaction;
// a session another process has open is refused, never edited. Delete takes
// the lock first, so a log another process holds is refused, not removed; it
// removes the log, what lives beside it (its .mem, torn-tail backups) and the
// session's checkpoints (its ref in the repository, its temporary index).

import { spawnSync } from "node:child_process";
import { closeSync, constants as C, existsSync, openSync, readdirSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { loadConfig } from "../config/index.js";
import { findRepoRoot } from "../guard/index.js";
import { isLockedByWriter, listSessions, LogError, LogLockedError, LogNotFoundError, nodeLogFs, openForAppend, readLog, resolveDataDir, type LogWriter } from "../log/index.js";
import { Redactor } from "../redact/index.js";
import { checkpointRef } from "../checkpoint/index.js";
import { UsageError, flag, optionValue, type Invocation } from "./command.js";
import { sessionArg } from "./session-arg.js";

/** A failure the person can act on: one paragraph, exit 1. */
class LifecycleError extends Error {}

function fail(message: string): never {
  throw new LifecycleError(message);
}

/** One session as `nodwyn sessions` lists it. */
export interface SessionRow {
  readonly session: string;
  /** The latest non-empty session.title, else null. */
  readonly title: string | null;
  /** The first user message's first words ("" when there is none). */
  readonly first: string;
  /** session.start's time. */
  readonly started: string;
  /** The last record's time. */
  readonly updated: string;
  readonly turns: number;
  /** The sum of the replies' priced cost (USD); null when none was priced. */
  readonly cost: number | null;
  readonly forked_from: { readonly session: string; readonly turn: number } | null;
  readonly archived: boolean;
  /** Another process has it open now. */
  readonly open: boolean;
  readonly repo: string;
  readonly model: string | null;
}

/** Reads one log into its row. */
export function sessionRow(session: string, file: string): SessionRow {
  let title: string | null = null;
  let first = "";
  let started = "";
  let updated = "";
  let turns = 0;
  let cost = 0;
  let priced = false;
  let forked: SessionRow["forked_from"] = null;
  let archived = false;
  let repo = "";
  let model: string | null = null;
  for (const r of readLog(file)) {
    const p = r.payload as Record<string, any>;
    updated = r.ts;
    switch (r.kind) {
      case "session.start":
        started = r.ts;
        repo = typeof p.repo === "string" ? p.repo : "";
        if (p.forked_from && typeof p.forked_from.session === "string") forked = { session: p.forked_from.session, turn: Number(p.forked_from.turn ?? 0) };
        if (typeof p.model === "string") model = p.model;
        break;
      case "session.resume":
        // Resuming an archived session brings it back (ADR 0002, 2026-10-03).
        archived = false;
        break;
      case "session.title":
        title = typeof p.title === "string" && p.title !== "" ? p.title : null;
        break;
      case "session.archive":
        archived = p.archived === true;
        break;
      case "session.model":
        if (typeof p.model === "string") model = p.model;
        break;
      case "user.msg":
        turns++;
        if (first === "" && typeof p.text === "string") first = p.text.replace(/\s+/g, " ").trim().slice(0, 80);
        break;
      case "llm.resp":
        if (typeof p.usage?.cost === "number") {
          cost += p.usage.cost;
          priced = true;
        }
        break;
      default:
        break;
    }
  }
  return { session, title, first, started, updated, turns, cost: priced ? cost : null, forked_from: forked, archived, open: isLockedByWriter(file), repo, model };
}

async function write(inv: Invocation, text: string): Promise<void> {
  const out = inv.io.stdout;
  if (!out.write(text)) await new Promise<void>((r) => out.once("drain", () => r()));
}

function when(ts: string): string {
  return ts ? ts.replace("T", " ").replace(/\.\d+Z$/, "Z") : "";
}

/** `nodwyn sessions [--all] [--every-repo] [--json]`. */
export async function runSessions(inv: Invocation): Promise<number> {
  const dataDir = resolveDataDir(inv.io.env);
  const all = flag(inv, "--all");
  const everyRepo = flag(inv, "--every-repo");
  const rootOpt = optionValue(inv, "--root");
  let root: string;
  try {
    root = findRepoRoot(rootOpt ?? inv.io.cwd);
  } catch (e) {
    throw new UsageError(`cannot use ${rootOpt ?? inv.io.cwd} as the repository: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const rows: SessionRow[] = [];
  let hidden = 0;
  for (const s of listSessions(dataDir)) {
    let row: SessionRow;
    try {
      row = sessionRow(s.session, s.file);
    } catch (e) {
      inv.io.stderr.write(`nodwyn sessions: ${s.session} could not be read (${(e as Error).message.split("\n")[0]}): skipped\n`);
      continue;
    }
    if (!everyRepo && row.repo !== root) continue;
    if (row.archived && !all) {
      hidden++;
      continue;
    }
    rows.push(row);
  }
  rows.sort((a, b) => (a.started < b.started ? 1 : a.started > b.started ? -1 : 0));
  if (flag(inv, "--json")) {
    for (const r of rows) await write(inv, JSON.stringify(r) + "\n");
    return 0;
  }
  if (rows.length === 0) {
    await write(inv, `no sessions${everyRepo ? "" : ` of ${root}`}${hidden > 0 ? ` (${hidden} archived: --all shows them)` : ""} in ${dataDir}\n`);
    return 0;
  }
  for (const r of rows) {
    const name = r.title ?? (r.first === "" ? "(no message)" : JSON.stringify(r.first.length > 60 ? r.first.slice(0, 59) + "…" : r.first));
    const bits = [`${r.turns} turn${r.turns === 1 ? "" : "s"}`];
    if (r.cost !== null) bits.push(`$${r.cost.toFixed(4)}`);
    if (r.forked_from) bits.push(`forked from ${r.forked_from.session} at turn ${r.forked_from.turn}`);
    if (r.archived) bits.push("archived");
    if (r.open) bits.push("open now");
    await write(inv, `${r.session}  ${when(r.started)}  ${name}\n    ${bits.join(" · ")}${everyRepo ? ` · ${r.repo}` : ""}\n`);
  }
  if (hidden > 0) await write(inv, `(${hidden} archived session${hidden === 1 ? "" : "s"} not shown: --all shows them)\n`);
  return 0;
}

/** Opens a closed session's log under its lock, to append to it, with the person's keys registered for redaction. */
function openClosed(inv: Invocation, session: string, dataDir: string, what: string): LogWriter {
  const redactor = new Redactor();
  try {
    const config = loadConfig({ env: inv.io.env });
    for (const s of Object.values(config.servers)) {
      const v = s.keyEnv !== undefined ? inv.io.env[s.keyEnv] : undefined;
      if (v !== undefined && v.length >= 4) redactor.registerSecret(v);
    }
  } catch (e) {
    inv.io.stderr.write(`nodwyn session: warning: the configuration could not be read (${(e as Error).message.split("\n")[0]}); the redaction rules apply, not its keys\n`);
  }
  try {
    return openForAppend(session, { dataDir, redactor, refuseTorn: true }).writer;
  } catch (e) {
    if (e instanceof LogLockedError) fail(`the session ${session} is open in another process: ${what} it there (/title in its chat), or close it first`);
    if (e instanceof LogNotFoundError) fail(`no session ${session} in ${dataDir} (nodwyn sessions lists them)`);
    if (e instanceof LogError && e.code === "LOG_TORN") fail(`${e.message.replace(/; resume it to recover the log first$/, "")}: run nodwyn resume ${session} to recover it first`);
    throw e;
  }
}

function guarded(inv: Invocation, f: () => Promise<number>): Promise<number> {
  return f().catch((e) => {
    if (e instanceof LifecycleError) {
      inv.io.stderr.write(`nodwyn ${inv.path}: ${e.message}\n`);
      return 1;
    }
    throw e;
  });
}

/** `nodwyn session title SESSION TEXT…` (an empty TEXT takes the title back). */
export function runTitle(inv: Invocation): Promise<number> {
  return guarded(inv, async () => {
    const [arg, ...words] = [...inv.args, ...inv.rest];
    const s = sessionArg(arg as string, inv, { paths: false });
    const title = words.join(" ").trim();
    const w = openClosed(inv, s.session, s.dataDir, "title");
    let seq: number;
    try {
      seq = w.append("session.title", { actor: "person", title }).seq;
    } finally {
      w.close();
    }
    if (flag(inv, "--json")) await write(inv, JSON.stringify({ session: s.session, seq, title }) + "\n");
    else await write(inv, title === "" ? `${s.session}: its title is taken back\n` : `${s.session} is titled ${JSON.stringify(title)}\n`);
    return 0;
  });
}

/** `nodwyn session archive [--restore] SESSION`. */
export function runArchive(inv: Invocation): Promise<number> {
  return guarded(inv, async () => {
    const s = sessionArg(inv.args[0] as string, inv, { paths: false });
    const archived = !flag(inv, "--restore");
    const w = openClosed(inv, s.session, s.dataDir, archived ? "archive" : "restore");
    let seq: number;
    try {
      seq = w.append("session.archive", { actor: "person", archived }).seq;
    } finally {
      w.close();
    }
    if (flag(inv, "--json")) await write(inv, JSON.stringify({ session: s.session, seq, archived }) + "\n");
    else await write(inv, archived ? `${s.session} is archived (nodwyn sessions --all shows it; --restore brings it back)\n` : `${s.session} is back among the sessions\n`);
    return 0;
  });
}

/** `nodwyn session delete SESSION`: under the writer's lock, the log and what lives beside it, and the session's checkpoints. */
export function runDelete(inv: Invocation): Promise<number> {
  return guarded(inv, async () => {
    const s = sessionArg(inv.args[0] as string, inv, { paths: false });
    if (!existsSync(s.file)) fail(`no session ${s.session} in ${s.dataDir} (nodwyn sessions lists them)`);
    let repo = "";
    try {
      for (const r of readLog(s.file)) {
        if (r.kind === "session.start" && typeof (r.payload as any).repo === "string") repo = (r.payload as any).repo;
        break;
      }
    } catch {
      // a damaged log is still deleted
    }
    const fd = openSync(s.file, C.O_RDWR);
    const removed: string[] = [];
    try {
      try {
        nodeLogFs.flockSync(fd, "exnb");
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === "EAGAIN" || code === "EWOULDBLOCK") fail(`the session ${s.session} is open in another process: it is not deleted (close it there first)`);
        throw e;
      }
      // Under the lock: what lives beside the log first, then the log itself.
      const dir = dirname(s.file);
      const base = basename(s.file);
      for (const f of readdirSync(dir).filter((f) => f !== base && (f.startsWith(`${base}.`) || f === `${s.session}.mem`))) {
        rmSync(join(dir, f), { recursive: true, force: true });
        removed.push(f);
      }
      rmSync(s.file, { force: true });
      removed.push(base);
    } finally {
      try {
        nodeLogFs.flockSync(fd, "un");
      } catch {
        // closing releases it
      }
      closeSync(fd);
    }
    const index = join(s.dataDir, "checkpoints", `${s.session}.index`);
    if (existsSync(index)) {
      rmSync(index, { force: true });
      removed.push(`checkpoints/${s.session}.index`);
    }
    if (repo !== "" && existsSync(repo)) {
      const ref = checkpointRef(s.session);
      const env = { PATH: inv.io.env.PATH ?? "", GIT_CONFIG_NOSYSTEM: "1" };
      const has = spawnSync("git", ["rev-parse", "--verify", "--quiet", ref], { cwd: repo, env, encoding: "utf8" });
      if (has.status === 0 && spawnSync("git", ["update-ref", "-d", ref], { cwd: repo, env, encoding: "utf8" }).status === 0) removed.push(ref);
    }
    if (flag(inv, "--json")) await write(inv, JSON.stringify({ session: s.session, deleted: true, removed }) + "\n");
    else await write(inv, `deleted ${s.session} (${removed.join(", ")})\n`);
    return 0;
  });
}
