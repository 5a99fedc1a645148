// window-v1: the model's request as a fold over the session log's events, extended round by round.
//
// What the model sees is derived from the log alone (user.msg, llm.resp and
// tool.result records, already redacted by the writer) plus the recipe's own
// inputs, which every llm.req records (recipe, tools, params): the system text,
// the tool definitions as offered, the model's context window, the reply's
// reserve, the estimator, and any messages a strategy appended. So a request
// can be rebuilt from the log prefix before its llm.req and verified by its
// digest (rebuildRequest below; issue 13's `nodwyn replay --window`).
//
// The rule, version 1 (docs/decisions/0014-window-v1.md):
//   - user.msg → a user message; llm.resp without error → an assistant message
//     with its tool calls; tool.result → a tool message (an error's text after
//     its output; a shell-exec result clipped to its first 1,500 and last 6,000
//     characters with the count cut). Every other kind is ignored.
//   - the request fits when system + tools + messages + appended messages are
//     at most context_window − reserve − MARKER_RESERVE tokens (chars4 v1);
//     when they do not, whole turns leave from the oldest, and a marker message
//     says which seqs are not shown; when the running turn alone does not fit,
//     its oldest rounds (a reply and its results) leave too, keeping its user
//     message and its newest round. Nothing is summarised.
// The fit is a pure function of the messages and the recipe's inputs, so the
// fold keeps no decisions: replaying a prefix gives the same request.
//
// Incremental: each record is turned into its message, canonical JSON and
// token count once; a build finds the cut by binary search over prefix sums
// and hashes only what was added since the last build (the SHA-256 state of
// the shared prefix is kept and copied), so a round costs what it adds, not
// what the session holds.

import { createHash, type Hash } from "node:crypto";
import type { Message, ModelRequest, ToolCall, ToolDefinition } from "../model/types.js";
import type { LogRecord } from "../log/index.js";
import { canonicalJson } from "./canonical.js";
import { ESTIMATOR, messageTokens, textTokens } from "./estimate.js";
import { clipMiddle } from "./clip.js";

/** The recipe's name as llm.req records it. */
export const WINDOW_V1 = "window-v1";

/** Tokens kept free for the markers a cut adds. */
export const MARKER_RESERVE = 64;

/** What a build needs beyond the log: all of it is recorded in llm.req. */
export interface WindowParams {
  /** The model id the server knows. */
  readonly model: string;
  readonly system: string;
  readonly tools: readonly ToolDefinition[];
  /** The model's context window in tokens. */
  readonly contextWindow: number;
  /** The reply's token limit; also the reserve (default: min(4096, context / 4)). */
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  /** Messages a strategy appends after the log's (recorded in recipe.additions). */
  readonly additions?: readonly Message[];
}

/** The recipe object llm.req records (its `recipe` field). */
export interface RecipeV1 {
  readonly name: typeof WINDOW_V1;
  readonly system: string;
  readonly context_window: number;
  readonly reserve: number;
  readonly estimator: { readonly name: string; readonly version: number };
  /** Messages the strategy appended, as sent. */
  readonly additions?: readonly Message[];
  /** Derived (replay does not need them): the estimate of the whole request, the seq of the first event shown, what was cut. */
  readonly tokens: number;
  readonly first_seq?: number;
  readonly cut?: { readonly turns_through?: number; readonly rounds?: readonly [number, number] };
}

/** A built request and what llm.req records of it. */
export interface BuiltWindow {
  readonly request: ModelRequest;
  readonly recipe: RecipeV1;
  /** "sha256:…" of the request's canonical JSON. */
  readonly digest: string;
  /** Estimated tokens of the whole request. */
  readonly tokens: number;
  /** The request's tool definitions, params as llm.req records them. */
  readonly params: { readonly max_output_tokens?: number; readonly temperature?: number };
}

/** What went wrong: replay's errors (replay.ts) and window-v2's request that cannot fit. */
export type WindowErrorCode =
  | "unknown-recipe"
  | "bad-recipe"
  | "not-a-request"
  | "no-record"
  | "no-recipe"
  | "recipe-mismatch"
  | "digest-mismatch"
  | "overflow";

