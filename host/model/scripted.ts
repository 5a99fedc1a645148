// The scripted provider (--model scripted:FILE): the "model" gives the replies a file lists, in order, streamed as a server would.
//
// A script is TOML (one [[reply]] table per request) or JSON Lines (one reply
// object per line); both hold the same fields, checked strictly with the place
// of each problem (docs/guides/models.md has the format). It is for tests,
// demos and for people testing their strategies offline; it does not stand in
// for the wire tests of the real protocols.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { checkTable, formatKeyPath, isTable, parseToml, Places, TomlSyntaxError, type Problem, type Schema } from "../toml/index.js";
import type { ScriptedProviderSpec } from "./spec.js";
import {
  ModelError,
  type CompleteOptions,
  type ModelErrorCode,
  type ModelProvider,
  type ModelRequest,
  type ModelResponse,
  type StopReason,
  type ToolCall,
  type Usage,
} from "./types.js";

/** The context window a script declares none for. */
export const SCRIPT_DEFAULT_CONTEXT_WINDOW = 32768;

/** A script file bigger than this is refused (it is meant to be written by a person or a test). */
export const SCRIPT_MAX_BYTES = 16 * 1024 * 1024;

const STOPS = ["end", "tool_calls", "max_tokens", "other"] as const;
const ERROR_CODES = ["http", "network", "timeout", "cancelled", "protocol", "truncated"] as const;

const REPLY: Schema = {
  text: { type: "string", doc: "the reply's text (or give chunks)" },
  chunks: { type: "strings", doc: "the text, streamed in these pieces" },
  reasoning: { type: "string", doc: "reasoning text streamed before the answer" },
  tool_calls: {
    type: "table-array",
    doc: "the calls the model makes",
    each: {
      id: { type: "string", doc: "the call's id (default call_R_C: reply R, call C)" },
      name: { type: "string", required: true, doc: "the tool's name" },
      arguments: { type: "json", doc: "the arguments: a table, or a string of JSON text as the model wrote it" },
    },
  },
  stop_reason: { type: "string", enum: STOPS, doc: "why the model stopped (default tool_calls with calls, else end)" },
  usage: {
    type: "table",
    doc: "token counts the server reports (without it the reply's counts are unreported)",
    fields: {
      input: { type: "integer", min: 0, required: true, doc: "prompt tokens" },
      output: { type: "integer", min: 0, required: true, doc: "reply tokens" },
      cached: { type: "integer", min: 0, doc: "prompt tokens read from the cache" },
      cache_write: { type: "integer", min: 0, doc: "prompt tokens written to the cache" },
      reasoning: { type: "integer", min: 0, doc: "reasoning tokens" },
      prompt_eval_ms: { type: "number", min: 0, doc: "Ollama-style prompt-eval time" },
      eval_ms: { type: "number", min: 0, doc: "Ollama-style eval time" },
      cost: { type: "number", min: 0, doc: "a cost in USD the provider reports" },
    },
  },
  model: { type: "string", doc: "the model id the reply names" },
  delay_ms: { type: "number", min: 0, max: 3_600_000, doc: "wait this long before the reply starts" },
  chunk_delay_ms: { type: "number", min: 0, max: 60_000, doc: "wait this long before each later piece" },
  error: {
    type: "table",
    doc: "fail this request with a provider error instead of replying",
    fields: {
      code: { type: "string", enum: ERROR_CODES, doc: "the error's code (default http)" },
      status: { type: "integer", min: 100, max: 599, doc: "an HTTP status" },
      message: { type: "string", required: true, doc: "what the error says" },
    },
  },
};

const TOML_SCRIPT: Schema = {
  model: { type: "string", doc: "the model id the provider reports (default scripted)" },
  context_window: { type: "integer", min: 1, doc: `the model's context window in tokens (default ${SCRIPT_DEFAULT_CONTEXT_WINDOW})` },
  reply: { type: "table-array", required: true, doc: "the replies, one [[reply]] per request, in order", each: REPLY },
};

