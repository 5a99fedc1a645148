// recall-log, recall-entry and recall-search: verbatim rows of session logs matched with SQL LIKE over the raw payload.
//
// These promise what the conversation index (search.ts, BM25) does not: every
// row that matches, verbatim, in log order, found by a LIKE pattern over the
// payload as the log recorded it (already redacted), in the sessions this one
// was forked from and in turns an undo hid. The two share the reading code
// of events.ts: a row's body is an event's text as recall shows it.
//
// The scan runs over the log's bytes (log-cache.ts keeps them per process and
// reads only what was appended since the last call): one RE2 expression for a
// pattern with wildcards (linear time whatever the pattern: `%a%a%a%b` cannot
// backtrack), Buffer.indexOf over the bytes' ASCII case-folded copy for one
// without. Each hit's line is checked from its envelope's bytes (its kind, and
// that the match lies in the payload); only the rows returned are decoded (and
// their CRC checked), the rest are counted.

import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { join } from "node:path";
import RE2 from "re2";
import { decodeLine } from "../log/record.js";
import { foldAscii, logBytes, unkept, type LogBytes } from "./log-cache.js";
import { isKnownKind } from "../log/kinds.js";
import { LOG_EXTENSION, isValidSessionId, listSessions, readLog, sessionsDir, type LogRecord } from "../log/index.js";
import { SessionTree } from "../checkpoint/tree.js";
import { argsLine, eventLines, isMemoryCall, replyCalls } from "./events.js";

/** The kinds a recall form reads unless :kinds names others: the person's input, the answers, tool calls and results. */
export const DEFAULT_RECALL_KINDS: readonly string[] = ["user.msg", "llm.resp", "tool.call", "tool.result"];

export const RECALL_LOG_DEFAULTS = Object.freeze({ limit: 20, clip: 200 });
export const RECALL_SEARCH_DEFAULTS = Object.freeze({ limit: 60, window: 220, lead: 32 });
/** The most rows one call returns, whatever :limit says. */
export const MAX_RECALL_ROWS = 1000;
/** Every default of the recall forms, as their primitives take them. */
export const RECALL_DEFAULTS = Object.freeze({
  kinds: DEFAULT_RECALL_KINDS,
  limit: RECALL_LOG_DEFAULTS.limit,
  clip: RECALL_LOG_DEFAULTS.clip,
  searchLimit: RECALL_SEARCH_DEFAULTS.limit,
  window: RECALL_SEARCH_DEFAULTS.window,
  lead: RECALL_SEARCH_DEFAULTS.lead,
  maxRows: MAX_RECALL_ROWS,
});

/** A failure the primitives show as a Scheme error (code, then what to do). */
export class RecallLogError extends Error {
  readonly domain = "memory";
  constructor(
    readonly code: "no-log" | "no-task" | "bad-query" | "not-this-project" | "earlier-off",
    message: string,
  ) {
    super(message);
    this.name = "RecallLogError";
  }
}

/** One row: an event of a log, its body clipped. */
export interface RecallRow {
  readonly seq: number;
  /** When it was recorded (ISO 8601 UTC). */
  readonly at: string;
  readonly kind: string;
  readonly body: string;
  /** A tool result's duration. */
  readonly durationMs?: number;
  /** Set when the row is another session's than the one asked for (one it was forked from). */
  readonly session?: string;
  /** Characters of the body left out by the clip. */
  readonly clipped?: number;
}

export interface RecallLogQuery {
  readonly match: string | null;
  readonly kinds: readonly string[];
  readonly before: number | null;
  readonly after: number | null;
  readonly limit: number;
  readonly clip: number;
}

export interface RecallLogResult {
  readonly session: string;
  /** Rows that matched (before the limit). */
  readonly matched: number;
  /** The newest `limit` of them, oldest first. */
  readonly rows: readonly RecallRow[];
}

export interface RecallSearchQuery {
  readonly query: string;
  readonly kinds: readonly string[];
  readonly limit: number;
  readonly window: number;
  readonly lead: number;
}

export interface RecallSearchRow {
  readonly session: string;
  readonly title: string;
  readonly seq: number;
  readonly kind: string;
  readonly at: string;
  readonly text: string;
}

// ---- LIKE as RE2 -------------------------------------------------------------------------------------

