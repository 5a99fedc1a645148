// The line editor's history: entries kept in memory and appended to a file as they are accepted, multi-line entries whole.
//
// File format: one entry per line, oldest first; a newline inside an entry is
// written `\n` and a backslash `\\`, so a multi-line entry comes back whole.
// Each accepted entry is appended at once with one write (O_APPEND), so two
// REPLs running side by side both keep theirs, and a crash loses nothing; the
// file is rewritten (to a temporary file, then renamed) only when it has grown
// past twice the limit. It is created private (0600): entries may hold secrets.

import { closeSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { homedir } from "node:os";

/** Where the REPL's history lives: NODWYN_REPL_HISTORY (empty: none), else ~/.nodwyn_history. */
export function historyFile(env: NodeJS.ProcessEnv): string | null {
  const v = env.NODWYN_REPL_HISTORY;
  if (v !== undefined) return v.trim() === "" ? null : v;
  return join(env.HOME || homedir(), ".nodwyn_history");
}

/** An entry as one line of the file. */
export function encodeEntry(e: string): string {
  return e.replace(/\\/g, "\\\\").replace(/\r?\n/g, "\\n");
}

/** A line of the file as the entry. */
export function decodeEntry(line: string): string {
  return line.replace(/\\(\\|n)/g, (_, c: string) => (c === "n" ? "\n" : "\\"));
}

export interface HistoryOptions {
  /** The file to load from and append to; null keeps the history in memory only. */
  readonly file: string | null;
  /** Entries kept (default 1000). */
  readonly max?: number;
  /** Told when the file cannot be read or written (once); the history then stays in memory. */
  readonly onError?: (message: string) => void;
}

export class History {
  /** Oldest first. */
  readonly entries: string[] = [];
  readonly file: string | null;
  private readonly max: number;
  private readonly onError: (message: string) => void;
  private failed = false;
  private fileLines = 0;

  constructor(o: HistoryOptions) {
    this.file = o.file;
    this.max = Math.max(1, o.max ?? 1000);
    this.onError = o.onError ?? (() => {});
    this.load();
  }

  private load(): void {
    if (this.file === null) return;
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch (e: any) {
      if (e?.code !== "ENOENT") this.fail(`cannot read the history file ${this.file}: ${e?.code ?? e}`);
      return;
    }
    const lines = text.split("\n").filter((l) => l !== "");
    this.fileLines = lines.length;
    for (const l of lines.slice(-this.max)) this.entries.push(decodeEntry(l));
  }

  private fail(message: string): void {
    if (this.failed) return;
    this.failed = true;
    this.onError(message);
  }

  /** Adds an accepted entry (blank ones and a repeat of the last are not kept) and appends it to the file. */
  add(entry: string): void {
    const e = entry.replace(/\s+$/, "");
    if (e.trim() === "" || this.entries[this.entries.length - 1] === e) return;
    this.entries.push(e);
    if (this.entries.length > this.max) this.entries.splice(0, this.entries.length - this.max);
    if (this.file === null || this.failed) return;
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      const fd = openSync(this.file, "a", 0o600);
      try {
        writeSync(fd, encodeEntry(e) + "\n");
      } finally {
        closeSync(fd);
      }
      this.fileLines++;
      if (this.fileLines > 2 * this.max) this.compact();
    } catch (err: any) {
      this.fail(`cannot write the history file ${this.file}: ${err?.code ?? err}`);
    }
  }

  /** Rewrites the file with its last `max` entries (other REPLs' appends included). */
  private compact(): void {
    const file = this.file as string;
    const lines = readFileSync(file, "utf8").split("\n").filter((l) => l !== "").slice(-this.max);
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, lines.map((l) => l + "\n").join(""), { mode: 0o600 });
    renameSync(tmp, file);
    this.fileLines = lines.length;
  }
}
