// docs/guides/agent.md stays true: its exit statuses are ask's, its budget table the flags' and config.toml's defaults.

import test from "ava";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { EXIT_CODES } from "../../host/cli/agent-command.js";
import { AGENT_OPTIONS } from "../../host/cli/agent-options.js";
import { BUDGET_DEFAULTS, CONFIG_SCHEMA } from "../../host/config/index.js";

const root = resolve(new URL(".", import.meta.url).pathname, "..", "..", "..");
const guide = readFileSync(join(root, "docs", "guides", "agent.md"), "utf8");

function section(heading: string): string {
  const start = guide.indexOf(`## ${heading}\n`);
  const next = guide.indexOf("\n## ", start + 1);
  return guide.slice(start, next < 0 ? undefined : next);
}

test("the exit statuses of nodwyn ask: every outcome's code, and 2 for a usage error", (t) => {
  const rows = [...section("nodwyn ask").matchAll(/^\| (\d+) \| (.+) \|$/gm)].map((m) => [Number(m[1]), m[2]!] as const);
  t.deepEqual(rows.map(([c]) => c), [...new Set([...Object.values(EXIT_CODES), 2])].sort((a, b) => a - b));
  const said = new Map(rows);
  t.regex(said.get(EXIT_CODES.done)!, /done/);
  t.regex(said.get(EXIT_CODES.limit)!, /`limit`/);
  t.regex(said.get(EXIT_CODES.spend_limit)!, /`spend_limit`/);
  t.regex(said.get(EXIT_CODES.cancelled)!, /cancelled/);
  t.regex(said.get(EXIT_CODES.failed)!, /failed/);
});

test("the budget table: each flag exists, its [budget] key is in the schema, its default is the configured one", (t) => {
  const rows = [...section("Budgets").matchAll(/^\| `(--[a-z-]+) [A-Z]+` \| `([a-z_]+)` \| ([\d,]+) /gm)].map((m) => ({ flag: m[1]!, key: m[2]!, dflt: Number(m[3]!.replace(/,/g, "")) }));
  t.is(rows.length, 5);
  const budget = CONFIG_SCHEMA.budget;
  const keys = budget && budget.type === "table" ? Object.keys(budget.fields) : [];
  const defaults: Record<string, number> = { model_calls: BUDGET_DEFAULTS.modelCalls, tool_calls: BUDGET_DEFAULTS.toolCalls, tokens: BUDGET_DEFAULTS.tokens, wall_seconds: BUDGET_DEFAULTS.wallSeconds, spend: BUDGET_DEFAULTS.spend };
  for (const r of rows) {
    t.true(AGENT_OPTIONS.some((o) => o.name === r.flag), r.flag);
    t.true(keys.includes(r.key), r.key);
    t.is(r.dflt, defaults[r.key], r.key);
  }
  t.deepEqual(rows.map((r) => r.key).sort(), [...keys].sort());
});