/** One character of a pattern, itself, ASCII letters in either case; `js`: for a JavaScript RegExp (with the u flag), else for RE2. */
function escapeChar(c: string, js = false): string {
  const code = c.codePointAt(0)!;
  if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) return `[${c.toLowerCase()}${c.toUpperCase()}]`;
  if (js ? /[\\^$.|?*+()[\]{}/]/.test(c) : /[\\^$.|?*+()[\]{}\-/]/.test(c)) return `\\${c}`;
  if (code < 0x20 || code === 0x7f) return js ? `\\u{${code.toString(16)}}` : `\\x{${code.toString(16)}}`;
  return c;
}

/**
 * A LIKE pattern as an RE2 fragment: `%` any run of characters, `_` one
 * character (a code point, as SQLite's LIKE over UTF-8), ASCII letters in
 * either case, everything else itself. `literal`: `%` and `_` match themselves.
 * A line of the log holds no newline (JSON escapes it), so `%` never leaves a line.
 */
export function likeFragment(pattern: string, literal = false): string {
  let out = "";
  for (const c of pattern) {
    if (!literal && c === "%") out += "[^\\n]*?";
    else if (!literal && c === "_") out += "[^\\n]";
    else out += escapeChar(c);
  }
  return out;
}

function kindAlternation(kinds: readonly string[]): string {
  return kinds.map((k) => k.replace(/[\\^$.|?*+()[\]{}\-/]/g, (c) => `\\${c}`)).join("|");
}

/**
 * What a scan looks for: lines of one of `kinds` whose payload holds a match of
 * `fragment` (anywhere: LIKE '%' || match || '%'). Without a fragment the scan
 * finds each line's kind; with one it runs the fragment alone over the bytes
 * (the fastest RE2 can go) and checks each hit's line: its kind, and that the
 * match lies in the payload (else the payload alone is tested again).
 */
interface LineQuery {
  readonly kinds: ReadonlySet<string>;
  /** Not global: the scan calls `search` (an offset, no match object built) over the rest of the buffer. */
  readonly find: RE2;
  /** The fragment, to test a payload alone; null without a fragment. */
  readonly test: RE2 | null;
  /** The bytes a match of the fragment spans when that is fixed (no `%` or `_`), else null. */
  readonly span: number | null;
  /**
   * A pattern without wildcards as its ASCII case-folded bytes (non-empty), or
   * null: found with Buffer.indexOf in the log's folded copy (log-cache.ts),
   * which matches exactly where the fragment does (a UTF-8 character other
   * than an ASCII letter is its own bytes in both), without RE2. With
   * wildcards, the longest run of the pattern between them: every match holds
   * it, so only the lines that do are tested with RE2.
   */
  readonly needle: Buffer | null;
  /** The needle is the whole pattern (no wildcards): a line that holds it in its payload matches. */
  readonly exact: boolean;
  /** Without a fragment and for one kind, the envelope's bytes `"kind":"K","payload":` (found with Buffer.indexOf), else null. */
  readonly mark: Buffer | null;
}

/** A literal's bytes with ASCII letters lowercased, as log-cache.ts folds a log. */
function foldedBytes(text: string): Buffer {
  const b = Buffer.from(text, "utf8");
  foldAscii(b, b, 0, b.length);
  return b;
}

function lineExpression(kinds: readonly string[], fragment: string | null, span: number | null = null, literal: string | null = null): LineQuery {
  return {
    kinds: new Set(kinds),
    find: new RE2(fragment === null ? `"kind":"(?:${kindAlternation(kinds)})","payload":` : fragment),
    test: fragment === null ? null : new RE2(fragment),
    span: fragment === null ? 0 : span,
    needle: fragment !== null && literal !== null && literal !== "" ? foldedBytes(literal) : null,
    exact: span !== null,
    mark: fragment === null && kinds.length === 1 ? Buffer.from(`"kind":"${kinds[0]!}","payload":`, "utf8") : null,
  };
}

/**
 * What every match of a LIKE pattern holds, to find candidate lines by: the
 * pattern itself when it has no wildcard (`literal`: % and _ are themselves),
 * else its longest run between wildcards when that has 4 bytes or more, else ""
 * (one RE2 pass). Each candidate line costs an RE2 call: with a rare run
 * (`zq%xj`) the scan took a third of the RE2 pass's time, with a common one
 * (`record%seq%log` in the benchmark's log) about the same; a run of a
 * letter or two would be on nearly every line.
 */
function plainText(pattern: string, literal = false): string {
  if (likeSpan(pattern, literal) !== null) return pattern;
  let best = "";
  for (const run of pattern.split(/[%_]/)) if (Buffer.byteLength(run, "utf8") > Buffer.byteLength(best, "utf8")) best = run;
  return Buffer.byteLength(best, "utf8") >= MIN_RUN ? best : "";
}

/** The shortest run between wildcards worth finding candidate lines by. */
const MIN_RUN = 4;

