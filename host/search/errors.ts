// The scan engine's typed failures, with stable codes the primitives turn into Scheme conditions.

/** Why a search or listing failed as a whole (a partial list is never returned instead). */
export type SearchErrorCode =
  | "too-many-files" // more candidates than the cap: narrow the path or pass a glob
  | "bad-pattern" // not RE2 syntax (lookaround and backreferences included)
  | "pattern-too-long" // over the pattern cap (4 KiB)
  | "bad-glob"
  | "bad-context" // context lines out of range
  | "timeout" // the deadline of the whole query passed
  | "aborted"; // cancelled by the caller's AbortSignal

export class SearchError extends Error {
  readonly domain = "search" as const;
  readonly code: SearchErrorCode;
  constructor(code: SearchErrorCode, message: string) {
    super(message);
    this.name = "SearchError";
    this.code = code;
  }
}
