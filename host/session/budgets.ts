// Per-turn budgets: model calls, tool calls, tokens, wall time and spend, and the state turn.checkpoint records.

import { BUDGET_DEFAULTS } from "../config/index.js";

/** The limits of one turn. */
export interface TurnBudgets {
  /** Requests sent to the model. */
  readonly modelCalls: number;
  /** Tool calls run. */
  readonly toolCalls: number;
  /** Input plus output tokens of the turn's replies, as the server reported them. */
  readonly tokens: number;
  /** Wall-clock milliseconds from the user's message. */
  readonly wallMs: number;
  /** US dollars, from configured prices (a model without prices is not limited by it). */
  readonly spendUsd: number;
}

/** The defaults (config.toml's [budget] defaults), each overridden there and by a flag of `nodwyn chat` and `ask`. */
export const DEFAULT_BUDGETS: TurnBudgets = Object.freeze({
  modelCalls: BUDGET_DEFAULTS.modelCalls,
  toolCalls: BUDGET_DEFAULTS.toolCalls,
  tokens: BUDGET_DEFAULTS.tokens,
  wallMs: BUDGET_DEFAULTS.wallSeconds * 1000,
  spendUsd: BUDGET_DEFAULTS.spend,
});

/** A budget's name in turn.checkpoint's `dimension`. */
export type BudgetDimension = "model_calls" | "tool_calls" | "tokens" | "time" | "cost";

/** What a turn has used so far. */
export class TurnMeter {
  modelCalls = 0;
  toolCalls = 0;
  inputTokens = 0;
  outputTokens = 0;
  cachedTokens = 0;
  /** USD of the priced replies. */
  cost = 0;
  priced = 0;
  unpriced = 0;
  /** Replies whose server gave no token counts. */
  unreported = 0;
  readonly files: string[] = [];
  readonly commands: string[] = [];
  private readonly t0 = process.hrtime.bigint();

  constructor(
    readonly budgets: TurnBudgets,
    /** What the session's earlier turns cost (USD). */
    readonly earlierCost = 0,
  ) {}

  get tokens(): number {
    return this.inputTokens + this.outputTokens;
  }

  get elapsedNs(): bigint {
    return process.hrtime.bigint() - this.t0;
  }

  get elapsedMs(): number {
    return Number(this.elapsedNs / 1_000_000n);
  }

  /** The first budget a model call would pass, or null. */
  beforeModelCall(): { dimension: BudgetDimension; used: number; limit: number } | null {
    if (this.modelCalls >= this.budgets.modelCalls) return { dimension: "model_calls", used: this.modelCalls, limit: this.budgets.modelCalls };
    return this.afterReply();
  }

  /** The first budget a tool call would pass, or null. */
  beforeToolCall(): { dimension: BudgetDimension; used: number; limit: number } | null {
    if (this.toolCalls >= this.budgets.toolCalls) return { dimension: "tool_calls", used: this.toolCalls, limit: this.budgets.toolCalls };
    return null;
  }

  /** A budget that the replies so far reached (tokens, spend), or null. */
  afterReply(): { dimension: BudgetDimension; used: number; limit: number } | null {
    if (this.tokens >= this.budgets.tokens) return { dimension: "tokens", used: this.tokens, limit: this.budgets.tokens };
    if (this.priced > 0 && this.cost >= this.budgets.spendUsd)
      return { dimension: "cost", used: Math.round(this.cost * 1e6), limit: Math.round(this.budgets.spendUsd * 1e6) };
    return null;
  }

  /** The budget state turn.checkpoint records. */
  state(): Record<string, unknown> {
    return {
      model_calls: this.modelCalls,
      tool_calls: this.toolCalls,
      tokens: this.tokens,
      input_tokens: this.inputTokens,
      output_tokens: this.outputTokens,
      elapsed_ns: Number(this.elapsedNs),
      cost: this.cost,
      priced: this.priced,
      unpriced: this.unpriced,
      cached_tokens: this.cachedTokens,
      earlier_cost: this.earlierCost,
      files: this.files.slice(0, 50),
      commands: this.commands.slice(0, 50),
    };
  }
}
