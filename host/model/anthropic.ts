// Anthropic Messages (POST {url}/v1/messages, SSE), with x-api-key and anthropic-version.
//
// Request: the system text apart, messages as content blocks (an assistant's
// calls as tool_use blocks; tool results as tool_result blocks in the user
// turn that follows, merged with any user text there, since roles alternate),
// tools with input_schema, max_tokens always (the API requires it), and cache
// breakpoints on the system text, the last tool and the conversation's last
// block unless prompt_cache is off. Reply events: message_start (the message
// with its usage: input_tokens, cache_read_input_tokens,
// cache_creation_input_tokens), content_block_start / _delta / _stop for text
// (text_delta), tool_use (input_json_delta pieces) and thinking
// (thinking_delta), message_delta (stop_reason and the cumulative usage),
// message_stop; ping and unknown events are skipped, as the API's versioning
// policy asks; an error event fails the attempt (overloaded_error and
// api_error may be retried). A stream that ends before its stop_reason is cut
// off.

import { WireError, ToolCallAssembler, argumentsObject, count, excerpt, parseJson, SseParser, type Decoder, type DecodedReply } from "./stream.js";
import type { HttpProviderSpec } from "./spec.js";
import type { ModelRequest, StopReason, StreamEvent, Usage } from "./types.js";

/** The anthropic-version header a server gets when none is configured. */
export const ANTHROPIC_VERSION = "2023-06-01";

