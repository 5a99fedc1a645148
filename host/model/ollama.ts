// Ollama's native chat API (POST {url}/api/chat, a stream of JSON lines).
//
// Request: the system text as the first message, tools as functions, tool
// results as role "tool" with tool_name, and options.num_ctx set to the
// model's context window (Ollama's default is far smaller and it would cut
// the prompt silently). Reply: one object per line, message.content and
// message.thinking pieces, tool calls whole (arguments as an object), and a
// last object with done: true, done_reason, the counts (prompt_eval_count,
// eval_count, prompt_eval_cached_count when the server sends it) and the
// durations in nanoseconds. A stream without its done object is cut off.

import { WireError, ToolCallAssembler, argumentsObject, count, excerpt, LineSplitter, parseJson, type Decoder, type DecodedReply } from "./stream.js";
import type { HttpProviderSpec } from "./spec.js";
import type { Message, ModelRequest, StopReason, StreamEvent, Usage } from "./types.js";

function message(m: Message): unknown {
  switch (m.role) {
    case "user":
      return { role: "user", content: m.content };
    case "assistant": {
      const calls = m.toolCalls ?? [];
      if (calls.length === 0) return { role: "assistant", content: m.content };
      return {
        role: "assistant",
        content: m.content,
        tool_calls: calls.map((c) => ({ function: { name: c.name, arguments: argumentsObject(c.arguments) } })),
      };
    }
    case "tool":
      return { role: "tool", content: m.content, tool_name: m.name };
    default: {
      const never: never = m;
      throw new Error(`unknown message role ${JSON.stringify(never)}`);
    }
  }
}

/** The request body. */
export function ollamaBody(spec: HttpProviderSpec, request: ModelRequest): Record<string, unknown> {
  const messages: unknown[] = [];
  if (request.system !== "") messages.push({ role: "system", content: request.system });
  for (const m of request.messages) messages.push(message(m));
  const options: Record<string, unknown> = {};
  if (spec.contextWindow !== undefined) options.num_ctx = spec.contextWindow;
  const max = request.maxOutputTokens ?? spec.maxOutputTokens;
  if (max !== undefined) options.num_predict = max;
  const temperature = request.temperature ?? spec.temperature;
  if (temperature !== undefined) options.temperature = temperature;
  const body: Record<string, unknown> = { model: request.model || spec.model, messages, stream: true };
  if (request.tools.length)
    body.tools = request.tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.inputSchema } }));
  if (Object.keys(options).length) body.options = options;
  return body;
}

/** The endpoint. */
export function ollamaUrl(spec: HttpProviderSpec): string {
  return `${spec.url.replace(/\/+$/, "")}/api/chat`;
}

/** The headers: JSON, and a bearer key when one is configured (Ollama behind a proxy, or its hosted service). */
export function ollamaHeaders(spec: HttpProviderSpec, key: string | undefined): Record<string, string> {
  return {
    ...(spec.headers ?? {}),
    "content-type": "application/json",
    accept: "application/x-ndjson",
    ...(key !== undefined ? { authorization: `Bearer ${key}` } : {}),
  };
}

const NS_PER_MS = 1_000_000;

function stopOf(reason: string | undefined, calls: number): StopReason {
  if (reason === "length") return "max_tokens";
  if (calls > 0) return "tool_calls";
  return reason === undefined || reason === "stop" ? "end" : "other";
}

class OllamaDecoder implements Decoder {
  private readonly lines = new LineSplitter((line) => this.line(line));
  private readonly calls: ToolCallAssembler;
  private text = "";
  private reasoning = "";
  private final: Record<string, unknown> | undefined;
  private model: string | undefined;

  constructor(private readonly emit: ((e: StreamEvent) => void) | undefined) {
    this.calls = new ToolCallAssembler(emit, "call");
  }

  write(text: string): void {
    this.lines.write(text);
  }

  private line(line: string): void {
    const o = parseJson(line, "a stream line") as Record<string, unknown>;
    if (o === null || typeof o !== "object" || Array.isArray(o)) throw new WireError("protocol", `a stream line is not an object: ${excerpt(line)}`);
    if (this.final) throw new WireError("protocol", `more after the reply's last line (done: true): ${excerpt(line)}`);
    if (typeof o.error === "string") throw new WireError("server", `the server reported an error in the stream: ${o.error}`, false);
    if (typeof o.model === "string") this.model = o.model;
    const m = (o.message ?? {}) as Record<string, unknown>;
    if (typeof m.content === "string" && m.content !== "") {
      this.text += m.content;
      this.emit?.({ type: "text", delta: m.content });
    }
    if (typeof m.thinking === "string" && m.thinking !== "") {
      this.reasoning += m.thinking;
      this.emit?.({ type: "reasoning", delta: m.thinking });
    }
    if (Array.isArray(m.tool_calls))
      for (const tc of m.tool_calls as Record<string, unknown>[]) {
        const f = (tc?.function ?? {}) as Record<string, unknown>;
        if (typeof f.name !== "string") throw new WireError("protocol", `a tool call without a function name: ${excerpt(line)}`);
        const args = typeof f.arguments === "string" ? f.arguments : JSON.stringify(f.arguments ?? {});
        this.calls.whole(typeof tc.id === "string" && tc.id ? tc.id : undefined, f.name, args);
      }
    if (o.done === true) this.final = o;
  }

  end(): DecodedReply {
    const rest = this.lines.rest();
    if (rest.trim() !== "") {
      // A last line without its newline: whole if it parses, else the stream was cut inside it.
      let ok = true;
      try {
        JSON.parse(rest);
      } catch {
        ok = false;
      }
      if (!ok) throw new WireError("truncated", `the stream ended in the middle of a line: ${excerpt(rest)}`);
      this.line(rest);
    }
    if (!this.final) throw new WireError("truncated", "the stream ended before the reply did (no line with done: true)");
    return this.reply(this.final);
  }

  private reply(f: Record<string, unknown>): DecodedReply {
    const toolCalls = this.calls.done();
    const reason = typeof f.done_reason === "string" ? f.done_reason : undefined;
    const input = count(f.prompt_eval_count);
    const output = count(f.eval_count);
    const cached = count(f.prompt_eval_cached_count);
    const ms = (v: unknown): number | undefined => {
      const n = count(v);
      return n === undefined ? undefined : n / NS_PER_MS;
    };
    const promptEvalMs = ms(f.prompt_eval_duration);
    const evalMs = ms(f.eval_duration);
    const totalMs = ms(f.total_duration);
    const loadMs = ms(f.load_duration);
    const usage: Omit<Usage, "wallMs"> = {
      inputTokens: input ?? 0,
      outputTokens: output ?? 0,
      ...(input === undefined && output === undefined ? { unreported: true } : {}),
      ...(cached !== undefined ? { cachedTokens: cached } : {}),
      ...(promptEvalMs !== undefined ? { promptEvalMs } : {}),
      ...(evalMs !== undefined ? { evalMs } : {}),
      ...(totalMs !== undefined ? { totalMs } : {}),
      ...(loadMs !== undefined ? { loadMs } : {}),
    };
    return {
      text: this.text,
      toolCalls,
      stopReason: stopOf(reason, toolCalls.length),
      ...(reason !== undefined ? { rawStopReason: reason } : {}),
      usage,
      ...(this.model !== undefined ? { model: this.model } : {}),
      ...(this.reasoning !== "" ? { reasoning: this.reasoning } : {}),
    };
  }
}

/** A decoder for one attempt. */
export function ollamaDecoder(emit: ((e: StreamEvent) => void) | undefined): Decoder {
  return new OllamaDecoder(emit);
}
