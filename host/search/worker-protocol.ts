// The messages between a search and its reading thread (reading-thread.ts ⇄ grep-worker.ts).

import type { FileReport } from "./scan-file.js";

/** What the thread needs to search files for one index-grep call, and a hint of where the call's caps stand. */
export interface ThreadSearch {
  readonly pattern: string;
  readonly context: number;
  readonly maxLineChars: number;
  readonly maxFileBytes: number;
  readonly maxMatches: number;
  readonly maxOutputChars: number;
  /** Matching lines and output characters the search had when the thread took over (a hint: see scan-file.ts). */
  readonly matches: number;
  readonly chars: number;
}

/** Shared words between the threads (an Int32Array over a SharedArrayBuffer). */
export const WANTED = 0; // the id of the search still wanted (0: none): batches of others are not read
export const DONE = 1; // batches the thread has answered, all searches together
/**
 * Where a batch stands, one word per batch in a ring (BATCH_STATE + seq % RING):
 * the main thread marks it QUEUED before handing it over; the thread marks it
 * TAKEN before it reads it, and the main thread, with nothing else to do, may
 * mark it STOLEN and read it itself. Whichever marks first has it.
 */
export const BATCH_STATE = 2;
export const RING = 64;
export const QUEUED = 1;
export const TAKEN = 2;
export const STOLEN = 3;
export const SHARED_WORDS = BATCH_STATE + RING;

export type ToThread =
  | { readonly t: "search"; readonly id: number; readonly search: ThreadSearch }
  /**
   * Files whose open the guard deferred, in search order: each through its
   * directory's descriptor (/proc/PID/fd/D/name), which the main thread keeps
   * open until the answer (null: refused by name, not to be opened). The
   * thread opens, reads and closes each.
   */
  | { readonly t: "batch"; readonly id: number; readonly seq: number; readonly ats: ReadonlyArray<string | null> };

/** A file the thread did not read: the search was no longer wanted, or its caps were spent before this file. */
export const NOT_READ = null;

export type FromThread =
  | { readonly t: "ready" }
  | { readonly t: "batch"; readonly id: number; readonly seq: number; readonly reports: Array<FileReport | typeof NOT_READ> }
  /** The thread failed on this batch (a bug, not a file's problem): the search reads the batch itself. */
  | { readonly t: "failed"; readonly id: number; readonly seq: number; readonly message: string };