/** The reply's token limit when neither the request nor the model entry sets one. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

type Block = Record<string, unknown>;
interface Turn {
  role: "user" | "assistant";
  content: Block[];
}

/** The wire messages: alternating user and assistant turns of content blocks. */
export function anthropicMessages(request: ModelRequest): Turn[] {
  const turns: Turn[] = [];
  const push = (role: Turn["role"], blocks: Block[]): void => {
    if (blocks.length === 0) return;
    const last = turns[turns.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  for (const m of request.messages) {
    switch (m.role) {
      case "user":
        push("user", m.content === "" ? [] : [{ type: "text", text: m.content }]);
        break;
      case "assistant": {
        const blocks: Block[] = m.content === "" ? [] : [{ type: "text", text: m.content }];
        for (const c of m.toolCalls ?? []) blocks.push({ type: "tool_use", id: c.id, name: c.name, input: argumentsObject(c.arguments) });
        push("assistant", blocks);
        break;
      }
      case "tool":
        push("user", [
          {
            type: "tool_result",
            tool_use_id: m.toolCallId,
            content: m.content,
            ...(m.isError ? { is_error: true } : {}),
          },
        ]);
        break;
      default: {
        const never: never = m;
        throw new Error(`unknown message role ${JSON.stringify(never)}`);
      }
    }
  }
  // Tool results lead their user turn: the API wants them before any text there.
  for (const t of turns)
    if (t.role === "user") t.content.sort((a, b) => Number(b.type === "tool_result") - Number(a.type === "tool_result"));
  return turns;
}

/** The request body. */
export function anthropicBody(spec: HttpProviderSpec, request: ModelRequest): Record<string, unknown> {
  const cache = spec.promptCache !== false;
  const ephemeral = { type: "ephemeral" };
  const messages = anthropicMessages(request);
  const body: Record<string, unknown> = {
    model: request.model || spec.model,
    max_tokens: request.maxOutputTokens ?? spec.maxOutputTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
    messages,
    stream: true,
  };
  if (request.system !== "") body.system = cache ? [{ type: "text", text: request.system, cache_control: ephemeral }] : request.system;
  if (request.tools.length) {
    const tools: Block[] = request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
    if (cache) (tools[tools.length - 1] as Block).cache_control = ephemeral;
    body.tools = tools;
  }
  if (cache) {
    const lastTurn = messages[messages.length - 1];
    const lastBlock = lastTurn?.content[lastTurn.content.length - 1];
    if (lastBlock) lastBlock.cache_control = ephemeral;
  }
  const temperature = request.temperature ?? spec.temperature;
  if (temperature !== undefined) body.temperature = Math.min(1, temperature);
  return body;
}

/** The endpoint. */
export function anthropicUrl(spec: HttpProviderSpec): string {
  return `${spec.url.replace(/\/+$/, "")}/v1/messages`;
}

/** The headers: JSON, SSE, the version, and the key as x-api-key. */
export function anthropicHeaders(spec: HttpProviderSpec, key: string | undefined): Record<string, string> {
  return {
    ...(spec.headers ?? {}),
    "content-type": "application/json",
    accept: "text/event-stream",
    "anthropic-version": spec.anthropicVersion ?? ANTHROPIC_VERSION,
    ...(key !== undefined ? { "x-api-key": key } : {}),
  };
}

function stopOf(reason: string | undefined, calls: number): StopReason {
  switch (reason) {
    case "end_turn":
    case "stop_sequence":
      return calls > 0 ? "tool_calls" : "end";
    case "tool_use":
      return "tool_calls";
    case "max_tokens":
      return "max_tokens";
    default:
      return "other";
  }
}

class AnthropicDecoder implements Decoder {
  private readonly sse = new SseParser((e) => this.event(e.data));
  private readonly calls: ToolCallAssembler;
  private text = "";
  private reasoning = "";
  // Content block index → what it is; tool_use blocks → their call's index among the calls.
  private readonly blocks = new Map<number, { type: string; call?: number; sawDelta?: boolean; input?: unknown }>();
  private started = false;
  private stop: string | undefined;
  private stopped = false;
  private model: string | undefined;
  private usage: Record<string, unknown> = {};

  constructor(private readonly emit: ((e: StreamEvent) => void) | undefined) {
    this.calls = new ToolCallAssembler(emit, "toolu");
  }

  write(text: string): void {
    this.sse.write(text);
  }

  private event(data: string): void {
    const e = parseJson(data, "a stream event") as Record<string, unknown>;
    if (e === null || typeof e !== "object" || typeof e.type !== "string")
      throw new WireError("protocol", `a stream event without a type: ${excerpt(data)}`);
    switch (e.type) {
      case "message_start": {
        const m = (e.message ?? {}) as Record<string, unknown>;
        if (typeof m.model === "string") this.model = m.model;
        Object.assign(this.usage, m.usage ?? {});
        this.started = true;
        return;
      }
      case "content_block_start": {
        const index = this.index(e, data);
        const b = (e.content_block ?? {}) as Record<string, unknown>;
        const type = typeof b.type === "string" ? b.type : "unknown";
        if (type === "tool_use") {
          if (typeof b.name !== "string") throw new WireError("protocol", `a tool_use block without a name: ${excerpt(data)}`);
          const call = this.calls.size;
          this.blocks.set(index, { type, call, input: b.input });
          this.calls.piece(call, typeof b.id === "string" ? b.id : undefined, b.name, undefined);
        } else {
          this.blocks.set(index, { type });
          if (type === "text" && typeof b.text === "string" && b.text !== "") this.addText(b.text);
          if (type === "thinking" && typeof b.thinking === "string" && b.thinking !== "") this.addReasoning(b.thinking);
        }
        return;
      }
      case "content_block_delta": {
        const index = this.index(e, data);
        const d = (e.delta ?? {}) as Record<string, unknown>;
        const block = this.blocks.get(index);
        if (!block) throw new WireError("protocol", `a delta for content block ${index}, which never started`);
        if (d.type === "text_delta" && typeof d.text === "string") this.addText(d.text);
        else if (d.type === "thinking_delta" && typeof d.thinking === "string") this.addReasoning(d.thinking);
        else if (d.type === "input_json_delta" && typeof d.partial_json === "string") {
          if (block.call === undefined) throw new WireError("protocol", `input_json_delta for content block ${index}, which is not a tool_use`);
          block.sawDelta = true;
          this.calls.piece(block.call, undefined, undefined, d.partial_json);
        }
        return;
      }
      case "content_block_stop": {
        const block = this.blocks.get(this.index(e, data));
        // A tool_use whose input came whole in its start event, with no pieces after it.
        if (block?.call !== undefined && !block.sawDelta) this.calls.piece(block.call, undefined, undefined, JSON.stringify(block.input ?? {}));
        return;
      }
      case "message_delta": {
        const d = (e.delta ?? {}) as Record<string, unknown>;
        if (typeof d.stop_reason === "string") this.stop = d.stop_reason;
        // Its usage is cumulative: later counts replace earlier ones.
        Object.assign(this.usage, e.usage ?? {});
        return;
      }
      case "message_stop":
        this.stopped = true;
        return;
      case "error": {
        const err = (e.error ?? {}) as Record<string, unknown>;
        const type = typeof err.type === "string" ? err.type : "error";
        const msg = typeof err.message === "string" ? err.message : excerpt(data);
        const retryable = type === "overloaded_error" || type === "api_error" || type === "rate_limit_error";
        const status = type === "overloaded_error" ? 529 : type === "rate_limit_error" ? 429 : type === "api_error" ? 500 : undefined;
        throw new WireError("server", `the server reported an error in the stream: ${msg} (${type})`, retryable, status);
      }
      default:
        return; // ping, and event types added later
    }
  }

  private index(e: Record<string, unknown>, data: string): number {
    if (typeof e.index !== "number") throw new WireError("protocol", `a ${String(e.type)} event without an index: ${excerpt(data)}`);
    return e.index;
  }

  private addText(t: string): void {
    this.text += t;
    this.emit?.({ type: "text", delta: t });
  }

  private addReasoning(t: string): void {
    this.reasoning += t;
    this.emit?.({ type: "reasoning", delta: t });
  }

  end(): DecodedReply {
    const cut = this.sse.end();
    if (!this.started) throw new WireError("truncated", "the stream ended before message_start");
    if (this.stop === undefined)
      throw new WireError("truncated", `the stream ended before the reply did (no stop_reason${cut ? ", in the middle of an event" : ""})`);
    void this.stopped; // message_stop may be lost after the stop_reason: the reply is whole by then
    const toolCalls = this.calls.done();
    const u = this.usage;
    const plain = count(u.input_tokens);
    const read = count(u.cache_read_input_tokens);
    const written = count(u.cache_creation_input_tokens);
    const output = count(u.output_tokens);
    const usage: Omit<Usage, "wallMs"> = {
      inputTokens: (plain ?? 0) + (read ?? 0) + (written ?? 0),
      outputTokens: output ?? 0,
      ...(plain === undefined && output === undefined ? { unreported: true } : {}),
      ...(read !== undefined ? { cachedTokens: read } : {}),
      ...(written !== undefined ? { cacheWriteTokens: written } : {}),
    };
    return {
      text: this.text,
      toolCalls,
      stopReason: stopOf(this.stop, toolCalls.length),
      rawStopReason: this.stop,
      usage,
      ...(this.model !== undefined ? { model: this.model } : {}),
      ...(this.reasoning !== "" ? { reasoning: this.reasoning } : {}),
    };
  }
}

/** A decoder for one attempt. */
export function anthropicDecoder(emit: ((e: StreamEvent) => void) | undefined): Decoder {
  return new AnthropicDecoder(emit);
}
