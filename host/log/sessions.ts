// Listing the session logs of a data directory.

import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { LOG_EXTENSION, isValidSessionId, sessionsDir } from "./paths.js";

/** A session log file found in the data directory. */
export interface SessionFile {
  readonly session: string;
  readonly file: string;
  readonly bytes: number;
  /** When the file last changed. */
  readonly modified: Date;
}

/**
 * The session logs under `<dataDir>/sessions`, oldest change first. Torn-tail
 * backups (`*.jsonl.torn-*`) and other files are not logs and are left out; a
 * missing folder means no sessions.
 */
export function listSessions(dataDir: string): SessionFile[] {
  const dir = sessionsDir(dataDir);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
  const out: SessionFile[] = [];
  for (const name of names) {
    if (!name.endsWith(LOG_EXTENSION)) continue;
    const session = name.slice(0, -LOG_EXTENSION.length);
    if (!isValidSessionId(session)) continue;
    const file = join(dir, name);
    let st;
    try {
      st = statSync(file);
    } catch {
      continue; // removed while listing
    }
    if (!st.isFile()) continue;
    out.push({ session, file, bytes: st.size, modified: st.mtime });
  }
  return out.sort((a, b) => a.modified.getTime() - b.modified.getTime() || (a.session < b.session ? -1 : 1));
}
