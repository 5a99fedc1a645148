// The window's token estimator: a documented characters-per-token rule, fast and versioned.
//
// Recorded in every llm.req (recipe.estimator) so that a request's fit can be
// recomputed exactly. chars4 v1: a text of n UTF-16 code units is ceil(n / 4)
// tokens; a message adds 4 for its framing, each tool call 4 more plus its name
// and arguments. It overestimates English prose a little and code less; a
// model's own tokenizer would be closer but is per family and slower.

import type { Message, ToolCall } from "../model/types.js";

/** The estimator recorded in llm.req. */
export const ESTIMATOR = Object.freeze({ name: "chars4", version: 1 });

/** Tokens of a text under chars4 v1. */
export function textTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Framing tokens a message costs beyond its text. */
export const MESSAGE_OVERHEAD = 4;

/** Tokens of one tool call of an assistant message. */
export function callTokens(c: ToolCall): number {
  return MESSAGE_OVERHEAD + textTokens(c.name) + textTokens(c.arguments);
}

/** Tokens of one message. */
export function messageTokens(m: Message): number {
  let n = MESSAGE_OVERHEAD + textTokens(m.content);
  if (m.role === "assistant" && m.toolCalls) for (const c of m.toolCalls) n += callTokens(c);
  if (m.role === "tool") n += textTokens(m.name);
  return n;
}
