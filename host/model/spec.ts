// What a provider is made from: the resolved server and model entry (host/config builds one), and the options of the host.

import type { Redactor } from "../redact/index.js";

/** The wire protocols. */
export type ProtocolKind = "openai" | "ollama" | "anthropic";

/** Every kind of provider: the three protocols and the scripted one. */
export type ProviderKind = ProtocolKind | "scripted";

/** A server speaking one of the wire protocols, and the model to ask there. */
export interface HttpProviderSpec {
  readonly kind: ProtocolKind;
  /** The [servers.NAME] entry, named in every error. */
  readonly server: string;
  /** The base URL: the provider appends /chat/completions, /api/chat or /v1/messages. */
  readonly url: string;
  /** The model id the server knows. */
  readonly model: string;
  /** The environment variable holding the key; without one, no key is sent. */
  readonly keyEnv?: string;
  /** The model's context window in tokens (Ollama is sent it as num_ctx: its own default is far smaller). */
  readonly contextWindow?: number;
  /** The reply's token limit when a request sets none (Anthropic needs one: 4096 when neither says). */
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  /** One attempt's whole time, from sending to the reply's end (default 600 s). */
  readonly timeoutMs?: number;
  /** The longest silence, before the reply starts or within it (default 300 s). */
  readonly idleTimeoutMs?: number;
  /** Attempts after the first, on 429, 5xx and dropped connections (default 3). */
  readonly retries?: number;
  /** Extra request headers (not secrets: a key belongs in keyEnv). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Anthropic: the anthropic-version header (default 2023-06-01). */
  readonly anthropicVersion?: string;
  /** Anthropic: mark the system text, tools and the conversation's end as cache breakpoints (default true). */
  readonly promptCache?: boolean;
  /** OpenAI-compatible: the field of the reply's token limit (default max_completion_tokens for api.openai.com, else max_tokens). */
  readonly maxTokensField?: "max_tokens" | "max_completion_tokens";
}

/** The scripted provider: replies read from a file, in order. */
export interface ScriptedProviderSpec {
  readonly kind: "scripted";
  /** The script: a .toml or .jsonl file (docs/guides/models.md). */
  readonly file: string;
  /** The name used in messages (default "scripted"). */
  readonly server?: string;
}

/** What createProvider makes a provider from. */
export type ProviderSpec = HttpProviderSpec | ScriptedProviderSpec;

/** Retry timing; the defaults suit real servers, tests make them small. */
export interface RetryTiming {
  /** The first retry's delay before jitter (default 500 ms); each later one doubles it. */
  readonly baseDelayMs?: number;
  /** No backoff delay exceeds this (default 30 s). */
  readonly maxDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the error is reported at once (default 120 s). */
  readonly maxRetryAfterMs?: number;
}

/** What the host gives createProvider besides the spec. */
export interface ProviderOptions {
  /**
   * The session's redactor: the key is registered with it as a secret, and every
   * error message passes through it. Without one, the provider uses a private
   * redactor for its own messages (the key then is not protected elsewhere).
   */
  readonly redactor?: Redactor;
  /** Where keyEnv is read (default process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly retry?: RetryTiming;
}
