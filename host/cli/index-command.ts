// `nodwyn index`: update, search, status and gc of the repository index, over a session (its guard, checkers and log).

import { EXIT, flag, optionValue, type Command, type Invocation, type OptionSpec } from "./command.js";
import { SESSION_OPTIONS, openSession, sessionFlags } from "./session-options.js";
import type { Session } from "../session/session.js";
import type { GcReport, IndexSearchResult, IndexStatus, RefreshProgress, RefreshReport } from "../index/index.js";

const WHERE = `The index lives in <data dir>/projects/<key>/index (nodwyn index status names it). It is derived
from the files: deleting it loses nothing, and the next search or update builds it again.`;

/** The session options that mean something here. */
const OPTS: readonly OptionSpec[] = SESSION_OPTIONS.filter((o) => o.name === "--root" || o.name === "--no-log");
const JSON_OPT: OptionSpec = { name: "--json", help: "print the result as JSON on stdout" };

function limitCheck(v: string): string | undefined {
  return /^[1-9][0-9]*$/.test(v) && Number(v) <= 100 ? undefined : `a whole number from 1 to 100 is expected, got ${JSON.stringify(v)}`;
}

/** Opens the command's session (the guard, the project's checkers, the log), runs `fn` and closes it. */
async function withSession(inv: Invocation, fn: (s: Session) => Promise<number>): Promise<number> {
  const session = await openSession(sessionFlags(inv), "index", inv, ["index", ...inv.args], { actor: "user" });
  inv.onExit((reason, code) => session.close(reason, code));
  let code: number = EXIT.error;
  try {
    code = await fn(session);
    return code;
  } catch (e) {
    const o = e as { domain?: string; message?: string };
    if (o?.domain === "index" || o?.domain === "guard" || o?.domain === "search") {
      inv.io.stderr.write(`nodwyn index: ${o.message}\n`);
      return EXIT.error;
    }
    throw e;
  } finally {
    session.close(code === 0 ? "done" : "error", code);
  }
}

/** The `nodwyn index` command and its subcommands. */
export const indexCommandSpec: Command = {
  name: "index",
  summary: "the repository index: update, search, status, gc",
  usage: "nodwyn index update|search|status|gc [options]",
  description:
    "The repository index holds chunks of the repository's files (those git lists, tracked or untracked and\n" +
    "not ignored; without git, the files index-grep walks), ranked by BM25 over words split as code names\n" +
    "them (index-search \"repo\"). Every file is read through the read guard and redacted; only line numbers\n" +
    `and words are stored, never text.\n${WHERE}`,
  subcommands: [
    {
      name: "update",
      summary: "build or refresh the index now (up to 60 s a call; run it again to go on)",
      usage: "nodwyn index update [PATH] [--quiet] [--json]",
      description:
        "With PATH, that directory or file of the repository is indexed whole from then on, git's ignores\n" +
        "notwithstanding. On a terminal a progress bar on stderr shows files, files per second and time left;\n" +
        "otherwise (or with --quiet) one summary line. Ctrl-C stops it; what was read is kept.",
      options: [{ name: "--quiet", short: "-q", help: "no progress bar, only the summary line" }, JSON_OPT, ...OPTS],
      args: { min: 0, max: 1, names: "[PATH]" },
      examples: ["nodwyn index update", "nodwyn index update third_party"],
      run: (inv) => withSession(inv, (s) => update(s, inv)),
    },
    {
      name: "search",
      summary: "refresh (up to 10 s), then show the best chunks for the words of QUERY",
      usage: "nodwyn index search QUERY... [--limit N] [--path P] [--json]",
      options: [
        { name: "--limit", value: "N", help: "hits to show (default 8, at most 100)", check: limitCheck },
        { name: "--path", value: "P", help: "only files under P (a directory or a file of the repository)" },
        JSON_OPT,
        ...OPTS,
      ],
      args: { min: 1, max: Infinity, names: "QUERY..." },
      examples: ["nodwyn index search credential binding check", "nodwyn index search deploy --path docs --limit 20"],
      run: (inv) => withSession(inv, (s) => search(s, inv)),
    },
    {
      name: "status",
      summary: "files, chunks, size on disk, last update, and whether it holds only part of the tree",
      usage: "nodwyn index status [--json]",
      description: WHERE,
      options: [JSON_OPT, ...OPTS],
      args: { min: 0, max: 0, names: "" },
      run: (inv) => withSession(inv, (s) => status(s, inv)),
    },
    {
      name: "gc",
      summary: "remove gone worktrees' manifests and chunks no tree has named for seven days",
      usage: "nodwyn index gc [--json]",
      options: [JSON_OPT, ...OPTS],
      args: { min: 0, max: 0, names: "" },
      run: (inv) => withSession(inv, (s) => gc(s, inv)),
    },
  ],
};

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
async function progressBar(io: Invocation["io"]): Promise<{ onProgress: (p: RefreshProgress) => void; stop: () => void }> {
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

async function update(session: Session, inv: Invocation): Promise<number> {
  const io = inv.io;
  const bar = !flag(inv, "--quiet") && (io.stderr as { isTTY?: boolean }).isTTY === true ? await progressBar(io) : null;
  // Ctrl-C stops the update between two files: what was read is committed.
  const ac = new AbortController();
  const onInt = (): void => ac.abort();
  io.signal?.addEventListener("abort", onInt);
  process.on("SIGINT", onInt);
  let r: Awaited<ReturnType<Session["index"]["update"]>>;
  try {
    r = await session.index.update({ ...(inv.args[0] !== undefined ? { path: inv.args[0] } : {}), signal: ac.signal, ...(bar ? { onProgress: bar.onProgress } : {}) });
  } catch (e) {
    if (ac.signal.aborted && (e as { code?: string })?.code === "aborted") {
      io.stderr.write("nodwyn index: interrupted; what was read is kept (run nodwyn index update to go on)\n");
      return EXIT.interrupted;
    }
    throw e;
  } finally {
    bar?.stop();
    process.off("SIGINT", onInt);
    io.signal?.removeEventListener("abort", onInt);
  }
  if (flag(inv, "--json")) io.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
  else io.stdout.write(updateSummary(r));
  return EXIT.ok;
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

async function search(session: Session, inv: Invocation): Promise<number> {
  const limit = optionValue(inv, "--limit");
  const r = await session.index.search(inv.args.join(" "), { ...(limit !== undefined ? { limit: Number(limit) } : {}), path: optionValue(inv, "--path") ?? null, actor: "user", ...(inv.io.signal ? { signal: inv.io.signal } : {}) });
  if (flag(inv, "--json")) inv.io.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
  else inv.io.stdout.write(searchText(r));
  return EXIT.ok;
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

async function status(session: Session, inv: Invocation): Promise<number> {
  const s = await session.index.status();
  inv.io.stdout.write(flag(inv, "--json") ? `${JSON.stringify(s, null, 2)}\n` : statusText(s));
  return EXIT.ok;
}

async function gc(session: Session, inv: Invocation): Promise<number> {
  const io = inv.io;
  const r = await session.index.gc();
  if (flag(inv, "--json")) io.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
  else if (r.busy) io.stdout.write("index: another process holds the index; nothing collected this time\n");
  else {
    const lines = [`index: removed the manifests of ${plural(r.trees.length, "gone worktree")} and ${plural(r.docs, "old version")} of files (${plural(r.chunks, "chunk")})`];
    for (const t of r.trees) lines.push(`  ${t}`);
    io.stdout.write(lines.join("\n") + "\n");
  }
  return EXIT.ok;
}
