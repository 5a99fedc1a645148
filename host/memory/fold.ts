// The fold of a log into its memory: events with their words (postings), turn cards, compaction notes, the task's facts.
//
// A fold takes a log's records in seq order with where each line is; it can
// start from the state a .mem file saved (the end of a whole turn) and go on
// with what the log gained. Nothing here reads a file.

import { hash } from "node:crypto";
import type { LogEntry, LogRecord } from "../log/index.js";
import { forEachWord } from "../index/index.js";
import { CardBuilder, type CompactionNote, type TurnCard } from "./cards.js";
import { EVENT_CODES, callText, eventOf, eventText, type CallInfo, type EventType } from "./events.js";

/** A result's call counts this many times its output (seed 000). */
export const CALL_WEIGHT = 3;

/** One indexed event. */
export interface DocEntry {
  readonly seq: number;
  readonly type: EventType;
  /** The turn that holds it (0: outside any turn). */
  readonly turn: number;
  /** Its length for BM25: its words, the call's counted three times. */
  readonly len: number;
  readonly failed: boolean;
  /** Where its line is in the log, and the line of the call it answers (0, 0 when none). */
  readonly off: number;
  readonly bytes: number;
  readonly callOff: number;
  readonly callBytes: number;
  /** The sub-context it was recorded in (a context.narrow without lasting, until its context.fold): 1 + its index in the fold's contexts; 0: none. */
  readonly context: number;
}

/** What a task is, for earlier-task results: title, first message, last event, archived. */
export interface TaskFacts {
  session: string;
  /** The working tree's root the session ran in (session.start's repo). */
  repo: string;
  /** The repository a worktree session's tree belongs to (session.start's worktree.repository), when recorded. */
  repository?: string;
  title: string;
  first: string;
  archived: boolean;
  firstTs: string;
  lastTs: string;
}

/** Where a fold stands: after which record, at which byte, which turn. */
export interface FoldPoint {
  readonly seq: number;
  readonly end: number;
  /** Turns started so far (user.msg records). */
  readonly turns: number;
}

/** The end of the last whole turn, as a .mem file records it: the turn.end line's end offset, length and SHA-256. */
export interface Watermark extends FoldPoint {
  readonly lineBytes: number;
  readonly hash: string;
}

export function lineHash(line: Uint8Array): string {
  // One call (crypto.hash): a search checks one or two lines of each task's log, and a Hash object for each costs more than the line.
  return hash("sha256", line, "hex");
}

/** A fold of one log. */
export class TaskFold {
  docs: DocEntry[] = [];
  /** word → flat [doc, tf, doc, tf, …], docs ascending. */
  postings = new Map<string, number[]>();
  cards: TurnCard[] = [];
  notes: CompactionNote[] = [];
  /** The offset of each record's line (index seq − 1), from the fold's start. */
  offsets: number[] = [];
  totalLen = 0;
  facts: TaskFacts;
  point: FoldPoint;
  /** The end of the last turn.end folded, with its line's length and hash (set by the caller that has the bytes). */
  lastTurnEnd: { seq: number; end: number; turns: number; lineBytes: number } | null = null;
  private open: CardBuilder | null = null;
  private calls = new Map<string, CallInfo & { off: number; bytes: number }>();
  private respText = new Map<number, string>();
  private words: Map<string, WordEntry> | null = null;

  /** The entries of `postings` (made when a restored fold first indexes). */
  private entries(): Map<string, WordEntry> {
    if (this.words === null) {
      this.words = new Map();
      for (const [w, list] of this.postings) this.words.set(w, { list, c: 0 });
    }
    return this.words;
  }
  /** The first doc index of this fold (a tail fold goes on after a file's docs). */
  readonly docBase: number;
  /** The first seq this fold holds offsets from. */
  seqBase: number;
  /** Every sub-context opened so far, by its label ("" when it has none), and those still open (indexes, innermost last). */
  contexts: string[] = [];
  openContexts: number[] = [];