/** The bytes a LIKE pattern's match spans when every match spans the same (no `%`, no `_` unless literal), else null. */
function likeSpan(pattern: string, literal = false): number | null {
  if (!literal && /[%_]/.test(pattern)) return null;
  return Buffer.byteLength(pattern, "utf8");
}

const KIND_MARK = Buffer.from('"kind":"', "latin1");
const PAYLOAD_MARK = Buffer.from('","payload":', "latin1");

/** Where `needle` first occurs in buf[from, to), or -1: a plain loop, cheaper than a native call on a line's first bytes. */
function indexIn(buf: Buffer, needle: Buffer, from: number, to: number, anchor = 0): number {
  // Looked for by its `anchor`th byte, one rarer in an envelope than the quote most marks start with.
  const a = needle[anchor]!;
  const n = needle.length;
  for (let i = from + anchor, last = to - n + anchor; i <= last; i++) {
    if (buf[i] !== a) continue;
    const s = i - anchor;
    let k = 0;
    while (k < n && buf[s + k] === needle[k]) k++;
    if (k === n) return s;
  }
  return -1;
}

/** A line's kind and where its payload starts, read from its envelope (its first 512 bytes); null when the line is not a record. */
function envelope(buf: Buffer, start: number, end: number): { kind: string; payload: number } | null {
  const to = Math.min(end, start + 512);
  const k = indexIn(buf, KIND_MARK, start, to, 1); // by its k: no other byte of a usual envelope before it is one
  if (k < 0) return null;
  const q = indexIn(buf, PAYLOAD_MARK, k + KIND_MARK.length, to, 3); // by its p
  if (q < 0) return null;
  return { kind: buf.toString("latin1", k + KIND_MARK.length, q), payload: q + PAYLOAD_MARK.length };
}

/** The `,"crc":"hhhhhhhh"}` every line ends with: not part of the payload. */
const CRC_TAIL = 18;

interface Hit {
  readonly start: number;
  readonly end: number;
  readonly seq: number;
}

/** The seq a line starts with (`{"seq":N,`), or -1. */
function seqOf(buf: Buffer, start: number): number {
  if (buf[start] !== 0x7b || buf[start + 1] !== 0x22) return -1;
  let i = start + 7; // {"seq":
  let n = 0;
  let digits = 0;
  for (; i < buf.length; i++) {
    const b = buf[i]!;
    if (b < 0x30 || b > 0x39) break;
    n = n * 10 + (b - 0x30);
    digits++;
  }
  return digits > 0 && buf[i] === 0x2c ? n : -1;
}

/**
 * Every line of `buf` the query matches within its payload, in order. One
 * RE2 `search` over the rest of the buffer finds the next match (only its
 * offset comes back, no match object); the line around it is checked and the
 * search goes on from the next line, so a line that does not match costs
 * nothing of its own and a matching one one native call.
 */
function scan(
  buf: Buffer,
  lq: LineQuery,
  keep: (seq: number) => boolean,
  drop: ((h: Hit, kind: string) => boolean) | null,
  folded: (() => Buffer) | null = null,
  table: LineTable | null = null,
): Hit[] {
  const out: Hit[] = [];
  const low = lq.needle !== null && folded !== null ? folded() : null;
  const needle = lq.needle!;
  const inPayload =
    low !== null && lq.exact
      ? (from: number, to: number) => low.subarray(from, to).indexOf(needle) >= 0
      : (from: number, to: number) => lq.test!.test(buf.subarray(from, to));
  const find = low !== null ? bytesFinder(low, needle) : lq.mark !== null ? bytesFinder(buf, lq.mark) : re2Finder(buf, lq.find);
  forEachMatchingLine(buf, find, (at, start, end) => {
    const env = envelope(buf, start, end);
    if (env === null || !lq.kinds.has(env.kind)) return;
    const payloadEnd = end - CRC_TAIL + 1;
    // The leftmost match from `at` on lies in the envelope, or may run into the crc member: the payload alone decides.
    if (lq.test !== null && (at < env.payload || lq.span === null || at + lq.span > payloadEnd) && !inPayload(env.payload, payloadEnd)) return;
    const seq = seqOf(buf, start);
    if (seq < 0 || !keep(seq)) return;
    const h = { start, end, seq };
    if (drop !== null && drop(h, env.kind)) return;
    out.push(h);
  }, 0, table);
  return out;
}

/** The offset of the next match at or after `pos`, or -1. */
type Finder = (pos: number) => number;

