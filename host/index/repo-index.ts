// The repository index of one working tree: refresh (read what changed, through the guard), search (BM25), status and collection.
//
// Seed "The repository index"; docs/decisions/0017 (storage) and 0018 (words,
// chunks, ranking). A refresh holds the tree's lock (trees/<tree>.lock) from
// its listing to its last manifest write, and the collection lock shared
// (gc.lock), so a collection never removes a document a refresh is about to
// name. It reads the files whose size, modification time or inode changed
// since the manifest, in path order, until its time budget is spent, and
// commits what it read in batches: each batch is one store transaction, then
// the manifest is written whole. So at any moment each file is held as it was
// or as it is now.

import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readdirSync, rmSync, type Stats } from "node:fs";
import { join } from "node:path";
import type { Guard } from "../guard/index.js";
import { DEFAULT_RULES, type Redactor } from "../redact/index.js";
import type { SearchEngine } from "../search/index.js";
import { textLines } from "./chunks.js";
import { IndexError } from "./errors.js";
import { DEFAULT_INDEX_LIMITS, type IndexLimits } from "./limits.js";
import { listTree, type Listing } from "./listing.js";
import { FileLock } from "./lock.js";
import { emptyManifest, readManifest, writeManifest, type Entry, type EntryState, type Manifest } from "./manifest.js";
import { gitDirsOf, projectPaths, type ProjectPaths } from "./project.js";
import { PrepareJob, PrepareThread, type PreparedText } from "./prepare-thread.js";
import { readThroughGuard, type ReadOutcome } from "./read-file.js";
import { chunkText, decodeText, hashText, prepareDoc, redactKeepingLines } from "./prepare.js";
import { CHUNKS_PER_DOC, docKey, Store, StoreRebuilt, storageError, type DocInput } from "./store.js";
import { forEachWord, queryWords } from "./words.js";

/** The version of the words and chunks the store holds: part of its fingerprint (a change rebuilds it). */
const TEXT_FORMAT = "words-1 chunks-1";

/** A refresh that reads this many files or more prepares their texts in a thread of its own (prepare-thread.ts). */
const THREAD_MIN_FILES = 200;
/** Bytes of text handed to that thread at a time, and how many such jobs may wait in it. */
const JOB_BYTES = 256 * 1024;
const JOBS_IN_FLIGHT = 4;
/** Read files not yet taken past which the refresh waits for the thread instead of reading on. */
const STOLEN_FILES_AHEAD = 2000;

/** The payload of an index.update record (docs/log-format.md): counts and paths, never content. */
export interface IndexUpdateRecord {
  /** The working tree's root. */
  readonly root: string;
  /** Files the index holds of the tree after it. */
  readonly files: number;
  /** Files it read. */
  readonly read: number;
  /** Files it removed (gone, or past the limits). */
  readonly removed: number;
  /** Files it skipped: not a regular file, too large, binary, not UTF-8, protected by the denylist. */
  readonly skipped: number;
  /** Files the guard refused (a checker's deny, an ask no one could answer): left out and named. */
  readonly refused: string[];
  /** Files left to read when its time ran out (the next refresh goes on). */
  readonly left: number;
  /** The tree has more files or text than an index holds. */
  readonly more: boolean;
  readonly elapsed_ms: number;
}

/** What the refresh before a search did, or an index-update call. */
export interface RefreshReport extends IndexUpdateRecord {
  /** Another process was refreshing this tree for longer than the wait: the index answered as it was. */
  readonly busy: boolean;
  /** Why the refresh failed (a full disk): the index answered as it was. */
  readonly error?: string;
}

/** One hit of a search: a chunk, read again from the file. */
export interface IndexHit {
  readonly path: string;
  readonly start: number;
  readonly end: number;
  /** The chunk's first line. */
  readonly first: string;
  /** The chunk's (up to) three lines holding the most of the query's words, in line order. */
  readonly lines: { readonly line: number; readonly text: string }[];
  /** BM25 (higher is better). */
  readonly score: number;
}

export interface IndexSearchResult {
  readonly hits: IndexHit[];
  /** The index holds only part of the tree (its limits, or files left to read). */
  readonly partial: boolean;
  readonly refresh: RefreshReport;
  /** Files the guard refused when a hit was read again: dropped from the index and from the result. */
  readonly dropped: string[];
}

export interface IndexStatus {
  readonly root: string;
  readonly key: string;
  readonly indexDir: string;
  readonly files: number;
  readonly chunks: number;
  readonly skipped: number;
  readonly refused: number;
  /** Bytes of the index's files on disk (the whole repository's index, all its trees). */
  readonly bytes: number;
  /** When this tree's manifest was last written (the index's clock), or null before the first build. */
  readonly updated: number | null;
  readonly partial: boolean;
  readonly more: boolean;
  readonly left: number;
  readonly added: readonly string[];
  /** Working trees of the repository with a manifest. */
  readonly trees: number;
}

