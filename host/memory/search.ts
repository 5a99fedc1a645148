// Ranking a task's (or many tasks') events by BM25 over the shared splitter's words, and showing them under their turns.

import type { LogRecord } from "../log/index.js";
import { bestLines, queryWords } from "../index/index.js";
import { cardLine, type TurnCard } from "./cards.js";
import { contextPhrase, describeEvent, eventLines, type CallInfo } from "./events.js";
import type { DocEntry } from "./fold.js";
import { MemMismatch, wordKey } from "./mem-file.js";
import type { TaskView } from "./task-memory.js";

/** BM25's parameters (those of FTS5's bm25(), which the repository index uses). */
export const K1 = 1.2;
export const B = 0.75;
/** A search shows this many events unless told otherwise, and at most MAX_HITS. */
export const DEFAULT_HITS = 8;
export const MAX_HITS = 100;
/** A best line is cut at this many characters. */
export const LINE_CHARS = 200;

/** A task as an earlier-task result names it. */
export interface TaskSummary {
  readonly id: string;
  /** Its title, else its first message. */
  readonly name: string;
  /** The UTC day of its last event (YYYY-MM-DD). */
  readonly day: string;
  readonly archived: boolean;
}

export interface EventHit {
  readonly seq: number;
  readonly type: string;
  readonly heading: string;
  readonly score: number;
  /** The three lines holding the most of the query's words, numbered as recall numbers them. */
  readonly lines: readonly { line: number; text: string }[];
}

export interface TurnHits {
  readonly task?: TaskSummary;
  /** 0: the events are outside any turn. */
  readonly turn: number;
  /** The turn in one line, from its card. */
  readonly card: string;
  readonly events: EventHit[];
}

export interface MemorySearchResult {
  readonly query: string;
  readonly words: readonly string[];
  readonly turns: TurnHits[];
  readonly found: number;
  /** Events ranked (N), and tasks searched. */
  readonly events: number;
  readonly tasks: number;
}

interface Scored {
  readonly view: number;
  readonly doc: number;
  readonly score: number;
}

export function taskSummary(v: TaskView): TaskSummary {
  const f = v.facts;
  return { id: v.session, name: f.title !== "" ? f.title : f.first !== "" ? f.first : "(no message)", day: f.lastTs.slice(0, 10), archived: f.archived };
}

/** The call a result answers, read again from the log. */
function callOf(v: TaskView, d: DocEntry): CallInfo | null {
  if (d.callBytes === 0) return null;
  const c = v.recordAt(d.callOff, d.callBytes);
  if (c === null || c.kind !== "tool.call") throw new MemMismatch(v.logFile, `the call of seq ${d.seq} is not where the memory says`);
  const p = c.payload as Record<string, unknown>;
  return { seq: c.seq, tool: String(p.tool ?? ""), args: p.args };
}

/** An event's record, read again from the log by where its line is; a line that is not it is a mismatch. */
function recordOf(v: TaskView, d: DocEntry): LogRecord {
  const r = v.recordAt(d.off, d.bytes);
  if (r === null || r.seq !== d.seq) throw new MemMismatch(v.logFile, `the line of seq ${d.seq} is not where the memory says`);
  return r;
}

/**
 * Ranks the events of `views` as one collection: a word weighs by how many
 * events of all of them hold it (BM25, K1 and B); a tie goes to the newer task
 * (its last event), then to the later event. Throws MemMismatch when a part
 * of a .mem file fails its check (the caller makes it again and retries).
 */
