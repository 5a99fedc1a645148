// Reviewable, revocable summaries: which spans may be summarised, the digest of a span's source, and each summary's status.
//
// A summary record (kind summary: from, through, text, digest, actor) stands
// for the conversation from a user.msg through a completed llm.resp. It is
// written by a person (`nodwyn summary`), never by a model, to a closed
// session; it rewrites nothing. Its status at a point of the log — what the
// window of a request at that point does with it — is, first match wins:
//   dropped     a summary.drop names it (revoked);
//   superseded  a newer summary's span overlaps its span (for good: dropping or
//               invalidating the newer one does not bring it back);
//   stale       its span is not a valid span of the log any more, or the span's
//               source no longer has the recorded digest (the originals stay);
//   recent      its span reaches into the latest two user turns, which are
//               never replaced (it applies once two more turns have begun);
//   active      the window shows it in place of its span.
// The same functions serve the window (host/window/window-v2.ts) and the
// command (host/cli/summary-command.ts), so both always agree.

import type { LogRecord } from "../log/index.js";
import { digestJson } from "./canonical.js";

/** The kinds whose records make up a span's source conversation (what its digest covers). */
export const SOURCE_KINDS: ReadonlySet<string> = new Set(["user.msg", "llm.resp", "tool.call", "tool.result"]);

/** The largest summary text, in bytes of UTF-8. */
export const SUMMARY_MAX_BYTES = 16 * 1024;

/** The status of a summary. */
export type SummaryStatus = "active" | "recent" | "dropped" | "stale" | "superseded";

/** Records of the source kinds in seq order, with a lookup by seq. */
export class SourceRecords {
  private readonly list: LogRecord[] = [];

  /** Adds a record if it is of a source kind; records come in seq order. */
  add(r: LogRecord): void {
    if (SOURCE_KINDS.has(r.kind)) this.list.push(r);
  }

  get length(): number {
    return this.list.length;
  }

  /** The index of the first record with seq ≥ `seq`. */
  private lowerBound(seq: number): number {
    let lo = 0;
    let hi = this.list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.list[mid] as LogRecord).seq < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The source record at seq, or undefined. */
  at(seq: number): LogRecord | undefined {
    const r = this.list[this.lowerBound(seq)];
    return r !== undefined && r.seq === seq ? r : undefined;
  }

  /** The source records with from ≤ seq ≤ through, in order. */
  range(from: number, through: number, include: (seq: number) => boolean = () => true): LogRecord[] {
    const out: LogRecord[] = [];
    for (let i = this.lowerBound(from); i < this.list.length; i++) {
      const r = this.list[i] as LogRecord;
      if (r.seq > through) break;
      if (include(r.seq)) out.push(r);
    }
    return out;
  }
}

/** The digest of a span's source: "sha256:…" of the canonical JSON of its records' seq, kind and (redacted) payload. */
export function sourceDigest(records: readonly LogRecord[]): string {
  return digestJson(records.map((r) => ({ seq: r.seq, kind: r.kind, payload: r.payload })));
}

/** Why a span cannot be summarised, or its source digest. */
export type SpanCheck = { readonly ok: true; readonly digest: string; readonly records: number } | { readonly ok: false; readonly problem: string };

/**
 * Checks that from..through is a span a summary may stand for: it begins at a
 * user.msg, ends at a completed llm.resp (no error, not cut at the output
 * limit, no tool calls of its own), and every tool call of a reply inside it
 * has its result inside it. `kindAt` names the kind of any seq of the log (for
 * the messages); `include` says which seqs are on the current branch.
 */
export function checkSpan(
  sources: SourceRecords,
  from: number,
  through: number,
  kindAt: (seq: number) => string | undefined,
  include: (seq: number) => boolean = () => true,
): SpanCheck {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(through) || from < 1) return { ok: false, problem: `the span ${from}-${through} is not two positive seqs` };
  if (through < from) return { ok: false, problem: `the span ends (seq ${through}) before it begins (seq ${from})` };
  const first = include(from) ? sources.at(from) : undefined;
  if (first === undefined || first.kind !== "user.msg") {
    const k = include(from) ? kindAt(from) : undefined;
    return { ok: false, problem: `a span begins at a user.msg; seq ${from} is ${k === undefined ? "not in the log" : `${article(k)} ${k} record`}` };
  }
  const last = include(through) ? sources.at(through) : undefined;
  if (last === undefined || last.kind !== "llm.resp") {
    const k = include(through) ? kindAt(through) : undefined;
    return { ok: false, problem: `a span ends at a completed llm.resp; seq ${through} is ${k === undefined ? "not in the log" : `${article(k)} ${k} record`}` };
  }
  const lp = last.payload as Record<string, unknown>;
  if (lp.error !== undefined) return { ok: false, problem: `seq ${through} is an incomplete reply (it failed: ${String(lp.error)}); end the span at a completed llm.resp` };
  if (lp.stop_reason === "max_tokens") return { ok: false, problem: `seq ${through} is an incomplete reply (it stopped at the output limit); end the span at a completed llm.resp` };
  if (Array.isArray(lp.tool_calls) && lp.tool_calls.length > 0)
    return { ok: false, problem: `seq ${through} is a reply with pending tool calls (its results come after it); end the span at a reply without tool calls` };
  const records = sources.range(from, through, include);
  const open = new Map<string, number>();
  for (const r of records) {
    const p = r.payload as Record<string, unknown>;
    if (r.kind === "llm.resp" && p.error === undefined && Array.isArray(p.tool_calls))
      for (const c of p.tool_calls as { id?: unknown }[]) open.set(String(c?.id ?? ""), r.seq);
    else if (r.kind === "tool.result") open.delete(String(p.call_id ?? ""));
  }
  if (open.size > 0) {
    const [id, seq] = open.entries().next().value as [string, number];
    return { ok: false, problem: `the span has pending tool calls: call ${JSON.stringify(id)} of the reply at seq ${seq} has no result inside it` };
  }
  return { ok: true, digest: sourceDigest(records), records: records.length };
}

