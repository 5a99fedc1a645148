// OpenAI-compatible Chat Completions (POST {url}/chat/completions, SSE): OpenAI, vLLM, llama.cpp's server, LM Studio, OpenRouter.
//
// Request: system text as the first message, function tools, stream with
// stream_options.include_usage. Reply: chat.completion.chunk events whose
// choices[0].delta carries content, reasoning (reasoning_content or reasoning,
// as vLLM, DeepSeek and OpenRouter send it) and tool_calls pieces by index,
// finish_reason on the last choice chunk, then a chunk with empty choices and
// the usage, then `data: [DONE]`. A reply is complete at its finish_reason or
// at [DONE]; a stream that ends before both is cut off. A server that ignores
// stream and answers with one chat.completion JSON is read whole.

import { WireError, ToolCallAssembler, count, excerpt, parseJson, SseParser, type Decoder, type DecodedReply } from "./stream.js";
import type { HttpProviderSpec } from "./spec.js";
import type { Message, ModelRequest, StopReason, StreamEvent, Usage } from "./types.js";

/** The wire messages of a request: the system text first, then the conversation. */
export function openaiMessages(request: ModelRequest): unknown[] {
  const out: unknown[] = [];
  if (request.system !== "") out.push({ role: "system", content: request.system });
  for (const m of request.messages) out.push(message(m));
  return out;
}

function message(m: Message): unknown {
  switch (m.role) {
    case "user":
      return { role: "user", content: m.content };
    case "assistant": {
      const calls = m.toolCalls ?? [];
      if (calls.length === 0) return { role: "assistant", content: m.content };
      return {
        role: "assistant",
        content: m.content === "" ? null : m.content,
        tool_calls: calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments === "" ? "{}" : c.arguments } })),
      };
    }
    case "tool":
      return { role: "tool", tool_call_id: m.toolCallId, content: m.content };
    default: {
      const never: never = m;
      throw new Error(`unknown message role ${JSON.stringify(never)}`);
    }
  }
}

/** The request body. */
export function openaiBody(spec: HttpProviderSpec, request: ModelRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: request.model || spec.model,
    messages: openaiMessages(request),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools.length)
    body.tools = request.tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.inputSchema } }));
  const max = request.maxOutputTokens ?? spec.maxOutputTokens;
  if (max !== undefined) body[spec.maxTokensField ?? defaultMaxTokensField(spec.url)] = max;
  const temperature = request.temperature ?? spec.temperature;
  if (temperature !== undefined) body.temperature = temperature;
  return body;
}

function defaultMaxTokensField(url: string): "max_tokens" | "max_completion_tokens" {
  try {
    return new URL(url).hostname.toLowerCase() === "api.openai.com" ? "max_completion_tokens" : "max_tokens";
  } catch {
    return "max_tokens";
  }
}

/** The endpoint. */
export function openaiUrl(spec: HttpProviderSpec): string {
  return `${spec.url.replace(/\/+$/, "")}/chat/completions`;
}

/** The headers: JSON, SSE, and the key as a bearer token. */
export function openaiHeaders(spec: HttpProviderSpec, key: string | undefined): Record<string, string> {
  return {
    ...(spec.headers ?? {}),
    "content-type": "application/json",
    accept: "text/event-stream",
    ...(key !== undefined ? { authorization: `Bearer ${key}` } : {}),
  };
}

function stopOf(reason: string | undefined, calls: number): StopReason {
  if (calls > 0 && (reason === undefined || reason === "stop" || reason === "tool_calls" || reason === "function_call")) return "tool_calls";
  switch (reason) {
    case "stop":
      return "end";
    case "tool_calls":
    case "function_call":
      return "tool_calls";
    case "length":
      return "max_tokens";
    default:
      return reason === undefined ? "end" : "other";
  }
}

/** The usage of a chunk or a whole reply; undefined when it has none. */
export function openaiUsage(u: unknown): Omit<Usage, "wallMs"> | undefined {
  if (u === null || typeof u !== "object") return undefined;
  const o = u as Record<string, unknown>;
  const input = count(o.prompt_tokens);
  const output = count(o.completion_tokens);
  if (input === undefined && output === undefined) return undefined;
  const pd = (o.prompt_tokens_details ?? {}) as Record<string, unknown>;
  const cd = (o.completion_tokens_details ?? {}) as Record<string, unknown>;
  // DeepSeek reports its cache as prompt_cache_hit_tokens.
  const cached = count(pd?.cached_tokens) ?? count(o.prompt_cache_hit_tokens);
  const reasoning = count(cd?.reasoning_tokens);
  const cost = count(o.cost);
  return {
    inputTokens: input ?? 0,
    outputTokens: output ?? 0,
    ...(cached !== undefined ? { cachedTokens: cached } : {}),
    ...(reasoning !== undefined ? { reasoningTokens: reasoning } : {}),
    ...(cost !== undefined ? { cost } : {}),
  };
}

function serverError(e: unknown): WireError {
  const o = (e ?? {}) as Record<string, unknown>;
  const msg = typeof o.message === "string" ? o.message : excerpt(JSON.stringify(e));
  const code = typeof o.code === "number" ? o.code : undefined;
  const type = typeof o.type === "string" ? o.type : "";
  const retryable = (code !== undefined && (code === 429 || code >= 500)) || /overloaded|server_error|rate_limit/i.test(type);
  return new WireError("server", `the server reported an error in the stream: ${msg}${type ? ` (${type})` : ""}`, retryable, code);
}

