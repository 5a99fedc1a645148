// window-v2: the model's request as a view of the log with a token budget, sticky elision, summaries and narrowed contexts.
//
// What the model sees (docs/guides/window.md, docs/decisions/0025):
//   - the conversation of the current context: user.msg → user, llm.resp →
//     assistant with its calls (an empty reply without calls shows nothing),
//     tool.result → tool; a tool result is capped (shell-exec output to its
//     first 1,500 and last 6,000 characters, any result to result_cap
//     characters, a quarter of the usable context), the cut naming the seq
//     that holds the whole result;
//   - active summaries (summaries.ts) in place of their spans: one assistant
//     message labelled as a revocable summary;
//   - a narrowed context (context.narrow) starts from its note: the running
//     turn's user message when the narrowing falls inside a turn, the note a
//     strategy wrote (a user message, verbatim), the reply that is a handover
//     note (an assistant message, verbatim), then the events from `from` on;
//     a fold (context.fold) ends the innermost pushed context and hides its
//     events from the context it returns to; a compaction that gave up
//     (context.compact, compacted false, issue 16) hides its note's reply and
//     the calls it was answered, so the window stays as it was;
//   - within context_window − reserve tokens (chars4 v2), by elision that is
//     sticky: when a request would not fit, old replies and results, oldest
//     first, become `[elided seq=N]` until the request is at low_water (60%)
//     of what fits; then whole old units (a user message, a round) collapse
//     into one `[elided seq=A-B]` user message, never one of the latest two
//     user messages; last, the newest round is elided as far as it must. The
//     decisions are kept, so a request is the previous one plus what the log
//     gained until the next elision step: the provider's prompt cache reuses
//     the prefix. A summary, a drop, a narrow, a fold, a summary that becomes
//     active and a new model context reset them: the policy recomputes.
//   - the roles every provider accepts: the first message is a user message
//     and an assistant message never follows another (a `[continued]` user
//     message between them); every call is followed by its result.
// The decisions are a function of the log prefix: an llm.req of this recipe,
// folded, commits the decision its request was built with (recomputed from
// what it records), so replaying the prefix before a request rebuilds it.
//
// Incremental: each record is turned into its message, canonical JSON and
// token count once; a build is a few binary searches over prefix sums, and the
// message list and the SHA-256 state of its JSON are extended, not rebuilt,
// while the decisions stay; a reset rebuilds the view once.

import { createHash, type Hash } from "node:crypto";
import type { Message, ModelRequest, ToolCall, ToolDefinition } from "../model/types.js";
import type { LogRecord } from "../log/index.js";
import { canonicalJson } from "./canonical.js";
import { CHARS4_V2, estimatorOf, type Estimator } from "./estimate.js";
import { clipWith, SHELL_HEAD_CHARS, SHELL_TAIL_CHARS } from "./clip.js";
import { checkSpan, SourceRecords, SummaryBook, type SpanCheck, type SummaryEntry, type SummaryStatus } from "./summaries.js";
import { WindowError } from "./window-v1.js";

/** The recipe's name as llm.req records it. */
export const WINDOW_V2 = "window-v2";

/** An elision step elides until the request is at this share of what fits. */
export const LOW_WATER = 0.6;

/** A tool result is capped at this share of the usable context (context − reserve), in characters at 4 a token… */
export const RESULT_CAP_SHARE = 0.25;
/** …at least this many characters… */
export const RESULT_CAP_MIN = 2_000;
/** …and at most this many. */
export const RESULT_CAP_MAX = 32_000;

/** The largest error text of a tool result shown. */
export const ERROR_CAP = 2_000;

/** The user message put before an assistant message that would come first or right after another. */
export const GLUE_TEXT = "[continued]";

/** The result a call gets when the events that held its result are outside the window. */
export const MISSING_RESULT_TEXT = "[no result in this window: the events that held it are not shown]";

/** The characters a tool result is capped at for a usable context of `contextWindow − reserve` tokens. */
export function resultCapChars(contextWindow: number, reserve: number): number {
  const share = Math.floor((contextWindow - reserve) * RESULT_CAP_SHARE) * 4;
  return Math.max(RESULT_CAP_MIN, Math.min(RESULT_CAP_MAX, share));
}

/** The elision marker of one event, or of a collapsed range. */
export function elisionMarker(first: number, last = first): string {
  return first === last ? `[elided seq=${first}]` : `[elided seq=${first}-${last}]`;
}

/** The label that opens a summary's message. */
export function summaryLabel(e: { seq: number; from: number; through: number; actor: string }): string {
  return `[revocable summary seq=${e.seq} of the conversation at seq ${e.from}-${e.through}, written by a ${e.actor}; the events it stands for stay in the log]`;
}

/** The note of a capped result. */
function cutNote(seq: number): (cut: number) => string {
  return (cut) => `[… ${cut} characters cut: seq ${seq} holds the whole result …]`;
}

/**
 * The text a tool.result shows under window-v2: the output capped (shell-exec
 * to its head and tail), then for a failure a line `error: …`.
 */
