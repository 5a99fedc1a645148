// A provider for one of the wire protocols: the spec's server and model, its key, and the transport's retries and timeouts.

import type { Redactor } from "../redact/index.js";
import { anthropicBody, anthropicDecoder, anthropicHeaders, anthropicUrl } from "./anthropic.js";
import { readKey } from "./credential.js";
import { sendRequest } from "./http.js";
import { ollamaBody, ollamaDecoder, ollamaHeaders, ollamaUrl } from "./ollama.js";
import { openaiBody, openaiDecoder, openaiHeaders, openaiUrl } from "./openai.js";
import type { HttpProviderSpec, ProtocolKind, RetryTiming } from "./spec.js";
import type { Decoder } from "./stream.js";
import type { CompleteOptions, CredentialRef, ModelProvider, ModelRequest, ModelResponse, StreamEvent } from "./types.js";

/** Defaults of the transport when a spec sets none (config.toml's defaults are the same). */
export const HTTP_DEFAULTS = { timeoutMs: 600_000, idleTimeoutMs: 300_000, retries: 3 } as const;

interface Protocol {
  url(spec: HttpProviderSpec): string;
  headers(spec: HttpProviderSpec, key: string | undefined): Record<string, string>;
  body(spec: HttpProviderSpec, request: ModelRequest): Record<string, unknown>;
  decoder(emit: ((e: StreamEvent) => void) | undefined): Decoder;
}

const PROTOCOLS: Readonly<Record<ProtocolKind, Protocol>> = {
  openai: { url: openaiUrl, headers: openaiHeaders, body: openaiBody, decoder: openaiDecoder },
  ollama: { url: ollamaUrl, headers: ollamaHeaders, body: ollamaBody, decoder: ollamaDecoder },
  anthropic: { url: anthropicUrl, headers: anthropicHeaders, body: anthropicBody, decoder: anthropicDecoder },
};

// A URL as reported (session.model, messages): without a user name or password.
function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = "";
    u.password = "";
    return u.toString();
  } catch {
    return url;
  }
}

/** One server and model over one wire protocol. */
export class HttpProvider implements ModelProvider {
  readonly kind: ProtocolKind;
  readonly server: string;
  readonly model: string;
  readonly url: string;
  readonly credential?: CredentialRef;
  private readonly key: string | undefined;
  private readonly protocol: Protocol;

  constructor(
    private readonly spec: HttpProviderSpec,
    private readonly redactor: Redactor,
    env: Readonly<Record<string, string | undefined>>,
    private readonly retry: RetryTiming | undefined,
  ) {
    this.kind = spec.kind;
    this.server = spec.server;
    this.model = spec.model;
    this.protocol = PROTOCOLS[spec.kind];
    this.url = withoutCredentials(this.protocol.url(spec));
    const k = readKey(spec, env, redactor);
    this.key = k?.key;
    if (k) this.credential = k.credential;
  }

  complete(request: ModelRequest, options: CompleteOptions = {}): Promise<ModelResponse> {
    const body = JSON.stringify(this.protocol.body(this.spec, request));
    return sendRequest(
      {
        server: this.server,
        url: this.url,
        headers: this.protocol.headers(this.spec, this.key),
        body,
        decoder: this.protocol.decoder,
      },
      {
        timeoutMs: this.spec.timeoutMs ?? HTTP_DEFAULTS.timeoutMs,
        idleTimeoutMs: this.spec.idleTimeoutMs ?? HTTP_DEFAULTS.idleTimeoutMs,
        retries: this.spec.retries ?? HTTP_DEFAULTS.retries,
        redactor: this.redactor,
        ...(this.retry ? { retry: this.retry } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onEvent ? { onEvent: options.onEvent } : {}),
      },
    );
  }
}
