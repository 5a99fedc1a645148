// Helpers for the session log's tests: temp data dirs, an independent line encoder, a failing fs seam.

import { mkdirSync, mkdtempSync, rmSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { crc32 } from "node:zlib";
import type { ExecutionContext } from "ava";
import { createSessionLog, nodeLogFs, sessionLogPath, type FlockOp, type LogFs } from "../../../host/log/index.js";

/** The repository root (tests run compiled, from dist/test/host/log/). */
export const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

/** A fresh data directory, removed when the test ends. */
export function tempDataDir(t: ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), "nodwyn-log-test-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A record line built from docs/log-format.md alone, not with the writer's code:
 * the JSON of {seq, ts, session, kind, payload}, then `"crc"` = the CRC-32 of that
 * text in 8 hex digits as the last member, then a newline.
 */
export function docLine(seq: number, kind: string, payload: object, session = "s", ts = "2026-01-02T03:04:05.678Z"): string {
  const body = JSON.stringify({ seq, ts, session, kind, payload });
  const crc = crc32(body).toString(16).padStart(8, "0");
  return body.slice(0, -1) + `,"crc":"${crc}"}\n`;
}

/** A valid log of `n` records as text: session.start, then notes. */
export function docLog(n: number, session = "s"): string {
  let s = docLine(1, "session.start", { version: "0.0.0" }, session);
  for (let i = 2; i <= n; i++) s += docLine(i, "note", { text: `record ${i}` }, session);
  return s;
}

/** Writes `text` (or bytes) as the log of `session` in `dataDir` and returns its path. */
export function putLog(dataDir: string, session: string, content: string | Buffer): string {
  const file = sessionLogPath(session, dataDir);
  mkdirSync(join(dataDir, "sessions"), { recursive: true });
  writeFileSync(file, content);
  return file;
}

/** A log made by the real writer with `n` records in all (session.start + notes); closed. */
export function writtenLog(dataDir: string, session: string, n: number): string {
  const w = createSessionLog(session, { version: "0.0.0", origin: "test" }, { dataDir });
  for (let i = 2; i <= n; i++) w.append("note", { text: `record ${i}` });
  w.close();
  return w.file;
}

/** The bytes of a file. */
export function bytes(file: string): Buffer {
  return readFileSync(file);
}

/** One call the seam saw. */
export interface FsCall {
  readonly op: string;
  readonly fd?: number;
  readonly path?: string;
  readonly arg?: string | number;
}

/** What the failing seam should break. */
export interface Failures {
  /** Fail the nth writeSync call (1-based), counting from when it is set. */
  writeAt?: number;
  /** On that call, write this many bytes first and fail the call after (a short write, then an error). */
  shortWriteBytes?: number;
  /** Fail the nth fdatasyncSync call. */
  fdatasyncAt?: number;
  /** Make ftruncate fail too. */
  ftruncateFails?: boolean;
}

/**
 * The real fs with a record of every call and failures on demand (EIO, ENOSPC),
 * for the writer's poisoning tests.
 */
export class FailingFs implements LogFs {
  readonly calls: FsCall[] = [];
  private writes = 0;
  private syncs = 0;
  private pendingShortFail = false;
  failures: Failures = {};

  set(f: Failures): void {
    this.failures = f;
    this.writes = 0;
    this.syncs = 0;
  }

  count(op: string): number {
    return this.calls.filter((c) => c.op === op).length;
  }

  openSync(path: string, flags: number, mode?: number): number {
    const fd = nodeLogFs.openSync(path, flags, mode);
    this.calls.push({ op: "open", fd, path });
    return fd;
  }
  closeSync(fd: number): void {
    this.calls.push({ op: "close", fd });
    nodeLogFs.closeSync(fd);
  }
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number | null): number {
    this.calls.push({ op: "write", fd, arg: length });
    if (this.pendingShortFail) {
      this.pendingShortFail = false;
      throw errno("ENOSPC", "no space left on device, write");
    }
    this.writes++;
    if (this.failures.writeAt === this.writes) {
      const short = this.failures.shortWriteBytes;
      if (short !== undefined && short > 0 && short < length) {
        this.pendingShortFail = true;
        return nodeLogFs.writeSync(fd, buffer, offset, short, position);
      }
      throw errno("EIO", "i/o error, write");
    }
    return nodeLogFs.writeSync(fd, buffer, offset, length, position);
  }
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number {
    return nodeLogFs.readSync(fd, buffer, offset, length, position);
  }
  fsyncSync(fd: number): void {
    this.calls.push({ op: "fsync", fd });
    nodeLogFs.fsyncSync(fd);
  }
  fdatasyncSync(fd: number): void {
    this.calls.push({ op: "fdatasync", fd });
    this.syncs++;
    if (this.failures.fdatasyncAt === this.syncs) throw errno("EIO", "i/o error, fdatasync");
    nodeLogFs.fdatasyncSync(fd);
  }
  ftruncateSync(fd: number, length: number): void {
    this.calls.push({ op: "ftruncate", fd, arg: length });
    if (this.failures.ftruncateFails) throw errno("EIO", "i/o error, ftruncate");
    nodeLogFs.ftruncateSync(fd, length);
  }
  mkdirSync(path: string, options: { recursive: true; mode: number }): void {
    this.calls.push({ op: "mkdir", path });
    nodeLogFs.mkdirSync(path, options);
  }
  unlinkSync(path: string): void {
    this.calls.push({ op: "unlink", path });
    nodeLogFs.unlinkSync(path);
  }
  flockSync(fd: number, op: FlockOp): void {
    this.calls.push({ op: "flock", fd, arg: op });
    nodeLogFs.flockSync(fd, op);
  }
}

function errno(code: string, message: string): NodeJS.ErrnoException {
  const e = new Error(`${code}: ${message}`) as NodeJS.ErrnoException;
  e.code = code;
  return e;
}

/** A small seeded PRNG (mulberry32), so a failing random test can be re-run with its seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
