// The session log's typed errors: each has a stable code, and damage names the file and line.

/** Every failure of the session log is a LogError with a stable `code`. */
export class LogError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** A session id that is not a safe file name. */
export class InvalidSessionIdError extends LogError {
  readonly session: string;
  constructor(session: string) {
    super(
      "LOG_INVALID_SESSION",
      `invalid session id ${JSON.stringify(session)}: use 1-128 letters, digits, '.', '_' or '-', starting with a letter or digit`,
    );
    this.session = session;
  }
}

/** Creating a session log whose file already exists (the writer never overwrites one). */
export class LogExistsError extends LogError {
  readonly file: string;
  constructor(file: string) {
    super("LOG_EXISTS", `session log ${file} already exists; a session log is never overwritten`);
    this.file = file;
  }
}

/** Opening a session log that does not exist. */
export class LogNotFoundError extends LogError {
  readonly file: string;
  constructor(file: string) {
    super("LOG_NOT_FOUND", `session log ${file} does not exist`);
    this.file = file;
  }
}

/** Another writer (in this process or another) holds the session log's lock. */
export class LogLockedError extends LogError {
  readonly file: string;
  constructor(file: string, cause?: unknown) {
    super("LOG_LOCKED", `session log ${file} is already open by another writer`, { cause });
    this.file = file;
  }
}

/** Why a record is rejected; each reason has its own stable code. */
export type CorruptReason =
  | "crc-mismatch"
  | "malformed"
  | "seq-gap"
  | "seq-duplicate"
  | "unknown-kind"
  | "session-mismatch"
  | "no-start"
  | "line-too-long"
  | "empty";

const CORRUPT_CODES: Record<CorruptReason, string> = {
  "crc-mismatch": "LOG_CRC_MISMATCH",
  malformed: "LOG_MALFORMED",
  "seq-gap": "LOG_SEQ_GAP",
  "seq-duplicate": "LOG_SEQ_DUPLICATE",
  "unknown-kind": "LOG_UNKNOWN_KIND",
  "session-mismatch": "LOG_SESSION_MISMATCH",
  "no-start": "LOG_NO_START",
  "line-too-long": "LOG_LINE_TOO_LONG",
  empty: "LOG_EMPTY",
};

/**
 * A damaged or invalid record that repair must not hide: the message reads
 * `file:line: what is wrong`, and `line` is 1-based, `offset` the line's first byte.
 */
export class LogCorruptError extends LogError {
  readonly reason: CorruptReason;
  readonly file: string;
  readonly line: number;
  readonly offset: number;
  readonly detail: string;
  constructor(reason: CorruptReason, file: string, line: number, offset: number, detail: string) {
    super(CORRUPT_CODES[reason], `${file}:${line}: ${detail}`);
    this.reason = reason;
    this.file = file;
    this.line = line;
    this.offset = offset;
    this.detail = detail;
  }
}

/**
 * The ADR's ErrTruncated: opening for append found a torn last line (bytes after
 * the last newline), moved them to `backup` and truncated the log to its last whole
 * record. It is returned, not thrown: the log is usable, and the session notes it.
 */
export class TruncatedError extends LogError {
  readonly file: string;
  readonly backup: string;
  /** Byte offset where the torn line started (the log's new size). */
  readonly offset: number;
  /** How many torn bytes were moved aside. */
  readonly bytes: number;
  /** The 1-based line number the torn bytes occupied. */
  readonly line: number;
  constructor(file: string, backup: string, offset: number, bytes: number, line: number) {
    super(
      "LOG_TRUNCATED",
      `${file}:${line}: a torn last line (${bytes} bytes without a newline) was moved to ${backup} and the log truncated to its last whole record`,
    );
    this.file = file;
    this.backup = backup;
    this.offset = offset;
    this.bytes = bytes;
    this.line = line;
  }
}

/** A payload that does not have its kind's shape, or is not JSON; nothing was written. */
export class LogPayloadError extends LogError {
  readonly kind: string;
  constructor(code: "LOG_BAD_PAYLOAD" | "LOG_UNKNOWN_KIND" | "LOG_RECORD_TOO_LARGE", kind: string, message: string) {
    super(code, message);
    this.kind = kind;
  }
}

/** A write, fsync or truncate failed: the writer is poisoned from then on. */
export class LogWriteError extends LogError {
  readonly file: string;
  constructor(file: string, what: string, cause: unknown) {
    super("LOG_WRITE_FAILED", `session log ${file}: ${what} failed: ${describe(cause)}`, { cause });
    this.file = file;
  }
}

/** An append to a writer that an earlier failure poisoned. */
export class LogPoisonedError extends LogError {
  readonly file: string;
  constructor(file: string, cause: unknown) {
    super(
      "LOG_POISONED",
      `session log ${file}: an earlier write failed (${describe(cause)}); this writer accepts no more records`,
      { cause },
    );
    this.file = file;
  }
}

/** An append to a writer that was closed. */
export class LogClosedError extends LogError {
  readonly file: string;
  constructor(file: string) {
    super("LOG_CLOSED", `session log ${file}: the writer is closed`);
    this.file = file;
  }
}

/** An I/O failure while opening or reading (other than a missing file or a held lock). */
export class LogIOError extends LogError {
  readonly file: string;
  constructor(file: string, what: string, cause: unknown) {
    super("LOG_IO", `session log ${file}: ${what} failed: ${describe(cause)}`, { cause });
    this.file = file;
  }
}

function describe(e: unknown): string {
  // Node's fs errors already begin with their code ("EIO: i/o error, write").
  return e instanceof Error ? e.message : String(e);
}

/**
 * The sessions folder is on a network file system (NFS, SMB/CIFS, 9p, Ceph), where
 * flock and fsync do not give the log its guarantees (one writer; a record on disk
 * once acknowledged). Refused unless NODWYN_ALLOW_NETWORK_FS=1.
 */
export class LogNetworkFsError extends LogError {
  readonly dir: string;
  readonly fsType: string;
  constructor(dir: string, fsType: string) {
    super(
      "LOG_NETWORK_FS",
      `the session logs' folder ${dir} is on ${fsType}, where the log's lock and fsync cannot be relied on: set NODWYN_DATA_DIR to a folder on a local disk, or NODWYN_ALLOW_NETWORK_FS=1 to use it anyway`,
    );
    this.dir = dir;
    this.fsType = fsType;
  }
}
