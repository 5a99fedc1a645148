// What each kind of evaluation may do — files, load, the environment, exit, processes, time — and the host access that grants it.
//
// One table (CAPABILITIES), documented as is in docs/security.md (a test holds
// the two equal), and the functions that build an interpreter's FileAccess and
// ProcessAccess from a row, so that no composition root grants by hand what
// the table does not say. Every sandboxed kind reads through the guard, writes
// nothing, sees only the allow-listed environment variables, and its `exit`
// ends the evaluation, never the host process.

import { existsSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { FileAccessError, type FileAccess, type ProcessAccess } from "../../interpreter/api.js";
import { GuardError, type Guard } from "../guard/index.js";

/** Who evaluates. */
export type EvaluationKind =
  | "model" // the model's `eval` tool and every evaluation of an agent Session
  | "strategy" // a strategy script driving an agent's turns
  | "checker" // a project checker from .nodwyn/checks.scm
  | "person" // a person's `nodwyn repl`, `-e`, `run`
  | "person-sandbox" // the same with --sandbox
  | "embedder"; // an interpreter an embedder makes with createNodeInterpreter

/** What one kind of evaluation may do. */
export interface Capabilities {
  /** Scheme's file ports and `include` outside libraries. "guard": through the read guard; "host": the real file system. */
  readonly fileRead: "guard" | "host" | "none" | "granted";
  /** Output file ports and delete-file. */
  readonly fileWrite: "host" | "none" | "granted";
  /** `load`. */
  readonly load: "guard" | "host" | "none" | "granted";
  /** get-environment-variable(s): "allow-list" is DEFAULT_ENV_ALLOW (or the embedder's list). */
  readonly env: "host" | "allow-list" | "none" | "granted";
  /** (exit) and (emergency-exit). */
  readonly exit: "ends-process" | "ends-session" | "ends-evaluation" | "granted";
  /** Running other programs, and command-line. */
  readonly process: "approved-commands" | "command-line" | "none" | "granted";
  /** current-second, current-jiffy: the clock, always under the evaluation's deadline. */
  readonly time: "clock";
  /** Whether every file read goes through the guard and nothing is written. */
  readonly sandboxed: boolean;
}

/** The table: what each kind of evaluation may do. docs/security.md shows it. */
export const CAPABILITIES: Readonly<Record<EvaluationKind, Capabilities>> = {
  model: { fileRead: "guard", fileWrite: "none", load: "guard", env: "allow-list", exit: "ends-evaluation", process: "approved-commands", time: "clock", sandboxed: true },
  strategy: { fileRead: "guard", fileWrite: "none", load: "guard", env: "none", exit: "ends-evaluation", process: "none", time: "clock", sandboxed: true },
  checker: { fileRead: "none", fileWrite: "none", load: "none", env: "none", exit: "ends-evaluation", process: "none", time: "clock", sandboxed: true },
  person: { fileRead: "host", fileWrite: "host", load: "host", env: "host", exit: "ends-process", process: "command-line", time: "clock", sandboxed: false },
  "person-sandbox": { fileRead: "guard", fileWrite: "none", load: "guard", env: "allow-list", exit: "ends-session", process: "command-line", time: "clock", sandboxed: true },
  embedder: { fileRead: "granted", fileWrite: "granted", load: "granted", env: "granted", exit: "granted", process: "granted", time: "clock", sandboxed: false },
};

/**
 * The environment variables a sandboxed evaluation may read: the locale, the
 * time zone and the terminal's shape. None holds a credential or a host path.
 */
export const DEFAULT_ENV_ALLOW: readonly string[] = [
  "LANG",
  "LANGUAGE",
  "LC_ALL",
  "LC_COLLATE",
  "LC_CTYPE",
  "LC_MESSAGES",
  "LC_MONETARY",
  "LC_NUMERIC",
  "LC_TIME",
  "TZ",
  "TERM",
  "COLUMNS",
  "LINES",
  "NO_COLOR",
];

/** The variables of `env` that `allow` names (exact, case-sensitive names). */
export function allowedEnv(env: NodeJS.ProcessEnv, allow: readonly string[] = DEFAULT_ENV_ALLOW): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of allow) {
    const v = Object.hasOwn(env, name) ? env[name] : undefined;
    if (typeof v === "string") out[name] = v;
  }
  return out;
}

/** Options of processAccessFor. */
export interface ProcessAccessOptions {
  /** What command-line returns. */
  readonly commandLine?: readonly string[];
  /** The environment variables are taken from (default process.env). */
  readonly env?: NodeJS.ProcessEnv;
  /** The allow-list for an "allow-list" kind (default DEFAULT_ENV_ALLOW). */
  readonly envAllow?: readonly string[];
  /**
   * Called with the status of (exit) / (emergency-exit). For "ends-process"
   * it must end the process (it is expected not to return; if it does, the
   * process ends anyway); for the other kinds it only records the request: the
   * evaluation then ends, and the host decides what follows.
   */
  readonly onExit?: (code: number) => void;
}

/**
 * The ProcessAccess a kind of evaluation gets, or null for none ("embedder":
 * whatever the embedder grants, so this returns null and the embedder passes
 * its own). The environment is read when asked (a variable set later is seen),
 * but only through the kind's rule.
 */
export function processAccessFor(kind: EvaluationKind, o: ProcessAccessOptions = {}): ProcessAccess | null {
  const cap = CAPABILITIES[kind];
  if (cap.exit === "granted") return null;
  const env = o.env ?? process.env;
  const allow = new Set(o.envAllow ?? DEFAULT_ENV_ALLOW);
  const commandLine = [...(o.commandLine ?? [])];
  const visible = (name: string): boolean => (cap.env === "host" ? true : cap.env === "allow-list" ? allow.has(name) : false);
  return {
    commandLine: () => (cap.process === "none" ? [] : [...commandLine]),
    getEnv: (name) => (visible(name) && Object.hasOwn(env, name) ? env[name] : undefined),
    allEnv: () => {
      if (cap.env === "none") return {};
      if (cap.env === "allow-list") return allowedEnv(env, [...allow]);
      return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
    },
    exit: (code) => {
      o.onExit?.(code);
      // A process-ending kind whose hook returned ends the process all the same;
      // every other kind returns, and the interpreter ends only the evaluation.
      if (cap.exit === "ends-process") process.exit(code);
    },
  };
}

/**
 * Scheme's file ports, `load` and `include` read through the guard as `actor`;
 * writing and deleting are refused. What every sandboxed kind with file reads
 * gets. `exists` answers only for paths the guard would let be located.
 */
export function guardedFileAccess(guard: () => Guard, root: string, actor: () => string): FileAccess {
  const refuse = (path: string, what: string): never => {
    throw new FileAccessError("EACCES", path, `${what} is not permitted in a sandboxed session`);
  };
  return {
    readFile: (path) => {
      try {
        return guard().readFileSync(path, { actor: actor() });
      } catch (e) {
        if (e instanceof GuardError) throw new FileAccessError(e.code, path, e.message);
        throw e;
      }
    },
    writeFile: (path) => refuse(path, "writing files"),
    deleteFile: (path) => refuse(path, "deleting files"),
    exists: (path) => {
      try {
        guard().locate(path, { actor: actor() });
        return existsSync(isAbsolute(path) ? path : resolve(root, path));
      } catch {
        return false;
      }
    },
  };
}

/** Whether an evaluation of this kind may only read through the guard and write nothing. */
export function isSandboxed(kind: EvaluationKind): boolean {
  return CAPABILITIES[kind].sandboxed;
}
