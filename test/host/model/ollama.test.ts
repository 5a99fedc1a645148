// Ollama's native /api/chat against a real HTTP server: the shared wire suite, and this protocol's request, counts and timings.

import anyTest, { type TestFn } from "ava";
import { createProvider, ModelError, ollamaBody, type HttpProviderSpec, type ModelRequest } from "../../../host/model/index.js";
import { ndjsonText, stream } from "./wire-server.js";
import { REQUEST, wireSuite, type Ctx, type ReplyShape, type WireFixture } from "./wire-suite.js";

const test = anyTest as TestFn<Ctx>;

const AT = "2024-07-22T20:33:28.123648Z";

function lines(shape: ReplyShape, finished: boolean): unknown[] {
  const model = shape.model ?? "qwen2.5-coder:7b";
  const out: unknown[] = [];
  for (const t of shape.text ?? []) out.push({ model, created_at: AT, message: { role: "assistant", content: t }, done: false });
  if (shape.calls?.length)
    out.push({
      model,
      created_at: AT,
      message: {
        role: "assistant",
        content: "",
        tool_calls: shape.calls.map((c) => ({ function: { name: c.name, arguments: JSON.parse(c.args.join("")) } })),
      },
      done: false,
    });
  if (!finished) return out;
  const u = shape.usage;
  out.push({
    model,
    created_at: AT,
    message: { role: "assistant", content: "" },
    done_reason: shape.stop === "max_tokens" ? "length" : "stop",
    done: true,
    total_duration: 885095291,
    load_duration: 3753500,
    ...(u ? { prompt_eval_count: u.input, prompt_eval_duration: 328493000, eval_count: u.output, eval_duration: 552222000 } : {}),
    ...(u?.cached !== undefined ? { prompt_eval_cached_count: u.cached } : {}),
  });
  return out;
}

const fixture: WireFixture = {
  kind: "ollama",
  path: "/api/chat",
  baseUrl: (base) => base,
  contentType: "application/x-ndjson",
  reply: (shape) => ndjsonText(lines(shape, true)),
  unfinished: (shape) => ndjsonText(lines(shape, false)),
  malformed: () => `{"model":"m","created_at":"${AT}","message":{"role":"assistant","content":"ok"},"done":false}\n{"model": "m", "message": \n`,
  keyHeader: (key) => ["authorization", `Bearer ${key}`],
  cachedField: "cachedTokens",
};

wireSuite(test, fixture);

const spec = (url: string, over: Partial<HttpProviderSpec> = {}): HttpProviderSpec => ({
  kind: "ollama",
  server: "local",
  url,
  model: "qwen2.5-coder:7b",
  contextWindow: 32768,
  retries: 0,
  ...over,
});

test("the request: system first, num_ctx from the context window, calls with object arguments, results with tool_name", (t) => {
  const req: ModelRequest = {
    model: "qwen2.5-coder:7b",
    system: "Be brief.",
    messages: [
      { role: "user", content: "Weather?" },
      { role: "assistant", content: "", toolCalls: [{ id: "x", name: "get_weather", arguments: '{"city":"Paris"}' }, { id: "y", name: "f", arguments: "not json" }] },
      { role: "tool", toolCallId: "x", name: "get_weather", content: "22 C" },
      { role: "tool", toolCallId: "y", name: "f", content: "bad arguments", isError: true },
    ],
    tools: REQUEST.tools,
    maxOutputTokens: 100,
    temperature: 0.1,
  };
  t.deepEqual(ollamaBody(spec("http://h"), req), {
    model: "qwen2.5-coder:7b",
    messages: [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Weather?" },
      {
        role: "assistant",
        content: "",
        tool_calls: [{ function: { name: "get_weather", arguments: { city: "Paris" } } }, { function: { name: "f", arguments: {} } }],
      },
      { role: "tool", content: "22 C", tool_name: "get_weather" },
      { role: "tool", content: "bad arguments", tool_name: "f" },
    ],
    stream: true,
    tools: [{ type: "function", function: { name: "get_weather", description: "The weather in a city.", parameters: REQUEST.tools[0]!.inputSchema } }],
    options: { num_ctx: 32768, num_predict: 100, temperature: 0.1 },
  });
});

