// The append-only session log writer: locked, redacted, one fsync'd write per event (or per group of events), poisoned by any failure.

import { constants as C, existsSync } from "node:fs";
import { dirname } from "node:path";
import { Redactor, RedactError, type RedactionReport } from "../redact/index.js";
import {
  LogError,
  LogClosedError,
  LogCorruptError,
  LogExistsError,
  LogIOError,
  LogLockedError,
  LogNetworkFsError,
  LogNotFoundError,
  LogPayloadError,
  LogPoisonedError,
  LogWriteError,
  TruncatedError,
} from "./errors.js";
import { checkPayload, type LogKind, type Payload, type SessionConfigPayload } from "./kinds.js";
import { closeQuietly, networkFsOf, nodeLogFs, type LogFs } from "./log-fs.js";
import { resolveDataDir, sessionLogPath, sessionsDir } from "./paths.js";
import { DEFAULT_MAX_LINE_BYTES, verifyLog, type ReadSummary } from "./reader.js";
import { encodeLine } from "./record.js";
import { fitPayload } from "./fit.js";

/** Options shared by createSessionLog and openForAppend. */
export interface WriterOptions {
  /** The data directory; by default resolveDataDir(env). */
  readonly dataDir?: string;
  /** The environment the data directory is resolved from (default process.env). */
  readonly env?: NodeJS.ProcessEnv;
  /** The redactor every payload passes; share the session's, which holds its registered secrets. */
  readonly redactor?: Redactor;
  /** The file-system seam (tests inject failures). */
  readonly fs?: LogFs;
  /** The clock for `ts`. */
  readonly now?: () => Date;
  /** The largest record line in bytes (default 16 MiB, what the reader accepts). */
  readonly maxRecordBytes?: number;
  /** @internal The ts of the log's last record (open-for-append passes it: later writes get later ones). */
  readonly lastTs?: string;
  /**
   * createSessionLog: write session.start without its own fdatasync, for a
   * caller that appends the next record at once (a batch command's eval.req):
   * that record's fdatasync, or close's, makes both durable. See append's `durable`.
   */
  readonly deferStart?: boolean;
}

/** How an append is made durable. */
export interface AppendOptions {
  /**
   * False: the record is written (other readers see it) but not fdatasync'd;
   * the next durable append, sync() or close makes it durable with its own
   * fdatasync (one covers every earlier write to the file). For a record that
   * another follows at once, such as a batch command's session.start before its
   * eval.req. A crash of the process keeps it (it is in the kernel's cache);
   * only a crash of the machine before that fdatasync can lose it, and then
   * nothing later was acknowledged either. Watchers see it when it is durable.
   * Default true.
   */
  readonly durable?: boolean;
}

/** Options of openForAppend. */
export interface OpenForAppendOptions extends WriterOptions {
  /**
   * The session's current configuration: when given, a session.resume record is
   * appended (a resume); without it nothing is (appending a summary or a title to
   * a closed session).
   */
  readonly resume?: SessionConfigPayload;
  /**
   * Refuse a torn last line (LOG_TORN) instead of repairing it: an edit of a
   * closed session (a summary) leaves recovery to the resume, which notes it.
   */
  readonly refuseTorn?: boolean;
}

/** What an append wrote. */
export interface AppendResult {
  /** The record's seq. */
  readonly seq: number;
  readonly ts: string;
  /** When the redactor replaced something: the redact.event's seq and the report. */
  readonly redaction: { readonly seq: number; readonly report: RedactionReport } | null;
}

/** What openForAppend returns. */
export interface OpenForAppendResult {
  readonly writer: LogWriter;
  /**
   * The ADR's ErrTruncated when a torn last line was repaired, else null. The
   * writer has already recorded the repair in a note (after session.resume).
   */
  readonly truncated: TruncatedError | null;
}

const DIR_MODE = 0o700; // logs hold conversations: only their owner reads them
const FILE_MODE = 0o600;

/**
 * The writer of one session log. It holds the file's exclusive flock for its whole
 * life, assigns contiguous seqs, redacts every payload, and returns from append
 * only when the record is on disk. After a failed write or fsync it is poisoned:
 * every later append throws. Make one with createSessionLog or openForAppend.
 */