export interface GcReport {
  /** Roots of working trees that are gone, whose manifests were removed. */
  readonly trees: string[];
  /** Documents (a path's chunks at one hash) removed, unnamed for the collection's age. */
  readonly docs: number;
  readonly chunks: number;
  /** Another process held the index: nothing was collected this time. */
  readonly busy: boolean;
}

export interface RefreshProgress {
  /** Files read so far, and to read in all (this call). */
  readonly done: number;
  readonly total: number;
}

export interface RepoIndexOptions {
  /** The session's guard (its root is the tree's root). */
  readonly guard: Guard;
  /** The scan engine over the same guard: the walk of trees without git and of added paths. */
  readonly search: SearchEngine;
  /** The redactor of the session (its registered secrets included). */
  readonly redactor: Redactor;
  /** nodwyn's data directory. */
  readonly dataDir: string;
  /** Receives each index.update payload (the session logs it). */
  readonly record?: (payload: IndexUpdateRecord) => void;
  /** The index's clock in milliseconds (budgets and the collection's age); Date.now by default. */
  readonly clock?: () => number;
  readonly limits?: Partial<IndexLimits>;
  /** The git program; null lists trees by walking them (default "git"). */
  readonly git?: string | null;
  /** Who reads the files into the index, for the guard's decisions (default "index"). */
  readonly actor?: string;
  /** Tests: the store's page cap (a full disk). */
  readonly maxPageCount?: number;
  /** A refresh reading this many files or more prepares their texts in a thread of its own (default 200; tests: Infinity for none). */
  readonly threadMinFiles?: number;
  /**
   * How long a refresh reads before it commits a batch. By default at least
   * 1000 ms, and at least 25 times what the last commit's checksum and manifest
   * took (each commit reads the whole store for its CRC and writes the whole
   * manifest, so a large build would otherwise spend a growing share on them);
   * given (the crash tests make batches small), exactly this.
   */
  readonly batchMs?: number;
}

/** The index of one working tree, over its repository's shared store. Close it. */
export class RepoIndex {
  readonly paths: ProjectPaths;
  readonly limits: IndexLimits;
  private readonly store: Store;
  private readonly clock: () => number;
  private readonly actor: string;
  private readonly git: string | null;
  private readonly manifestPath: string;
  private readonly treeLockPath: string;
  private readonly gcLockPath: string;
  private manifest: Manifest | null = null;
  /** The manifest file as it was when `manifest` was read or written from it. */
  private manifestId: string | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  /** The redacted lines of files recent searches showed (shownLines), least recently used first. */
  private readonly shown = new Map<string, { bytes: Buffer; secrets: number; lines: string[] }>();
  private readonly scratch: Buffer;
  /** Texts prepared by a refresh's preparing thread since this index was opened (tests see that it ran). */
  preparedInThread = 0;
  /** Damage found and repaired since this index was opened (for status and tests). */
  readonly damage: string[] = [];

  constructor(private readonly o: RepoIndexOptions) {
    this.paths = projectPaths(o.guard.root, o.dataDir);
    this.limits = { ...DEFAULT_INDEX_LIMITS, ...o.limits };
    this.clock = o.clock ?? Date.now;
    this.actor = o.actor ?? "index";
    this.git = o.git === undefined ? "git" : o.git;
    const trees = join(this.paths.indexDir, "trees");
    this.manifestPath = join(trees, `${this.paths.treeKey}.manifest`);
    this.treeLockPath = join(trees, `${this.paths.treeKey}.lock`);
    this.gcLockPath = join(this.paths.indexDir, "gc.lock");
    const fingerprint = createHash("sha256")
      .update(JSON.stringify([TEXT_FORMAT, o.redactor.ruleNames, DEFAULT_RULES.map((r) => [r.name, r.patterns])]))
      .digest("hex")
      .slice(0, 16);
    this.store = new Store(this.paths.indexDir, {
      lockWaitMs: this.limits.lockWaitMs,
      fingerprint,
      ...(o.maxPageCount !== undefined ? { maxPageCount: o.maxPageCount } : {}),
      onDamage: (why) => this.damage.push(why),
    });
    this.scratch = Buffer.allocUnsafe(Math.min(this.limits.maxFileBytes + 1, 4 * 1024 * 1024));
  }

  /** The tree's root. */
  get root(): string {
    return this.paths.root;
  }