test("the final line's counts and nanosecond durations become usage in milliseconds; thinking is reasoning", async (t) => {
  const { server } = t.context;
  server.answer(
    stream("application/x-ndjson", [
      ndjsonText([
        { model: "qwen3", created_at: AT, message: { role: "assistant", content: "", thinking: "Hmm." }, done: false },
        { model: "qwen3", created_at: AT, message: { role: "assistant", content: "Hi" }, done: false },
        {
          model: "qwen3",
          created_at: AT,
          message: { role: "assistant", content: "" },
          done: true,
          done_reason: "stop",
          total_duration: 4883583458,
          load_duration: 1334875,
          prompt_eval_count: 26,
          prompt_eval_duration: 342546000,
          eval_count: 282,
          eval_duration: 4535599000,
          prompt_eval_cached_count: 0,
        },
      ]),
    ]),
  );
  const r = await createProvider(spec(server.url), { env: {} }).complete(REQUEST);
  t.is(r.reasoning, "Hmm.");
  t.is(r.text, "Hi");
  t.is(r.model, "qwen3");
  t.deepEqual(
    { ...r.usage, wallMs: 0 },
    { inputTokens: 26, outputTokens: 282, cachedTokens: 0, promptEvalMs: 342.546, evalMs: 4535.599, totalMs: 4883.583458, loadMs: 1.334875, wallMs: 0 },
  );
});

test("a final line without counts is unreported; done_reason length is max_tokens", async (t) => {
  const { server } = t.context;
  server.answer(stream("application/x-ndjson", [ndjsonText([{ model: "m", message: { role: "assistant", content: "cut" }, done: true, done_reason: "length" }])]));
  const r = await createProvider(spec(server.url), { env: {} }).complete(REQUEST);
  t.true(r.usage.unreported);
  t.is(r.stopReason, "max_tokens");
});

test("tool call ids the server sends are kept", async (t) => {
  const { server } = t.context;
  server.answer(
    stream("application/x-ndjson", [
      ndjsonText([
        { model: "m", message: { role: "assistant", content: "", tool_calls: [{ id: "call_k2", function: { index: 0, name: "get_weather", arguments: { city: "Lima" } } }] }, done: false },
        { model: "m", message: { role: "assistant", content: "" }, done: true, done_reason: "stop", prompt_eval_count: 1, eval_count: 1 },
      ]),
    ]),
  );
  const r = await createProvider(spec(server.url), { env: {} }).complete(REQUEST);
  t.deepEqual(r.toolCalls, [{ id: "call_k2", name: "get_weather", arguments: '{"city":"Lima"}' }]);
  t.is(r.stopReason, "tool_calls");
});

test("an error line in the stream fails the request with Ollama's message", async (t) => {
  const { server } = t.context;
  server.answer(stream("application/x-ndjson", [ndjsonText([{ model: "m", message: { role: "assistant", content: "a" }, done: false }, { error: "an error was encountered while running the model" }])]));
  const e = await t.throwsAsync(createProvider(spec(server.url), { env: {} }).complete(REQUEST), { instanceOf: ModelError });
  t.is(e!.code, "http");
  t.regex(e!.message, /the server reported an error in the stream: an error was encountered while running the model/);
});

test("Ollama's 404 for a model it does not have names the model", async (t) => {
  const { server } = t.context;
  server.answer((res) => {
    res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "model 'qwen9' not found, try pulling it first" }));
  });
  const e = await t.throwsAsync(createProvider(spec(server.url, { retries: 3 }), { env: {} }).complete(REQUEST), { instanceOf: ModelError });
  t.is(e!.status, 404);
  t.regex(e!.message, /HTTP 404 Not Found: model 'qwen9' not found, try pulling it first$/);
  t.is(server.requests.length, 1);
});

test("a last line without its newline is read; a stream cut inside a line is truncated", async (t) => {
  const { server } = t.context;
  const final = { model: "m", message: { role: "assistant", content: "" }, done: true, done_reason: "stop", prompt_eval_count: 2, eval_count: 1 };
  const first = JSON.stringify({ model: "m", message: { role: "assistant", content: "yes" }, done: false });
  server.answer(stream("application/x-ndjson", [`${first}\n${JSON.stringify(final)}`]));
  const p = createProvider(spec(server.url), { env: {} });
  t.is((await p.complete(REQUEST)).text, "yes");
  server.answer(stream("application/x-ndjson", [`${first}\n${JSON.stringify(final).slice(0, 30)}`]));
  const e = await t.throwsAsync(p.complete(REQUEST), { instanceOf: ModelError });
  t.is(e!.code, "truncated");
  t.regex(e!.message, /the stream ended in the middle of a line: /);
});