export function toolResultText(p: { tool?: unknown; ok?: unknown; output?: unknown; error?: unknown }, seq: number, cap: number): string {
  const out = p.output;
  let text = typeof out === "string" ? out : out === undefined || out === null ? "" : JSON.stringify(out);
  if (p.tool === "shell-exec") {
    // The seed's clip, scaled down only when a small context caps results below it.
    const room = Math.min(SHELL_HEAD_CHARS + SHELL_TAIL_CHARS, cap);
    const head = room === SHELL_HEAD_CHARS + SHELL_TAIL_CHARS ? SHELL_HEAD_CHARS : Math.floor(room / 5);
    text = clipWith(text, head, room - head, cutNote(seq));
  } else text = clipWith(text, Math.floor(cap * 0.75), cap - Math.floor(cap * 0.75), cutNote(seq));
  if (p.ok === false) {
    const raw = typeof p.error === "string" ? p.error : "the tool failed";
    const err = `error: ${clipWith(raw, ERROR_CAP - 200, 200, cutNote(seq))}`;
    return text ? `${text}\n${err}` : err;
  }
  return text;
}

function toCalls(v: unknown): ToolCall[] {
  if (!Array.isArray(v)) return [];
  const out: ToolCall[] = [];
  for (const c of v) {
    if (c === null || typeof c !== "object") continue;
    const o = c as Record<string, unknown>;
    out.push({ id: String(o.id ?? ""), name: String(o.name ?? ""), arguments: typeof o.arguments === "string" ? o.arguments : JSON.stringify(o.arguments ?? {}) });
  }
  return out;
}

/** A message with its canonical JSON and estimated tokens. */
interface Shown {
  readonly msg: Message;
  readonly json: string;
  readonly tok: number;
}

function shown(msg: Message, est: Estimator): Shown {
  return { msg, json: canonicalJson(msg), tok: est.message(msg) };
}

type EventKind = "user" | "reply" | "result";

/** A conversation event of the log, as window-v2 shows it at the current cap. */
interface Ev {
  readonly seq: number;
  readonly kind: EventKind;
  readonly rec: LogRecord;
  cap: number;
  msg: Message;
}

type ItemKind = "user" | "reply" | "result" | "orphan" | "summary" | "glue" | "missing";

/** One message of the view, in window order. */
interface Item {
  readonly kind: ItemKind;
  /** The record it shows (a summary's own seq); 0 for glue. */
  readonly seq: number;
  /** The log seqs it stands for (a summary: its span). */
  readonly first: number;
  readonly last: number;
  readonly full: Shown;
  /** Its elided form, when shorter than it; null when it is never elided. */
  readonly elided: Shown | null;
  /** It begins a unit (a user message, a round, a summary, glue): collapse moves by whole units. */
  readonly unit: boolean;
}

interface Run {
  readonly start: number;
  readonly end: number;
  readonly marker: Shown;
}

/** The elision decisions: items before e elided, units before c collapsed except the kept user messages. */
interface Decision {
  readonly id: number;
  readonly e: number;
  readonly c: number;
  readonly kept: readonly number[];
  readonly runs: readonly Run[];
}

/** A narrowed context (context.narrow), or the whole log. */
interface Context {
  /** The context.narrow that opened (or last replaced) it; 0 for the whole log. */
  readonly narrowSeq: number;
  /** The context.narrow that pushed it (a fold returns to the context below); 0 when it was not pushed. */
  readonly pushedBy: number;
  readonly from: number;
  readonly keepUser: number;
  readonly note?: string;
  readonly respSeq?: number;
  readonly label?: string;
  readonly lasting: boolean;
  /** Log seq ranges hidden from it (folded sub-contexts). */
  readonly hidden: readonly (readonly [number, number])[];
}

const BASE: Context = { narrowSeq: 0, pushedBy: 0, from: 1, keepUser: 0, lasting: false, hidden: [] };

/**
 * Which events are on the session's current branch (issue 17's head moves).
 * The default holds every event. A filter reports a change of branch from
 * `onRecord`; the window then rebuilds its view from the events it includes.
 * The window keeps every conversation event whatever the branch, so a move
 * back to an abandoned branch shows its events again; the other records it
 * acts on (summaries, narrowings, llm.req decisions, contexts in force) are
 * taken when they are on the branch as they arrive.
 */
export interface BranchFilter {
  /** Sees every record before the window does; true when the events on the branch changed. */
  onRecord(r: LogRecord): boolean;
  includes(seq: number): boolean;
}

/** What a build needs beyond the log: all of it is recorded in llm.req. */
export interface WindowV2Params {
  readonly model: string;
  readonly system: string;
  readonly tools: readonly ToolDefinition[];
  readonly contextWindow: number;
  /** The reply's token limit; also the reserve (default: min(4096, context / 4)). */
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  /** Messages a strategy appends after the log's (recorded in recipe.additions). */
  readonly additions?: readonly Message[];
}

/** The recipe object llm.req records. The derived members (after additions) are for readers: replay recomputes them. */
export interface RecipeV2 {
  readonly name: typeof WINDOW_V2;
  readonly system: string;
  readonly context_window: number;
  readonly reserve: number;
  readonly estimator: { readonly name: string; readonly version: number };
  readonly low_water: number;
  readonly result_cap: number;
  readonly shell_clip: readonly [number, number];
  readonly additions?: readonly Message[];
  /** The request's estimated tokens, and what fits (context_window − reserve). */
  readonly tokens: number;
  readonly budget: number;
  /** The first log seq the request shows. */
  readonly first_seq?: number;
  /** Items at or before this seq (in window order) are elided, unless their marker is not shorter. */
  readonly elided_through?: number;
  /** Log seq ranges collapsed into one marker each. */
  readonly collapsed?: readonly (readonly [number, number])[];
  /** The summaries shown, by seq. */
  readonly summaries?: readonly number[];
  /** The context.narrow whose context the request shows. */
  readonly narrowed?: number;
}