/** A failure to rebuild a recorded request, or to build one, with a stable code. */
export class WindowError extends Error {
  constructor(
    readonly code: WindowErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "WindowError";
  }
}

interface Entry {
  readonly msg: Message;
  readonly json: string;
  readonly tokens: number;
  readonly seq: number;
}

/** The default reserve for the reply when no output limit is set. */
export function defaultReserve(contextWindow: number): number {
  return Math.min(4096, Math.floor(contextWindow / 4));
}

/** The text a tool.result shows the model under window-v1. */
export function toolResultContent(p: { tool?: unknown; ok?: unknown; output?: unknown; error?: unknown }): string {
  const out = p.output;
  let text = typeof out === "string" ? out : out === undefined || out === null ? "" : JSON.stringify(out);
  if (p.tool === "shell-exec") text = clipMiddle(text);
  if (p.ok === false) {
    const err = `error: ${typeof p.error === "string" ? p.error : "the tool failed"}`;
    return text ? `${text}\n${err}` : err;
  }
  return text;
}

function toCalls(v: unknown): ToolCall[] {
  if (!Array.isArray(v)) return [];
  const out: ToolCall[] = [];
  for (const c of v) {
    if (c === null || typeof c !== "object") continue;
    const o = c as Record<string, unknown>;
    out.push({ id: String(o.id ?? ""), name: String(o.name ?? ""), arguments: typeof o.arguments === "string" ? o.arguments : JSON.stringify(o.arguments ?? {}) });
  }
  return out;
}

/** The message a log record contributes under window-v1, or null. */
export function messageOfRecord(r: LogRecord): Message | null {
  const p = r.payload as Record<string, unknown>;
  switch (r.kind) {
    case "user.msg":
      return { role: "user", content: String(p.text ?? "") };
    case "llm.resp": {
      if (p.error !== undefined) return null;
      const calls = toCalls(p.tool_calls);
      const content = typeof p.text === "string" ? p.text : "";
      return calls.length > 0 ? { role: "assistant", content, toolCalls: calls } : { role: "assistant", content };
    }
    case "tool.result": {
      const m: Message = { role: "tool", toolCallId: String(p.call_id ?? ""), name: String(p.tool ?? ""), content: toolResultContent(p) };
      return p.ok === false ? { ...m, isError: true } : m;
    }
    default:
      return null;
  }
}

/**
 * The window of one session under window-v1: fold the log's records in with
 * `add` (in seq order), then `build` a request.
 */
export class WindowV1 {
  private readonly entries: Entry[] = [];
  /** prefix[i] = tokens of entries[0..i). */
  private readonly prefix: number[] = [0];
  /** Indices of user messages (turn starts) and of assistant messages (round starts). */
  private readonly turnStarts: number[] = [];
  private readonly roundStarts: number[] = [];
  private lastSeq = 0;
  private hashState: { key: string; h: Hash; fed: number; count: number } | null = null;
  private toolsCache: { tools: readonly ToolDefinition[]; json: string; tokens: number } | null = null;

  /** The seq of the last record folded in (0 before any). */
  get seq(): number {
    return this.lastSeq;
  }

  /** How many messages the log has given so far. */
  get size(): number {
    return this.entries.length;
  }

  /** Folds one record in; records must come in seq order. */
  add(r: LogRecord): void {
    if (r.seq <= this.lastSeq) throw new RangeError(`window: record seq ${r.seq} after seq ${this.lastSeq}`);
    this.lastSeq = r.seq;
    const msg = messageOfRecord(r);
    if (msg === null) return;
    const i = this.entries.length;
    const tokens = messageTokens(msg);
    this.entries.push({ msg, json: canonicalJson(msg), tokens, seq: r.seq });
    this.prefix.push((this.prefix[i] as number) + tokens);
    if (msg.role === "user") this.turnStarts.push(i);
    else if (msg.role === "assistant") this.roundStarts.push(i);
  }

