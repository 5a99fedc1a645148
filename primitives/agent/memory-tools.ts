// recall, and index-search's "conversation" and "earlier" scopes: thin adapters from Scheme values to the conversation memory (host/memory).
//
// Both are read-only (they write nothing to the log; the memory's .mem files
// are derived) and their values carry external:log provenance: what they
// return was read from a session log, not computed.

import { MString, SchemeError, hostError, rangeError, type ArgType, type Ctx } from "../../interpreter/api.js";
import type { MemorySearchResult, RecallResult } from "../../host/memory/index.js";
import type { AgentToolSpec } from "./tool.js";
import type { SearchScope } from "./index-tools.js";
import { jsonToScheme, schemeToJson } from "./json-value.js";

/** What the memory primitives need of the host (host/memory ConversationMemory). */
export interface MemoryPort {
  searchConversation(query: string, limit: number | null): MemorySearchResult;
  searchEarlier(query: string, limit: number | null): MemorySearchResult;
  recall(seq: number, start: number, count: number, task: string | null): RecallResult;
}

export interface MemoryToolServices {
  readonly memory: () => MemoryPort;
  /** How a search result is shown to the model (host/memory renderSearch). */
  readonly renderSearch: (r: MemorySearchResult, scope: string) => string;
  readonly maxHits: number;
  readonly defaultHits: number;
}

/** The provenance every memory value carries. */
export const MEMORY_PROVENANCE = "external:log";

const natOrFalse: ArgType = { name: "exact non-negative integer or #f", test: (x) => (typeof x === "number" && Number.isInteger(x) && x >= 0) || x === false };
const stringOrFalse: ArgType = { name: "string or #f", test: (x) => x instanceof MString || x === false };
const seqType: ArgType = { name: "exact positive integer (a seq)", test: (x) => typeof x === "number" && Number.isInteger(x) && x >= 1 };

function raise(who: string, e: unknown): never {
  if (e instanceof SchemeError) throw e;
  const o = e as { domain?: unknown; code?: unknown; message?: unknown };
  const message = typeof o?.message === "string" ? o.message : String(e);
  if (o?.domain === "memory" && typeof o.code === "string") hostError(o.code, message, [], who);
  if (o?.domain === "log" || (e as Error)?.name?.startsWith("Log")) hostError("log", `the session log cannot be read: ${message}`, [], who);
  hostError("io", message, [], who);
}

/** index-search's scopes "conversation" and "earlier". */
export function memoryScopes(services: MemoryToolServices): Record<string, SearchScope> {
  const make = (scope: "conversation" | "earlier"): SearchScope => ({
    describe:
      scope === "conversation"
        ? "this session's events (messages, replies with their calls, tool results with their calls), ranked by BM25, shown under their turns"
        : "the project's other tasks' events, with the person's leave (earlier_tasks in workspaces.toml)",
    async search(ctx: Ctx, query: string, limit: number | null, path: string | null) {
      if (path !== null) rangeError("index-search", 4, `scope ${JSON.stringify(scope)} has no path: it searches events, not files`, new MString(path));
      let r: MemorySearchResult;
      try {
        r = scope === "conversation" ? services.memory().searchConversation(query, limit) : services.memory().searchEarlier(query, limit);
      } catch (e) {
        raise("index-search", e);
      }
      return jsonToScheme(ctx, { scope, ...r, provenance: MEMORY_PROVENANCE });
    },
    render(result: any): string {
      const j = schemeToJson(result) as Record<string, unknown>;
      if (j.scope !== scope) throw new TypeError("not this scope's result");
      return services.renderSearch(j as unknown as MemorySearchResult, scope);
    },
  });
  return { conversation: make("conversation"), earlier: make("earlier") };
}

/** The recall table entry. */
export function memoryToolPrimitives(services: MemoryToolServices): AgentToolSpec[] {
  return [
    {
      name: "recall",
      params: ["seq", "[start]", "[count]", "[task]"],
      types: [seqType, natOrFalse, natOrFalse, stringOrFalse],
      async: true,
      doc:
        "Reads back one event of the session log as it was recorded (already redacted): seq is its number, as " +
        "index-search \"conversation\" names it and as the window's [elided seq=N] markers do. Returns " +
        "((seq . n) (task . id) (kind . k) (heading . s) (start . a) (end . b) (total . n) (lines . #(s ...)) (text . s) " +
        "(provenance . \"external:log\")): its lines start to end of total, as a ranged fs-read returns a file " +
        "([lines A-B of N]); without start and count (or with 0 0) from the first line, stopping at a whole line within " +
        "the window's cut for one result; (recall seq 200 50) gives lines 200 to 249. A shell result reads as the model " +
        "read it (exit N, the output, then [stderr]) but whole; other JSON is indented. A reply adds (results . #(((call . id) " +
        "(tool . t) (seq . n)) ...)), the seq of each call's result; a turn's first message adds (card . #(s ...)) and " +
        "(events . #(((seq . n) (type . t)) ...)), every event of the turn. With task, an event of another task of this " +
        "repository (only with the person's leave: earlier_tasks in workspaces.toml). Read-only.",
      tool: {
        description:
          "Read back one event of this conversation whole by its seq (from index-search \"conversation\" results or an " +
          "[elided seq=N] marker), or a range of its lines; with task, an event of an earlier task.",
        inputSchema: {
          type: "object",
          properties: {
            seq: { type: "integer", minimum: 1, description: "The event's seq, e.g. 812." },
            start: { type: "integer", minimum: 0, description: "The first line to show (default 1)." },
            count: { type: "integer", minimum: 0, description: "How many lines (default: as many as fit)." },
            task: { type: "string", description: "Another task's id (from index-search \"earlier\"), e.g. \"20261009T034803Z-3981612f\"." },
          },
          required: ["seq"],
          additionalProperties: false,
        },
      },
      async impl(this: Ctx, seq: number, start?: number | false, count?: number | false, task?: MString | false) {
        let r: RecallResult;
        try {
          r = services.memory().recall(seq, start === undefined || start === false ? 0 : start, count === undefined || count === false ? 0 : count, task === undefined || task === false ? null : task.toString());
        } catch (e) {
          raise("recall", e);
        }
        return jsonToScheme(this, { ...r, provenance: MEMORY_PROVENANCE });
      },
      render(result: any): string {
        const j = schemeToJson(result) as { text?: unknown };
        return typeof j.text === "string" ? j.text : JSON.stringify(j);
      },
    },
  ];
}
