// The wire tests every protocol passes, against a real HTTP server on 127.0.0.1 speaking that protocol's documented format.

import type { TestFn } from "ava";
import { Redactor } from "../../../host/redact/index.js";
import {
  createProvider,
  ModelError,
  type HttpProviderSpec,
  type ModelRequest,
  type ModelResponse,
  type ProtocolKind,
  type StreamEvent,
  type Usage,
} from "../../../host/model/index.js";
import { cutBytes, hangUp, silent, status, stream, tick, WireServer, type Responder } from "./wire-server.js";

/** A reply as a test describes it; each fixture writes it in its protocol's format. */
export interface ReplyShape {
  readonly text?: readonly string[];
  readonly calls?: readonly { readonly id: string; readonly name: string; readonly args: readonly string[] }[];
  /** input counts every prompt token, cached and cache-written included (as Usage does). */
  readonly usage?: { readonly input: number; readonly output: number; readonly cached?: number; readonly write?: number; readonly reasoning?: number };
  readonly stop?: "end" | "tool_calls" | "max_tokens";
  readonly model?: string;
}

/** One protocol's side of the suite. */
export interface WireFixture {
  readonly kind: ProtocolKind;
  /** The path the provider must POST to. */
  readonly path: string;
  /** The spec's url for a server at base (e.g. base + "/v1" for OpenAI). */
  baseUrl(base: string): string;
  readonly contentType: string;
  /** A complete streamed reply, as the protocol's documentation shows one. */
  reply(shape: ReplyShape): string;
  /** The same reply without its ending (no finish, no done line, no stop_reason): the stream simply stops. */
  unfinished(shape: ReplyShape): string;
  /** A reply with a malformed piece of JSON in the middle. */
  malformed(): string;
  /** The header and value that carry the key. */
  keyHeader(key: string): [string, string];
  /** Whether the protocol reports cached prompt tokens apart (all three do, in their own fields). */
  readonly cachedField: string;
}

export const REQUEST: ModelRequest = {
  model: "test-model",
  system: "You are a test.",
  messages: [{ role: "user", content: "Say hello." }],
  tools: [{ name: "get_weather", description: "The weather in a city.", inputSchema: { type: "object", properties: { city: { type: "string" } } } }],
};

export interface Ctx {
  server: WireServer;
}

const FAST = { baseDelayMs: 5, maxDelayMs: 20 };

