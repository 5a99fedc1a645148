// fs-read, fs-find and index-grep: thin adapters from Scheme values to the read guard and the scan engine.
//
// The services are handed in (a primitive never opens a file itself); results
// are built in SRFI 180's JSON mapping (json-value.ts); host failures become
// Scheme conditions with the host's stable codes: a guard denial is a `host`
// condition with code "guard-denied", a missing file a `file` condition.

import {
  MString,
  SchemeError,
  T,
  fileError,
  hostError,
  rangeError,
  type ArgType,
  type Ctx,
} from "../../interpreter/api.js";
import type { Guard } from "../../host/guard/index.js";
import type { FindResult, GrepResult, SearchEngine } from "../../host/search/index.js";
import type { AgentToolSpec } from "./tool.js";
import { jsonToScheme, schemeToJson } from "./json-value.js";

/** Caps of one fs-read call. */
export interface FsReadLimits {
  /** Larger files are refused ("file-too-large"): search them with index-grep, or read a range of a smaller one. */
  readonly maxFileBytes: number;
  /** Characters returned by one call; the text stops at a whole line within it. */
  readonly maxOutputChars: number;
  /** Lines returned by one call. */
  readonly maxLines: number;
}

export const DEFAULT_FS_READ_LIMITS: FsReadLimits = Object.freeze({
  maxFileBytes: 8 * 1024 * 1024,
  maxOutputChars: 100_000,
  maxLines: 2000,
});

/** What the file primitives need from the host (built by the session, never by a primitive). */
export interface FileToolServices {
  /** The session's repository root (real path): the root paths are relative to. */
  readonly root: string;
  /** The read guard every read goes through. */
  readonly guard: Guard;
  /** The scan engine over that guard. */
  readonly search: SearchEngine;
  /** Who is calling now, for the guard's decisions: "model" for a tool call, "strategy", … (default "agent"). */
  readonly actor?: () => string;
  /** The current evaluation's AbortSignal, so a search stops with it. */
  readonly signal?: () => AbortSignal | undefined;
  /** Overrides of fs-read's caps. */
  readonly readLimits?: Partial<FsReadLimits>;
}

const stringOrFalse: ArgType = { name: "string or #f", test: (x) => x instanceof MString || x === false };
const indexOrFalse: ArgType = { name: "exact non-negative integer or #f", test: (x) => (typeof x === "number" && Number.isInteger(x) && x >= 0) || x === false };

/** An optional argument: absent (undefined) or #f both mean "not given". */
function given<T>(x: T | false | undefined): x is T {
  return x !== undefined && x !== false;
}

/** Re-raises a host failure as a Scheme condition. */
function raiseHost(who: string, e: unknown): never {
  if (e instanceof SchemeError) throw e;
  const o = e as { domain?: unknown; code?: unknown; message?: unknown; path?: unknown; rule?: unknown };
  const message = typeof o?.message === "string" ? o.message : String(e);
  if (o?.domain === "guard" && typeof o.code === "string") {
    const path = new MString(typeof o.path === "string" ? o.path : "");
    switch (o.code) {
      case "not-found":
      case "is-directory":
      case "not-directory":
      case "bad-path":
      case "io":
        fileError(who, message, path, o.code);
        break;
      default:
        hostError(o.code, message, [path], who);
    }
  }
  if (o?.domain === "search" && typeof o.code === "string") hostError(o.code, message, [], who);
  hostError("io", message, [], who);
}

/** The caller-relative fields of a search: actor and signal. */
function callOpts(s: FileToolServices): { actor: string; signal?: AbortSignal } {
  const actor = s.actor?.() ?? "agent";
  const signal = s.signal?.();
  return signal === undefined ? { actor } : { actor, signal };
}

function skippedText(skipped: Record<string, number>): string {
  const parts = Object.entries(skipped).map(([k, n]) => `${k} ${n}`);
  return parts.length === 0 ? "" : `; skipped: ${parts.join(", ")}`;
}

interface ReadResult {
  path: string;
  start: number;
  end: number;
  total: number;
  truncated: boolean;
  text: string;
}

