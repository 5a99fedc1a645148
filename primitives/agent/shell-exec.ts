// shell-exec: a command run with bash -c in the repository root, after the person's approval, for the model and for Scheme.
//
// The primitive is a thin adapter: the session's ShellServices approve and run
// the command (host/shell/), so the approval, the environment without
// credentials, the process group and its timeout are the host's. A refusal
// raises a `host` condition with code "not-approved", which the model reads as
// its tool's error.

import { MString, T, hostError, rangeError, type ArgType, type Ctx } from "../../interpreter/api.js";
import type { ShellOutcome } from "../../host/shell/index.js";
import type { AgentToolSpec } from "./tool.js";
import { jsonToScheme, schemeToJson } from "./json-value.js";

/** What shell-exec needs from the host. */
export interface ShellServices {
  /** Approves (or refuses, with a reason) and runs a command; resolves when it and its process group are done. */
  run(command: string, opts: { readonly timeoutMs: number; readonly signal?: AbortSignal }): Promise<ShellOutcome | { readonly refused: string }>;
  /** The default timeout, in milliseconds (120 s). */
  readonly defaultTimeoutMs: number;
  /** The largest timeout a call may ask for, in milliseconds. */
  readonly maxTimeoutMs: number;
  /** The current evaluation's or tool call's AbortSignal. */
  readonly signal?: () => AbortSignal | undefined;
}

interface ShellResult {
  exit: number | null;
  stdout: string;
  stderr: string;
  "timed-out": boolean;
  cancelled: boolean;
  truncated: boolean;
  "stdout-bytes": number;
  "stderr-bytes": number;
  "duration-ms": number;
  "timeout-ms": number;
}

const secondsOrFalse: ArgType = { name: "exact positive integer or #f", test: (x) => (typeof x === "number" && Number.isInteger(x) && x > 0) || x === false };

/** `exit N`, the output, then `[stderr]` and the errors, then what stopped it: the text the model reads (whole; the window clips it). */
export function renderShell(r: ShellResult): string {
  let s = `exit ${r.exit === null ? "none" : r.exit}\n`;
  if (r.stdout) s += r.stdout.endsWith("\n") ? r.stdout : r.stdout + "\n";
  if (r.stderr) s += "[stderr]\n" + (r.stderr.endsWith("\n") ? r.stderr : r.stderr + "\n");
  if (r.truncated) {
    const dropped = (r["stdout-bytes"] - Buffer.byteLength(r.stdout)) + (r["stderr-bytes"] - Buffer.byteLength(r.stderr));
    s += `[output over the capture cap was not kept: ${Math.max(0, dropped)} bytes]\n`;
  }
  return s.endsWith("\n") ? s.slice(0, -1) : s;
}

/** The shell-exec table entry over the given services. */
export function shellExecPrimitive(services: ShellServices): AgentToolSpec {
  const max = services.maxTimeoutMs;
  return {
    name: "shell-exec",
    params: ["command", "[timeout-seconds]"],
    types: [T.string, secondsOrFalse],
    async: true,
    doc:
      "Runs command with bash -c in the repository root and returns ((exit . n) (stdout . s) (stderr . s) (timed-out . #f) " +
      "(cancelled . #f) (truncated . #f) (stdout-bytes . n) (stderr-bytes . n) (duration-ms . n) (timeout-ms . n)). " +
      "Every command needs the person's approval first: a prefix of config.toml's [shell] allow, an answer \"always\" " +
      "given earlier in the session, or the person's answer now (once, always for this prefix, never); where no one can " +
      "answer (nodwyn ask) anything else is refused with an error (code not-approved). The command runs in its own process " +
      "group with stdin from /dev/null and the host's environment without credentials (variables named like keys, tokens, " +
      "secrets or passwords, and any holding a registered secret); after timeout-seconds (default " +
      `${services.defaultTimeoutMs / 1000}, at most ${max / 1000}) or a cancellation the whole group is killed ` +
      "(SIGTERM, then SIGKILL). stdout and stderr are kept up to 1 MiB each; exit is 128 + the signal's number when a signal ended it.",
    tool: {
      description:
        "Run a shell command (bash -c) in the repository root; the person approves each command. You read `exit N`, the " +
        "output, then [stderr] and the errors; long output keeps its first 1,500 and last 6,000 characters. Prefer fs-read, " +
        "fs-find and index-grep for reading files.",
      inputSchema: {
        type: "object",
        properties: {
          command: { type: "string", description: "The command line, run with bash -c in the repository root." },
          "timeout-seconds": { type: "integer", minimum: 1, maximum: max / 1000, description: `Kill it after this many seconds (default ${services.defaultTimeoutMs / 1000}).` },
        },
        required: ["command"],
        additionalProperties: false,
      },
    },
    async impl(this: Ctx, command: MString, timeoutSeconds?: number | false) {
      const cmd = command.toString();
      if (cmd.trim() === "") rangeError("shell-exec", 1, "the command is empty", command);
      let timeoutMs = services.defaultTimeoutMs;
      if (typeof timeoutSeconds === "number") {
        if (timeoutSeconds * 1000 > max) rangeError("shell-exec", 2, `timeout-seconds must be 1 to ${max / 1000}`, timeoutSeconds);
        timeoutMs = timeoutSeconds * 1000;
      }
      const signal = services.signal?.();
      const out = await services.run(cmd, { timeoutMs, ...(signal ? { signal } : {}) });
      if ("refused" in out) hostError("not-approved", `shell-exec: the command was not run: ${out.refused}`, [command], "shell-exec");
      if (out.spawnError !== undefined && out.exit === null && !out.cancelled) hostError("spawn-failed", `shell-exec: the command could not be started: ${out.spawnError}`, [command], "shell-exec");
      const r: ShellResult = {
        exit: out.exit,
        stdout: out.stdout,
        stderr: out.stderr,
        "timed-out": out.timedOut,
        cancelled: out.cancelled,
        truncated: out.truncated,
        "stdout-bytes": out.stdoutBytes,
        "stderr-bytes": out.stderrBytes,
        "duration-ms": out.durationMs,
        "timeout-ms": timeoutMs,
      };
      return jsonToScheme(this, r);
    },
    render(result: any): string {
      return renderShell(schemeToJson(result) as ShellResult);
    },
    failed(result: any): string | null {
      const r = schemeToJson(result) as ShellResult;
      if (r["timed-out"]) return `timed out after ${r["timeout-ms"] / 1000} s: the command's process group was killed`;
      if (r.cancelled) return "cancelled: the command's process group was killed";
      return null;
    },
  };
}
