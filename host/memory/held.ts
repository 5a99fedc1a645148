// A running session's unfinished turn, held in memory as its log writer writes it: a search folds it from here, not from the log.

import type { LogEntry } from "../log/index.js";
import { decodeLine } from "../log/record.js";

/** What the log writer offers (host/log LogWriter). */
export interface WatchedWriter {
  readonly bytes: number;
  readonly lastSeq: number;
  watch(fn: (line: Buffer, offset: number) => void): () => void;
}

/** The records after the last turn.end the holder saw (or after where it began), to the log's end. */
export interface HeldRecords {
  /** Where the first held record's line starts, and its seq: what comes before is read from the log. */
  readonly fromOffset: number;
  readonly fromSeq: number;
  readonly entries: readonly LogEntry[];
  /** The log's end (the writer's size). */
  readonly end: number;
}

/**
 * Holds the records a session writes after its last turn.end (the turn still
 * running), dropping them when the turn ends: what a search would otherwise
 * read back from the log file it is writing. Holds nothing of whole turns: the
 * search reads those from the log once and writes them into the .mem file.
 */
export class HeldTurn {
  private entries: LogEntry[] = [];
  private fromOffset: number;
  private fromSeq: number;
  private broken = false;
  private readonly stop: () => void;

  constructor(private readonly writer: WatchedWriter) {
    this.fromOffset = writer.bytes;
    this.fromSeq = writer.lastSeq + 1;
    this.stop = writer.watch((line, offset) => this.add(line, offset));
  }

  private add(line: Buffer, offset: number): void {
    const d = decodeLine(line, 0, line.length - 1);
    if (!d.ok) {
      // Never for a line the writer made; if it were, the searches read the log instead.
      this.broken = true;
      return;
    }
    const end = offset + line.length;
    if (d.record.kind === "turn.end") {
      this.entries = [];
      this.fromOffset = end;
      this.fromSeq = d.record.seq + 1;
    } else this.entries.push({ record: d.record, line: d.record.seq, offset, end });
  }

  /** What is held now, or null when it cannot stand for the log (a line it could not read). */
  held(): HeldRecords | null {
    if (this.broken) return null;
    // The held records must reach the log's end (a write the holder did not see would be missed).
    const last = this.entries[this.entries.length - 1];
    const end = last !== undefined ? last.end : this.fromOffset;
    if (end !== this.writer.bytes) return null;
    return { fromOffset: this.fromOffset, fromSeq: this.fromSeq, entries: this.entries, end };
  }

  close(): void {
    this.stop();
    this.broken = true;
    this.entries = [];
  }
}