export function rankViews(views: readonly TaskView[], query: string, limit: number, o: { readonly earlier: boolean }): MemorySearchResult {
  const words = queryWords(query);
  let n = 0;
  let total = 0;
  for (const v of views) {
    n += v.docs;
    total += v.totalLen;
  }
  const avg = n > 0 ? total / n : 1;
  const keys = words.map(wordKey);
  const lists: (ArrayLike<number> | null)[][] = views.map((v) => keys.map((w) => v.postings(w)));
  const df = words.map((_, k) => lists.reduce((a, l) => a + (l[k] === null ? 0 : l[k]!.length / 3), 0));
  const idf = df.map((d) => Math.log(1 + (n - d + 0.5) / (d + 0.5)));
  const newer = views.map((v) => v.facts.lastTs);
  // a ranks before b: the higher score; a tie to the newer task, then to the later event (a view's events are numbered in seq order).
  const before = (a: Scored, b: Scored): boolean => {
    if (a.score !== b.score) return a.score > b.score;
    if (a.view !== b.view) {
      const ta = newer[a.view]!;
      const tb = newer[b.view]!;
      if (ta !== tb) return ta > tb;
      return views[a.view]!.session > views[b.view]!.session;
    }
    return a.doc > b.doc;
  };
  // The best `limit`, kept in order as the scores come (no sort of every event that holds a word).
  const top: Scored[] = [];
  const offer = (s: Scored): void => {
    if (limit <= 0) return;
    if (top.length >= limit && !before(s, top[top.length - 1]!)) return;
    let i = top.length < limit ? top.length : top.length - 1;
    if (top.length < limit) top.push(s);
    while (i > 0 && before(s, top[i - 1]!)) {
      top[i] = top[i - 1]!;
      i--;
    }
    top[i] = s;
  };
  views.forEach((v, vi) => {
    const acc = new Float64Array(v.docs);
    const touched: number[] = [];
    lists[vi]!.forEach((list, k) => {
      if (list === null) return;
      for (let i = 0; i < list.length; i += 3) {
        const doc = list[i]!;
        const tf = list[i + 1]!;
        const len = list[i + 2]!;
        const s = (idf[k]! * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * len) / avg));
        if (acc[doc] === 0) touched.push(doc);
        acc[doc] += s;
      }
    });
    for (const doc of touched) offer({ view: vi, doc, score: acc[doc]! });
  });
  const want = new Set(words);
  const groups: TurnHits[] = [];
  const byTurn = new Map<string, TurnHits>();
  for (const s of top) {
    const v = views[s.view]!;
    const d = v.doc(s.doc);
    const rec = recordOf(v, d);
    const call = rec.kind === "tool.result" ? callOf(v, d) : null;
    const lines = eventLines(rec);
    const key = `${s.view}:${d.turn}`;
    let g = byTurn.get(key);
    if (g === undefined) {
      const card: TurnCard | null = d.turn > 0 ? v.card(d.turn) : null;
      g = { ...(o.earlier ? { task: taskSummary(v) } : {}), turn: d.turn, card: card !== null ? cardLine(card) : "outside any turn", events: [] };
      byTurn.set(key, g);
      groups.push(g);
    }
    const best = lines.length === 0 ? [] : bestLines(lines, 1, lines.length, want, LINE_CHARS);
    g.events.push({ seq: d.seq, type: d.type, heading: `seq ${d.seq}, ${describeEvent(rec, call)}${contextPhrase(v.contextOf(d))}`, score: Math.round(s.score * 1e4) / 1e4, lines: best });
  }
  return { query, words, turns: groups, found: top.length, events: n, tasks: views.length };
}

/** A search's result as the model reads it: each turn's line, its events with their best lines. */
export function renderSearch(r: MemorySearchResult, scope: string, recallHint?: string): string {
  if (r.found === 0) return `no events match ${JSON.stringify(r.query)} (${r.events} events of ${r.tasks === 1 ? "this task" : `${r.tasks} tasks`} searched)`;
  const out: string[] = [];
  for (const g of r.turns) {
    if (g.task !== undefined) out.push(`task ${g.task.id} · ${JSON.stringify(g.task.name)} · last event ${g.task.day}${g.task.archived ? " · archived" : ""}`);
    out.push(g.card);
    for (const e of g.events) {
      out.push(`  ${e.heading}`);
      for (const l of e.lines) out.push(`    ${l.line}: ${l.text}`);
    }
  }
  const how = recallHint ?? (scope === "earlier" ? "(recall SEQ 0 0 \"TASK\") reads one whole, TASK the id its task line names" : "(recall SEQ) reads one whole");
  out.push(`[${r.found} ${r.found === 1 ? "event" : "events"} of ${r.events} in ${r.tasks === 1 ? "this task" : `${r.tasks} tasks`}; ${how}]`);
  return out.join("\n");
}
