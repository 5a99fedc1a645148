// The strict streaming reader: reads a session log in chunks and rejects any damage but a torn tail.
//
// What counts as torn (ADR 0009): the end of the file from the first line that
// is not what a writer wrote whole — bytes after the last newline, or a line
// too short, without its crc member, with a crc that does not match, or longer
// than any record — provided it is the file's last write. The writer writes a
// record (or a group of them) in one write and acknowledges it only after
// fsync, so what the last write left unsynced was never acknowledged, and a
// power loss may leave it cut short, zeroed, garbled or out of order in
// 512-byte sectors, newlines included. The records of one write, and only
// they, share a ts (the writer makes each write's ts later than the last), so
// whole records after the damage belong to the same last write when they all
// have one ts, later than the last record before the damage, and the damaged
// lines show that ts too (at least one readable, none other). Damage followed
// by anything else may be an acknowledged record of an earlier write: an
// error, never cut away. So is a line whose crc matches but which is not a
// valid record, wherever it is. Repair moves a torn tail aside, never deletes it.

import { constants as C } from "node:fs";
import { basename } from "node:path";
import { LogCorruptError, LogIOError, LogNotFoundError, type CorruptReason } from "./errors.js";
import { closeQuietly, nodeLogFs, type LogFs } from "./log-fs.js";
import { decodeLine, type LogRecord } from "./record.js";
import { LOG_EXTENSION } from "./paths.js";

/** The default largest line (record) in bytes; the writer refuses larger records. */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;
const DEFAULT_CHUNK = 1024 * 1024;

/** Bytes after the last newline: a record cut off before it was whole. */
export interface TornTail {
  /** Offset of the torn line's first byte (the end of the last whole record). */
  readonly offset: number;
  readonly bytes: number;
  /** The torn line's 1-based line number. */
  readonly line: number;
}

/** A record and where it is in the file. */
export interface LogEntry {
  readonly record: LogRecord;
  /** 1-based line number. */
  readonly line: number;
  /** Offset of the line's first byte. */
  readonly offset: number;
  /** Offset just after the line's newline. */
  readonly end: number;
}

/** Options of readLog and verifyLog. */
export interface ReadLogOptions {
  /** The session the records must name; by default the file's name without `.jsonl`. */
  readonly session?: string;
  /** Start here instead of at the beginning: a line start found earlier (tail -f, tail -n). */
  readonly start?: { readonly offset: number; readonly line: number; readonly lastSeq?: number };
  /** Stop after the record with this seq (the rest is not read). */
  readonly through?: number;
  /** Bytes read at a time (tests use small chunks to cross boundaries). */
  readonly chunkSize?: number;
  /** The largest line accepted; longer lines are damage. */
  readonly maxLineBytes?: number;
  readonly fs?: LogFs;
  /** An already open fd to read (not closed by the reader); the writer's resume uses it. */
  readonly fd?: number;
}

/** What a complete read found. */
export interface ReadSummary {
  readonly file: string;
  /** Records read. */
  readonly records: number;
  /** The last record's seq (0 if none). */
  readonly lastSeq: number;
  /** The end of the last whole record: where the next record goes. */
  readonly end: number;
  /** Lines read, the torn one included. */
  readonly lines: number;
  /** A torn last line, or null. */
  readonly tail: TornTail | null;
  /** The last record's ts (null if none). */
  readonly lastTs: string | null;
}

/** The session a log file belongs to, from its name. */
export function sessionOfFile(file: string): string {
  const b = basename(file);
  return b.endsWith(LOG_EXTENSION) ? b.slice(0, -LOG_EXTENSION.length) : b;
}

/**
 * A strict, streaming reading of one log. Iterating it reads the file in chunks
 * and yields each record; any damage but a torn tail throws LogCorruptError naming
 * the file and line. After a complete iteration `summary` says what was found,
 * including a torn tail, which the reader reports but never repairs.
 */
export class LogReader implements Iterable<LogRecord> {
  readonly file: string;
  private readonly options: ReadLogOptions;
  private done: ReadSummary | null = null;

  constructor(file: string, options: ReadLogOptions = {}) {
    this.file = file;
    this.options = options;
  }

  /** What the last complete iteration found; null before one completes. */
  get summary(): ReadSummary | null {
    return this.done;
  }

  [Symbol.iterator](): Iterator<LogRecord> {
    const entries = this.entries();
    return {
      next: () => {
        const n = entries.next();
        return n.done ? { done: true, value: undefined } : { done: false, value: n.value.record };
      },
      return: (value?: unknown) => {
        entries.return(undefined);
        return { done: true, value };
      },
    };
  }

