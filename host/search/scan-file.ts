// One file of a search, to its matching lines: (open, examine,) read, classify, match.
//
// The same code runs in the main thread and in the reading thread
// (grep-worker.ts), so both give the same report for the same file. Either the
// guard opened the file and decided about it (a descriptor: the caller closes
// it), or it deferred that (no checker, no turn cap: GuardScan.openFile's
// `defer`): then the file is opened here through its directory's descriptor,
// examined, read only if `readable`, and closed here, and the guard decides
// when the report is taken (GuardScan.settle). Reads are positional.
//
// The search's caps (matches, output characters) are applied where reports are
// taken, in search order. A reader only has a hint of them: counts that may be
// too low (they miss files read elsewhere) but never too high, so stopping
// when the hint is spent never stops too early; `cut` says a reader stopped at
// a line that did not fit.

import { isUtf8 } from "node:buffer";
import { GuardFileError } from "../guard/errors.js";
import { closeSync } from "node:fs";
import { examineOpenFile, openDeferred, readable, readOpenFile, type Examined, type Found, type HeadCheck } from "../guard/read.js";
import { countNewlines, forEachMatchingLine, lineText, type LinePattern } from "./lines.js";

/** What became of one opened file. */
export type FileOutcome =
  | "searched" // read and searched (it may have no match)
  | "binary" // a NUL byte (in the first block: the rest was not read)
  | "non-utf8" // not UTF-8 text
  | "oversized" // grew past the read cap since it was opened
  | "unreadable" // the operating system refused the read
  | "refused"; // a deferred open or examination found no regular file within the cap (`found` says why): not read

/** The first block, checked for a NUL before the rest of a file is read (as ripgrep's first buffer). */
export const HEAD_BYTES = 64 * 1024;

/** The output caps of one search and what is spent of them (exact where reports are taken, a hint in a reader). */
export interface MatchBudget {
  readonly maxMatches: number;
  readonly maxOutputChars: number;
  /** Matching lines so far. */
  matches: number;
  /** Characters of text (lines and context) so far. */
  chars: number;
  /** Set when a line did not fit: the search stops there. */
  truncated: boolean;
}

export function newBudget(maxMatches: number, maxOutputChars: number, matches = 0, chars = 0): MatchBudget {
  return { maxMatches, maxOutputChars, matches, chars, truncated: false };
}

/** Whether a line of `chars` characters fits; if so it is counted, else the budget is truncated. */
export function spend(b: MatchBudget, chars: number): boolean {
  if (b.matches >= b.maxMatches || b.chars + chars > b.maxOutputChars) {
    b.truncated = true;
    return false;
  }
  b.matches++;
  b.chars += chars;
  return true;
}

/** What a file search needs besides the file: the same for every file of a search. */
export interface FileSearch {
  readonly pattern: LinePattern;
  /** Lines of context before and after a match. */
  readonly context: number;
  /** Longer lines are cut (lineText). */
  readonly maxLineChars: number;
  /** The per-file read cap. */
  readonly maxFileBytes: number;
  /** One buffer reused for the files that fit: a reader holds one file at a time. */
  readonly scratch: Buffer;
}

export interface FileMatch {
  readonly line: number;
  readonly text: string;
  /** With context only. */
  readonly before?: string[];
  readonly after?: string[];
  /** Characters of text and context: what it spends of the output cap. */
  readonly chars: number;
}

export interface FileReport {
  readonly outcome: FileOutcome;
  /** Bytes read. */
  readonly bytes: number;
  /** What a deferred open and examination found (absent when the guard opened the file). */
  readonly found?: Found;
  /** Matching lines in order (searched files only). */
  readonly matches: FileMatch[];
  /** The reader stopped at a matching line its hint of the caps had no room for. */
  readonly cut: boolean;
}

/** A NUL in the first block marks a binary file: the rest of it is never read. */
const HEAD: HeadCheck = { bytes: HEAD_BYTES, accept: (b: Buffer) => b.indexOf(0) === -1 };

export function makeScratch(maxFileBytes: number): Buffer {
  return Buffer.allocUnsafe(Math.min(maxFileBytes + 1, 4 * 1024 * 1024));
}

const NONE: FileMatch[] = [];

