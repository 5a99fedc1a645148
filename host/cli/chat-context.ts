// `nodwyn chat`'s /context: the model's context window, where it came from, and how much of it the window uses now.

import type { AgentSession } from "../session/agent.js";
import { MIN_CONTEXT_TOKENS, recordOverride, unknownContextHelp } from "../config/context-budget.js";
import { resolveDataDir } from "../log/paths.js";

const SOURCE_WORDS: Record<string, string> = {
  env: "NODWYN_CONTEXT_TOKENS",
  config: "the configuration",
  override: "an override recorded with /context set",
  "models.dev": "the models.dev cache",
};

function n(x: unknown): string {
  return typeof x === "number" ? x.toLocaleString("en-US") : "?";
}

/** The report /context prints. */
export function contextReport(agent: AgentSession, env: NodeJS.ProcessEnv): string {
  const info = agent.info() as Record<string, unknown>;
  const m = agent.model;
  const source = String(info["context-source"] ?? "config");
  const lines: string[] = [];
  if (source === "unknown")
    lines.push(`context window: unknown — ${unknownContextHelp(m.server, m.id, env)}. The window is sized at ${n(m.contextWindow)} tokens meanwhile, and the eviction strategy evicts nothing.`);
  else lines.push(`context window: ${n(m.contextWindow)} tokens of ${m.id}, from ${SOURCE_WORDS[source] ?? source}`);
  let w: Record<string, unknown>;
  try {
    w = agent.windowInfo(null) as Record<string, unknown>;
  } catch (e) {
    lines.push(`the window: ${(e as Error).message}`);
    return lines.join("\n") + "\n";
  }
  if (typeof w.overflow === "string") lines.push(`the window: it does not fit (${w.overflow})`);
  else {
    const tokens = w.tokens as number;
    const budget = w.budget as number;
    const pct = budget > 0 ? Math.round((tokens / budget) * 100) : 0;
    lines.push(`the window: ${n(tokens)} tokens of the ${n(budget)} a request may take (${pct}%; ${n(w.reserve)} kept for the reply), ${n(w.messages)} messages`);
    const elided = Array.isArray(w.elided) ? w.elided.length : 0;
    const collapsed = Array.isArray(w.collapsed) ? w.collapsed.length : 0;
    if (elided + collapsed > 0) lines.push(`elided: ${elided} replies and results, ${collapsed} collapsed runs`);
  }
  const contexts = Array.isArray(w.contexts) ? (w.contexts as Record<string, unknown>[]) : [];
  const top = contexts[contexts.length - 1];
  if (top !== undefined && typeof top.narrow === "number" && top.narrow > 0)
    lines.push(`narrowed at seq ${top.narrow}: the window shows the log from seq ${n(top.from)}${typeof top.label === "string" ? ` (${top.label})` : ""}; the log keeps everything before it`);
  lines.push(`strategy: ${agent.strategy || "shell"}`);
  return lines.join("\n") + "\n";
}

/**
 * Runs /context [set N | unset]: reports, or records the override of the
 * model's context window (DATA_DIR/context-overrides.json), which counts from
 * the next session, after NODWYN_CONTEXT_TOKENS and config.toml.
 */
export function contextCommand(agent: AgentSession, args: string, env: NodeJS.ProcessEnv): string {
  const words = args.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return contextReport(agent, env);
  const m = agent.model;
  const data = resolveDataDir(env);
  if (words[0] === "set" && words.length === 2) {
    const v = /^\d+$/.test(words[1] as string) ? Number(words[1]) : NaN;
    if (!Number.isSafeInteger(v) || v < MIN_CONTEXT_TOKENS) return `/context set: give a whole number of tokens ≥ ${MIN_CONTEXT_TOKENS}, e.g. /context set 128000\n`;
    const file = recordOverride(data, m.server, m.id, v);
    return `recorded: ${m.id} on ${m.server} has a context window of ${v.toLocaleString("en-US")} tokens (${file}); it counts from the next session, after NODWYN_CONTEXT_TOKENS and config.toml's context_window\n`;
  }
  if (words[0] === "unset" && words.length === 1) {
    const file = recordOverride(data, m.server, m.id, null);
    return `the override of ${m.id} on ${m.server} is taken back (${file}), from the next session\n`;
  }
  return "/context shows the window; /context set N records the model's context window (tokens), /context unset takes it back\n";
}
