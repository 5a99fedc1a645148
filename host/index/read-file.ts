// One file into the index, or back out for a search: read through the guard's scan, classified, redacted as a tool result is.
//
// Every read goes through a GuardScan (the root pin, the denylist, the
// project's checkers, the turn's caps), so each one logs its guard.decision;
// when the guard may defer its examination (no checker, no cap) the file is
// opened through its directory's descriptor here and the guard decides when
// told what was found (GuardScan.settle), as index-grep's reader does. The
// text is then redacted as the log redacts a tool result (the redactor over a
// tool.result's output), keeping the file's line numbers: a secret that spans
// lines (a private key) leaves as many newlines after its placeholder.

import { isUtf8 } from "node:buffer";
import { closeSync } from "node:fs";
import { GuardDeniedError, GuardFileError, type GuardScan, type OpenedFile } from "../guard/index.js";
import { examineOpenFile, openDeferred, readable, readOpenFile, type Found, type HeadCheck } from "../guard/read.js";
import type { Redactor } from "../redact/index.js";

/** What reading one file came to. */
export type ReadOutcome =
  /** A text file: its bytes (a view of the scratch buffer, valid until the next read) and, unless the read was lazy, its text. */
  | { readonly kind: "text"; readonly bytes: Buffer; readonly text: string }
  | { readonly kind: "skipped"; readonly reason: "binary" | "non-utf8" | "oversized" | "nonregular" | "protected" | "vanished" | "unreadable" }
  | { readonly kind: "refused"; readonly rule: string; readonly reason: string }
  /** The turn's read caps: nothing more can be read now (the file is left for later). */
  | { readonly kind: "stop"; readonly reason: string };

/** The first block is checked for a NUL before the rest is read (as index-grep does). */
const HEAD: HeadCheck = { bytes: 64 * 1024, accept: (b: Buffer) => b.indexOf(0) === -1 };

/** A guard failure as an outcome; other errors are thrown. */
function outcomeOf(e: unknown): ReadOutcome {
  if (e instanceof GuardDeniedError) {
    if (e.rule === "denylist") return { kind: "skipped", reason: "protected" };
    if (e.rule === "special-file") return { kind: "skipped", reason: "nonregular" };
    if (e.rule === "root-pin" && /symbolic link/.test(e.reason)) return { kind: "skipped", reason: "nonregular" };
    if (e.rule === "turn-limit") return { kind: "stop", reason: e.reason };
    return { kind: "refused", rule: e.rule, reason: e.reason };
  }
  if (e instanceof GuardFileError) {
    if (e.code === "file-too-large") return { kind: "skipped", reason: "oversized" };
    if (e.code === "not-found") return { kind: "skipped", reason: "vanished" };
    if (e.code === "is-directory") return { kind: "skipped", reason: "nonregular" };
    return { kind: "skipped", reason: "unreadable" };
  }
  throw e;
}

/**
 * Reads a root-relative file through `scan`, up to `maxBytes`, and returns its
 * UTF-8 text (not yet redacted) or why not. Synchronous unless a checker is
 * consulted. The scan's held decisions are logged by its flushLog.
 */
export function readThroughGuard(scan: GuardScan, rel: string, maxBytes: number, scratch: Buffer, lazy = false): ReadOutcome | Promise<ReadOutcome> {
  let opened: OpenedFile | Promise<OpenedFile>;
  try {
    opened = scan.openFile(rel, { maxBytes, defer: true });
  } catch (e) {
    return outcomeOf(e);
  }
  if (opened instanceof Promise) return opened.then((f) => readOpened(scan, f, rel, maxBytes, scratch, lazy), outcomeOf);
  return readOpened(scan, opened, rel, maxBytes, scratch, lazy);
}

