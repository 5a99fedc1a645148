// The bytes of the session logs the recall forms read, kept per process and extended by what was appended.
//
// A session log is append-only (host/log): between two recall calls it can
// only have grown. So instead of reading the whole file each call (about a
// third of a recall-log call on a 27 MB log), the bytes read last time are
// kept and only the tail past them is read. Before trusting them the file is
// checked cheaply: the same device and inode, a size no smaller, and the same
// first and last 4 KiB of what was read before (a log truncated, rewritten in
// place or replaced by another file drops the cache and is read whole). The
// check is not a proof that the middle did not change; nothing writes a log
// but its own appender, which only appends.
//
// Alongside the bytes, on first need, an ASCII case-folded copy (A-Z as a-z,
// every other byte itself) lets a LIKE pattern without wildcards be found with
// Buffer.indexOf instead of RE2 (recall-log.ts); it is extended with the tail.
//
// Memory: at most LOG_CACHE_LIMITS.logs logs (the most recently read), and at
// most LOG_CACHE_LIMITS.bytes bytes of buffers in all (the bytes, their folded
// copy, and up to a quarter of headroom each for appends); a log too big for
// that is read whole each call, as before, and not kept. Nothing is made at
// module load (the start-up snapshot holds this module).

import { closeSync, fstatSync, openSync, readSync } from "node:fs";

/** The bounds of the cache: how many logs, and how many bytes of buffers for all of them. */
export const LOG_CACHE_LIMITS = Object.freeze({ logs: 2, bytes: 512 * 1024 * 1024 });

/** How many bytes at each end of the old contents are compared before the tail is read. */
const CHECK = 4096;

/** A log's bytes as read now, and its ASCII case-folded copy on demand. */
export interface LogBytes {
  readonly buf: Buffer;
  /** True when the bytes are kept in the cache, so a derived() value outlives this call. */
  readonly kept: boolean;
  /** The bytes with ASCII letters lowercased, the same length as `buf`. */
  folded(): Buffer;
  /**
   * A value computed from the log's whole lines, kept with the cached bytes and
   * brought up to date from where it stopped: `extend(value, from)` reads the
   * lines of `buf` from offset `from` (0 with no value yet; always a line's
   * start) and returns the value for all of them. A line the last call saw
   * unfinished (no newline yet) is read again the next time, so `extend` must
   * give the same value for a line seen twice (a set, not a count).
   */
  derived<T>(key: string, extend: (value: T | undefined, from: number) => T): T;
}

interface Entry {
  readonly file: string;
  readonly dev: number;
  readonly ino: number;
  /** The bytes read so far: store[0, size). */
  store: Buffer;
  size: number;
  /** The folded copy of store[0, foldedTo), or null until asked for. */
  foldStore: Buffer | null;
  foldedTo: number;
  /** derived() values: each with the offset after the last whole line it covers. */
  readonly memo: Map<string, { value: unknown; to: number }>;
}

const entries: Entry[] = [];

/**
 * Writes the ASCII case-folded copy of src[from, to) into dst at the same
 * offsets (src and dst may be the same buffer). Four bytes at a time where both
 * are aligned alike: a byte loop over a 27 MB log takes about a second on the
 * benchmark's machine, the word loop about 30 ms. Per byte x of a word w, with
 * h = x | 0x80 no subtraction borrows from the next byte: (h - 0x41) has its
 * top bit set when x & 0x7f >= 0x41, (h - 0x5b) when x & 0x7f >= 0x5b, and ~x
 * when x < 0x80; the three together mark exactly A-Z, and the mark shifted
 * right by two is the 0x20 that lowercases it.
 */
export function foldAscii(src: Buffer, dst: Buffer, from: number, to: number): void {
  let i = from;
  const byte = (k: number) => {
    const b = src[k]!;
    dst[k] = b >= 0x41 && b <= 0x5a ? b | 0x20 : b;
  };
  if ((src.byteOffset & 3) === (dst.byteOffset & 3) && to - from >= 64) {
    while (((src.byteOffset + i) & 3) !== 0) byte(i++);
    const w0 = (src.byteOffset + i) >> 2;
    const n = (to - i) >> 2;
    const d0 = (dst.byteOffset + i) >> 2;
    const s32 = new Uint32Array(src.buffer, 0, w0 + n);
    const d32 = new Uint32Array(dst.buffer, 0, d0 + n);
    for (let k = 0; k < n; k++) {
      const w = s32[w0 + k]!;
      const h = w | 0x80808080;
      const mark = (h - 0x41414141) & ~(h - 0x5b5b5b5b) & ~w & 0x80808080;
      d32[d0 + k] = w | (mark >>> 2);
    }
    i += n * 4;
  }
  while (i < to) byte(i++);
}

/** Reads file bytes [from, to) into buf at the same offsets; false when the file ended sooner. */
function readRange(fd: number, buf: Buffer, from: number, to: number): boolean {
  let at = from;
  while (at < to) {
    const n = readSync(fd, buf, at, to - at, at);
    if (n === 0) return false;
    at += n;
  }
  return true;
}

function grown(old: Buffer, keep: number, need: number): Buffer {
  if (need <= old.length) return old;
  const b = Buffer.allocUnsafe(need + (need >> 2));
  old.copy(b, 0, 0, keep);
  return b;
}