/** One reply of a script, checked. */
export interface ScriptReply {
  /** 1-based line of the reply in its file. */
  readonly line: number;
  readonly text: string;
  readonly chunks: readonly string[];
  readonly reasoning?: string;
  readonly toolCalls: readonly ToolCall[];
  readonly stopReason: StopReason;
  readonly usage?: Omit<Usage, "wallMs">;
  readonly model?: string;
  readonly delayMs: number;
  readonly chunkDelayMs: number;
  readonly error?: { readonly code: ModelErrorCode; readonly status?: number; readonly message: string };
}

/** A checked script. */
export interface Script {
  /** The absolute path of the file. */
  readonly file: string;
  readonly model: string;
  readonly contextWindow: number;
  /** The script gave its context_window (else contextWindow is the default). */
  readonly contextWindowGiven?: boolean;
  readonly replies: readonly ScriptReply[];
}

function fail(file: string, line: number, col: number, message: string): never {
  throw new ModelError("config", "scripted", `${file}:${line}:${col}: ${message}`);
}

function failProblems(file: string, problems: readonly Problem[]): never {
  const lines = problems.slice(0, 20).map((p) => `${file}:${p.place.line}:${p.place.col}: ${p.message}`);
  if (problems.length > 20) lines.push(`… and ${problems.length - 20} more problems`);
  throw new ModelError("config", "scripted", lines.join("\n"));
}

/**
 * Reads and checks a script: `.toml` ([[reply]] tables) or `.jsonl` (a reply
 * object per line; blank lines and lines starting with # are skipped). Throws
 * ModelError "config" naming file:line:col for anything wrong.
 */
