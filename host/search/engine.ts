// The scan engine behind fs-find and index-grep: discovery, guarded reads, skips and limits, in one process.
//
// How protected files and denials are reconciled (seed "Repository text
// retrieval": "nonregular, protected, oversized, binary and non-UTF-8
// candidates are skipped"; "each selected read goes through … the full shared
// guard … a denial stops the search"): every candidate is read through the
// guard's scan. The guard's own static rules — the denylist judged by name
// before anything is opened, a file that turned special, a file with several
// hard links — make a candidate
// "protected" or "nonregular": counted, its refusal logged, the search goes on.
// A denial past them (a checker, a person's no, a turn cap, a path swapped for
// a link) stops the search with that GuardDeniedError; it is never an empty
// file. A checker's ask that no one can answer leaves the file out: counted as
// "withheld" and named in `withheld`. A named path (the file or directory
// searched) the denylist protects is an error, since the caller asked for it.
// fs-find reads nothing: its discovery leaves protected files out and counts
// them, and logs nothing for them.
//
// The work is synchronous system calls in a loop (fastest for many small
// files), paced: every ~10 ms it yields to the event loop so an AbortSignal or
// a timer can fire; the deadline and the signal are checked before every file.
// index-grep opens files in batches in this thread, where the guard decides
// about each; a large search hands the opened batches to the engine's reading
// thread (reading-thread.ts), which reads and searches them while this thread
// walks on and opens the next ones (docs/decisions/0005). With a cap on the
// candidates (the default) the whole tree is walked before anything is read,
// so a search over the cap reads nothing; without one, reading starts with
// the first batch and the walk goes on between batches. A file is opened a
// few batches ahead of its read, so when the match caps cut a search short,
// the guard may have decided about (and logged) files that were then not
// read. Results are the same with or without the thread: both run
// scan-file.ts in search order.

import { GuardDeniedError, GuardFileError, type Guard, type GuardScan, type OpenedFile } from "../guard/index.js";
import { SearchError } from "./errors.js";
import { compileGlobs } from "./glob.js";
import { DEFAULT_SEARCH_LIMITS, type SearchLimits } from "./limits.js";
import { compilePattern, type LinePattern } from "./lines.js";
import { ReadingThread, ThreadLost, type BatchReply } from "./reading-thread.js";
import { makeScratch, newBudget, scanFile, spend, type FileReport, type FileSearch, type MatchBudget } from "./scan-file.js";
import { countSkip, discover, Walk, type Control, type SkipCounts } from "./walk.js";

/** One matching line. */
export interface GrepMatch {
  /** Relative to the repository root, `/`-separated. */
  readonly path: string;
  /** One-based. */
  readonly line: number;
  readonly text: string;
  /** With context: up to `context` lines before the match, in order. */
  readonly before?: string[];
  /** With context: up to `context` lines after it. */
  readonly after?: string[];
}

export interface GrepResult {
  /** Sorted by path (path order) and line. */
  readonly matches: GrepMatch[];
  /** Files searched (read and scanned). */
  readonly files: number;
  /** Candidates skipped, by reason (only reasons that occurred, in alphabetical order). */
  readonly skipped: SkipCounts;
  /** More matches (or output) than the caps: the result is incomplete. */
  readonly truncated: boolean;
  /** Files a checker asked about that no one could answer: left out, never read. Present only when not empty. */
  readonly withheld?: string[];
}

export interface FindResult {
  /** Regular files relative to the root, in path order (protected ones left out). */
  readonly files: string[];
  readonly skipped: SkipCounts;
}

export interface SearchOptions {
  /** One glob or several (ripgrep --glob semantics; see glob.ts). */
  readonly glob?: string | readonly string[] | null;
  readonly signal?: AbortSignal;
  /** Overrides of the engine's limits for this call. */
  readonly limits?: Partial<SearchLimits>;
  /** Who asks, for the guard's decisions (default: the guard's actor). */
  readonly actor?: string;
}