/** The text of a read's bytes, a BOM dropped. */
export function decodeText(bytes: Buffer): string {
  const text = bytes.toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function readOpened(scan: GuardScan, f: OpenedFile, rel: string, maxBytes: number, scratch: Buffer, lazy: boolean): ReadOutcome {
  let bytes = 0;
  try {
    if (f.fd !== -1) return classify(readDescriptor(f.fd, rel, f.size as number, maxBytes, scratch));
    // Deferred: open through the directory's descriptor, examine, read only what the guard would allow, then let it decide.
    let found: Found;
    let result: Buffer | null | ReadOutcome | undefined;
    if (f.at === null) found = { kind: "not-opened" };
    else {
      const fd = openDeferred(f.at);
      if (typeof fd !== "number") found = fd;
      else {
        try {
          try {
            found = examineOpenFile(fd, rel);
          } catch (e) {
            return outcomeOf(e);
          }
          if (readable(found, maxBytes)) result = readDescriptor(fd, rel, (found as Found & { size: number }).size, maxBytes, scratch);
        } finally {
          closeSync(fd);
        }
      }
    }
    try {
      scan.settle(f, found, maxBytes);
    } catch (e) {
      return outcomeOf(e);
    }
    // Settled as allowed yet not read: the examination found what settle would refuse, so this is not reached.
    if (result === undefined) return { kind: "skipped", reason: "unreadable" };
    return classify(result);
  } finally {
    scan.release(f, bytes);
  }

  function classify(r: Buffer | null | ReadOutcome): ReadOutcome {
    if (r === null) return { kind: "skipped", reason: "binary" };
    if (!Buffer.isBuffer(r)) return r as ReadOutcome;
    bytes = r.length;
    if (r.indexOf(0) !== -1) return { kind: "skipped", reason: "binary" };
    if (!isUtf8(r)) return { kind: "skipped", reason: "non-utf8" };
    return { kind: "text", bytes: r, text: lazy ? "" : decodeText(r) };
  }
}

function readDescriptor(fd: number, rel: string, size: number, maxBytes: number, scratch: Buffer): Buffer | null | ReadOutcome {
  try {
    return readOpenFile(fd, rel, size, maxBytes, scratch, HEAD);
  } catch (e) {
    return outcomeOf(e);
  }
}

const PLACEHOLDER = /\[REDACTED:[^\]\n]*\]/g;

function newlines(s: string, from = 0, to = s.length): number {
  let n = 0;
  for (let i = s.indexOf("\n", from); i !== -1 && i < to; i = s.indexOf("\n", i + 1)) n++;
  return n;
}

/**
 * `text` redacted as the log redacts a tool result's output, with the same
 * number of lines: after each placeholder that stands for a secret spanning
 * lines, as many newlines as the secret held. The placeholders are found in
 * the output and the kept text between them is matched back to the input in
 * order (a redactor keeps everything but the secrets).
 */
export function redactKeepingLines(redactor: Redactor, text: string): string {
  const out = (redactor.redactJSON({ output: text }).value as { output: string }).output;
  if (out === text) return out;
  const missing = newlines(text) - newlines(out);
  if (missing <= 0) return out;
  const parts: string[] = [];
  const marks: { at: number; end: number }[] = [];
  PLACEHOLDER.lastIndex = 0;
  for (let m = PLACEHOLDER.exec(out); m !== null; m = PLACEHOLDER.exec(out)) marks.push({ at: m.index, end: m.index + m[0].length });
  if (marks.length === 0) return out + "\n".repeat(missing);
  // The kept segments: before the first mark, between marks, after the last.
  let pos = 0; // where the input is matched up to
  let given = 0;
  let last = 0;
  for (let k = 0; k < marks.length; k++) {
    const mk = marks[k] as { at: number; end: number };
    const seg = out.slice(last, mk.at);
    const at = k === 0 ? (text.startsWith(seg) ? 0 : -1) : text.indexOf(seg, pos);
    if (at === -1) break;
    // The secret before this segment (after the previous mark) held these newlines.
    if (k > 0) {
      const n = newlines(text, pos, at);
      parts.push("\n".repeat(Math.min(n, missing - given)));
      given += Math.min(n, missing - given);
    }
    parts.push(seg, out.slice(mk.at, mk.end));
    pos = at + seg.length;
    last = mk.end;
  }
  {
    // The last secret: between where the input is matched up to and the tail kept after the last mark.
    const tail = out.slice(last);
    const at = text.endsWith(tail) ? text.length - tail.length : text.length;
    const n = Math.max(0, at >= pos ? newlines(text, pos, at) : 0);
    const give = Math.min(n, missing - given);
    parts.push("\n".repeat(give), tail);
    given += give;
  }
  let res = parts.join("");
  if (given < missing) res += "\n".repeat(missing - given);
  // Whatever the alignment, the redacted text is what is kept: only newlines were added.
  return res;
}
