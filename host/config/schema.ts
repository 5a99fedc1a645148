// Every key config.toml may hold, with its type and meaning; anything else is an error naming its line.
//
// docs/guides/models.md documents these tables; a test holds the guide's key
// lists equal to this schema.

import type { Schema } from "../toml/index.js";

/** Server kinds ([servers.NAME] kind). */
export const SERVER_KINDS = ["openai", "ollama", "anthropic"] as const;

/** The base URL of each kind when a server gives none. */
export const DEFAULT_URLS: Readonly<Record<(typeof SERVER_KINDS)[number], string>> = {
  openai: "https://api.openai.com/v1",
  ollama: "http://127.0.0.1:11434",
  anthropic: "https://api.anthropic.com",
};

/** Defaults of a server's timing ([servers.NAME] timeout, idle_timeout, retries). */
export const SERVER_DEFAULTS = { timeoutSeconds: 600, idleTimeoutSeconds: 300, retries: 3 } as const;

/** Per-turn budget defaults ([budget]); each has a flag of `nodwyn chat` and `ask` that overrides it. */
export const BUDGET_DEFAULTS = {
  modelCalls: 50,
  toolCalls: 200,
  tokens: 2_000_000,
  wallSeconds: 1800,
  /** US dollars; counted only for priced models. */
  spend: 2,
} as const;

/** shell-exec defaults ([shell]). */
export const SHELL_DEFAULTS = { timeoutSeconds: 120 } as const;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const SERVER: Schema = {
  kind: { type: "string", required: true, enum: SERVER_KINDS, doc: 'the protocol: "openai" (also vLLM, llama.cpp, LM Studio, OpenRouter), "ollama" or "anthropic"' },
  url: {
    type: "string",
    pattern: /^https?:\/\/[^\s/]+/i,
    patternDoc: "an http:// or https:// URL",
    doc: "the base URL (default: the kind's public or local address)",
  },
  key_env: {
    type: "string",
    pattern: ENV_NAME,
    patternDoc: "the name of an environment variable (letters, digits, _)",
    doc: "the environment variable that holds the key; the key itself is never written in the file",
  },
  timeout: { type: "number", min: 1, max: 86_400, doc: `seconds one attempt may take, the whole reply (default ${SERVER_DEFAULTS.timeoutSeconds})` },
  idle_timeout: {
    type: "number",
    min: 1,
    // Node's fetch (undici) gives up after 300 s without a byte, whatever we ask.
    max: 300,
    doc: `seconds of silence before or within a reply before the attempt fails (default ${SERVER_DEFAULTS.idleTimeoutSeconds})`,
  },
  retries: { type: "integer", min: 0, max: 10, doc: `attempts after the first on 429, 5xx and dropped connections (default ${SERVER_DEFAULTS.retries})` },
  headers: { type: "string-table", doc: "extra request headers (not secrets: a key belongs in key_env)" },
  anthropic_version: { type: "string", doc: 'kind "anthropic": the anthropic-version header (default "2023-06-01")' },
  prompt_cache: { type: "boolean", doc: 'kind "anthropic": mark cache breakpoints on the system text, tools and conversation (default true)' },
  max_tokens_field: {
    type: "string",
    enum: ["max_tokens", "max_completion_tokens"],
    doc: 'kind "openai": the field carrying the reply\'s token limit (default max_completion_tokens on api.openai.com, max_tokens elsewhere)',
  },
};

const MODEL: Schema = {
  server: { type: "string", required: true, doc: "the [servers.NAME] the model is on" },
  model: { type: "string", required: true, doc: "the model id the server knows" },
  context_window: { type: "integer", min: 256, doc: "the model's context window in tokens (else NODWYN_CONTEXT_TOKENS, an override, or the models.dev cache: docs/guides/strategies.md)" },
  max_output_tokens: { type: "integer", min: 1, doc: "the reply's token limit (Anthropic needs one: default 4096)" },
  temperature: { type: "number", min: 0, max: 2, doc: "sampling temperature (default: the server's)" },
  price_input: { type: "number", min: 0, doc: "USD per million prompt tokens" },
  price_output: { type: "number", min: 0, doc: "USD per million reply tokens" },
  price_cached: { type: "number", min: 0, doc: "USD per million prompt tokens read from the cache (default price_input)" },
  price_cache_write: { type: "number", min: 0, doc: "USD per million prompt tokens written to the cache (default price_input)" },
};

/** The whole file. */
export const CONFIG_SCHEMA: Schema = {
  servers: { type: "named-tables", each: SERVER, doc: "model servers, one [servers.NAME] table each" },
  models: { type: "named-tables", each: MODEL, doc: "models, one [models.NAME] table each" },
  control: {
    type: "table",
    doc: "the session's defaults",
    fields: {
      model: { type: "string", doc: "the [models.NAME] used when neither --model nor NODWYN_MODEL names one" },
      compact_threshold: {
        type: "integer",
        min: 1,
        doc: "the window's size in estimated tokens at which compact.scm compacts (default: 90% of what a request may take)",
      },
    },
  },
  budget: {
    type: "table",
    doc: "per-turn limits; a turn that reaches one ends (turn.checkpoint, turn.end limit)",
    fields: {
      model_calls: { type: "integer", min: 1, doc: `model requests per turn (default ${BUDGET_DEFAULTS.modelCalls})` },
      tool_calls: { type: "integer", min: 1, doc: `tool calls per turn (default ${BUDGET_DEFAULTS.toolCalls})` },
      tokens: { type: "integer", min: 1, doc: `prompt plus reply tokens per turn, over its requests (default ${BUDGET_DEFAULTS.tokens})` },
      wall_seconds: { type: "number", min: 1, doc: `seconds per turn (default ${BUDGET_DEFAULTS.wallSeconds})` },
      spend: { type: "number", min: 0, doc: `USD per turn, for priced models (default ${BUDGET_DEFAULTS.spend})` },
    },
  },
  shell: {
    type: "table",
    doc: "the shell-exec tool",
    fields: {
      allow: { type: "strings", doc: "command prefixes that run without asking (e.g. \"git status\", \"npm test\")" },
      timeout: { type: "number", min: 1, max: 86_400, doc: `seconds a command may run (default ${SHELL_DEFAULTS.timeoutSeconds})` },
    },
  },
  guard: { type: "foreign-table", doc: "the read guard's settings (checked by host/guard)" },
};