export interface GrepOptions extends SearchOptions {
  /** Lines of context before and after each match, 0..maxContext. */
  readonly context?: number;
  /** Do not ask the person about files a checker asks about: withhold them. */
  readonly withoutAsking?: boolean;
}

/** The scan engine of a session: searches files under the guard's root, through the guard. */
export interface SearchEngine {
  readonly guard: Guard;
  readonly limits: SearchLimits;
  /** fs-find: the files below `path` the glob selects, without reading them. */
  find(path: string, opts?: SearchOptions): Promise<FindResult>;
  /** index-grep: the lines matching an RE2 pattern in the files below `path`. */
  grep(path: string, pattern: string, opts?: GrepOptions): Promise<GrepResult>;
  /** Stops the reading thread, if one was started (a later search starts it again when needed). */
  close(): Promise<void>;
  /** How index-grep calls have read so far: batches read in this thread and in the reading thread, and the thread's state. */
  stats(): SearchStats;
}

export interface SearchStats {
  readonly batchesHere: number;
  readonly batchesThread: number;
  /** Batches handed to the reading thread and taken back before it began them (read here, counted in batchesHere). */
  readonly batchesTakenBack: number;
  readonly thread: "off" | "starting" | "ready" | "gone";
}

export interface SearchEngineOptions {
  /**
   * The reading thread: "auto" (the default) starts it in the background for
   * the first search of at least THREAD_MIN_FILES candidates and uses it once
   * it is ready; "always" waits for it (tests); "never" reads in this thread.
   */
  readonly readingThread?: "auto" | "always" | "never";
  /** Candidates from which a search uses the thread (default THREAD_MIN_FILES). */
  readonly threadMinFiles?: number;
}

/** Candidates from which a search is worth a second thread (below it, the messages cost more than they save). */
export const THREAD_MIN_FILES = 128;

/** Creates the scan engine over a guard, with default limits (DEFAULT_SEARCH_LIMITS) overridden by `limits`. */
export function createSearchEngine(guard: Guard, limits: Partial<SearchLimits> = {}, options: SearchEngineOptions = {}): SearchEngine {
  const base: SearchLimits = { ...DEFAULT_SEARCH_LIMITS, ...limits };
  const mode = options.readingThread ?? "auto";
  let thread: ReadingThread | null = null;
  const counts = { here: 0, thread: 0, takenBack: 0 };
  const threads: ThreadUse | null =
    mode === "never"
      ? null
      : {
          wait: mode === "always",
          minFiles: options.threadMinFiles ?? THREAD_MIN_FILES,
          get: () => {
            if (thread === null || thread.canRestart) thread = new ReadingThread();
            return thread;
          },
        };
  return {
    guard,
    limits: base,
    find: (path, opts = {}) => find(guard, path, { ...opts, limits: { ...base, ...opts.limits } }),
    grep: (path, pattern, opts = {}) => grepWith(guard, threads, path, pattern, { ...opts, limits: { ...base, ...opts.limits } }, counts),
    async close() {
      const t = thread;
      thread = null;
      await t?.close();
    },
    stats: () => ({ batchesHere: counts.here, batchesThread: counts.thread, batchesTakenBack: counts.takenBack, thread: thread === null ? "off" : thread.state }),
  };
}

/** How a search gets the engine's reading thread. */
interface ThreadUse {
  /** The thread, started if it is not running. */
  get(): ReadingThread;
  /** Wait until it is ready rather than read in this thread meanwhile. */
  readonly wait: boolean;
  /** Candidates from which a search uses it. */
  readonly minFiles: number;
}

/** Batches read in this thread and in the reading thread (SearchEngine.stats). */
interface BatchCounts {
  here: number;
  thread: number;
  takenBack: number;
}

const PACE_MS = 10;

function makeControl(signal: AbortSignal | undefined, timeoutMs: number): Control {
  const deadline = performance.now() + timeoutMs;
  let lastPace = performance.now();
  const resume = (): void => {
    lastPace = performance.now();
  };
  return {
    check() {
      if (signal?.aborted) throw new SearchError("aborted", "the search was cancelled");
      if (performance.now() > deadline) throw new SearchError("timeout", `the search took longer than ${timeoutMs / 1000} seconds: pass a narrower path or a glob`);
    },
    pace() {
      if (performance.now() - lastPace < PACE_MS) return undefined;
      return new Promise<void>((r) => setImmediate(r)).then(resume);
    },
  };
}

