// recall-log, recall-entry and recall-search: thin adapters from keyword arguments to the host's log scan (host/memory recall-log.ts).
//
// Read-only, like recall: they write nothing to the log. Rows are property
// lists, as the seed writes them: (:seq 12 :at "…Z" :kind "user.msg" :body "…").

import { MString, NIL, Pair, SchemeError, Sym, T, hostError, writeToString, type ArgType, type Ctx } from "../../interpreter/api.js";
import type { RecallLogQuery, RecallLogResult, RecallRow, RecallSearchQuery, RecallSearchResult, RecallSearchRow } from "../../host/memory/index.js";
import { keywordName, keywordOptions, plist } from "./keyword-args.js";
import type { AgentToolSpec } from "./tool.js";

/** What the recall forms need of the host (host/memory ConversationMemory). */
export interface RecallPort {
  recallLog(q: RecallLogQuery & { readonly session: string | null }): RecallLogResult;
  recallEntry(seq: number, session: string | null): RecallRow | null;
  recallSearch(q: RecallSearchQuery): RecallSearchResult;
}

export interface RecallToolServices {
  readonly recall: () => RecallPort;
  /** The defaults (host/memory): kinds, limits, clip, window, lead, the most rows. */
  readonly defaults: {
    readonly kinds: readonly string[];
    readonly limit: number;
    readonly clip: number;
    readonly searchLimit: number;
    readonly window: number;
    readonly lead: number;
    readonly maxRows: number;
  };
}

const seqType: ArgType = { name: "exact positive integer (a seq)", test: (x) => typeof x === "number" && Number.isInteger(x) && x >= 1 };
const positive: ArgType = { name: "exact positive integer", test: (x) => typeof x === "number" && Number.isInteger(x) && x >= 1 };
const natural: ArgType = { name: "exact non-negative integer", test: (x) => typeof x === "number" && Number.isInteger(x) && x >= 0 };
const text: ArgType = { name: "string", test: (x) => x instanceof MString };
const kindsType: ArgType = {
  name: "kind (a string or symbol such as \"tool.result\") or a list of kinds",
  test: (x) => x instanceof MString || x instanceof Sym || x instanceof Pair || x === NIL || Array.isArray(x),
};

function kindsOf(x: unknown, who: string): string[] {
  const one = (k: unknown): string => {
    if (k instanceof MString) return k.toString();
    if (k instanceof Sym) return k.name;
    hostError("bad-option", `${who}: :kinds names kinds as strings or symbols, e.g. '("user.msg" "tool.result")`, [k], who);
  };
  if (x instanceof MString || x instanceof Sym) return [one(x)];
  const out: string[] = [];
  if (Array.isArray(x)) for (const k of x) out.push(one(k));
  else for (let p: any = x; p !== NIL; p = p.cdr) {
    if (!(p instanceof Pair)) hostError("bad-option", `${who}: :kinds is not a proper list`, [x], who);
    out.push(one(p.car));
  }
  return out;
}

function raise(who: string, e: unknown): never {
  if (e instanceof SchemeError) throw e;
  const o = e as { domain?: unknown; code?: unknown; message?: unknown };
  const message = typeof o?.message === "string" ? o.message : String(e);
  if (o?.domain === "memory" && typeof o.code === "string") hostError(o.code, message, [], who);
  if ((e as Error)?.name?.startsWith("Log")) hostError("log", `${who}: the session log cannot be read: ${message}`, [], who);
  hostError("io", `${who}: ${message}`, [], who);
}

function rowValue(ctx: Ctx, r: RecallRow): unknown {
  return plist(ctx, [
    ["seq", r.seq],
    ["at", new MString(r.at)],
    ["kind", new MString(r.kind)],
    ["body", new MString(r.body)],
    ["duration-ms", r.durationMs],
    ["session-id", r.session === undefined ? undefined : new MString(r.session)],
  ]);
}

/** A property list's value for key (a keyword :key or a symbol :key), or undefined. */
function prop(pl: unknown, key: string): unknown {
  for (let p: any = pl; p instanceof Pair && p.cdr instanceof Pair; p = p.cdr.cdr) if (keywordName(p.car) === key) return p.cdr.car;
  return undefined;
}