  /** The records with their line numbers and offsets. */
  *entries(): Generator<LogEntry, void, undefined> {
    this.done = null;
    const o = this.options;
    const fs = o.fs ?? nodeLogFs;
    const file = this.file;
    let fd = o.fd;
    const own = fd === undefined;
    if (fd === undefined) {
      try {
        fd = fs.openSync(file, C.O_RDONLY);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT") throw new LogNotFoundError(file);
        throw new LogIOError(file, "open", e);
      }
    }
    let closed = false;
    try {
      const summary = yield* scan(fd, file, fs, o);
      this.done = summary;
      if (own) {
        closed = true;
        try {
          fs.closeSync(fd);
        } catch (e) {
          throw new LogIOError(file, "close", e);
        }
      }
    } finally {
      // A failure (or a reader that stopped early): the close must not hide what happened.
      if (own && !closed) closeQuietly(fs, fd);
    }
  }
}

/** Opens a log for strict streaming reading (nothing is read until it is iterated). */
export function readLog(file: string, options: ReadLogOptions = {}): LogReader {
  return new LogReader(file, options);
}

/**
 * Reads a whole log strictly and says what it holds; throws LogCorruptError at the
 * first damage. A torn tail is reported in `tail`, not thrown.
 */
export function verifyLog(file: string, options: ReadLogOptions = {}): ReadSummary {
  const r = new LogReader(file, options);
  const it = r.entries();
  while (!it.next().done);
  return r.summary!;
}