  constructor(session: string, start?: { point: FoldPoint; facts: TaskFacts; docBase: number; contexts?: readonly string[]; openContexts?: readonly number[] }) {
    this.contexts = [...(start?.contexts ?? [])];
    this.openContexts = [...(start?.openContexts ?? [])];
    this.facts = start?.facts ? { ...start.facts } : { session, repo: "", title: "", first: "", archived: false, firstTs: "", lastTs: "" };
    this.point = start?.point ?? { seq: 0, end: 0, turns: 0 };
    this.docBase = start?.docBase ?? 0;
    this.seqBase = this.point.seq + 1;
  }

  /** A fold that goes on from what a .mem file saved (the end of a whole turn). */
  static restore(session: string, saved: { point: FoldPoint; facts: TaskFacts; docs: DocEntry[]; postings: Map<string, number[]>; cards: TurnCard[]; notes: CompactionNote[]; offsets: number[]; totalLen: number; contexts: readonly string[]; openContexts: readonly number[] }): TaskFold {
    const f = new TaskFold(session, { point: saved.point, facts: saved.facts, docBase: 0, contexts: saved.contexts, openContexts: saved.openContexts });
    f.docs = saved.docs;
    f.postings = saved.postings;
    f.cards = saved.cards;
    f.notes = saved.notes;
    f.offsets = saved.offsets;
    f.totalLen = saved.totalLen;
    f.seqBase = 1;
    return f;
  }

  /** A fold of the records after this one's, as a separate part (its events numbered after this one's). */
  continuation(): TaskFold {
    return new TaskFold(this.facts.session, { point: this.point, facts: this.facts, docBase: this.docBase + this.docs.length, contexts: this.contexts, openContexts: this.openContexts });
  }

  /** The record at `seq` is this fold's: where its line is. */
  lineOf(seq: number): { off: number; end: number } | null {
    const i = seq - this.seqBase;
    if (i < 0 || i >= this.offsets.length) return null;
    return { off: this.offsets[i]!, end: i + 1 < this.offsets.length ? this.offsets[i + 1]! : this.point.end };
  }

  /** The card of the open turn, if one is open. */
  get openCard(): TurnCard | null {
    return this.open?.card ?? null;
  }

