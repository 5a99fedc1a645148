// index-search and index-update: thin adapters from Scheme values to the repository index (host/index), as table entries.
//
// index-search dispatches on its scope: "repo" is the repository index; the
// conversation memory (issue 15) adds "conversation" and "earlier" through
// IndexToolServices.scopes, without a second entry. An unknown scope is a
// range error naming the scopes there are. Results are built in SRFI 180's
// JSON mapping, like index-grep's; no host path is put in a result.

import { MString, SchemeError, T, fileError, hostError, rangeError, type ArgType, type Ctx } from "../../interpreter/api.js";
import type { IndexSearchResult, RefreshReport, GcReport } from "../../host/index/index.js";
import type { AgentToolSpec } from "./tool.js";
import { jsonToScheme, schemeToJson } from "./json-value.js";

/** What the index primitives need of the repository index (host/index RepoIndex). */
export interface RepoIndexPort {
  search(query: string, opts: { limit?: number; path?: string | null; actor?: string; signal?: AbortSignal }): Promise<IndexSearchResult>;
  update(opts: { path?: string; signal?: AbortSignal }): Promise<RefreshReport & { added: string | null; gc: GcReport }>;
  readonly limits: { readonly defaultHits: number; readonly maxHits: number; readonly maxFiles: number; readonly maxFileBytes: number; readonly searchBudgetMs: number; readonly updateBudgetMs: number };
}

/** Another scope of index-search (issue 15's "conversation" and "earlier"): searches and renders its own results. */
export interface SearchScope {
  /** One line for the tool's description: what the scope ranks. */
  readonly describe: string;
  search(ctx: Ctx, query: string, limit: number | null, path: string | null): Promise<any>;
  render(result: any): string;
}

export interface IndexToolServices {
  /** The session's repository index (made on first use: opening it opens the store). */
  readonly index: () => RepoIndexPort;
  /** Who is calling now, for the guard's decisions when hits are read again ("model" for a tool call). */
  readonly actor?: () => string;
  readonly signal?: () => AbortSignal | undefined;
  /** Scopes besides "repo", by name. */
  readonly scopes?: Readonly<Record<string, SearchScope>>;
  /** The limits quoted in the docs (the defaults, when the index is not open yet). */
  readonly limits: RepoIndexPort["limits"];
}

const stringOrFalse: ArgType = { name: "string or #f", test: (x) => x instanceof MString || x === false };
const countOrFalse: ArgType = { name: "exact positive integer or #f", test: (x) => (typeof x === "number" && Number.isInteger(x) && x >= 1) || x === false };

function given<V>(x: V | false | undefined): x is V {
  return x !== undefined && x !== false;
}