/** A built request and what llm.req records of it. */
export interface BuiltWindowV2 {
  readonly request: ModelRequest;
  readonly recipe: RecipeV2;
  readonly digest: string;
  readonly tokens: number;
  readonly params: { readonly max_output_tokens?: number; readonly temperature?: number };
}

/** A turn of the current context, for strategies that evict (window-units). */
export interface WindowUnit {
  /** The seq of its user message (0 for what precedes the first one, such as a narrowed context's note). */
  readonly user: number;
  readonly from: number;
  readonly through: number;
  /** Estimated tokens of the turn as shown now. */
  readonly tokens: number;
  readonly finished: boolean;
  readonly rounds: readonly { readonly from: number; readonly through: number; readonly tokens: number }[];
}

/** The default reserve for the reply when no output limit is set (the same rule as window-v1). */
export function reserveOf(contextWindow: number, maxOutputTokens?: number): number {
  return maxOutputTokens ?? Math.min(4096, Math.floor(contextWindow / 4));
}

const ZERO: Decision = { id: 0, e: 0, c: 0, kept: [], runs: [] };

/**
 * The window of one session under window-v2: fold the log's records in with
 * `add` (in seq order), then `build` a request.
 */
export class WindowV2 {
  readonly est: Estimator = CHARS4_V2;
  private lastSeq = 0;
  private changes = 0;
  private readonly branch: BranchFilter | null;
  /** Every conversation event on the branch, in seq order. */
  private readonly events: Ev[] = [];
  private readonly sources = new SourceRecords();
  private readonly book = new SummaryBook();
  /** The kind of every seq (for the span checks' messages). */
  private readonly kinds: string[] = [""];
  private readonly turnEnds: number[] = [];
  private stack: Context[] = [BASE];
  private inForce: { recipe: string; contextWindow: number; reserve: number } | null = null;
  private cap = RESULT_CAP_MAX;
  private activeKey = "";

  // The view: head messages and items of the current context, with prefix sums.
  private viewVersion = 0;
  private head: Shown[] = [];
  private headTok = 0;
  private items: Item[] = [];
  private fullPre: number[] = [0];
  private elPre: number[] = [0];
  private userIdx: number[] = [];
  private lastReplyIdx = -1;
  private lastRole: Message["role"] | null = null;
  /** The calls of the latest round still without a result in the view. */
  private roundCalls: Map<string, { name: string }> = new Map();
  private shownSummaries: number[] = [];

  private committed: Decision = ZERO;
  private nextDecision = 1;
  private asm: { id: number; view: number; msgs: Shown[]; tok: number; done: number; open: string; h: Hash | null; hashed: number } | null = null;
  private toolsCache: { tools: readonly ToolDefinition[]; json: string; tokens: number } | null = null;

  constructor(o: { readonly branch?: BranchFilter } = {}) {
    this.branch = o.branch ?? null;
  }

  /** The seq of the last record folded in (0 before any). */
  get seq(): number {
    return this.lastSeq;
  }

  /** Changes whenever a build would give another request (a message, a summary's status, a context): requests built before are stale. */
  get version(): number {
    return this.changes;
  }

  /** How many messages the view has (head and items). */
  get size(): number {
    return this.head.length + this.items.length;
  }

  private includes(seq: number): boolean {
    return this.branch === null || this.branch.includes(seq);
  }

  // ---- folding -----------------------------------------------------------------------------------

  /** Folds one record in; records must come in seq order. */
  add(r: LogRecord): void {
    if (r.seq <= this.lastSeq) throw new RangeError(`window: record seq ${r.seq} after seq ${this.lastSeq}`);
    this.lastSeq = r.seq;
    this.kinds[r.seq] = r.kind;
    const moved = this.branch !== null && this.branch.onRecord(r);
    if (moved) {
      this.book.resetUsers(this.events.filter((e) => e.kind === "user" && this.includes(e.seq)).map((e) => e.seq));
      for (const e of this.book.entries) this.book.restale(e, (a, b) => this.check(a, b));
    }
    const p = r.payload as Record<string, any>;
    // Conversation events are kept whatever the branch (a later move may bring them back); the view shows those on it.
    if (r.kind === "user.msg" || r.kind === "llm.resp" || r.kind === "tool.result" || r.kind === "tool.call") {
      this.sources.add(r);
      if (r.kind !== "tool.call") this.event(r);
      if (moved) this.reset();
      return;
    }
    if (!this.includes(r.seq)) {
      if (moved) this.reset();
      return;
    }
    switch (r.kind) {
      case "session.start":
      case "session.resume":
      case "session.model":
        this.contextInForce(p.context);
        break;
      case "turn.end":
        this.turnEnds.push(r.seq);
        break;
      case "llm.req":
        this.commitRequest(r);
        break;
      case "summary":
        this.book.addSummary(r, (a, b) => this.check(a, b));
        this.reset();
        return;
      case "summary.drop":
        this.book.addDrop(r);
        this.reset();
        return;
      case "context.narrow":
        this.narrow(r);
        this.reset();
        return;
      case "context.fold":
        this.fold(r);
        this.reset();
        return;
      case "context.compact":
        // A compaction that gave up (issue 16): its note's reply, and the calls it was answered, leave the window.
        if (p.compacted === false && Number.isSafeInteger(p.note_resp_seq) && p.note_resp_seq < r.seq) {
          const top = this.top;
          this.stack = [...this.stack.slice(0, -1), { ...top, hidden: [...top.hidden, [p.note_resp_seq as number, r.seq - 1]] }];
          this.reset();
          return;
        }
        break;
      default:
        break;
    }
    if (moved) this.reset();
  }