export class LogWriter {
  /** The session id. */
  readonly session: string;
  /** The log file's path. */
  readonly file: string;
  /** The redactor payloads pass (register host secrets on it). */
  readonly redactor: Redactor;
  private readonly fs: LogFs;
  private readonly now: () => Date;
  private readonly maxRecordBytes: number;
  private fd: number;
  private seq: number;
  private size: number;
  private poison: { cause: unknown } | null = null;
  /** The ts of the last write, in milliseconds. */
  private lastTsMs: number;
  private closed = false;
  /** Written lines not yet fdatasync'd (append with durable false), for the watchers once they are. */
  private unsynced: { lines: readonly Buffer[]; at: number }[] = [];

  private watchers: ((line: Buffer, offset: number) => void)[] = [];

  /**
   * Calls `fn` with each line written from now on (its bytes with the newline,
   * and where it starts), once it is durable: a running session's conversation
   * memory holds its unfinished turn this way instead of reading it back.
   * Returns the function that stops it.
   */
  watch(fn: (line: Buffer, offset: number) => void): () => void {
    this.watchers.push(fn);
    return () => {
      this.watchers = this.watchers.filter((w) => w !== fn);
    };
  }

  private tell(lines: readonly Buffer[], at: number): void {
    for (const line of lines) {
      for (const w of this.watchers) w(line, at);
      at += line.length;
    }
  }

  /** @internal Use createSessionLog or openForAppend; `fd` is open and locked. */
  constructor(session: string, file: string, fd: number, lastSeq: number, size: number, o: WriterOptions) {
    this.session = session;
    this.file = file;
    this.fd = fd;
    this.seq = lastSeq;
    this.size = size;
    this.fs = o.fs ?? nodeLogFs;
    this.redactor = o.redactor ?? new Redactor();
    this.now = o.now ?? (() => new Date());
    this.maxRecordBytes = o.maxRecordBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.lastTsMs = o.lastTs !== undefined ? Date.parse(o.lastTs) || 0 : 0;
  }

  /** The seq of the last record written (0 before any). */
  get lastSeq(): number {
    return this.seq;
  }

  /** The log's size in bytes: the end of its last record. */
  get bytes(): number {
    return this.size;
  }

  /** True after a failed write or fsync: the writer accepts no more records. */
  get poisoned(): boolean {
    return this.poison !== null;
  }

  /** True after close. */
  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Appends one record and returns once it is durable (written and fsync'd). The
   * payload is checked against its kind's shape (LogPayloadError, nothing written,
   * the writer still usable), then redacted; when something was replaced, a
   * redact.event follows the record in the same write. A failed write or fsync
   * throws LogWriteError and poisons the writer.
   */
  append(kind: LogKind, payload: Payload | object, o: AppendOptions = {}): AppendResult {
    return this.appendAll([{ kind, payload }], o)[0] as AppendResult;
  }

  /**
   * Appends records in order with one write and one fsync, returning once all
   * are durable: what append does for each, for a producer of many events at
   * once (a search's guard decisions). Every payload is checked and encoded
   * before anything is written, so a bad one writes none of them.
   */
  appendAll(records: ReadonlyArray<{ readonly kind: LogKind; readonly payload: Payload | object }>, o: AppendOptions = {}): AppendResult[] {
    if (this.closed) throw new LogClosedError(this.file);
    if (this.poison) throw new LogPoisonedError(this.file, this.poison.cause);
    // Each write's ts is later than the last one's (by a millisecond when the clock has not moved): the
    // records of one write, and only they, share a ts, which is how the reader tells a torn group (ADR 0009).
    let ms = this.now().getTime();
    if (ms <= this.lastTsMs) ms = this.lastTsMs + 1;
    const ts = new Date(ms).toISOString();
    const lines: Buffer[] = [];
    const results: AppendResult[] = [];
    let seq = this.seq;
    // A write of several lines marks each with the seq of its first (ADR 0043).
    const first = records.length > 1 ? this.seq + 1 : undefined;
    for (const { kind, payload } of records) {
      const r = this.encode(kind, payload, seq + 1, ts, lines, first);
      results.push(r);
      seq = r.redaction ? r.seq + 1 : r.seq;
    }
    if (lines.length === 0) return results;
    const at = this.size;
    const durable = o.durable !== false;
    this.writeDurably(lines.length === 1 ? (lines[0] as Buffer) : Buffer.concat(lines), durable);
    this.seq = seq;
    this.lastTsMs = ms;
    if (!durable) this.unsynced.push({ lines, at });
    else this.told(lines, at);
    return results;
  }