/** Lines [start, start+count) of a text, with their newlines, within the caps. */
export function sliceLines(text: string, start: number, count: number, lim: FsReadLimits): Omit<ReadResult, "path"> {
  // Line k (1-based) begins at offsets[k-1]; a final newline ends the last line, it does not begin another.
  const offsets: number[] = [];
  if (text.length > 0) {
    offsets.push(0);
    let i = text.indexOf("\n");
    while (i !== -1 && i + 1 < text.length) {
      offsets.push(i + 1);
      i = text.indexOf("\n", i + 1);
    }
  }
  const total = offsets.length;
  const want = Math.min(count, lim.maxLines);
  let out = "";
  let k = start;
  let truncated = count > lim.maxLines && start + lim.maxLines - 1 < total;
  for (; k < start + want && k <= total; k++) {
    const from = offsets[k - 1] as number;
    const to = k < total ? (offsets[k] as number) : text.length;
    if (out.length + (to - from) > lim.maxOutputChars) {
      truncated = true;
      // A first line longer than the whole cap is cut, so something is returned.
      if (out.length === 0) {
        out = text.slice(from, from + lim.maxOutputChars);
        k++;
      }
      break;
    }
    out += text.slice(from, to);
  }
  return { start, end: k - 1, total, truncated, text: out };
}