  private check(from: number, through: number): SpanCheck {
    return checkSpan(this.sources, from, through, (s) => this.kinds[s] || undefined, (s) => this.includes(s));
  }

  private contextInForce(ctx: unknown): void {
    if (ctx === null || typeof ctx !== "object") return;
    const c = ctx as Record<string, unknown>;
    if (!Number.isSafeInteger(c.context_window) || !Number.isSafeInteger(c.reserve)) return;
    const next = { recipe: String(c.recipe ?? ""), contextWindow: c.context_window as number, reserve: c.reserve as number };
    const was = this.inForce;
    this.inForce = next;
    if (was !== null && was.contextWindow === next.contextWindow && was.reserve === next.reserve) return;
    this.cap = resultCapChars(next.contextWindow, next.reserve);
    if (was !== null || this.events.length > 0) this.reset();
  }

  private event(r: LogRecord): void {
    const p = r.payload as Record<string, any>;
    let ev: Ev;
    if (r.kind === "user.msg") {
      if (this.includes(r.seq)) this.book.userMessage(r.seq);
      ev = { seq: r.seq, kind: "user", rec: r, cap: this.cap, msg: { role: "user", content: String(p.text ?? "") } };
    } else if (r.kind === "llm.resp") {
      if (p.error !== undefined) return;
      const calls = toCalls(p.tool_calls);
      const content = typeof p.text === "string" ? p.text : "";
      if (content === "" && calls.length === 0) return;
      ev = { seq: r.seq, kind: "reply", rec: r, cap: this.cap, msg: calls.length > 0 ? { role: "assistant", content, toolCalls: calls } : { role: "assistant", content } };
    } else ev = { seq: r.seq, kind: "result", rec: r, cap: this.cap, msg: this.resultMessage(r) };
    this.events.push(ev);
    // A user message can make a recent summary active: the view changes where it stands.
    if (ev.kind === "user" && this.book.entries.length > 0 && this.book.activeKey() !== this.activeKey) {
      this.reset();
      return;
    }
    if (this.visible(ev.seq)) this.pushEvent(ev);
    this.changes++;
  }

  private resultMessage(r: LogRecord): Message {
    const p = r.payload as Record<string, any>;
    const m: Message = { role: "tool", toolCallId: String(p.call_id ?? ""), name: String(p.tool ?? ""), content: toolResultText(p, r.seq, this.cap) };
    return p.ok === false ? { ...m, isError: true } : m;
  }

  private narrow(r: LogRecord): void {
    const p = r.payload as Record<string, any>;
    const from = Number.isSafeInteger(p.from) && p.from >= 1 ? (p.from as number) : r.seq + 1;
    // A narrowing inside a turn keeps the turn's user message: the rounds after it answer it.
    let keepUser = 0;
    for (let i = this.events.length - 1; i >= 0; i--) {
      const e = this.events[i] as Ev;
      if (e.kind !== "user" || e.seq >= from) continue;
      const ended = this.turnEnds.some((t) => t > e.seq && t < from);
      if (!ended) keepUser = e.seq;
      break;
    }
    const respSeq = Number.isSafeInteger(p.resp_seq) ? (p.resp_seq as number) : undefined;
    const top = this.stack[this.stack.length - 1] as Context;
    const ctx: Context = {
      narrowSeq: r.seq,
      pushedBy: p.lasting === true ? top.pushedBy : r.seq,
      from,
      keepUser,
      ...(typeof p.note === "string" ? { note: p.note } : {}),
      ...(respSeq !== undefined ? { respSeq } : {}),
      ...(typeof p.label === "string" ? { label: p.label } : {}),
      lasting: p.lasting === true,
      hidden: [],
    };
    if (ctx.lasting) this.stack = [...this.stack.slice(0, -1), ctx];
    else this.stack = [...this.stack, ctx];
  }

  private fold(r: LogRecord): void {
    const top = this.stack[this.stack.length - 1] as Context;
    if (this.stack.length < 2 || top.pushedBy === 0) return; // nothing pushed: the fold changes nothing
    const below = this.stack[this.stack.length - 2] as Context;
    const hidden: [number, number] = [top.pushedBy + 1, r.seq];
    this.stack = [...this.stack.slice(0, -2), { ...below, hidden: [...below.hidden, hidden] }];
  }

  /** The context the window shows now. */
  private get top(): Context {
    return this.stack[this.stack.length - 1] as Context;
  }

  private visible(seq: number): boolean {
    const t = this.top;
    if (seq < t.from || seq === t.respSeq || seq === t.keepUser) return false;
    for (const [a, b] of t.hidden) if (seq >= a && seq <= b) return false;
    return this.includes(seq);
  }

  // ---- the view --------------------------------------------------------------------------------------

