// The window's public entry: the request a model is sent, derived from the session log (recipes, digests, replay, summaries).
export {
  WindowV1,
  WINDOW_V1,
  MARKER_RESERVE,
  WindowError,
  rebuildRequest,
  messageOfRecord,
  toolResultContent,
  defaultReserve,
  type WindowErrorCode,
  type WindowParams,
  type RecipeV1,
  type BuiltWindow,
} from "./window-v1.js";
export {
  WindowV2,
  WINDOW_V2,
  LOW_WATER,
  RESULT_CAP_MIN,
  RESULT_CAP_MAX,
  RESULT_CAP_SHARE,
  GLUE_TEXT,
  MISSING_RESULT_TEXT,
  resultCapChars,
  elisionMarker,
  summaryLabel,
  toolResultText,
  reserveOf,
  type BranchFilter,
  type WindowV2Params,
  type RecipeV2,
  type BuiltWindowV2,
  type WindowUnit,
} from "./window-v2.js";
export { RECIPE_VERSION, KNOWN_RECIPES, createWindow, recipeContext, type RecipeWindow, type Built, type BuildParams } from "./recipes.js";
export { replayRequest, requestsOf, type Replayed } from "./replay.js";
export {
  SOURCE_KINDS,
  SUMMARY_MAX_BYTES,
  SourceRecords,
  SummaryBook,
  checkSpan,
  sourceDigest,
  article,
  type SpanCheck,
  type SummaryEntry,
  type SummaryStatus,
} from "./summaries.js";
export { canonicalJson, digestOf, digestJson } from "./canonical.js";
export {
  ESTIMATOR,
  CHARS4_V1,
  CHARS4_V2,
  estimatorOf,
  textTokens,
  textTokensV2,
  messageTokens,
  callTokens,
  MESSAGE_OVERHEAD,
  type Estimator,
} from "./estimate.js";
export { clipMiddle, clipWith, SHELL_HEAD_CHARS, SHELL_TAIL_CHARS } from "./clip.js";