/** The file primitives over the given services, as table entries. */
export function fileToolPrimitives(services: FileToolServices): AgentToolSpec[] {
  const readLimits: FsReadLimits = { ...DEFAULT_FS_READ_LIMITS, ...services.readLimits };
  return [
    {
      name: "fs-read",
      params: ["path", "[start-line]", "[line-count]"],
      types: [T.string, indexOrFalse, indexOrFalse],
      async: true,
      doc:
        "Reads a UTF-8 text file of the repository through the read guard and returns " +
        "((path . p) (start . a) (end . b) (total . n) (truncated . t) (text . s)): lines a to b " +
        "(one-based, each with its newline) of the file's n lines. start-line defaults to 1, " +
        "line-count to the rest of the file; a read returns at most " +
        `${readLimits.maxLines} lines and ${readLimits.maxOutputChars} characters, stopping at a whole line ` +
        "(then truncated is #t: read on from b + 1). path is relative to the repository root. Files over " +
        `${readLimits.maxFileBytes} bytes, files that are not UTF-8 or hold a NUL byte, directories, links and anything the guard ` +
        "denies (secret files, a project's checkers) raise an error; a denial is never an empty text.",
      tool: {
        description:
          "Read a text file of the repository, whole or a range of lines. The result starts with " +
          "[lines A-B of N] when it is not the whole file. Paths are relative to the repository root.",
        inputSchema: {
          type: "object",
          properties: {
            path: { type: "string", description: "File path relative to the repository root." },
            "start-line": { type: "integer", minimum: 1, description: "First line to return (one-based, default 1)." },
            "line-count": { type: "integer", minimum: 0, description: "How many lines to return (default: to the end, within the caps)." },
          },
          required: ["path"],
          additionalProperties: false,
        },
      },
      async impl(this: Ctx, path: MString, startLine?: number | false, lineCount?: number | false) {
        const start = given(startLine) ? startLine : 1;
        if (start < 1) rangeError("fs-read", 2, "start-line must be at least 1", startLine);
        const count = given(lineCount) ? lineCount : Infinity;
        let text: string;
        const rel = path.toString();
        try {
          text = await services.guard.readText(rel, { actor: callOpts(services).actor, maxBytes: readLimits.maxFileBytes });
        } catch (e) {
          raiseHost("fs-read", e);
        }
        // NUL is valid UTF-8 but no text holds it: a binary file is not returned as text (index-grep skips it too).
        if (text.includes("\0")) hostError("binary-file", `${rel} is a binary file (it holds a NUL byte)`, [path], "fs-read");
        const r = sliceLines(text, start, count, readLimits);
        const shown = rel.replace(/^(\.\/)+/, "");
        return jsonToScheme(this, { path: shown, ...r });
      },
      render(result: any): string {
        const r = schemeToJson(result) as ReadResult;
        const whole = r.start === 1 && r.end === r.total && !r.truncated;
        if (whole) return r.text;
        if (r.end < r.start) return `[no lines: ${r.path} has ${r.total} line${r.total === 1 ? "" : "s"}; asked from line ${r.start}]`;
        const head = `[lines ${r.start}-${r.end} of ${r.total}]\n`;
        const tail = r.truncated ? `\n[truncated at the read cap: read on from line ${r.end + 1}]` : "";
        return head + r.text + tail;
      },
    },
    {
      name: "fs-find",
      params: ["path", "[glob]"],
      types: [T.string, stringOrFalse],
      async: true,
      doc:
        "Lists the regular files below path (relative to the repository root), walked exactly as " +
        "index-grep walks, without reading them: ((files . #(\"a/b.ts\" ...)) (skipped . ((reason . count) ...))). " +
        "Paths are relative to the root, in path order. Hidden entries (names starting with a dot) below path " +
        "are not listed; symbolic links and other non-regular entries are counted as skipped nonregular, " +
        "files the guard's denylist protects as protected; no link is followed and no ignore file is read. " +
        "glob follows ripgrep's --glob: *, ? and [...] within a component, ** across directories, {a,b}; " +
        "a glob without a slash matches any path component (\"*.py\", \"tests\"), one with a slash matches " +
        "from the start of the path; a leading ! keeps what the rest does not match. More than " +
        `${services.search.limits.maxFiles} files is an error asking for a narrower path or a glob.`,
      tool: {
        description:
          "List file names below a directory of the repository (no contents), optionally filtered by a glob " +
          "with ripgrep's --glob semantics. Hidden files are not listed.",
        inputSchema: {
          type: "object",
          properties: {
            path: { type: "string", description: "Directory (or file) relative to the repository root; \".\" for all of it." },
            glob: { type: "string", description: "e.g. \"*.ts\", \"src/**/*.go\", \"!vendor\"." },
          },
          required: ["path"],
          additionalProperties: false,
        },
      },
      async impl(this: Ctx, path: MString, glob?: MString | false) {
        let r: FindResult;
        try {
          r = await services.search.find(path.toString(), { ...callOpts(services), glob: given(glob) ? glob.toString() : null });
        } catch (e) {
          raiseHost("fs-find", e);
        }
        return jsonToScheme(this, { files: r.files, skipped: r.skipped });
      },
      render(result: any): string {
        const r = schemeToJson(result) as { files: string[]; skipped: Record<string, number> };
        const SHOW = 1000;
        const lines = r.files.slice(0, SHOW);
        if (r.files.length > SHOW) lines.push(`[${r.files.length - SHOW} more not shown: narrow the path or the glob]`);
        const foot = `[${r.files.length} file${r.files.length === 1 ? "" : "s"}${skippedText(r.skipped)}]`;
        return r.files.length === 0 ? `no files${skippedText(r.skipped)}` : `${lines.join("\n")}\n${foot}`;
      },
    },
    {
      name: "index-grep",
      params: ["path", "pattern", "[glob]", "[context]"],
      types: [T.string, T.string, stringOrFalse, indexOrFalse],
      async: true,
      doc:
        "Searches the files below path (relative to the repository root) for lines matching pattern, an RE2 " +
        "regular expression (the syntax ripgrep and Go use: no lookaround, no backreferences; (?i) for case-" +
        "insensitive) of at most 4 KiB. Returns ((matches . #(((path . p) (line . n) (text . s)) ...)) " +
        "(files . searched) (skipped . ((reason . count) ...)) (truncated . #f)), matches sorted by path and " +
        "line; with context (0 to 5) each match also has before and after, vectors of lines. Files are " +
        "walked as fs-find walks them (hidden entries skipped, no link followed, no ignore file read) and " +
        "filtered by glob (ripgrep's --glob, as fs-find); every file is read through the read guard. Binary, " +
        "non-UTF-8, oversized, protected and non-regular files are skipped and counted by reason; a file a " +
        "project checker asks about with no one to answer is left out, counted as withheld and named in " +
        "withheld; any other guard denial stops the search with an error. Limits: " +
        `${services.search.limits.maxFiles} candidate files (more is an error: narrow the path or pass a glob), ` +
        `${services.search.limits.maxMatches} matching lines (then truncated is #t), ` +
        `${services.search.limits.maxFileBytes} bytes per file, ${services.search.limits.maxLineChars} characters ` +
        `per line shown, ${services.search.limits.timeoutMs / 1000} seconds. No match is an ordinary result.`,
      tool: {
        description:
          "Search the repository's files for lines matching an RE2 regular expression (ripgrep syntax), " +
          "optionally only files matching a glob, with up to 5 lines of context. Reads current files on every " +
          "call; results are sorted by path and line.",
        inputSchema: {
          type: "object",
          properties: {
            path: { type: "string", description: "Directory or file relative to the repository root; \".\" for all of it." },
            pattern: { type: "string", maxLength: 4096, description: "RE2 regular expression, e.g. \"func (Build|Replay)\" or \"(?i)todo\"." },
            glob: { type: "string", description: "Only files matching this glob (ripgrep --glob), e.g. \"*.ts\" or \"!vendor\"." },
            context: { type: "integer", minimum: 0, maximum: 5, description: "Lines of context before and after each match." },
          },
          required: ["path", "pattern"],
          additionalProperties: false,
        },
      },
      async impl(this: Ctx, path: MString, pattern: MString, glob?: MString | false, context?: number | false) {
        const max = services.search.limits.maxContext;
        if (given(context) && context > max) rangeError("index-grep", 4, `context must be 0 to ${max}`, context);
        let r: GrepResult;
        try {
          r = await services.search.grep(path.toString(), pattern.toString(), {
            ...callOpts(services),
            glob: given(glob) ? glob.toString() : null,
            context: given(context) ? context : 0,
          });
        } catch (e) {
          raiseHost("index-grep", e);
        }
        return jsonToScheme(this, r);
      },
      render(result: any): string {
        return renderGrep(schemeToJson(result) as GrepResult);
      },
    },
  ];
}

