// One task's memory for one search or recall: its .mem file checked against the log, brought up to date, and the tail folded.
//
// openTask(log) checks the .mem beside the log (the line where its last whole
// turn ends, by length and SHA-256), folds in only what the log gained since,
// and writes the file again whole when the log gained a whole turn (or ended
// between turns); a file that does not match is made again from the log. What
// comes after the last whole turn (a turn still running, a turn a crash cut
// off) is folded at each opening and never written. The TaskView it returns
// reads postings, events and cards from the file and the tail; close it after
// the search: nothing is kept.

import { closeSync, fstatSync, openSync, readSync, unlinkSync, constants as C } from "node:fs";
import { readLog, sessionOfFile, type LogEntry, type LogRecord } from "../log/index.js";
import { decodeLine } from "../log/record.js";
import type { TurnCard, CompactionNote } from "./cards.js";
import { TaskFold, lineHash, type DocEntry, type TaskFacts, type Watermark } from "./fold.js";
import type { HeldRecords } from "./held.js";
import { MEM_EXTENSION, MemMismatch, MemReader, encodeMem, writeMemFile, type MemHeader, type MemMeta, type WordKey } from "./mem-file.js";

export const MEM_FORMAT = "nodwyn-mem-3";

/** The .mem file beside a log. */
export function memFileOf(logFile: string): string {
  return logFile.replace(/\.jsonl$/, "") + MEM_EXTENSION;
}

/** One word's postings in a view: flat [doc, tf, len, …] with the view's doc numbers. */
export type ViewPostings = ArrayLike<number>;

/** What happened to the .mem file at this opening (for tests and the benchmark). */
export type MemAction = "read" | "extended" | "rebuilt" | "created";

/** How the repository a task's tree belongs to is named (host/index projectPaths' key), or null when it cannot be told. */
export type ProjectOf = (facts: TaskFacts) => string | null;

/** One task's memory, open for one search or recall. */
export interface TaskView {
  readonly session: string;
  readonly logFile: string;
  readonly facts: TaskFacts;
  readonly project: string | null;
  readonly action: MemAction;
  /** Why the file was made again (a mismatch), when it was. */
  readonly rebuiltBecause?: string;
  /** Events and their total length (BM25's N and the sum of lengths). */
  readonly docs: number;
  readonly totalLen: number;
  /** The last seq the log holds. */
  readonly lastSeq: number;
  /** Bytes of the log read to bring the memory up to date at this opening (not the checked line, nor the held unfinished turn). */
  readonly logBytesRead: number;
  /** A word's postings (a WordKey: the word with its UTF-8 and hash, made once for a search of many tasks). */
  postings(word: string | WordKey): ViewPostings | null;
  doc(i: number): DocEntry;
  /** The card of a turn (an open turn's as it is so far), or null. */
  card(turn: number): TurnCard | null;
  cards(): TurnCard[];
  notes(): CompactionNote[];
  /** The record at seq, read again from the log, or null when the log holds none. */
  record(seq: number): LogRecord | null;
  /** The record whose line is at off (bytes long), or null. */
  recordAt(off: number, bytes: number): LogRecord | null;
  /** The index of the event at seq, or -1. */
  docOf(seq: number): number;
  /** The label of the sub-context an event was recorded in ("" for one without a label), or null when it was in none. */
  contextOf(d: DocEntry): string | null;
  close(): void;
}

function readBytes(fd: number, off: number, len: number): Buffer | null {
  if (!Number.isSafeInteger(off) || !Number.isSafeInteger(len) || off < 0 || len < 0 || len > 64 * 1024 * 1024) return null;
  const b = Buffer.allocUnsafe(len);
  let got = 0;
  while (got < len) {
    const n = readSync(fd, b, got, len - got, off + got);
    if (n === 0) return null;
    got += n;
  }
  return b;
}

