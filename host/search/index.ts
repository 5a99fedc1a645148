// The scan engine's public entry: fs-find and index-grep over the read guard, with ripgrep's walk and glob semantics.
export {
  createSearchEngine,
  find,
  grep,
  type SearchEngine,
  type SearchEngineOptions,
  type SearchStats,
  THREAD_MIN_FILES,
  type SearchOptions,
  type GrepOptions,
  type GrepResult,
  type GrepMatch,
  type FindResult,
} from "./engine.js";
export { SearchError, type SearchErrorCode } from "./errors.js";
export { DEFAULT_SEARCH_LIMITS, type SearchLimits } from "./limits.js";
export { compileGlobs, MAX_GLOBS, type GlobFilter } from "./glob.js";
export { compilePattern, type LinePattern } from "./lines.js";
export { compareNames, type SkipReason, type SkipCounts } from "./walk.js";