  /** Runs operations of this index one at a time (a session may start two searches at once). */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const scrubbed = (): Promise<T> => fn().catch((e: unknown) => Promise.reject(this.scrub(e)));
    const run = this.queue.then(scrubbed, scrubbed);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** The index's own errors name its folder as "<data dir>/…", not by the host's path (a model may read them). */
  private scrub(e: unknown): unknown {
    if (e instanceof IndexError && this.o.dataDir.length > 1) e.message = e.message.split(this.o.dataDir).join("<data dir>");
    return e;
  }

  /**
   * Builds or refreshes the index now (index-update): reads for up to the
   * update budget; with `path`, first adds that file or directory of the tree
   * whole, from then on. Always records an index.update. Then collects what
   * gone trees and old versions left.
   */
  update(opts: { path?: string; signal?: AbortSignal; onProgress?: (p: RefreshProgress) => void; budgetMs?: number } = {}): Promise<RefreshReport & { added: string | null; gc: GcReport }> {
    return this.serial(async () => {
      let added: string | null = null;
      if (opts.path !== undefined) {
        const e = this.locate(opts.path);
        added = e;
      }
      const r = await this.refresh("update", { budgetMs: opts.budgetMs ?? this.limits.updateBudgetMs, add: added, signal: opts.signal, onProgress: opts.onProgress });
      const gc = await this.collect();
      return { ...r, added, gc };
    });
  }

  /** The root-relative form of a path to add, checked by the guard's static rules (a denial is thrown). */
  private locate(path: string): string {
    let e;
    try {
      e = this.o.guard.locate(path, { actor: this.actor });
    } catch (err) {
      if ((err as { domain?: string }).domain === "guard") throw err;
      throw new IndexError("bad-path", `cannot add ${JSON.stringify(path)}: ${err instanceof Error ? err.message : String(err)}`);
    }
    return e.relPath;
  }

  /**
   * The best chunks for `query` (at most `limit`), under `path` when given,
   * after a refresh of up to the search budget. Each hit is read again from
   * its file through the guard, as `actor`; a refusal drops the file.
   */
  search(query: string, opts: { limit?: number; path?: string | null; actor?: string; signal?: AbortSignal; fresh?: boolean } = {}): Promise<IndexSearchResult> {
    return this.serial(async () => {
      let refresh: RefreshReport;
      try {
        refresh = opts.fresh === false ? this.emptyReport() : await this.refresh("search", { budgetMs: this.limits.searchBudgetMs, add: null, signal: opts.signal });
      } catch (e) {
        // The search answers from the index as it was; the reason is in the result.
        if (!(e instanceof IndexError) || e.code === "aborted") throw e;
        refresh = { ...this.emptyReport(), error: (this.scrub(e) as IndexError).message };
      }
      const limit = Math.max(1, Math.min(opts.limit ?? this.limits.defaultHits, this.limits.maxHits));
      for (let attempt = 0; ; attempt++) {
        try {
          await this.store.ensure();
          const m = this.currentManifest();
          const { hits, dropped } = await this.rankAndRead(query, limit, normalizePrefix(opts.path ?? null), opts.actor ?? "agent", m);
          return { hits, partial: m.over || m.left > 0, refresh, dropped };
        } catch (e) {
          if (!(e instanceof StoreRebuilt) || attempt > 0) throw e;
          // Damage found while searching: the store is new; build it within the budget and search again.
          refresh = await this.refresh("search", { budgetMs: this.limits.searchBudgetMs, add: null, signal: opts.signal });
        }
      }
    });
  }

  /** What a search does first: reads what changed for up to the search budget (records an index.update when it read or removed something). */
  check(opts: { signal?: AbortSignal } = {}): Promise<RefreshReport> {
    return this.serial(() => this.refresh("search", { budgetMs: this.limits.searchBudgetMs, add: null, signal: opts.signal }));
  }

  /** Files, chunks, size and freshness, without refreshing. */
  status(): Promise<IndexStatus> {
    return this.serial(async () => {
      await this.store.ensure();
      const m = this.currentManifest();
      let files = 0;
      let chunks = 0;
      let skipped = 0;
      let refused = 0;
      for (const e of m.files.values()) {
        if (e.state === "held") {
          files++;
          chunks += e.chunks;
        } else if (e.state === "refused") refused++;
        else skipped++;
      }
      let trees = 0;
      try {
        trees = readdirSync(join(this.paths.indexDir, "trees")).filter((f) => f.endsWith(".manifest")).length;
      } catch {
        // no tree yet
      }
      return {
        root: this.root,
        key: this.paths.key,
        indexDir: this.paths.indexDir,
        files,
        chunks,
        skipped,
        refused,
        bytes: this.store.sizes().bytes,
        updated: m.updated === 0 ? null : m.updated,
        partial: m.over || m.left > 0,
        more: m.over,
        left: m.left,
        added: m.added,
        trees,
      };
    });
  }

