// One record's line: encoding with its CRC-32, and the checks a line must pass to be read back.
//
// A line is the JSON text of {seq, ts, session, kind, payload} with one more
// member appended last, `"crc":"hhhhhhhh"`: the CRC-32 (IEEE, as zlib computes it)
// of the record's text without that member, in 8 lowercase hex digits. So the
// line's bytes minus its fixed 18-byte tail `,"crc":"hhhhhhhh"}` plus "}" are
// exactly the bytes the CRC covers, and checking needs no re-serialisation.

import { crc32 } from "node:zlib";
import { isKnownKind, type LogKind, type Payload } from "./kinds.js";

/** A record as it is read back. */
export interface LogRecord {
  readonly seq: number;
  /** When it was written: ISO 8601 UTC with milliseconds. */
  readonly ts: string;
  readonly session: string;
  readonly kind: LogKind;
  readonly payload: Payload;
}

/** The length of `,"crc":"hhhhhhhh"}`, the fixed end of every line before its newline. */
export const CRC_TAIL_LENGTH = 18;
const CRC_TAIL_PREFIX = Buffer.from(',"crc":"', "latin1");
const CLOSE_BRACE = Buffer.from("}", "latin1");
const HEX = "0123456789abcdef";

/**
 * The line (with its newline) for a record, as bytes. `payloadJson` is the
 * payload's JSON text, already redacted; the envelope's members always come in
 * this order. The text is encoded once, and the CRC taken over those bytes.
 * `write`, given for every record of a write that holds more than one line, is
 * the seq of that write's first record (ADR 0043): it tells the reader, after a
 * power loss, that whole records following a damaged line are of the same
 * unsynced write.
 */
export function encodeLine(seq: number, ts: string, session: string, kind: string, payloadJson: string, write?: number): Buffer {
  const mark = write === undefined ? "" : `,"write":${write}`;
  const body = `{"seq":${seq},"ts":${JSON.stringify(ts)},"session":${JSON.stringify(session)},"kind":${JSON.stringify(kind)},"payload":${payloadJson}${mark}}`;
  const n = Buffer.byteLength(body);
  // The body without its closing brace, then `,"crc":"hhhhhhhh"}` and the newline.
  const buf = Buffer.allocUnsafe(n + CRC_TAIL_LENGTH);
  buf.write(body, 0, n, "utf8");
  const crc = crc32(buf.subarray(0, n)).toString(16).padStart(8, "0");
  buf.write(`,"crc":"${crc}"}\n`, n - 1, CRC_TAIL_LENGTH + 1, "latin1");
  return buf;
}

/**
 * Why a line is not a record, or the record. `tornable`: the line's bytes are
 * not what a writer wrote whole (too short, no crc member at its end, or a crc
 * that does not match), as a write cut short or garbled by a power loss
 * leaves them; a line whose crc matches but which is not a valid record was
 * written that way, and is never a torn tail.
 */
export type Decoded =
  | { readonly ok: true; readonly record: LogRecord; readonly write?: number }
  | { readonly ok: false; readonly reason: "crc-mismatch" | "malformed" | "unknown-kind"; readonly detail: string; readonly tornable: boolean };

function hexValue(b: number): number {
  if (b >= 48 && b <= 57) return b - 48;
  if (b >= 97 && b <= 102) return b - 87;
  return -1;
}

/** Decodes the line `buf[start, end)` (without its newline), checking its CRC and envelope. */
export function decodeLine(buf: Buffer, start: number, end: number): Decoded {
  const len = end - start;
  if (len < CRC_TAIL_LENGTH + 2) return { ok: false, reason: "malformed", detail: "not a record (too short)", tornable: true };
  const tail = end - CRC_TAIL_LENGTH;
  let want = 0;
  let wellFormed = buf[start] === 0x7b && buf[end - 2] === 0x22 && buf[end - 1] === 0x7d;
  for (let i = 0; wellFormed && i < CRC_TAIL_PREFIX.length; i++) wellFormed = buf[tail + i] === CRC_TAIL_PREFIX[i];
  for (let i = 0; wellFormed && i < 8; i++) {
    const h = hexValue(buf[tail + CRC_TAIL_PREFIX.length + i]);
    if (h < 0) wellFormed = false;
    want = want * 16 + h;
  }
  if (!wellFormed) return { ok: false, reason: "malformed", detail: 'not a record (it does not end with its "crc" member)', tornable: true };
  const got = crc32(CLOSE_BRACE, crc32(buf.subarray(start, tail)));
  if (got !== want)
    return {
      ok: false,
      reason: "crc-mismatch",
      detail: `damaged record: crc ${hex8(got)} does not match the recorded ${hex8(want)}`,
      tornable: true,
    };
  let obj: unknown;
  try {
    obj = JSON.parse(buf.toString("utf8", start, end));
  } catch (e) {
    return { ok: false, reason: "malformed", detail: `not valid JSON (${(e as Error).message})`, tornable: false };
  }
  const r = obj as Record<string, unknown>;
  const members = typeof r === "object" && r !== null ? Object.keys(r).length : 0;
  if (
    typeof r !== "object" ||
    r === null ||
    Array.isArray(r) ||
    !(members === 6 || (members === 7 && Number.isSafeInteger(r.write) && (r.write as number) >= 1 && (r.write as number) <= (r.seq as number))) ||
    !Number.isSafeInteger(r.seq) ||
    (r.seq as number) < 1 ||
    typeof r.ts !== "string" ||
    typeof r.session !== "string" ||
    typeof r.kind !== "string" ||
    typeof r.payload !== "object" ||
    r.payload === null ||
    Array.isArray(r.payload) ||
    typeof r.crc !== "string"
  )
    return { ok: false, reason: "malformed", detail: "not a record: {seq, ts, session, kind, payload, [write,] crc} expected", tornable: false };
  if (!isKnownKind(r.kind)) return { ok: false, reason: "unknown-kind", detail: `unknown record kind ${JSON.stringify(r.kind)}`, tornable: false };
  const record: LogRecord = { seq: r.seq as number, ts: r.ts, session: r.session, kind: r.kind, payload: r.payload as Payload };
  return members === 7 ? { ok: true, record, write: r.write as number } : { ok: true, record };
}

function hex8(n: number): string {
  let s = "";
  for (let i = 7; i >= 0; i--) s += HEX[(n >>> (i * 4)) & 15];
  return s;
}
