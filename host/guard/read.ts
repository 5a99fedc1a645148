// Opening, examining and reading a file the guard admitted: the steps every guarded read ends in.
//
// Pure (no guard state), so they run in the guard's own thread and in a
// search's reading thread (host/search/grep-worker.ts), which opens, examines
// and reads the files whose open the guard deferred (GuardScan.openFile's
// `defer`) and reports what it found for the guard to decide in the main
// thread (GuardScan.settle). Reads are positional (pread from offset 0).

import { constants as C, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { GuardFileError } from "./errors.js";

/** How every file is opened: never through a final link, never blocking (a FIFO swapped in), never as a terminal. */
export const OPEN_FILE = C.O_RDONLY | (C.O_NOFOLLOW ?? 0) | (C.O_NONBLOCK ?? 0) | (C.O_NOCTTY ?? 0);
export const OPEN_DIR = C.O_RDONLY | (C.O_NOFOLLOW ?? 0) | (C.O_DIRECTORY ?? 0) | (C.O_NONBLOCK ?? 0);

/** The open of a deferred file failed: the operating system's code, for the guard to judge (settle). */
export interface OpenFailed {
  readonly kind: "open-failed";
  readonly errno: string | undefined;
}

/** A deferred file the guard refused by its name: the reader opened nothing (settle logs the refusal, in order). */
export interface NotOpened {
  readonly kind: "not-opened";
}

/** What a reader found about a file whose open the guard deferred. */
export type Found = Examined | OpenFailed | NotOpened;

/**
 * Opens a file the guard deferred: `at` names it through its directory's
 * descriptor (/proc/PID/fd/D/name), so nothing is resolved from the root
 * again. The descriptor, or why it failed.
 */
export function openDeferred(at: string): number | OpenFailed {
  try {
    return openSync(at, OPEN_FILE);
  } catch (e) {
    return { kind: "open-failed", errno: errnoOf(e) };
  }
}

/** What fstat says about an open descriptor, as the guard's rules need it. */
export type Examined =
  | { readonly kind: "file"; readonly size: number; readonly mtimeMs: number; readonly dev: number; readonly ino: number; readonly nlink: number }
  | { readonly kind: "directory" }
  /** A FIFO, socket or device: never read. */
  | { readonly kind: "special"; readonly what: string };

/** fstat of an open descriptor; a failure is GuardFileError "io". */
export function examineOpenFile(fd: number, rel: string): Examined {
  let st: Stats;
  try {
    st = fstatSync(fd);
  } catch (e) {
    const code = errnoOf(e);
    throw new GuardFileError("io", rel, `cannot examine ${rel}: ${code ?? String(e)}`, code);
  }
  if (st.isFile()) return { kind: "file", size: st.size, mtimeMs: st.mtimeMs, dev: st.dev, ino: st.ino, nlink: st.nlink };
  if (st.isDirectory()) return { kind: "directory" };
  return { kind: "special", what: specialKind(st) };
}

/**
 * Whether an examined descriptor may be read under a read cap: a regular file
 * no larger than it, with one hard link (a scan that allows more defers
 * nothing: its reads take the guard's own path).
 */
export function readable(x: Found, maxBytes: number): boolean {
  return x.kind === "file" && x.size <= maxBytes && x.nlink <= 1;
}

export function specialKind(st: Stats): string {
  if (st.isFIFO()) return "FIFO";
  if (st.isSocket()) return "socket";
  if (st.isCharacterDevice()) return "character device";
  if (st.isBlockDevice()) return "block device";
  if (st.isDirectory()) return "directory";
  return "special file";
}

/** A look at the first block of a file before the rest is read (a search skips binary files after one block). */
export interface HeadCheck {
  /** Size of the first block; files no larger are read whole and not shown to `accept`. */
  readonly bytes: number;
  /** Whether to read on. */
  readonly accept: (head: Buffer) => boolean;
}

export function errnoOf(e: unknown): string | undefined {
  return e !== null && typeof e === "object" && typeof (e as { code?: unknown }).code === "string" ? (e as { code: string }).code : undefined;
}

export function tooLarge(rel: string, size: number, cap: number): GuardFileError {
  return new GuardFileError("file-too-large", rel, `${rel} is larger than ${cap} bytes (${size} bytes)`);
}

/**
 * Reads an open regular file that fstat said is `size` bytes, up to `maxBytes`
 * (more is GuardFileError "file-too-large", also for a file that grew past the
 * cap since fstat). The result is a view of `scratch` when the file fits in it.
 * With `head`, a file larger than head.bytes is read that far first and the
 * rest only when head.accept says so; otherwise the result is null (a binary
 * file costs one block). An operating-system failure is GuardFileError "io".
 */
export function readOpenFile(fd: number, rel: string, size: number, maxBytes: number, scratch: Buffer | undefined, head?: HeadCheck): Buffer | null {
  if (size > maxBytes) throw tooLarge(rel, size, maxBytes);
  // One byte more than the size: a file that grew since fstat is seen growing.
  const want = size + 1;
  let buf = scratch !== undefined && scratch.length >= want ? scratch : Buffer.allocUnsafe(Math.max(want, 64));
  let n = 0;
  const readInto = (upTo: number): number => {
    try {
      return readSync(fd, buf, n, upTo - n, n);
    } catch (e) {
      const code = errnoOf(e);
      throw new GuardFileError("io", rel, `cannot read ${rel}: ${code ?? String(e)}`, code);
    }
  };
  if (head !== undefined && want > head.bytes) {
    while (n < head.bytes) {
      const k = readInto(head.bytes);
      if (k === 0) break;
      n += k;
    }
    if (!head.accept(buf.subarray(0, n))) return null;
  }
  for (;;) {
    if (n === buf.length) {
      if (n > maxBytes) break;
      const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, maxBytes + 1));
      buf.copy(bigger, 0, 0, n);
      buf = bigger;
    }
    const ask = buf.length - n;
    const k = readInto(buf.length);
    n += k;
    // A short read of a regular file is its end (ordinary read semantics: no snapshot).
    if (k < ask) break;
  }
  if (n > maxBytes) throw tooLarge(rel, n, maxBytes);
  return buf.subarray(0, n);
}
