// OpenAI-compatible Chat Completions against a real HTTP server: the shared wire suite, and the request and reply shapes of this protocol.

import anyTest, { type TestFn } from "ava";
import { createProvider, ModelError, openaiBody, type HttpProviderSpec, type ModelRequest } from "../../../host/model/index.js";
import { Redactor } from "../../../host/redact/index.js";
import { sseText, status, stream } from "./wire-server.js";
import { REQUEST, wireSuite, type Ctx, type ReplyShape, type WireFixture } from "./wire-suite.js";

const test = anyTest as TestFn<Ctx>;

const FINISH = { end: "stop", tool_calls: "tool_calls", max_tokens: "length" } as const;

function events(shape: ReplyShape, finished: boolean): { data: unknown }[] {
  const base = { id: "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG", object: "chat.completion.chunk", created: 1741570283, model: shape.model ?? "gpt-4o-2024-08-06", system_fingerprint: "fp_eb9dce56a8" };
  const chunk = (delta: unknown, finish: string | null = null) => ({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], usage: null });
  const out: { data: unknown }[] = [{ data: chunk({ role: "assistant", content: "", refusal: null }) }];
  for (const t of shape.text ?? []) out.push({ data: chunk({ content: t }) });
  (shape.calls ?? []).forEach((c, index) => {
    out.push({ data: chunk({ tool_calls: [{ index, id: c.id, type: "function", function: { name: c.name, arguments: "" } }] }) });
    for (const a of c.args) out.push({ data: chunk({ tool_calls: [{ index, function: { arguments: a } }] }) });
  });
  if (!finished) return out;
  out.push({ data: chunk({}, FINISH[shape.stop ?? (shape.calls?.length ? "tool_calls" : "end")]) });
  if (shape.usage) {
    const u = shape.usage;
    out.push({
      data: {
        ...base,
        choices: [],
        usage: {
          prompt_tokens: u.input,
          completion_tokens: u.output,
          total_tokens: u.input + u.output,
          ...(u.cached !== undefined ? { prompt_tokens_details: { cached_tokens: u.cached, audio_tokens: 0 } } : {}),
          completion_tokens_details: { reasoning_tokens: u.reasoning ?? 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
        },
      },
    });
  }
  out.push({ data: "[DONE]" });
  return out;
}

const fixture: WireFixture = {
  kind: "openai",
  path: "/v1/chat/completions",
  baseUrl: (base) => `${base}/v1`,
  contentType: "text/event-stream; charset=utf-8",
  reply: (shape) => sseText(events(shape, true)),
  unfinished: (shape) => sseText(events(shape, false)),
  malformed: () => `data: {"id":"x","choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":null}]}\n\ndata: {"id": "x", "choices": [\n\n`,
  keyHeader: (key) => ["authorization", `Bearer ${key}`],
  cachedField: "cachedTokens",
};

wireSuite(test, fixture);

const spec = (url: string, over: Partial<HttpProviderSpec> = {}): HttpProviderSpec => ({
  kind: "openai",
  server: "local",
  url: `${url}/v1`,
  model: "qwen2.5-coder:7b",
  retries: 0,
  ...over,
});

const CONVERSATION: ModelRequest = {
  model: "qwen2.5-coder:7b",
  system: "Be brief.",
  messages: [
    { role: "user", content: "What is in README?" },
    { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "fs-read", arguments: '{"path":"README.md"}' }] },
    { role: "tool", toolCallId: "call_1", name: "fs-read", content: "# nodwyn", isError: false },
    { role: "assistant", content: "It starts with a title." },
    { role: "user", content: "Thanks." },
  ],
  tools: [{ name: "fs-read", description: "Read a file.", inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } }],
  maxOutputTokens: 256,
  temperature: 0,
};

