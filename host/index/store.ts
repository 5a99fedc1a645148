// The index's SQLite store: documents (a path's chunks under its text's hash) and their words in FTS5, checked whole before use.
//
// Layout of projects/<key>/index (docs/decisions/0017):
//   index.db       SQLite (rollback journal, synchronous NORMAL): meta, doc, words (FTS5)
//   index.sum      what index.db must be: its size and CRC-32 after the last write, or "dirty" during one
//   store.lock     flock: exclusive while a process writes (and stamps index.sum), shared while one verifies
//   trees/         one manifest per working tree (manifest.ts)
//   aside/         damaged files set aside, the newest two sets kept
//
// Nothing here is a source of truth: any damage is detected, the files are set
// aside and an empty store is made (a new generation, which invalidates every
// manifest, so each tree is read again). Damage is found by:
//   - the CRC: index.db must have the size and CRC-32 index.sum records, taken
//     under the exclusive lock after each write; it is verified when a process
//     first uses the store and whenever the file changed since it last looked
//     (a byte flipped anywhere, a truncation, a missing or garbled index.sum);
//   - SQLite itself (SQLITE_CORRUPT, SQLITE_NOTADB) on any statement;
//   - a write that never stamped index.sum clean (a process killed in it):
//     SQLite's journal has rolled it back or it committed; PRAGMA
//     integrity_check and FTS5's integrity-check then decide, and a clean
//     store is stamped again.
// A full disk (SQLITE_FULL, ENOSPC) rolls the write back: the previous store
// still answers, and the caller gets an IndexStorageError.

