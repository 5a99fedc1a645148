// The window's public entry: the request a model is sent, derived from the session log (recipes, digests).
export {
  WindowV1,
  WINDOW_V1,
  MARKER_RESERVE,
  WindowError,
  rebuildRequest,
  messageOfRecord,
  toolResultContent,
  defaultReserve,
  type WindowParams,
  type RecipeV1,
  type BuiltWindow,
} from "./window-v1.js";
export { canonicalJson, digestOf, digestJson } from "./canonical.js";
export { ESTIMATOR, textTokens, messageTokens, callTokens, MESSAGE_OVERHEAD } from "./estimate.js";
export { clipMiddle, SHELL_HEAD_CHARS, SHELL_TAIL_CHARS } from "./clip.js";
