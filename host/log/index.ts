// The session log's public entry: write, resume, read and verify session logs (docs/log-format.md).

export {
  createSessionLog,
  openForAppend,
  isLockedByWriter,
  LogWriter,
  type WriterOptions,
  type OpenForAppendOptions,
  type OpenForAppendResult,
  type AppendResult,
} from "./writer.js";
export {
  readLog,
  verifyLog,
  sessionOfFile,
  LogReader,
  DEFAULT_MAX_LINE_BYTES,
  type ReadLogOptions,
  type ReadSummary,
  type TornTail,
  type LogEntry,
} from "./reader.js";
export { type LogRecord } from "./record.js";
export {
  KINDS,
  KIND_NAMES,
  isKnownKind,
  checkPayload,
  describeFields,
  type LogKind,
  type KindSpec,
  type JsonValue,
  type Payload,
  type SessionConfigPayload,
  type SessionEndPayload,
  type EvalReqPayload,
  type EvalResultPayload,
} from "./kinds.js";
export {
  LogError,
  InvalidSessionIdError,
  LogExistsError,
  LogNotFoundError,
  LogLockedError,
  LogCorruptError,
  TruncatedError,
  LogPayloadError,
  LogWriteError,
  LogPoisonedError,
  LogClosedError,
  LogIOError,
  LogNetworkFsError,
  type CorruptReason,
} from "./errors.js";
export {
  resolveDataDir,
  sessionsDir,
  sessionLogPath,
  isValidSessionId,
  checkSessionId,
  newSessionId,
  LOG_EXTENSION,
} from "./paths.js";
export { listSessions, type SessionFile } from "./sessions.js";
export { nodeLogFs, networkFsOf, NETWORK_FS_TYPES, type LogFs, type FlockOp } from "./log-fs.js";
export { cutText, cutMarker, fitPayload } from "./fit.js";
