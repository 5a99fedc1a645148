// recall: one event as the log recorded it, under a heading naming it, in lines as a ranged fs-read returns a file.

import type { LogRecord } from "../log/index.js";
import { cardText } from "./cards.js";
import { contextPhrase, describeEvent, eventLines, replyCalls, type CallInfo } from "./events.js";
import type { TaskView } from "./task-memory.js";

/** What recall returns. */
export interface RecallResult {
  readonly seq: number;
  readonly task: string;
  readonly kind: string;
  readonly heading: string;
  /** The lines shown: start to end of total (1-based; 0-0 of 0 for an event without text). */
  readonly start: number;
  readonly end: number;
  readonly total: number;
  readonly lines: readonly string[];
  /** For a reply: the seq of each call's result (null: the log holds none). */
  readonly results?: readonly { call: string; tool: string; seq: number | null }[];
  /** For a turn's first message: its card and the seq of every event of the turn. */
  readonly card?: readonly string[];
  readonly events?: readonly { seq: number; type: string }[];
  /** The whole text as the model reads it. */
  readonly text: string;
}

/** recall's failures: no such seq, a bad range. */
export class RecallError extends Error {
  constructor(readonly code: "no-event" | "bad-range", message: string) {
    super(message);
    this.name = "RecallError";
  }
}

/** The tool.call a result answers: the record before it with its call_id, within its turn. */
function callFor(v: TaskView, r: LogRecord): CallInfo | null {
  const id = String((r.payload as any).call_id ?? "");
  for (let s = r.seq - 1, n = 0; s >= 1 && n < 10_000; s--, n++) {
    const x = v.record(s);
    if (x === null || x.kind === "user.msg") return null;
    if (x.kind === "tool.call" && String((x.payload as any).call_id) === id) return { seq: x.seq, tool: String((x.payload as any).tool ?? ""), args: (x.payload as any).args };
  }
  return null;
}

/** The results of a reply's calls: the tool.result records after it with their call_ids, within its turn. */
function resultsFor(v: TaskView, r: LogRecord): { call: string; tool: string; seq: number | null }[] {
  const calls = replyCalls(r.payload as Record<string, unknown>);
  const out = calls.map((c) => ({ call: c.id, tool: c.name, seq: null as number | null }));
  let left = out.length;
  for (let s = r.seq + 1, n = 0; left > 0 && n < 100_000; s++, n++) {
    const x = v.record(s);
    if (x === null || x.kind === "user.msg" || x.kind === "turn.end") break;
    if (x.kind !== "tool.result") continue;
    const id = String((x.payload as any).call_id);
    const o = out.find((c) => c.call === id && c.seq === null);
    if (o !== undefined) {
      o.seq = x.seq;
      left--;
    }
  }
  return out;
}

/** The turn that holds seq: the number of the last card starting at or before it (0 before the first). */
function turnOf(v: TaskView, seq: number): number {
  const i = v.docOf(seq);
  if (i >= 0) return v.doc(i).turn;
  let turn = 0;
  for (const c of v.cards()) if (c.first <= seq && (c.end === 0 || c.end >= seq)) turn = c.turn;
  return turn;
}

/**
 * One event of `v`: lines start..start+count-1 (start 0 or 1: from the first;
 * count 0: as many as fit in `capChars`, stopping at a whole line).
 */
export function recallEvent(v: TaskView, seq: number, start: number, count: number, capChars: number, o: { readonly other?: boolean } = {}): RecallResult {
  const r = v.record(seq);
  if (r === null) throw new RecallError("no-event", `seq ${seq} is not an event of ${o.other ? `task ${v.session}` : "this session"}'s log (it holds seq 1 to ${v.lastSeq})`);
  const call = r.kind === "tool.result" ? callFor(v, r) : null;
  const all = eventLines(r);
  const total = all.length;
  const first = start <= 1 ? 1 : start;
  if (total > 0 && first > total) throw new RecallError("bad-range", `seq ${seq} has ${total} lines: start ${start} is past its end`);
  let last: number;
  if (count > 0) last = Math.min(total, first + count - 1);
  else {
    // As many whole lines as fit within the window's cut for one result (at least one).
    let used = 0;
    last = first - 1;
    for (let k = first; k <= total; k++) {
      const n = all[k - 1]!.length + 1;
      if (k > first && used + n > capChars) break;
      used += n;
      last = k;
    }
  }
  let lines = total === 0 ? [] : all.slice(first - 1, last);
  // One line longer than the cut is cut itself: the rest is read with a range.
  if (count === 0 && lines.length === 1 && lines[0]!.length > capChars) lines = [`${lines[0]!.slice(0, capChars)}[… line cut at ${capChars} characters …]`];
  const turn = turnOf(v, seq);
  const i = v.docOf(seq);
  const where = `${contextPhrase(i >= 0 ? v.contextOf(v.doc(i)) : null)}${turn > 0 ? ` (turn ${turn})` : ""}${o.other ? `, in task ${v.session}` : ""}`;
  const heading = `seq ${seq}, ${describeEvent(r, call)}${where}`;
  const out: string[] = [heading];
  let results: RecallResult["results"];
  if (r.kind === "llm.resp") {
    results = resultsFor(v, r);
    if (results.length > 0) out.push(`results: ${results.map((x) => `${x.tool} → ${x.seq === null ? "no result in the log" : `seq ${x.seq}`}`).join(", ")}`);
  }
  let card: string[] | undefined;
  let events: { seq: number; type: string }[] | undefined;
  if (r.kind === "user.msg") {
    const c = v.card(turn);
    if (c !== null && c.first === seq) {
      card = cardText(c);
      events = c.events.map(([s, t]) => ({ seq: s, type: t }));
      out.push(...card.map((l) => `| ${l}`));
      out.push(`| events: ${events.map((e) => `${e.seq} ${e.type}`).join(", ")}`);
    }
  }
  out.push(total === 0 ? "[no text]" : `[lines ${first}-${last} of ${total}]`);
  out.push(...lines);
  if (last < total) out.push(`[${total - last} more lines: (recall ${seq} ${last + 1} ${Math.max(1, last - first + 1)}${o.other ? ` "${v.session}"` : ""}) reads on]`);
  return {
    seq,
    task: v.session,
    kind: r.kind,
    heading,
    start: total === 0 ? 0 : first,
    end: total === 0 ? 0 : last,
    total,
    lines,
    ...(results !== undefined ? { results } : {}),
    ...(card !== undefined ? { card, events } : {}),
    text: out.join("\n"),
  };
}
