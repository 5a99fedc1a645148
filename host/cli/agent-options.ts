// The options of nodwyn chat, ask and resume (a small module: the command table loads it at every start).

import { positiveInteger, positiveNumber, type OptionSpec } from "./command.js";
import { SESSION_OPTIONS } from "./session-options.js";

/** --memory as every session command has it (the same name must mean the same in every command). */
const MEMORY = SESSION_OPTIONS.find((o) => o.name === "--memory") as OptionSpec;

/** The options chat, ask and resume share. */
export const AGENT_OPTIONS: readonly OptionSpec[] = [
  { name: "--model", value: "NAME", help: "a [models.NAME] of config.toml, or scripted:FILE (default: NODWYN_MODEL, then [control] model)" },
  { name: "--strategy", value: "FILE", help: "the strategy program, or a shipped one by name: compact (the default), evict, shell (stdlib/strategies/NAME.scm)" },
  { name: "--root", value: "DIR", help: "the repository root the tools see (default: the git top level)" },
  { name: "--lib-dir", short: "-I", value: "DIR", repeatable: true, help: "add a library directory for the strategy and the model's eval" },
  { name: "--steps", value: "N", help: "step budget of each evaluation of the model's eval tool (default 10000000)", check: positiveInteger },
  { name: "--timeout", value: "MS", help: "wall-clock limit of each evaluation of the eval tool, in milliseconds (default 30000)", check: positiveNumber },
  { ...MEMORY, help: "memory budget of each evaluation of the eval tool and of the strategy's turn, in MiB (default 256)" },
  { name: "--max-model-calls", value: "N", help: "model requests per turn (default: [budget] model_calls, 50)", check: positiveInteger },
  { name: "--max-tool-calls", value: "N", help: "tool calls per turn (default: [budget] tool_calls, 200)", check: positiveInteger },
  { name: "--max-tokens", value: "N", help: "prompt plus reply tokens per turn (default: [budget] tokens, 2000000)", check: positiveInteger },
  { name: "--max-seconds", value: "N", help: "seconds per turn (default: [budget] wall_seconds, 1800)", check: positiveNumber },
  { name: "--max-spend", value: "USD", help: "US dollars per turn, priced models only (default: [budget] spend, 2)", check: nonNegative },
];

export function nonNegative(v: string): string | undefined {
  const n = Number(v);
  return v.trim() !== "" && Number.isFinite(n) && n >= 0 ? undefined : `a number of at least 0 is expected, got ${JSON.stringify(v)}`;
}

