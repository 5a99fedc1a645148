// The agent primitives' public entry: tables of procedures that are also model tools.
export { type AgentToolSpec, toolArgName, toolCallArgs } from "./tool.js";
export { jsonToScheme, schemeToJson, MAX_JSON_DEPTH } from "./json-value.js";
export {
  fileToolPrimitives,
  renderGrep,
  sliceLines,
  DEFAULT_FS_READ_LIMITS,
  type FileToolServices,
  type FsReadLimits,
} from "./file-tools.js";
export { verdictFromScheme, checkerInfoToScheme, schemeChecker } from "./checker-verdict.js";
export { shellExecPrimitive, renderShell, type ShellServices } from "./shell-exec.js";
export { indexToolPrimitives, type IndexToolServices, type RepoIndexPort, type SearchScope } from "./index-tools.js";
export { fileWritePrimitives, type WriteServices, type WriteReport } from "./file-write.js";
export { memoryToolPrimitives, memoryScopes, MEMORY_PROVENANCE, type MemoryPort, type MemoryToolServices } from "./memory-tools.js";
export { keywordName, keywordValue, keywordOptions, plist } from "./keyword-args.js";
export { recallToolPrimitives, type RecallPort, type RecallToolServices } from "./recall-tools.js";
