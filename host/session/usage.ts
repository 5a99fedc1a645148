// What a reply cost, as llm.resp records it: every usage field of ADR 0002's amendments.
//
// Prices (USD per million tokens, from config.toml) and the estimate of cached
// prompt tokens from Ollama's timings are given by the model layer
// (`UsagePricing`); this module only names the fields and sums a turn.

import type { Usage } from "../model/types.js";

/** How the session prices a reply and estimates its cached share; both optional. */
export interface UsagePricing {
  /** The reply's cost in USD from configured prices, or undefined when the model has none. */
  cost?(usage: Usage): number | undefined;
  /**
   * The estimated_cached_tokens rule (2026-10-04 and 2026-10-27 amendments):
   * called once per reply, in order, so it can keep the session's slowest
   * per-token prompt time per server and model. Undefined when no estimate applies.
   */
  estimateCached?(usage: Usage): number | undefined;
}

/** llm.resp's usage object. */
export interface UsageRecord {
  input_tokens: number;
  output_tokens: number;
  cached_tokens?: number;
  cache_write_tokens?: number;
  reasoning_tokens?: number;
  cost?: number;
  cost_estimated?: boolean;
  wall_ms: number;
  unreported?: boolean;
  prompt_eval_ms?: number;
  eval_ms?: number;
  total_ms?: number;
  load_ms?: number;
  estimated_cached_tokens?: number;
}

/** The usage record of one reply; undefined fields are left out of the record. */
export function usageRecord(u: Usage, pricing: UsagePricing = {}): UsageRecord {
  const cost = u.unreported ? undefined : pricing.cost?.(u);
  const est = u.cachedTokens === undefined && !u.unreported ? pricing.estimateCached?.(u) : undefined;
  const r: UsageRecord = { input_tokens: u.inputTokens, output_tokens: u.outputTokens, wall_ms: Math.round(u.wallMs) };
  if (u.cachedTokens !== undefined) r.cached_tokens = u.cachedTokens;
  if (u.cacheWriteTokens !== undefined) r.cache_write_tokens = u.cacheWriteTokens;
  if (u.reasoningTokens !== undefined) r.reasoning_tokens = u.reasoningTokens;
  if (cost !== undefined) {
    r.cost = cost;
    r.cost_estimated = true;
  }
  if (u.unreported) r.unreported = true;
  if (u.promptEvalMs !== undefined) r.prompt_eval_ms = u.promptEvalMs;
  if (u.evalMs !== undefined) r.eval_ms = u.evalMs;
  if (u.totalMs !== undefined) r.total_ms = u.totalMs;
  if (u.loadMs !== undefined) r.load_ms = u.loadMs;
  if (est !== undefined) r.estimated_cached_tokens = est;
  return r;
}