  /** Removes the manifests of gone working trees and the documents no tree has named for the collection's age. */
  gc(): Promise<GcReport> {
    return this.serial(() => this.collect());
  }

  close(): void {
    this.store.close();
  }

  /** The manifest of this tree as the index can use it: a damaged one, or one of another generation, is empty. */
  private currentManifest(): Manifest {
    const id = statId(this.manifestPath);
    if (this.manifest !== null && id !== null && id === this.manifestId && this.manifest.generation === this.store.generation) return this.manifest;
    const m = readManifest(this.manifestPath);
    if (m === "damaged") {
      this.damage.push("the manifest of this tree failed its check");
      rmSync(this.manifestPath, { force: true });
    }
    if (m === null || m === "damaged" || m.generation !== this.store.generation || m.root !== this.root) {
      return emptyManifest(this.root, this.store.generation);
    }
    this.manifest = m;
    this.manifestId = id;
    return m;
  }

  private emptyReport(): RefreshReport {
    const m = this.manifest;
    const files = m === null ? 0 : heldCount(m);
    return { root: this.root, files, read: 0, removed: 0, skipped: 0, refused: [], left: m?.left ?? 0, more: m?.over ?? false, elapsed_ms: 0, busy: false };
  }

  private async refresh(
    kind: "search" | "update",
    o: { budgetMs: number; add: string | null; signal?: AbortSignal | undefined; onProgress?: ((p: RefreshProgress) => void) | undefined },
  ): Promise<RefreshReport> {
    const t0 = performance.now();
    try {
      mkdirSync(join(this.paths.indexDir, "trees"), { recursive: true, mode: 0o700 });
    } catch (e) {
      throw storageError(e, `cannot create ${this.paths.indexDir}`);
    }
    const treeLock = await FileLock.acquire(this.treeLockPath, "ex", Math.min(o.budgetMs, this.limits.lockWaitMs), o.signal);
    if (treeLock === null) {
      if (o.signal?.aborted) throw new IndexError("aborted", "the index update was cancelled");
      // Another process refreshes this tree now: its result is what this one would have done.
      const r: RefreshReport = { ...this.emptyReport(), busy: true };
      if (kind === "update") this.o.record?.(recordOf(r, t0));
      return r;
    }
    let gcLock: FileLock | null = null;
    try {
      gcLock = await FileLock.acquire(this.gcLockPath, "sh", this.limits.lockWaitMs, o.signal);
      if (gcLock === null) throw new IndexError("index-busy", "the index is being collected by another process for longer than the wait");
      for (let attempt = 0; ; attempt++) {
        try {
          return await this.refreshHeld(kind, o, t0);
        } catch (e) {
          if (!(e instanceof StoreRebuilt) || attempt > 1) throw e;
        }
      }
    } finally {
      gcLock?.release();
      treeLock.release();
    }
  }

