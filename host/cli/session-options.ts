// The options of every command that opens a session (run, -e, repl, and the agent's chat/ask/resume), and opening it.

import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { Limits } from "../../interpreter/api.js";
import { Session, type SessionOptions } from "../session/session.js";
import { UsageError, flag, optionValue, optionValues, positiveInteger, positiveNumber, type Invocation, type OptionSpec } from "./command.js";

/** The options a session command takes (each command lists them in its `options`). */
export const SESSION_OPTIONS: readonly OptionSpec[] = [
  { name: "--lib-dir", short: "-I", value: "DIR", repeatable: true, help: "add a library directory (also $NODWYN_PATH, colon-separated)" },
  { name: "--root", value: "DIR", help: "the repository root the file primitives see (default: the git top level)" },
  { name: "--sandbox", help: "file ports, load, environment variables and writes go through the guard too" },
  { name: "--no-log", help: "do not record a session log (default: <data dir>/sessions/<id>.jsonl)" },
  { name: "--steps", value: "N", help: "step budget per evaluation", check: positiveInteger },
  { name: "--timeout", value: "MS", help: "wall-clock limit per evaluation, in milliseconds", check: positiveNumber },
  { name: "--memory", value: "MIB", help: "memory budget per evaluation, in MiB (default 256)", check: memoryMiB },
  { name: "--trace", help: "show JS stacks of internal errors and the generated code (to stderr)" },
];

/** The largest --memory: half of the JS heap the command runs with (bin/nodwyn sets --max-old-space-size; ADR 0006). */
function maxMemoryMiB(): number {
  const v8 = process.getBuiltinModule("node:v8") as typeof import("node:v8");
  return Math.floor(v8.getHeapStatistics().heap_size_limit / 2 / 1048576);
}

function memoryMiB(value: string): string | undefined {
  const bad = positiveNumber(value);
  if (bad !== undefined) return bad;
  const max = maxMemoryMiB();
  if (Number(value) > max) return `${value} is more than an evaluation can have here (at most ${max} MiB, half the JS heap's limit)`;
  return undefined;
}

/** The session options of an invocation, as Session.open takes them. */
export interface SessionFlags {
  readonly libs: string[];
  readonly limits: Limits;
  readonly trace: boolean;
  readonly log: boolean;
  readonly sandbox: boolean;
  readonly root: string | undefined;
}

/** Reads the session options; `--root` must name an existing directory (a usage error otherwise). */
export function sessionFlags(inv: Pick<Invocation, "options" | "io">): SessionFlags {
  const limits: { steps?: number; timeoutMs?: number; memoryBytes?: number } = {};
  const memory = optionValue(inv, "--memory");
  if (memory !== undefined) limits.memoryBytes = Number(memory) * 1024 * 1024;
  const steps = optionValue(inv, "--steps");
  if (steps !== undefined) limits.steps = Number(steps);
  const timeout = optionValue(inv, "--timeout");
  if (timeout !== undefined) limits.timeoutMs = Number(timeout);
  let root = optionValue(inv, "--root");
  if (root !== undefined) {
    root = resolve(inv.io.cwd, root);
    let st;
    try {
      st = statSync(root);
    } catch (e: any) {
      throw new UsageError(`--root ${root}: ${e?.code === "ENOENT" ? "no such directory" : `cannot use it (${e?.code ?? e})`}`, "give the repository's directory, or leave --root out to use the git top level of the working directory");
    }
    if (!st.isDirectory()) throw new UsageError(`--root ${root}: not a directory`, "give the repository's directory, not a file in it");
  }
  return {
    libs: [...optionValues(inv, "--lib-dir")],
    limits,
    trace: flag(inv, "--trace"),
    log: !flag(inv, "--no-log"),
    sandbox: flag(inv, "--sandbox"),
    root,
  };
}

/** Opens the session of a command; `extra` adds what the command itself sets (console sinks, ask). */
export function openSession(f: SessionFlags, origin: string, inv: Pick<Invocation, "argv" | "io">, commandLine: string[], extra: Partial<SessionOptions> = {}): Promise<Session> {
  return Session.open({
    origin,
    cwd: inv.io.cwd,
    libraryPaths: f.libs,
    limits: f.limits,
    log: f.log,
    sandbox: f.sandbox,
    commandLine,
    argv: [...inv.argv],
    env: inv.io.env,
    ...(f.root !== undefined ? { root: f.root } : {}),
    ...(f.trace ? { trace: (js: string) => void process.stderr.write(`/* generated */\n${js}\n`) } : {}),
    ...extra,
  });
}