function str(x: unknown): string {
  return x instanceof MString ? x.toString() : x === undefined ? "" : writeToString(x);
}

/** A list of rows as the model reads it: one heading line per row, then its body. */
function renderRows(list: unknown): string {
  const lines: string[] = [];
  let p: any = list;
  if (p instanceof Pair && prop(p.car, "matched") !== undefined) {
    const m = prop(p.car, "matched");
    const s = prop(p.car, "showing");
    lines.push(`[${str(m)} rows matched; the newest ${str(s)} shown: page older with "before" set to the first seq below]`);
    p = p.cdr;
  }
  if (p === NIL && lines.length === 0) return "[no rows matched]";
  for (; p instanceof Pair; p = p.cdr) {
    const r = p.car;
    const ms = prop(r, "duration-ms");
    const other = prop(r, "session-id");
    lines.push(`seq ${str(prop(r, "seq"))} · ${str(prop(r, "at"))} · ${str(prop(r, "kind"))}${ms !== undefined ? ` · ${str(ms)} ms` : ""}${other !== undefined ? ` · session ${str(other)}` : ""}`);
    const body = str(prop(r, "body") ?? prop(r, "text"));
    lines.push(...(body === "" ? ["  (no text)"] : body.split("\n").map((l) => `  ${l}`)));
  }
  return lines.join("\n");
}

const KINDS_SCHEMA = {
  anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }],
  description: "Log kinds, e.g. \"tool.result\" or [\"user.msg\", \"llm.resp\"] (default: the person's input, the answers, tool calls and tool results).",
};

/** Tool input → keyword arguments, in the order of the schema's properties. */
function keywordArgsOf(ctx: Ctx, input: Record<string, unknown>, positional: readonly string[]): unknown[] {
  const out: unknown[] = [];
  for (const name of positional) {
    const v = input[name];
    if (v === undefined || v === null) throw new TypeError(`missing argument ${name}`);
    out.push(typeof v === "string" ? new MString(v) : v);
  }
  for (const [k, v] of Object.entries(input)) {
    if (positional.includes(k) || v === undefined || v === null) continue;
    out.push(ctx.symbols.keyword(k));
    if (typeof v === "string") out.push(new MString(v));
    else if (Array.isArray(v)) out.push(v.map((x) => (typeof x === "string" ? new MString(x) : x)));
    else out.push(v);
  }
  return out;
}