/** The log line ending at `end` with `len` bytes matches `hash`. */
function lineMatches(fd: number, w: Watermark): boolean {
  if (w.end === 0) return w.lineBytes === 0;
  const b = readBytes(fd, w.end - w.lineBytes, w.lineBytes);
  return b !== null && b[b.length - 1] === 10 && lineHash(b) === w.hash;
}

/** The checked lines are read in one read when at most this far apart. */
const ONE_READ_SPAN = 64 * 1024;

/**
 * What the log says of a .mem file's header, from one read when it can: the
 * bytes from the start of the line ending at w.end to s.end, and one more.
 * `w`: the line ending at w.end is the one the file was made to (its length
 * and SHA-256). `atEnd`: besides, the log ends at s.end and the line ending
 * there matches too, so the file covers the whole log (the extra byte asked
 * for tells the log ends there without a stat).
 */
function checkLog(fd: number, h: MemHeader): { w: boolean; atEnd: boolean } {
  const from = h.w.end - h.w.lineBytes;
  const to = h.s.end;
  if (!Number.isSafeInteger(from) || from < 0 || to < h.w.end || to - from > ONE_READ_SPAN) {
    // A wide gap between the two lines (or a header that cannot be so): each line by itself, and the log's size.
    const w = lineMatches(fd, h.w);
    return { w, atEnd: w && fstatSync(fd).size === h.s.end && (h.s.end === h.w.end || lineMatches(fd, h.s)) };
  }
  const b = Buffer.allocUnsafe(to - from + 1);
  // One read: a read of a regular file that gets less than it asked has met the file's end (a loop would ask again
  // only to be told 0). Were it short for another reason, the line would not match and the file would be made again.
  const got = readSync(fd, b, 0, b.length, from);
  const wl = h.w.lineBytes;
  const w = h.w.end === 0 ? wl === 0 : got >= wl && b[wl - 1] === 10 && lineHash(b.subarray(0, wl)) === h.w.hash;
  if (!w || got !== to - from) return { w, atEnd: false };
  if (h.s.end === h.w.end) return { w, atEnd: true };
  const so = h.s.end - h.s.lineBytes - from;
  const atEnd = so >= 0 && h.s.lineBytes > 0 && b[to - from - 1] === 10 && lineHash(b.subarray(so, to - from)) === h.s.hash;
  return { w, atEnd };
}

function mark(fd: number, p: { seq: number; end: number; turns: number; lineBytes: number }): Watermark {
  if (p.end === 0) return { ...p, hash: lineHash(Buffer.alloc(0)) };
  const b = readBytes(fd, p.end - p.lineBytes, p.lineBytes);
  if (b === null) throw new Error("the log changed while its memory was written");
  return { ...p, hash: lineHash(b) };
}

interface Folded {
  /** Up to the end of the last whole turn. */
  readonly main: TaskFold;
  /** After it. */
  readonly tail: TaskFold;
  readonly lastLine: number;
}

/**
 * Folds `entries` onto `main`: each whole turn into main, what follows the
 * last turn.end into a continuation (its tail).
 */
function foldEntries(main: TaskFold, entries: Iterable<LogEntry>): Folded {
  let pending: LogEntry[] = [];
  let lastLine = 0;
  for (const e of entries) {
    pending.push(e);
    lastLine = e.end - e.offset;
    if (e.record.kind === "turn.end") {
      for (const x of pending) main.add(x);
      pending = [];
    }
  }
  const tail = main.continuation();
  for (const x of pending) tail.add(x);
  return { main, tail, lastLine };
}

/** Options of openTask. */
export interface OpenTaskOptions {
  readonly projectOf?: ProjectOf;
  /** Do not write the .mem file (a read-only data directory): fold in memory only. */
  readonly noWrite?: boolean;
  /** Make the file again from the log whatever it holds (a part failed its check during a search). */
  readonly rebuild?: boolean;
  /** A running session's unfinished turn, held in memory (HeldTurn): folded from there, not read from the log. */
  readonly held?: HeldRecords | null;
  /**
   * Only a task of this project (its repository key) is wanted: one whose .mem file names another gives null without
   * its log being opened or checked (a task's project, once recorded, does not change). A task whose file names none,
   * or has no valid file, is opened as always (its project is known only from its log).
   */
  readonly project?: string;
}