export function wireSuite(test: TestFn<Ctx>, fx: WireFixture): void {
  test.beforeEach(async (t) => {
    t.context.server = await WireServer.start();
  });
  test.afterEach.always(async (t) => {
    await t.context.server.close();
  });

  const spec = (server: WireServer, over: Partial<HttpProviderSpec> = {}): HttpProviderSpec => ({
    kind: fx.kind,
    server: "local",
    url: fx.baseUrl(server.url),
    model: "test-model",
    contextWindow: 8192,
    retries: 2,
    timeoutMs: 30_000,
    idleTimeoutMs: 10_000,
    ...over,
  });
  const provider = (server: WireServer, over: Partial<HttpProviderSpec> = {}, redactor = new Redactor(), env: Record<string, string> = {}) =>
    createProvider(spec(server, over), { redactor, env, retry: FAST });
  const pieces = (text: string): string[] => text.split(/(?<=\n\n)|(?<=\n)(?=\{)/);
  const complete = (p: ReturnType<typeof provider>, events?: StreamEvent[], signal?: AbortSignal): Promise<ModelResponse> =>
    p.complete(REQUEST, { ...(events ? { onEvent: (e) => events.push(e) } : {}), ...(signal ? { signal } : {}) });

  test(`${fx.kind}: streamed text arrives in pieces, in order, and the reply is whole`, async (t) => {
    const { server } = t.context;
    const shape: ReplyShape = { text: ["Hel", "lo, ", "wörld ☕."], usage: { input: 25, output: 6, cached: 16 }, stop: "end" };
    server.answer(stream(fx.contentType, pieces(fx.reply(shape))));
    const events: StreamEvent[] = [];
    const r = await complete(provider(server), events);
    t.is(r.text, "Hello, wörld ☕.");
    t.deepEqual(
      events.filter((e) => e.type === "text").map((e) => (e as { delta: string }).delta),
      ["Hel", "lo, ", "wörld ☕."],
    );
    t.is(r.stopReason, "end");
    t.deepEqual(r.toolCalls, []);
    t.is(r.attempts, 1);
    t.is(r.usage.inputTokens, 25);
    t.is(r.usage.outputTokens, 6);
    t.is(r.usage.cachedTokens, 16);
    t.falsy(r.usage.unreported);
    t.true(r.usage.wallMs >= 0);
    const req = server.requests[0]!;
    t.is(req.method, "POST");
    t.is(req.path, fx.path);
    t.is((req.body as { stream?: boolean }).stream, true);
    t.regex(String(req.headers["content-type"]), /application\/json/);
  });

  test(`${fx.kind}: usage without a cached count leaves cachedTokens unknown, not zero`, async (t) => {
    const { server } = t.context;
    server.answer(stream(fx.contentType, pieces(fx.reply({ text: ["ok"], usage: { input: 10, output: 1 } }))));
    const r = await complete(provider(server));
    t.is(r.usage.inputTokens, 10);
    t.is(r.usage.cachedTokens, undefined);
    t.false(fx.cachedField in JSON.parse(JSON.stringify(r.usage)));
  });

  test(`${fx.kind}: one tool call`, async (t) => {
    const { server } = t.context;
    server.answer(
      stream(fx.contentType, pieces(fx.reply({ calls: [{ id: "call_1", name: "get_weather", args: ['{"city":', ' "Paris"}'] }], stop: "tool_calls" }))),
    );
    const events: StreamEvent[] = [];
    const r = await complete(provider(server), events);
    t.is(r.stopReason, "tool_calls");
    t.is(r.toolCalls.length, 1);
    t.is(r.toolCalls[0]!.name, "get_weather");
    t.deepEqual(JSON.parse(r.toolCalls[0]!.arguments), { city: "Paris" });
    if (fx.kind !== "ollama") t.is(r.toolCalls[0]!.id, "call_1");
    else t.truthy(r.toolCalls[0]!.id);
    t.true(events.some((e) => e.type === "tool_call" && e.name === "get_weather"));
  });

  test(`${fx.kind}: several tool calls in one reply keep their order, ids and arguments`, async (t) => {
    const { server } = t.context;
    const calls = [
      { id: "call_a", name: "get_weather", args: ['{"city": "Oslo"}'] },
      { id: "call_b", name: "get_time", args: ['{"zone":', ' "UTC"}'] },
      { id: "call_c", name: "get_weather", args: ["{}"] },
    ];
    server.answer(stream(fx.contentType, pieces(fx.reply({ text: ["Checking."], calls, stop: "tool_calls" }))));
    const r = await complete(provider(server));
    t.is(r.text, "Checking.");
    t.deepEqual(
      r.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)]),
      [
        ["get_weather", { city: "Oslo" }],
        ["get_time", { zone: "UTC" }],
        ["get_weather", {}],
      ],
    );
    const ids = r.toolCalls.map((c) => c.id);
    if (fx.kind !== "ollama") t.deepEqual(ids, ["call_a", "call_b", "call_c"]);
    t.is(new Set(ids).size, 3);
  });

  test(`${fx.kind}: a tool call split across many chunks, cut at arbitrary byte boundaries, is assembled whole`, async (t) => {
    const { server } = t.context;
    const args = '{"city": "Zürich ☔", "note": "line\\nbreak \\"quoted\\""}';
    const argPieces = args.match(/.{1,3}/gsu) ?? [];
    const shape: ReplyShape = {
      text: ["Let me ", "check ✓."],
      calls: [
        { id: "call_x", name: "get_weather", args: argPieces },
        { id: "call_y", name: "get_time", args: ["{}"] },
      ],
      usage: { input: 50, output: 20, cached: 0 },
      stop: "tool_calls",
    };
    const body = fx.reply(shape);
    for (const seed of [1, 7, 42]) {
      server.answer(stream(fx.contentType, cutBytes(body, seed, 9), { gapMs: 0 }));
      const events: StreamEvent[] = [];
      const r = await complete(provider(server), events);
      t.is(r.text, "Let me check ✓.", `seed ${seed}`);
      t.is(r.toolCalls[0]!.arguments.length > 0, true);
      t.deepEqual(JSON.parse(r.toolCalls[0]!.arguments), { city: "Zürich ☔", note: 'line\nbreak "quoted"' }, `seed ${seed}`);
      t.is(r.toolCalls[1]!.name, "get_time");
      t.is(r.usage.cachedTokens, 0, "a reported zero is a count");
    }
    // Across a real socket too, a byte at a time with pauses.
    server.answer(stream(fx.contentType, cutBytes(body, 3, 2), { gapMs: 0 }));
    const r = await complete(provider(server));
    t.deepEqual(JSON.parse(r.toolCalls[0]!.arguments).city, "Zürich ☔");
  });

  test(`${fx.kind}: 429 with Retry-After is waited out as the server asks, then the request succeeds`, async (t) => {
    const { server } = t.context;
    server.answer(status(429, JSON.stringify({ error: { message: "Rate limit reached", type: "rate_limit_error" } }), { "retry-after": "1" }));
    server.answer(stream(fx.contentType, pieces(fx.reply({ text: ["after the wait"], usage: { input: 3, output: 3 } }))));
    const events: StreamEvent[] = [];
    const r = await complete(provider(server), events);
    t.is(r.text, "after the wait");
    t.is(r.attempts, 2);
    const retry = events.find((e) => e.type === "retry") as Extract<StreamEvent, { type: "retry" }>;
    t.is(retry.attempt, 2);
    t.is(retry.delayMs, 1000);
    t.regex(retry.reason, /HTTP 429.*Rate limit reached/);
    t.is(server.requests.length, 2);
  });

  test(`${fx.kind}: a Retry-After longer than nodwyn waits fails at once, saying so`, async (t) => {
    const { server } = t.context;
    server.answer(status(429, "{}", { "retry-after": "3600" }));
    const p = createProvider(spec(server), { env: {}, retry: { ...FAST, maxRetryAfterMs: 5000 } });
    const e = await t.throwsAsync(complete(p), { instanceOf: ModelError });
    t.is(e!.code, "http");
    t.is(e!.status, 429);
    t.regex(e!.message, /server local \(POST http:\/\/127\.0\.0\.1:\d+\/[^)]*\): HTTP 429 .*retry after 3600 s, longer than nodwyn waits \(5 s\)/);
    t.is(server.requests.length, 1);
  });

  test(`${fx.kind}: 500 then success; wall_ms is the successful attempt's time alone`, async (t) => {
    const { server } = t.context;
    const slowFail: Responder = async (res) => {
      await tick(300);
      res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "boom" } }));
    };
    server.answer(slowFail, stream(fx.contentType, pieces(fx.reply({ text: ["fine"], usage: { input: 1, output: 1 } }))));
    const events: StreamEvent[] = [];
    const started = performance.now();
    const r = await complete(provider(server), events);
    const elapsed = performance.now() - started;
    t.is(r.text, "fine");
    t.is(r.attempts, 2);
    t.true(events.some((e) => e.type === "retry" && /HTTP 500/.test(e.reason)));
    // The first attempt alone took at least the server's 300 ms, and the reply's time excludes it.
    t.true(r.usage.wallMs <= elapsed - 300, `wallMs ${r.usage.wallMs} of ${elapsed}`);
  });

  test(`${fx.kind}: 5xx until the attempts run out is an error naming the server, the status and the attempts`, async (t) => {
    const { server } = t.context;
    for (let i = 0; i < 3; i++) server.answer(status(503, JSON.stringify({ error: { message: "overloaded" } })));
    const e = await t.throwsAsync(complete(provider(server)), { instanceOf: ModelError });
    t.is(e!.code, "http");
    t.is(e!.status, 503);
    t.is(e!.attempts, 3);
    t.is(e!.server, "local");
    t.regex(e!.message, /^server local \(POST http:\/\/127\.0\.0\.1:\d+\S*\): HTTP 503 Service Unavailable: overloaded \(after 3 attempts\)$/);
  });

  test(`${fx.kind}: a status that is not retried fails at once, and the key never appears in the error`, async (t) => {
    const { server } = t.context;
    const key = "sk-test-abcdefghijklmnopqrstuvwxyz012345";
    server.answer(status(401, JSON.stringify({ error: { message: `Incorrect API key provided: ${key}`, type: "authentication_error" } })));
    const redactor = new Redactor();
    const p = provider(server, { keyEnv: "TEST_KEY" }, redactor, { TEST_KEY: key });
    t.deepEqual(p.credential, { class: "api_key", id: "env:TEST_KEY" });
    const e = await t.throwsAsync(complete(p), { instanceOf: ModelError });
    t.is(e!.code, "http");
    t.is(e!.status, 401);
    t.is(e!.attempts, 1);
    t.false(e!.message.includes(key));
    t.regex(e!.message, /HTTP 401 Unauthorized: Incorrect API key provided: \[REDACTED:/);
    t.is(server.requests.length, 1);
    const [name, value] = fx.keyHeader(key);
    t.is(server.requests[0]!.headers[name], value);
    // Registered with the session's redactor: the log would never hold it either.
    t.false(redactor.redactText(`the key is ${key}`).text.includes(key));
  });

  test(`${fx.kind}: an unset key variable is a config error naming it`, (t) => {
    const e = t.throws(() => provider(t.context.server, { keyEnv: "NOT_SET_ANYWHERE" }), { instanceOf: ModelError });
    t.is(e!.code, "config");
    t.regex(e!.message, /server local: the environment variable NOT_SET_ANYWHERE \(its key_env\) is not set/);
  });

  test(`${fx.kind}: a connection dropped mid-stream is retried, and the reply is the next attempt's, whole`, async (t) => {
    const { server } = t.context;
    const body = pieces(fx.reply({ text: ["one ", "two ", "three"], usage: { input: 4, output: 3 } }));
    server.answer(stream(fx.contentType, body, { dropAfter: 2 }), stream(fx.contentType, body));
    const events: StreamEvent[] = [];
    const r = await complete(provider(server), events);
    t.is(r.text, "one two three");
    t.is(r.attempts, 2);
    const retry = events.find((e) => e.type === "retry");
    t.truthy(retry);
    t.regex((retry as { reason: string }).reason, /dropped in the middle of the reply|ended before the reply did/);
  });

  test(`${fx.kind}: a stream cut off is an error, never a short answer`, async (t) => {
    const { server } = t.context;
    const body = pieces(fx.reply({ text: ["one ", "two ", "three"], usage: { input: 4, output: 3 } }));
    server.answer(stream(fx.contentType, body, { dropAfter: 2 }));
    const dropped = await t.throwsAsync(complete(provider(server, { retries: 0 })), { instanceOf: ModelError });
    t.is(dropped!.code, "truncated");
    t.regex(dropped!.message, /server local .*(dropped in the middle of the reply|ended before the reply did)/);
    // A stream that ends cleanly but before its end marker is cut off too.
    server.answer(stream(fx.contentType, pieces(fx.unfinished({ text: ["half of it"] }))));
    const ended = await t.throwsAsync(complete(provider(server, { retries: 0 })), { instanceOf: ModelError });
    t.is(ended!.code, "truncated");
    t.regex(ended!.message, /ended before the reply did/);
  });

  test(`${fx.kind}: a connection dropped before any response is retried`, async (t) => {
    const { server } = t.context;
    server.answer(hangUp(), stream(fx.contentType, pieces(fx.reply({ text: ["back"] }))));
    const r = await complete(provider(server));
    t.is(r.text, "back");
    t.is(r.attempts, 2);
  });

  test(`${fx.kind}: malformed JSON in the stream is a protocol error, not retried`, async (t) => {
    const { server } = t.context;
    server.answer(stream(fx.contentType, [fx.malformed()]));
    const e = await t.throwsAsync(complete(provider(server)), { instanceOf: ModelError });
    t.is(e!.code, "protocol");
    t.regex(e!.message, /^server local .*malformed JSON in a stream (event|line): /);
    t.is(server.requests.length, 1);
  });

  test(`${fx.kind}: a server silent after its headers fails at the idle timeout, and is not asked again`, async (t) => {
    const { server } = t.context;
    // Were the timeout retried, the second attempt would get this reply and succeed.
    server.answer(silent(fx.contentType), stream(fx.contentType, pieces(fx.reply({ text: ["too late"] }))));
    const e = await t.throwsAsync(complete(provider(server, { idleTimeoutMs: 300, retries: 2 })), { instanceOf: ModelError });
    t.is(e!.code, "timeout");
    t.is(e!.attempts, 1);
    t.regex(e!.message, /the server was silent for 0\.3 s \(its idle_timeout\)/);
  });

  test(`${fx.kind}: a server that never answers fails at the idle timeout too`, async (t) => {
    const { server } = t.context;
    server.answer(silent(fx.contentType, true));
    const e = await t.throwsAsync(complete(provider(server, { idleTimeoutMs: 200 })), { instanceOf: ModelError });
    t.is(e!.code, "timeout");
  });

  test(`${fx.kind}: a reply trickling past the whole-attempt timeout fails at it`, async (t) => {
    const { server } = t.context;
    const body = fx.reply({ text: Array.from({ length: 400 }, () => "x"), usage: { input: 1, output: 400 } });
    server.answer(stream(fx.contentType, cutBytes(body, 5, 20), { gapMs: 20 }));
    const e = await t.throwsAsync(complete(provider(server, { timeoutMs: 300, idleTimeoutMs: 5000 })), { instanceOf: ModelError });
    t.is(e!.code, "timeout");
    t.regex(e!.message, /no complete reply within 0\.3 s \(its timeout\)/);
  });

  test(`${fx.kind}: cancellation mid-stream rejects with cancelled`, async (t) => {
    const { server } = t.context;
    const body = fx.reply({ text: Array.from({ length: 50 }, (_, i) => `w${i} `), usage: { input: 1, output: 50 } });
    server.answer(stream(fx.contentType, pieces(body), { gapMs: 20 }));
    const ac = new AbortController();
    const events: StreamEvent[] = [];
    const p = provider(server);
    const pending = p.complete(REQUEST, {
      signal: ac.signal,
      onEvent: (e) => {
        events.push(e);
        if (e.type === "text") ac.abort();
      },
    });
    const e = await t.throwsAsync(pending, { instanceOf: ModelError });
    t.is(e!.code, "cancelled");
    t.is(events.filter((x) => x.type === "text").length, 1);
  });

  test(`${fx.kind}: cancellation while waiting to retry rejects with cancelled at once`, async (t) => {
    const { server } = t.context;
    server.answer(status(503, "{}", { "retry-after": "60" }));
    const ac = new AbortController();
    const p = createProvider(spec(server), { env: {}, retry: { maxRetryAfterMs: 120_000 } });
    const pending = p.complete(REQUEST, { signal: ac.signal, onEvent: (e) => e.type === "retry" && ac.abort() });
    const e = await t.throwsAsync(pending, { instanceOf: ModelError });
    t.is(e!.code, "cancelled");
    t.is(server.requests.length, 1);
  });

  test(`${fx.kind}: a refused connection is reported at once, without retrying`, async (t) => {
    const gone = await WireServer.start();
    const url = gone.url;
    await gone.close();
    const p = createProvider({ ...spec(t.context.server), url: fx.baseUrl(url) }, { env: {}, retry: FAST });
    const e = await t.throwsAsync(complete(p), { instanceOf: ModelError });
    t.is(e!.code, "network");
    t.is(e!.attempts, 1);
    t.regex(e!.message, /connection refused: is the server running at that address\?/);
  });
}

/** The usage a shape describes, as a provider must report it. */
export function expectedUsage(shape: ReplyShape): Partial<Usage> {
  const u = shape.usage;
  if (!u) return { unreported: true };
  return { inputTokens: u.input, outputTokens: u.output, ...(u.cached !== undefined ? { cachedTokens: u.cached } : {}) };
}
