// A file's text made ready to store: redacted keeping its lines, hashed, cut into chunks and words (no file system, so a worker thread runs it too).
//
// The index's refresh runs this in the main thread, or for a large refresh in
// its preparing thread (prepare-thread.ts): nothing here may import a module
// that loads the fs-ext addon (host/log, the index's locks), which crashes a
// process that loads it in two threads.

import { createHash } from "node:crypto";
import type { Redactor } from "../redact/index.js";
import { chunkStarts, lineOffsets, textKindOf } from "./chunks.js";
import type { DocInput } from "./store.js";
import { wordText, wordTextLines } from "./words.js";

/** The text of a read's bytes, a BOM dropped. */
export function decodeText(bytes: Buffer): string {
  const text = bytes.toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
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

/** The hash a file's chunks are stored under: SHA-256 of its redacted text, 128 bits in base64url. */
export function hashText(text: string): string {
  return createHash("sha256").update(text).digest("base64url").slice(0, 22);
}

/** A text's lines and chunks, without splitting it into line strings (what prepareDoc and a kept file's chunk count need). */
export function chunkText(path: string, text: string): { starts: number[]; lines: number; line: (k: number) => string; upTo: (k: number) => number; at: number[] } {
  const at = lineOffsets(text);
  const n = at.length;
  /** Where line k's text ends (before its newline). */
  const upTo = (k: number): number => {
    let b = k < n ? (at[k] as number) - 1 : text.charCodeAt(text.length - 1) === 10 ? text.length - 1 : text.length;
    if (b > (at[k - 1] as number) && text.charCodeAt(b - 1) === 13) b--;
    return b;
  };
  const line = (k: number): string => text.slice(at[k - 1] as number, upTo(k));
  const kind = textKindOf(path);
  // Only a line whose first character can begin a declaration or a heading is cut out for isBoundary.
  const maybe = (k: number): string => {
    const c = text.charCodeAt(at[k - 1] as number);
    const ok = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 0x5f || c === 0x28 || c === 0x40 || c === 0x23 || (kind === "markdown" && c !== 0x20 && c !== 0x09 && c !== 10 && c !== 13);
    return ok ? line(k) : "";
  };
  return { starts: chunkStarts(n, maybe, kind), lines: n, line, upTo, at };
}

/** A file's text as a document to store: its chunks and their words. */
export function prepareDoc(path: string, hash: string, text: string): DocInput {
  const c = chunkText(path, text);
  // wordText keeps every newline where it is (it only puts spaces in and blanks characters within lines),
  // so the words of line k are line k of the words: one pass over the whole text, then slices.
  const wordLines: number[] = [];
  const w = wordTextLines(text, wordLines);
  const at = w === text ? c.at : wordLines;
  const end = (k: number): number => (k < c.lines ? (at[k] as number) - 1 : w.length);
  const rows = c.starts.map((s, i) => {
    const e = i + 1 < c.starts.length ? (c.starts[i + 1] as number) - 1 : c.lines;
    return { first: w.slice(at[s - 1] as number, end(s)), body: e > s ? w.slice(at[s] as number, end(e)) : "" };
  });
  return { path, hash, lines: c.lines, starts: c.starts, rows, pathWords: wordText(path) };
}