/**
 * The log's records from `start` (a line start after seq `lastSeq`; null: the
 * beginning) to its end `size`: those before what `held` holds read from the
 * log, the held ones taken as they are. `read` counts the log's bytes read.
 */
function gained(logFile: string, fd: number, start: { offset: number; lastSeq: number } | null, size: number, held: HeldRecords | null | undefined, read: { bytes: number }): LogEntry[] {
  const from = start?.offset ?? 0;
  const at = (lastSeq: number, offset: number) => (offset === 0 ? {} : { start: { offset, line: lastSeq + 1, lastSeq } });
  if (held && held.end === size && held.fromOffset >= from && held.fromOffset <= size) {
    const before = held.fromOffset > from ? [...readLog(logFile, { fd, ...at(start?.lastSeq ?? 0, from), through: held.fromSeq - 1 }).entries()] : [];
    const last = before[before.length - 1];
    // What the log holds before the held records must meet them exactly; if not, the log is read whole from `start`.
    if ((before.length === 0 ? from : last!.end) === held.fromOffset) {
      read.bytes += held.fromOffset - from;
      return held.entries.length === 0 ? before : before.concat(held.entries);
    }
  }
  read.bytes += size - from;
  return from >= size ? [] : [...readLog(logFile, { fd, ...at(start?.lastSeq ?? 0, from) }).entries()];
}

/**
 * Opens a task's memory: null when its log is gone (a deleted task). A log
 * that cannot be read (damage) throws the log's error.
 */