  /** Builds the request from what was folded in. */
  build(p: WindowParams): BuiltWindow {
    const reserve = p.maxOutputTokens ?? defaultReserve(p.contextWindow);
    const tools = this.toolsOf(p.tools);
    const additions = p.additions ?? [];
    let fixed = textTokens(p.system) + tools.tokens;
    for (const m of additions) fixed += messageTokens(m);
    const avail = p.contextWindow - reserve - fixed - MARKER_RESERVE;
    const n = this.entries.length;
    const total = (k: number) => (this.prefix[n] as number) - (this.prefix[k] as number);

    // The oldest turn start from which the rest fits (index 0 is a candidate too).
    let k = -1;
    const starts = this.turnStarts[0] === 0 ? this.turnStarts : [0, ...this.turnStarts];
    let lo = 0;
    let hi = starts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (total(starts[mid] as number) <= avail) {
        k = starts[mid] as number;
        hi = mid - 1;
      } else lo = mid + 1;
    }
    // Entries in the stream: [k..n), or, when rounds of the running turn leave, entries[u], a marker, [r..n).
    let u = -1;
    let r = -1;
    if (k === -1) {
      u = starts[starts.length - 1] as number;
      k = u;
      const rounds = this.roundStarts.filter((x) => x > u);
      if (rounds.length > 1) {
        const userTokens = (this.entries[u] as Entry).tokens;
        r = rounds[rounds.length - 1] as number;
        let a = 0;
        let b = rounds.length - 1;
        while (a <= b) {
          const mid = (a + b) >> 1;
          if (userTokens + total(rounds[mid] as number) <= avail) {
            r = rounds[mid] as number;
            b = mid - 1;
          } else a = mid + 1;
        }
        if (r === u + 1) r = -1;
      }
    }
    const messages: Message[] = [];
    const head: Message[] = [];
    let cut: RecipeV1["cut"] | undefined;
    const e0 = this.entries[0];
    if (k > 0 && e0 !== undefined) {
      const through = (this.entries[k - 1] as Entry).seq;
      head.push({ role: "user", content: `[earlier conversation not shown (log seq ${e0.seq}-${through}): it did not fit in the model's context window]` });
      cut = { turns_through: through };
    }
    let streamFrom = k;
    if (r !== -1) {
      const a = (this.entries[u + 1] as Entry).seq;
      const b = (this.entries[r - 1] as Entry).seq;
      head.push((this.entries[u] as Entry).msg);
      head.push({ role: "user", content: `[earlier rounds of this turn not shown (log seq ${a}-${b}): they did not fit in the model's context window]` });
      cut = { ...(cut ?? {}), rounds: [a, b] };
      streamFrom = r;
    }
    messages.push(...head);
    for (let i = streamFrom; i < n; i++) messages.push((this.entries[i] as Entry).msg);
    messages.push(...additions);

    const request: ModelRequest = {
      model: p.model,
      system: p.system,
      messages,
      tools: p.tools,
      ...(p.maxOutputTokens !== undefined ? { maxOutputTokens: p.maxOutputTokens } : {}),
      ...(p.temperature !== undefined ? { temperature: p.temperature } : {}),
    };
    const digest = this.digest(request, head, streamFrom, additions, tools.json);
    let tokens = fixed + total(streamFrom);
    for (const m of head) tokens += messageTokens(m);
    const firstSeq = this.entries[k]?.seq;
    const recipe: RecipeV1 = {
      name: WINDOW_V1,
      system: p.system,
      context_window: p.contextWindow,
      reserve,
      estimator: { ...ESTIMATOR },
      ...(additions.length > 0 ? { additions: [...additions] } : {}),
      tokens,
      ...(firstSeq !== undefined ? { first_seq: firstSeq } : {}),
      ...(cut !== undefined ? { cut } : {}),
    };
    const params = {
      ...(p.maxOutputTokens !== undefined ? { max_output_tokens: p.maxOutputTokens } : {}),
      ...(p.temperature !== undefined ? { temperature: p.temperature } : {}),
    };
    return { request, recipe, digest, tokens, params };
  }

  private toolsOf(tools: readonly ToolDefinition[]): { json: string; tokens: number } {
    if (this.toolsCache === null || this.toolsCache.tools !== tools) {
      const json = canonicalJson(tools);
      this.toolsCache = { tools, json, tokens: textTokens(json) };
    }
    return this.toolsCache;
  }

  /**
   * The digest of canonicalJson(request), computed from the kept SHA-256 state
   * of the messages shared with the last build. The canonical member order of
   * a ModelRequest is maxOutputTokens, messages, model, system, temperature,
   * tools, so the messages are a prefix of the text.
   */
  private digest(req: ModelRequest, head: readonly Message[], from: number, additions: readonly Message[], toolsJson: string): string {
    const open = `{${req.maxOutputTokens !== undefined ? `"maxOutputTokens":${JSON.stringify(req.maxOutputTokens)},` : ""}"messages":[`;
    const key = `${open}|${from}|${head.map((m) => canonicalJson(m)).join(",")}`;
    let s = this.hashState;
    if (s === null || s.key !== key) {
      const h = createHash("sha256").update(open);
      let count = 0;
      for (const m of head) h.update((count++ > 0 ? "," : "") + canonicalJson(m));
      s = this.hashState = { key, h, fed: from, count };
    }
    const n = this.entries.length;
    for (; s.fed < n; s.fed++) s.h.update((s.count++ > 0 ? "," : "") + (this.entries[s.fed] as Entry).json);
    const h = s.h.copy();
    let count = s.count;
    for (const m of additions) h.update((count++ > 0 ? "," : "") + canonicalJson(m));
    h.update(`],"model":${JSON.stringify(req.model)},"system":${JSON.stringify(req.system)}`);
    if (req.temperature !== undefined) h.update(`,"temperature":${JSON.stringify(req.temperature)}`);
    h.update(`,"tools":${toolsJson}}`);
    return "sha256:" + h.digest("hex");
  }
}

