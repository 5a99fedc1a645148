// The reading thread of a search engine: started on first need, kept for the session, and never waited for.
//
// index-grep spends most of its time in system calls: opening, examining,
// reading and closing each file. When the guard can defer a file's open (no
// checker, no turn cap), that work can be done by either of two threads: this
// one and the main one, which also walks the tree and takes the results in
// order (docs/decisions/0005).
// It starts in the background the first time a search is large enough; until
// it is ready, searches read in the main thread, and a search hands it
// batches as soon as it is. If it fails or exits, searches go on in the main
// thread. It keeps the process alive only while a search waits for it.

import type { Worker } from "node:worker_threads";
import { BATCH_STATE, DONE, QUEUED, RING, SHARED_WORDS, STOLEN, WANTED, type FromThread, type ThreadSearch, type ToThread } from "./worker-protocol.js";

export type BatchReply = Extract<FromThread, { t: "batch" } | { t: "failed" }>;

/** The thread's script: beside this module (the bundles point this at the compiled file). */
const WORKER_URL = new URL("./grep-worker.js", import.meta.url);

/** The thread went away with this batch unanswered. */
export class ThreadLost extends Error {
  constructor(why: string) {
    super(`the reading thread is gone: ${why}`);
    this.name = "ThreadLost";
  }
}

let warned = false;

/** The promise, marked as handled: a search may take its rejection later (or never, when it failed first). */
function handled<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

export class ReadingThread {
  private readonly worker: Worker;
  private readonly shared = new Int32Array(new SharedArrayBuffer(SHARED_WORDS * 4));
  private readonly pending = new Map<number, { resolve: (r: BatchReply) => void; reject: (e: Error) => void }>();
  private _state: "starting" | "ready" | "gone" = "starting";
  private wasReady = false;
  private closing = false;
  /** Waiters (batches, or a search waiting for start-up): the thread is ref'd while there are any. */
  private holds = 0;
  private nextId = 1;
  private submitted = 0;
  /** Resolves true when the thread can take batches, false when it never will. */
  readonly ready: Promise<boolean>;

  constructor() {
    // Loaded now, not when this module is: the command's start-up snapshot
    // (scripts/bundle.mjs) holds this module, and node:worker_threads loaded
    // while a snapshot is built starts no thread after it is restored.
    const { Worker } = process.getBuiltinModule("node:worker_threads") as typeof import("node:worker_threads");
    // Without the process's own node options (--input-type, --eval and the like are no options of a thread).
    this.worker = new Worker(WORKER_URL, { workerData: { shared: this.shared.buffer }, execArgv: [] });
    let signal!: (ok: boolean) => void;
    this.ready = new Promise<boolean>((r) => (signal = r));
    this.worker.on("message", (m: FromThread) => {
      if (m.t === "ready") {
        if (this._state === "starting") this._state = "ready";
        this.wasReady = true;
        signal(true);
        return;
      }
      const p = this.pending.get(m.seq);
      if (p === undefined) return;
      this.pending.delete(m.seq);
      this.release();
      p.resolve(m);
    });
    const lost = (why: string): void => {
      if (this._state === "gone") return;
      // A thread that never started is a broken installation, worth one warning; searches still work without it.
      if (!this.wasReady && !this.closing && !warned) {
        warned = true;
        process.emitWarning(`the search's reading thread could not start (${why}); searches read in the main thread`, { code: "NODWYN_READING_THREAD" });
      }
      this._state = "gone";
      signal(false);
      const err = new ThreadLost(why);
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
      this.holds = 0;
    };
    this.worker.on("error", (e) => lost(e instanceof Error ? e.message : String(e)));
    this.worker.on("exit", (code) => lost(`exited with code ${code}`));
    // After the listeners: adding a 'message' listener refs the thread's port again.
    this.worker.unref();
  }

  get state(): "starting" | "ready" | "gone" {
    return this._state;
  }

  /** Whether it takes batches now. */
  get isReady(): boolean {
    return this._state === "ready";
  }

  /** Gone after having worked (a thread that never started is not worth starting again). */
  get canRestart(): boolean {
    return this._state === "gone" && this.wasReady;
  }

  /** Batches handed over and not yet answered (read without waiting for the answers' messages). */
  get backlog(): number {
    return this.submitted - Atomics.load(this.shared, DONE);
  }

  /** Waits until it is ready (true) or gone (false), keeping the process alive meanwhile. */
  async whenReady(): Promise<boolean> {
    if (this._state !== "starting") return this._state === "ready";
    this.hold();
    try {
      return await this.ready;
    } finally {
      this.release();
    }
  }

  /** Whether batch `seq` has been answered (its message may not have arrived yet). */
  isAnswered(seq: number): boolean {
    return Atomics.load(this.shared, DONE) >= seq;
  }

  /**
   * Starts a search on the thread, which serves one search at a time: the id
   * its batches are submitted with, or null while another search has it.
   */
  tryBegin(search: ThreadSearch): number | null {
    const id = this.nextId++;
    if (Atomics.compareExchange(this.shared, WANTED, 0, id) !== 0) return null;
    this.post({ t: "search", id, search });
    return id;
  }

  /**
   * Hands over files whose open the guard deferred (their `at` paths), in
   * search order. Their directories must stay open until the reply (or
   * ThreadLost).
   */
  submit(id: number, ats: ReadonlyArray<string | null>): { seq: number; reply: Promise<BatchReply> } {
    if (this._state === "gone") return { seq: 0, reply: handled(Promise.reject(new ThreadLost("it exited before"))) };
    const seq = ++this.submitted;
    const reply = handled(new Promise<BatchReply>((resolve, reject) => this.pending.set(seq, { resolve, reject })));
    Atomics.store(this.shared, BATCH_STATE + (seq % RING), QUEUED);
    this.hold();
    this.post({ t: "batch", id, seq, ats });
    return { seq, reply };
  }

  /**
   * Takes back batch `seq` if the thread has not begun it: true when the
   * caller now has it (to read itself; the thread answers it unread). False
   * when the thread has it, or answered it.
   */
  trySteal(seq: number): boolean {
    return Atomics.compareExchange(this.shared, BATCH_STATE + (seq % RING), QUEUED, STOLEN) === QUEUED;
  }

  /** The search is over (finished, failed or cancelled): batches of it still queued are not read, and another search may begin. */
  end(id: number): void {
    Atomics.compareExchange(this.shared, WANTED, id, 0);
  }

  /** Stops the thread (its pending batches are answered with ThreadLost). */
  async close(): Promise<void> {
    if (this._state === "gone") return;
    this.closing = true;
    Atomics.store(this.shared, WANTED, 0);
    await this.worker.terminate();
  }

  private hold(): void {
    if (this.holds++ === 0 && this._state !== "gone") this.worker.ref();
  }

  private release(): void {
    if (--this.holds === 0 && this._state !== "gone") this.worker.unref();
  }

  private post(m: ToThread): void {
    this.worker.postMessage(m);
  }
}
