// Where session logs live: the data directory, session id rules, and each session's file.

import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { InvalidSessionIdError } from "./errors.js";

/** The file name extension of a session log. */
export const LOG_EXTENSION = ".jsonl";

// A session id becomes a file name: no separators, no leading dot (so never "." or
// ".."), nothing a shell or another platform treats specially, and a bounded length.
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * The nodwyn data directory: `$NODWYN_DATA_DIR`, else `$XDG_DATA_HOME/nodwyn`,
 * else `~/.local/share/nodwyn`. An empty variable counts as unset, and a relative
 * XDG_DATA_HOME is ignored, as the XDG base directory specification says.
 */
export function resolveDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const own = env.NODWYN_DATA_DIR;
  if (own) return resolve(own);
  const xdg = env.XDG_DATA_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, "nodwyn");
  const home = env.HOME || homedir();
  return join(home, ".local", "share", "nodwyn");
}

/** The folder holding the session logs of a data directory. */
export function sessionsDir(dataDir: string): string {
  return join(dataDir, "sessions");
}

/** True when `session` is a valid session id (a safe file name). */
export function isValidSessionId(session: string): boolean {
  return typeof session === "string" && SESSION_ID.test(session);
}

/** Throws InvalidSessionIdError unless `session` is a valid session id. */
export function checkSessionId(session: string): void {
  if (!isValidSessionId(session)) throw new InvalidSessionIdError(String(session));
}

/** The path of a session's log: `<dataDir>/sessions/<session>.jsonl`. */
export function sessionLogPath(session: string, dataDir: string): string {
  checkSessionId(session);
  return join(sessionsDir(dataDir), session + LOG_EXTENSION);
}

/**
 * A new session id: the UTC time and 8 random hex digits, e.g.
 * `20261009T034803Z-3981612f`, so ids sort by creation time and do not collide.
 */
export function newSessionId(now: Date = new Date()): string {
  const two = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
  const t = `${String(now.getUTCFullYear()).padStart(4, "0")}${two(now.getUTCMonth() + 1)}${two(now.getUTCDate())}T${two(now.getUTCHours())}${two(now.getUTCMinutes())}${two(now.getUTCSeconds())}Z`;
  return `${t}-${randomBytes(4).toString("hex")}`;
}