  private async refreshHeld(
    kind: "search" | "update",
    o: { budgetMs: number; add: string | null; signal?: AbortSignal | undefined; onProgress?: ((p: RefreshProgress) => void) | undefined },
    t0: number,
  ): Promise<RefreshReport> {
    const started = this.clock();
    const lim = this.limits;
    await this.store.ensure();
    const old = this.currentManifest();
    const added = o.add !== null && !old.added.includes(o.add) ? [...old.added, o.add] : [...old.added];
    let listing: Listing;
    try {
      listing = await listTree({ root: this.root, git: this.git, added, search: this.o.search, actor: this.actor, ...(o.signal ? { signal: o.signal } : {}) });
    } catch (e) {
      if ((e as { code?: string }).code === "aborted") throw new IndexError("aborted", "the index update was cancelled");
      throw e;
    }

    // What the tree holds now, by stat: kept as the manifest has it, or to be read.
    const next = new Map<string, Entry>();
    const toRead: { path: string; st: Stats }[] = [];
    let skipped = 0;
    let over = false;
    let count = 0;
    let bytes = 0;
    // The listing's paths are normalized (no ".", "..", or doubled "/"): joined by hand, without path.join's normalizing.
    const base = this.root.endsWith("/") ? this.root : `${this.root}/`;
    for (const p of listing.paths) {
      let st: Stats | undefined;
      try {
        st = lstatSync(base + p, { throwIfNoEntry: false });
      } catch {
        st = undefined;
      }
      if (st === undefined) continue;
      const prev = old.files.get(p);
      const same = prev !== undefined && prev.size === st.size && prev.mtimeMs === st.mtimeMs && prev.ino === st.ino;
      if (!st.isFile() || st.size > lim.maxFileBytes) {
        const state: EntryState = st.isFile() ? "oversized" : "nonregular";
        if (same && prev?.state === state) next.set(p, prev);
        else {
          skipped++;
          next.set(p, statEntry(st, state));
        }
        continue;
      }
      count++;
      bytes += st.size;
      if (count > lim.maxFiles || bytes > lim.maxTreeBytes) {
        over = true;
        continue;
      }
      // A refused file is asked about again by index-update (the checkers may have changed), not by every search.
      if (same && !(kind === "update" && prev?.state === "refused")) next.set(p, prev as Entry);
      else {
        if (prev !== undefined) next.set(p, prev); // held as it was until it is read again
        toRead.push({ path: p, st });
      }
    }
    let removed = 0;
    for (const [p, e] of old.files) if (!next.has(p) && e.state === "held") removed++;
    /** Whether the manifest to write is the one on disk: every entry kept as it was, nothing added or gone, the same limits. */
    const unchanged = (): boolean => {
      if (old.updated === 0 || old !== this.manifest || next.size !== old.files.size || over !== old.over || old.left !== 0 || added.length !== old.added.length) return false;
      for (const [p, e] of next) if (old.files.get(p) !== e) return false;
      return true;
    };

    // Read what changed, in batches, within the budget. A large refresh hands
    // the texts it read to a preparing thread (prepare-thread.ts) and takes
    // them back in read order; a small one prepares them here.
    const refused: string[] = [];
    let read = 0;
    let left = 0;
    let stop: string | null = null;
    const scan = this.o.guard.scan({ actor: this.actor, withoutAsking: true });
    let batch: DocInput[] = [];
    let pending: [string, Entry][] = [];
    let batchStarted = performance.now();
    let batchMs = this.o.batchMs ?? 1000;
    let batchBytes = 0;
    let wroteManifest = false;
    let remaining = toRead.length;
    const large = toRead.length >= (this.o.threadMinFiles ?? THREAD_MIN_FILES);
    const thread = large ? PrepareThread.start(this.o.redactor) : null;
    const secretsAtStart = this.o.redactor.secretCount;
    // A large refresh looks documents up in a set of the stored ones (a stale set is safe: insertDocs looks again).
    const known = large ? await this.store.read(() => this.store.docKeys()) : null;
    const stored = (path: string, hash: string): boolean => (known !== null ? known.has(docKey(path, hash)) : this.store.hasDoc(path, hash));
    /** Files read, in read order, not yet taken into the batch (a text's job may still be in the thread). */
    const slots: { path: string; st: Stats; r: ReadOutcome; job: PrepareJob | null; k: number }[] = [];
    let head = 0;
    let job: PrepareJob | null = null;
    const inFlight: PrepareJob[] = [];
    const take = (path: string, st: Stats, r: ReadOutcome, prepared: PreparedText | null, textOf: () => string): void => {
      if (r.kind === "text") {
        let hash: string;
        let doc: DocInput | null;
        let chunks: number;
        let length: number;
        if (prepared !== null && this.o.redactor.secretCount === secretsAtStart) {
          this.preparedInThread++;
          hash = prepared.hash;
          length = prepared.length;
          doc = stored(path, hash) ? null : prepared.doc;
          chunks = prepared.doc.starts.length;
        } else {
          const text = redactKeepingLines(this.o.redactor, textOf());
          hash = hashText(text);
          length = text.length;
          doc = stored(path, hash) ? null : prepareDoc(path, hash, text);
          chunks = doc?.starts.length ?? chunkText(path, text).starts.length;
        }
        if (doc !== null) {
          batch.push(doc);
          known?.add(docKey(path, hash));
        }
        pending.push([path, { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, state: "held", hash, chunks }]);
        batchBytes += length;
      } else if (r.kind === "skipped") {
        if (r.reason === "vanished") {
          // Gone between the listing and the read.
          next.delete(path);
          if (old.files.get(path)?.state === "held") removed++;
        } else {
          skipped++;
          pending.push([path, statEntry(st, r.reason)]);
        }
      } else if (r.kind === "refused") {
        refused.push(path);
        pending.push([path, statEntry(st, "refused")]);
      }
    };
    /** Takes the slots whose texts are prepared, in order, up to the first still in the thread. */
    const takeReady = (): void => {
      for (; head < slots.length; head++) {
        const s = slots[head] as (typeof slots)[number];
        const j = s.job;
        if (j !== null && j.result === null) break;
        take(s.path, s.st, s.r, j === null ? null : (j.result?.[s.k] ?? null), () => decodeText((j as PrepareJob).bytesOf(s.k)));
      }
      if (head === slots.length) {
        slots.length = 0;
        head = 0;
      }
    };
    const send = (): void => {
      if (job === null || thread === null) return;
      thread.submit(job);
      inFlight.push(job);
      job = null;
    };
    /** Waits for every job handed over and takes all it read. */
    const drain = async (): Promise<void> => {
      send();
      for (const j of inFlight.splice(0)) await j.promise;
      takeReady();
    };
    const commit = async (): Promise<void> => {
      scan.flushLog();
      // A search's check that found nothing changed leaves the manifest as it is (writing it would cost more than the check).
      if (kind === "search" && batch.length === 0 && pending.length === 0 && left === 0 && slots.length === head && unchanged()) {
        wroteManifest = true;
        return;
      }
      let overheadMs = 0;
      if (batch.length > 0) {
        const docs = batch;
        await this.store.write((s) => Store.insertDocs(s, docs));
        overheadMs += this.store.lastStampMs;
      }
      for (const [p, e] of pending) next.set(p, e);
      batch = [];
      pending = [];
      batchBytes = 0;
      batchStarted = performance.now();
      const untaken = slots.length - head;
      const tm = performance.now();
      this.writeManifestNow(next, added, over, left > 0 ? left + untaken : remaining + untaken);
      wroteManifest = true;
      overheadMs += performance.now() - tm;
      if (this.o.batchMs === undefined) batchMs = Math.max(1000, 25 * overheadMs);
    };
    try {
      for (let i = 0; i < toRead.length; i++) {
        if (o.signal?.aborted) throw new IndexError("aborted", "the index update was cancelled");
        if (this.clock() - started >= o.budgetMs && i > 0) {
          left = toRead.length - i;
          break;
        }
        const { path, st } = toRead[i] as { path: string; st: Stats };
        const r0 = readThroughGuard(scan, path, lim.maxFileBytes, this.scratch, thread !== null);
        const r = r0 instanceof Promise ? await r0 : r0;
        if (r.kind === "stop") {
          stop = r.reason;
          left = toRead.length - i;
          break;
        }
        read++;
        if (thread === null) take(path, st, r, null, () => (r as { text: string }).text);
        else if (r.kind === "text") {
          if (job !== null && !job.fits(r.bytes.length)) send();
          job ??= new PrepareJob(Math.max(JOB_BYTES * 2, r.bytes.length));
          slots.push({ path, st, r, job, k: job.add(path, r.bytes) });
          while (inFlight.length > 0 && (inFlight[0] as PrepareJob).result !== null) inFlight.shift();
          if (job.used >= JOB_BYTES) {
            // The thread has enough waiting: this thread prepares the job itself (when takeReady reaches it),
            // so both threads stay busy. Too far ahead of the thread, it waits for the oldest job.
            if (inFlight.length < JOBS_IN_FLIGHT) send();
            else {
              job.result = new Array<PreparedText | null>(job.files.length).fill(null);
              job = null;
              if (slots.length - head > STOLEN_FILES_AHEAD) await (inFlight[0] as PrepareJob).promise;
            }
          }
          takeReady();
        } else {
          slots.push({ path, st, r, job: null, k: 0 });
          takeReady();
        }
        remaining = toRead.length - i - 1;
        o.onProgress?.({ done: read, total: toRead.length });
        if (batchBytes >= 64 * 1024 * 1024 || performance.now() - batchStarted >= batchMs) await commit();
      }
      await drain();
      await commit();
    } finally {
      scan.close();
      thread?.close();
    }
    if (!wroteManifest) this.writeManifestNow(next, added, over, left);
    let files = 0;
    for (const e of next.values()) if (e.state === "held") files++;
    const report: RefreshReport = {
      root: this.root,
      files,
      read,
      removed,
      skipped,
      refused,
      left,
      more: over,
      elapsed_ms: Math.round(performance.now() - t0),
      busy: false,
      ...(stop !== null ? { error: `stopped by the guard's read caps (${stop}); the rest is read later` } : {}),
    };
    if (kind === "update" || read > 0 || removed > 0) this.o.record?.(recordOf(report, t0));
    return report;
  }