/** The counts with their reasons in alphabetical order, so results print the same whatever the walk met first. */
function sortedCounts(s: SkipCounts): SkipCounts {
  const out: SkipCounts = {};
  for (const k of (Object.keys(s) as Array<keyof SkipCounts>).sort()) out[k] = s[k];
  return out;
}

function describe(path: string, glob: SearchOptions["glob"]): string {
  const g = glob === undefined || glob === null ? "" : ` matching ${JSON.stringify(glob)}`;
  return `under ${JSON.stringify(path)}${g}`;
}

/** fs-find over a guard (see SearchEngine.find). */
export async function find(guard: Guard, path: string, opts: SearchOptions = {}): Promise<FindResult> {
  const lim: SearchLimits = { ...DEFAULT_SEARCH_LIMITS, ...opts.limits };
  const filter = compileGlobs(opts.glob);
  const control = makeControl(opts.signal, lim.timeoutMs);
  control.check();
  const actor = opts.actor;
  const scan = guard.scan(actor === undefined ? {} : { actor });
  try {
    const d = await discover(path, { guard, scan, actor, filter, maxFiles: lim.maxFiles, control, describe: describe(path, opts.glob) });
    return { files: d.candidates, skipped: sortedCounts(d.skipped) };
  } finally {
    scan.close();
  }
}

/** index-grep over a guard (see SearchEngine.grep), reading in this thread. */
export function grep(guard: Guard, path: string, pattern: string, opts: GrepOptions = {}): Promise<GrepResult> {
  return grepWith(guard, null, path, pattern, opts, { here: 0, thread: 0, takenBack: 0 });
}

async function grepWith(guard: Guard, threads: ThreadUse | null, path: string, pattern: string, opts: GrepOptions, counts: BatchCounts): Promise<GrepResult> {
  const lim: SearchLimits = { ...DEFAULT_SEARCH_LIMITS, ...opts.limits };
  const context = opts.context ?? 0;
  if (!Number.isInteger(context) || context < 0 || context > lim.maxContext) {
    throw new SearchError("bad-context", `context must be an integer from 0 to ${lim.maxContext}, got ${String(context)}`);
  }
  // A bad pattern or glob fails before anything is listed or read.
  const pat = compilePattern(pattern, lim.maxPatternBytes);
  const filter = compileGlobs(opts.glob);
  const control = makeControl(opts.signal, lim.timeoutMs);
  control.check();
  const actor = opts.actor;
  const scan = guard.scan(actor === undefined ? { withoutAsking: opts.withoutAsking === true } : { actor, withoutAsking: opts.withoutAsking === true });
  try {
    const walk = Walk.start(path, { guard, scan, actor, filter, maxFiles: lim.maxFiles, control, describe: describe(path, opts.glob), keepProtectedFiles: true });
    // With a cap on the candidates, the whole tree is walked before anything is
    // read, so a search over the cap reads (and logs) nothing. Without one,
    // reading starts with the first candidates and the walk goes on between
    // batches.
    const minFiles = threads?.minFiles ?? 0;
    await walk.fill(lim.maxFiles === Infinity ? minFiles : Infinity);
    const thread = threads !== null && scan.defers && walk.waiting >= minFiles ? threads : null;
    return await new GrepRun(scan, walk, pat, context, lim, control, thread, counts).run();
  } finally {
    scan.close();
  }
}

/** Files opened together and handed over together. */
const BATCH_FILES = 32;
/** Batches the reading thread may hold at once; with more, this thread reads the next batch itself. */
const MAX_AHEAD = 3;
/** Batches opened and not yet taken: how far opening runs ahead of the results. */
const MAX_QUEUE = 8;