function report(outcome: FileOutcome, bytes: number, found: Found | undefined): FileReport {
  return found === undefined ? { outcome, bytes, matches: NONE, cut: false } : { outcome, bytes, found, matches: NONE, cut: false };
}

/** A file as a reader gets it: a descriptor the guard opened (and its size), or where to open it (fd -1). */
export interface FileToRead {
  readonly fd: number;
  readonly at: string | null;
  readonly size: number | null;
}

/**
 * Reads and searches a file (root-relative `rel`), opening and examining it
 * first when the guard deferred that; stops early when `hint` is spent (it is
 * updated).
 */
export function scanFile(f: FileToRead, rel: string, s: FileSearch, hint: MatchBudget): FileReport {
  if (f.fd !== -1) return scanDescriptor(f.fd, rel, f.size as number, undefined, s, hint);
  if (f.at === null) return report("refused", 0, { kind: "not-opened" });
  const fd = openDeferred(f.at);
  if (typeof fd !== "number") return report("refused", 0, fd);
  try {
    let found: Examined;
    try {
      found = examineOpenFile(fd, rel);
    } catch (e) {
      if (e instanceof GuardFileError) return report("unreadable", 0, undefined);
      throw e;
    }
    if (!readable(found, s.maxFileBytes)) return report("refused", 0, found);
    return scanDescriptor(fd, rel, (found as Examined & { kind: "file" }).size, found, s, hint);
  } finally {
    closeSync(fd);
  }
}

function scanDescriptor(fd: number, rel: string, size: number, found: Examined | undefined, s: FileSearch, hint: MatchBudget): FileReport {
  let buf: Buffer | null;
  try {
    buf = readOpenFile(fd, rel, size, s.maxFileBytes, s.scratch, HEAD);
  } catch (e) {
    if (e instanceof GuardFileError) {
      if (e.code === "file-too-large") return report("oversized", 0, found);
      if (e.code === "io") return report("unreadable", 0, found);
    }
    throw e;
  }
  if (buf === null) return report("binary", Math.min(size, HEAD_BYTES), found);
  const bytes = buf.length;
  // Binary: a NUL anywhere after the first block.
  if (buf.indexOf(0) !== -1) return report("binary", bytes, found);
  if (!isUtf8(buf)) return report("non-utf8", bytes, found);
  const matches: FileMatch[] = [];
  const cut = searchText(buf, s, hint, matches);
  return found === undefined ? { outcome: "searched", bytes, matches, cut } : { outcome: "searched", bytes, found, matches, cut };
}

/** Appends the matching lines of UTF-8 text to `out` while `hint` has room; true when it stopped for want of room. */
export function searchText(buf: Buffer, s: FileSearch, hint: MatchBudget, out: FileMatch[]): boolean {
  const { context, maxLineChars: maxLine } = s;
  const len = buf.length;
  let lineNo = 1;
  let counted = 0; // lineNo is the number of the line starting at `counted`
  let cut = false;
  forEachMatchingLine(buf, s.pattern, (ls, le) => {
    if (hint.matches >= hint.maxMatches) {
      cut = hint.truncated = true;
      return false;
    }
    lineNo += countNewlines(buf, counted, ls);
    counted = ls;
    const text = lineText(buf, ls, le, maxLine);
    let chars = text.length;
    let before: string[] | undefined;
    let after: string[] | undefined;
    if (context > 0) {
      before = [];
      let e = ls - 1; // the newline ending the line before
      for (let k = 0; k < context && e >= 0; k++) {
        const st = e === 0 ? 0 : buf.lastIndexOf(10, e - 1) + 1;
        const t = lineText(buf, st, e, maxLine);
        before.unshift(t);
        chars += t.length;
        e = st - 1;
      }
      after = [];
      let st = le + 1;
      for (let k = 0; k < context && st < len; k++) {
        let e2 = buf.indexOf(10, st);
        if (e2 === -1) e2 = len;
        const t = lineText(buf, st, e2, maxLine);
        after.push(t);
        chars += t.length;
        st = e2 + 1;
      }
    }
    if (!spend(hint, chars)) {
      cut = true;
      return false;
    }
    out.push(before === undefined ? { line: lineNo, text, chars } : { line: lineNo, text, before, after: after as string[], chars });
    return true;
  });
  return cut;
}