/** One summary record as the status rules see it. */
export interface SummaryEntry {
  readonly seq: number;
  readonly from: number;
  readonly through: number;
  readonly text: string;
  readonly actor: string;
  readonly digest: string;
  /** The seq of the summary.drop that revoked it. */
  dropped?: number;
  /** The seq of the newer overlapping summary. */
  superseded?: number;
  /** Why it is stale (its span's problem or a changed source), when it is. */
  stale?: string;
}

/** The summaries of a log prefix, folded record by record. */
export class SummaryBook {
  /** Every summary, in log order. */
  readonly entries: SummaryEntry[] = [];
  private readonly bySeq = new Map<number, SummaryEntry>();
  /** The seqs of the prefix's user.msg records on the branch, in order (for "recent"). */
  private readonly users: number[] = [];

  /** The summary recorded at seq, if any. */
  get(seq: number): SummaryEntry | undefined {
    return this.bySeq.get(seq);
  }

  /** Notes a user.msg of the prefix. */
  userMessage(seq: number): void {
    this.users.push(seq);
  }

  /** Forgets the user messages (a branch change: the caller adds those on the new branch again). */
  resetUsers(seqs: readonly number[]): void {
    this.users.length = 0;
    this.users.push(...seqs);
  }

  /** The seq of the second-latest user.msg: spans reaching it or later are recent. 0 when there are fewer than two… then every span is recent. */
  private recentFrom(): number {
    const n = this.users.length;
    return n >= 2 ? (this.users[n - 2] as number) : 0;
  }

  /**
   * Folds a summary record: it supersedes every older summary whose span
   * overlaps its own; its staleness is checked against the sources now.
   */
  addSummary(r: LogRecord, check: (from: number, through: number) => SpanCheck): SummaryEntry {
    const p = r.payload as Record<string, unknown>;
    const e: SummaryEntry = {
      seq: r.seq,
      from: Number(p.from),
      through: Number(p.through),
      text: typeof p.text === "string" ? p.text : "",
      actor: typeof p.actor === "string" ? p.actor : "person",
      digest: typeof p.digest === "string" ? p.digest : "",
    };
    for (const o of this.entries) if (o.superseded === undefined && o.from <= e.through && e.from <= o.through) o.superseded = e.seq;
    this.restale(e, check);
    this.entries.push(e);
    this.bySeq.set(e.seq, e);
    return e;
  }

  /** Checks one summary's span and digest again (after a branch change). */
  restale(e: SummaryEntry, check: (from: number, through: number) => SpanCheck): void {
    const c = check(e.from, e.through);
    if (!c.ok) e.stale = `its span is not valid now: ${c.problem}`;
    else if (c.digest !== e.digest) e.stale = `its source changed: the span's digest is ${c.digest}, the summary was made over ${e.digest || "no digest"}`;
    else delete e.stale;
  }

  /** Folds a summary.drop; returns the summary it revoked (undefined when it names none). */
  addDrop(r: LogRecord): SummaryEntry | undefined {
    const e = this.bySeq.get(Number((r.payload as Record<string, unknown>).summary_seq));
    if (e !== undefined && e.dropped === undefined) e.dropped = r.seq;
    return e;
  }

  /** The status of a summary now. */
  status(e: SummaryEntry): SummaryStatus {
    if (e.dropped !== undefined) return "dropped";
    if (e.superseded !== undefined) return "superseded";
    if (e.stale !== undefined) return "stale";
    if (e.through >= this.recentFrom()) return "recent";
    return "active";
  }

  /** The active summaries, in log order (their spans never overlap: the newer of two overlapping ones supersedes the older). */
  active(): SummaryEntry[] {
    return this.entries.filter((e) => this.status(e) === "active");
  }

  /** A string that changes whenever the set of active summaries does. */
  activeKey(): string {
    return this.active()
      .map((e) => e.seq)
      .join(",");
  }
}

/** "a" or "an" before a kind's name as it is read ("an llm.req", "a user.msg"). */
export function article(kind: string): string {
  return /^(?:llm|[aeio])/.test(kind) ? "an" : "a";
}
