// Anthropic Messages against a real HTTP server: the shared wire suite, and this protocol's blocks, headers, cache counts and error events.

import anyTest, { type TestFn } from "ava";
import { anthropicBody, createProvider, ModelError, type HttpProviderSpec, type ModelRequest, type StreamEvent } from "../../../host/model/index.js";
import { sseText, stream } from "./wire-server.js";
import { REQUEST, wireSuite, type Ctx, type ReplyShape, type WireFixture } from "./wire-suite.js";

const test = anyTest as TestFn<Ctx>;

const STOP = { end: "end_turn", tool_calls: "tool_use", max_tokens: "max_tokens" } as const;

function events(shape: ReplyShape, finished: boolean): { event: string; data: unknown }[] {
  const u = shape.usage ?? { input: 1, output: 1 };
  const plain = u.input - (u.cached ?? 0) - (u.write ?? 0);
  const out: { event: string; data: unknown }[] = [
    {
      event: "message_start",
      data: {
        type: "message_start",
        message: {
          id: "msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY",
          type: "message",
          role: "assistant",
          content: [],
          model: shape.model ?? "claude-sonnet-4-5-20250929",
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: plain,
            ...(u.cached !== undefined ? { cache_read_input_tokens: u.cached } : {}),
            ...(u.cached !== undefined || u.write !== undefined ? { cache_creation_input_tokens: u.write ?? 0 } : {}),
            output_tokens: 1,
          },
        },
      },
    },
    { event: "ping", data: { type: "ping" } },
  ];
  let index = 0;
  if (shape.text?.length) {
    out.push({ event: "content_block_start", data: { type: "content_block_start", index, content_block: { type: "text", text: "" } } });
    for (const t of shape.text) out.push({ event: "content_block_delta", data: { type: "content_block_delta", index, delta: { type: "text_delta", text: t } } });
    out.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
    index++;
  }
  for (const c of shape.calls ?? []) {
    out.push({ event: "content_block_start", data: { type: "content_block_start", index, content_block: { type: "tool_use", id: c.id, name: c.name, input: {} } } });
    out.push({ event: "content_block_delta", data: { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: "" } } });
    for (const a of c.args) out.push({ event: "content_block_delta", data: { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: a } } });
    out.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
    index++;
  }
  if (!finished) return out;
  out.push({
    event: "message_delta",
    data: { type: "message_delta", delta: { stop_reason: STOP[shape.stop ?? (shape.calls?.length ? "tool_calls" : "end")], stop_sequence: null }, usage: { output_tokens: u.output } },
  });
  out.push({ event: "message_stop", data: { type: "message_stop" } });
  return out;
}

const fixture: WireFixture = {
  kind: "anthropic",
  path: "/v1/messages",
  baseUrl: (base) => base,
  contentType: "text/event-stream; charset=utf-8",
  reply: (shape) => sseText(events(shape, true)),
  unfinished: (shape) => sseText(events(shape, false)),
  malformed: () =>
    sseText([{ event: "message_start", data: { type: "message_start", message: { model: "claude", usage: { input_tokens: 1, output_tokens: 1 } } } }]) +
    `event: content_block_start\ndata: {"type": "content_block_start", "index": 0,\n\n`,
  keyHeader: (key) => ["x-api-key", key],
  cachedField: "cachedTokens",
};

wireSuite(test, fixture);

const spec = (url: string, over: Partial<HttpProviderSpec> = {}): HttpProviderSpec => ({
  kind: "anthropic",
  server: "claude",
  url,
  model: "claude-sonnet-4-5",
  retries: 0,
  ...over,
});

const CONVERSATION: ModelRequest = {
  model: "claude-sonnet-4-5",
  system: "Be brief.",
  messages: [
    { role: "user", content: "Weather in two cities?" },
    {
      role: "assistant",
      content: "Checking.",
      toolCalls: [
        { id: "toolu_1", name: "get_weather", arguments: '{"city":"Oslo"}' },
        { id: "toolu_2", name: "get_weather", arguments: '{"city":"Nowhere"}' },
      ],
    },
    { role: "tool", toolCallId: "toolu_1", name: "get_weather", content: "-3 C" },
    { role: "tool", toolCallId: "toolu_2", name: "get_weather", content: "no such city", isError: true },
    { role: "user", content: "And tomorrow?" },
  ],
  tools: REQUEST.tools,
};