  /** Rebuilds the view of the current context from the events; the elision decisions start again. */
  private reset(): void {
    this.changes++;
    this.viewVersion++;
    this.committed = ZERO;
    this.asm = null;
    this.items = [];
    this.fullPre = [0];
    this.elPre = [0];
    this.userIdx = [];
    this.lastReplyIdx = -1;
    this.roundCalls = new Map();
    this.shownSummaries = [];
    this.activeKey = this.book.activeKey();
    const t = this.top;
    const est = this.est;
    this.head = [];
    const byRecord = new Map<number, Ev>();
    for (const e of this.events) byRecord.set(e.seq, e);
    const keep = t.keepUser > 0 ? byRecord.get(t.keepUser) : undefined;
    if (keep) this.head.push(shown(keep.msg, est));
    if (t.note !== undefined) this.head.push(shown({ role: "user", content: t.note }, est));
    if (t.respSeq !== undefined) {
      const resp = this.sources.at(t.respSeq);
      const text = resp && resp.kind === "llm.resp" && typeof (resp.payload as any).text === "string" ? ((resp.payload as any).text as string) : "";
      if (text !== "") {
        if (this.head.length === 0) this.head.push(shown({ role: "user", content: GLUE_TEXT }, est));
        this.head.push(shown({ role: "assistant", content: text }, est));
      }
    }
    this.headTok = this.head.reduce((n, s) => n + s.tok, 0);
    this.lastRole = this.head.length > 0 ? (this.head[this.head.length - 1] as Shown).msg.role : null;
    // Active summaries whose whole span is visible here stand for it.
    const starts = new Map<number, SummaryEntry>();
    for (const s of this.book.active()) {
      let whole = true;
      for (const r of this.sources.range(s.from, s.through)) if (!this.visible(r.seq)) whole = false;
      if (whole && this.visible(s.from) && this.visible(s.through)) starts.set(s.from, s);
    }
    let skipThrough = 0;
    for (const e of this.events) {
      if (e.seq <= skipThrough || !this.visible(e.seq)) continue;
      const s = starts.get(e.seq);
      if (s !== undefined) {
        this.pushSummary(s);
        skipThrough = s.through;
        continue;
      }
      if (e.cap !== this.cap && e.kind === "result") {
        e.cap = this.cap;
        e.msg = this.resultMessage(e.rec);
      }
      this.pushEvent(e);
    }
  }

  private pushItem(it: Item): void {
    const i = this.items.length;
    this.items.push(it);
    this.fullPre.push((this.fullPre[i] as number) + it.full.tok);
    this.elPre.push((this.elPre[i] as number) + (it.elided ?? it.full).tok);
    if (it.kind === "user") this.userIdx.push(i);
    if (it.kind === "reply") this.lastReplyIdx = i;
    this.lastRole = it.full.msg.role;
  }

  private item(kind: ItemKind, seq: number, first: number, last: number, msg: Message, elided: Message | null, unit: boolean): Item {
    const full = shown(msg, this.est);
    let el: Shown | null = elided === null ? null : shown(elided, this.est);
    if (el !== null && el.tok >= full.tok) el = null; // a marker no shorter than the message saves nothing
    return { kind, seq, first, last, full, elided: el, unit };
  }

  /** A unit begins: calls of the round before it that have no result here get one saying so. */
  private closeRound(): void {
    if (this.roundCalls.size === 0) return;
    const last = this.items.length > 0 ? (this.items[this.items.length - 1] as Item).last : 0;
    for (const [id, c] of this.roundCalls)
      this.pushItem(this.item("missing", 0, last, last, { role: "tool", toolCallId: id, name: c.name, content: MISSING_RESULT_TEXT, isError: true }, null, false));
    this.roundCalls = new Map();
  }

  /** Glue before an assistant message that would come first or right after another assistant message. */
  private glueBefore(): void {
    if (this.lastRole === "assistant" || this.lastRole === null) {
      const at = this.items.length > 0 ? (this.items[this.items.length - 1] as Item).last : 0;
      this.pushItem(this.item("glue", 0, at, at, { role: "user", content: GLUE_TEXT }, null, true));
    }
  }

  private pushEvent(e: Ev): void {
    const m = e.msg;
    if (e.kind === "user") {
      this.closeRound();
      this.pushItem(this.item("user", e.seq, e.seq, e.seq, m, null, true));
    } else if (e.kind === "reply") {
      this.closeRound();
      this.glueBefore();
      const calls = m.role === "assistant" ? (m.toolCalls ?? []) : [];
      const elided: Message = calls.length > 0 ? { role: "assistant", content: elisionMarker(e.seq), toolCalls: calls.map((c) => ({ id: c.id, name: c.name, arguments: "{}" })) } : { role: "assistant", content: elisionMarker(e.seq) };
      this.pushItem(this.item("reply", e.seq, e.seq, e.seq, m, elided, true));
      this.roundCalls = new Map(calls.map((c) => [c.id, { name: c.name }]));
    } else if (m.role === "tool" && this.roundCalls.has(m.toolCallId)) {
      this.roundCalls.delete(m.toolCallId);
      this.pushItem(this.item("result", e.seq, e.seq, e.seq, m, { ...m, content: elisionMarker(e.seq) }, false));
    } else {
      // A result whose call is not in this window (a narrowed context that begins after the call): shown as a user message.
      this.closeRound();
      const t = m as Extract<Message, { role: "tool" }>;
      const text = `[the result of ${t.name} (seq ${e.seq}), whose call is not in this window]\n${t.content}`;
      this.pushItem(this.item("orphan", e.seq, e.seq, e.seq, { role: "user", content: text }, { role: "user", content: elisionMarker(e.seq) }, true));
    }
  }

