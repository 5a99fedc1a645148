// The scan engine's limits, all configurable (the benchmark lifts the file cap).

/** Caps of one fs-find or index-grep call. */
export interface SearchLimits {
  /** Candidate files (regular files under the path that the glob selects, protected ones included); more is an error. */
  readonly maxFiles: number;
  /** Matching lines; past it the result is `truncated`. */
  readonly maxMatches: number;
  /** Per-file read cap in bytes: larger files are skipped as oversized. */
  readonly maxFileBytes: number;
  /** Characters of one returned line (match or context); longer lines are cut and end with "…". */
  readonly maxLineChars: number;
  /** Characters of all returned lines together; past it the result is `truncated`. */
  readonly maxOutputChars: number;
  /** Deadline of the whole query, in milliseconds; past it the query is an error. */
  readonly timeoutMs: number;
  /** Lines of context allowed before and after a match. */
  readonly maxContext: number;
  /** Pattern size in UTF-8 bytes. */
  readonly maxPatternBytes: number;
}

/** The limits of the seed document ("Repository text retrieval") and issue 7. */
export const DEFAULT_SEARCH_LIMITS: SearchLimits = Object.freeze({
  maxFiles: 3000,
  maxMatches: 100,
  maxFileBytes: 1024 * 1024,
  maxLineChars: 500,
  maxOutputChars: 64 * 1024,
  timeoutMs: 30_000,
  maxContext: 5,
  maxPatternBytes: 4096,
});