export function loadScript(path: string): Script {
  const file = resolve(path);
  let text: string;
  try {
    const buf = readFileSync(file);
    if (buf.length > SCRIPT_MAX_BYTES) fail(file, 1, 1, `a script is at most ${SCRIPT_MAX_BYTES} bytes; this one is ${buf.length}`);
    text = buf.toString("utf8");
  } catch (e) {
    if (e instanceof ModelError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "a directory, not a file" : (e as Error).message;
    throw new ModelError("config", "scripted", `${file}: cannot read the script: ${why}`);
  }
  if (file.endsWith(".toml")) return tomlScript(file, text);
  if (file.endsWith(".jsonl") || file.endsWith(".ndjson")) return jsonlScript(file, text);
  throw new ModelError("config", "scripted", `${file}: a script is a .toml or a .jsonl file (docs/guides/models.md)`);
}

function tomlScript(file: string, text: string): Script {
  let doc;
  try {
    doc = parseToml(text);
  } catch (e) {
    if (e instanceof TomlSyntaxError) fail(file, e.line, e.col, e.detail);
    throw e;
  }
  const problems = checkTable(doc.value, TOML_SCRIPT, doc.places);
  const raw = (doc.value.reply ?? []) as Record<string, unknown>[];
  const replies: ScriptReply[] = [];
  raw.forEach((r, n) => {
    const line = doc.places.of(["reply", n]).line;
    if (isTable(r)) replies.push(reply(r, n, line, doc.places, ["reply", n], problems));
  });
  if (problems.length) failProblems(file, problems);
  if (replies.length === 0) fail(file, 1, 1, "the script has no reply: add a [[reply]] table");
  return {
    file,
    model: typeof doc.value.model === "string" ? doc.value.model : "scripted",
    contextWindow: typeof doc.value.context_window === "number" ? doc.value.context_window : SCRIPT_DEFAULT_CONTEXT_WINDOW,
    ...(typeof doc.value.context_window === "number" ? { contextWindowGiven: true } : {}),
    replies,
  };
}

// A JSON line's places: every key at the column where its name first appears in the line.
function linePlaces(line: number, text: string, value: unknown): Places {
  const places = new Places();
  const visit = (v: unknown, path: (string | number)[]): void => {
    if (Array.isArray(v)) v.forEach((e, i) => visit(e, [...path, i]));
    else if (v !== null && typeof v === "object")
      for (const [k, e] of Object.entries(v)) {
        const at = text.indexOf(JSON.stringify(k));
        places.set([...path, k], { line, col: at < 0 ? 1 : at + 1 });
        visit(e, [...path, k]);
      }
  };
  places.set([], { line, col: 1 });
  visit(value, []);
  return places;
}

function jsonlScript(file: string, text: string): Script {
  const replies: ScriptReply[] = [];
  const problems: Problem[] = [];
  const lines = text.split("\n");
  lines.forEach((raw, i) => {
    const lineText = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const trimmed = lineText.trim();
    if (trimmed === "" || trimmed.startsWith("#")) return;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (e) {
      fail(file, i + 1, 1, `not JSON: ${(e as Error).message}`);
    }
    if (!isTable(value)) fail(file, i + 1, 1, "a reply is a JSON object: {\"text\": \"…\"}");
    const places = linePlaces(i + 1, lineText, value);
    const found = checkTable(value, REPLY, places);
    problems.push(...found);
    replies.push(reply(value, replies.length, i + 1, places, [], problems));
  });
  if (problems.length) failProblems(file, problems);
  if (replies.length === 0) fail(file, 1, 1, "the script has no reply: add a line like {\"text\": \"Hello.\"}");
  return { file, model: "scripted", contextWindow: SCRIPT_DEFAULT_CONTEXT_WINDOW, replies };
}

// Builds one reply from a table the schema check has seen (wrong fields are already problems: skip them here).
function reply(
  r: Record<string, unknown>,
  n: number,
  line: number,
  places: Places,
  at: (string | number)[],
  problems: Problem[],
): ScriptReply {
  const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
  const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
  const chunksRaw = Array.isArray(r.chunks) && r.chunks.every((c) => typeof c === "string") ? (r.chunks as string[]) : undefined;
  let text = str(r.text);
  if (chunksRaw && text !== undefined && text !== chunksRaw.join(""))
    problems.push({
      code: "value",
      path: [...at, "chunks"],
      place: places.of([...at, "chunks"]),
      message: `${formatKeyPath([...at, "chunks"])} must join to the reply's text (or give only one of text and chunks)`,
    });
  text ??= chunksRaw?.join("") ?? "";
  const chunks = chunksRaw ?? (text === "" ? [] : [text]);
  const toolCalls: ToolCall[] = [];
  if (Array.isArray(r.tool_calls))
    r.tool_calls.forEach((c, k) => {
      if (!isTable(c) || typeof c.name !== "string") return;
      const args = c.arguments;
      toolCalls.push({
        id: str(c.id) ?? `call_${n + 1}_${k + 1}`,
        name: c.name,
        arguments: typeof args === "string" ? args : JSON.stringify(args ?? {}),
      });
    });
  const u = isTable(r.usage) ? r.usage : undefined;
  let usage: Omit<Usage, "wallMs"> | undefined;
  if (u && num(u.input) !== undefined && num(u.output) !== undefined) {
    usage = {
      inputTokens: num(u.input) as number,
      outputTokens: num(u.output) as number,
      ...(num(u.cached) !== undefined ? { cachedTokens: num(u.cached) } : {}),
      ...(num(u.cache_write) !== undefined ? { cacheWriteTokens: num(u.cache_write) } : {}),
      ...(num(u.reasoning) !== undefined ? { reasoningTokens: num(u.reasoning) } : {}),
      ...(num(u.prompt_eval_ms) !== undefined ? { promptEvalMs: num(u.prompt_eval_ms) } : {}),
      ...(num(u.eval_ms) !== undefined ? { evalMs: num(u.eval_ms) } : {}),
      ...(num(u.cost) !== undefined ? { cost: num(u.cost) } : {}),
    };
  }
  const e = isTable(r.error) ? r.error : undefined;
  if (e && (text !== "" || toolCalls.length || r.reasoning !== undefined))
    problems.push({
      code: "value",
      path: [...at, "error"],
      place: places.of([...at, "error"]),
      message: `${formatKeyPath([...at, "error"]) || "error"}: a reply that fails has no text, chunks, reasoning or tool_calls`,
    });
  const stop = str(r.stop_reason) as StopReason | undefined;
  return {
    line,
    text,
    chunks,
    ...(str(r.reasoning) !== undefined ? { reasoning: str(r.reasoning) } : {}),
    toolCalls,
    stopReason: stop ?? (toolCalls.length ? "tool_calls" : "end"),
    ...(usage ? { usage } : {}),
    ...(str(r.model) !== undefined ? { model: str(r.model) } : {}),
    delayMs: num(r.delay_ms) ?? 0,
    chunkDelayMs: num(r.chunk_delay_ms) ?? 0,
    ...(e && typeof e.message === "string"
      ? {
          error: {
            code: (str(e.code) ?? "http") as ModelErrorCode,
            ...(num(e.status) !== undefined ? { status: num(e.status) } : {}),
            message: e.message,
          },
        }
      : {}),
  };
}

// Waits ms, or rejects with ModelError "cancelled" when the signal fires first.
function pause(ms: number, signal: AbortSignal | undefined, server: string): Promise<void> {
  if (signal?.aborted) return Promise.reject(new ModelError("cancelled", server, `${server}: the request was cancelled`));
  if (ms <= 0) return Promise.resolve();
  return new Promise((done, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new ModelError("cancelled", server, `${server}: the request was cancelled`));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      done();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The scripted provider: the next reply of its script for each request. */
export class ScriptedProvider implements ModelProvider {
  readonly kind = "scripted";
  readonly server: string;
  readonly model: string;
  readonly url: string;
  private next = 0;

  constructor(readonly script: Script, server = "scripted") {
    this.server = server;
    this.model = script.model;
    this.url = script.file;
  }

  /** How many replies the script has given. */
  get used(): number {
    return this.next;
  }

  async complete(_request: ModelRequest, options: CompleteOptions = {}): Promise<ModelResponse> {
    const { signal, onEvent } = options;
    const started = performance.now();
    if (signal?.aborted) throw new ModelError("cancelled", this.server, `${this.server}: the request was cancelled`);
    const r = this.script.replies[this.next];
    if (!r) {
      const n = this.script.replies.length;
      throw new ModelError(
        "exhausted",
        this.server,
        `${this.script.file}: no reply left: the script has ${n} repl${n === 1 ? "y" : "ies"} and this is request ${this.next + 1}`,
      );
    }
    this.next++;
    await pause(r.delayMs, signal, this.server);
    if (r.error) throw new ModelError(r.error.code, this.server, `${this.server}: ${r.error.message}`, r.error.status);
    if (r.reasoning !== undefined) onEvent?.({ type: "reasoning", delta: r.reasoning });
    for (let k = 0; k < r.chunks.length; k++) {
      if (k > 0) await pause(r.chunkDelayMs, signal, this.server);
      onEvent?.({ type: "text", delta: r.chunks[k] as string });
    }
    r.toolCalls.forEach((c, index) => onEvent?.({ type: "tool_call", index, id: c.id, name: c.name, argumentsDelta: c.arguments }));
    if (signal?.aborted) throw new ModelError("cancelled", this.server, `${this.server}: the request was cancelled`);
    const wallMs = performance.now() - started;
    const usage: Usage = r.usage ? { ...r.usage, wallMs } : { inputTokens: 0, outputTokens: 0, unreported: true, wallMs };
    return {
      text: r.text,
      toolCalls: r.toolCalls,
      stopReason: r.stopReason,
      rawStopReason: r.stopReason,
      usage,
      model: r.model ?? this.script.model,
      ...(r.reasoning !== undefined ? { reasoning: r.reasoning } : {}),
      attempts: 1,
    };
  }
}

/** Makes the scripted provider of a spec, reading and checking its script now. */
export function createScriptedProvider(spec: ScriptedProviderSpec): ScriptedProvider {
  return new ScriptedProvider(loadScript(spec.file), spec.server ?? "scripted");
}