test("the request: system first, assistant calls with null content, tool results by tool_call_id, function tools, include_usage", (t) => {
  t.deepEqual(openaiBody(spec("http://127.0.0.1:1"), CONVERSATION), {
    model: "qwen2.5-coder:7b",
    messages: [
      { role: "system", content: "Be brief." },
      { role: "user", content: "What is in README?" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "fs-read", arguments: '{"path":"README.md"}' } }] },
      { role: "tool", tool_call_id: "call_1", content: "# nodwyn" },
      { role: "assistant", content: "It starts with a title." },
      { role: "user", content: "Thanks." },
    ],
    stream: true,
    stream_options: { include_usage: true },
    tools: [
      {
        type: "function",
        function: { name: "fs-read", description: "Read a file.", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
      },
    ],
    max_tokens: 256,
    temperature: 0,
  });
});

test("the token limit is max_completion_tokens on api.openai.com, max_tokens elsewhere, or as configured", (t) => {
  const req = { ...REQUEST, maxOutputTokens: 100 };
  t.is(openaiBody(spec("x", { url: "https://api.openai.com/v1" }), req).max_completion_tokens, 100);
  t.is(openaiBody(spec("http://127.0.0.1:8080"), req).max_tokens, 100);
  t.is(openaiBody(spec("http://127.0.0.1:8080", { maxTokensField: "max_completion_tokens" }), req).max_completion_tokens, 100);
  t.is(openaiBody(spec("http://127.0.0.1:8080", { maxOutputTokens: 9 }), REQUEST).max_tokens, 9);
  t.false("max_tokens" in openaiBody(spec("http://127.0.0.1:8080"), REQUEST));
  t.false("tools" in openaiBody(spec("http://127.0.0.1:8080"), { ...REQUEST, tools: [] }));
});

test("reasoning pieces (reasoning_content or reasoning), reasoning_tokens and a provider's own cost are read", async (t) => {
  const { server } = t.context;
  const base = { id: "gen-1", object: "chat.completion.chunk", created: 1, model: "deepseek/deepseek-r1" };
  server.answer(
    stream(
      "text/event-stream",
      [
        sseText([
          { data: { ...base, choices: [{ index: 0, delta: { role: "assistant", reasoning_content: "Think" }, finish_reason: null }] } },
          { data: { ...base, choices: [{ index: 0, delta: { reasoning: "ing." }, finish_reason: null }] } },
          { data: { ...base, choices: [{ index: 0, delta: { content: "42" }, finish_reason: null }] } },
        ]),
        ": OPENROUTER PROCESSING\n\n",
        sseText([
          { data: { ...base, choices: [{ index: 0, delta: {}, finish_reason: "length" }] } },
          {
            data: {
              ...base,
              choices: [],
              usage: { prompt_tokens: 10, completion_tokens: 30, prompt_tokens_details: { cached_tokens: 4 }, completion_tokens_details: { reasoning_tokens: 28 }, cost: 0.00021 },
            },
          },
          { data: "[DONE]" },
        ]),
      ],
    ),
  );
  const r = await createProvider(spec(server.url), { env: {} }).complete(REQUEST);
  t.is(r.reasoning, "Thinking.");
  t.is(r.text, "42");
  t.is(r.stopReason, "max_tokens");
  t.is(r.rawStopReason, "length");
  t.is(r.model, "deepseek/deepseek-r1");
  t.deepEqual({ ...r.usage, wallMs: 0 }, { inputTokens: 10, outputTokens: 30, cachedTokens: 4, reasoningTokens: 28, cost: 0.00021, wallMs: 0 });
});

test("a server that sends no usage chunk gives usage unreported, not zeros taken for counts", async (t) => {
  const { server } = t.context;
  server.answer(stream("text/event-stream", [sseText([{ data: { choices: [{ index: 0, delta: { content: "hi" }, finish_reason: "stop" }] } }, { data: "[DONE]" }])]));
  const r = await createProvider(spec(server.url), { env: {} }).complete(REQUEST);
  t.true(r.usage.unreported);
  t.is(r.usage.inputTokens, 0);
});