/** The recall forms' table entries. */
export function recallToolPrimitives(services: RecallToolServices): AgentToolSpec[] {
  const d = services.defaults;
  const kinds = d.kinds.join(", ");
  return [
    {
      name: "recall-log",
      params: ["option ..."],
      types: [null],
      doc:
        "Scans one session's log and returns its rows verbatim, oldest first: (recall-log :match \"text\" :kinds k " +
        ":before n :after n :limit 20 :clip 200 :session-id id), every option optional. :match is SQL LIKE over the " +
        "raw payload as the log recorded it (already redacted; JSON text, so a quote reads \\\" and a newline \\n), " +
        "matched anywhere in it: % is any run of characters, _ one character, ASCII case is ignored. :kinds is one " +
        `log kind or a list (default ${kinds}); :before and :after keep rows whose seq is below or above; :limit rows ` +
        `at most (default ${d.limit}, at most ${d.maxRows}); :clip characters of each body (default ${d.clip}); ` +
        ":session-id another session of this repository. Each row is (:seq n :at \"UTC time\" :kind k :body s), a " +
        "tool result with :duration-ms. When more rows match than :limit, the newest are returned and the first " +
        "element is (:matched N :showing M): page older with :before set to the oldest :seq returned. The scan " +
        "includes turns hidden by an undo and, in a forked session, the turns of the session it was forked from that " +
        "the fork did not copy: those rows carry :session-id and count as older than the fork's own rows. A body is " +
        "an event's text as recall shows it (a tool call as NAME ARGS). Read-only.",
      tool: {
        description:
          "Find rows of this session's log verbatim (evicted or elided history too) by a SQL LIKE pattern over each " +
          "event's raw payload (% any text, _ one character, ASCII case ignored): the newest rows up to limit, oldest first.",
        inputSchema: {
          type: "object",
          properties: {
            match: { type: "string", description: "A LIKE pattern matched anywhere in the payload, e.g. \"deploy%staging\"." },
            kinds: KINDS_SCHEMA,
            before: { type: "integer", minimum: 1, description: "Only rows with a seq below this." },
            after: { type: "integer", minimum: 0, description: "Only rows with a seq above this." },
            limit: { type: "integer", minimum: 1, description: `Rows at most (default ${d.limit}).` },
            clip: { type: "integer", minimum: 0, description: `Characters kept of each body (default ${d.clip}).` },
            "session-id": { type: "string", description: "Another session of this repository." },
          },
          additionalProperties: false,
        },
      },
      toolArgs: (ctx, input) => keywordArgsOf(ctx, input, []),
      impl(this: Ctx, rest: unknown[]) {
        const who = "recall-log";
        const o = keywordOptions(rest, who, { match: text, kinds: kindsType, before: positive, after: natural, limit: positive, clip: natural, "session-id": text });
        let r: RecallLogResult;
        try {
          r = services.recall().recallLog({
            match: o.has("match") ? (o.get("match") as MString).toString() : null,
            kinds: o.has("kinds") ? kindsOf(o.get("kinds"), who) : d.kinds,
            before: (o.get("before") as number | undefined) ?? null,
            after: (o.get("after") as number | undefined) ?? null,
            limit: Math.min((o.get("limit") as number | undefined) ?? d.limit, d.maxRows),
            clip: (o.get("clip") as number | undefined) ?? d.clip,
            session: o.has("session-id") ? (o.get("session-id") as MString).toString() : null,
          });
        } catch (e) {
          raise(who, e);
        }
        const rows = r.rows.map((x) => rowValue(this, x));
        if (r.matched > r.rows.length) rows.unshift(plist(this, [["matched", r.matched], ["showing", r.rows.length]]));
        let list: any = NIL;
        for (let i = rows.length - 1; i >= 0; i--) list = new Pair(rows[i], list);
        return list;
      },
      render: (result: unknown) => renderRows(result),
    },
    {
      name: "recall-entry",
      params: ["seq", "option ..."],
      types: [seqType, null],
      doc:
        "The one event at seq with its whole body: (:seq n :at \"UTC time\" :kind k :body s), a tool result with " +
        ":duration-ms; the empty list '() when the log holds no record with that number. :session-id id reads another " +
        "session of this repository (a row recall-log returned with :session-id). Any kind of record is read, its body " +
        "as recall shows an event (other records as their payload, indented). Read-only.",
      tool: {
        description: "Read one record of this session's log whole by its seq (from recall-log, a stub or an [elided seq=N] marker).",
        inputSchema: {
          type: "object",
          properties: {
            seq: { type: "integer", minimum: 1, description: "The record's seq, e.g. 1184." },
            "session-id": { type: "string", description: "Another session of this repository." },
          },
          required: ["seq"],
          additionalProperties: false,
        },
      },
      toolArgs: (ctx, input) => keywordArgsOf(ctx, input, ["seq"]),
      impl(this: Ctx, seq: number, rest: unknown[]) {
        const who = "recall-entry";
        const o = keywordOptions(rest, who, { "session-id": text });
        let r: RecallRow | null;
        try {
          r = services.recall().recallEntry(seq, o.has("session-id") ? (o.get("session-id") as MString).toString() : null);
        } catch (e) {
          raise(who, e);
        }
        return r === null ? NIL : rowValue(this, r);
      },
      render: (result: unknown) => (result === NIL ? "[no record has that seq]" : renderRows(new Pair(result, NIL))),
    },
    {
      name: "recall-search",
      params: ["query", "option ..."],
      types: [T.string, null],
      doc:
        "Searches every session of this repository: (recall-search \"deploy script\" :kinds k :limit 60 :window 220 " +
        ":lead 32). The query is split on spaces and every word must appear in an event's raw payload; words are " +
        "literal (% and _ match themselves), ASCII case is ignored; an empty query is an error. Rows come newest " +
        "first, each (:session-id id :title s :seq n :kind k :at \"UTC time\" :text s): text is :window characters " +
        `of the event's body with :lead of them before the first word found (defaults ${d.searchLimit} rows, ` +
        `${d.window} and ${d.lead}; :kinds as recall-log's, default ${kinds}). Without the person's leave ` +
        "(earlier_tasks in workspaces.toml) it searches only this session and those it was forked from, and when " +
        "that left other tasks of the repository out the first element is (:left-out N :why \"…\"), the reason " +
        "and how the person allows it. Read-only.",
      tool: {
        description:
          "Search every session of this repository for events holding every word of the query (literal words, ASCII case ignored), newest first; " +
          "without the person's leave (earlier_tasks in workspaces.toml) only this session, and the answer says which other tasks were left out.",
        inputSchema: {
          type: "object",
          properties: {
            query: { type: "string", description: "Words separated by spaces, e.g. \"deploy script\"." },
            kinds: KINDS_SCHEMA,
            limit: { type: "integer", minimum: 1, description: `Rows at most (default ${d.searchLimit}).` },
            window: { type: "integer", minimum: 1, description: `Characters of text around the match (default ${d.window}).` },
            lead: { type: "integer", minimum: 0, description: `Characters of that text before the match (default ${d.lead}).` },
          },
          required: ["query"],
          additionalProperties: false,
        },
      },
      toolArgs: (ctx, input) => keywordArgsOf(ctx, input, ["query"]),
      impl(this: Ctx, query: MString, rest: unknown[]) {
        const who = "recall-search";
        const o = keywordOptions(rest, who, { kinds: kindsType, limit: positive, window: positive, lead: natural });
        let found: RecallSearchResult;
        try {
          found = services.recall().recallSearch({
            query: query.toString(),
            kinds: o.has("kinds") ? kindsOf(o.get("kinds"), who) : d.kinds,
            limit: Math.min((o.get("limit") as number | undefined) ?? d.searchLimit, d.maxRows),
            window: (o.get("window") as number | undefined) ?? d.window,
            lead: (o.get("lead") as number | undefined) ?? d.lead,
          });
        } catch (e) {
          raise(who, e);
        }
        const rows: readonly RecallSearchRow[] = found.rows;
        let list: any = NIL;
        for (let i = rows.length - 1; i >= 0; i--) {
          const r = rows[i]!;
          list = new Pair(
            plist(this, [
              ["session-id", new MString(r.session)],
              ["title", new MString(r.title)],
              ["seq", r.seq],
              ["kind", new MString(r.kind)],
              ["at", new MString(r.at)],
              ["text", new MString(r.text)],
            ]),
            list,
          );
        }
        // Without the person's leave, other tasks were not searched: the first element says so, as recall-log's
        // (:matched N :showing M) heads its rows (ADR 0038).
        if (found.leftOut !== null) list = new Pair(plist(this, [["left-out", found.leftOut.tasks], ["why", new MString(found.leftOut.why)]]), list);
        return list;
      },
      render(result: unknown): string {
        const lines: string[] = [];
        let p: any = result;
        if (p instanceof Pair && prop(p.car, "left-out") !== undefined) {
          const n = Number(prop(p.car, "left-out"));
          lines.push(`[${n} other task${n === 1 ? "" : "s"} of this repository not searched: ${str(prop(p.car, "why"))}]`);
          p = p.cdr;
        }
        if (!(p instanceof Pair)) return [...lines, "[no event holds every word]"].join("\n");
        for (; p instanceof Pair; p = p.cdr) {
          const r = p.car;
          lines.push(`session ${str(prop(r, "session-id"))} (${str(prop(r, "title"))}) · seq ${str(prop(r, "seq"))} · ${str(prop(r, "at"))} · ${str(prop(r, "kind"))}`);
          lines.push(`  ${str(prop(r, "text"))}`);
        }
        return lines.join("\n");
      },
    },
  ];
}
