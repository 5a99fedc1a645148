// The index's preparing thread, seen from the refresh: texts handed over in jobs, each answered with their hashes, chunks and words.
//
// A large refresh (a first build) spends about as long redacting and cutting
// words as reading files through the guard and inserting into SQLite; on two
// cores the two halves overlap. The guard, its decisions and the store stay
// in the main thread: only bytes already read and allowed cross. A text the
// thread could not prepare (it failed, it is gone, the session registered a
// secret since it started) is prepared in the main thread instead, so the
// thread changes how fast a refresh is, never what it stores.

import type { Worker } from "node:worker_threads";
import type { Redactor } from "../redact/index.js";
import type { DocInput } from "./store.js";

/** The thread's script, beside this module (the bundles point this at the compiled file). */
const WORKER_URL = new URL("./prepare-worker.js", import.meta.url);

export interface ToPrepare {
  readonly seq: number;
  /** The files' bytes, one after another (a copy: the main thread keeps its own for a fallback). */
  readonly buf: ArrayBuffer;
  readonly files: readonly { readonly path: string; readonly off: number; readonly len: number }[];
}

/** A text made ready to store: the hash of its redacted text, that text's length, and its document. */
export interface PreparedText {
  readonly hash: string;
  readonly length: number;
  readonly doc: DocInput;
}

export interface FromPrepare {
  readonly seq: number;
  readonly out: (PreparedText | { readonly error: string })[];
}

/** Texts gathered for one job: bytes copied out of the reader's scratch buffer. */
export class PrepareJob {
  buf: Buffer;
  used = 0;
  readonly files: { path: string; off: number; len: number }[] = [];
  /** The answers, in the files' order (null: prepare that one in the main thread); set when the job is done. */
  result: (PreparedText | null)[] | null = null;
  promise: Promise<void> | null = null;

  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }

  /** Whether `n` more bytes fit. */
  fits(n: number): boolean {
    return this.used + n <= this.buf.length;
  }

  /** Copies a file's bytes in; returns its place in the job. */
  add(path: string, bytes: Buffer): number {
    bytes.copy(this.buf, this.used);
    this.files.push({ path, off: this.used, len: bytes.length });
    this.used += bytes.length;
    return this.files.length - 1;
  }

  /** The bytes of the job's k-th file. */
  bytesOf(k: number): Buffer {
    const f = this.files[k] as { off: number; len: number };
    return this.buf.subarray(f.off, f.off + f.len);
  }
}

/** One preparing thread for one refresh. Close it. */
export class PrepareThread {
  private readonly pending = new Map<number, (out: (PreparedText | null)[]) => void>();
  private seq = 0;
  private gone = false;

  private constructor(private readonly worker: Worker) {
    worker.on("message", (m: FromPrepare) => {
      const done = this.pending.get(m.seq);
      if (done === undefined) return;
      this.pending.delete(m.seq);
      done(m.out.map((o) => ("error" in o ? null : o)));
    });
    const lost = (): void => {
      if (this.gone) return;
      this.gone = true;
      // Every job not answered is prepared in the main thread.
      for (const done of this.pending.values()) done([]);
      this.pending.clear();
    };
    worker.on("error", lost);
    worker.on("exit", lost);
  }

  /** A thread redacting as `redactor` does, or null when it cannot (rules of its own, no thread could start). */
  static start(redactor: Redactor): PrepareThread | null {
    const spec = redactor.threadSpec();
    if (spec === null) return null;
    try {
      // Loaded now, not with this module: the command's start-up snapshot holds this module (see search/reading-thread.ts).
      const { Worker } = process.getBuiltinModule("node:worker_threads") as typeof import("node:worker_threads");
      return new PrepareThread(new Worker(WORKER_URL, { workerData: { secrets: spec.secrets }, execArgv: [] }));
    } catch {
      return null;
    }
  }

  /** Hands a job over; its promise resolves (never rejects) once its result is set. */
  submit(job: PrepareJob): void {
    const n = job.files.length;
    const settle = (out: (PreparedText | null)[]): void => {
      const r: (PreparedText | null)[] = [];
      for (let k = 0; k < n; k++) r.push(out[k] ?? null);
      job.result = r;
    };
    if (this.gone || n === 0) {
      settle([]);
      job.promise = Promise.resolve();
      return;
    }
    const seq = ++this.seq;
    job.promise = new Promise<void>((resolve) => {
      this.pending.set(seq, (out) => {
        settle(out);
        resolve();
      });
    });
    const buf = (job.buf.buffer as ArrayBuffer).slice(job.buf.byteOffset, job.buf.byteOffset + job.used);
    try {
      this.worker.postMessage({ seq, buf, files: job.files } satisfies ToPrepare, [buf]);
    } catch {
      this.pending.get(seq)?.([]);
      this.pending.delete(seq);
    }
  }

  close(): void {
    this.gone = true;
    for (const done of this.pending.values()) done([]);
    this.pending.clear();
    void this.worker.terminate();
  }
}
