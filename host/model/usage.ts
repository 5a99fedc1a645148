// What a reply cost and how much of its prompt came from a cache: pure functions the loop calls when it records llm.resp.
//
// ADR 0002's amendments: cost and cost_estimated (2026-10-01), wall_ms
// (2026-10-04), unreported (2026-10-02), estimated_cached_tokens (2026-10-16)
// with its baseline per server, host and model (2026-10-27).

import type { Usage } from "./types.js";

/** Configured prices, in US dollars per million tokens ([models.NAME] price_*). */
export interface Prices {
  readonly input?: number;
  readonly output?: number;
  /** Prompt tokens read from the cache; price_input when not configured. */
  readonly cached?: number;
  /** Prompt tokens written to the cache; price_input when not configured. */
  readonly cacheWrite?: number;
}

/** A cost in US dollars, and whether it is an estimate from configured prices (true) or the provider's own figure (false). */
export interface Cost {
  readonly cost: number;
  readonly estimated: boolean;
}

const PER_MILLION = 1_000_000;

/**
 * The cost of one reply: the provider's own figure when it reported one; else
 * from configured prices — uncached prompt tokens at the input price, cached
 * ones at the cached price, cache writes at the cache-write price (each falling
 * back to the input price), reply tokens at the output price. Undefined when
 * the reply cannot be priced: no input or no output price configured, or the
 * server reported no counts (its zeros are not counts, and a reply is never
 * shown as free).
 */
export function costOf(usage: Usage, prices: Prices | undefined): Cost | undefined {
  if (usage.cost !== undefined && Number.isFinite(usage.cost)) return { cost: usage.cost, estimated: false };
  if (usage.unreported || prices?.input === undefined || prices.output === undefined) return undefined;
  const cached = usage.cachedTokens ?? 0;
  const written = usage.cacheWriteTokens ?? 0;
  const plain = Math.max(0, usage.inputTokens - cached - written);
  const dollars =
    (plain * prices.input +
      cached * (prices.cached ?? prices.input) +
      written * (prices.cacheWrite ?? prices.input) +
      usage.outputTokens * prices.output) /
    PER_MILLION;
  return { cost: dollars, estimated: true };
}

/** Which server, host and model a prompt-eval baseline belongs to (ADR 0002, 2026-10-27). */
export interface EndpointKey {
  /** The [servers.NAME] entry. */
  readonly server: string;
  /** The host (and port) the server is reached at, e.g. "127.0.0.1:11434". */
  readonly host: string;
  /** The model id as the server knows it. */
  readonly model: string;
}

/** The host[:port] of a URL, lower-cased, for an EndpointKey; the text itself when it is not a URL. */
export function endpointHost(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return url;
  }
}

function keyOf(k: EndpointKey): string {
  return JSON.stringify([k.server, k.host, k.model]);
}

/**
 * estimated_cached_tokens (ADR 0002, 2026-10-16): when a provider reports no
 * cached count but the reply has a prompt count and a prompt-eval time, the
 * share read from a cache is round((1 − m/slowest) × prompt_tokens), where m is
 * this reply's prompt-eval time per prompt token and slowest the largest such
 * value seen so far for the same server, host and model (the coldest request).
 * A reply at or above the reference becomes the reference and gets no estimate;
 * a reply with a reported cached count (zero included), no prompt tokens or no
 * prompt-eval time gets none and leaves the reference alone. One estimator per
 * session: a session's first request of an endpoint sets its reference.
 */
export class CacheEstimator {
  private readonly slowest = new Map<string, number>();

  /** The estimate for this reply (undefined when the rule gives none), updating the reference. */
  estimate(endpoint: EndpointKey, usage: Usage): number | undefined {
    const m = perToken(usage);
    if (m === undefined) return undefined;
    const key = keyOf(endpoint);
    const reference = this.slowest.get(key);
    if (reference === undefined || m >= reference) {
      this.slowest.set(key, m);
      return undefined;
    }
    return Math.round((1 - m / reference) * usage.inputTokens);
  }

  /** Takes a reply into the reference without estimating (e.g. the replies of a resumed session's log). */
  observe(endpoint: EndpointKey, usage: Usage): void {
    const m = perToken(usage);
    if (m === undefined) return;
    const key = keyOf(endpoint);
    const reference = this.slowest.get(key);
    if (reference === undefined || m > reference) this.slowest.set(key, m);
  }

  /** The reference (prompt-eval milliseconds per prompt token) of an endpoint, if one is set. */
  reference(endpoint: EndpointKey): number | undefined {
    return this.slowest.get(keyOf(endpoint));
  }
}

function perToken(usage: Usage): number | undefined {
  if (usage.cachedTokens !== undefined || usage.unreported) return undefined;
  if (!(usage.inputTokens > 0) || usage.promptEvalMs === undefined || !(usage.promptEvalMs > 0)) return undefined;
  return usage.promptEvalMs / usage.inputTokens;
}

/** The usage object of an llm.resp record, with ADR 0002's field names (absent fields were not reported). */
export interface UsageRecord {
  input_tokens: number;
  output_tokens: number;
  cached_tokens?: number;
  cache_write_tokens?: number;
  reasoning_tokens?: number;
  estimated_cached_tokens?: number;
  cost?: number;
  cost_estimated?: boolean;
  unreported?: boolean;
  wall_ms: number;
  prompt_eval_ms?: number;
  eval_ms?: number;
  total_ms?: number;
  load_ms?: number;
}

/** What usageRecord needs besides the usage: the prices and the session's estimator with this reply's endpoint. */
export interface UsageRecordOptions {
  readonly prices?: Prices;
  readonly estimator?: CacheEstimator;
  readonly endpoint?: EndpointKey;
}

/**
 * The llm.resp usage record of one reply: the counts and timings as reported,
 * the cost (provider's, else estimated from prices) and, with an estimator and
 * endpoint, estimated_cached_tokens. Call it once per reply, in the order the
 * replies are recorded: the estimate depends on what the session saw before.
 */
export function usageRecord(usage: Usage, options: UsageRecordOptions = {}): UsageRecord {
  const r: UsageRecord = { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens, wall_ms: usage.wallMs };
  if (usage.cachedTokens !== undefined) r.cached_tokens = usage.cachedTokens;
  if (usage.cacheWriteTokens !== undefined) r.cache_write_tokens = usage.cacheWriteTokens;
  if (usage.reasoningTokens !== undefined) r.reasoning_tokens = usage.reasoningTokens;
  if (options.estimator && options.endpoint) {
    const e = options.estimator.estimate(options.endpoint, usage);
    if (e !== undefined) r.estimated_cached_tokens = e;
  }
  const cost = costOf(usage, options.prices);
  if (cost) {
    r.cost = cost.cost;
    r.cost_estimated = cost.estimated;
  }
  if (usage.unreported) r.unreported = true;
  if (usage.promptEvalMs !== undefined) r.prompt_eval_ms = usage.promptEvalMs;
  if (usage.evalMs !== undefined) r.eval_ms = usage.evalMs;
  if (usage.totalMs !== undefined) r.total_ms = usage.totalMs;
  if (usage.loadMs !== undefined) r.load_ms = usage.loadMs;
  return r;
}