/** A batch of opened files: read here (reports known) or by the thread (reply to come). */
interface Batch {
  readonly files: OpenedFile[];
  readonly reports: ReadonlyArray<FileReport> | null;
  readonly reply: Promise<BatchReply> | null;
  /** The thread reading it, and its number there (isAnswered). */
  readonly thread: ReadingThread | null;
  readonly seq: number;
}

/**
 * One index-grep call past discovery. Files are opened in batches in this
 * thread (the guard decides, or defers its examination to the reader); a batch
 * is read here or by the reading thread, whichever is free; the reports are
 * taken in search order, where the caps are applied and deferred decisions
 * logged. A reader only has a hint of the caps (scan-file.ts), so the result
 * is the same whoever read what.
 */
class GrepRun {
  private readonly matches: GrepMatch[] = [];
  private readonly withheld: string[] = [];
  private files = 0;
  private readonly budget: MatchBudget;
  private readonly search: FileSearch;
  /** The walk's counts, and the reads' after them. */
  private readonly skipped: SkipCounts;
  /** The first denial or failure met: the search stops there and fails with it, unless the caps cut it short before. */
  private failure: unknown = null;
  private readonly queue: Batch[] = [];
  private thread: ReadingThread | null = null;
  private threadSearch: number | null = null;
  /** The thread failed a batch of this search: the rest is read here. */
  private threadBroken = false;

  constructor(
    private readonly scan: GuardScan,
    private readonly walk: Walk,
    private readonly pattern: LinePattern,
    private readonly context: number,
    private readonly lim: SearchLimits,
    private readonly control: Control,
    private readonly threads: ThreadUse | null,
    private readonly counts: BatchCounts,
  ) {
    this.skipped = walk.skipped;
    this.budget = newBudget(lim.maxMatches, lim.maxOutputChars);
    this.search = { pattern, context, maxLineChars: lim.maxLineChars, maxFileBytes: lim.maxFileBytes, scratch: makeScratch(lim.maxFileBytes) };
  }

  async run(): Promise<GrepResult> {
    try {
      if (this.threads !== null) {
        const t = this.threads.get();
        if (this.threads.wait) await t.whenReady();
      }
      const queue = this.queue;
      for (;;) {
        while (queue.length > 0 && this.isDone(queue[0] as Batch)) await this.take(queue.shift() as Batch);
        if (this.opening() && queue.length < MAX_QUEUE) {
          const files = await this.openBatch();
          if (files.length === 0) continue;
          const t = this.usableThread();
          queue.push(t !== null && t.backlog < MAX_AHEAD ? this.submit(t, files) : this.readHere(files));
          continue;
        }
        if (queue.length === 0) break;
        if (this.stealOne()) continue;
        await this.take(queue.shift() as Batch);
      }
    } finally {
      // On an error (a timeout, a cancel): the thread closes what it still holds without reading it.
      if (this.thread !== null && this.threadSearch !== null) this.thread.end(this.threadSearch);
      for (const b of this.queue.splice(0)) {
        let reports: ReadonlyArray<FileReport | null> = b.reports ?? [];
        if (b.reply !== null) {
          const r = await b.reply.catch(() => null); // the thread is done with the batch's directories
          if (r?.t === "batch") reports = r.reports;
          for (const f of b.files) this.scan.release(f, 0);
        }
        b.files.forEach((f, i) => {
          const r = reports[i];
          if (r !== undefined && r !== null) this.settleUnused(f, r);
        });
      }
      this.scan.flushLog();
    }
    if (this.failure !== null && !this.budget.truncated) throw this.failure;
    // Cut short by the caps: the skip counts still cover the whole tree.
    await this.walk.finish();
    const result: GrepResult = { matches: this.matches, files: this.files, skipped: sortedCounts(this.skipped), truncated: this.budget.truncated };
    return this.withheld.length > 0 ? { ...result, withheld: this.withheld } : result;
  }

  /** Whether more files are to be opened. */
  private opening(): boolean {
    return !this.walk.exhausted && this.failure === null && !this.budget.truncated;
  }