class OpenAIDecoder implements Decoder {
  private readonly sse = new SseParser((e) => this.event(e.data));
  private readonly calls: ToolCallAssembler;
  private text = "";
  private reasoning = "";
  private finish: string | undefined;
  private sawDone = false;
  private usage: Omit<Usage, "wallMs"> | undefined;
  private model: string | undefined;

  constructor(private readonly emit: ((e: StreamEvent) => void) | undefined) {
    this.calls = new ToolCallAssembler(emit, "call");
  }

  write(text: string): void {
    this.sse.write(text);
  }

  private event(data: string): void {
    if (data.trim() === "[DONE]") {
      this.sawDone = true;
      return;
    }
    if (this.sawDone) return;
    const chunk = parseJson(data, "a stream event") as Record<string, unknown>;
    if (chunk === null || typeof chunk !== "object") throw new WireError("protocol", `a stream event is not an object: ${excerpt(data)}`);
    if (chunk.error !== undefined) throw serverError(chunk.error);
    if (typeof chunk.model === "string" && chunk.model) this.model = chunk.model;
    const usage = openaiUsage(chunk.usage);
    if (usage) this.usage = usage;
    const choices = chunk.choices;
    if (choices === undefined || choices === null) return;
    if (!Array.isArray(choices)) throw new WireError("protocol", `choices is not an array: ${excerpt(data)}`);
    for (const c of choices as Record<string, unknown>[]) {
      if (c === null || typeof c !== "object" || (c.index !== undefined && c.index !== 0)) continue;
      const delta = (c.delta ?? {}) as Record<string, unknown>;
      const content = delta.content;
      if (typeof content === "string" && content !== "") {
        this.text += content;
        this.emit?.({ type: "text", delta: content });
      }
      const r = typeof delta.reasoning_content === "string" ? delta.reasoning_content : typeof delta.reasoning === "string" ? delta.reasoning : "";
      if (r !== "") {
        this.reasoning += r;
        this.emit?.({ type: "reasoning", delta: r });
      }
      if (Array.isArray(delta.tool_calls))
        (delta.tool_calls as Record<string, unknown>[]).forEach((tc, k) => {
          if (tc === null || typeof tc !== "object") throw new WireError("protocol", `a tool call piece is not an object: ${excerpt(data)}`);
          const f = (tc.function ?? {}) as Record<string, unknown>;
          const index = typeof tc.index === "number" ? tc.index : k;
          this.calls.piece(
            index,
            typeof tc.id === "string" ? tc.id : undefined,
            typeof f.name === "string" ? f.name : undefined,
            typeof f.arguments === "string" ? f.arguments : undefined,
          );
        });
      if (typeof c.finish_reason === "string" && c.finish_reason !== "") this.finish = c.finish_reason;
    }
  }

  end(): DecodedReply {
    const cut = this.sse.end();
    if (this.finish === undefined && !this.sawDone)
      throw new WireError(
        "truncated",
        `the stream ended before the reply did (no finish_reason and no [DONE]${cut ? ", in the middle of an event" : ""})`,
      );
    return this.reply();
  }

  whole(body: unknown): DecodedReply {
    const o = (body ?? {}) as Record<string, unknown>;
    if (o.error !== undefined) throw serverError(o.error);
    const choice = Array.isArray(o.choices) ? (o.choices[0] as Record<string, unknown> | undefined) : undefined;
    if (!choice || typeof choice !== "object") throw new WireError("protocol", `the reply has no choices: ${excerpt(JSON.stringify(body))}`);
    const msg = (choice.message ?? {}) as Record<string, unknown>;
    if (typeof msg.content === "string") this.text = msg.content;
    if (typeof msg.reasoning_content === "string") this.reasoning = msg.reasoning_content;
    else if (typeof msg.reasoning === "string") this.reasoning = msg.reasoning;
    if (Array.isArray(msg.tool_calls))
      (msg.tool_calls as Record<string, unknown>[]).forEach((tc, k) => {
        const f = (tc?.function ?? {}) as Record<string, unknown>;
        this.calls.piece(k, typeof tc?.id === "string" ? tc.id : undefined, typeof f.name === "string" ? f.name : undefined, typeof f.arguments === "string" ? f.arguments : undefined);
      });
    if (typeof choice.finish_reason === "string") this.finish = choice.finish_reason;
    if (typeof o.model === "string") this.model = o.model;
    this.usage = openaiUsage(o.usage);
    if (this.text) this.emit?.({ type: "text", delta: this.text });
    return this.reply();
  }

  private reply(): DecodedReply {
    const toolCalls = this.calls.done();
    return {
      text: this.text,
      toolCalls,
      stopReason: stopOf(this.finish, toolCalls.length),
      ...(this.finish !== undefined ? { rawStopReason: this.finish } : {}),
      usage: this.usage ?? { inputTokens: 0, outputTokens: 0, unreported: true },
      ...(this.model !== undefined ? { model: this.model } : {}),
      ...(this.reasoning !== "" ? { reasoning: this.reasoning } : {}),
    };
  }
}

/** A decoder for one attempt. */
export function openaiDecoder(emit: ((e: StreamEvent) => void) | undefined): Decoder {
  return new OpenAIDecoder(emit);
}
