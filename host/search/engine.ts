// The scan engine behind fs-find and index-grep: discovery, guarded reads, skips and limits, in one process.
//
// How protected files and denials are reconciled (seed "Repository text
// retrieval": "nonregular, protected, oversized, binary and non-UTF-8
// candidates are skipped"; "each selected read goes through … the full shared
// guard … a denial stops the search"): every candidate is read through the
// guard's scan. The guard's own static rules — the denylist judged by name
// before anything is opened, and a file that turned special — make a candidate
// "protected" or "nonregular": counted, its refusal logged, the search goes on.
// A denial past them (a checker, a person's no, a turn cap, a path swapped for
// a link) stops the search with that GuardDeniedError; it is never an empty
// file. A checker's ask that no one can answer leaves the file out: counted as
// "withheld" and named in `withheld`. A named path (the file or directory
// searched) the denylist protects is an error, since the caller asked for it.
// fs-find reads nothing: its discovery leaves protected files out and counts
// them, and logs nothing for them.
//
// The work is synchronous system calls in a loop (fastest for many small
// files), paced: every ~10 ms it yields to the event loop so an AbortSignal or
// a timer can fire; the deadline and the signal are checked before every file.

import { isUtf8 } from "node:buffer";
import { GuardDeniedError, GuardFileError, type Guard, type GuardScan } from "../guard/index.js";
import { SearchError } from "./errors.js";
import { compileGlobs, type GlobFilter } from "./glob.js";
import { DEFAULT_SEARCH_LIMITS, type SearchLimits } from "./limits.js";
import { compilePattern, countNewlines, forEachMatchingLine, lineText, type LinePattern } from "./lines.js";
import { countSkip, discover, type Control, type SkipCounts } from "./walk.js";

/** One matching line. */
export interface GrepMatch {
  /** Relative to the repository root, `/`-separated. */
  readonly path: string;
  /** One-based. */
  readonly line: number;
  readonly text: string;
  /** With context: up to `context` lines before the match, in order. */
  readonly before?: string[];
  /** With context: up to `context` lines after it. */
  readonly after?: string[];
}

export interface GrepResult {
  /** Sorted by path (path order) and line. */
  readonly matches: GrepMatch[];
  /** Files searched (read and scanned). */
  readonly files: number;
  /** Candidates skipped, by reason (only reasons that occurred, in alphabetical order). */
  readonly skipped: SkipCounts;
  /** More matches (or output) than the caps: the result is incomplete. */
  readonly truncated: boolean;
  /** Files a checker asked about that no one could answer: left out, never read. Present only when not empty. */
  readonly withheld?: string[];
}

export interface FindResult {
  /** Regular files relative to the root, in path order (protected ones left out). */
  readonly files: string[];
  readonly skipped: SkipCounts;
}

export interface SearchOptions {
  /** One glob or several (ripgrep --glob semantics; see glob.ts). */
  readonly glob?: string | readonly string[] | null;
  readonly signal?: AbortSignal;
  /** Overrides of the engine's limits for this call. */
  readonly limits?: Partial<SearchLimits>;
  /** Who asks, for the guard's decisions (default: the guard's actor). */
  readonly actor?: string;
}

export interface GrepOptions extends SearchOptions {
  /** Lines of context before and after each match, 0..maxContext. */
  readonly context?: number;
  /** Do not ask the person about files a checker asks about: withhold them. */
  readonly withoutAsking?: boolean;
}

/** The scan engine of a session: searches files under the guard's root, through the guard. */
export interface SearchEngine {
  readonly guard: Guard;
  readonly limits: SearchLimits;
  /** fs-find: the files below `path` the glob selects, without reading them. */
  find(path: string, opts?: SearchOptions): Promise<FindResult>;
  /** index-grep: the lines matching an RE2 pattern in the files below `path`. */
  grep(path: string, pattern: string, opts?: GrepOptions): Promise<GrepResult>;
}

/** Creates the scan engine over a guard, with default limits (DEFAULT_SEARCH_LIMITS) overridden by `limits`. */
export function createSearchEngine(guard: Guard, limits: Partial<SearchLimits> = {}): SearchEngine {
  const base: SearchLimits = { ...DEFAULT_SEARCH_LIMITS, ...limits };
  return {
    guard,
    limits: base,
    find: (path, opts = {}) => find(guard, path, { ...opts, limits: { ...base, ...opts.limits } }),
    grep: (path, pattern, opts = {}) => grep(guard, path, pattern, { ...opts, limits: { ...base, ...opts.limits } }),
  };
}

const PACE_MS = 10;
/** The first block, checked for a NUL before the rest of a file is read (as ripgrep's first buffer). */
const HEAD_BYTES = 64 * 1024;

function makeControl(signal: AbortSignal | undefined, timeoutMs: number): Control {
  const deadline = performance.now() + timeoutMs;
  let lastPace = performance.now();
  const resume = (): void => {
    lastPace = performance.now();
  };
  return {
    check() {
      if (signal?.aborted) throw new SearchError("aborted", "the search was cancelled");
      if (performance.now() > deadline) throw new SearchError("timeout", `the search took longer than ${timeoutMs / 1000} seconds: pass a narrower path or a glob`);
    },
    pace() {
      if (performance.now() - lastPace < PACE_MS) return undefined;
      return new Promise<void>((r) => setImmediate(r)).then(resume);
    },
  };
}

/** The counts with their reasons in alphabetical order, so results print the same whatever the walk met first. */
function sortedCounts(s: SkipCounts): SkipCounts {
  const out: SkipCounts = {};
  for (const k of (Object.keys(s) as Array<keyof SkipCounts>).sort()) out[k] = s[k];
  return out;
}