  private pushSummary(s: SummaryEntry): void {
    this.closeRound();
    this.glueBefore();
    this.pushItem(this.item("summary", s.seq, s.from, s.through, { role: "assistant", content: `${summaryLabel(s)}\n\n${s.text}` }, { role: "assistant", content: elisionMarker(s.seq) }, true));
    this.shownSummaries.push(s.seq);
  }

  // ---- deciding ----------------------------------------------------------------------------------------

  /** Tokens of the items and head under decision d (the system, tools and additions apart). */
  private bound(d: { e: number; c: number; keptTok: number; runsTok: number }): number {
    const n = this.items.length;
    return this.headTok + d.runsTok + d.keptTok + ((this.elPre[d.e] as number) - (this.elPre[d.c] as number)) + ((this.fullPre[n] as number) - (this.fullPre[d.e] as number));
  }

  private marker(items: readonly Item[], start: number, end: number): Shown {
    let a = 0;
    for (let i = start; i < end && a === 0; i++) {
      const it = items[i] as Item;
      if (it.kind !== "glue" && it.kind !== "missing") a = it.first;
    }
    const b = (items[end - 1] as Item).last;
    return shown({ role: "user", content: elisionMarker(a || b, b) }, this.est);
  }

  /**
   * The decision for a request whose items must fit in `avail` tokens, from
   * the committed one: unchanged while it fits; else an elision step (see the
   * file's header). Throws WindowError "overflow" when even the last resort
   * does not fit.
   */
  private decide(avail: number): Decision {
    const d0 = this.committed;
    const items = this.items;
    const n = items.length;
    let keptTok = 0;
    for (const k of d0.kept) keptTok += (items[k] as Item).full.tok;
    let runsTok = 0;
    for (const r of d0.runs) runsTok += r.marker.tok;
    let e = d0.e;
    let c = d0.c;
    const at = (x: number) => this.bound({ e: x, c, keptTok, runsTok });
    if (at(e) <= avail) return d0;
    const target = Math.floor(avail * LOW_WATER);
    const lastUser = this.userIdx.length > 0 ? (this.userIdx[this.userIdx.length - 1] as number) : -1;
    const nr = this.lastReplyIdx > lastUser ? this.lastReplyIdx : n;
    // 1. Elide replies and results, oldest first, up to the newest round, down to the low water.
    if (e < nr) e = this.search(e, nr, (x) => at(x) <= target);
    const kept = [...d0.kept];
    const runs = [...d0.runs];
    // 2. Collapse whole units, oldest first, before the newest round; the latest two user messages stay.
    if (at(e) > target && c < nr) {
      const protect = new Set(this.userIdx.slice(-2));
      while (c < nr && at(e) > target) {
        let j = c + 1;
        while (j < n && !(items[j] as Item).unit) j++;
        if (protect.has(c)) {
          kept.push(c);
          keptTok += (items[c] as Item).full.tok;
        } else {
          const last = runs[runs.length - 1];
          if (last !== undefined && last.end === c) {
            runsTok -= last.marker.tok;
            runs[runs.length - 1] = { start: last.start, end: j, marker: this.marker(items, last.start, j) };
          } else runs.push({ start: c, end: j, marker: this.marker(items, c, j) });
          runsTok += (runs[runs.length - 1] as Run).marker.tok;
        }
        c = j;
      }
      if (e < c) e = c;
    }
    // 3. The newest round, as far as it must to fit at all.
    if (at(e) > avail) e = this.search(e, n, (x) => at(x) <= avail);
    if (at(e) > avail) {
      throw new WindowError(
        "overflow",
        `the window cannot fit in the model's context: the latest two messages of the person and the elided rest need ${at(e)} tokens, and ${avail} fit (context window, minus the reply's reserve, the system text and the tools)`,
      );
    }
    return { id: this.nextDecision++, e, c, kept, runs };
  }

