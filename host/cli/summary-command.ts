// `nodwyn summary`: add a reviewed summary to a closed session, list its summaries with their status, revoke one.
//
// Every operation on a log appends (summary, summary.drop) under the log's
// lock and through the writer's redaction; none rewrites a record or keeps
// another store. A session another process has open is refused (its lock);
// one that did not end cleanly must be recovered by `nodwyn resume` first.

import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { loadConfig } from "../config/index.js";
import { LogError, LogLockedError, LogNotFoundError, openForAppend, readLog, type LogRecord, type LogWriter } from "../log/index.js";
import { Redactor } from "../redact/index.js";
import { SUMMARY_MAX_BYTES, SourceRecords, WindowV2, article, checkSpan, type SummaryStatus } from "../window/index.js";
import { EXIT, UsageError, flag, optionValue, type Invocation } from "./command.js";
import { sessionArg } from "./session-arg.js";

/** A failure the person can act on: said in one paragraph, exit 1. */
class SummaryError extends Error {}

function fail(message: string): never {
  throw new SummaryError(message);
}

/** The text of a summary file: UTF-8, at most 16 KiB, not empty. */
export function readSummaryText(path: string): string {
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) fail(`${path} is not a file`);
    size = st.size;
  } catch (e) {
    if (e instanceof SummaryError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    fail(`cannot read ${path}: ${code === "ENOENT" ? "no such file" : (code ?? String(e))}`);
  }
  if (size > SUMMARY_MAX_BYTES) fail(`${path} is ${size} bytes; a summary is at most ${SUMMARY_MAX_BYTES} bytes (16 KiB) of UTF-8: shorten it`);
  const bytes = readFileSync(path);
  if (bytes.length > SUMMARY_MAX_BYTES) fail(`${path} is ${bytes.length} bytes; a summary is at most ${SUMMARY_MAX_BYTES} bytes (16 KiB) of UTF-8: shorten it`);
  const bad = firstBadUtf8(bytes);
  if (bad >= 0) fail(`${path} is not UTF-8 text (byte ${bad} begins no UTF-8 character): save it as UTF-8`);
  const text = bytes.toString("utf8");
  if (text.trim() === "") fail(`${path} is empty: write the summary's text in it`);
  return text;
}