export function openTask(logFile: string, o: OpenTaskOptions = {}): TaskView | null {
  const session = sessionOfFile(logFile);
  const memFile = memFileOf(logFile);
  // The .mem file first: when it names another project than the one asked for, the log is not opened at all.
  let early: MemReader | null = null;
  let earlyMismatch: MemMismatch | null = null;
  if (!o.rebuild) {
    try {
      early = MemReader.open(memFile);
      if (early !== null && o.project !== undefined) {
        const p = early.meta().project;
        if (p !== null && p !== o.project) {
          early.close();
          return null;
        }
      }
    } catch (e) {
      early?.close();
      early = null;
      if (!(e instanceof MemMismatch)) throw e;
      earlyMismatch = e;
    }
  }
  let fd: number;
  try {
    fd = openSync(logFile, C.O_RDONLY);
  } catch (e) {
    early?.close();
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
  try {
    // The log's size is asked only when the .mem file does not cover the whole log (checkLog tells that by a read).
    let size = -1;
    const sizeOf = (): number => {
      if (size < 0) {
        const st = fstatSync(fd);
        // A folder (or another kind of file) under a log's name is no task.
        if (!st.isFile()) throw Object.assign(new Error(`${logFile} is not a file`), { code: "EISDIR" });
        size = st.size;
      }
      return size;
    };
    let reader: MemReader | null = null;
    let why: string | undefined;
    let existed = false;
    const read = { bytes: 0 };
    try {
      if (o.rebuild) throw new MemMismatch(memFile, "a part did not match its check when it was read");
      if (earlyMismatch !== null) throw earlyMismatch;
      reader = early;
      early = null;
      existed = reader !== null;
      if (reader !== null) {
        const h = reader.header;
        const checked = checkLog(fd, h);
        if (!checked.w) throw new MemMismatch(memFile, "the log does not hold the line where the file's last turn ends");
        if (checked.atEnd) {
          const meta = reader.meta();
          const r = reader;
          reader = null;
          return counted(read, fileView(logFile, session, r, meta, null, fd, "read"));
        }
        if (h.w.end > sizeOf()) throw new MemMismatch(memFile, "the log does not hold the line where the file's last turn ends");
        // The log gained records (or its tail after the last whole turn changed): fold from the watermark.
        const meta = reader.meta();
        const entries = gained(logFile, fd, { offset: h.w.end, lastSeq: h.w.seq }, sizeOf(), o.held, read);
        const grows = entries.some((e) => e.record.kind === "turn.end");
        const base = new TaskFold(session, { point: h.w, facts: meta.facts, docBase: h.docs, contexts: meta.contexts, openContexts: meta.openContexts });
        if (!grows) {
          const tail = foldEntries(base, entries).tail;
          // Nothing but records between turns (an end, a title): write the file again so the next read need not fold them.
          if (tail.openCard === null && tail.docs.length === 0 && !o.noWrite) {
            const full = restoreFold(session, reader, meta);
            const folded = foldEntries(full, entries);
            const project = meta.project ?? o.projectOf?.(folded.tail.facts) ?? null;
            reader.close();
            reader = null;
            return counted(read, writtenView(write(memFile, fd, folded, project), logFile, session, folded, project, fd, "extended"));
          }
          const r = reader;
          reader = null;
          return counted(read, fileView(logFile, session, r, meta, tail, fd, "read"));
        }
        const full = restoreFold(session, reader, meta);
        reader.close();
        reader = null;
        const folded = foldEntries(full, entries);
        const project = meta.project ?? o.projectOf?.(folded.tail.facts) ?? null;
        return counted(read, writtenView(o.noWrite ? null : write(memFile, fd, folded, project), logFile, session, folded, project, fd, "extended"));
      }
    } catch (e) {
      reader?.close();
      reader = null;
      if (!(e instanceof MemMismatch)) throw e;
      why = e.why;
    }
    // No file, or one that does not match: made again from the whole log.
    const folded = foldEntries(new TaskFold(session), gained(logFile, fd, null, sizeOf(), o.held, read));
    const project = o.projectOf?.(folded.tail.facts) ?? null;
    return counted(read, writtenView(o.noWrite ? null : write(memFile, fd, folded, project), logFile, session, folded, project, fd, existed || why !== undefined ? "rebuilt" : "created", why));
  } catch (e) {
    closeSync(fd);
    // A folder under a log's name: no task (a read of it, or its stat, says so).
    if ((e as NodeJS.ErrnoException).code === "EISDIR") return null;
    throw e;
  }
}

function counted(read: { bytes: number }, v: TaskView): TaskView {
  (v as { logBytesRead: number }).logBytesRead = read.bytes;
  return v;
}

function restoreFold(session: string, r: MemReader, meta: MemMeta): TaskFold {
  const h = r.header;
  return TaskFold.restore(session, {
    point: { seq: h.w.seq, end: h.w.end, turns: h.w.turns },
    facts: meta.facts,
    docs: r.docs(),
    postings: r.allPostings(),
    cards: r.cardsAll(),
    notes: meta.notes,
    contexts: meta.contexts,
    openContexts: meta.openContexts,
    offsets: r.offsets(),
    totalLen: h.totalLen,
  });
}

/** Writes the .mem file of `f`; returns a reader over the bytes written (a search goes on from them), or null when the data directory cannot be written. */
function write(memFile: string, fd: number, f: Folded, project: string | null): { reader: MemReader; meta: MemMeta } | null {
  const m = f.main;
  const w = mark(fd, { seq: m.point.seq, end: m.point.end, turns: m.point.turns, lineBytes: m.lastTurnEnd?.lineBytes ?? 0 });
  const t = f.tail;
  // The log's end is recorded as covered only when what follows the last whole turn holds no event and no open turn
  // (an end, a title): a tail with events is never written, so it is folded again at every read.
  const refold = t.point.end === m.point.end || t.docs.length > 0 || t.openCard !== null;
  const s = refold ? w : mark(fd, { seq: t.point.seq, end: t.point.end, turns: t.point.turns, lineBytes: f.lastLine });
  const meta: MemMeta = { format: MEM_FORMAT, facts: t.facts, project, notes: m.notes, contexts: m.contexts, openContexts: m.openContexts };
  const bytes = encodeMem({ w, s, docs: m.docs, postings: m.postings, totalLen: m.totalLen, offsets: m.offsets, cards: m.cards, meta });
  try {
    writeMemFile(memFile, bytes);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // A data directory that cannot be written: the memory is folded in memory this time.
    if (code !== "EACCES" && code !== "EROFS" && code !== "EPERM" && code !== "ENOSPC") throw e;
    return null;
  }
  // The meta as a reader of the file gets it (a copy through JSON: nothing of the fold is kept).
  return { reader: MemReader.fromBytes(memFile, bytes), meta: JSON.parse(JSON.stringify(meta)) as MemMeta };
}

/**
 * The view after a write: over the bytes written and the tail (the fold of the
 * whole turns is dropped, so a search of many tasks keeps one file's bytes per
 * task rather than its fold); over the folds where nothing could be written.
 */
function writtenView(written: { reader: MemReader; meta: MemMeta } | null, logFile: string, session: string, folded: Folded, project: string | null, fd: number, action: MemAction, why?: string): TaskView {
  if (written === null) return foldView(logFile, session, folded, project, fd, action, why);
  const v = fileView(logFile, session, written.reader, written.meta, folded.tail, fd, action);
  return why !== undefined ? { ...v, rebuiltBecause: why } : v;
}

function readRecord(fd: number, session: string, seq: number | null, off: number, end: number): LogRecord | null {
  if (end <= off) return null;
  const b = readBytes(fd, off, end - off);
  if (b === null || b.length < 2 || b[b.length - 1] !== 10) return null;
  const d = decodeLine(b, 0, b.length - 1);
  if (!d.ok || (seq !== null && d.record.seq !== seq) || d.record.session !== session) return null;
  return d.record;
}

function searchDocs(n: number, seqAt: (i: number) => number, seq: number): number {
  let lo = 0;
  let hi = n - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = seqAt(mid);
    if (s === seq) return mid;
    if (s < seq) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

function foldPostings(f: TaskFold, word: string | WordKey): number[] | null {
  const list = f.postings.get(typeof word === "string" ? word : word.word);
  if (list === undefined) return null;
  const out: number[] = [];
  for (let k = 0; k < list.length; k += 2) {
    const d = list[k]!;
    out.push(d, list[k + 1]!, f.docs[d - f.docBase]!.len);
  }
  return out;
}

/** A view over a .mem file, and the fold of the log's tail after it. */
function fileView(logFile: string, session: string, r: MemReader, meta: MemMeta, tail: TaskFold | null, fd: number, action: MemAction): TaskView {
  const h = r.header;
  const facts = tail?.facts ?? meta.facts;
  let closed = false;
  const view: TaskView = {
    session,
    logFile,
    facts,
    project: meta.project,
    action,
    docs: h.docs + (tail?.docs.length ?? 0),
    totalLen: h.totalLen + (tail?.totalLen ?? 0),
    lastSeq: tail?.point.seq ?? h.s.seq,
    logBytesRead: 0,
    postings(word) {
      const a = r.postings(word);
      const b = tail !== null ? foldPostings(tail, word) : null;
      if (b === null) return a;
      if (a === null) return b;
      const out = new Array<number>(a.length + b.length);
      for (let i = 0; i < a.length; i++) out[i] = a[i]!;
      for (let i = 0; i < b.length; i++) out[a.length + i] = b[i]!;
      return out;
    },
    doc(i) {
      return i < h.docs ? r.doc(i) : tail!.docs[i - h.docs]!;
    },
    card(turn) {
      if (turn >= 1 && turn <= h.cards) return r.card(turn);
      if (tail === null) return null;
      return tail.cards.find((c) => c.turn === turn) ?? (tail.openCard?.turn === turn ? tail.openCard : null);
    },
    cards() {
      return [...r.cardsAll(), ...(tail?.cards ?? []), ...(tail?.openCard ? [tail.openCard] : [])];
    },
    notes() {
      return [...meta.notes, ...(tail?.notes ?? [])];
    },
    record(seq) {
      if (seq >= 1 && seq <= h.w.seq) {
        const off = r.offsetOf(seq)!;
        const end = seq < h.w.seq ? r.offsetOf(seq + 1)! : h.w.end;
        const rec = readRecord(fd, session, seq, off, end);
        if (rec === null) throw new MemMismatch(r.file, `the offset of seq ${seq} does not name its line`);
        return rec;
      }
      const line = tail?.lineOf(seq);
      return line ? readRecord(fd, session, seq, line.off, line.end) : null;
    },
    recordAt(off, bytes) {
      return readRecord(fd, session, null, off, off + bytes);
    },
    contextOf(d) {
      return d.context === 0 ? null : ((tail?.contexts ?? meta.contexts)[d.context - 1] ?? null);
    },
    docOf(seq) {
      if (seq <= h.w.seq) return searchDocs(h.docs, (i) => r.doc(i).seq, seq);
      if (tail === null) return -1;
      const i = searchDocs(tail.docs.length, (k) => tail.docs[k]!.seq, seq);
      return i < 0 ? -1 : h.docs + i;
    },
    close() {
      if (closed) return;
      closed = true;
      r.close();
      closeSync(fd);
    },
  };
  return view;
}

/** A view over folds held in memory (after a write, or where no file could be written). */
function foldView(logFile: string, session: string, f: Folded, project: string | null, fd: number, action: MemAction, why?: string): TaskView {
  const { main, tail } = f;
  let closed = false;
  const lineOf = (seq: number) => main.lineOf(seq) ?? tail.lineOf(seq);
  return {
    session,
    logFile,
    facts: tail.facts,
    project,
    action,
    ...(why !== undefined ? { rebuiltBecause: why } : {}),
    docs: main.docs.length + tail.docs.length,
    totalLen: main.totalLen + tail.totalLen,
    lastSeq: tail.point.seq,
    logBytesRead: 0,
    postings(word) {
      const a = foldPostings(main, word);
      const b = foldPostings(tail, word);
      if (a === null) return b;
      return b === null ? a : a.concat(b);
    },
    doc(i) {
      return i < main.docs.length ? main.docs[i]! : tail.docs[i - main.docs.length]!;
    },
    card(turn) {
      return main.cards.find((c) => c.turn === turn) ?? tail.cards.find((c) => c.turn === turn) ?? (tail.openCard?.turn === turn ? tail.openCard : null);
    },
    cards() {
      return [...main.cards, ...tail.cards, ...(tail.openCard ? [tail.openCard] : [])];
    },
    notes() {
      return [...main.notes, ...tail.notes];
    },
    record(seq) {
      const l = lineOf(seq);
      return l ? readRecord(fd, session, seq, l.off, l.end) : null;
    },
    recordAt(off, bytes) {
      return readRecord(fd, session, null, off, off + bytes);
    },
    contextOf(d) {
      return d.context === 0 ? null : (tail.contexts[d.context - 1] ?? null);
    },
    docOf(seq) {
      const i = searchDocs(main.docs.length, (k) => main.docs[k]!.seq, seq);
      if (i >= 0) return i;
      const j = searchDocs(tail.docs.length, (k) => tail.docs[k]!.seq, seq);
      return j < 0 ? -1 : main.docs.length + j;
    },
    close() {
      if (closed) return;
      closed = true;
      closeSync(fd);
    },
  };
}

/** Removes a log's .mem file (deleting it is always safe); false when there was none. */
export function deleteMemFile(logFile: string): boolean {
  try {
    unlinkSync(memFileOf(logFile));
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw e;
  }
}
