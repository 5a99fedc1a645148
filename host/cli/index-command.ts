// `nodwyn index`: update, search, status and gc of the repository index, over a session (its guard, checkers and log).

import { resolve } from "node:path";
import { Session, SessionError } from "../session/session.js";
import type { GcReport, IndexSearchResult, IndexStatus, RefreshProgress, RefreshReport } from "../index/index.js";

/** Where `nodwyn index` writes, and what it reads its environment from. */
export interface IndexCommandIO {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Ends a long update (the CLI aborts it on SIGINT): what was read so far is kept. */
  readonly signal?: AbortSignal;
}

export const INDEX_USAGE = `usage: nodwyn index update [PATH] [--quiet] [--json]
       nodwyn index search QUERY [--limit N] [--path P] [--json]
       nodwyn index status [--json]
       nodwyn index gc [--json]

The repository index: chunks of the repository's files, ranked by BM25 (index-search "repo").
  update   build or refresh it now (up to 60 s a call; run again to go on); with PATH, also
           index that directory or file whole, git's ignores notwithstanding, from then on
  search   refresh (up to 10 s), then show the best chunks for the words of QUERY
  status   files, chunks, size on disk, last update, whether it holds only part of the tree
  gc       remove gone worktrees' manifests and chunks no tree has named for seven days

options:
  --root DIR   the repository (default: the git top level of the current directory)
  --no-log     do not record a session log (reads are still decided by the guard)
  --limit N    hits to show (default 8, at most 100)
  --path P     only files under P
  --json       print the result as JSON on stdout
  --quiet      no progress bar, only the summary line

The index lives in <data dir>/projects/<key>/index; it is derived from the files and may be
deleted at any time (nodwyn index status names the folder).
`;

class UsageError extends Error {}

interface Parsed {
  sub: string;
  words: string[];
  json: boolean;
  quiet: boolean;
  log: boolean;
  root: string | undefined;
  limit: number | undefined;
  path: string | undefined;
}

function parse(argv: string[]): Parsed {
  const p: Parsed = { sub: "", words: [], json: false, quiet: false, log: true, root: undefined, limit: undefined, path: undefined };
  const value = (i: number, name: string): string => {
    const v = argv[i];
    if (v === undefined || v.startsWith("--")) throw new UsageError(`${name} needs a value`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === "--json") p.json = true;
    else if (a === "--quiet" || a === "-q") p.quiet = true;
    else if (a === "--no-log") p.log = false;
    else if (a === "--root") p.root = value(++i, "--root");
    else if (a === "--path") p.path = value(++i, "--path");
    else if (a === "--limit") {
      const v = value(++i, "--limit");
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > 100) throw new UsageError(`--limit must be a whole number from 1 to 100, not ${JSON.stringify(v)}`);
      p.limit = n;
    } else if (a === "--help" || a === "-h") p.sub = "help";
    else if (a.startsWith("-") && a !== "-") throw new UsageError(`unknown option ${a}`);
    else if (p.sub === "") p.sub = a;
    else p.words.push(a);
  }
  return p;
}

/**
 * Runs `nodwyn index …`; `argv` is what follows `index`. Returns the exit
 * code: 0 on success, 1 when the index cannot be used (a full disk, a busy
 * index, a guard refusal of PATH), 2 for a usage error.
 */