/** ripgrep-like text: `path:line:text` for matches, `path-line-text` for context, `--` between groups. */
export function renderGrep(r: GrepResult): string {
  const out: string[] = [];
  const withContext = r.matches.some((m) => m.before !== undefined || m.after !== undefined);
  let lastPath = "";
  let lastLine = 0; // the last line printed of lastPath
  for (let i = 0; i < r.matches.length; i++) {
    const m = r.matches[i] as GrepResult["matches"][number];
    const next = r.matches[i + 1];
    const samePath = m.path === lastPath;
    if (!samePath) lastLine = 0;
    const before = m.before ?? [];
    const first = m.line - before.length;
    if (withContext && out.length > 0 && !(samePath && first <= lastLine + 1)) out.push("--");
    before.forEach((t, k) => {
      const n = first + k;
      if (!samePath || n > lastLine) out.push(`${m.path}-${n}-${t}`);
    });
    out.push(`${m.path}:${m.line}:${m.text}`);
    lastLine = m.line;
    const stop = next !== undefined && next.path === m.path ? next.line : Infinity;
    (m.after ?? []).forEach((t, k) => {
      const n = m.line + 1 + k;
      if (n < stop) {
        out.push(`${m.path}-${n}-${t}`);
        lastLine = n;
      }
    });
    lastPath = m.path;
  }
  const foot = [`${r.files} file${r.files === 1 ? "" : "s"} searched${skippedText(r.skipped as Record<string, number>)}`];
  if (r.withheld !== undefined && r.withheld.length > 0) foot.push(`left out (a checker asked and no one could answer): ${r.withheld.join(", ")}`);
  if (r.truncated) foot.push("truncated: more matches than shown; narrow the path, the glob or the pattern");
  const head = r.matches.length === 0 ? "no matches\n" : `${out.join("\n")}\n`;
  return `${head}[${foot.join("; ")}]`;
}
