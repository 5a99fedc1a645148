// Reads a session's own log as it grows: the records appended since the last read, from where that read ended.
//
// The window is folded from the log file itself, not from what the loop meant
// to write: what the model is sent is what the log holds, redacted, CRC-checked.

import { readLog, type LogRecord } from "../log/index.js";

export class LogFollower {
  private offset = 0;
  private line = 1;
  private lastSeq = 0;

  constructor(
    readonly file: string,
    readonly session: string,
  ) {}

  /** The seq of the last record read. */
  get seq(): number {
    return this.lastSeq;
  }

  /** Calls `each` with every record appended since the last call, in order. */
  read(each: (r: LogRecord) => void): void {
    const start = this.offset === 0 ? undefined : { offset: this.offset, line: this.line, lastSeq: this.lastSeq };
    const reader = readLog(this.file, { session: this.session, ...(start ? { start } : {}) });
    for (const e of reader.entries()) {
      each(e.record);
      this.offset = e.end;
      this.line = e.line + 1;
      this.lastSeq = e.record.seq;
    }
  }
}
