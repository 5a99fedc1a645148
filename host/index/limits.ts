// The repository index's limits and time budgets (seed "The repository index"), all overridable (tests lower them).

/** What one working tree's index holds at most, and how long a refresh may read. */
export interface IndexLimits {
  /** Files of a tree the index holds; past it the index holds only part (in path order). */
  readonly maxFiles: number;
  /** Bytes of text of a tree the index holds (the files' sizes summed, in path order). */
  readonly maxTreeBytes: number;
  /** A larger file is skipped as oversized. */
  readonly maxFileBytes: number;
  /** How long the refresh before a search may read, in milliseconds; the rest is left for later. */
  readonly searchBudgetMs: number;
  /** How long one index-update call may read, in milliseconds; the next call goes on. */
  readonly updateBudgetMs: number;
  /** Chunks no tree has named for this long are removed (milliseconds). */
  readonly gcAfterMs: number;
  /** Hits a search returns by default, and at most. */
  readonly defaultHits: number;
  readonly maxHits: number;
  /** Characters of one line shown in a hit; longer lines are cut and end with "…". */
  readonly maxLineChars: number;
  /** How long to wait for another process's lock on the tree or the store before answering from what is there. */
  readonly lockWaitMs: number;
}

export const DEFAULT_INDEX_LIMITS: IndexLimits = Object.freeze({
  maxFiles: 20_000,
  maxTreeBytes: 128 * 1024 * 1024,
  maxFileBytes: 1024 * 1024,
  searchBudgetMs: 10_000,
  updateBudgetMs: 60_000,
  gcAfterMs: 7 * 24 * 60 * 60 * 1000,
  defaultHits: 8,
  maxHits: 100,
  maxLineChars: 500,
  lockWaitMs: 10_000,
});