function footprint(e: Entry): number {
  return e.store.length + (e.foldStore?.length ?? 0);
}

function drop(e: Entry): void {
  const i = entries.indexOf(e);
  if (i >= 0) entries.splice(i, 1);
}

/** The same bytes at both ends of what the entry holds, read from the file now. */
function samePrefix(fd: number, e: Entry): boolean {
  const probe = Buffer.allocUnsafe(Math.min(CHECK, e.size));
  const check = (at: number): boolean => {
    let got = 0;
    while (got < probe.length) {
      const n = readSync(fd, probe, got, probe.length - got, at + got);
      if (n === 0) return false;
      got += n;
    }
    return probe.equals(e.store.subarray(at, at + probe.length));
  };
  return check(0) && check(e.size - probe.length);
}

/** The offset after the last newline of buf (0 when it has none): where the lines not yet whole start. */
function wholeTo(buf: Buffer): number {
  return buf.lastIndexOf(10) + 1;
}

/** Bytes read some other way, with the same interface and nothing kept. */
export function unkept(buf: Buffer): LogBytes {
  return uncached(buf);
}

function uncached(buf: Buffer): LogBytes {
  let f: Buffer | null = null;
  return {
    buf,
    kept: false,
    derived: <T>(_key: string, extend: (value: T | undefined, from: number) => T): T => extend(undefined, 0),
    folded: () => {
      if (f === null) {
        f = Buffer.allocUnsafe(buf.length);
        foldAscii(buf, f, 0, buf.length);
      }
      return f;
    },
  };
}

function view(e: Entry): LogBytes {
  const size = e.size;
  const buf = e.store.subarray(0, size);
  return {
    buf,
    kept: true,
    derived: <T>(key: string, extend: (value: T | undefined, from: number) => T): T => {
      // Only while the entry still holds exactly these bytes: else computed afresh for this view.
      if (e.size !== size || !entries.includes(e)) return extend(undefined, 0);
      const m = e.memo.get(key);
      if (m !== undefined && m.to === size) return m.value as T;
      const value = extend(m?.value as T | undefined, m?.to ?? 0);
      e.memo.set(key, { value, to: wholeTo(buf) });
      return value;
    },
    folded: () => {
      // The entry may have been extended or dropped since: the folded bytes of [0, size) stay the same either way.
      if (e.foldStore === null || e.foldedTo < size) {
        if (e.size !== size || !entries.includes(e)) return uncached(buf).folded();
        e.foldStore = grown(e.foldStore ?? Buffer.allocUnsafe(0), e.foldedTo, e.store.length);
        foldAscii(e.store, e.foldStore, e.foldedTo, size);
        e.foldedTo = size;
        if (total() > LOG_CACHE_LIMITS.bytes) {
          const f = e.foldStore.subarray(0, size);
          drop(e);
          return f;
        }
      }
      return e.foldStore.subarray(0, size);
    },
  };
}

function total(): number {
  return entries.reduce((n, e) => n + footprint(e), 0);
}

/**
 * The bytes of `file` now, from the cache when it holds a prefix of them (the
 * tail past it read and appended), else read whole and kept. An error opening
 * or reading the file is thrown as fs throws it (ENOENT for a missing log).
 * `keep`: false reads through a cached entry when there is one but does not
 * add a new one (a scan over many logs must not push out the one in use).
 */
export function logBytes(file: string, keep = true): LogBytes {
  const fd = openSync(file, "r");
  try {
    const st = fstatSync(fd);
    const size = st.size;
    let e = entries.find((x) => x.file === file);
    if (e !== undefined && (e.dev !== st.dev || e.ino !== st.ino || size < e.size || !samePrefix(fd, e))) {
      drop(e);
      e = undefined;
    }
    if (e !== undefined) {
      if (size > e.size) {
        const store = grown(e.store, e.size, size);
        if (!readRange(fd, store, e.size, size)) {
          drop(e); // shrank while read: read it whole below
          e = undefined;
        } else {
          e.store = store;
          e.size = size;
        }
      }
      if (e !== undefined) {
        entries.splice(entries.indexOf(e), 1);
        entries.push(e);
        const v = view(e);
        if (total() > LOG_CACHE_LIMITS.bytes) drop(e);
        return v;
      }
    }
    const whole = Buffer.allocUnsafe(size);
    let got = 0;
    for (;;) {
      if (got === whole.length) break;
      const n = readSync(fd, whole, got, whole.length - got, got);
      if (n === 0) break;
      got += n;
    }
    const buf = whole.subarray(0, got);
    if (!keep || got * 2 > LOG_CACHE_LIMITS.bytes) return uncached(buf);
    const fresh: Entry = { file, dev: st.dev, ino: st.ino, store: whole, size: got, foldStore: null, foldedTo: 0, memo: new Map() };
    entries.push(fresh);
    while (entries.length > LOG_CACHE_LIMITS.logs || (entries.length > 1 && total() > LOG_CACHE_LIMITS.bytes)) entries.shift();
    return view(fresh);
  } finally {
    closeSync(fd);
  }
}

/** Forgets every cached log (tests; a process that wants the memory back). */
export function clearLogCache(): void {
  entries.length = 0;
}

/** How many logs and bytes the cache holds now (tests, diagnostics). */
export function logCacheStats(): { logs: number; bytes: number } {
  return { logs: entries.length, bytes: total() };
}