import Database from "better-sqlite3";
import { createHash, randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from "node:fs";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { FileLock } from "./lock.js";
import { IndexError, IndexStorageError, errCode, isCorrupt, isDiskFull } from "./errors.js";

/** The store's format: a store of another format is set aside and made anew. */
export const STORE_FORMAT = "nodwyn-index-2";

/** Chunk rowids are a document's id times this, plus the chunk's number (a 1 MiB file has fewer chunks). */
export const CHUNKS_PER_DOC = 1 << 20;

/** A document to store: one file's text at one path, cut into chunks. */
export interface DocInput {
  readonly path: string;
  /** Hash of the redacted text. */
  readonly hash: string;
  readonly lines: number;
  /** Each chunk's first line, in order (a chunk ends where the next begins; the last at `lines`). */
  readonly starts: readonly number[];
  /** Each chunk's words as FTS5 text (words.ts wordText): the path's, the first line's, the other lines'. */
  readonly rows: readonly { readonly first: string; readonly body: string }[];
  /** The path's words as FTS5 text. */
  readonly pathWords: string;
}

/** A stored document as a search reads it. */
export interface StoredDoc {
  readonly id: number;
  readonly path: string;
  readonly hash: string;
  readonly lines: number;
  readonly starts: readonly number[];
}

/** One ranked chunk. */
export interface RankedChunk {
  readonly rowid: number;
  /** FTS5's bm25() with the column weights: lower is better (a negated score). */
  readonly rank: number;
}

export interface StoreOptions {
  /** How long to wait for another process's lock on the store. */
  readonly lockWaitMs: number;
  /** The format of what is stored besides the schema (the words, the chunking, the redaction rules): a change rebuilds. */
  readonly fingerprint: string;
  /** Tests: cap the database at this many pages (PRAGMA max_page_count), a full disk that fails every larger write. */
  readonly maxPageCount?: number;
  /** Told when damage was found and the files set aside (why, in a sentence). */
  readonly onDamage?: (why: string) => void;
}

interface Sum {
  readonly state: "clean" | "dirty";
  readonly size: number;
  readonly crc: number;
  readonly generation: string;
}

/** What identifies the bytes of a file on disk cheaply: a change of any of these means it must be verified again. */
interface FileId {
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

function fileId(st: Stats): FileId {
  return { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
}

function sameId(a: FileId | null, b: FileId | null): boolean {
  return a !== null && b !== null && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

/** The store was found damaged during an operation: it has been set aside and made anew; start the operation again. */
export class StoreRebuilt extends Error {
  constructor(why: string) {
    super(`the index was damaged and has been rebuilt (${why})`);
    this.name = "StoreRebuilt";
  }
}

const SCHEMA = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE doc(
  id INTEGER PRIMARY KEY,
  key BLOB NOT NULL UNIQUE,
  path TEXT NOT NULL,
  hash TEXT NOT NULL,
  lines INTEGER NOT NULL,
  starts BLOB NOT NULL,
  unnamed_since INTEGER
);
CREATE VIRTUAL TABLE words USING fts5(path, first, body, content='', contentless_delete=1, tokenize='ascii', detail=full);
INSERT INTO words(words, rank) VALUES('rank', 'bm25(3.0, 3.0, 1.0)');
`;

/** The store of one repository's index. */
export class Store {
  readonly dir: string;
  readonly dbPath: string;
  readonly sumPath: string;
  readonly lockPath: string;
  private db: Database.Database | null = null;
  /** The database file as it was when this process last verified or wrote it. */
  private verified: FileId | null = null;
  private gen = "";
  private docCache = new Map<number, StoredDoc | null>();
  private stmts: ReturnType<Store["prepare"]> | null = null;
  /** How long the last write's stamp took (its CRC of the whole file), in ms: what a refresh spaces its commits by. */
  lastStampMs = 0;

  constructor(
    dir: string,
    private readonly o: StoreOptions,
  ) {
    this.dir = dir;
    this.dbPath = join(dir, "index.db");
    this.sumPath = join(dir, "index.sum");
    this.lockPath = join(dir, "store.lock");
  }

  /** The generation of the store: a new one each time it is made, so manifests of an older one are known stale. */
  get generation(): string {
    return this.gen;
  }

  /**
   * Makes the store usable: verifies it when this process has not, or when its
   * file changed since; a damaged store is set aside and made anew. Returns
   * whether it was made anew (every tree must then be read again).
   */
  async ensure(): Promise<boolean> {
    const now = this.statDb();
    if (this.db !== null && sameId(this.verified, now)) return false;
    mkdirSafe(this.dir);
    const lock = await this.lock("sh");
    let outcome: "ok" | "dirty" | "damaged" | "missing";
    let why = "";
    try {
      ({ outcome, why } = this.verifyHeld());
    } finally {
      lock.release();
    }
    if (outcome === "ok") return false;
    // Repair needs the exclusive lock; another process may have repaired it meanwhile, so look again under it.
    const ex = await this.lock("ex");
    try {
      const again = this.verifyHeld();
      if (again.outcome === "ok") return true;
      if (again.outcome === "dirty") {
        const r = this.recoverHeld();
        if (r === null) return false;
        why = r;
      } else why = again.why;
      if (again.outcome !== "missing") this.setAsideHeld(why);
      this.createHeld();
      return true;
    } finally {
      ex.release();
    }
  }

  private statDb(): FileId | null {
    try {
      return fileId(statSync(this.dbPath));
    } catch {
      return null;
    }
  }

  private async lock(mode: "ex" | "sh"): Promise<FileLock> {
    let l: FileLock | null;
    try {
      l = await FileLock.acquire(this.lockPath, mode, this.o.lockWaitMs);
    } catch (e) {
      throw storageError(e, "cannot lock the index");
    }
    if (l === null) throw new IndexError("index-busy", `another process has held the index at ${this.dir} for more than ${Math.round(this.o.lockWaitMs / 1000)} s`);
    return l;
  }

  /** Under a lock: whether the database is what index.sum says, and if so opens it. */
  private verifyHeld(): { outcome: "ok" | "dirty" | "damaged" | "missing"; why: string } {
    const st = this.statDb();
    if (st === null) {
      this.closeDb();
      return existsSync(this.sumPath) ? { outcome: "damaged", why: "index.db is missing" } : { outcome: "missing", why: "" };
    }
    const sum = readSum(this.sumPath);
    if (sum === null) return { outcome: "damaged", why: "index.sum is missing or unreadable" };
    if (sum.state === "dirty" || existsSync(`${this.dbPath}-journal`)) return { outcome: "dirty", why: "a write did not finish" };
    if (sum.size !== st.size) return { outcome: "damaged", why: `index.db has ${st.size} bytes, not the ${sum.size} written` };
    let crc: number;
    try {
      crc = crcOfFile(this.dbPath);
    } catch (e) {
      return { outcome: "damaged", why: `index.db cannot be read (${errCode(e) ?? String(e)})` };
    }
    if (crc !== sum.crc) return { outcome: "damaged", why: "index.db does not match its checksum" };
    try {
      this.openDb(sum.generation);
    } catch (e) {
      this.closeDb();
      return { outcome: "damaged", why: e instanceof Error ? e.message : String(e) };
    }
    this.verified = st;
    return { outcome: "ok", why: "" };
  }

  /** Under the exclusive lock, after a write that did not finish: null when the store is sound again, else why not. */
  private recoverHeld(): string | null {
    const sum = readSum(this.sumPath);
    try {
      this.closeDb();
      // Opening and reading rolls a hot journal back (or finds the write committed).
      const db = this.connect();
      const ok = db.pragma("integrity_check", { simple: true });
      if (ok !== "ok") throw new Error(`integrity_check: ${String(ok)}`);
      db.exec("INSERT INTO words(words) VALUES('integrity-check')");
      const gen = metaOf(db, "generation");
      db.close();
      if (sum !== null && gen !== sum.generation) throw new Error("its generation is not the one index.sum names");
      this.stamp(gen);
      this.openDb(gen);
      this.verified = this.statDb();
      return null;
    } catch (e) {
      this.closeDb();
      return `after a write that did not finish: ${e instanceof Error ? e.message : String(e)}`;
    }
  }

  private connect(): Database.Database {
    const db = new Database(this.dbPath, { fileMustExist: true });
    db.pragma("journal_mode = DELETE");
    db.pragma("synchronous = NORMAL");
    db.pragma("busy_timeout = 5000");
    // A build inserts megabytes of postings in one transaction: 32 MB of page cache keeps FTS5's merges in memory.
    db.pragma("cache_size = -32768");
    if (this.o.maxPageCount !== undefined) db.pragma(`max_page_count = ${this.o.maxPageCount}`);
    return db;
  }

  private openDb(generation: string): void {
    const st = this.statDb();
    if (this.db !== null && sameId(this.verified, st) && this.gen === generation) return;
    this.closeDb();
    const db = this.connect();
    try {
      const format = metaOf(db, "format");
      if (format !== STORE_FORMAT) throw new Error(`index.db is of format ${format}, not ${STORE_FORMAT}`);
      const fp = metaOf(db, "fingerprint");
      if (fp !== this.o.fingerprint) throw new Error("index.db was made by another version of the words, chunks or redaction");
      const gen = metaOf(db, "generation");
      if (gen !== generation) throw new Error("index.db's generation is not the one index.sum names");
    } catch (e) {
      db.close();
      throw e;
    }
    this.db = db;
    this.gen = generation;
    this.docCache.clear();
    this.stmts = this.prepare(db);
  }

  private closeDb(): void {
    this.stmts = null;
    this.docCache.clear();
    if (this.db !== null) {
      try {
        this.db.close();
      } catch {
        // a damaged file may fail to close cleanly: it is being set aside
      }
    }
    this.db = null;
    this.verified = null;
  }

  /** Under the exclusive lock: moves the store's files to aside/ (the newest two sets are kept). */
  private setAsideHeld(why: string): void {
    this.closeDb();
    const aside = join(this.dir, "aside");
    const stamp = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(3).toString("hex")}`;
    const to = join(aside, stamp);
    try {
      mkdirSync(to, { recursive: true, mode: 0o700 });
      for (const f of ["index.db", "index.db-journal", "index.sum"]) {
        const p = join(this.dir, f);
        if (existsSync(p)) renameSync(p, join(to, f));
      }
      writeFileSync(join(to, "why.txt"), `${why}\n`);
      const sets = readdirSync(aside).sort();
      for (const old of sets.slice(0, Math.max(0, sets.length - 2))) rmSync(join(aside, old), { recursive: true, force: true });
    } catch (e) {
      // Setting aside failed (a full disk): remove instead; the files are derived.
      for (const f of ["index.db", "index.db-journal", "index.sum"]) rmSync(join(this.dir, f), { force: true });
      if (!isDiskFull(e)) throw storageError(e, "cannot set the damaged index aside");
    }
    this.o.onDamage?.(why);
  }

  /** Under the exclusive lock: an empty store of a new generation, made under a temporary name and renamed into place. */
  private createHeld(): void {
    this.closeDb();
    const gen = randomBytes(8).toString("hex");
    const tmp = `${this.dbPath}.new-${process.pid}`;
    rmSync(tmp, { force: true });
    rmSync(`${tmp}-journal`, { force: true });
    try {
      const db = new Database(tmp);
      try {
        db.pragma("journal_mode = DELETE");
        db.exec(SCHEMA);
        const put = db.prepare("INSERT INTO meta(key, value) VALUES (?, ?)");
        put.run("format", STORE_FORMAT);
        put.run("fingerprint", this.o.fingerprint);
        put.run("generation", gen);
      } finally {
        db.close();
      }
      rmSync(`${this.dbPath}-journal`, { force: true });
      renameSync(tmp, this.dbPath);
      this.stamp(gen);
    } catch (e) {
      rmSync(tmp, { force: true });
      throw storageError(e, "cannot create the index");
    }
    this.openDb(gen);
    this.verified = this.statDb();
  }

  /** Records the database's size and CRC as clean (under the exclusive lock). */
  private stamp(generation: string): void {
    const st = statSync(this.dbPath);
    writeSum(this.sumPath, { state: "clean", size: st.size, crc: crcOfFile(this.dbPath), generation });
  }

  private prepare(db: Database.Database) {
    return {
      findDoc: db.prepare<[Buffer, string, string], { id: number }>("SELECT id FROM doc WHERE key = ? AND path = ? AND hash = ?"),
      getDoc: db.prepare<[number], { id: number; path: string; hash: string; lines: number; starts: Buffer }>("SELECT id, path, hash, lines, starts FROM doc WHERE id = ?"),
      insDoc: db.prepare("INSERT INTO doc(key, path, hash, lines, starts) VALUES (?, ?, ?, ?, ?)"),
      insWords: db.prepare("INSERT INTO words(rowid, path, first, body) VALUES (?, ?, ?, ?)"),
      named: db.prepare("UPDATE doc SET unnamed_since = NULL WHERE id = ? AND unnamed_since IS NOT NULL"),
      allDocs: db.prepare<[], { id: number; path: string; hash: string; unnamed_since: number | null; n: number }>(
        "SELECT id, path, hash, unnamed_since, length(starts) / 4 AS n FROM doc",
      ),
      unnamed: db.prepare("UPDATE doc SET unnamed_since = ? WHERE id = ? AND unnamed_since IS NULL"),
      delDoc: db.prepare("DELETE FROM doc WHERE id = ?"),
      delWords: db.prepare("DELETE FROM words WHERE rowid >= ? AND rowid < ?"),
      counts: db.prepare<[], { docs: number }>("SELECT count(*) AS docs FROM doc"),
      rank: db.prepare<[string, number, number], RankedChunk>("SELECT rowid, rank FROM words WHERE words MATCH ? ORDER BY rank, rowid LIMIT ? OFFSET ?"),
    };
  }

  /** Runs a read against the verified store; SQLite's word that it is damaged sets it aside and throws StoreRebuilt. */
  async read<T>(fn: (s: NonNullable<Store["stmts"]>, db: Database.Database) => T): Promise<T> {
    if (this.db === null || this.stmts === null) throw new Error("the store is not open: call ensure() first");
    try {
      return fn(this.stmts, this.db);
    } catch (e) {
      if (isCorrupt(e)) await this.rebuildAfter(`SQLite: ${errCode(e)}`);
      throw e;
    }
  }

  /** Sets a store SQLite found damaged aside, makes it anew and throws StoreRebuilt. */
  private async rebuildAfter(why: string): Promise<never> {
    const ex = await this.lock("ex");
    try {
      this.setAsideHeld(why);
      this.createHeld();
    } finally {
      ex.release();
    }
    throw new StoreRebuilt(why);
  }

  /**
   * Runs `fn` in one write transaction (all of it or nothing) under the
   * exclusive lock, then stamps index.sum. A full disk rolls it back and
   * throws IndexStorageError; the store is as it was.
   */
  async write<T>(fn: (s: NonNullable<Store["stmts"]>, db: Database.Database) => T): Promise<T> {
    const before = this.gen;
    await this.ensure();
    if (before !== "" && this.gen !== before) throw new StoreRebuilt("the index was made anew meanwhile");
    const lock = await this.lock("ex");
    try {
      // Another process may have written since this one verified: it must still be what index.sum says.
      if (!sameId(this.verified, this.statDb())) {
        const v = this.verifyHeld();
        if (v.outcome !== "ok") {
          lock.release();
          await this.ensure();
          throw new StoreRebuilt(v.why || "the index changed");
        }
      }
      const db = this.db as Database.Database;
      const stmts = this.stmts as NonNullable<Store["stmts"]>;
      try {
        writeSum(this.sumPath, { state: "dirty", size: 0, crc: 0, generation: this.gen });
      } catch (e) {
        throw storageError(e, "cannot write the index");
      }
      let out: T;
      try {
        out = db.transaction(() => fn(stmts, db)).immediate();
      } catch (e) {
        // The transaction is rolled back; the file is as before it, and is stamped clean again if it can be.
        this.docCache.clear();
        try {
          if (db.inTransaction) db.exec("ROLLBACK");
        } catch {
          // already rolled back
        }
        try {
          this.stamp(this.gen);
          this.verified = this.statDb();
        } catch {
          // left dirty: the next use recovers it (integrity check) or sets it aside
        }
        if (isCorrupt(e)) {
          lock.release();
          await this.rebuildAfter(`SQLite: ${errCode(e)}`);
        }
        if (isDiskFull(e)) throw storageError(e, "cannot write the index");
        throw e;
      }
      this.docCache.clear();
      const ts = performance.now();
      try {
        this.stamp(this.gen);
      } catch (e) {
        throw storageError(e, "cannot record the index's checksum");
      }
      this.lastStampMs = performance.now() - ts;
      this.verified = this.statDb();
      return out;
    } finally {
      if (lock.held) lock.release();
    }
  }

  /** Inserts documents not stored yet (a path and hash already there is kept): inside write(). */
  static insertDocs(s: NonNullable<Store["stmts"]>, docs: readonly DocInput[]): number {
    let added = 0;
    for (const d of docs) {
      const key = docKeyBytes(d.path, d.hash);
      if (s.findDoc.get(key, d.path, d.hash) !== undefined) continue;
      const starts = Buffer.alloc(d.starts.length * 4);
      d.starts.forEach((v, i) => starts.writeUInt32LE(v, i * 4));
      const id = Number(s.insDoc.run(key, d.path, d.hash, d.lines, starts).lastInsertRowid);
      const base = id * CHUNKS_PER_DOC;
      d.rows.forEach((r, k) => s.insWords.run(base + k, d.pathWords, r.first, r.body));
      added++;
    }
    return added;
  }

  /** The keys (docKey) of every stored document (a read): what a large refresh looks documents up in. */
  docKeys(): Set<string> {
    const keys = new Set<string>();
    for (const d of (this.stmts as NonNullable<Store["stmts"]>).allDocs.iterate()) keys.add(docKey(d.path, d.hash));
    return keys;
  }

  /** Whether a document is stored (a read). */
  hasDoc(path: string, hash: string): boolean {
    return this.stmts?.findDoc.get(docKeyBytes(path, hash), path, hash) !== undefined;
  }

  /** A stored document by id, or null (cached until the store changes). */
  doc(id: number): StoredDoc | null {
    const s = this.stmts;
    if (s === null) return null;
    const hit = this.docCache.get(id);
    if (hit !== undefined) return hit;
    const r = s.getDoc.get(id);
    let d: StoredDoc | null = null;
    if (r !== undefined) {
      const starts: number[] = [];
      for (let i = 0; i + 4 <= r.starts.length; i += 4) starts.push(r.starts.readUInt32LE(i));
      d = { id: r.id, path: r.path, hash: r.hash, lines: r.lines, starts };
    }
    if (this.docCache.size > 50_000) this.docCache.clear();
    this.docCache.set(id, d);
    return d;
  }

  /** The chunks matching an FTS5 query, best first (ties by rowid), `limit` of them from `offset`. */
  rank(match: string, limit: number, offset: number): RankedChunk[] {
    return (this.stmts as NonNullable<Store["stmts"]>).rank.all(match, limit, offset);
  }

  /** Documents and chunks stored, and the size of the store's files. */
  sizes(): { docs: number; bytes: number } {
    const docs = this.stmts?.counts.get()?.docs ?? 0;
    return { docs, bytes: dirBytes(this.dir) };
  }

  /**
   * The collection of unnamed documents: those `named` does not hold are
   * marked unnamed since `now` (once), and removed once unnamed for `afterMs`;
   * named ones are unmarked. Inside write(); with `dryRun`, in a read, only
   * counts the changes it would make. Returns how many were removed.
   */
  static collect(s: NonNullable<Store["stmts"]>, named: ReadonlySet<string>, now: number, afterMs: number, dryRun = false): { removed: number; chunks: number; changes: number } {
    let removed = 0;
    let chunks = 0;
    let changes = 0;
    for (const d of s.allDocs.all()) {
      if (named.has(docKey(d.path, d.hash))) {
        if (d.unnamed_since !== null) {
          changes++;
          if (!dryRun) s.named.run(d.id);
        }
        continue;
      }
      if (d.unnamed_since === null) {
        changes++;
        if (!dryRun) s.unnamed.run(now, d.id);
      } else if (now - d.unnamed_since >= afterMs) {
        changes++;
        if (!dryRun) {
          s.delWords.run(d.id * CHUNKS_PER_DOC, (d.id + 1) * CHUNKS_PER_DOC);
          s.delDoc.run(d.id);
        }
        removed++;
        chunks += d.n;
      }
    }
    return { removed: dryRun ? 0 : removed, chunks: dryRun ? 0 : chunks, changes };
  }

  /** Forgets cached documents (after a write that removed some). */
  forgetDocs(): void {
    this.docCache.clear();
  }

  /** Every row of the store as text, for tests that compare two stores (words through fts5vocab). */
  dump(): { docs: string[]; words: string[] } {
    const db = this.db as Database.Database;
    const docs = db.prepare<[], { path: string; hash: string; lines: number; starts: Buffer }>("SELECT path, hash, lines, starts FROM doc ORDER BY path, hash").all();
    db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocab USING fts5vocab(main, words, 'instance')");
    const ids = db.prepare<[], { id: number; path: string; hash: string }>("SELECT id, path, hash FROM doc").all();
    const byId = new Map(ids.map((r) => [r.id, `${r.path}@${r.hash}`]));
    const words = db
      .prepare<[], { term: string; doc: number; col: string; n: number }>("SELECT term, doc, col, count(*) AS n FROM temp.vocab GROUP BY term, doc, col")
      .all()
      .map((r) => `${byId.get(Math.floor(r.doc / CHUNKS_PER_DOC))}#${r.doc % CHUNKS_PER_DOC} ${r.col} ${r.term} ${r.n}`)
      .sort();
    return { docs: docs.map((d) => `${d.path}@${d.hash} ${d.lines} ${d.starts.toString("hex")}`), words };
  }

  /** Documents, their chunks, and the FTS5 rows (one per chunk when nothing is lost or doubled). */
  counts(): { docs: number; chunks: number; rows: number } {
    const db = this.db as Database.Database;
    const d = db.prepare<[], { docs: number; chunks: number | null }>("SELECT count(*) AS docs, sum(length(starts) / 4) AS chunks FROM doc").get() as { docs: number; chunks: number | null };
    const r = db.prepare<[], { rows: number }>("SELECT count(*) AS rows FROM words_docsize").get() as { rows: number };
    return { docs: d.docs, chunks: d.chunks ?? 0, rows: r.rows };
  }

  /** PRAGMA integrity_check and FTS5's integrity-check: "ok", or what they found (tests and tools). */
  integrity(): string {
    const db = this.db;
    if (db === null) return "not open";
    try {
      const r = db.pragma("integrity_check", { simple: true });
      if (r !== "ok") return String(r);
      db.exec("INSERT INTO words(words) VALUES('integrity-check')");
      return "ok";
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }

  close(): void {
    this.closeDb();
  }
}

/**
 * A document's key in the store: 12 bytes of SHA-256 of its path and hash (a
 * unique index over the key is a sixth of one over both strings; a lookup
 * still compares the strings).
 */
export function docKeyBytes(path: string, hash: string): Buffer {
  return createHash("sha256").update(path).update("\u0000").update(hash).digest().subarray(0, 12);
}

/** The key of a document in a set of named ones. */
export function docKey(path: string, hash: string): string {
  return `${path}\u0000${hash}`;
}

function metaOf(db: Database.Database, key: string): string {
  const r = db.prepare<[string], { value: string }>("SELECT value FROM meta WHERE key = ?").get(key);
  if (r === undefined) throw new Error(`index.db has no ${key}`);
  return r.value;
}

function readSum(path: string): Sum | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return null;
  }
  try {
    const o = JSON.parse(text) as Partial<Sum> & { v?: number };
    if (o.v !== 1 || (o.state !== "clean" && o.state !== "dirty") || typeof o.size !== "number" || typeof o.crc !== "number" || typeof o.generation !== "string") return null;
    return { state: o.state, size: o.size, crc: o.crc, generation: o.generation };
  } catch {
    return null;
  }
}

/** Writes index.sum whole: a temporary file renamed into place. */
function writeSum(path: string, s: Sum): void {
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, `${JSON.stringify({ v: 1, ...s })}\n`, { mode: 0o600 });
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** CRC-32 of a whole file, read a megabyte at a time. */
export function crcOfFile(path: string): number {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    let crc = 0;
    let pos = 0;
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n === 0) break;
      crc = crc32(buf.subarray(0, n), crc);
      pos += n;
    }
    return crc;
  } finally {
    closeSync(fd);
  }
}

function dirBytes(dir: string): number {
  let n = 0;
  const walk = (d: string): void => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const name of names) {
      const p = join(d, name);
      try {
        const st = statSync(p);
        if (st.isDirectory()) walk(p);
        else n += st.size;
      } catch {
        // gone meanwhile
      }
    }
  };
  walk(dir);
  return n;
}

function mkdirSafe(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    throw storageError(e, `cannot create ${dir}`);
  }
}

/** An IndexStorageError for a failure of the store's files, saying what to do. */
export function storageError(e: unknown, what: string): IndexStorageError {
  const code = errCode(e);
  if (isDiskFull(e)) {
    return new IndexStorageError(`${what}: the disk is full (${code}); the index as it was still answers: free some space and run nodwyn index update`, code);
  }
  const msg = e instanceof Error ? e.message : String(e);
  return new IndexStorageError(`${what}: ${msg}`, code);
}