/** Finds with one RE2 `search` (an offset, no match object) over the rest of the buffer. */
function re2Finder(buf: Buffer, re: RE2): Finder {
  return (pos) => {
    const i = re.search(pos === 0 ? buf : buf.subarray(pos));
    return i < 0 ? -1 : pos + i;
  };
}

/** Finds bytes with Buffer.indexOf in `hay` (the log or its folded copy: the same offsets). */
function bytesFinder(hay: Buffer, needle: Buffer): Finder {
  return (pos) => hay.indexOf(needle, pos);
}

/**
 * Calls `visit` with the offset of the first match of `find` on each line that
 * has one, and the line's [start, end): one search over the rest of the
 * buffer, then on from the next line.
 */
function forEachMatchingLine(
  buf: Buffer,
  find: Finder,
  visit: (at: number, start: number, end: number) => void,
  from = 0,
  table: LineTable | null = null,
): void {
  if (table !== null) return forEachTabledLine(buf, find, visit, table, from);
  let pos = from;
  while (pos < buf.length) {
    const at = find(pos);
    if (at < 0) break;
    const start = buf.lastIndexOf(10, at) + 1;
    let end = buf.indexOf(10, at);
    if (end < 0) end = buf.length;
    pos = end + 1;
    visit(at, start, end);
  }
}

/** The start offset of every line of a log, in order: starts[0, n). */
export interface LineTable {
  starts: Float64Array;
  n: number;
}

/**
 * Appends to `t` (its entries before `from` kept, the rest dropped) the start
 * of every line of buf from `from` on, `from` being a line's start; a torn
 * last line (no newline yet) is listed too, and read again next time.
 */
export function extendLineTable(buf: Buffer, prev: LineTable | undefined, from: number): LineTable {
  const t: LineTable = prev ?? { starts: new Float64Array(1024), n: 0 };
  while (t.n > 0 && t.starts[t.n - 1]! >= from) t.n--;
  let at = from;
  while (at < buf.length) {
    if (t.n === t.starts.length) {
      const bigger = new Float64Array(t.starts.length * 2);
      bigger.set(t.starts);
      t.starts = bigger;
    }
    t.starts[t.n++] = at;
    const nl = buf.indexOf(10, at);
    if (nl < 0) break;
    at = nl + 1;
  }
  return t;
}

let lineTables = true;

/** Turns the line table off (tests: the scan without it is the reference the table's results are compared with). */
export function useLineTables(on: boolean): void {
  lineTables = on;
}

/** The log's line table, kept with the cached bytes and extended over appended lines; null for bytes not kept. */
function lineTableOf(log: LogBytes): LineTable | null {
  return lineTables && log.kept ? log.derived<LineTable>("line-starts", (prev, from) => extendLineTable(log.buf, prev, from)) : null;
}

/**
 * forEachMatchingLine with the line table: the line holding a match is found
 * by a binary search over the starts from the last line found on, and its end
 * is the next line's start less one, so a matching line costs one native call
 * (the search) instead of three.
 */
function forEachTabledLine(buf: Buffer, find: Finder, visit: (at: number, start: number, end: number) => void, t: LineTable, from: number): void {
  const starts = t.starts;
  const n = t.n;
  let lo = 0;
  let pos = from;
  while (pos < buf.length) {
    const at = find(pos);
    if (at < 0) break;
    // The last line starting at or before `at`: in [lo, n).
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    const start = starts[lo]!;
    let end: number;
    if (lo + 1 < n) end = starts[lo + 1]! - 1;
    else {
      end = buf.indexOf(10, at);
      if (end < 0) end = buf.length;
    }
    pos = end + 1;
    visit(at, start, end);
    lo++;
    if (lo >= n) break;
  }
}

/**
 * The same words as RE2 literals: a search for one runs at memchr speed over a
 * buffer, faster than Buffer.indexOf. Made on first use: an RE2 is a native
 * object the start-up snapshot (scripts/bundle.mjs) cannot hold, so none may
 * exist when the module loads.
 */
let memoryWords: RE2[] | null = null;

/**
 * Rows that repeat other rows, left out as the conversation memory leaves
 * them out (events.ts): the calls of recall and the recall forms (and of
 * index-search "conversation"/"earlier", and an eval whose code calls them),
 * their results, and a reply that is only such calls. A search would
 * otherwise find its own call, and each earlier search's rows again.
 */
