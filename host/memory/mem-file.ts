// The <id>.mem file: a log's memory up to its last whole turn, laid out so a search reads only its own words' postings.
//
// Format version 3 (docs/memory-format.md has the layout and why). Every part a
// reader uses is checked as it is read: the header by its CRC, the word table
// (read whole with the header and the meta part, in one read) by its CRC, each
// word's postings block by its CRC, each event entry and card by theirs, the
// meta by its CRC. A part that fails is a MemMismatch: the caller makes the
// file again from the log. Nothing read is kept after a search: a MemReader
// holds one file descriptor and what its first read got.

import { closeSync, openSync, readSync, renameSync, unlinkSync, writeSync, constants as C } from "node:fs";
import { crc32 as zlibCrc32 } from "node:zlib";
import type { CompactionNote, TurnCard } from "./cards.js";
import { EVENT_CODES, type EventType } from "./events.js";
import type { DocEntry, TaskFacts, Watermark } from "./fold.js";

export const MEM_MAGIC = "NDWNMEM\n";
export const MEM_VERSION = 3;
export const MEM_EXTENSION = ".mem";
export const HEADER_BYTES = 280;
export const DOC_BYTES = 48;
/** A word table entry: u32 hash, u32 block offset. */
export const WORD_ENTRY_BYTES = 8;
/** The word table is checked by chunks of this many entries; the fence holds one entry per chunk. */
export const WORDS_PER_CHUNK = 64;
/** A fence entry: u32 the chunk's first hash, u32 its first block offset, u32 CRC-32 of the chunk. */
export const FENCE_ENTRY_BYTES = 12;
export const CARD_ENTRY_BYTES = 16;
/** How much of a file is read with its header: the header, the meta part and the fence (under Buffer's pool size: no allocation of its own). */
export const HEAD_READ = 4000;

/** A part of a .mem file that does not check: the file is made again from the log. */
export class MemMismatch extends Error {
  constructor(readonly file: string, readonly why: string) {
    super(`${file}: ${why}`);
    this.name = "MemMismatch";
  }
}

/** What the meta part holds. */
export interface MemMeta {
  readonly format: string;
  readonly facts: TaskFacts;
  /** The repository key (host/index projectPaths) of the task's tree when the file was written, or null. */
  readonly project: string | null;
  readonly notes: CompactionNote[];
  /** The sub-contexts opened up to the file's last whole turn (labels), and those still open then. */
  readonly contexts: string[];
  readonly openContexts: number[];
}

/** What a .mem file records besides its parts. */
export interface MemHeader {
  readonly fileSize: number;
  /** The end of the last whole turn: cards, notes and postings go up to here. */
  readonly w: Watermark;
  /** The log's end (its last whole record) when written, with that line's length and hash: a log that has not changed since needs no tail fold. */
  readonly s: Watermark;
  readonly docs: number;
  readonly totalLen: number;
  /** Words in the word table. */
  readonly words: number;
  readonly metaOff: number;
  readonly metaLen: number;
  readonly metaCrc: number;
  readonly docsOff: number;
  readonly offsetsOff: number;
  readonly cardsTableOff: number;
  readonly cards: number;
  readonly cardsDataOff: number;
  readonly fenceOff: number;
  readonly fenceCrc: number;
  readonly tableOff: number;
  readonly postingsOff: number;
  readonly postingsLen: number;
}

/** FNV-1a over the word's UTF-8 bytes: the word table's order. */
export function wordHash(bytes: Uint8Array, from = 0, to = bytes.length): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ (bytes[i] as number), 0x01000193);
  return h >>> 0;
}

const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

/** From this many bytes on, zlib's CRC (one call into C) costs less than the table loop in JavaScript. */
const ZLIB_CRC_FROM = 128;

/**
 * CRC-32 (IEEE, the value zlib's crc32 gives) of bytes [from, to) of b: a
 * small part (an event entry, a card entry) by the table here, since a file has
 * thousands of them and a call into zlib costs more than their bytes; a
 * larger one (a postings block, a card, the meta part) by zlib's, which the
 * JavaScript loop is several times slower than on a block of a few KB.
 */
