// The read guard's public entry: every file nodwyn reads passes through a Guard made here.
export {
  createGuard,
  type Guard,
  type GuardOptions,
  type HardLinkPolicy,
  caseInsensitiveAt,
  type GuardDecision,
  type GuardLimits,
  type GuardHooks,
  type GuardedEntry,
  type AskFn,
  type AskRequest,
  type CheckOptions,
  type ReadOptions,
  type GuardScan,
  type OpenedFile,
  type ScanReadOptions,
} from "./guard.js";
export { readOpenFile, type HeadCheck } from "./read.js";
export { GuardError, GuardDeniedError, GuardFileError, type GuardRule, type GuardFileErrorCode } from "./errors.js";
export { DEFAULT_DENYLIST, compileDenylist, denylistEntryProblem, type Denylist, type DenylistConfig, type DenylistOptions } from "./denylist.js";
export {
  CheckerRegistry,
  consultCheckers,
  denyVerdict,
  askVerdict,
  type CheckerFn,
  type CheckerInfo,
  type CheckerVerdict,
  type CheckersOutcome,
} from "./checkers.js";
export { findRepoRoot } from "./root.js";
export {
  parseGuardConfig,
  guardConfigProblems,
  GuardConfigError,
  DEFAULT_GUARD_SETTINGS,
  GUARD_KEYS,
  type GuardSettings,
  type GuardConfigProblem,
} from "./config.js";
export { checkWrite, writeGuarded, WriteDeniedError, WRITE_PROTECTED_NAMES, type WriteTarget, type WriteOutcome, type WriteOptions, type WriteDecision } from "./write.js";
