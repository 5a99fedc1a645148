// Pricing and the cache estimate of llm.resp usage: the cost from configured prices, and estimated_cached_tokens.

import test from "ava";
import { CacheEstimator, costOf, endpointHost, usageRecord, type EndpointKey } from "../../../host/model/usage.js";
import type { Usage } from "../../../host/model/types.js";

const u = (over: Partial<Usage>): Usage => ({ inputTokens: 0, outputTokens: 0, wallMs: 5, ...over });
const near = (a: number, b: number): boolean => Math.abs(a - b) < 1e-12;

test("cost: uncached input, cached input and output each at their price per million", (t) => {
  const c = costOf(u({ inputTokens: 1_000_000, cachedTokens: 400_000, outputTokens: 100_000 }), {
    input: 0.15,
    output: 0.6,
    cached: 0.075,
  });
  // 600k uncached at 0.15, 400k cached at 0.075, 100k out at 0.60
  t.truthy(c);
  t.true(near(c!.cost, 0.09 + 0.03 + 0.06));
  t.true(c!.estimated);
});

test("cost: cached and cache-written tokens fall back to the input price when no own price is set", (t) => {
  const c = costOf(u({ inputTokens: 2_000_000, cachedTokens: 500_000, cacheWriteTokens: 500_000, outputTokens: 0 }), {
    input: 1,
    output: 2,
  });
  t.true(near(c!.cost, 2));
  const w = costOf(u({ inputTokens: 1_000_000, cacheWriteTokens: 1_000_000, outputTokens: 0 }), {
    input: 3,
    output: 15,
    cacheWrite: 3.75,
  });
  t.true(near(w!.cost, 3.75));
});

test("cost: none without an input or output price, and none for counts the server did not report", (t) => {
  t.is(costOf(u({ inputTokens: 10, outputTokens: 10 }), undefined), undefined);
  t.is(costOf(u({ inputTokens: 10, outputTokens: 10 }), { input: 1 }), undefined);
  t.is(costOf(u({ unreported: true }), { input: 1, output: 1 }), undefined);
});

test("cost: the provider's own figure wins and is not an estimate", (t) => {
  t.deepEqual(costOf(u({ inputTokens: 10, outputTokens: 10, cost: 0.0042 }), { input: 1, output: 1 }), {
    cost: 0.0042,
    estimated: false,
  });
});

const ep: EndpointKey = { server: "local", host: "127.0.0.1:11434", model: "qwen" };

test("estimate: the first reply sets the reference; a faster one is estimated against it", (t) => {
  const e = new CacheEstimator();
  // 1000 tokens in 1000 ms: 1 ms per token, the cold reference.
  t.is(e.estimate(ep, u({ inputTokens: 1000, promptEvalMs: 1000 })), undefined);
  t.is(e.reference(ep), 1);
  // 1200 tokens in 300 ms: 0.25 ms per token → (1 − 0.25) × 1200 = 900 cached.
  t.is(e.estimate(ep, u({ inputTokens: 1200, promptEvalMs: 300 })), 900);
  t.is(e.reference(ep), 1);
});

test("estimate: a slower reply becomes the reference and gets no estimate of its own", (t) => {
  const e = new CacheEstimator();
  e.estimate(ep, u({ inputTokens: 100, promptEvalMs: 50 }));
  t.is(e.estimate(ep, u({ inputTokens: 100, promptEvalMs: 200 })), undefined);
  t.is(e.reference(ep), 2);
  t.is(e.estimate(ep, u({ inputTokens: 100, promptEvalMs: 50 })), 75);
  // At the reference exactly: no estimate.
  t.is(e.estimate(ep, u({ inputTokens: 100, promptEvalMs: 200 })), undefined);
});