  /** Makes the records written without their own fdatasync durable (nothing to do when there are none). */
  sync(): void {
    if (this.closed) throw new LogClosedError(this.file);
    if (this.poison) throw new LogPoisonedError(this.file, this.poison.cause);
    if (this.unsynced.length === 0) return;
    try {
      this.fs.fdatasyncSync(this.fd);
    } catch (e) {
      this.poison = { cause: e };
      throw new LogWriteError(this.file, "fsync", e);
    }
    this.told();
  }

  /** The watchers see the lines now durable: those written without a sync first, then `lines`. */
  private told(lines?: readonly Buffer[], at = 0): void {
    const before = this.unsynced;
    this.unsynced = [];
    if (this.watchers.length === 0) return;
    for (const u of before) this.tell(u.lines, u.at);
    if (lines) this.tell(lines, at);
  }

  /** One record as its line (and its redact.event's), pushed onto `out`; nothing is written. */
  private encode(kind: LogKind, payload: Payload | object, seq: number, ts: string, out: Buffer[], first: number | undefined): AppendResult {
    checkPayload(kind, payload);
    if (kind === "session.start" && seq !== 1)
      throw new LogPayloadError("LOG_BAD_PAYLOAD", kind, "session.start is only the first record; a later opening is session.resume");
    const red = redactPayload(this.redactor, kind, payload);
    const json = JSON.stringify(red.value);
    // A lone record followed by its redact.event is a write of two lines too.
    const write = first ?? (red.report ? seq : undefined);
    let line = encodeLine(seq, ts, this.session, kind, json, write);
    if (line.length - 1 > this.maxRecordBytes) {
      // Logged in part: the longest strings, already redacted, are cut with a marker saying how much went.
      const overhead = line.length - 1 - Buffer.byteLength(json);
      const fit = fitPayload(red.value, this.maxRecordBytes - overhead, `the record was larger than the log's limit of ${this.maxRecordBytes} bytes`);
      if (fit === null)
        throw new LogPayloadError(
          "LOG_RECORD_TOO_LARGE",
          kind,
          `a ${kind} record of ${line.length - 1} bytes is larger than the log accepts (${this.maxRecordBytes}), and cutting its strings cannot make it fit`,
        );
      line = encodeLine(seq, ts, this.session, kind, JSON.stringify(fit.value), write);
    }
    out.push(line);
    let redaction: AppendResult["redaction"] = null;
    if (red.report) {
      const r = red.report;
      const event: Payload = { target_seq: seq, target_kind: kind, rules: { ...r.rules }, paths: [...r.paths] };
      if (r.pathsDropped > 0) event.paths_dropped = r.pathsDropped;
      // Paths name redacted keys, so the event holds no secret; it passes the boundary all the same.
      out.push(encodeLine(seq + 1, ts, this.session, "redact.event", JSON.stringify(this.redactor.redactJSON(event).value), write));
      redaction = { seq: seq + 1, report: r };
    }
    return { seq, ts, redaction };
  }

  /**
   * Closes the writer: unlocks first (LOCK_UN releases the flock through every
   * copy of the file description, a forked child's too), then closes the file.
   * Idempotent; works on a poisoned writer.
   */
  close(): void {
    if (this.closed) return;
    let failure: unknown = null;
    // What was written without its own fdatasync is made durable before the lock goes.
    if (this.unsynced.length > 0 && this.poison === null) {
      try {
        this.sync();
      } catch (e) {
        failure = e;
      }
    }
    this.closed = true;
    try {
      this.fs.flockSync(this.fd, "un");
    } catch (e) {
      failure = e;
    }
    try {
      this.fs.closeSync(this.fd);
    } catch (e) {
      failure ??= e;
    }
    this.fd = -1;
    if (failure instanceof LogWriteError) throw failure;
    if (failure) throw new LogIOError(this.file, "close", failure);
  }

  private writeDurably(buf: Buffer, sync = true): void {
    let what = "write";
    try {
      let off = 0;
      while (off < buf.length) {
        const n = this.fs.writeSync(this.fd, buf, off, buf.length - off, null);
        if (n <= 0) throw new Error(`write wrote ${n} bytes`);
        off += n;
      }
      what = "fsync";
      if (sync) this.fs.fdatasyncSync(this.fd);
    } catch (e) {
      this.poison = { cause: e };
      // Best effort: leave the file as acknowledged. If this fails too, the next
      // open's torn-tail repair or strict read deals with what is there.
      try {
        this.fs.ftruncateSync(this.fd, this.size);
      } catch {
        // already poisoned; the original failure is what is reported
      }
      throw new LogWriteError(this.file, what, e);
    }
    this.size += buf.length;
  }
}

