// The code-aware word splitter: text to the words an index keeps, split as code names them (shared by every nodwyn index).
//
// The contract (the repository index and the conversation memory of issue 15
// both rely on it; change it only with a new index format):
//
//   1. A word is cut from a maximal run of word characters: ASCII letters and
//      digits, and every character from U+0080 up that Unicode counts as a
//      letter, a number or a mark (\p{L}, \p{N}, \p{M}). Everything else
//      separates words: spaces, punctuation, `_`, `-`, `.`, `/`, `$`, …, so
//      snake_case, kebab-case, dotted.names and paths fall apart into their
//      parts (`index-grep` → index, grep; `MAX_FILE_BYTES` → max, file, bytes).
//   2. Inside a run, a word ends
//        - before an upper-case letter (ASCII A-Z, or a non-ASCII letter
//          Unicode calls upper or title case) that follows a lower-case or
//          uncased one (ASCII a-z, or any other non-ASCII word character):
//          camelCase and PascalCase (`ScrubEnv` → scrub, env);
//        - before the last upper-case letter of a run of them when a
//          lower-case one follows it (`HTTPServer` → http, server;
//          `parseJSONValue` → parse, json, value);
//        - between an ASCII digit and anything that is not one, either way
//          (`sha256sum` → sha, 256, sum; `utf8` → utf, 8; `T21` → t, 21).
//   3. ASCII letters are folded to lower case; nothing else is changed (no
//      Unicode case folding, no normalization, no stemming, no stop words).
//   4. A word longer than MAX_WORD_LENGTH characters (UTF-16 units) is dropped
//      whole: such runs are hashes, base64 and minified code, never names a
//      person searches for, and they would fill the vocabulary.
//
// A query is split by the same rules (queryWords), so whatever way a name is
// written in a query, it meets the same words in the text: `scrub_env`,
// `ScrubEnv`, `scrub-env` and `SCRUB_ENV` are all (scrub, env).

/** Words longer than this (in UTF-16 units) are dropped. */
export const MAX_WORD_LENGTH = 64;

// Character classes of the state machine.
const SEP = 0;
const LOWER = 1; // ASCII a-z, and non-ASCII letters, numbers and marks that are not upper or title case
const UPPER = 2; // ASCII A-Z, and non-ASCII upper- and title-case letters
const DIGIT = 3; // ASCII 0-9

const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  ASCII_CLASS[c] = c >= 97 && c <= 122 ? LOWER : c >= 65 && c <= 90 ? UPPER : c >= 48 && c <= 57 ? DIGIT : SEP;
}

const WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;
const UPPER_CHAR = /^[\p{Lu}\p{Lt}]$/u;

function classOf(ch: string): number {
  if (!WORD_CHAR.test(ch)) return SEP;
  return UPPER_CHAR.test(ch) ? UPPER : LOWER;
}

/** The class of the character at `i` (both units of a surrogate pair have the pair's class). */
function classAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return ASCII_CLASS[c] as number;
  if (c >= 0xd800 && c <= 0xdbff) {
    const cp = text.codePointAt(i) as number;
    return cp > 0xffff ? classOf(String.fromCodePoint(cp)) : SEP;
  }
  if (c >= 0xdc00 && c <= 0xdfff) {
    // The second half of a pair is classified with its first; a lone half separates.
    const h = i > 0 ? text.charCodeAt(i - 1) : 0;
    return h >= 0xd800 && h <= 0xdbff ? classAt(text, i - 1) : SEP;
  }
  // A BMP character's class by its two regular expressions once, then from a table (made at the first such character).
  const t = (BMP_CLASS ??= new Uint8Array(0x10000));
  let v = t[c] as number;
  if (v === 0) t[c] = v = classOf(text[i] as string) + 1;
  return v - 1;
}

/** Class + 1 of each BMP character met so far (0: not yet classified). */
let BMP_CLASS: Uint8Array | null = null;

/**
 * Cuts `text` into its words: pushes each word's [from, to, hasUpper] onto
 * `out` (flat), dropping the words over MAX_WORD_LENGTH. One pass over the
 * characters; the rules are looked at only where the class changes.
 */
function cut(text: string, out: number[]): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    let k = text.charCodeAt(i);
    let cls = k < 128 ? (ASCII_CLASS[k] as number) : classAt(text, i);
    if (cls === SEP) {
      i++;
      continue;
    }
    // A run of word characters.
    let start = i;
    let prev = cls;
    let upper = cls === UPPER ? 1 : 0;
    for (i++; i < n; i++) {
      k = text.charCodeAt(i);
      cls = k < 128 ? (ASCII_CLASS[k] as number) : classAt(text, i);
      if (cls === prev) continue;
      if (cls === SEP) break;
      // Both units of a surrogate pair have the pair's class, so a change is never inside a pair.
      if (cls === DIGIT || prev === DIGIT || (cls === UPPER && prev === LOWER)) {
        push(out, start, i, upper);
        start = i;
        upper = 0;
      } else if (cls === LOWER && prev === UPPER && i - start >= 2) {
        // The end of a run of capitals: its last capital begins the next word (HTTPServer).
        let j = i - 1;
        if (isLowSurrogate(text, j)) j--;
        if (j > start) {
          push(out, start, j, 1);
          start = j;
        }
      }
      if (cls === UPPER) upper = 1;
      prev = cls;
    }
    push(out, start, i, upper);
  }
}