export async function indexCommand(argv: string[], io: IndexCommandIO): Promise<number> {
  let p: Parsed;
  try {
    p = parse(argv);
    if (p.sub === "help") {
      io.stdout.write(INDEX_USAGE);
      return 0;
    }
    if (p.sub === "") throw new UsageError("a subcommand is required");
    if (!["update", "search", "status", "gc"].includes(p.sub)) throw new UsageError(`unknown subcommand ${JSON.stringify(p.sub)}`);
    if (p.sub === "search" && p.words.length === 0) throw new UsageError("search needs a QUERY");
    if (p.sub === "update" && p.words.length > 1) throw new UsageError("update takes one PATH at most");
    if ((p.sub === "status" || p.sub === "gc") && p.words.length > 0) throw new UsageError(`${p.sub} takes no arguments`);
    if (p.sub !== "search" && (p.limit !== undefined || p.path !== undefined)) throw new UsageError("--limit and --path are options of search");
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr.write(`nodwyn index: ${e.message}\n${INDEX_USAGE}`);
    return 2;
  }
  let session: Session;
  try {
    session = await Session.open({
      origin: "index",
      cwd: io.cwd ?? process.cwd(),
      ...(p.root !== undefined ? { root: resolve(io.cwd ?? process.cwd(), p.root) } : {}),
      log: p.log,
      actor: "user",
      argv: ["index", ...argv],
      ...(io.env ? { env: io.env } : {}),
    });
  } catch (e) {
    io.stderr.write(`nodwyn index: ${e instanceof SessionError || e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  let code = 0;
  try {
    switch (p.sub) {
      case "update":
        code = await update(session, p, io);
        break;
      case "search":
        code = await search(session, p, io);
        break;
      case "status":
        code = await status(session, p, io);
        break;
      case "gc":
        code = await gc(session, p, io);
        break;
    }
  } catch (e) {
    const o = e as { domain?: string; message?: string; code?: string };
    if (o?.domain === "index" || o?.domain === "guard" || o?.domain === "search") {
      io.stderr.write(`nodwyn index: ${o.message}\n`);
      code = 1;
    } else {
      io.stderr.write(`nodwyn index: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
      code = 1;
    }
  } finally {
    session.close(code === 0 ? "done" : "error", code);
  }
  return code;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function bytesText(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** A progress bar on a terminal's stderr (cli-progress): files, files per second, time left. */
async function progressBar(io: IndexCommandIO): Promise<{ onProgress: (p: RefreshProgress) => void; stop: () => void }> {
  const { default: cliProgress } = await import("cli-progress");
  const started = performance.now();
  const bar = new cliProgress.SingleBar(
    {
      format: "indexing |{bar}| {value}/{total} files | {rate} files/s | {eta_formatted} left",
      stream: io.stderr,
      hideCursor: true,
      clearOnComplete: true,
      etaBuffer: 200,
      fps: 10,
      barsize: 30,
      noTTYOutput: false,
    },
    cliProgress.Presets.shades_classic,
  );
  let startedBar = false;
  return {
    onProgress: (p) => {
      const rate = Math.round(p.done / Math.max(0.001, (performance.now() - started) / 1000));
      if (!startedBar) {
        bar.start(p.total, p.done, { rate });
        startedBar = true;
      } else bar.update(p.done, { rate });
    },
    stop: () => {
      if (startedBar) bar.stop();
    },
  };
}

function updateSummary(r: RefreshReport & { added: string | null; gc: GcReport }): string {
  const parts = [`read ${r.read}`, `removed ${r.removed}`, `skipped ${r.skipped}`];
  let line = `index: ${plural(r.files, "file")} held (${parts.join(", ")}) in ${seconds(r.elapsed_ms)}`;
  if (r.added !== null) line += `; added ${r.added} whole`;
  const notes: string[] = [];
  if (r.refused.length > 0) notes.push(`left out (refused by the guard): ${r.refused.join(", ")}`);
  if (r.left > 0) notes.push(`${plural(r.left, "file")} left to read: run nodwyn index update again`);
  if (r.more) notes.push("the tree has more files or text than an index holds (20,000 files, 128 MiB): it holds the first in path order");
  if (r.busy) notes.push("another process is updating this tree: its update stands for this one");
  if (r.error !== undefined) notes.push(r.error);
  if (r.gc.trees.length > 0 || r.gc.docs > 0) notes.push(`collected: ${plural(r.gc.trees.length, "gone worktree")}, ${plural(r.gc.docs, "old version")}`);
  return [line, ...notes.map((n) => `  ${n}`)].join("\n") + "\n";
}

async function update(session: Session, p: Parsed, io: IndexCommandIO): Promise<number> {
  const bar = !p.quiet && io.stderr.isTTY === true ? await progressBar(io) : null;
  let r: Awaited<ReturnType<Session["index"]["update"]>>;
  try {
    r = await session.index.update({ ...(p.words[0] !== undefined ? { path: p.words[0] } : {}), ...(io.signal ? { signal: io.signal } : {}), ...(bar ? { onProgress: bar.onProgress } : {}) });
  } finally {
    bar?.stop();
  }
  if (p.json) io.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
  else io.stdout.write(updateSummary(r));
  return 0;
}

function searchText(r: IndexSearchResult): string {
  const out: string[] = [];
  for (const h of r.hits) {
    out.push(`${h.path}:${h.start}-${h.end}: ${h.first}`);
    for (const l of h.lines) out.push(`  ${String(l.line).padStart(5)}: ${l.text}`);
    out.push("");
  }
  if (r.hits.length === 0) out.push("no hits", "");
  const notes: string[] = [];
  if (r.refresh.read > 0 || r.refresh.removed > 0) notes.push(`refreshed first: read ${r.refresh.read}, removed ${r.refresh.removed}`);
  if (r.partial) notes.push(`the index holds only part of the tree${r.refresh.left > 0 ? ` (${plural(r.refresh.left, "file")} still to read: run nodwyn index update)` : ""}`);
  if (r.refresh.refused.length > 0) notes.push(`left out (refused by the guard): ${r.refresh.refused.join(", ")}`);
  if (r.dropped.length > 0) notes.push(`dropped (refused by the guard now): ${r.dropped.join(", ")}`);
  if (r.refresh.error !== undefined) notes.push(`the refresh failed: ${r.refresh.error}`);
  return out.join("\n") + notes.map((n) => `[${n}]\n`).join("");
}

async function search(session: Session, p: Parsed, io: IndexCommandIO): Promise<number> {
  const r = await session.index.search(p.words.join(" "), { ...(p.limit !== undefined ? { limit: p.limit } : {}), path: p.path ?? null, actor: "user", ...(io.signal ? { signal: io.signal } : {}) });
  if (p.json) io.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
  else io.stdout.write(searchText(r));
  return 0;
}

function statusText(s: IndexStatus): string {
  const rows: [string, string][] = [
    ["root", s.root],
    ["index", s.indexDir],
    ["files", `${plural(s.files, "file")} held${s.skipped > 0 ? `, ${s.skipped} skipped` : ""}${s.refused > 0 ? `, ${s.refused} refused by the guard` : ""}`],
    ["chunks", s.chunks.toLocaleString("en-US")],
    ["on disk", `${bytesText(s.bytes)} (the repository's index, ${plural(s.trees, "working tree")})`],
    ["updated", s.updated === null ? "never (the first search or nodwyn index update builds it)" : new Date(s.updated).toISOString()],
    ["partial", s.partial ? `yes${s.left > 0 ? `: ${plural(s.left, "file")} still to read` : ""}${s.more ? `${s.left > 0 ? ";" : ":"} more files or text than an index holds` : ""}` : "no"],
  ];
  if (s.added.length > 0) rows.push(["added", s.added.join(", ")]);
  const w = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`).join("\n") + "\n";
}

async function status(session: Session, p: Parsed, io: IndexCommandIO): Promise<number> {
  const s = await session.index.status();
  io.stdout.write(p.json ? `${JSON.stringify(s, null, 2)}\n` : statusText(s));
  return 0;
}

async function gc(session: Session, p: Parsed, io: IndexCommandIO): Promise<number> {
  const r = await session.index.gc();
  if (p.json) io.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
  else if (r.busy) io.stdout.write("index: another process holds the index; nothing collected this time\n");
  else {
    const lines = [`index: removed the manifests of ${plural(r.trees.length, "gone worktree")} and ${plural(r.docs, "old version")} of files (${plural(r.chunks, "chunk")})`];
    for (const t of r.trees) lines.push(`  ${t}`);
    io.stdout.write(lines.join("\n") + "\n");
  }
  return 0;
}

/** `nodwyn index …` on the process's streams: SIGINT stops a long update, keeping what it read. */
export async function runIndexCommand(argv: string[]): Promise<number> {
  const ac = new AbortController();
  const onInt = (): void => ac.abort();
  process.once("SIGINT", onInt);
  try {
    const code = await indexCommand(argv, { stdout: process.stdout, stderr: process.stderr, signal: ac.signal });
    return ac.signal.aborted && code !== 0 ? 130 : code;
  } finally {
    process.off("SIGINT", onInt);
  }
}