/**
 * Rebuilds the request an llm.req recorded, from the records before it and
 * the llm.req alone (no current tool definition, no model, no tool is used):
 * the request and its digest, and whether that digest is the one recorded.
 * An llm.req of another recipe is a WindowError ("unknown-recipe").
 */
export function rebuildRequest(prefix: Iterable<LogRecord>, req: LogRecord): { request: ModelRequest; digest: string; matches: boolean } {
  if (req.kind !== "llm.req") throw new WindowError("not-a-request", `seq ${req.seq} is a ${req.kind} record, not an llm.req`);
  const p = req.payload as Record<string, any>;
  const recipe = p.recipe;
  const name = typeof recipe === "string" ? recipe : recipe?.name;
  if (name !== WINDOW_V1) throw new WindowError("unknown-recipe", `llm.req at seq ${req.seq} was built by recipe ${JSON.stringify(name ?? null)}, which this nodwyn does not know`);
  if (typeof recipe !== "object" || typeof recipe.system !== "string" || !Number.isSafeInteger(recipe.context_window) || !Number.isSafeInteger(recipe.reserve))
    throw new WindowError("bad-recipe", `llm.req at seq ${req.seq}: its window-v1 recipe lacks system, context_window or reserve`);
  const est = recipe.estimator;
  if (est?.name !== ESTIMATOR.name || est?.version !== ESTIMATOR.version)
    throw new WindowError("unknown-recipe", `llm.req at seq ${req.seq}: estimator ${JSON.stringify(est ?? null)} is not ${ESTIMATOR.name} v${ESTIMATOR.version}`);
  const w = new WindowV1();
  for (const r of prefix) {
    if (r.seq >= req.seq) break;
    w.add(r);
  }
  const params = (p.params ?? {}) as Record<string, unknown>;
  const built = w.build({
    model: String(p.model),
    system: recipe.system,
    tools: Array.isArray(p.tools) ? (p.tools as ToolDefinition[]) : [],
    contextWindow: recipe.context_window,
    ...(typeof params.max_output_tokens === "number" ? { maxOutputTokens: params.max_output_tokens } : {}),
    ...(typeof params.temperature === "number" ? { temperature: params.temperature } : {}),
    ...(Array.isArray(recipe.additions) ? { additions: recipe.additions as Message[] } : {}),
  });
  // A recorded reserve that is not the one the params give is a different recipe input.
  if (built.recipe.reserve !== recipe.reserve)
    throw new WindowError("bad-recipe", `llm.req at seq ${req.seq}: reserve ${recipe.reserve} is not what its params give (${built.recipe.reserve})`);
  return { request: built.request, digest: built.digest, matches: built.digest === p.digest };
}