test("a server that ignores stream and answers one chat.completion is read whole", async (t) => {
  const { server } = t.context;
  server.answer(
    status(
      200,
      JSON.stringify({
        id: "chatcmpl-1",
        object: "chat.completion",
        model: "llama",
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } }] },
            finish_reason: "tool_calls",
          },
        ],
        usage: { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 },
      }),
    ),
  );
  const r = await createProvider(spec(server.url), { env: {} }).complete(REQUEST);
  t.deepEqual(r.toolCalls, [{ id: "c1", name: "get_weather", arguments: '{"city":"Rome"}' }]);
  t.is(r.usage.inputTokens, 12);
  t.is(r.stopReason, "tool_calls");
});

test("an error object inside the stream fails the request with the server's message", async (t) => {
  const { server } = t.context;
  server.answer(
    stream("text/event-stream", [
      sseText([{ data: { choices: [{ index: 0, delta: { content: "par" }, finish_reason: null }] } }, { data: { error: { message: "context length exceeded", type: "invalid_request_error", code: 400 } } }]),
    ]),
  );
  const e = await t.throwsAsync(createProvider(spec(server.url), { env: {} }).complete(REQUEST), { instanceOf: ModelError });
  t.is(e!.code, "http");
  t.regex(e!.message, /the server reported an error in the stream: context length exceeded \(invalid_request_error\)/);
});

test("tool calls without ids get unique ones; a call piece without any name is a protocol error", async (t) => {
  const { server } = t.context;
  server.answer(
    stream("text/event-stream", [
      sseText([
        { data: { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { name: "a", arguments: "{}" } }, { index: 1, function: { name: "b", arguments: "{}" } }] }, finish_reason: "tool_calls" }] } },
        { data: "[DONE]" },
      ]),
    ]),
    stream("text/event-stream", [sseText([{ data: { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: "{}" } }] }, finish_reason: "tool_calls" }] } }])]),
  );
  const p = createProvider(spec(server.url), { env: {} });
  const r = await p.complete(REQUEST);
  t.deepEqual(r.toolCalls.map((c) => c.name), ["a", "b"]);
  t.not(r.toolCalls[0]!.id, r.toolCalls[1]!.id);
  t.regex(r.toolCalls[0]!.id, /^call_[0-9a-f]{8}_0$/);
  const e = await t.throwsAsync(p.complete(REQUEST), { instanceOf: ModelError });
  t.is(e!.code, "protocol");
  t.regex(e!.message, /tool call 0 has no function name/);
});

test("extra configured headers are sent; the key goes as a bearer token", async (t) => {
  const { server } = t.context;
  server.answer(stream("text/event-stream", [sseText([{ data: { choices: [{ index: 0, delta: { content: "x" }, finish_reason: "stop" }] } }, { data: "[DONE]" }])]));
  const redactor = new Redactor();
  const p = createProvider(spec(server.url, { keyEnv: "OR_KEY", headers: { "HTTP-Referer": "https://example.org", "X-Title": "nodwyn" } }), {
    env: { OR_KEY: "sk-or-v1-0123456789abcdef" },
    redactor,
  });
  await p.complete(REQUEST);
  const h = server.requests[0]!.headers;
  t.is(h["http-referer"], "https://example.org");
  t.is(h["x-title"], "nodwyn");
  t.is(h.authorization, "Bearer sk-or-v1-0123456789abcdef");
  t.is(h.accept, "text/event-stream");
  t.is(p.url, `${server.url}/v1/chat/completions`);
});

test("a web page instead of a stream (a proxy's login page) is a protocol error quoting it, not a cut-off stream", async (t) => {
  const { server } = t.context;
  server.answer((res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<html><body>Please sign in to the proxy</body></html>");
  });
  const e = await t.throwsAsync(createProvider(spec(server.url, { retries: 2 }), { env: {} }).complete(REQUEST), { instanceOf: ModelError });
  t.is(e!.code, "protocol");
  t.regex(e!.message, /answered with a web page \(text\/html; charset=utf-8\), not a model's reply: <html><body>Please sign in/);
  t.is(server.requests.length, 1);
});
