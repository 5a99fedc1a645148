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
import { decodeText } from "./prepare.js";

export { decodeText, redactKeepingLines } from "./prepare.js";

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