function describe(path: string, glob: SearchOptions["glob"]): string {
  const g = glob === undefined || glob === null ? "" : ` matching ${JSON.stringify(glob)}`;
  return `under ${JSON.stringify(path)}${g}`;
}

/** fs-find over a guard (see SearchEngine.find). */
export async function find(guard: Guard, path: string, opts: SearchOptions = {}): Promise<FindResult> {
  const lim: SearchLimits = { ...DEFAULT_SEARCH_LIMITS, ...opts.limits };
  const filter = compileGlobs(opts.glob);
  const control = makeControl(opts.signal, lim.timeoutMs);
  control.check();
  const actor = opts.actor;
  const scan = guard.scan(actor === undefined ? {} : { actor });
  try {
    const d = await discover(path, { guard, scan, actor, filter, maxFiles: lim.maxFiles, control, describe: describe(path, opts.glob) });
    return { files: d.candidates, skipped: sortedCounts(d.skipped) };
  } finally {
    scan.close();
  }
}

/** index-grep over a guard (see SearchEngine.grep). */
export async function grep(guard: Guard, path: string, pattern: string, opts: GrepOptions = {}): Promise<GrepResult> {
  const lim: SearchLimits = { ...DEFAULT_SEARCH_LIMITS, ...opts.limits };
  const context = opts.context ?? 0;
  if (!Number.isInteger(context) || context < 0 || context > lim.maxContext) {
    throw new SearchError("bad-context", `context must be an integer from 0 to ${lim.maxContext}, got ${String(context)}`);
  }
  // A bad pattern or glob fails before anything is listed or read.
  const pat = compilePattern(pattern, lim.maxPatternBytes);
  const filter = compileGlobs(opts.glob);
  const control = makeControl(opts.signal, lim.timeoutMs);
  control.check();
  const actor = opts.actor;
  const scan = guard.scan(actor === undefined ? { withoutAsking: opts.withoutAsking === true } : { actor, withoutAsking: opts.withoutAsking === true });
  try {
    return await grepScan(guard, scan, path, pat, filter, control, lim, context, actor, opts.glob);
  } finally {
    scan.close();
  }
}

async function grepScan(
  guard: Guard,
  scan: GuardScan,
  path: string,
  pat: LinePattern,
  filter: GlobFilter | null,
  control: Control,
  lim: SearchLimits,
  context: number,
  actor: string | undefined,
  glob: SearchOptions["glob"],
): Promise<GrepResult> {
  const d = await discover(path, { guard, scan, actor, filter, maxFiles: lim.maxFiles, control, describe: describe(path, glob), keepProtectedFiles: true });

  const skipped = d.skipped;
  const matches: GrepMatch[] = [];
  const withheld: string[] = [];
  let files = 0;
  let truncated = false;
  let outChars = 0;
  // Files that fit are read into one reused buffer: a search holds one file at a time.
  const scratch = Buffer.allocUnsafe(Math.min(lim.maxFileBytes + 1, 4 * 1024 * 1024));
  // A NUL in the first block marks a binary file: the rest of it is never read.
  const readOpts = { maxBytes: lim.maxFileBytes, scratch, head: { bytes: HEAD_BYTES, accept: (b: Buffer) => b.indexOf(0) === -1 } };
  const maxLine = lim.maxLineChars;

  for (const rel of d.candidates) {
    control.check();
    const p = control.pace();
    if (p !== undefined) await p;
    let buf: Buffer | null;
    try {
      const r = scan.readFile(rel, readOpts);
      buf = r instanceof Promise ? await r : r;
    } catch (e) {
      if (e instanceof GuardDeniedError) {
        if (e.rule === "denylist") countSkip(skipped, "protected");
        else if (e.rule === "special-file") countSkip(skipped, "nonregular");
        else if (e.rule === "ask-unanswered") {
          countSkip(skipped, "withheld");
          withheld.push(rel);
        } else throw e;
        continue;
      }
      if (e instanceof GuardFileError) {
        if (e.code === "file-too-large") countSkip(skipped, "oversized");
        else if (e.code === "not-found") countSkip(skipped, "vanished");
        else if (e.code === "io") countSkip(skipped, "unreadable");
        else throw e;
        continue;
      }
      throw e;
    }
    // Binary: a NUL in the first block (then the rest was not read) or anywhere after it.
    if (buf === null || buf.indexOf(0) !== -1) {
      countSkip(skipped, "binary");
      continue;
    }
    if (!isUtf8(buf)) {
      countSkip(skipped, "non-utf8");
      continue;
    }
    files++;
    let lineNo = 1;
    let counted = 0; // lineNo is the number of the line starting at `counted`
    const len = buf.length;
    forEachMatchingLine(buf, pat, (ls, le) => {
      if (matches.length >= lim.maxMatches) {
        truncated = true;
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
          const s = e === 0 ? 0 : buf.lastIndexOf(10, e - 1) + 1;
          const t = lineText(buf, s, e, maxLine);
          before.unshift(t);
          chars += t.length;
          e = s - 1;
        }
        after = [];
        let s = le + 1;
        for (let k = 0; k < context && s < len; k++) {
          let e2 = buf.indexOf(10, s);
          if (e2 === -1) e2 = len;
          const t = lineText(buf, s, e2, maxLine);
          after.push(t);
          chars += t.length;
          s = e2 + 1;
        }
      }
      if (outChars + chars > lim.maxOutputChars) {
        truncated = true;
        return false;
      }
      outChars += chars;
      matches.push(before === undefined ? { path: rel, line: lineNo, text } : { path: rel, line: lineNo, text, before, after: after as string[] });
      return true;
    });
    if (truncated) break;
  }
  const result: GrepResult = { matches, files, skipped: sortedCounts(skipped), truncated };
  return withheld.length > 0 ? { ...result, withheld } : result;
}
