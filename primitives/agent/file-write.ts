// fs-write and fs-edit: file edits as model tools, thin adapters to the host's write service (guard, approval, checkpoint, atomic write).
//
// The host does the work (host/guard/write.ts for the rules and the atomic
// write, host/shell's approvals for the person's answer, the session's
// checkpoint before the first change of a turn); a refusal raises a `host`
// condition (guard-denied, not-approved) the model reads as its tool's error.

import { MString, T, hostError, rangeError, type ArgType, type Ctx } from "../../interpreter/api.js";
import type { AgentToolSpec } from "./tool.js";
import { jsonToScheme, schemeToJson } from "./json-value.js";

/** What a write did, as the host reports it. */
export interface WriteReport {
  /** Relative to the root. */
  readonly path: string;
  readonly bytes: number;
  readonly created: boolean;
}

/** What fs-write and fs-edit need from the host. */
export interface WriteServices {
  /** Reads a file as UTF-8 through the read guard (fs-edit's old text). Throws the guard's errors. */
  read(path: string): Promise<string>;
  /**
   * Checks the path under the write rules, asks the person (detail says what the write does), captures the
   * checkpoint and writes atomically. Resolves to the report, or to a refusal (the write rules or the person).
   */
  write(path: string, text: string, o: { readonly tool: "fs-write" | "fs-edit"; readonly detail: string }): Promise<WriteReport | { readonly refused: string; readonly code: string }>;
}

const countOrFalse: ArgType = { name: "exact positive integer or #f", test: (x) => (typeof x === "number" && Number.isSafeInteger(x) && x > 0) || x === false };

function occurrences(text: string, part: string): number {
  let n = 0;
  for (let i = text.indexOf(part); i !== -1; i = text.indexOf(part, i + part.length)) n++;
  return n;
}

function raise(who: string, out: { refused: string; code: string }, path: MString): never {
  hostError(out.code, `${who}: ${out.refused}`, [path], who);
}

/** Re-raises a host failure (the read guard's) as a Scheme condition with its code. */
function rethrow(who: string, e: unknown, path: MString): never {
  const o = e as { domain?: unknown; code?: unknown; message?: unknown };
  if (o?.domain === "guard" && typeof o.code === "string") hostError(o.code, `${who}: ${String(o.message)}`, [path], who);
  throw e;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The fs-write and fs-edit table entries over the given services. */
export function fileWritePrimitives(services: WriteServices): AgentToolSpec[] {
  return [
    {
      name: "fs-write",
      params: ["path", "text"],
      types: [T.string, T.string],
      async: true,
      doc:
        "Writes text (UTF-8) to the file at path (relative to the repository root), replacing it or making it and the " +
        "directories on the way, and returns ((path . p) (bytes . n) (created . #t)). The write guard refuses (code " +
        "guard-denied) a path outside the root, through a symbolic link, into .git/ or .nodwyn/, a secret file of the " +
        "denylist (.env, keys) or a hard-linked file; the person approves each write (once, always for the file's " +
        "directory, never; code not-approved when refused, and where no one can answer). The file is written atomically " +
        "(a temporary file, fsync, rename) and the working tree is captured first, so /undo restores it.",
      tool: {
        description:
          "Write a whole file (UTF-8) in the repository, replacing it or creating it; the person approves each write. " +
          "Prefer fs-edit to change part of an existing file.",
        inputSchema: {
          type: "object",
          properties: {
            path: { type: "string", description: "The file's path relative to the repository root." },
            text: { type: "string", description: "The file's whole new content." },
          },
          required: ["path", "text"],
          additionalProperties: false,
        },
      },
      async impl(this: Ctx, path: MString, text: MString) {
        const p = path.toString();
        if (p.trim() === "") rangeError("fs-write", 1, "the path is empty", path);
        const t = text.toString();
        let out;
        try {
          out = await services.write(p, t, { tool: "fs-write", detail: `write ${Buffer.byteLength(t)} bytes` });
        } catch (e) {
          rethrow("fs-write", e, path);
        }
        if ("refused" in out) raise("fs-write", out, path);
        return jsonToScheme(this, { path: out.path, bytes: out.bytes, created: out.created });
      },
      render(result: any): string {
        const r = schemeToJson(result) as { path: string; bytes: number; created: boolean };
        return `wrote ${r.path} (${plural(r.bytes, "byte", "bytes")}${r.created ? ", a new file" : ""})`;
      },
    },
    {
      name: "fs-edit",
      params: ["path", "old", "new", "[count]"],
      types: [T.string, T.string, T.string, countOrFalse],
      async: true,
      doc:
        "Replaces the exact text old by new in the file at path and returns ((path . p) (replacements . n) (bytes . n)). " +
        "old must occur exactly once, or exactly count times when count is given (then every occurrence is replaced); " +
        "absent, or found a different number of times, is an error (code edit-not-found, edit-ambiguous) that says how " +
        "often it occurs, and nothing is written. Read through the read guard, written as fs-write writes (the write " +
        "guard, the person's approval, atomically, after the checkpoint).",
      tool: {
        description:
          "Replace an exact piece of text in a file: old must appear exactly once (or exactly count times with count, " +
          "replacing all); include enough surrounding lines to make it unique. The person approves each edit.",
        inputSchema: {
          type: "object",
          properties: {
            path: { type: "string", description: "The file's path relative to the repository root." },
            old: { type: "string", description: "The exact text to replace (whitespace and newlines included)." },
            new: { type: "string", description: "The text to put in its place." },
            count: { type: "integer", minimum: 1, description: "How many occurrences there are and are all replaced (default 1)." },
          },
          required: ["path", "old", "new"],
          additionalProperties: false,
        },
      },
      async impl(this: Ctx, path: MString, oldT: MString, newT: MString, count?: number | false) {
        const who = "fs-edit";
        const p = path.toString();
        const o = oldT.toString();
        const n = newT.toString();
        if (p.trim() === "") rangeError(who, 1, "the path is empty", path);
        if (o === "") rangeError(who, 2, "old is empty: give the exact text to replace (fs-write writes a whole file)", oldT);
        let before: string;
        try {
          before = await services.read(p);
        } catch (e) {
          rethrow(who, e, path);
        }
        const found = occurrences(before, o);
        const want = typeof count === "number" ? count : 1;
        if (found === 0) hostError("edit-not-found", `${who}: the text to replace does not occur in ${p}: read the file again (fs-read) and copy the text exactly`, [path], who);
        if (found !== want)
          hostError(
            "edit-ambiguous",
            typeof count === "number"
              ? `${who}: the text to replace occurs ${plural(found, "time", "times")} in ${p}, not ${count}: nothing was changed`
              : `${who}: the text to replace occurs ${found} times in ${p}: include more of the surrounding text to make it unique, or give count ${found} to replace every one`,
            [path],
            who,
          );
        const after = before.split(o).join(n);
        let out;
        try {
          out = await services.write(p, after, { tool: "fs-edit", detail: `replace ${plural(found, "occurrence", "occurrences")} of ${Buffer.byteLength(o)} bytes by ${Buffer.byteLength(n)} bytes` });
        } catch (e) {
          rethrow(who, e, path);
        }
        if ("refused" in out) raise(who, out, path);
        return jsonToScheme(this, { path: out.path, replacements: found, bytes: out.bytes });
      },
      render(result: any): string {
        const r = schemeToJson(result) as { path: string; replacements: number; bytes: number };
        return `edited ${r.path}: ${plural(r.replacements, "replacement", "replacements")} (${plural(r.bytes, "byte", "bytes")} now)`;
      },
    },
  ];
}
