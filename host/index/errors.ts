// The repository index's typed failures, with stable codes the primitives turn into Scheme conditions.

/** Why an index operation failed as a whole. */
export type IndexErrorCode =
  | "index-storage" // the index's files could not be written or read (a full disk, permissions): IndexStorageError
  | "index-busy" // another process held the index longer than the wait allowed
  | "bad-scope" // index-search was asked for a scope it does not have
  | "bad-path" // a path the index cannot add (missing, outside the root, not a file or directory)
  | "aborted"; // cancelled by the caller's AbortSignal

export class IndexError extends Error {
  readonly domain = "index" as const;
  readonly code: IndexErrorCode;
  constructor(code: IndexErrorCode, message: string) {
    super(message);
    this.name = "IndexError";
    this.code = code;
  }
}

/**
 * The index's storage failed: a full disk (SQLITE_FULL, ENOSPC), an I/O error,
 * permissions. What was committed before stays and still answers; `errno` is
 * the operating system's or SQLite's code.
 */
export class IndexStorageError extends IndexError {
  readonly errno: string | undefined;
  constructor(message: string, errno?: string) {
    super("index-storage", message);
    this.name = "IndexStorageError";
    this.errno = errno;
  }
}

/** The code of a Node or SQLite error, when it has one. */
export function errCode(e: unknown): string | undefined {
  return e !== null && typeof e === "object" && typeof (e as { code?: unknown }).code === "string" ? (e as { code: string }).code : undefined;
}

/** Whether an error says the disk (or the database's allowance) is full. */
export function isDiskFull(e: unknown): boolean {
  const c = errCode(e);
  return c === "ENOSPC" || c === "EDQUOT" || c === "SQLITE_FULL" || c === "EFBIG";
}

/** Whether an error is SQLite saying its file is damaged or not a database. */
export function isCorrupt(e: unknown): boolean {
  const c = errCode(e);
  return c !== undefined && (c.startsWith("SQLITE_CORRUPT") || c === "SQLITE_NOTADB" || c.startsWith("SQLITE_IOERR_SHORT_READ") || c === "SQLITE_FORMAT");
}
