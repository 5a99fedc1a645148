// The reading thread of index-grep: opens, examines, reads and searches files whose open the guard deferred.
//
// It knows nothing of the guard's rules beyond what scan-file.ts and the
// guard's read.ts do: it gets files in search order, each named through its
// directory's descriptor, and opens, examines, reads, searches and closes each
// with the same code as the main thread, answering per batch. A shared word
// names the search still wanted: the files of a batch of any other search are
// not read. The main thread takes the reports in order, applies the caps and
// lets the guard decide and log.

import { parentPort, workerData } from "node:worker_threads";
import { compilePattern } from "./lines.js";
import { makeScratch, newBudget, scanFile, type FileReport, type FileSearch, type MatchBudget } from "./scan-file.js";
import { BATCH_STATE, DONE, NOT_READ, QUEUED, RING, TAKEN, WANTED, type FromThread, type ToThread } from "./worker-protocol.js";

const port = parentPort;
if (port === null) throw new Error("grep-worker.js runs as a worker thread");
const shared = new Int32Array(workerData.shared as SharedArrayBuffer);

let current: { id: number; search: FileSearch; hint: MatchBudget } | null = null;
let scratch: Buffer | null = null;

const answer = (m: FromThread): void => {
  Atomics.add(shared, DONE, 1);
  port.postMessage(m);
};

port.on("message", (m: ToThread) => {
  if (m.t === "search") {
    const s = m.search;
    if (scratch === null || scratch.length < Math.min(s.maxFileBytes + 1, 4 * 1024 * 1024)) scratch = makeScratch(s.maxFileBytes);
    // The main thread compiled the same pattern already: it cannot fail here.
    const pattern = compilePattern(s.pattern, Infinity);
    const search = { pattern, context: s.context, maxLineChars: s.maxLineChars, maxFileBytes: s.maxFileBytes, scratch };
    current = { id: m.id, search, hint: newBudget(s.maxMatches, s.maxOutputChars, s.matches, s.chars) };
    return;
  }
  const reports: Array<FileReport | typeof NOT_READ> = [];
  // The main thread took the batch back to read it itself: answer it unread.
  const mine = Atomics.compareExchange(shared, BATCH_STATE + (m.seq % RING), QUEUED, TAKEN) === QUEUED;
  const cur = mine ? current : null;
  try {
    for (const at of m.ats) {
      if (cur === null || cur.id !== m.id || cur.hint.truncated || Atomics.load(shared, WANTED) !== m.id) reports.push(NOT_READ);
      else reports.push(scanFile({ fd: -1, at, size: null }, at ?? "", cur.search, cur.hint));
    }
  } catch (e) {
    answer({ t: "failed", id: m.id, seq: m.seq, message: e instanceof Error ? e.message : String(e) });
    return;
  }
  answer({ t: "batch", id: m.id, seq: m.seq, reports });
});

port.postMessage({ t: "ready" } satisfies FromThread);