  private isDone(b: Batch): boolean {
    return b.reports !== null || (b.thread as ReadingThread).isAnswered(b.seq);
  }

  /** The thread, when it can take a batch: ready, serving this search, and not failed in it. */
  private usableThread(): ReadingThread | null {
    if (this.threads === null || this.threadBroken) return null;
    const t = this.threads.get();
    if (!t.isReady) return null;
    if (this.thread !== t || this.threadSearch === null) {
      // It takes over from here, with a hint of the caps as the files taken so far left them.
      const id = t.tryBegin({
        pattern: this.pattern.source,
        context: this.context,
        maxLineChars: this.lim.maxLineChars,
        maxFileBytes: this.lim.maxFileBytes,
        maxMatches: this.lim.maxMatches,
        maxOutputChars: this.lim.maxOutputChars,
        matches: this.budget.matches,
        chars: this.budget.chars,
      });
      if (id === null) return null; // another search has it
      this.thread = t;
      this.threadSearch = id;
    }
    return t;
  }

  private submit(t: ReadingThread, files: OpenedFile[]): Batch {
    const { seq, reply } = t.submit(
      this.threadSearch as number,
      files.map((f) => f.at),
    );
    this.counts.thread++;
    return { files, reports: null, reply, thread: t, seq };
  }

  /**
   * With nothing to open and the oldest batch not answered: takes back the
   * newest batch the thread has not begun and reads it here, so neither
   * thread waits while the other has work queued. True when it read one.
   */
  private stealOne(): boolean {
    const queue = this.queue;
    for (let i = queue.length - 1; i >= 0; i--) {
      const b = queue[i] as Batch;
      if (b.reports !== null) continue;
      if (!(b.thread as ReadingThread).trySteal(b.seq)) return false; // the thread began it: it began the older ones too
      this.counts.thread--;
      this.counts.takenBack++;
      queue[i] = this.readHere(b.files);
      return true;
    }
    return false;
  }

  /** Reads and searches a batch in this thread now, releasing its files; the caps apply when it is taken. */
  private readHere(files: OpenedFile[]): Batch {
    const b = this.budget;
    const hint = newBudget(b.maxMatches, b.maxOutputChars, b.matches, b.chars);
    this.counts.here++;
    const reports: FileReport[] = [];
    let i = 0;
    try {
      for (; i < files.length; i++) {
        const f = files[i] as OpenedFile;
        let r: FileReport | null = null;
        try {
          r = scanFile(f, f.relPath, this.search, hint);
        } finally {
          this.scan.release(f, r?.bytes ?? 0);
        }
        reports.push(r);
        if (hint.truncated) break;
      }
    } finally {
      for (i++; i < files.length; i++) this.scan.release(files[i] as OpenedFile, 0);
    }
    return { files, reports, reply: null, thread: null, seq: 0 };
  }

  /** Opens the next candidates, up to a batch. */
  private async openBatch(): Promise<OpenedFile[]> {
    return this.open(await this.walk.take(BATCH_FILES));
  }

  /**
   * Opens files through the guard (which decides about each now, or when its
   * report is taken); a file it will not open is counted as skipped. Stops at
   * a denial (this.failure).
   */
  private async open(rels: readonly string[]): Promise<OpenedFile[]> {
    const files: OpenedFile[] = [];
    try {
      for (const rel of rels) {
        this.control.check();
        const p = this.control.pace();
        if (p !== undefined) await p;
        try {
          const r = this.scan.openFile(rel, { maxBytes: this.lim.maxFileBytes, defer: true });
          files.push(r instanceof Promise ? await r : r);
        } catch (e) {
          if (!this.skip(e, rel)) {
            if (!(e instanceof GuardDeniedError)) throw e;
            this.failure = e;
            break;
          }
        }
      }
    } catch (e) {
      for (const f of files) this.scan.release(f, 0);
      throw e;
    }
    return files;
  }

