// The shell service's public entry: running a command for the model, its environment, its approval.
export { runShell, killRunningShells, DEFAULT_SHELL_TIMEOUT_MS, DEFAULT_SHELL_MAX_BYTES, type ShellRunOptions, type ShellOutcome } from "./exec.js";
export { scrubEnv, secretName, nameWords } from "./env.js";
export {
  ShellApprovals,
  derivePrefix,
  matchesPrefix,
  simpleWords,
  writePrefix,
  matchesWritePrefix,
  type ApprovalAnswer,
  type ApprovalRequest,
  type AskApproval,
  type ApprovalChange,
  type ApprovalDecision,
} from "./approvals.js";