  /** Folds one entry in (entries must follow in seq order). */
  add(e: LogEntry): void {
    const r = e.record;
    const p = r.payload as Record<string, any>;
    this.offsets.push(e.offset);
    const f = this.facts;
    if (f.firstTs === "") f.firstTs = r.ts;
    f.lastTs = r.ts;
    let turns = this.point.turns;
    switch (r.kind) {
      case "session.start":
      case "session.resume":
        if (typeof p.repo === "string") f.repo = p.repo;
        if (p.worktree !== null && typeof p.worktree === "object" && typeof p.worktree.repository === "string") f.repository = p.worktree.repository;
        break;
      case "session.title":
        f.title = String(p.title ?? "");
        break;
      case "session.archive":
        f.archived = p.archived === true;
        break;
      case "user.msg":
        turns++;
        if (f.first === "") f.first = String(p.text ?? "").replace(/\s+/g, " ").trim().slice(0, 160);
        if (this.open !== null) this.cards.push(this.open.card); // a turn.end never came (an old log)
        this.open = new CardBuilder(r, turns);
        this.calls.clear();
        this.respText.clear();
        break;
      case "tool.call":
        this.calls.set(String(p.call_id), { seq: r.seq, tool: String(p.tool ?? ""), args: p.args, off: e.offset, bytes: e.end - e.offset });
        break;
      case "llm.resp":
        if (typeof p.text === "string") this.respText.set(r.seq, p.text);
        this.fillNotes(r.seq, typeof p.text === "string" ? p.text : "");
        break;
      case "context.compact":
        this.notes.push({
          seq: r.seq,
          turn: this.open?.card.turn ?? 0,
          trigger: String(p.trigger ?? ""),
          compacted: p.compacted === true,
          before: Number(p.before_tokens ?? 0),
          ...(typeof p.after_tokens === "number" ? { after: p.after_tokens } : {}),
          ...(typeof p.focus === "string" ? { focus: p.focus } : {}),
          ...(typeof p.note_resp_seq === "number" ? { respSeq: p.note_resp_seq } : {}),
          text: typeof p.note_resp_seq === "number" ? (this.respText.get(p.note_resp_seq) ?? "") : "",
        });
        break;
      case "context.fold":
        this.openContexts.pop();
        break;
      case "context.narrow":
        // One without lasting opens a sub-context (until its context.fold); the events after it are recorded in it.
        if (p.lasting !== true) {
          this.contexts.push(typeof p.label === "string" ? p.label : "");
          this.openContexts.push(this.contexts.length - 1);
        }
        // A narrowing that carries the note of a compaction recorded without its text.
        for (const n of this.notes) if (n.text === "" && (n.respSeq === p.resp_seq || (n.respSeq === undefined && typeof p.note === "string"))) n.text = typeof p.note === "string" ? p.note : (this.respText.get(Number(p.resp_seq)) ?? "");
        break;
      default:
        break;
    }
    const call = r.kind === "tool.result" ? (this.calls.get(String(p.call_id)) ?? null) : null;
    this.open?.add(r, call);
    const ev = eventOf(r, call);
    if (ev !== null) this.index(r, ev.type, ev.failed === true, call, e, turns);
    if (r.kind === "turn.end" && this.open !== null) {
      this.cards.push(this.open.card);
      this.open = null;
      this.calls.clear();
      this.respText.clear();
    }
    this.point = { seq: r.seq, end: e.end, turns };
    if (r.kind === "turn.end") this.lastTurnEnd = { seq: r.seq, end: e.end, turns, lineBytes: e.end - e.offset };
  }

  private fillNotes(seq: number, text: string): void {
    for (const n of this.notes) if (n.text === "" && n.respSeq === seq) n.text = text;
  }

  private index(r: LogRecord, type: EventType, failed: boolean, call: (CallInfo & { off: number; bytes: number }) | null, e: LogEntry, turn: number): void {
    // Each occurrence costs one lookup: its word's entry holds the postings list and this event's count so far.
    const touched: WordEntry[] = [];
    const entries = this.entries();
    const count = (w: string, by: number): void => {
      let en = entries.get(w);
      if (en === undefined) {
        en = { list: [], c: 0 };
        entries.set(w, en);
        this.postings.set(w, en.list);
      }
      if (en.c === 0) touched.push(en);
      en.c += by;
    };
    forEachWord(eventText(r), (w) => count(w, 1));
    if (r.kind === "tool.result") forEachWord(callText(call, String((r.payload as any).tool ?? "")), (w) => count(w, CALL_WEIGHT));
    const doc = this.docBase + this.docs.length;
    let len = 0;
    for (const en of touched) {
      len += en.c;
      en.list.push(doc, en.c);
      en.c = 0;
    }
    this.totalLen += len;
    const inTurn = this.open !== null ? turn : 0;
    // A narrowing's own note belongs to the context it was written in, not to the one it opens.
    const open = this.openContexts;
    const ctx = r.kind === "context.narrow" && (r.payload as any).lasting !== true ? open[open.length - 2] : open[open.length - 1];
    this.docs.push({ seq: r.seq, type, turn: inTurn, len, failed, off: e.offset, bytes: e.end - e.offset, callOff: call?.off ?? 0, callBytes: call?.bytes ?? 0, context: ctx === undefined ? 0 : ctx + 1 });
    this.open?.card.events.push([r.seq, type]);
  }
}

/** A word while a fold indexes: its postings list (the one in `postings`) and the current event's count. */
interface WordEntry {
  readonly list: number[];
  c: number;
}

export function typeCode(t: EventType): number {
  return EVENT_CODES.indexOf(t);
}