function memoryNoise(log: LogBytes): (h: Hit, kind: string) => boolean {
  const buf = log.buf;
  let memo: { calls: Set<string>; lines: Set<number> } | null = null;
  // A memory call's line names "recall" or "index-search": find those lines (a literal RE2 search each, not a
  // walk over every tool.call line), and decode the tool.call lines among them. The calls and the starts of the
  // lines naming a word are kept with the cached log (log-cache.ts) and extended over the appended lines only; the
  // starts answer lineHas without a search of the line.
  const memory = (): { calls: Set<string>; lines: Set<number> } =>
    (memo ??= log.derived<{ calls: Set<string>; lines: Set<number> }>("memory-calls-and-lines", (prev, from) => {
      const found = new Set(prev?.calls);
      const lines = new Set(prev?.lines);
      const seen = new Set<number>();
      for (const word of (memoryWords ??= [new RE2("recall"), new RE2("index-search")])) {
        forEachMatchingLine(
          buf,
          re2Finder(buf, word),
          (_at, start, end) => {
            if (seen.has(start)) return;
            seen.add(start);
            lines.add(start);
            if (envelope(buf, start, end)?.kind !== "tool.call") return;
            const r = decodeAt(buf, { start, end });
            const p = r?.payload as Record<string, unknown> | undefined;
            if (r?.kind === "tool.call" && p !== undefined && isMemoryCall(String(p.tool ?? ""), p.args)) found.add(String(p.call_id ?? ""));
          },
          from,
        );
      }
      return { calls: found, lines };
    }));
  const memoryCalls = (): Set<string> => memory().calls;
  const lineHas = (_buf: Buffer, h: { start: number }): boolean => memory().lines.has(h.start);
  return (h, kind) => {
    if (kind === "tool.result") {
      // The set first: kept with the cached log, it is cheaper than looking through a long result's line.
      if (memoryCalls().size === 0 && !lineHas(buf, h)) return false;
      const r = decodeAt(buf, h);
      const p = r?.payload as Record<string, unknown> | undefined;
      return p !== undefined && (isMemoryCall(String(p.tool ?? ""), null) || memoryCalls().has(String(p.call_id ?? "")));
    }
    if (kind !== "tool.call" && kind !== "llm.resp") return false;
    if (!lineHas(buf, h)) return false;
    const r = decodeAt(buf, h);
    if (r === null) return false;
    const p = r.payload as Record<string, unknown>;
    if (r.kind === "tool.call") return isMemoryCall(String(p.tool ?? ""), p.args);
    if (r.kind === "llm.resp") {
      const cs = replyCalls(p);
      return cs.length > 0 && cs.every((c) => isMemoryCall(c.name, c.arguments)) && (typeof p.text !== "string" || p.text.trim() === "");
    }
    return false;
  };
}