test("estimate: none with a reported cached count (zero included), no prompt tokens or no prompt-eval time", (t) => {
  const e = new CacheEstimator();
  e.estimate(ep, u({ inputTokens: 100, promptEvalMs: 100 }));
  t.is(e.estimate(ep, u({ inputTokens: 100, promptEvalMs: 10, cachedTokens: 0 })), undefined);
  t.is(e.estimate(ep, u({ inputTokens: 0, promptEvalMs: 10 })), undefined);
  t.is(e.estimate(ep, u({ inputTokens: 100 })), undefined);
  t.is(e.estimate(ep, u({ inputTokens: 100, promptEvalMs: 10, unreported: true })), undefined);
  // None of those moved the reference.
  t.is(e.reference(ep), 1);
});

test("estimate: the baseline belongs to server, host and model together", (t) => {
  const e = new CacheEstimator();
  e.estimate(ep, u({ inputTokens: 100, promptEvalMs: 1000 }));
  // The same model on a faster host is cold there: it sets its own reference.
  const fast = { ...ep, host: "10.0.0.2:11434" };
  t.is(e.estimate(fast, u({ inputTokens: 100, promptEvalMs: 100 })), undefined);
  t.is(e.estimate({ ...ep, server: "other" }, u({ inputTokens: 100, promptEvalMs: 100 })), undefined);
  t.is(e.estimate({ ...ep, model: "llama" }, u({ inputTokens: 100, promptEvalMs: 100 })), undefined);
  t.is(e.estimate(ep, u({ inputTokens: 100, promptEvalMs: 100 })), 90);
});

test("observe seeds a reference without estimating", (t) => {
  const e = new CacheEstimator();
  e.observe(ep, u({ inputTokens: 10, promptEvalMs: 30 }));
  e.observe(ep, u({ inputTokens: 10, promptEvalMs: 10 }));
  t.is(e.reference(ep), 3);
  t.is(e.estimate(ep, u({ inputTokens: 30, promptEvalMs: 30 })), 20);
});

test("endpointHost names host and port", (t) => {
  t.is(endpointHost("http://127.0.0.1:11434"), "127.0.0.1:11434");
  t.is(endpointHost("https://API.openai.com/v1"), "api.openai.com");
  t.is(endpointHost("not a url"), "not a url");
});

test("usageRecord: ADR 0002's field names, only what was reported, cost and estimate", (t) => {
  const e = new CacheEstimator();
  const first = usageRecord(u({ inputTokens: 1000, outputTokens: 20, promptEvalMs: 1000, evalMs: 400, totalMs: 1500, loadMs: 80, wallMs: 1600 }), {
    prices: { input: 1, output: 2 },
    estimator: e,
    endpoint: ep,
  });
  t.deepEqual(first, {
    input_tokens: 1000,
    output_tokens: 20,
    cost: (1000 * 1 + 20 * 2) / 1e6,
    cost_estimated: true,
    wall_ms: 1600,
    prompt_eval_ms: 1000,
    eval_ms: 400,
    total_ms: 1500,
    load_ms: 80,
  });
  const second = usageRecord(u({ inputTokens: 1000, outputTokens: 5, promptEvalMs: 100, wallMs: 150 }), { estimator: e, endpoint: ep });
  t.is(second.estimated_cached_tokens, 900);
  t.is(second.cost, undefined);
  t.false("cached_tokens" in second);
});

test("usageRecord: reported cache counts, reasoning and unreported are kept as they are", (t) => {
  t.deepEqual(usageRecord(u({ inputTokens: 50, outputTokens: 9, cachedTokens: 0, cacheWriteTokens: 40, reasoningTokens: 3, wallMs: 7 })), {
    input_tokens: 50,
    output_tokens: 9,
    cached_tokens: 0,
    cache_write_tokens: 40,
    reasoning_tokens: 3,
    wall_ms: 7,
  });
  t.deepEqual(usageRecord(u({ unreported: true, wallMs: 3 }), { prices: { input: 1, output: 1 } }), {
    input_tokens: 0,
    output_tokens: 0,
    unreported: true,
    wall_ms: 3,
  });
});