  private writeManifestNow(files: ReadonlyMap<string, Entry>, added: readonly string[], over: boolean, left: number): void {
    const m: Manifest = { root: this.root, generation: this.store.generation, updated: this.clock(), added, over, left, files };
    try {
      writeManifest(this.manifestPath, m);
    } catch (e) {
      throw storageError(e, "cannot write the index's manifest");
    }
    this.manifest = m;
    this.manifestId = statId(this.manifestPath);
  }

  /** Ranks chunks, keeps those of files this tree holds as stored (under `prefix`), reads each hit again. */
  private async rankAndRead(query: string, limit: number, prefix: string | null, actor: string, m: Manifest): Promise<{ hits: IndexHit[]; dropped: string[] }> {
    const words = queryWords(query);
    const hits: IndexHit[] = [];
    const dropped: string[] = [];
    if (words.length === 0) return { hits, dropped };
    const match = words.map((w) => `"${w.replaceAll('"', '""')}"`).join(" OR ");
    const want = new Set(words);
    const texts = new Map<string, string[] | null>();
    const scan = this.o.guard.scan({ actor, withoutAsking: true });
    const page = Math.max(32, limit * 4);
    try {
      for (let offset = 0; hits.length < limit; offset += page) {
        const rows = await this.store.read(() => this.store.rank(match, page, offset));
        for (const row of rows) {
          if (hits.length >= limit) break;
          const docId = Math.floor(row.rowid / CHUNKS_PER_DOC);
          const k = row.rowid % CHUNKS_PER_DOC;
          const doc = this.store.doc(docId);
          if (doc === null) continue;
          const e = m.files.get(doc.path);
          if (e === undefined || e.state !== "held" || e.hash !== doc.hash) continue;
          if (prefix !== null && doc.path !== prefix && !doc.path.startsWith(`${prefix}/`)) continue;
          let lines = texts.get(doc.path);
          if (lines === undefined) {
            const r0 = readThroughGuard(scan, doc.path, this.limits.maxFileBytes, this.scratch, true);
            const r = r0 instanceof Promise ? await r0 : r0;
            scan.flushLog();
            if (r.kind === "text") lines = this.shownLines(doc.path, r.bytes);
            else {
              lines = null;
              if (r.kind === "refused") dropped.push(doc.path);
            }
            texts.set(doc.path, lines);
          }
          if (lines === null) continue;
          const start = doc.starts[k] as number;
          const end = Math.min(k + 1 < doc.starts.length ? (doc.starts[k + 1] as number) - 1 : doc.lines, lines.length);
          if (start > lines.length) continue; // the file shrank since: its next refresh reads it again
          hits.push({
            path: doc.path,
            start,
            end,
            first: cut(lines[start - 1] as string, this.limits.maxLineChars),
            lines: bestLines(lines, start, end, want, this.limits.maxLineChars),
            score: Math.round(-row.rank * 10_000) / 10_000,
          });
        }
        if (rows.length < page) break;
      }
    } finally {
      scan.close();
    }
    if (dropped.length > 0) await this.dropRefused(dropped);
    return { hits, dropped };
  }