/** The offset of the first byte that is not part of a well-formed UTF-8 sequence (RFC 3629), or -1. */
export function firstBadUtf8(b: Uint8Array): number {
  for (let i = 0; i < b.length; ) {
    const c = b[i] as number;
    let n = 0;
    let min = 0;
    if (c < 0x80) {
      i++;
      continue;
    } else if (c >= 0xc2 && c <= 0xdf) {
      n = 1;
      min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
      n = 2;
      min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3;
      min = 0x10000;
    } else return i;
    if (i + n >= b.length) return i;
    let cp = c & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const x = b[i + k];
      if (x === undefined || (x & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (x & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n + 1;
  }
  return -1;
}

/** Whether a log ended cleanly: its last opening closed, every turn ended, every tool call answered. */
function incompleteness(records: readonly LogRecord[]): string | null {
  let open = false;
  let turn = 0;
  const calls = new Map<string, number>();
  for (const r of records) {
    const p = r.payload as Record<string, any>;
    if (r.kind === "session.start" || r.kind === "session.resume") open = true;
    else if (r.kind === "session.end") open = false;
    else if (r.kind === "user.msg") turn = r.seq;
    else if (r.kind === "turn.end") turn = 0;
    else if (r.kind === "llm.resp" && p.error === undefined && Array.isArray(p.tool_calls)) for (const c of p.tool_calls) calls.set(String(c?.id ?? ""), r.seq);
    else if (r.kind === "tool.result") calls.delete(String(p.call_id ?? ""));
  }
  if (open) return "its last session has no session.end (it crashed, or was killed)";
  if (turn !== 0) return `the turn that began at seq ${turn} has no turn.end`;
  if (calls.size > 0) return `the tool call ${[...calls.keys()][0]} has no result`;
  return null;
}

/** Opens the closed session's log under its lock, with its records. */
function openClosed(inv: Invocation, session: string, dataDir: string): { writer: LogWriter; records: LogRecord[] } {
  const redactor = new Redactor();
  // The person's keys, as a session of theirs registers them: the summary's text is redacted as every record is.
  try {
    const config = loadConfig({ env: inv.io.env });
    for (const s of Object.values(config.servers)) {
      const v = s.keyEnv !== undefined ? inv.io.env[s.keyEnv] : undefined;
      if (v !== undefined && v.length >= 4) redactor.registerSecret(v);
    }
  } catch (e) {
    inv.io.stderr.write(`nodwyn summary: warning: the configuration could not be read (${(e as Error).message.split("\n")[0]}); the redaction rules apply, not its keys\n`);
  }
  let writer: LogWriter;
  try {
    writer = openForAppend(session, { dataDir, redactor, refuseTorn: true }).writer;
  } catch (e) {
    if (e instanceof LogLockedError) fail(`the session ${session} is open in another process: close it there first (summaries are added to a closed session)`);
    if (e instanceof LogNotFoundError) fail(`no session ${session} in ${dataDir} (nodwyn log list shows them)`);
    if (e instanceof LogError && e.code === "LOG_TORN") fail(`${e.message.replace(/; resume it to recover the log first$/, "")}: run nodwyn resume ${session} to recover it (and close it), then edit its summaries`);
    throw e;
  }
  let records: LogRecord[];
  try {
    records = [...readLog(writer.file, { session })];
    const why = incompleteness(records);
    if (why !== null) fail(`the log of ${session} is incomplete: ${why}; run nodwyn resume ${session} to recover it (and close it), then edit its summaries`);
  } catch (e) {
    writer.close();
    throw e;
  }
  return { writer, records };
}

function statusOf(records: readonly LogRecord[]): { seq: number; from: number; through: number; status: SummaryStatus; actor: string; text: string; dropped?: number; superseded?: number; stale?: string }[] {
  const w = new WindowV2();
  for (const r of records) w.add(r);
  return w.summaries().map(({ entry: e, status }) => ({
    seq: e.seq,
    from: e.from,
    through: e.through,
    status,
    actor: e.actor,
    text: e.text,
    ...(e.dropped !== undefined ? { dropped: e.dropped } : {}),
    ...(e.superseded !== undefined ? { superseded: e.superseded } : {}),
    ...(e.stale !== undefined ? { stale: e.stale } : {}),
  }));
}

/** Runs `nodwyn summary`; returns the exit code. */
export async function runSummary(inv: Invocation): Promise<number> {
  const s = sessionArg(inv.args[0] as string, inv, { paths: false });
  const from = optionValue(inv, "--from");
  const through = optionValue(inv, "--through");
  const textFile = optionValue(inv, "--text");
  const drop = optionValue(inv, "--drop");
  const json = flag(inv, "--json");
  const creating = from !== undefined || through !== undefined || textFile !== undefined;
  if (creating && drop !== undefined) throw new UsageError("--drop revokes a summary; --from, --through and --text create one: give one or the other");
  if (creating && (from === undefined || through === undefined || textFile === undefined))
    throw new UsageError(`a summary needs --from, --through and --text (missing ${[from === undefined && "--from", through === undefined && "--through", textFile === undefined && "--text"].filter(Boolean).join(", ")})`, "e.g. nodwyn summary --from 12 --through 41 --text summary.txt SESSION");
  if (optionValue(inv, "--reason") !== undefined && drop === undefined) throw new UsageError("--reason goes with --drop");
  const out = inv.io.stdout;
  try {
    if (creating) {
      const text = readSummaryText(resolve(inv.io.cwd, textFile as string));
      const a = Number(from);
      const b = Number(through);
      const { writer, records } = openClosed(inv, s.session, s.dataDir);
      try {
        const sources = new SourceRecords();
        const kinds = new Map<number, string>();
        for (const r of records) {
          sources.add(r);
          kinds.set(r.seq, r.kind);
        }
        const c = checkSpan(sources, a, b, (x) => kinds.get(x));
        if (!c.ok) fail(`seq ${a}-${b} cannot be summarised: ${c.problem}`);
        const rec = writer.append("summary", { from: a, through: b, text, digest: c.digest, actor: "person" });
        const now = statusOf([...readLog(writer.file, { session: s.session })]).find((x) => x.seq === rec.seq);
        if (json) out.write(JSON.stringify({ seq: rec.seq, from: a, through: b, digest: c.digest, status: now?.status ?? "active", redacted: rec.redaction !== null }) + "\n");
        else out.write(`${rec.seq}\n`);
        if (rec.redaction !== null) inv.io.stderr.write(`nodwyn summary: the text held what looks like a secret; the record holds it redacted (seq ${rec.redaction.seq} says which rules)\n`);
        if (now?.status === "recent") inv.io.stderr.write(`nodwyn summary: seq ${a}-${b} reaches into the latest two user turns, which are never replaced: the summary is recent, and applies once later turns make its span older than that\n`);
      } finally {
        writer.close();
      }
      return EXIT.ok;
    }
    if (drop !== undefined) {
      const target = Number(drop);
      const { writer, records } = openClosed(inv, s.session, s.dataDir);
      try {
        const r = records.find((x) => x.seq === target);
        if (r === undefined) fail(`the log of ${s.session} has no record at seq ${target}`);
        if (r.kind !== "summary") fail(`seq ${target} is ${article(r.kind)} ${r.kind} record, not a summary (nodwyn summary ${s.session} lists them)`);
        const already = records.find((x) => x.kind === "summary.drop" && x.payload.summary_seq === target);
        if (already !== undefined) fail(`the summary at seq ${target} was already dropped (seq ${already.seq})`);
        const reason = optionValue(inv, "--reason");
        const rec = writer.append("summary.drop", { summary_seq: target, actor: "person", ...(reason !== undefined ? { reason } : {}) });
        out.write(json ? JSON.stringify({ seq: rec.seq, summary_seq: target }) + "\n" : `${rec.seq}\n`);
      } finally {
        writer.close();
      }
      return EXIT.ok;
    }
    const list = statusOf([...readLog(s.file, { session: s.session })]);
    if (json) {
      for (const x of list) out.write(JSON.stringify(x) + "\n");
      return EXIT.ok;
    }
    if (list.length === 0) {
      out.write(`no summaries in ${s.session}\n`);
      return EXIT.ok;
    }
    out.write(`${"SEQ".padStart(6)}  ${"SPAN".padEnd(13)}  ${"STATUS".padEnd(10)}  TEXT\n`);
    for (const x of list) {
      const first = (x.text.split("\n")[0] ?? "").trim();
      const why = x.dropped !== undefined ? ` (dropped at seq ${x.dropped})` : x.superseded !== undefined ? ` (by seq ${x.superseded})` : x.stale !== undefined ? ` (${x.stale})` : "";
      out.write(`${String(x.seq).padStart(6)}  ${`${x.from}-${x.through}`.padEnd(13)}  ${x.status.padEnd(10)}  ${first.length > 60 ? first.slice(0, 59) + "…" : first}${why}\n`);
    }
    return EXIT.ok;
  } catch (e) {
    if (e instanceof SummaryError) {
      inv.io.stderr.write(`nodwyn summary: ${e.message}\n`);
      return EXIT.error;
    }
    if (e instanceof LogError) {
      inv.io.stderr.write(`nodwyn summary: ${e.message}\n`);
      return EXIT.error;
    }
    throw e;
  }
}
