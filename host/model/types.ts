// The provider-neutral model interface: one request shape, one response shape, for every wire protocol.
//
// A request is what the window builds from the log; a response is what the turn
// loop records as llm.resp. Providers (openai.ts, ollama.ts, anthropic.ts,
// scripted.ts) translate these to and from their wire formats and own retries,
// timeouts and cancellation. Nothing here imports the interpreter.

/** A tool as offered to the model: generated from an agent primitive's table entry. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments: an object with one property per parameter. */
  readonly inputSchema: object;
}

/** One call the model asked for. `arguments` is the JSON text as the model produced it (it may be malformed). */
export interface ToolCall {
  /** The provider's id for the call (synthesised by the provider when the wire has none, e.g. Ollama). */
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** A message of the conversation, provider-neutral. The system text is not a message (ModelRequest.system). */
export type Message =
  | { readonly role: "user"; readonly content: string }
  | { readonly role: "assistant"; readonly content: string; readonly toolCalls?: readonly ToolCall[] }
  | {
      readonly role: "tool";
      /** The ToolCall.id this answers. */
      readonly toolCallId: string;
      readonly name: string;
      readonly content: string;
      readonly isError?: boolean;
    };

/** Everything a provider needs to send one request. Canonical JSON of this object is what llm.req's digest covers. */
export interface ModelRequest {
  /** The model id the server knows. */
  readonly model: string;
  readonly system: string;
  readonly messages: readonly Message[];
  readonly tools: readonly ToolDefinition[];
  /** Upper bound on the reply's tokens (providers map it to max_tokens / num_predict). */
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
}

/**
 * Token counts and timings as the server reported them (ADR 0002's llm.resp usage amendments).
 * usage.ts turns one into the llm.resp usage record (prices, cost, the cache estimate).
 */
export interface Usage {
  /**
   * Every prompt token of the request: those read from the cache and those written to it
   * included. (Anthropic reports the three apart; its provider sums them here, so that
   * inputTokens means the same for every protocol.)
   */
  readonly inputTokens: number;
  /** Every token of the reply, reasoning tokens included. */
  readonly outputTokens: number;
  /** Prompt tokens read from the provider's cache; absent when the provider did not say. */
  readonly cachedTokens?: number;
  /** Prompt tokens written to the cache (Anthropic's cache_creation_input_tokens). */
  readonly cacheWriteTokens?: number;
  readonly reasoningTokens?: number;
  /** The cost in USD as the provider itself reported it (OpenRouter's usage.cost); absent when it did not. */
  readonly cost?: number;
  /** The server gave no token counts: the zeros above are not counts. */
  readonly unreported?: boolean;
  /** Ollama's own timings, in milliseconds, as it reported them. */
  readonly promptEvalMs?: number;
  readonly evalMs?: number;
  readonly totalMs?: number;
  readonly loadMs?: number;
  /** From sending to the reply's complete arrival, the successful attempt only. */
  readonly wallMs: number;
}

/** Why the model stopped: normalised, with the wire's own word kept beside it. */
export type StopReason = "end" | "tool_calls" | "max_tokens" | "other";

/** A whole reply. A stream cut off before its end is an error (ModelError "truncated"), never a short reply. */
export interface ModelResponse {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  readonly stopReason: StopReason;
  /** The stop reason as the wire spelled it (finish_reason, done_reason, stop_reason). */
  readonly rawStopReason?: string;
  readonly usage: Usage;
  /** The model id as the server named it in its reply, when it did. */
  readonly model?: string;
  /** Reasoning text some servers return beside the answer; recorded, never shown in a window. */
  readonly reasoning?: string;
  /** How many attempts it took (1 without retries). */
  readonly attempts: number;
}

/** What a streaming provider reports while a reply arrives (for a terminal to show it). */
export type StreamEvent =
  | { readonly type: "text"; readonly delta: string }
  | { readonly type: "reasoning"; readonly delta: string }
  | { readonly type: "tool_call"; readonly index: number; readonly id?: string; readonly name?: string; readonly argumentsDelta?: string }
  /**
   * The attempt failed and another follows after delayMs. What was streamed before it is void:
   * the reply starts again from nothing with the next attempt.
   */
  | { readonly type: "retry"; readonly attempt: number; readonly delayMs: number; readonly reason: string };

export interface CompleteOptions {
  /** Cancels the request (Ctrl-C): the promise rejects with ModelError "cancelled". */
  readonly signal?: AbortSignal;
  /** Called with each piece of a streamed reply, in order. */
  readonly onEvent?: (event: StreamEvent) => void;
}

/** The kinds of failure a provider reports; every one names the server. */
export type ModelErrorCode =
  | "http" // a status that is not retried, or retries ran out (status set)
  | "network" // connection refused or dropped, retries ran out
  | "timeout"
  | "cancelled"
  | "protocol" // the server's reply is not the protocol (malformed JSON, unknown event)
  | "truncated" // the stream ended before the reply did
  | "config" // the provider cannot be made as configured (a key variable unset, a bad script file)
  | "exhausted"; // the scripted provider has no reply left

export class ModelError extends Error {
  constructor(
    readonly code: ModelErrorCode,
    /** The [servers.NAME] entry, or the provider's URL when it has no name. */
    readonly server: string,
    message: string,
    readonly status?: number,
    readonly attempts: number = 1,
  ) {
    super(message);
    this.name = "ModelError";
  }
}

/** What cred.register records of a credential: its class and id, never its value. */
export interface CredentialRef {
  /** What kind of credential it is ("api_key"). */
  readonly class: string;
  /** Where it came from ("env:OPENAI_API_KEY"): names the credential, never holds it. */
  readonly id: string;
}

/** One wire protocol bound to one server and model. */
export interface ModelProvider {
  /** "openai", "ollama", "anthropic" or "scripted". */
  readonly kind: string;
  /** The server's configured name (for messages and session.model). */
  readonly server: string;
  /** The model id the server knows (the configured one; a reply may name it differently). */
  readonly model: string;
  /** Where the server is reached (no credentials in it); for a scripted provider, its file. */
  readonly url: string;
  /** The credential the provider registered with the redactor, for the session's cred.register; absent without one. */
  readonly credential?: CredentialRef;
  complete(request: ModelRequest, options?: CompleteOptions): Promise<ModelResponse>;
}