export function crc32(b: Uint8Array, from = 0, to = b.length): number {
  if (to - from >= ZLIB_CRC_FROM) return zlibCrc32(from === 0 && to === b.length ? b : b.subarray(from, to));
  let c = -1;
  for (let i = from; i < to; i++) c = CRC_TABLE[(c ^ (b[i] as number)) & 0xff]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

function entryCheck(buf: Buffer, at: number): number {
  return (crc32(buf, at, at + 12) | 1) >>> 0;
}

/** The words' indexes in the order of their hashes, ties in index order (a sort of numbers: hash × 2^21 + index). */
function wordOrder(hashes: Uint32Array): Uint32Array {
  const n = hashes.length;
  const order = new Uint32Array(n);
  if (n < 1 << 21) {
    const k = new Float64Array(n);
    for (let i = 0; i < n; i++) k[i] = hashes[i]! * 2097152 + i;
    k.sort();
    for (let i = 0; i < n; i++) order[i] = k[i]! % 2097152;
  } else {
    const a = Array.from({ length: n }, (_, i) => i);
    a.sort((x, y) => hashes[x]! - hashes[y]! || x - y);
    order.set(a);
  }
  return order;
}

/** What a .mem file is made from. */
export interface MemContents {
  readonly w: Watermark;
  readonly s: Watermark;
  readonly docs: readonly DocEntry[];
  readonly postings: ReadonlyMap<string, readonly number[]>;
  readonly totalLen: number;
  readonly offsets: readonly number[];
  readonly cards: readonly TurnCard[];
  readonly meta: MemMeta;
}

/** Writes `v` (a u32) little-endian at `at`. */
function putU32(b: Uint8Array, at: number, v: number): void {
  b[at] = v & 0xff;
  b[at + 1] = (v >>> 8) & 0xff;
  b[at + 2] = (v >>> 16) & 0xff;
  b[at + 3] = v >>> 24;
}

/** The file's bytes. */
export function encodeMem(m: MemContents): Buffer {
  // The words in the order of their hashes (ties in the postings map's order): the table is read by a binary search,
  // and the blocks lie in the same order, so a block ends where the next one starts. A file has thousands of words
  // and most have a posting or two: each word's UTF-8 goes into one buffer (an ASCII word by a loop, no call into C),
  // the order is a sort of numbers, and the blocks, the word table and the event entries are written byte by byte
  // (or through one DataView) into the file's own buffer: no Buffer method call per field, no copy of the parts.
  const keys = [...m.postings.keys()];
  const lists = [...m.postings.values()];
  const n = keys.length;
  let chars = 0;
  for (let i = 0; i < n; i++) chars += keys[i]!.length;
  const utf8 = Buffer.allocUnsafe(chars * 3);
  const wordAt = new Int32Array(n + 1);
  const hashes = new Uint32Array(n);
  let u = 0;
  for (let i = 0; i < n; i++) {
    const w = keys[i]!;
    wordAt[i] = u;
    let ascii = true;
    for (let k = 0; k < w.length; k++) {
      const c = w.charCodeAt(k);
      if (c >= 0x80) {
        ascii = false;
        break;
      }
      utf8[u + k] = c;
    }
    u += ascii ? w.length : utf8.write(w, u, "utf8");
    hashes[i] = wordHash(utf8, wordAt[i]!, u);
  }
  wordAt[n] = u;
  const order = wordOrder(hashes);
  const nd = m.docs.length;
  const docLen = new Float64Array(nd);
  for (let i = 0; i < nd; i++) docLen[i] = m.docs[i]!.len;
  // The small parts first (their sizes are known), the postings last, written straight into the file's buffer, which
  // is sized by a bound (a varint takes at most 5 bytes) and cut to what was written.
  const meta = Buffer.from(JSON.stringify(m.meta), "utf8");
  const chunks = Math.ceil(n / WORDS_PER_CHUNK);
  const cardJson: Buffer[] = [];
  let cpos = 0;
  for (const c of m.cards) {
    const b = Buffer.from(JSON.stringify(c), "utf8");
    cardJson.push(b);
    cpos += b.length;
  }
  const metaOff = HEADER_BYTES;
  const fenceOff = metaOff + meta.length;
  const tableOff = fenceOff + chunks * FENCE_ENTRY_BYTES;
  const docsOff = tableOff + n * WORD_ENTRY_BYTES;
  const offsetsOff = docsOff + nd * DOC_BYTES;
  const cardsTableOff = offsetsOff + m.offsets.length * 8;
  const cardsDataOff = cardsTableOff + m.cards.length * CARD_ENTRY_BYTES;
  const postingsOff = cardsDataOff + cpos;
  let bound = 0;
  for (let i = 0; i < n; i++) bound += 2 + (wordAt[i + 1]! - wordAt[i]!) + 4 + (lists[i]!.length / 2) * 15 + 4;
  // Zero-filled: the bytes no field covers (an event entry's 40..44, the header's padding) are 0.
  const out = Buffer.alloc(postingsOff + bound);
  const dv = new DataView(out.buffer, out.byteOffset, out.length);
  // Postings blocks, one after another from postingsOff; the word table's entries as they go.
  let at = postingsOff;
  for (let j = 0; j < n; j++) {
    const i = order[j]!;
    const start = at;
    const from = wordAt[i]!;
    const len = wordAt[i + 1]! - from;
    out[at] = len & 0xff;
    out[at + 1] = len >>> 8;
    at += 2;
    for (let k = 0; k < len; k++) out[at + k] = utf8[from + k]!;
    at += len;
    const list = lists[i]!;
    putU32(out, at, list.length / 2);
    at += 4;
    let prev = 0;
    for (let k = 0; k < list.length; k += 2) {
      const d = list[k]!;
      // Three varints: the index delta, the term frequency, the event's length (most are one byte).
      let v = d - prev;
      while (v >= 0x80) {
        out[at++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      out[at++] = v;
      v = list[k + 1]!;
      while (v >= 0x80) {
        out[at++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      out[at++] = v;
      v = docLen[d]!;
      while (v >= 0x80) {
        out[at++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      out[at++] = v;
      prev = d;
    }
    putU32(out, at, crc32(out, start, at));
    at += 4;
    const te = tableOff + j * WORD_ENTRY_BYTES;
    putU32(out, te, hashes[i]!);
    putU32(out, te + 4, start - postingsOff);
  }
  const pos = at - postingsOff;
  for (let c = 0; c < chunks; c++) {
    const from = tableOff + c * WORDS_PER_CHUNK * WORD_ENTRY_BYTES;
    const fo = fenceOff + c * FENCE_ENTRY_BYTES;
    out.copy(out, fo, from, from + 8);
    putU32(out, fo + 8, crc32(out, from, Math.min(docsOff, from + WORDS_PER_CHUNK * WORD_ENTRY_BYTES)));
  }
  meta.copy(out, metaOff);
  for (let i = 0; i < nd; i++) {
    const d = m.docs[i]!;
    const o = docsOff + i * DOC_BYTES;
    const type = EVENT_CODES.indexOf(d.type);
    if (type < 0) throw new RangeError(`an event of unknown type ${d.type}`);
    dv.setUint32(o, d.seq, true);
    dv.setUint32(o + 4, d.turn, true);
    out[o + 8] = type;
    out[o + 9] = d.failed ? 1 : 0;
    dv.setUint16(o + 10, Math.min(d.context, 0xffff), true);
    dv.setUint32(o + 12, d.len, true);
    dv.setFloat64(o + 16, d.off, true);
    dv.setUint32(o + 24, d.bytes, true);
    dv.setFloat64(o + 28, d.callOff, true);
    dv.setUint32(o + 36, d.callBytes, true);
    putU32(out, o + 44, crc32(out, o, o + 44));
  }
  for (let i = 0; i < m.offsets.length; i++) dv.setFloat64(offsetsOff + i * 8, m.offsets[i]!, true);
  let cp = 0;
  for (let i = 0; i < cardJson.length; i++) {
    const b = cardJson[i]!;
    const o = cardsTableOff + i * CARD_ENTRY_BYTES;
    putU32(out, o, cp);
    putU32(out, o + 4, b.length);
    putU32(out, o + 8, crc32(b));
    putU32(out, o + 12, entryCheck(out, o));
    b.copy(out, cardsDataOff + cp);
    cp += b.length;
  }
  const fileSize = postingsOff + pos;
  out.write(MEM_MAGIC, 0, "latin1");
  putU32(out, 8, MEM_VERSION);
  const f = [
    fileSize,
    m.w.end, m.w.seq, m.w.turns, m.w.lineBytes,
    m.s.end, m.s.seq, m.s.turns, m.s.lineBytes,
    nd, m.totalLen, n,
    metaOff, meta.length, crc32(meta),
    docsOff, offsetsOff, cardsTableOff, m.cards.length, cardsDataOff,
    fenceOff, crc32(out, fenceOff, tableOff), tableOff, postingsOff, pos,
  ];
  for (let i = 0; i < f.length; i++) dv.setFloat64(16 + i * 8, f[i]!, true);
  out.write(m.w.hash, HASHES_AT, 32, "hex");
  out.write(m.s.hash, HASHES_AT + 32, 32, "hex");
  putU32(out, 12, crc32(out, 16, HEADER_BYTES));
  return out.subarray(0, fileSize);
}

/**
 * Writes the file whole: a temporary file beside it, renamed into place, so a
 * reader never sees a torn file. Not fsynced: the file is derived, and one a
 * crash left empty or short fails its checks and is made again from the log.
 */
let tmpCount = Math.floor(Math.random() * 1e6);

export function writeMemFile(file: string, bytes: Buffer): void {
  let tmp = "";
  let fd = -1;
  // Unique among the processes alive (their pids) and within this one (a count); one a dead process left is passed over.
  for (let tries = 0; fd < 0; tries++) {
    tmp = `${file}.${process.pid}.${++tmpCount}.tmp`;
    try {
      fd = openSync(tmp, C.O_WRONLY | C.O_CREAT | C.O_EXCL, 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST" || tries > 1000) throw e;
    }
  }
  try {
    let at = 0;
    while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
  } catch (e) {
    closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
    throw e;
  }
  closeSync(fd);
  renameSync(tmp, file);
}

/** Where the two SHA-256 lie in the header (after its 24 numbers). */
const HASHES_AT = 16 + 25 * 8;

/** The header's fields, checked; `size` the file's when known (else the caller checks that it ends at fileSize). */
function parseHeader(file: string, h: Buffer, size: number | null): MemHeader {
  if (h.length < HEADER_BYTES || h.toString("latin1", 0, 8) !== MEM_MAGIC) throw new MemMismatch(file, "not a nodwyn memory file");
  if (h.readUInt32LE(8) !== MEM_VERSION) throw new MemMismatch(file, `format version ${h.readUInt32LE(8)}, not ${MEM_VERSION}`);
  if (crc32(h, 16, HEADER_BYTES) !== h.readUInt32LE(12)) throw new MemMismatch(file, "the header does not match its CRC");
  const f = (i: number) => h.readDoubleLE(16 + i * 8);
  const hdr: MemHeader = {
    fileSize: f(0),
    w: { end: f(1), seq: f(2), turns: f(3), lineBytes: f(4), hash: h.toString("hex", HASHES_AT, HASHES_AT + 32) },
    s: { end: f(5), seq: f(6), turns: f(7), lineBytes: f(8), hash: h.toString("hex", HASHES_AT + 32, HASHES_AT + 64) },
    docs: f(9),
    totalLen: f(10),
    words: f(11),
    metaOff: f(12),
    metaLen: f(13),
    metaCrc: f(14),
    docsOff: f(15),
    offsetsOff: f(16),
    cardsTableOff: f(17),
    cards: f(18),
    cardsDataOff: f(19),
    fenceOff: f(20),
    fenceCrc: f(21),
    tableOff: f(22),
    postingsOff: f(23),
    postingsLen: f(24),
  };
  if (size !== null && hdr.fileSize !== size) throw new MemMismatch(file, `the file has ${size} bytes, its header says ${hdr.fileSize}`);
  return hdr;
}

/** One word's postings as read: flat [doc, tf, len, …]. */
export type Postings = Uint32Array;

/** A word as a lookup needs it: its UTF-8 and its hash, made once per search rather than once per task. */
export interface WordKey {
  readonly word: string;
  readonly bytes: Buffer;
  readonly hash: number;
}

export function wordKey(word: string): WordKey {
  const bytes = Buffer.from(word, "utf8");
  return { word, bytes, hash: wordHash(bytes) };
}

/** Reads parts of one .mem file, each checked as it is read. Close it when done. */
export class MemReader {
  readonly header: MemHeader;
  private fd: number;
  /** The file's first bytes as read with the header. */
  private head: Buffer = Buffer.alloc(0);
  private constructor(readonly file: string, fd: number, header: MemHeader) {
    this.fd = fd;
    this.header = header;
  }

  /** Opens and checks the header; null when there is no file. Throws MemMismatch when it is not a valid file. */
  static open(file: string): MemReader | null {
    let fd: number;
    try {
      fd = openSync(file, C.O_RDONLY);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw e;
    }
    try {
      // The header and what follows it (the meta part) in one read.
      const h = Buffer.allocUnsafe(HEAD_READ);
      let n = 0;
      while (n < h.length) {
        const got = readSync(fd, h, n, h.length - n, n);
        if (got === 0) break;
        n += got;
      }
      // A file shorter than the first read has that read's size; a longer one ends where its header says when a read
      // of two bytes from its last byte gets one (no stat).
      const hdr = parseHeader(file, h.subarray(0, n), n < h.length ? n : null);
      if (n === h.length) {
        const two = Buffer.allocUnsafe(2);
        const got = Number.isSafeInteger(hdr.fileSize) && hdr.fileSize >= n ? readSync(fd, two, 0, 2, hdr.fileSize - 1) : -1;
        if (got !== 1) throw new MemMismatch(file, `the file does not end where its header says (${hdr.fileSize} bytes)`);
      }
      const r = new MemReader(file, fd, hdr);
      r.head = h.subarray(0, n);
      return r;
    } catch (e) {
      closeSync(fd);
      throw e;
    }
  }

  /**
   * A reader over a file's bytes held in memory (those just written, so a
   * search right after a write reads them rather than the file, and the fold
   * they were made from is not kept). Checked as a file is.
   */
  static fromBytes(file: string, bytes: Buffer): MemReader {
    const head = bytes.subarray(0, Math.min(HEAD_READ, bytes.length));
    const r = new MemReader(file, -1, parseHeader(file, head, bytes.length));
    r.head = head;
    r.bytes = bytes;
    return r;
  }

  /** The file's bytes when the reader was made from them (fromBytes), else null. */
  private bytes: Buffer | null = null;

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
    this.bytes = null;
  }

  private read(off: number, len: number): Buffer {
    if (off < 0 || len < 0 || off + len > this.header.fileSize) throw new MemMismatch(this.file, `a part at ${off}+${len} lies outside the file`);
    if (this.bytes !== null) return this.bytes.subarray(off, off + len);
    const b = Buffer.allocUnsafe(len);
    let got = 0;
    while (got < len) {
      const n = readSync(this.fd, b, got, len - got, off + got);
      if (n === 0) throw new MemMismatch(this.file, "the file ended early");
      got += n;
    }
    return b;
  }

  /** The meta part, once read and checked. */
  private metaCache: MemMeta | null = null;
  meta(): MemMeta {
    return (this.metaCache ??= this.readMeta());
  }

  private readMeta(): MemMeta {
    const h = this.header;
    const b = h.metaOff + h.metaLen <= this.head.length ? this.head.subarray(h.metaOff, h.metaOff + h.metaLen) : this.read(h.metaOff, h.metaLen);
    if (crc32(b) !== h.metaCrc) throw new MemMismatch(this.file, "the meta part does not match its CRC");
    try {
      const m = JSON.parse(b.toString("utf8")) as MemMeta;
      if (!Array.isArray(m.contexts) || !Array.isArray(m.openContexts) || !Array.isArray(m.notes)) throw new Error("parts missing");
      return m;
    } catch {
      throw new MemMismatch(this.file, "the meta part is not the JSON of format 3");
    }
  }

  /** The fence (one entry per chunk of the word table), read with the header when it fits, checked by its CRC once. */
  private fenceBuf: Buffer | null = null;
  private fence(): Buffer {
    if (this.fenceBuf !== null) return this.fenceBuf;
    const h = this.header;
    const len = Math.ceil(h.words / WORDS_PER_CHUNK) * FENCE_ENTRY_BYTES;
    if (!Number.isSafeInteger(len) || h.tableOff !== h.fenceOff + len) throw new MemMismatch(this.file, "the word table's fence has the wrong length");
    const b = h.fenceOff + len <= this.head.length ? this.head.subarray(h.fenceOff, h.fenceOff + len) : this.read(h.fenceOff, len);
    if (crc32(b) !== h.fenceCrc) throw new MemMismatch(this.file, "the word table's fence does not match its CRC");
    return (this.fenceBuf = b);
  }

  /** Chunk `c` of the word table, checked by its CRC and against its fence entry. */
  private chunk(f: Buffer, c: number, table?: Buffer): Buffer {
    const h = this.header;
    const from = c * WORDS_PER_CHUNK;
    const n = Math.min(WORDS_PER_CHUNK, h.words - from);
    const b = table !== undefined ? table.subarray(from * WORD_ENTRY_BYTES, (from + n) * WORD_ENTRY_BYTES) : this.read(h.tableOff + from * WORD_ENTRY_BYTES, n * WORD_ENTRY_BYTES);
    const fo = c * FENCE_ENTRY_BYTES;
    if (crc32(b) !== f.readUInt32LE(fo + 8) || b.readUInt32LE(0) !== f.readUInt32LE(fo) || b.readUInt32LE(4) !== f.readUInt32LE(fo + 4)) throw new MemMismatch(this.file, "a chunk of the word table does not match its CRC");
    return b;
  }

  /** Where entry `k` of chunk `c` (n entries) has its block: from its offset to the next word's (the next chunk's first, from the fence; the last word's to the end of the postings). */
  private blockOf(f: Buffer, t: Buffer, c: number, k: number): Buffer {
    const h = this.header;
    const chunks = f.length / FENCE_ENTRY_BYTES;
    const n = t.length / WORD_ENTRY_BYTES;
    const at = t.readUInt32LE(k * WORD_ENTRY_BYTES + 4);
    const end = k + 1 < n ? t.readUInt32LE((k + 1) * WORD_ENTRY_BYTES + 4) : c + 1 < chunks ? f.readUInt32LE((c + 1) * FENCE_ENTRY_BYTES + 4) : h.postingsLen;
    if (end <= at || end > h.postingsLen || (c === 0 && k === 0 && at !== 0)) throw new MemMismatch(this.file, "a word's postings lie outside the postings");
    return this.read(h.postingsOff + at, end - at);
  }

  /** The postings of `word`, or null when no event holds it. */
  postings(word: string | WordKey): Postings | null {
    const key = typeof word === "string" ? wordKey(word) : word;
    const wb = key.bytes;
    const hash = key.hash;
    const f = this.fence();
    const chunks = f.length / FENCE_ENTRY_BYTES;
    if (chunks === 0) return null;
    // The last chunk starting below the hash (a word of that hash may end it), or the first: its entries, then the next
    // chunks' while their words still have that hash (words sharing a hash lie side by side).
    let lo = 0;
    let hi = chunks;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (f.readUInt32LE(mid * FENCE_ENTRY_BYTES) < hash) lo = mid + 1;
      else hi = mid;
    }
    for (let c = Math.max(0, lo - 1); c < chunks; c++) {
      if (c > 0 && f.readUInt32LE(c * FENCE_ENTRY_BYTES) > hash) return null;
      const t = this.chunk(f, c);
      const n = t.length / WORD_ENTRY_BYTES;
      // The chunk's first entry with the hash (a binary search: entries ascend), then those after it sharing it.
      let a = 0;
      let z = n;
      while (a < z) {
        const mid = (a + z) >>> 1;
        if (t.readUInt32LE(mid * WORD_ENTRY_BYTES) < hash) a = mid + 1;
        else z = mid;
      }
      for (let k = a; k < n; k++) {
        const eh = t.readUInt32LE(k * WORD_ENTRY_BYTES);
        if (eh > hash) return null;
        const block = this.blockOf(f, t, c, k);
        const wl = this.checkBlock(block);
        if (wl !== wb.length || !block.subarray(2, 2 + wl).equals(wb)) continue;
        return this.decodeBlock(block, wl);
      }
    }
    return null;
  }

  /** Checks a postings block's length and CRC; returns its word's length in bytes. */
  private checkBlock(block: Buffer): number {
    const wl = block.length >= 2 ? block.readUInt16LE(0) : -1;
    if (wl < 0 || block.length < 2 + wl + 8) throw new MemMismatch(this.file, "a postings block has the wrong length");
    const end = block.length - 4;
    if (crc32(block, 0, end) !== block.readUInt32LE(end)) throw new MemMismatch(this.file, "a postings block does not match its CRC");
    return wl;
  }

  /** A checked block's postings: flat [doc, tf, len, …], docs ascending and held by the file; its varints must fill it exactly. */
  private decodeBlock(block: Buffer, wl: number): Postings {
    const h = this.header;
    const n = block.readUInt32LE(2 + wl);
    const end = block.length - 4;
    if (n === 0 || n > h.docs || n * 3 > end) throw new MemMismatch(this.file, "a postings block has the wrong length");
    const out = new Uint32Array(n * 3);
    let at = 2 + wl + 4;
    let doc = -1;
    // Most varints are one byte (an index delta, a term frequency): that case first, the loop only for longer ones.
    for (let k = 0, part = 0; k < out.length; k++) {
      if (at >= end) throw new MemMismatch(this.file, "a postings block has the wrong length");
      let b = block[at++]!;
      let v = b;
      if (b >= 0x80) {
        v = b & 0x7f;
        for (let shift = 7; ; shift += 7) {
          if (at >= end || shift > 28) throw new MemMismatch(this.file, "a postings block has the wrong length");
          b = block[at++]!;
          v += (b & 0x7f) * 2 ** shift;
          if (b < 0x80) break;
        }
      }
      if (part === 0) {
        doc = doc < 0 ? v : doc + v;
        if ((k > 0 && v === 0) || doc >= h.docs) throw new MemMismatch(this.file, "a posting names an event the file does not hold");
        out[k] = doc;
      } else out[k] = v;
      part = part === 2 ? 0 : part + 1;
    }
    if (at !== end) throw new MemMismatch(this.file, "a postings block has the wrong length");
    return out;
  }

  /** Event entry `i`. */
  doc(i: number): DocEntry {
    const h = this.header;
    if (i < 0 || i >= h.docs) throw new MemMismatch(this.file, `no event ${i}`);
    const b = this.read(h.docsOff + i * DOC_BYTES, DOC_BYTES);
    return decodeDoc(this.file, b, 0);
  }

  /** Every event entry (a rewrite loads them all). */
  docs(): DocEntry[] {
    const h = this.header;
    const b = this.read(h.docsOff, h.docs * DOC_BYTES);
    const out: DocEntry[] = [];
    for (let i = 0; i < h.docs; i++) out.push(decodeDoc(this.file, b, i * DOC_BYTES));
    return out;
  }

  /** The offset of record `seq`'s line in the log (seq ≤ the watermark's), or null. */
  offsetOf(seq: number): number | null {
    if (seq < 1 || seq > this.header.w.seq) return null;
    const off = this.read(this.header.offsetsOff + (seq - 1) * 8, 8).readDoubleLE(0);
    if (!Number.isSafeInteger(off) || off < 0 || off >= this.header.w.end) throw new MemMismatch(this.file, `the offset of seq ${seq} is not in the log's memory`);
    return off;
  }

  offsets(): number[] {
    const n = this.header.w.seq;
    const b = this.read(this.header.offsetsOff, n * 8);
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push(b.readDoubleLE(i * 8));
    return out;
  }

  /** The card of turn `turn` (1-based), when the file holds it. */
  card(turn: number): TurnCard | null {
    const h = this.header;
    if (turn < 1 || turn > h.cards) return null;
    const e = this.read(h.cardsTableOff + (turn - 1) * CARD_ENTRY_BYTES, CARD_ENTRY_BYTES);
    if (entryCheck(e, 0) !== e.readUInt32LE(12)) throw new MemMismatch(this.file, "a card entry does not match its check");
    const b = this.read(h.cardsDataOff + e.readUInt32LE(0), e.readUInt32LE(4));
    if (crc32(b) !== e.readUInt32LE(8)) throw new MemMismatch(this.file, "a card does not match its CRC");
    try {
      return JSON.parse(b.toString("utf8")) as TurnCard;
    } catch {
      throw new MemMismatch(this.file, "a card is not JSON");
    }
  }

  cardsAll(): TurnCard[] {
    const out: TurnCard[] = [];
    for (let i = 1; i <= this.header.cards; i++) out.push(this.card(i)!);
    return out;
  }

  /** Every word with its postings (a rewrite loads them all): flat [doc, tf, …]. */
  allPostings(): Map<string, number[]> {
    const h = this.header;
    const f = this.fence();
    const whole = this.read(h.tableOff, h.words * WORD_ENTRY_BYTES);
    const chunks = f.length / FENCE_ENTRY_BYTES;
    for (let c = 0; c < chunks; c++) this.chunk(f, c, whole);
    const t = whole;
    const data = this.read(h.postingsOff, h.postingsLen);
    const out = new Map<string, number[]>();
    let prevHash = 0;
    for (let i = 0; i < h.words; i++) {
      const hash = t.readUInt32LE(i * WORD_ENTRY_BYTES);
      const at = t.readUInt32LE(i * WORD_ENTRY_BYTES + 4);
      const end = i + 1 < h.words ? t.readUInt32LE((i + 1) * WORD_ENTRY_BYTES + 4) : h.postingsLen;
      if (hash < prevHash) throw new MemMismatch(this.file, "the word table is not in the order of its hashes");
      prevHash = hash;
      if (end <= at || end > data.length || (i === 0 && at !== 0)) throw new MemMismatch(this.file, "a word's postings lie outside the postings");
      const block = data.subarray(at, end);
      const wl = this.checkBlock(block);
      const word = block.toString("utf8", 2, 2 + wl);
      if (wordHash(block, 2, 2 + wl) !== hash) throw new MemMismatch(this.file, "a word is not where its hash says");
      const flat = this.decodeBlock(block, wl);
      const list: number[] = new Array(flat.length / 3 * 2);
      for (let k = 0, j = 0; k < flat.length; k += 3, j += 2) {
        list[j] = flat[k]!;
        list[j + 1] = flat[k + 1]!;
      }
      out.set(word, list);
    }
    if (h.words > 0 && data.length !== h.postingsLen) throw new MemMismatch(this.file, "the postings have the wrong length");
    return out;
  }
}

function decodeDoc(file: string, b: Buffer, o: number): DocEntry {
  if (crc32(b, o, o + 44) !== b.readUInt32LE(o + 44)) throw new MemMismatch(file, "an event entry does not match its CRC");
  const type = EVENT_CODES[b.readUInt8(o + 8)] as EventType | undefined;
  if (type === undefined) throw new MemMismatch(file, "an event entry has an unknown type");
  return {
    seq: b.readUInt32LE(o),
    turn: b.readUInt32LE(o + 4),
    type,
    failed: b.readUInt8(o + 9) === 1,
    len: b.readUInt32LE(o + 12),
    off: b.readDoubleLE(o + 16),
    bytes: b.readUInt32LE(o + 24),
    callOff: b.readDoubleLE(o + 28),
    callBytes: b.readUInt32LE(o + 36),
    context: b.readUInt16LE(o + 10),
  };
}
