// The repository index's public entry: a BM25 index of a repository's files in chunks, shared by its worktrees, read back through the guard.

/**
 * The index of one working tree (seed "The repository index"): `update()`
 * builds or refreshes it, `search()` refreshes within its budget and ranks
 * chunks, `status()` and `gc()`. Made by the session over its guard, scan
 * engine and redactor.
 */
export {
  RepoIndex,
  hashText,
  prepareDoc,
  bestLines,
  normalizePrefix,
  type RepoIndexOptions,
  type IndexUpdateRecord,
  type RefreshReport,
  type RefreshProgress,
  type IndexHit,
  type IndexSearchResult,
  type IndexStatus,
  type GcReport,
} from "./repo-index.js";

/**
 * The code-aware word splitter shared by every nodwyn index (this one, and
 * the conversation memory): camelCase, PascalCase, snake_case, kebab-case and
 * digits split, ASCII case folded. Its contract is in words.ts.
 */
export { forEachWord, splitWords, countWords, queryWords, wordText, MAX_WORD_LENGTH } from "./words.js";

/** The chunking rule: a chunk starts at a declaration or heading once the one before has 20 lines; at most 80. */
export { chunkLines, isBoundary, textLines, textKindOf, MIN_LINES, MAX_LINES, type ChunkSpan, type TextKind } from "./chunks.js";

/** Limits and budgets (20,000 files, 128 MiB a tree, 1 MiB a file, 10 s a search's refresh, 60 s an update, 7 days). */
export { DEFAULT_INDEX_LIMITS, type IndexLimits } from "./limits.js";

/** Typed failures with stable codes. */
export { IndexError, IndexStorageError, type IndexErrorCode } from "./errors.js";

/** Where a repository's index lives (the project key from git's common directory). */
export { projectPaths, gitDirsOf, type ProjectPaths } from "./project.js";

/** The redaction that keeps line numbers, as the index applies it before anything is stored or shown. */
export { redactKeepingLines } from "./read-file.js";

/** The store and the manifests, for tests and tools that look inside (`nodwyn index status`). */
export { Store, STORE_FORMAT, CHUNKS_PER_DOC, crcOfFile } from "./store.js";
export { readManifest, type Manifest, type Entry, type EntryState } from "./manifest.js";
export { comparePaths, gitFiles, listTree, type Listing } from "./listing.js";