  /** The smallest x in [lo, hi] with ok(x), ok being monotone; hi when none is. */
  private search(lo: number, hi: number, ok: (x: number) => boolean): number {
    let a = lo;
    let b = hi;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (ok(mid)) b = mid;
      else a = mid + 1;
    }
    return a;
  }

  private toolsOf(tools: readonly ToolDefinition[]): { json: string; tokens: number } {
    if (this.toolsCache === null || this.toolsCache.tools !== tools) {
      const json = canonicalJson(tools);
      this.toolsCache = this.toolsCache !== null && this.toolsCache.json === json ? { ...this.toolsCache, tools } : { tools, json, tokens: this.est.text(json) };
    }
    return this.toolsCache;
  }

  /** The additions as sent: glue where one would come first or after an assistant message. */
  private additionsAfter(additions: readonly Message[], lastRole: Message["role"] | null): Shown[] {
    const out: Shown[] = [];
    let role = lastRole;
    for (const m of additions) {
      if (m.role === "assistant" && (role === "assistant" || role === null)) out.push(shown({ role: "user", content: GLUE_TEXT }, this.est));
      out.push(shown(m, this.est));
      role = m.role;
    }
    return out;
  }

  private room(p: { system: string; tools: readonly ToolDefinition[]; contextWindow: number; reserve: number; additions: readonly Message[] }): { avail: number; fixed: number; adds: Shown[]; toolsJson: string } {
    const tools = this.toolsOf(p.tools);
    const adds = this.additionsAfter(p.additions, this.lastRole);
    let fixed = this.est.text(p.system) + tools.tokens;
    for (const a of adds) fixed += a.tok;
    return { avail: p.contextWindow - p.reserve - fixed, fixed, adds, toolsJson: tools.json };
  }

  /** Folds an llm.req of this recipe: the decision its request was built with becomes the one later builds start from. */
  private commitRequest(r: LogRecord): void {
    const p = r.payload as Record<string, any>;
    const recipe = p.recipe;
    if (recipe === null || typeof recipe !== "object" || recipe.name !== WINDOW_V2) return;
    if (typeof recipe.system !== "string" || !Number.isSafeInteger(recipe.context_window) || !Number.isSafeInteger(recipe.reserve)) return;
    const tools = Array.isArray(p.tools) ? (p.tools as ToolDefinition[]) : [];
    const additions = Array.isArray(recipe.additions) ? (recipe.additions as Message[]) : [];
    const room = this.room({ system: recipe.system, tools, contextWindow: recipe.context_window, reserve: recipe.reserve, additions });
    try {
      this.committed = this.decide(room.avail);
    } catch (e) {
      if (!(e instanceof WindowError)) throw e;
      // A request this policy could not have built: the next replay says which digest does not match.
    }
  }

  // ---- building ---------------------------------------------------------------------------------------

  /** The messages under decision d, extended from the last assembly when the decision and view are the same. */
  private assemble(d: Decision, open: string): NonNullable<WindowV2["asm"]> {
    let a = this.asm;
    const items = this.items;
    if (a === null || a.id !== d.id || a.view !== this.viewVersion || a.open !== open) {
      a = { id: d.id, view: this.viewVersion, msgs: [...this.head], tok: this.headTok, done: 0, open, h: null, hashed: 0 };
      const kept = new Set(d.kept);
      let r = 0;
      for (let i = 0; i < d.c; i++) {
        if (kept.has(i)) {
          a.msgs.push((items[i] as Item).full);
          a.tok += (items[i] as Item).full.tok;
          continue;
        }
        const run = d.runs[r];
        if (run !== undefined && run.start === i) {
          a.msgs.push(run.marker);
          a.tok += run.marker.tok;
          i = run.end - 1;
          r++;
        }
      }
      a.done = d.c;
      this.asm = a;
    }
    for (let i = a.done; i < items.length; i++) {
      const it = items[i] as Item;
      const s = i < d.e && it.elided !== null ? it.elided : it.full;
      a.msgs.push(s);
      a.tok += s.tok;
    }
    a.done = items.length;
    return a;
  }

  /** Builds the request from what was folded in. Throws WindowError "overflow" when it cannot fit. */
  build(p: WindowV2Params): BuiltWindowV2 {
    const reserve = reserveOf(p.contextWindow, p.maxOutputTokens);
    const additions = p.additions ?? [];
    const room = this.room({ system: p.system, tools: p.tools, contextWindow: p.contextWindow, reserve, additions });
    const d = this.decide(room.avail);
    const open = `{${p.maxOutputTokens !== undefined ? `"maxOutputTokens":${JSON.stringify(p.maxOutputTokens)},` : ""}"messages":[`;
    const a = this.assemble(d, open);
    const messages: Message[] = new Array(a.msgs.length + room.adds.length);
    for (let i = 0; i < a.msgs.length; i++) messages[i] = (a.msgs[i] as Shown).msg;
    for (let i = 0; i < room.adds.length; i++) messages[a.msgs.length + i] = (room.adds[i] as Shown).msg;
    const request: ModelRequest = {
      model: p.model,
      system: p.system,
      messages,
      tools: p.tools,
      ...(p.maxOutputTokens !== undefined ? { maxOutputTokens: p.maxOutputTokens } : {}),
      ...(p.temperature !== undefined ? { temperature: p.temperature } : {}),
    };
    // The SHA-256 state after the messages shared with the last build is kept; a build hashes what it adds.
    if (a.h === null) {
      a.h = createHash("sha256").update(open);
      a.hashed = 0;
    }
    for (; a.hashed < a.msgs.length; a.hashed++) a.h.update((a.hashed > 0 ? "," : "") + (a.msgs[a.hashed] as Shown).json);
    const h = a.h.copy();
    let count = a.msgs.length;
    for (const s of room.adds) h.update((count++ > 0 ? "," : "") + s.json);
    h.update(`],"model":${JSON.stringify(p.model)},"system":${JSON.stringify(p.system)}`);
    if (p.temperature !== undefined) h.update(`,"temperature":${JSON.stringify(p.temperature)}`);
    h.update(`,"tools":${room.toolsJson}}`);
    const digest = "sha256:" + h.digest("hex");
    const tokens = room.fixed + a.tok;
    const recipe: RecipeV2 = {
      name: WINDOW_V2,
      system: p.system,
      context_window: p.contextWindow,
      reserve,
      estimator: { name: this.est.name, version: this.est.version },
      low_water: LOW_WATER,
      result_cap: this.cap,
      shell_clip: [SHELL_HEAD_CHARS, SHELL_TAIL_CHARS],
      ...(additions.length > 0 ? { additions: [...additions] } : {}),
      tokens,
      budget: p.contextWindow - reserve,
      ...this.derived(d),
    };
    const params = {
      ...(p.maxOutputTokens !== undefined ? { max_output_tokens: p.maxOutputTokens } : {}),
      ...(p.temperature !== undefined ? { temperature: p.temperature } : {}),
    };
    return { request, recipe, digest, tokens, params };
  }

  private derived(d: Decision): Partial<RecipeV2> {
    const items = this.items;
    const t = this.top;
    let first = t.keepUser > 0 ? t.keepUser : undefined;
    if (first === undefined) for (const it of items) if (it.first > 0) { first = it.first; break; }
    const out: { -readonly [K in keyof RecipeV2]?: RecipeV2[K] } = {};
    if (first !== undefined) out.first_seq = first;
    for (let i = d.e - 1; i >= 0; i--)
      if ((items[i] as Item).first > 0) {
        out.elided_through = (items[i] as Item).first;
        break;
      }
    if (d.runs.length > 0) out.collapsed = d.runs.map((r) => this.runRange(r));
    if (this.shownSummaries.length > 0) out.summaries = [...this.shownSummaries];
    if (t.narrowSeq > 0) out.narrowed = t.narrowSeq;
    return out;
  }

  private runRange(r: Run): [number, number] {
    const m = /seq=(\d+)(?:-(\d+))?/.exec(r.marker.msg.content) as RegExpExecArray;
    const a = Number(m[1]);
    return [a, m[2] !== undefined ? Number(m[2]) : a];
  }

  // ---- what strategies and the summary command read ------------------------------------------------------

  /** The seqs of the events a request built now elides (markers) and collapses, and the summaries it shows. */
  shownState(p: WindowV2Params): { elided: number[]; collapsed: [number, number][]; summaries: number[]; head: number } {
    const reserve = reserveOf(p.contextWindow, p.maxOutputTokens);
    const room = this.room({ system: p.system, tools: p.tools, contextWindow: p.contextWindow, reserve, additions: p.additions ?? [] });
    const d = this.decide(room.avail);
    const kept = new Set(d.kept);
    const elided: number[] = [];
    const collapsed: [number, number][] = d.runs.map((r) => this.runRange(r));
    for (let i = 0; i < this.items.length; i++) {
      const it = this.items[i] as Item;
      if (i < d.c && !kept.has(i)) continue;
      if (i < d.e && it.elided !== null) elided.push(it.seq);
    }
    return { elided, collapsed, summaries: [...this.shownSummaries], head: this.head.length };
  }

  /** Every summary of the prefix with its status now. */
  summaries(): { entry: SummaryEntry; status: SummaryStatus }[] {
    return this.book.entries.map((entry) => ({ entry, status: this.book.status(entry) }));
  }

  /** The narrowed contexts, innermost last (the whole log first). */
  contexts(): readonly { readonly narrowSeq: number; readonly pushedBy: number; readonly lasting: boolean; readonly from: number; readonly label?: string }[] {
    return this.stack.map((c) => ({ narrowSeq: c.narrowSeq, pushedBy: c.pushedBy, lasting: c.lasting, from: c.from, ...(c.label !== undefined ? { label: c.label } : {}) }));
  }

  /** The kind of the record at seq (undefined when the prefix has none). */
  kindAt(seq: number): string | undefined {
    return this.kinds[seq] || undefined;
  }

  /** The turns of the current context with their rounds and sizes as shown whole (what an eviction chooses from). */
  units(): WindowUnit[] {
    const out: { user: number; from: number; through: number; tokens: number; finished: boolean; rounds: { from: number; through: number; tokens: number }[] }[] = [];
    let cur: (typeof out)[number] | null = null;
    let round: { from: number; through: number; tokens: number } | null = null;
    for (const it of this.items) {
      if (it.kind === "user") {
        cur = { user: it.seq, from: it.seq, through: it.seq, tokens: 0, finished: false, rounds: [] };
        out.push(cur);
        round = null;
      } else if (cur === null) {
        cur = { user: 0, from: 0, through: 0, tokens: 0, finished: false, rounds: [] };
        out.push(cur);
      }
      // Glue and missing results stand at no seq of their own.
      if (it.kind !== "glue" && it.kind !== "missing" && (cur.from === 0 || it.first < cur.from)) cur.from = it.first;
      if (it.kind === "reply" || it.kind === "summary") {
        round = { from: it.first, through: it.last, tokens: 0 };
        cur.rounds.push(round);
      }
      cur.tokens += it.full.tok;
      if (it.last > cur.through) cur.through = it.last;
      if (round !== null && it.kind !== "user") {
        round.tokens += it.full.tok;
        if (it.last > round.through) round.through = it.last;
      }
    }
    // A turn is finished when a turn.end follows it before the next turn begins (turnEnds is in seq order).
    const ends = this.turnEnds;
    for (let k = 0; k < out.length; k++) {
      const u = out[k] as (typeof out)[number];
      const next = out[k + 1]?.from ?? Infinity;
      let lo = 0;
      let hi = ends.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((ends[mid] as number) <= u.from) lo = mid + 1;
        else hi = mid;
      }
      u.finished = lo < ends.length && (ends[lo] as number) < next;
    }
    return out;
  }
}

/** The estimator a window-v2 recipe must record. */
export function checkV2Estimator(e: unknown): boolean {
  const x = estimatorOf(e);
  return x !== null && x.name === CHARS4_V2.name && x.version === CHARS4_V2.version;
}