  /**
   * The lines of a file's text as a hit shows them: redacted, split. The file
   * is read through the guard at every search; only the redaction and the
   * split of the very same text are kept from one search to the next (a few
   * files, compared whole, with the redactor's registered secrets).
   */
  private shownLines(path: string, bytes: Buffer): string[] {
    const key = this.o.redactor.secretCount;
    const hit = this.shown.get(path);
    if (hit !== undefined && hit.secrets === key && hit.bytes.equals(bytes)) {
      this.shown.delete(path);
      this.shown.set(path, hit);
      return hit.lines;
    }
    const lines = textLines(redactKeepingLines(this.o.redactor, decodeText(bytes)));
    // The bytes are a view of the scratch buffer: the kept copy is the file's own.
    this.shown.set(path, { bytes: Buffer.from(bytes), secrets: key, lines });
    if (this.shown.size > 32) this.shown.delete(this.shown.keys().next().value as string);
    return lines;
  }

  /** Files the guard refused at search time leave the index (under the tree's lock; without it, the next search drops them again). */
  private async dropRefused(paths: readonly string[]): Promise<void> {
    const lock = await FileLock.acquire(this.treeLockPath, "ex", Math.min(this.limits.lockWaitMs, 2000));
    if (lock === null) return;
    try {
      const m = this.currentManifest();
      const files = new Map(m.files);
      for (const p of paths) {
        const e = files.get(p);
        if (e !== undefined) files.set(p, { ...e, state: "refused", hash: "", chunks: 0 });
      }
      this.writeManifestNow(files, m.added, m.over, m.left);
      this.o.record?.({ root: this.root, files: [...files.values()].filter((e) => e.state === "held").length, read: 0, removed: paths.length, skipped: 0, refused: [...paths], left: m.left, more: m.over, elapsed_ms: 0 });
    } finally {
      lock.release();
    }
  }

