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

/** A token estimator as llm.req records it (recipe.estimator) and as a recipe uses it. */
export interface Estimator {
  readonly name: string;
  readonly version: number;
  /** Tokens of a text. */
  text(s: string): number;
  /** Tokens of one message, its framing, calls and tool name included. */
  message(m: Message): number;
}

// Framing is the same in every version: 4 a message, 4 more a tool call.
function messageWith(text: (s: string) => number): (m: Message) => number {
  return (m) => {
    let n = MESSAGE_OVERHEAD + text(m.content);
    if (m.role === "assistant" && m.toolCalls) for (const c of m.toolCalls) n += MESSAGE_OVERHEAD + text(c.name) + text(c.arguments);
    if (m.role === "tool") n += text(m.name);
    return n;
  };
}

/** chars4 v1, window-v1's: ceil(UTF-16 code units / 4). */
export const CHARS4_V1: Estimator = Object.freeze({ name: "chars4", version: 1, text: textTokens, message: messageTokens });

/**
 * chars4 v2, window-v2's: an ASCII code unit is a quarter of a token, any other
 * code unit a whole one: ceil((ascii + 4 × other) / 4). English and code
 * estimate as in v1; text in other scripts (where v1 counts four characters a
 * token and tokenizers spend one or more on each) is no longer underestimated
 * fourfold, so the budget holds for it too. One pass over the text.
 */
export function textTokensV2(s: string): number {
  let other = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) other++;
  return Math.ceil((s.length + 3 * other) / 4);
}

export const CHARS4_V2: Estimator = Object.freeze({ name: "chars4", version: 2, text: textTokensV2, message: messageWith(textTokensV2) });

/** The estimator a recipe records by name and version, or null when this nodwyn has none of that name and version. */
export function estimatorOf(e: unknown): Estimator | null {
  if (e === null || typeof e !== "object") return null;
  const { name, version } = e as { name?: unknown; version?: unknown };
  for (const x of [CHARS4_V1, CHARS4_V2]) if (x.name === name && x.version === version) return x;
  return null;
}