/** Re-raises a host failure (the index's, the guard's) as a Scheme condition. */
function raise(who: string, e: unknown): never {
  if (e instanceof SchemeError) throw e;
  const o = e as { domain?: unknown; code?: unknown; message?: unknown; path?: unknown };
  const message = typeof o?.message === "string" ? o.message : String(e);
  if (o?.domain === "guard" && typeof o.code === "string") {
    const path = new MString(typeof o.path === "string" ? o.path : "");
    if (["not-found", "is-directory", "not-directory", "bad-path", "io"].includes(o.code)) fileError(who, message, path, o.code);
    hostError(o.code, message, [path], who);
  }
  if ((o?.domain === "index" || o?.domain === "search") && typeof o.code === "string") hostError(o.code, message, [], who);
  hostError("io", message, [], who);
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What a refresh did, for a footer (empty when it read and removed nothing). */
function refreshText(r: { read: number; removed: number; skipped: number; refused: string[]; left: number; more: boolean; busy?: boolean; error?: string }): string[] {
  const out: string[] = [];
  if (r.busy) out.push("another process was updating the index: it answered as it was");
  if (r.error !== undefined) out.push(`the refresh failed: ${r.error}`);
  if (r.read > 0 || r.removed > 0) out.push(`refreshed: read ${r.read}, removed ${r.removed}${r.skipped > 0 ? `, skipped ${r.skipped}` : ""}`);
  if (r.refused.length > 0) out.push(`left out (refused by the guard): ${r.refused.join(", ")}`);
  return out;
}

function partialText(partial: boolean, r: { left: number; more: boolean }): string[] {
  if (!partial) return [];
  const why: string[] = [];
  if (r.left > 0) why.push(`${plural(r.left, "file")} still to read (index-update reads on)`);
  if (r.more) why.push("the tree has more files or text than an index holds");
  return [`the index holds only part of the tree: ${why.join("; ") || "files still to read"}`];
}

/** The index primitives over the given services, as table entries. */
export function indexToolPrimitives(services: IndexToolServices): AgentToolSpec[] {
  const lim = services.limits;
  const scopes = services.scopes ?? {};
  const scopeNames = ["repo", ...Object.keys(scopes).filter((s) => s !== "repo").sort()];
  const scopeList = scopeNames.map((s) => JSON.stringify(s)).join(", ");
  const actor = (): string => services.actor?.() ?? "agent";
  return [
    {
      name: "index-search",
      params: ["query", "scope", "[limit]", "[path]"],
      types: [T.string, T.string, countOrFalse, stringOrFalse],
      async: true,
      doc:
        `Ranks what a scope holds by the words of query (one of ${scopeList}). Scope "repo" is the repository index: ` +
        "chunks of the repository's files (those git lists, tracked or untracked and not ignored; without git, the files " +
        "index-grep walks), kept in nodwyn's data directory and refreshed first (for up to " +
        `${lim.searchBudgetMs / 1000} s) from the files whose size, time or inode changed. Words are split as code names them ` +
        "(ScrubEnv matches scrub, index-grep matches grep, HTTPServer matches http and server; ASCII case folded) and chunks " +
        "ranked by BM25, a file's path and a chunk's first line counting three times. Returns " +
        "((hits . #(((path . p) (start . a) (end . b) (first . s) (lines . #(((line . n) (text . s)) ...)) (score . x)) ...)) " +
        "(partial . #f) (refresh . ((files . n) (read . n) (removed . n) (skipped . n) (refused . #(p ...)) (left . n) (more . #f) (busy . #f))) " +
        `(dropped . #(p ...))): the best ${lim.defaultHits} chunks (up to limit, at most ${lim.maxHits}), each with its first line ` +
        "and the three lines holding the most of the query's words, numbered as in the file, all read again through the " +
        "read guard (a file it refuses now is dropped from the index and named in dropped); path keeps only files under it. " +
        "partial is #t when the index holds only part of the tree (files left to read, or more than " +
        `${lim.maxFiles} files or 128 MiB of text). An unknown scope is an error.`,
      tool: {
        description:
          "Search the repository's files by words (a name, a phrase, an error message), ranked best first; returns chunks " +
          "as path:first-last with the lines that hold the most of the words. Faster than index-grep on a large tree, and " +
          "finds words split as code names them (ScrubEnv matches \"scrub env\")." +
          Object.entries(scopes)
            .map(([k, v]) => ` Scope "${k}": ${v.describe}.`)
            .join(""),
        inputSchema: {
          type: "object",
          properties: {
            query: { type: "string", description: "Words to look for, e.g. \"credential binding egress\" or \"parseJSONValue\"." },
            scope: { type: "string", enum: scopeNames, description: `What to search: ${["\"repo\": the repository's files", ...Object.entries(scopes).map(([k, v]) => `"${k}": ${v.describe}`)].join("; ")}.` },
            limit: { type: "integer", minimum: 1, maximum: lim.maxHits, description: `How many hits at most (default ${lim.defaultHits}).` },
            path: { type: "string", description: "Only files under this directory (or this file), relative to the repository root." },
          },
          required: ["query", "scope"],
          additionalProperties: false,
        },
      },
      async impl(this: Ctx, query: MString, scope: MString, limit?: number | false, path?: MString | false) {
        const sc = scope.toString();
        const n = given(limit) ? limit : null;
        if (n !== null && n > lim.maxHits) rangeError("index-search", 3, `limit must be 1 to ${lim.maxHits}`, limit);
        const p = given(path) ? path.toString() : null;
        if (sc !== "repo") {
          const other = scopes[sc];
          if (other === undefined) rangeError("index-search", 2, `unknown scope ${JSON.stringify(sc)}: the scopes are ${scopeList}`, scope);
          return other.search(this, query.toString(), n, p);
        }
        let r: IndexSearchResult;
        try {
          const signal = services.signal?.();
          r = await services.index().search(query.toString(), { ...(n !== null ? { limit: n } : {}), path: p, actor: actor(), ...(signal ? { signal } : {}) });
        } catch (e) {
          raise("index-search", e);
        }
        const f = r.refresh;
        return jsonToScheme(this, {
          hits: r.hits,
          partial: r.partial,
          refresh: { files: f.files, read: f.read, removed: f.removed, skipped: f.skipped, refused: f.refused, left: f.left, more: f.more, busy: f.busy, ...(f.error !== undefined ? { error: f.error } : {}) },
          dropped: r.dropped,
        });
      },
      render(result: any): string {
        const j = schemeToJson(result) as Record<string, unknown>;
        if (!("hits" in j)) {
          // Another scope's result: its own entry renders it.
          for (const s of Object.values(scopes)) {
            try {
              return s.render(result);
            } catch {
              // not this scope's
            }
          }
          return JSON.stringify(j);
        }
        const r = j as unknown as { hits: IndexSearchResult["hits"]; partial: boolean; refresh: Parameters<typeof refreshText>[0]; dropped: string[] };
        const blocks = r.hits.map((h) => [`${h.path}:${h.start}-${h.end}: ${h.first}`, ...h.lines.map((l) => `  ${l.line}: ${l.text}`)].join("\n"));
        const foot = [plural(r.hits.length, "hit"), ...refreshText(r.refresh), ...partialText(r.partial, r.refresh)];
        if (r.dropped.length > 0) foot.push(`dropped (the guard refused them now): ${r.dropped.join(", ")}`);
        return `${r.hits.length === 0 ? "no hits\n" : `${blocks.join("\n\n")}\n`}[${foot.join("; ")}]`;
      },
    },
    {
      name: "index-update",
      params: ["[path]"],
      types: [stringOrFalse],
      async: true,
      doc:
        "Builds or refreshes the repository index now, reading for up to " +
        `${lim.updateBudgetMs / 1000} s (a next call goes on where it stopped); with path, first adds that directory or file ` +
        "of the repository to the index whole, git's ignores notwithstanding, from then on (remembered for this working " +
        "tree). Every file is read through the read guard (its guard.decision logged; a file a checker asks about is left " +
        "out, never asked about) and redacted before anything of it is stored; only line numbers and words are stored, " +
        "never text. Then removes the manifests of working trees that are gone and chunks no tree has named for seven days. " +
        "Returns ((files . n) (read . n) (removed . n) (skipped . n) (refused . #(p ...)) (left . n) (more . #f) " +
        "(elapsed_ms . n) (added . p-or-#f) (busy . #f)) and records an index.update in the session log.",
      tool: {
        description:
          "Build or refresh the repository index now (index-search refreshes it anyway); with a path, also index that " +
          "directory or file whole even if git ignores it (e.g. a vendored library).",
        inputSchema: {
          type: "object",
          properties: {
            path: { type: "string", description: "A directory or file of the repository to add, e.g. \"third_party\"." },
          },
          additionalProperties: false,
        },
      },
      async impl(this: Ctx, path?: MString | false) {
        let r: Awaited<ReturnType<RepoIndexPort["update"]>>;
        try {
          const signal = services.signal?.();
          r = await services.index().update({ ...(given(path) ? { path: path.toString() } : {}), ...(signal ? { signal } : {}) });
        } catch (e) {
          raise("index-update", e);
        }
        return jsonToScheme(this, {
          files: r.files,
          read: r.read,
          removed: r.removed,
          skipped: r.skipped,
          refused: r.refused,
          left: r.left,
          more: r.more,
          elapsed_ms: r.elapsed_ms,
          added: r.added ?? false,
          busy: r.busy,
          ...(r.error !== undefined ? { error: r.error } : {}),
        });
      },
      render(result: any): string {
        const r = schemeToJson(result) as { files: number; read: number; removed: number; skipped: number; refused: string[]; left: number; more: boolean; added: string | false; busy: boolean; error?: string };
        const parts = [`${plural(r.files, "file")} held`, `read ${r.read}, removed ${r.removed}, skipped ${r.skipped}`];
        if (r.added !== false) parts.push(`added ${r.added} whole`);
        if (r.refused.length > 0) parts.push(`left out (refused by the guard): ${r.refused.join(", ")}`);
        if (r.left > 0) parts.push(`${plural(r.left, "file")} left to read: call index-update again`);
        if (r.more) parts.push("the tree has more files or text than an index holds");
        if (r.busy) parts.push("another process was updating this tree");
        if (r.error !== undefined) parts.push(r.error);
        return `[index: ${parts.join("; ")}]`;
      },
    },
  ];
}
