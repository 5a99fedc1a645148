// Line-oriented RE2 search over the raw bytes of one file: one native scan per file that has no match.
//
// The pattern (multi-line: `^`/`$` at line boundaries) searches the rest of
// the buffer from the start of a line, which finds the leftmost match in one
// native call; the line holding that match's start is then tested alone, so a
// match must lie within one line, as in ripgrep (a buffer match can cross a
// newline: `\s`, `[^x]`); either way the scan resumes at the next line. Every
// line with a match of its own is found this way, and none twice. `search` on
// a view of the buffer is used rather than `exec` with lastIndex, which costs
// several times more per call in the re2 package (measured: 1.9 against 12.8 ms
// for 1550 matching lines of lodash). A simple pattern's required literals
// find the candidate lines instead (prefilter.ts), and when the pattern is
// one literal its candidates are confirmed without RE2. Offsets are bytes.

import RE2 from "re2";
import { SearchError } from "./errors.js";
import { exactLineMatch, exactLiteral, LiteralScanner, requiredLiterals, type ExactLiteral } from "./prefilter.js";

const make = (source: string, flags: string) => new RE2(source, flags);
/** A compiled RE2 regular expression (the package's instance type, which its typings do not export). */
export type Re2 = ReturnType<typeof make>;

/** A compiled pattern (multi-line flag), for searching buffers from a line start and testing single lines. */
export interface LinePattern {
  readonly source: string;
  readonly re: Re2;
  /** Finds candidate lines by their required literals, when the pattern is simple enough (prefilter.ts). */
  readonly literals: LiteralScanner | null;
  /** The pattern is one literal (with \b at its ends or not): candidate lines are confirmed on their bytes, without RE2. */
  readonly exact: ExactLiteral | null;
}

/** Compiles an RE2 pattern; a pattern RE2 does not support is SearchError "bad-pattern" with the reason. */
export function compilePattern(pattern: string, maxBytes: number): LinePattern {
  if (typeof pattern !== "string") throw new SearchError("bad-pattern", "the pattern must be a string");
  const size = Buffer.byteLength(pattern, "utf8");
  if (size > maxBytes) throw new SearchError("pattern-too-long", `the pattern is ${size} bytes; at most ${maxBytes} are allowed`);
  try {
    const re = make(pattern, "m");
    const lits = requiredLiterals(pattern);
    return { source: pattern, re, literals: lits === null ? null : new LiteralScanner(lits), exact: lits === null ? null : exactLiteral(pattern) };
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    const hint = /invalid perl operator: \(\?[=!<]|invalid escape sequence: \\[1-9]|invalid named capture group/.test(why)
      ? " (RE2 has no lookahead, lookbehind or backreferences)"
      : "";
    throw new SearchError("bad-pattern", `not an RE2 pattern: ${why}${hint}`);
  }
}

/**
 * Calls `onLine(start, end)` for each line (byte offsets, `end` at the newline
 * or the end of the buffer) that has a match, in order, until it returns false.
 */
export function forEachMatchingLine(buf: Buffer, p: LinePattern, onLine: (start: number, end: number) => boolean): void {
  const len = buf.length;
  const re = p.re;
  // pos is always the start of a line, so `^` and `\b` at the view's start mean what they mean there.
  // A final newline ends the last line: there is no empty line after it (and an empty file has none).
  let pos = 0;
  const lits = p.literals;
  lits?.reset(buf);
  while (pos < len) {
    let s: number;
    if (lits !== null) {
      s = lits.find(pos);
      if (s < 0) return;
    } else {
      const i = re.search(pos === 0 ? buf : buf.subarray(pos));
      if (i < 0) return;
      s = pos + i;
    }
    let le = buf.indexOf(10, s);
    if (le === -1) le = len;
    const ls = s === pos ? pos : buf.lastIndexOf(10, s - 1) + 1;
    if (p.exact !== null ? exactLineMatch(buf, p.exact, s, ls, le) : re.test(buf.subarray(ls, le))) {
      if (!onLine(ls, le)) return;
    }
    pos = le + 1;
  }
}

/** Counts newlines in buf[from, to): how many lines a position advances. */
export function countNewlines(buf: Buffer, from: number, to: number): number {
  let n = 0;
  let i = buf.indexOf(10, from);
  while (i !== -1 && i < to) {
    n++;
    i = buf.indexOf(10, i + 1);
  }
  return n;
}

/**
 * The text of buf[start, end) as a line: a trailing CR dropped, cut to
 * `maxChars` characters (then ending with "…"). Decodes only what can be shown.
 */
export function lineText(buf: Buffer, start: number, end: number, maxChars: number): string {
  if (end > start && buf[end - 1] === 13) end--;
  // A UTF-8 character is at most 4 bytes: more bytes than that cannot be shown.
  const cutAt = start + maxChars * 4 + 4;
  const s = buf.toString("utf8", start, end < cutAt ? end : cutAt);
  // Past cutAt there are more than maxChars characters, so s.length > maxChars there.
  if (s.length <= maxChars) return s;
  let cut = maxChars;
  const c = s.charCodeAt(cut - 1);
  if (c >= 0xd800 && c <= 0xdbff) cut--; // never split a surrogate pair
  return `${s.slice(0, cut)}…`;
}