function* scan(fd: number, file: string, fs: LogFs, o: ReadLogOptions): Generator<LogEntry, ReadSummary, undefined> {
  const maxLine = o.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const session = o.session ?? sessionOfFile(file);
  const through = o.through ?? Infinity;
  let buf = Buffer.allocUnsafe(Math.max(64, o.chunkSize ?? DEFAULT_CHUNK));
  let bufOffset = o.start?.offset ?? 0; // file offset of buf[0]
  let filled = 0; // valid bytes in buf
  let lineStart = 0; // index in buf of the current line's first byte
  let lineNo = o.start?.line ?? 1; // number of the current line
  // With no start, the first record must be seq 1 and session.start; a start may
  // give the seq before it, or leave it to the first record read (tail -n).
  let expected = o.start ? (o.start.lastSeq === undefined ? -1 : o.start.lastSeq + 1) : 1;
  let records = 0;
  let lastSeq = o.start?.lastSeq ?? 0;
  let skipStart = -1; // inside a line longer than maxLine: its offset; its bytes are not kept
  // The first line that may be a torn write: the tail from here on is torn if it is all one last write.
  let pending: { readonly line: number; readonly offset: number; readonly reason: CorruptReason; readonly detail: string } | null = null;
  // The ts of the last valid record before the damage; the ts of the whole records after it (one write's, or
  // it is not a torn write).
  let lastTs: string | null = null;
  let beforeTs: string | null = null;
  let afterTs: string | null = null;
  // The seq the first damaged line should hold, and the write mark of the whole records after it (ADR 0043).
  let pendingSeq: number | null = null;
  let afterWrite: number | null = null;
  let oneWrite = true;
  const fromPending = (): never => {
    const p = pending as NonNullable<typeof pending>;
    return fail(p.reason, p.line, p.offset, `${p.detail}, and more records follow it`);
  };

  const fail = (reason: CorruptReason, line: number, offset: number, detail: string): never => {
    throw new LogCorruptError(reason, file, line, offset, detail);
  };

  for (;;) {
    if (filled === buf.length) {
      if (lineStart > 0) {
        buf.copyWithin(0, lineStart, filled);
        filled -= lineStart;
        bufOffset += lineStart;
        lineStart = 0;
      } else if (buf.length <= maxLine) {
        const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, maxLine + 1));
        buf.copy(bigger, 0, 0, filled);
        buf = bigger;
      } else {
        // A line longer than any record: keep where it starts, drop its bytes, look for its end.
        if (skipStart < 0) skipStart = bufOffset;
        bufOffset += filled;
        filled = 0;
      }
    }
    let n: number;
    try {
      n = fs.readSync(fd, buf, filled, buf.length - filled, bufOffset + filled);
    } catch (e) {
      throw new LogIOError(file, "read", e);
    }
    if (n === 0) break;
    const from = filled;
    filled += n;
    let nl = buf.indexOf(10, from);
    while (nl !== -1 && nl < filled) {
      const offset = skipStart >= 0 ? skipStart : bufOffset + lineStart;
      const tooLong = skipStart >= 0 || nl - lineStart > maxLine;
      const d = tooLong ? null : decodeLine(buf, lineStart, nl);
      if (d === null || (!d.ok && d.tornable)) {
        // Maybe the torn tail: decided by what follows.
        if (pending === null) {
          beforeTs = lastTs;
          pendingSeq = expected === -1 ? null : expected;
          pending = d === null
            ? { line: lineNo, offset, reason: "line-too-long", detail: `a line longer than ${maxLine} bytes` }
            : { line: lineNo, offset, reason: (d as { reason: CorruptReason }).reason, detail: (d as { detail: string }).detail };
        }
        skipStart = -1;
        lineStart = nl + 1;
        lineNo++;
        nl = buf.indexOf(10, lineStart);
        continue;
      }
      if (pending !== null) {
        // A whole record after damage: part of the torn last write only if it shares that write's ts.
        if (!d.ok) fromPending();
        const whole = d as { record: LogRecord; write?: number };
        const ts = whole.record.ts;
        if (afterTs === null) {
          afterTs = ts;
          afterWrite = whole.write ?? null;
        } else if ((whole.write ?? null) !== afterWrite) oneWrite = false;
        // A write begun before the damage holds the record before it too, with the same ts.
        const begunBefore = afterWrite !== null && pendingSeq !== null && afterWrite < pendingSeq;
        if (ts !== afterTs || (beforeTs !== null && (begunBefore ? ts !== beforeTs : ts <= beforeTs))) oneWrite = false;
        if (!oneWrite) fromPending();
        lineStart = nl + 1;
        lineNo++;
        nl = buf.indexOf(10, lineStart);
        continue;
      }
      if (!d.ok) fail(d.reason, lineNo, offset, d.detail);
      const rec = (d as { record: LogRecord }).record;
      if (rec.session !== session)
        fail("session-mismatch", lineNo, offset, `record names session ${JSON.stringify(rec.session)}, not ${JSON.stringify(session)}`);
      if (expected === -1) expected = rec.seq;
      if (rec.seq !== expected) {
        if (rec.seq > expected)
          fail("seq-gap", lineNo, offset, `seq ${rec.seq} follows seq ${expected - 1} (seq ${expected} is missing)`);
        fail("seq-duplicate", lineNo, offset, `seq ${rec.seq} repeats or goes back (seq ${expected} expected)`);
      }
      if (rec.seq === 1 && rec.kind !== "session.start")
        fail("no-start", lineNo, offset, `the first record is ${rec.kind}, not session.start`);
      expected++;
      records++;
      lastSeq = rec.seq;
      lastTs = rec.ts;
      lineStart = nl + 1;
      lineNo++;
      const end = bufOffset + lineStart;
      yield { record: rec, line: lineNo - 1, offset, end };
      if (rec.seq >= through) return { file, records, lastSeq, end, lines: lineNo - 1, tail: null, lastTs };
      nl = buf.indexOf(10, lineStart);
    }
  }
  const end = bufOffset + lineStart;
  const fileEnd = bufOffset + filled;
  if (pending !== null && afterTs !== null) {
    // Whole records after the damage: one torn write only with evidence that the damage is in it too
    // (else the damage may be an acknowledged record of an earlier write, which is never cut away): their
    // write mark naming a first seq at or before the damaged line's, from their own bytes, checked by their
    // crcs. A ts read out of the damaged bytes is no such evidence: one flipped bit can make it any write's.
    const marked = afterWrite !== null && pendingSeq !== null && afterWrite <= pendingSeq;
    if (!marked) fromPending();
  }
  const tail: TornTail | null = pending !== null
    ? { offset: pending.offset, bytes: fileEnd - pending.offset, line: pending.line }
    : skipStart >= 0
      ? { offset: skipStart, bytes: fileEnd - skipStart, line: lineNo }
      : end < fileEnd
        ? { offset: end, bytes: fileEnd - end, line: lineNo }
        : null;
  if (!o.start && records === 0 && !tail) fail("empty", 1, 0, "the log holds no records (not even session.start)");
  return { file, records, lastSeq, end: tail ? tail.offset : end, lines: end < fileEnd || skipStart >= 0 ? lineNo : lineNo - 1, tail, lastTs };
}