function redactPayload(redactor: Redactor, kind: string, payload: object) {
  try {
    return redactor.redactJSON(payload as Payload);
  } catch (e) {
    if (e instanceof RedactError) throw new LogPayloadError("LOG_BAD_PAYLOAD", kind, `bad payload for ${kind}: ${e.message}`);
    throw e;
  }
}

function lockOrRefuse(fs: LogFs, fd: number, file: string): void {
  try {
    fs.flockSync(fd, "exnb");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EAGAIN" || code === "EWOULDBLOCK") throw new LogLockedError(file, e);
    throw new LogIOError(file, "lock", e);
  }
}

function fsyncDir(fs: LogFs, dir: string): void {
  const fd = fs.openSync(dir, C.O_RDONLY | C.O_DIRECTORY);
  try {
    fs.fsyncSync(fd);
  } catch (e) {
    closeQuietly(fs, fd);
    throw e;
  }
  fs.closeSync(fd);
}

// A network file system breaks the log's guarantees (T14): refused unless the person says otherwise.
function refuseNetworkFs(fs: LogFs, dir: string, env: NodeJS.ProcessEnv = process.env): void {
  if (env.NODWYN_ALLOW_NETWORK_FS === "1") return;
  const type = networkFsOf(fs, dir);
  if (type !== null) throw new LogNetworkFsError(dir, type);
}

// Creates the sessions folder and makes each new folder's entry durable in its parent.
function ensureSessionsDir(fs: LogFs, dir: string): void {
  const missing: string[] = [];
  for (let d = dir; !existsSync(d) && dirname(d) !== d; d = dirname(d)) missing.push(d);
  if (missing.length === 0) return;
  fs.mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  for (const d of missing) fsyncDir(fs, dirname(d));
}

/**
 * Creates a new session log and writes its session.start (seq 1). The file is
 * created exclusively (LogExistsError if it exists: a log is never overwritten),
 * locked (LogLockedError), and the folder fsync'd so the new file survives a crash.
 * The start payload is checked before anything is created.
 */
export function createSessionLog(session: string, start: SessionConfigPayload, options: WriterOptions = {}): LogWriter {
  const fs = options.fs ?? nodeLogFs;
  const dataDir = options.dataDir ?? resolveDataDir(options.env);
  const file = sessionLogPath(session, dataDir);
  checkPayload("session.start", start);
  const redactor = options.redactor ?? new Redactor();
  redactPayload(redactor, "session.start", start);
  const dir = sessionsDir(dataDir);
  let fd: number;
  try {
    ensureSessionsDir(fs, dir);
  } catch (e) {
    throw new LogIOError(file, "create", e);
  }
  refuseNetworkFs(fs, dir, options.env);
  try {
    fd = fs.openSync(file, C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_APPEND, FILE_MODE);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") throw new LogExistsError(file);
    throw new LogIOError(file, "create", e);
  }
  let writer: LogWriter | null = null;
  try {
    lockOrRefuse(fs, fd, file);
    try {
      fsyncDir(fs, dir);
    } catch (e) {
      throw new LogIOError(file, "fsync of the sessions folder", e);
    }
    writer = new LogWriter(session, file, fd, 0, 0, { ...options, redactor });
    writer.append("session.start", start, { durable: options.deferStart !== true });
    return writer;
  } catch (e) {
    if (!(e instanceof LogLockedError)) {
      // Nothing was acknowledged: remove the file so that the session can be created again.
      try {
        fs.unlinkSync(file);
      } catch {
        // leave it; createSessionLog fails either way
      }
    }
    if (writer) {
      try {
        writer.close();
      } catch {
        // reporting the first failure
      }
    } else closeQuietly(fs, fd);
    throw e;
  }
}

/**
 * Opens an existing session log to append to it. Takes the lock (LogLockedError),
 * reads the whole log strictly (LogCorruptError on damage), and repairs a torn
 * last line: its bytes go to a backup file beside the log (`<log>.torn-<offset>`),
 * the log is truncated to its last whole record, and `truncated` says so. With
 * `resume`, a session.resume record is appended (seq continues), then a note of
 * any repair.
 */