function push(out: number[], from: number, to: number, upper: number): void {
  if (to - from <= MAX_WORD_LENGTH) out.push(from, to, upper);
}

function isLowSurrogate(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 0xdc00 && c <= 0xdfff;
}

/** The spans of one call, reused (the splitter is synchronous and not re-entrant). */
const SPANS: number[] = [];

/**
 * Calls `emit` with every word of `text`, in text order (a word as often as it
 * occurs). The words follow the contract in this file's header.
 */
export function forEachWord(text: string, emit: (word: string) => void): void {
  const spans = SPANS;
  spans.length = 0;
  cut(text, spans);
  // Copied out first: emit may split another text.
  const mine = spans.slice();
  for (let k = 0; k < mine.length; k += 3) {
    const w = text.slice(mine[k] as number, mine[k + 1] as number);
    emit(mine[k + 2] === 1 ? asciiLower(w) : w);
  }
}

/** ASCII letters to lower case, everything else as it is (String#toLowerCase folds all of Unicode). */
function asciiLower(w: string): string {
  let out = "";
  let last = 0;
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    if (c >= 65 && c <= 90) {
      out += w.slice(last, i) + String.fromCharCode(c + 32);
      last = i + 1;
    }
  }
  return last === 0 ? w : out + w.slice(last);
}

/** The words of `text` in order, repeats included. */
export function splitWords(text: string): string[] {
  const out: string[] = [];
  forEachWord(text, (w) => out.push(w));
  return out;
}

/** How often each word occurs in `text`, added into `into` when given (insertion order: first occurrence). */
export function countWords(text: string, into: Map<string, number> = new Map()): Map<string, number> {
  forEachWord(text, (w) => into.set(w, (into.get(w) ?? 0) + 1));
  return into;
}

/** The distinct words of a query, in the order they first occur; at most `max` of them. */
export function queryWords(query: string, max = 64): string[] {
  const seen = new Set<string>();
  forEachWord(query, (w) => {
    if (seen.size < max) seen.add(w);
  });
  return [...seen];
}

/**
 * `text` as the store's FTS5 `ascii` tokenizer must see it to find exactly
 * splitWords(text): a space put where a word ends inside a run (camelCase,
 * digits), spaces for the characters the splitter does not keep (non-ASCII
 * punctuation and symbols, which that tokenizer would keep) and for the words
 * it drops (over MAX_WORD_LENGTH). Everything else is left as it is: ASCII
 * punctuation separates for the tokenizer too, and it folds ASCII case itself.
 * One pass; a stretch with nothing to change is copied as one slice.
 */
export function wordText(text: string): string {
  return wordTextLines(text, null);
}

/**
 * wordText(text), and when `lines` is given, the offset of each line of the
 * result pushed onto it as chunks.ts lineOffsets would find them in the result
 * (0 first, then one after each newline that is not the last character; none
 * for an empty text): the newlines are met on the way, so the result is not
 * scanned again.
 */
export function wordTextLines(text: string, lines: number[] | null): string {
  const n = text.length;
  let out = "";
  let outLen = 0; // out.length, kept as a number
  let copied = 0; // text[copied, i) is still to be copied
  let i = 0;
  const space = (at: number): void => {
    out += text.slice(copied, at) + " ";
    outLen += at - copied + 1;
    copied = at;
  };
  const blank = (from: number, to: number): void => {
    out += text.slice(copied, from) + " ";
    outLen += from - copied + 1;
    copied = to;
  };
  if (lines !== null && n > 0) lines.push(0);
  while (i < n) {
    let k = text.charCodeAt(i);
    let cls = k < 128 ? (ASCII_CLASS[k] as number) : classAt(text, i);
    if (cls === SEP) {
      // A non-ASCII separator (and a lone surrogate) would be a token character for the tokenizer.
      if (k >= 128) {
        const w = k >= 0xd800 && k <= 0xdbff && isLowSurrogate(text, i + 1) ? 2 : 1;
        blank(i, i + w);
        i += w;
      } else {
        // A newline is copied as it is: in the result it stands at outLen + (i - copied).
        if (k === 10 && lines !== null && i + 1 < n) lines.push(outLen + (i - copied) + 1);
        i++;
      }
      continue;
    }
    let start = i;
    let prev = cls;
    for (i++; i < n; i++) {
      k = text.charCodeAt(i);
      cls = k < 128 ? (ASCII_CLASS[k] as number) : classAt(text, i);
      if (cls === prev) continue;
      if (cls === SEP) break;
      if (cls === DIGIT || prev === DIGIT || (cls === UPPER && prev === LOWER)) {
        if (i - start > MAX_WORD_LENGTH) blank(start, i);
        space(i);
        start = i;
      } else if (cls === LOWER && prev === UPPER && i - start >= 2) {
        let j = i - 1;
        if (isLowSurrogate(text, j)) j--;
        if (j > start) {
          if (j - start > MAX_WORD_LENGTH) blank(start, j);
          space(j);
          start = j;
        }
      }
      prev = cls;
    }
    if (i - start > MAX_WORD_LENGTH) blank(start, i);
  }
  return copied === 0 ? text : out + text.slice(copied);
}
