// The SESSION argument of replay and summary: a session id, `last`, or (for reading) a path to a .jsonl log.

import { isValidSessionId, listSessions, resolveDataDir, sessionLogPath, sessionOfFile } from "../log/index.js";
import { UsageError, type Invocation } from "./command.js";

/** A session argument resolved: its id, its log file, and the data directory it is in. */
export interface SessionArg {
  readonly session: string;
  readonly file: string;
  readonly dataDir: string;
}

/** Resolves SESSION; a path is accepted only when `paths` (a command that only reads). */
export function sessionArg(arg: string, inv: Pick<Invocation, "io">, o: { paths: boolean }): SessionArg {
  const dataDir = resolveDataDir(inv.io.env);
  if (arg.includes("/") || arg.endsWith(".jsonl")) {
    if (!o.paths) throw new UsageError(`${JSON.stringify(arg)} is a path: give the session's id (it edits a log under the data directory, ${dataDir})`, "nodwyn log list shows the sessions");
    return { session: sessionOfFile(arg), file: arg, dataDir };
  }
  if (arg === "last") {
    const all = listSessions(dataDir);
    const latest = all[all.length - 1];
    if (latest === undefined) throw new UsageError(`no session logs in ${dataDir} yet`, "nodwyn chat or nodwyn ask records one");
    return { session: latest.session, file: latest.file, dataDir };
  }
  if (!isValidSessionId(arg)) throw new UsageError(`${JSON.stringify(arg)} is not a session id`, "nodwyn log list shows the sessions; `last` names the latest");
  return { session: arg, file: sessionLogPath(arg, dataDir), dataDir };
}
