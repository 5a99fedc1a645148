// Test helper: a session log made in memory, record by record, as the loop writes it, with window-v2 folding it and recording llm.req.
import type { LogRecord, LogKind, Payload } from "../../../host/log/index.js";
import type { Message, ToolDefinition } from "../../../host/model/types.js";
import { recipeContext, replayRequest, WindowV2, type BranchFilter, type BuiltWindowV2, type WindowV2Params } from "../../../host/window/index.js";

export const TOOLS: ToolDefinition[] = [
  { name: "fs-read", description: "Read a file.", inputSchema: { type: "object", properties: { path: { type: "string" } } } },
  { name: "shell-exec", description: "Run a command.", inputSchema: { type: "object", properties: { command: { type: "string" } } } },
];

export const SYSTEM = "You are a test model.";

/** A log in memory: records appended in seq order, each folded into the window at once. */
export class Synth {
  readonly records: LogRecord[] = [];
  readonly window: WindowV2;
  readonly built: { seq: number; built: BuiltWindowV2 }[] = [];
  private calls = 0;
  private turn = 0;

  constructor(readonly contextWindow = 100_000, readonly maxOutputTokens?: number, branch?: BranchFilter) {
    this.window = new WindowV2(branch ? { branch } : {});
    this.add("session.start", { version: "test", origin: "test", context: recipeContext("window-v2", contextWindow, maxOutputTokens) });
  }

  add(kind: LogKind | string, payload: Record<string, unknown>): LogRecord {
    const r = { seq: this.records.length + 1, ts: "2026-12-01T00:00:00.000Z", session: "s", kind: kind as LogKind, payload: payload as Payload };
    this.records.push(r);
    this.window.add(r);
    return r;
  }

  get last(): number {
    return this.records.length;
  }

  user(text: string): number {
    this.turn++;
    return this.add("user.msg", { text, actor: "person" }).seq;
  }

  /** A reply; with calls, each call gets an id. Returns the llm.resp's seq and the call ids. */
  reply(text: string, calls: { name: string; args?: unknown }[] = [], extra: Record<string, unknown> = {}): { seq: number; ids: string[] } {
    const tc = calls.map((c) => ({ id: `c${++this.calls}`, name: c.name, arguments: JSON.stringify(c.args ?? {}) }));
    const seq = this.add("llm.resp", { req_seq: this.last, model: "m", text, ...(tc.length ? { tool_calls: tc } : {}), stop_reason: tc.length ? "tool_calls" : "end", ...extra }).seq;
    return { seq, ids: tc.map((c) => c.id) };
  }

  result(id: string, tool: string, output: string, ok = true, error?: string): number {
    this.add("tool.call", { call_id: id, tool, args: {}, resp_seq: this.last });
    return this.add("tool.result", { call_id: id, tool, ok, output, ...(error !== undefined ? { error } : {}), duration_ms: 1 }).seq;
  }

  end(outcome = "done"): number {
    return this.add("turn.end", { outcome, turn: this.turn }).seq;
  }

  params(additions?: Message[]): WindowV2Params {
    return { model: "m", system: SYSTEM, tools: TOOLS, contextWindow: this.contextWindow, ...(this.maxOutputTokens !== undefined ? { maxOutputTokens: this.maxOutputTokens } : {}), ...(additions ? { additions } : {}) };
  }

  /** Builds the request, records its llm.req as the loop does (the window folds it), and returns what was built. */
  request(additions?: Message[]): BuiltWindowV2 {
    const b = this.window.build(this.params(additions));
    const r = this.add("llm.req", { model: "m", tools: TOOLS as any, params: b.params, recipe: b.recipe as any, digest: b.digest, turn: this.turn });
    this.built.push({ seq: r.seq, built: b });
    return b;
  }

  /** One round: request, a reply calling one tool, its result. */
  round(tool: string, output: string, text = ""): { resp: number; result: number; built: BuiltWindowV2 } {
    const built = this.request();
    const r = this.reply(text, [{ name: tool, args: { path: "x" } }]);
    const result = this.result(r.ids[0] as string, tool, output);
    return { resp: r.seq, result, built };
  }

  /** A whole turn: the user message, rounds of the given results, a final answer. */
  turnWith(text: string, outputs: string[], answer = `answer to ${text}`): { user: number; answer: number } {
    const user = this.user(text);
    for (const o of outputs) this.round("fs-read", o);
    this.request();
    const a = this.reply(answer).seq;
    this.end();
    return { user, answer: a };
  }

  /** Every recorded request replays to its digest from the records before it. */
  replayAll(): number {
    let n = 0;
    for (const { seq, built } of this.built) {
      const r = replayRequest(this.records, seq);
      if (r.digest !== built.digest) throw new Error(`llm.req ${seq} replays to ${r.digest}, recorded ${built.digest}`);
      n++;
    }
    return n;
  }
}

/** A text of n characters that holds a unique tag (so a test can tell whether it reached a request). */
export function text(tag: string, n: number): string {
  const unit = ` ${tag} lorem ipsum dolor sit amet`;
  let s = tag;
  while (s.length < n) s += unit;
  return s.slice(0, n);
}