test("the request: blocks, tool results merged into one user turn before its text, cache breakpoints, max_tokens", (t) => {
  t.deepEqual(anthropicBody(spec("http://h"), CONVERSATION), {
    model: "claude-sonnet-4-5",
    max_tokens: 4096,
    system: [{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }],
    messages: [
      { role: "user", content: [{ type: "text", text: "Weather in two cities?" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Checking." },
          { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Oslo" } },
          { type: "tool_use", id: "toolu_2", name: "get_weather", input: { city: "Nowhere" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: "-3 C" },
          { type: "tool_result", tool_use_id: "toolu_2", content: "no such city", is_error: true },
          { type: "text", text: "And tomorrow?", cache_control: { type: "ephemeral" } },
        ],
      },
    ],
    stream: true,
    tools: [{ name: "get_weather", description: "The weather in a city.", input_schema: REQUEST.tools[0]!.inputSchema, cache_control: { type: "ephemeral" } }],
  });
});

test("without prompt_cache: a plain system string and no breakpoints; limits from the request or the model entry", (t) => {
  const body = anthropicBody(spec("http://h", { promptCache: false, maxOutputTokens: 1000 }), CONVERSATION);
  t.is(body.system, "Be brief.");
  t.false(JSON.stringify(body).includes("cache_control"));
  t.is(body.max_tokens, 1000);
  t.is(anthropicBody(spec("http://h"), { ...CONVERSATION, maxOutputTokens: 77 }).max_tokens, 77);
  t.false("system" in anthropicBody(spec("http://h"), { ...CONVERSATION, system: "" }));
});

test("headers: anthropic-version (default or configured) and x-api-key", async (t) => {
  const { server } = t.context;
  server.answer(stream("text/event-stream", [fixture.reply({ text: ["a"] })]), stream("text/event-stream", [fixture.reply({ text: ["b"] })]));
  const p = createProvider(spec(server.url, { keyEnv: "ANTHROPIC_API_KEY" }), { env: { ANTHROPIC_API_KEY: "sk-ant-api03-abcdefghijkl" } });
  await p.complete(REQUEST);
  t.is(server.requests[0]!.headers["anthropic-version"], "2023-06-01");
  t.is(server.requests[0]!.headers["x-api-key"], "sk-ant-api03-abcdefghijkl");
  t.is(server.requests[0]!.headers.authorization, undefined);
  await createProvider(spec(server.url, { anthropicVersion: "2024-01-01" }), { env: {} }).complete(REQUEST);
  t.is(server.requests[1]!.headers["anthropic-version"], "2024-01-01");
  t.is(server.requests[1]!.headers["x-api-key"], undefined);
});

test("cache reads and writes: inputTokens counts all three, cached and written apart; message_delta's usage is cumulative", async (t) => {
  const { server } = t.context;
  server.answer(stream("text/event-stream", [fixture.reply({ text: ["ok"], usage: { input: 2100, output: 15, cached: 2000, write: 90 } })]));
  const r = await createProvider(spec(server.url), { env: {} }).complete(REQUEST);
  t.deepEqual({ ...r.usage, wallMs: 0 }, { inputTokens: 2100, outputTokens: 15, cachedTokens: 2000, cacheWriteTokens: 90, wallMs: 0 });
});

test("an overloaded_error event mid-stream is retried; an invalid_request_error is not", async (t) => {
  const { server } = t.context;
  const overloaded = sseText([
    { event: "message_start", data: { type: "message_start", message: { model: "claude", usage: { input_tokens: 1, output_tokens: 1 } } } },
    { event: "error", data: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } },
  ]);
  server.answer(stream("text/event-stream", [overloaded]), stream("text/event-stream", [fixture.reply({ text: ["fine"] })]));
  const events: StreamEvent[] = [];
  const r = await createProvider(spec(server.url, { retries: 1 }), { env: {}, retry: { baseDelayMs: 5 } }).complete(REQUEST, { onEvent: (e) => events.push(e) });
  t.is(r.text, "fine");
  t.true(events.some((e) => e.type === "retry" && /Overloaded \(overloaded_error\)/.test(e.reason)));
  server.answer(stream("text/event-stream", [sseText([{ event: "error", data: { type: "error", error: { type: "invalid_request_error", message: "bad" } } }])]));
  const e = await t.throwsAsync(createProvider(spec(server.url, { retries: 3 }), { env: {} }).complete(REQUEST), { instanceOf: ModelError });
  t.is(e!.code, "http");
  t.regex(e!.message, /bad \(invalid_request_error\)/);
});

test("thinking blocks are reasoning; a tool_use whose input came whole in its start event; unknown events are skipped", async (t) => {
  const { server } = t.context;
  server.answer(
    stream("text/event-stream", [
      sseText([
        { event: "message_start", data: { type: "message_start", message: { model: "claude-x", usage: { input_tokens: 5, output_tokens: 1 } } } },
        { event: "content_block_start", data: { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "" } } },
        { event: "content_block_delta", data: { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "Consider." } } },
        { event: "content_block_delta", data: { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "EqQB" } } },
        { event: "content_block_stop", data: { type: "content_block_stop", index: 0 } },
        { event: "some_future_event", data: { type: "some_future_event", index: 9 } },
        { event: "content_block_start", data: { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "toolu_9", name: "get_weather", input: { city: "Kyiv" } } } },
        { event: "content_block_stop", data: { type: "content_block_stop", index: 1 } },
        { event: "message_delta", data: { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 40 } } },
        { event: "message_stop", data: { type: "message_stop" } },
      ]),
    ]),
  );
  const r = await createProvider(spec(server.url), { env: {} }).complete(REQUEST);
  t.is(r.reasoning, "Consider.");
  t.deepEqual(r.toolCalls, [{ id: "toolu_9", name: "get_weather", arguments: '{"city":"Kyiv"}' }]);
  t.is(r.stopReason, "tool_calls");
  t.is(r.usage.outputTokens, 40);
  t.is(r.model, "claude-x");
});

test("a stream that stops after its stop_reason but before message_stop is still whole", async (t) => {
  const { server } = t.context;
  const body = fixture.reply({ text: ["done"] });
  server.answer(stream("text/event-stream", [body.slice(0, body.indexOf("event: message_stop"))]));
  const r = await createProvider(spec(server.url), { env: {} }).complete(REQUEST);
  t.is(r.text, "done");
});