  /** gc under the collection lock: gone trees' manifests, then documents unnamed for the collection's age. */
  private async collect(): Promise<GcReport> {
    const lock = await FileLock.acquire(this.gcLockPath, "ex", this.limits.lockWaitMs);
    if (lock === null) return { trees: [], docs: 0, chunks: 0, busy: true };
    try {
      await this.store.ensure();
      const dir = join(this.paths.indexDir, "trees");
      const gone: string[] = [];
      const named = new Set<string>();
      let names: string[] = [];
      try {
        names = readdirSync(dir).filter((f) => f.endsWith(".manifest"));
      } catch {
        // no trees
      }
      for (const f of names) {
        const p = join(dir, f);
        const m = readManifest(p);
        const live = m !== null && m !== "damaged" && m.generation === this.store.generation && this.isLiveTree(m.root);
        if (!live) {
          if (m !== null && m !== "damaged" && !this.isLiveTree(m.root)) gone.push(m.root);
          const treeLock = FileLock.tryAcquire(p.replace(/\.manifest$/, ".lock"), "ex");
          if (treeLock === null) continue; // being refreshed right now: not gone
          try {
            rmSync(p, { force: true });
            rmSync(p.replace(/\.manifest$/, ".lock"), { force: true });
          } finally {
            treeLock.release();
          }
          continue;
        }
        for (const [path, e] of m.files) if (e.state === "held") named.add(docKey(path, e.hash));
      }
      const now = this.clock();
      const todo = await this.store.read((s) => Store.collect(s, named, now, this.limits.gcAfterMs, true));
      const out = todo.changes === 0 ? todo : await this.store.write((s) => Store.collect(s, named, now, this.limits.gcAfterMs, false));
      return { trees: gone.sort(), docs: out.removed, chunks: out.chunks, busy: false };
    } finally {
      lock.release();
    }
  }

  /** Whether a manifest's root is still a working tree of this repository. */
  private isLiveTree(root: string): boolean {
    if (root === this.root) return true;
    if (!existsSync(root)) return false;
    if (this.paths.commonDir === null) return true;
    return gitDirsOf(root)?.commonDir === this.paths.commonDir;
  }
}

const HELD = new WeakMap<Manifest, number>();

/** How many files a manifest holds (counted once per manifest). */
function heldCount(m: Manifest): number {
  let n = HELD.get(m);
  if (n === undefined) {
    n = 0;
    for (const e of m.files.values()) if (e.state === "held") n++;
    HELD.set(m, n);
  }
  return n;
}

/** A file's identity on disk as a string, or null when it is missing. */
function statId(path: string): string | null {
  try {
    const st = lstatSync(path);
    return `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  } catch {
    return null;
  }
}

function recordOf(r: RefreshReport, t0: number): IndexUpdateRecord {
  return {
    root: r.root,
    files: r.files,
    read: r.read,
    removed: r.removed,
    skipped: r.skipped,
    refused: r.refused,
    left: r.left,
    more: r.more,
    elapsed_ms: r.elapsed_ms || Math.round(performance.now() - t0),
  };
}

function statEntry(st: Stats, state: EntryState): Entry {
  return { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, state, hash: "", chunks: 0 };
}

/** A path filter as given ("docs", "./docs/", ".") to a root-relative prefix, or null for the whole tree. */
export function normalizePrefix(p: string | null): string | null {
  if (p === null) return null;
  const parts = p.split("/").filter((x) => x !== "" && x !== ".");
  return parts.length === 0 ? null : parts.join("/");
}

function cut(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

/** The (up to) three lines of [start, end] holding the most distinct query words (ties: the earlier), in line order. */
export function bestLines(lines: readonly string[], start: number, end: number, want: ReadonlySet<string>, maxChars: number): { line: number; text: string }[] {
  const scored: { line: number; n: number }[] = [];
  // When every wanted word is ASCII, a line holds one only if its lower-cased text contains it (a word's letters are
  // ASCII folded, and lower-casing the rest of the line cannot break that run): the other lines are not split.
  let ascii: string[] | null = [];
  for (const w of want) {
    if (!/^[\x00-\x7f]*$/.test(w)) {
      ascii = null;
      break;
    }
    ascii.push(w);
  }
  for (let k = start; k <= end; k++) {
    const line = lines[k - 1] as string;
    if (ascii !== null) {
      const low = line.toLowerCase();
      let may = false;
      for (const w of ascii) if (low.includes(w)) may = true;
      if (!may) continue;
    }
    const seen = new Set<string>();
    forEachWord(line, (w) => {
      if (want.has(w)) seen.add(w);
    });
    if (seen.size > 0) scored.push({ line: k, n: seen.size });
  }
  scored.sort((a, b) => b.n - a.n || a.line - b.line);
  return scored
    .slice(0, 3)
    .sort((a, b) => a.line - b.line)
    .map((s) => ({ line: s.line, text: cut(lines[s.line - 1] as string, maxChars) }));
}

export { chunkText, hashText, prepareDoc } from "./prepare.js";