  /** Counts a file the guard refused as skipped, when that is what its refusal means. */
  private skip(e: unknown, rel: string): boolean {
    const skipped = this.skipped;
    if (e instanceof GuardDeniedError) {
      if (e.rule === "denylist") countSkip(skipped, "protected");
      else if (e.rule === "special-file" || e.rule === "hard-link") countSkip(skipped, "nonregular");
      else if (e.rule === "ask-unanswered") {
        countSkip(skipped, "withheld");
        this.withheld.push(rel);
      } else return false;
      return true;
    }
    if (e instanceof GuardFileError) {
      if (e.code === "file-too-large") countSkip(skipped, "oversized");
      else if (e.code === "not-found") countSkip(skipped, "vanished");
      else if (e.code === "io") countSkip(skipped, "unreadable");
      else return false;
      return true;
    }
    return false;
  }

  /** Takes the oldest batch's reports, in order, under the caps. */
  private async take(b: Batch): Promise<void> {
    let reports: ReadonlyArray<FileReport | null>;
    if (b.reply === null) {
      reports = b.reports as FileReport[];
    } else {
      let r: BatchReply | null = null;
      try {
        r = await b.reply;
      } catch (e) {
        if (!(e instanceof ThreadLost)) throw e;
      }
      if (r === null || r.t === "failed") {
        for (const f of b.files) this.scan.release(f, 0);
        if (r !== null) {
          this.threadBroken = true;
          if (this.threadSearch !== null) this.thread?.end(this.threadSearch);
        }
        // Which of its files the thread read is unknown: they are opened again and read here.
        return this.redo(b.files.map((f) => f.relPath));
      }
      reports = r.reports;
      b.files.forEach((f, i) => this.scan.release(f, reports[i]?.bytes ?? 0));
    }
    const redo: string[] = [];
    for (let i = 0; i < b.files.length; i++) {
      const f = b.files[i] as OpenedFile;
      const r = reports[i] ?? null;
      if (this.budget.truncated || this.failure !== null) {
        if (r !== null) this.settleUnused(f, r);
        continue;
      }
      this.control.check();
      // Not read although the caps allow it: the thread stopped serving this search. Read here.
      if (r === null) redo.push(f.relPath);
      else if (redo.length > 0) redo.push(f.relPath);
      else this.takeReport(f, r);
    }
    if (redo.length > 0) await this.redo(redo);
    // The batch's decisions, logged together (one durable write in a session).
    this.scan.flushLog();
  }

  /**
   * A file a reader opened ahead, past where the search stopped: not part of
   * the result, but the guard still logs its decision, since it was read.
   */
  private settleUnused(f: OpenedFile, r: FileReport): void {
    if (r.found === undefined || r.found.kind === "not-opened") return;
    try {
      this.scan.settle(f, r.found, this.lim.maxFileBytes);
    } catch {
      // a refusal is logged by settle itself; the search has its result or its failure already
    }
  }

  /** A file's report: the guard's deferred decision, the outcome's count, the matches that fit. */
  private takeReport(f: OpenedFile, r: FileReport): void {
    if (r.found !== undefined) {
      try {
        this.scan.settle(f, r.found, this.lim.maxFileBytes);
      } catch (e) {
        if (!this.skip(e, f.relPath)) this.failure = e;
        return;
      }
    }
    if (r.outcome === "searched") this.files++;
    else if (r.outcome !== "refused") countSkip(this.skipped, r.outcome);
    const b = this.budget;
    for (const m of r.matches) {
      if (!spend(b, m.chars)) return;
      this.matches.push(m.before === undefined ? { path: f.relPath, line: m.line, text: m.text } : { path: f.relPath, line: m.line, text: m.text, before: m.before, after: m.after as string[] });
    }
    // The reader stopped at a line its hint had no room for: the exact caps have none either.
    if (r.cut) b.truncated = true;
  }

  /** Opens files again and reads them here, taking their reports now (they are next in order). */
  private async redo(rels: readonly string[]): Promise<void> {
    const files = await this.open(rels);
    const b = this.readHere(files);
    (b.reports as FileReport[]).forEach((r, i) => {
      if (!this.budget.truncated && this.failure === null) this.takeReport(b.files[i] as OpenedFile, r);
    });
  }
}