export function openForAppend(session: string, options: OpenForAppendOptions = {}): OpenForAppendResult {
  const fs = options.fs ?? nodeLogFs;
  const dataDir = options.dataDir ?? resolveDataDir(options.env);
  const file = sessionLogPath(session, dataDir);
  if (options.resume) checkPayload("session.resume", options.resume);
  refuseNetworkFs(fs, dirname(file), options.env);
  let fd: number;
  try {
    fd = fs.openSync(file, C.O_RDWR | C.O_APPEND);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") throw new LogNotFoundError(file);
    throw new LogIOError(file, "open", e);
  }
  let writer: LogWriter;
  let truncated: TruncatedError | null = null;
  try {
    lockOrRefuse(fs, fd, file);
    const summary = verifyLog(file, { fd, fs, session, maxLineBytes: options.maxRecordBytes });
    if (summary.records === 0)
      throw new LogCorruptError("empty", file, 1, 0, "the log holds no whole record (not even session.start) and cannot be resumed");
    if (summary.tail && options.refuseTorn)
      throw new LogError("LOG_TORN", `${file}:${summary.tail.line}: the log's last line is torn (${summary.tail.bytes} bytes without a newline): the session did not end cleanly; resume it to recover the log first`);
    if (summary.tail) truncated = repairTail(fs, fd, file, summary);
    writer = new LogWriter(session, file, fd, summary.lastSeq, summary.end, { ...options, ...(summary.lastTs !== null ? { lastTs: summary.lastTs } : {}) });
  } catch (e) {
    try {
      fs.flockSync(fd, "un");
    } catch {
      // closing releases it anyway
    }
    closeQuietly(fs, fd);
    throw e;
  }
  try {
    if (options.resume) writer.append("session.resume", options.resume);
    if (truncated)
      writer.append("note", {
        text: truncated.message,
        topic: "log.repair",
        data: { backup: truncated.backup, offset: truncated.offset, bytes: truncated.bytes, line: truncated.line },
      });
  } catch (e) {
    // The caller never gets this writer: release its lock now, not at process exit.
    try {
      writer.close();
    } catch {
      // reporting the append's failure
    }
    throw e;
  }
  return { writer, truncated };
}

// Moves the torn bytes aside (durably) before truncating, so no byte is ever lost.
function repairTail(fs: LogFs, fd: number, file: string, summary: ReadSummary): TruncatedError {
  const tail = summary.tail!;
  let backup = `${file}.torn-${tail.offset}`;
  let bfd = -1;
  for (let n = 2; bfd < 0; n++) {
    try {
      bfd = fs.openSync(backup, C.O_WRONLY | C.O_CREAT | C.O_EXCL, FILE_MODE);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST" || n > 1000) throw new LogIOError(file, "create the torn-tail backup", e);
      backup = `${file}.torn-${tail.offset}-${n}`;
    }
  }
  try {
    const buf = Buffer.allocUnsafe(Math.min(tail.bytes, 1 << 20));
    for (let done = 0; done < tail.bytes; ) {
      const n = fs.readSync(fd, buf, 0, Math.min(buf.length, tail.bytes - done), tail.offset + done);
      if (n <= 0) throw new Error("the log ended early");
      for (let w = 0; w < n; ) w += fs.writeSync(bfd, buf, w, n - w, null);
      done += n;
    }
    fs.fdatasyncSync(bfd);
  } catch (e) {
    closeQuietly(fs, bfd);
    throw new LogIOError(file, "copy the torn tail to its backup", e);
  }
  try {
    fs.closeSync(bfd);
  } catch (e) {
    throw new LogIOError(file, "close the torn-tail backup", e);
  }
  try {
    fsyncDir(fs, dirname(file));
    fs.ftruncateSync(fd, tail.offset);
    fs.fsyncSync(fd);
  } catch (e) {
    throw new LogIOError(file, "truncate the torn tail", e);
  }
  return new TruncatedError(file, backup, tail.offset, tail.bytes, tail.line);
}

/**
 * True when a writer holds the log's lock right now (a live session is appending).
 * Probes with a shared non-blocking flock and releases it at once; a missing file
 * is not locked.
 */
export function isLockedByWriter(file: string, fs: LogFs = nodeLogFs): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, C.O_RDONLY);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw new LogIOError(file, "open", e);
  }
  try {
    fs.flockSync(fd, "shnb");
    fs.flockSync(fd, "un");
    return false;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EAGAIN" || code === "EWOULDBLOCK") return true;
    throw new LogIOError(file, "lock probe", e);
  } finally {
    closeQuietly(fs, fd);
  }
}