/** A session log's bytes, through the per-process cache of appended logs (log-cache.ts). */
function readWhole(file: string): LogBytes {
  try {
    return logBytes(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") throw new RecallLogError("no-task", `there is no session log ${file} (a deleted session?)`);
    throw e;
  }
}

function decodeAt(buf: Buffer, h: { start: number; end: number }): LogRecord | null {
  const d = decodeLine(buf, h.start, h.end);
  return d.ok ? d.record : null;
}

/** Refuses kinds the log does not have (a typo would match nothing, silently). */
export function checkKinds(kinds: readonly string[], who: string): void {
  if (kinds.length === 0) throw new RecallLogError("bad-query", `${who}: :kinds is empty: name one kind or more (the default is ${DEFAULT_RECALL_KINDS.join(", ")})`);
  for (const k of kinds) if (!isKnownKind(k)) throw new RecallLogError("bad-query", `${who}: ${JSON.stringify(k)} is not a kind of the log (docs/log-format.md lists them; the default is ${DEFAULT_RECALL_KINDS.join(", ")})`);
}

/** The repo a log's session.start names: null when it names none, undefined when there is no such log. */
export function sessionRepo(file: string): string | null | undefined {
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch {
    return undefined;
  }
  const s = startOf(buf);
  return typeof s?.repo === "string" ? s.repo : null;
}

// ---- bodies ----------------------------------------------------------------------------------------

/** A record's body as recall reads it (events.ts), a tool call as `NAME ARGS`. */
export function bodyOf(r: LogRecord): string {
  if (r.kind === "tool.call") {
    const p = r.payload as Record<string, unknown>;
    return `${String(p.tool ?? "")} ${argsLine(p.args)}`;
  }
  return eventLines(r).join("\n");
}

function clipText(text: string, clip: number): { text: string; clipped: number } {
  const chars = [...text];
  if (chars.length <= clip) return { text, clipped: 0 };
  return { text: chars.slice(0, clip).join(""), clipped: chars.length - clip };
}

function rowOf(r: LogRecord, clip: number | null, session?: string): RecallRow {
  const body = bodyOf(r);
  const c = clip === null ? { text: body, clipped: 0 } : clipText(body, clip);
  const p = r.payload as Record<string, unknown>;
  return {
    seq: r.seq,
    at: r.ts,
    kind: r.kind,
    body: c.text,
    ...(r.kind === "tool.result" && typeof p.duration_ms === "number" ? { durationMs: p.duration_ms } : {}),
    ...(session !== undefined ? { session } : {}),
    ...(c.clipped > 0 ? { clipped: c.clipped } : {}),
  };
}

// ---- one session's log --------------------------------------------------------------------------------

export function logFileOf(dataDir: string, session: string): string {
  return join(sessionsDir(dataDir), session + LOG_EXTENSION);
}

/** The session.start of a log (its first line). */
function startOf(buf: Buffer): Record<string, any> | null {
  let end = buf.indexOf(10);
  if (end < 0) end = buf.length;
  const d = decodeLine(buf, 0, end);
  return d.ok && d.record.kind === "session.start" ? (d.record.payload as Record<string, any>) : null;
}

/** What a forked log's scan adds from the session it was forked from: that log's rows the fork did not copy. */
interface Ancestor {
  readonly session: string;
  readonly buf: Buffer;
  /** Rows of it to include (turns off the forked branch, up to the fork). */
  readonly keep: (seq: number) => boolean;
}

/** A session and the sessions it was forked from (their ids, as their session.start records name them; at most 32 deep). */
export function forkChain(dataDir: string, session: string): Set<string> {
  const out = new Set([session]);
  let id = session;
  while (out.size <= 32) {
    let buf: Buffer;
    try {
      buf = readFileSync(logFileOf(dataDir, id));
    } catch {
      break;
    }
    const f = startOf(buf)?.forked_from as { session?: unknown } | undefined;
    if (f === undefined || typeof f.session !== "string" || !isValidSessionId(f.session) || out.has(f.session)) break;
    out.add(f.session);
    id = f.session;
  }
  return out;
}

/** The chain of sessions a log was forked from, nearest first (at most 32 deep; a loop stops it). */
function ancestorsOf(dataDir: string, buf: Buffer, self: string): Ancestor[] {
  const out: Ancestor[] = [];
  const seen = new Set([self]);
  let start = startOf(buf);
  while (start !== null && out.length < 32) {
    const f = start.forked_from as { session?: unknown; turn?: unknown; seq?: unknown } | undefined;
    if (f === undefined || typeof f.session !== "string" || !isValidSessionId(f.session) || seen.has(f.session)) break;
    seen.add(f.session);
    let pbuf: Buffer;
    try {
      pbuf = readFileSync(logFileOf(dataDir, f.session));
    } catch {
      break; // the parent is gone: the fork holds its copy
    }
    const upTo = typeof f.seq === "number" ? f.seq : Number.MAX_SAFE_INTEGER;
    const turn = typeof f.turn === "number" ? f.turn : 0;
    // The fork copied the head's branch: what it lacks are the turns off that branch (hidden by an undo) up to the fork.
    const tree = new SessionTree();
    for (const r of readLog(logFileOf(dataDir, f.session))) {
      if (r.seq > upTo) break;
      tree.onRecord(r);
    }
    const branch = new Set(tree.path(turn));
    out.push({ session: f.session, buf: pbuf, keep: (seq) => seq <= upTo && !branch.has(tree.turnAt(seq)) });
    start = startOf(pbuf);
  }
  return out;
}

/**
 * recall-log: one session's rows of `q.kinds` whose raw payload matches
 * `q.match` (LIKE, anywhere in it), with `q.before`/`q.after` bounds, the
 * newest `q.limit` oldest first. A forked session's scan first includes the
 * rows of the sessions it was forked from that it did not copy (turns an undo
 * had hidden before the fork), each with its session; they count as older
 * than any of its own rows (`:after` leaves them out; page them with that
 * session's id).
 */
export function recallLog(dataDir: string, session: string, q: RecallLogQuery): RecallLogResult {
  const log = readWhole(logFileOf(dataDir, session));
  const buf = log.buf;
  const re = lineExpression(q.kinds, q.match === null ? null : likeFragment(q.match), q.match === null ? null : likeSpan(q.match), q.match === null ? null : plainText(q.match));
  const inBounds = (seq: number) => (q.before === null || seq < q.before) && (q.after === null || seq > q.after);
  const parts: { session: string | undefined; buf: Buffer; hits: Hit[] }[] = [];
  if (q.after === null)
    for (const a of ancestorsOf(dataDir, buf, session).reverse()) parts.push({ session: a.session, buf: a.buf, hits: scan(a.buf, re, a.keep, memoryNoise(unkept(a.buf))) });
  parts.push({ session: undefined, buf, hits: scan(buf, re, inBounds, memoryNoise(log), log.folded, lineTableOf(log)) });
  const matched = parts.reduce((n, p) => n + p.hits.length, 0);
  // The newest `limit` rows: from the end of the last part backwards.
  let left = Math.min(q.limit, MAX_RECALL_ROWS);
  const rows: RecallRow[] = [];
  for (let i = parts.length - 1; i >= 0 && left > 0; i--) {
    const p = parts[i]!;
    for (let k = p.hits.length - 1; k >= 0 && left > 0; k--) {
      const r = decodeAt(p.buf, p.hits[k]!);
      if (r === null) continue; // a damaged line: not a row
      rows.push(rowOf(r, q.clip, p.session));
      left--;
    }
  }
  rows.reverse();
  return { session, matched, rows };
}

/** The start of the first line at or after `at`, or buf.length. */
function lineStartFrom(buf: Buffer, at: number): number {
  if (at === 0) return 0;
  const nl = buf.indexOf(10, at - 1);
  return nl < 0 ? buf.length : nl + 1;
}

/** The seq of the first line at or after `at` that has one, and where that line starts; null when none does. */
function seqFrom(buf: Buffer, at: number): { seq: number; start: number } | null {
  for (let start = lineStartFrom(buf, at); start < buf.length; start = lineStartFrom(buf, start + 1)) {
    const seq = seqOf(buf, start);
    if (seq >= 0) return { seq, start };
  }
  return null;
}

/**
 * The record numbered `seq` found by bisecting the byte range on line starts
 * (a line with no seq, a damaged one, is stepped over): the first line
 * numbered seq or more, then the lines numbered seq from there, the first
 * that decodes. Null when that finds none.
 */
function entryBySearch(buf: Buffer, seq: number): LogRecord | null {
  let lo = 0;
  let hi = buf.length;
  // Invariant: every line starting before lo is numbered below seq; the first line numbered seq or more starts before hi or at it.
  while (hi - lo > 4096) {
    const mid = lo + Math.floor((hi - lo) / 2);
    const s = seqFrom(buf, mid);
    if (s === null || s.seq >= seq) hi = mid;
    else lo = s.start + 1;
  }
  for (let start = lineStartFrom(buf, lo); start < buf.length; start = lineStartFrom(buf, start + 1)) {
    const n = seqOf(buf, start);
    if (n < 0 || n < seq) continue;
    if (n > seq) return null;
    let end = buf.indexOf(10, start);
    if (end < 0) end = buf.length;
    const r = decodeAt(buf, { start, end });
    if (r !== null && r.seq === seq) return r;
  }
  return null;
}

/** recall-entry: the one record at seq, its body whole, or null when the log holds no record with that number. */
export function recallEntry(dataDir: string, session: string, seq: number): RecallRow | null {
  const buf = readWhole(logFileOf(dataDir, session)).buf;
  // The writer numbers lines in order: a binary search over line starts finds the first line numbered seq or
  // more, in about 17 steps for 100,000 lines. The first of the lines from there numbered seq that decodes is
  // the answer, as the scan below finds it; when there is none there (a log out of order), the scan decides.
  const fast = entryBySearch(buf, seq);
  if (fast !== null) return rowOf(fast, null);
  // Every line starts {"seq":N,: find this one's by its bytes (a few candidates at most), then decode it.
  const needle = Buffer.from(`{"seq":${seq},`, "latin1");
  for (let at = buf.indexOf(needle); at >= 0; at = buf.indexOf(needle, at + 1)) {
    if (at !== 0 && buf[at - 1] !== 10) continue;
    let end = buf.indexOf(10, at);
    if (end < 0) end = buf.length;
    const r = decodeAt(buf, { start: at, end });
    if (r !== null && r.seq === seq) return rowOf(r, null);
  }
  return null;
}

// ---- every session of the repository ---------------------------------------------------------------------

/** A session's title: its last session.title, else its first message's start. */
function titleOf(buf: Buffer): string {
  let title = "";
  const t = lineExpression(["session.title"], null);
  for (const h of scan(buf, t, () => true, null)) {
    const r = decodeAt(buf, h);
    const v = (r?.payload as Record<string, unknown> | undefined)?.title;
    if (typeof v === "string") title = v;
  }
  if (title !== "") return title;
  const u = lineExpression(["user.msg"], null);
  const m = scan(buf, u, () => true, null)[0];
  if (m === undefined) return "";
  const r = decodeAt(buf, m);
  return String((r?.payload as Record<string, unknown> | undefined)?.text ?? "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 80);
}

/** The project of the repo a log's session.start names (its first line only is read), or null. */
function repoAtStart(file: string, projectOf: (repo: string) => string | null): string | null {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return null;
  }
  try {
    const head = Buffer.allocUnsafe(65536);
    const n = readSync(fd, head, 0, head.length, 0);
    const buf = head.indexOf(10) >= 0 && head.indexOf(10) < n ? head.subarray(0, n) : readFileSync(file);
    const repo = startOf(buf)?.repo;
    return typeof repo === "string" ? projectOf(repo) : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

function snippet(body: string, words: readonly string[], window: number, lead: number): string {
  let at = -1;
  for (const w of words) {
    const m = new RegExp([...w].map((c) => escapeChar(c, true)).join(""), "u").exec(body);
    if (m !== null && (at < 0 || m.index < at)) at = m.index;
  }
  const chars = body.replace(/\s+/g, " ");
  if (at < 0) return [...chars].slice(0, window).join("");
  // Positions are the same after collapsing only up to `at`; collapse the prefix to find it again.
  const pre = body.slice(0, at).replace(/\s+/g, " ");
  const cps = [...chars];
  const pos = [...pre].length;
  const from = Math.max(0, pos - lead);
  return cps.slice(from, from + window).join("");
}

/**
 * recall-search: the rows of every session of the repository (`project`, as
 * host/index names it) whose raw payload holds every word of the query,
 * literally (`%` and `_` are themselves), ASCII case ignored; newest first.
 */
export function recallSearch(
  dataDir: string,
  projectOf: (repo: string) => string | null,
  project: string,
  q: RecallSearchQuery,
  only: ReadonlySet<string> | null = null,
  /** Set to how many of the repository's sessions `only` left out. */
  counts: { leftOut: number } | null = null,
): RecallSearchRow[] {
  const words = q.query.split(" ").filter((w) => w !== "");
  if (words.length === 0) throw new RecallLogError("bad-query", "recall-search: the query is empty: give one or more words, e.g. (recall-search \"deploy script\")");
  const first = lineExpression(q.kinds, likeFragment(words[0]!, true), likeSpan(words[0]!, true), words[0]!);
  // Every word is literal: each of the rest is looked for in the folded payload.
  const rest = words.slice(1).map(foldedBytes);
  // The snippet of a row is made only for the rows returned (it costs a RegExp per word): each found row keeps its record.
  const found: (Omit<RecallSearchRow, "text"> & { ts: number; record: LogRecord })[] = [];
  for (const s of listSessions(dataDir)) {
    if (only !== null && !only.has(s.session)) {
      if (counts !== null && repoAtStart(s.file, projectOf) === project) counts.leftOut++;
      continue;
    }
    let log: LogBytes;
    try {
      log = logBytes(s.file, false);
    } catch {
      continue; // removed while listing
    }
    const buf = log.buf;
    const start = startOf(buf);
    const repo = typeof start?.repo === "string" ? start.repo : null;
    if (repo === null || projectOf(repo) !== project) continue;
    let title: string | null = null;
    for (const h of scan(buf, first, () => true, memoryNoise(log), log.folded, lineTableOf(log))) {
      const low = log.folded();
      const payload = low.subarray(buf.indexOf('"payload":', h.start) + 10, h.end - CRC_TAIL + 1);
      if (!rest.every((w) => payload.indexOf(w) >= 0)) continue;
      const r = decodeAt(buf, h);
      if (r === null) continue;
      title ??= titleOf(buf);
      found.push({ session: s.session, title, seq: r.seq, kind: r.kind, at: r.ts, ts: Date.parse(r.ts), record: r });
    }
  }
  found.sort((a, b) => b.ts - a.ts || (a.session === b.session ? b.seq - a.seq : a.session < b.session ? 1 : -1));
  return found.slice(0, Math.min(q.limit, MAX_RECALL_ROWS)).map(({ ts: _ts, record, ...row }) => ({ ...row, text: snippet(bodyOf(record), words, q.window, q.lead) }));
}

/** recall-search's answer through the conversation memory: the rows, and the other tasks the person's leave kept out. */
export interface RecallSearchResult {
  readonly rows: readonly RecallSearchRow[];
  /** Other tasks of the repository not searched (no leave), and the reason with how the person allows it; null when none. */
  readonly leftOut: { readonly tasks: number; readonly why: string } | null;
}
