// The budget's sources in order (NODWYN_CONTEXT_TOKENS, config.toml, the recorded overrides, the models.dev cache) and the unknown window.

import test, { type ExecutionContext } from "ava";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ConfigError, parseConfig, selectModel } from "../../../host/config/index.js";
import {
  modelsDevCacheFile,
  modelsDevContext,
  overridesFile,
  readOverride,
  recordOverride,
  resolveContextBudget,
  UNKNOWN_CONTEXT_WINDOW,
} from "../../../host/config/context-budget.js";

/** A home with its own data and cache folders; env as a session would see it. */
function home(t: ExecutionContext): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), "nodwyn-budget-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return { dir, env: { HOME: dir, NODWYN_DATA_DIR: join(dir, "data") } };
}

function writeCache(env: NodeJS.ProcessEnv, value: unknown): string {
  const file = modelsDevCacheFile(env);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
  return file;
}

const CACHE = {
  openai: { id: "openai", models: { "gpt-4o": { id: "gpt-4o", limit: { context: 128000, output: 16384 } } } },
  ollama: { id: "ollama", models: { "qwen2.5-coder:7b": { limit: { context: 32768 } } } },
  zeta: { models: { "qwen2.5-coder:7b": { limit: { context: 999999 } } } },
  anthropic: { models: { "claude-x": { limit: { context: 200000 } } } },
};

test("the first source that has a number wins: the environment, config.toml, the override, the models.dev cache", (t) => {
  const h = home(t);
  writeCache(h.env, CACHE);
  recordOverride(h.env.NODWYN_DATA_DIR!, "local", "qwen2.5-coder:7b", 50000);
  const o = { server: "local", model: "qwen2.5-coder:7b", configured: 16384, configWhere: "c.toml [models.small]" };
  t.like(resolveContextBudget({ ...o, env: { ...h.env, NODWYN_CONTEXT_TOKENS: "8000" } }), { tokens: 8000, source: "env", where: "NODWYN_CONTEXT_TOKENS" });
  t.like(resolveContextBudget({ ...o, env: h.env }), { tokens: 16384, source: "config", where: "c.toml [models.small]" });
  const { configured: _c, ...noConfig } = o;
  void _c;
  t.like(resolveContextBudget({ ...noConfig, env: h.env }), { tokens: 50000, source: "override", where: overridesFile(h.env.NODWYN_DATA_DIR!) });
  recordOverride(h.env.NODWYN_DATA_DIR!, "local", "qwen2.5-coder:7b", null);
  // models.dev: no provider is named "local", so the providers in name order: ollama before zeta.
  t.like(resolveContextBudget({ ...noConfig, env: h.env }), { tokens: 32768, source: "models.dev", where: modelsDevCacheFile(h.env) });
  const none = resolveContextBudget({ server: "local", model: "nobody-knows", env: h.env });
  t.deepEqual(none, { tokens: null, source: "unknown", where: "", problems: [] });
  // An empty variable counts as unset.
  t.is(resolveContextBudget({ ...o, env: { ...h.env, NODWYN_CONTEXT_TOKENS: "" } }).source, "config");
});

test("models.dev's format: the server's provider first, then provider/model ids, then any provider", (t) => {
  t.is(modelsDevContext(CACHE, "zeta", "qwen2.5-coder:7b"), 999999);
  t.is(modelsDevContext(CACHE, "cloud", "anthropic/claude-x"), 200000);
  t.is(modelsDevContext(CACHE, "cloud", "gpt-4o"), 128000);
  t.is(modelsDevContext(CACHE, "cloud", "gpt-5"), undefined);
  t.is(modelsDevContext({ p: { models: { m: { limit: { context: "big" } } } } }, "p", "m"), undefined);
  t.is(modelsDevContext(null, "p", "m"), undefined);
  t.is(modelsDevContext([], "p", "m"), undefined);
});

test("a bad NODWYN_CONTEXT_TOKENS is an error saying what to write; a damaged cache or override file is said and skipped", (t) => {
  const h = home(t);
  for (const bad of ["8k", "-5", "100", "1.5", "9007199254740993"]) {
    const e = t.throws(() => resolveContextBudget({ server: "s", model: "m", configured: 4096, env: { ...h.env, NODWYN_CONTEXT_TOKENS: bad } }), { instanceOf: ConfigError });
    t.regex(e!.message, /NODWYN_CONTEXT_TOKENS=".*" is not a context window: give a whole number of tokens ≥ 256/);
  }
  const cache = writeCache(h.env, "{not json");
  mkdirSync(h.env.NODWYN_DATA_DIR!, { recursive: true });
  writeFileSync(overridesFile(h.env.NODWYN_DATA_DIR!), JSON.stringify({ version: 1, models: { "s/m": "lots" } }));
  const b = resolveContextBudget({ server: "s", model: "m", env: h.env });
  t.is(b.source, "unknown");
  t.is(b.problems.length, 2);
  t.regex(b.problems[0]!, /the override of s\/m is not a whole number of tokens/);
  t.true(b.problems[1]!.startsWith(`${cache} is not JSON`));
});

test("an override is recorded atomically per server and model, kept beside the others, and taken back", (t) => {
  const h = home(t);
  const data = h.env.NODWYN_DATA_DIR!;
  t.is(readOverride(data, "a", "m"), undefined);
  recordOverride(data, "a", "m", 40000);
  recordOverride(data, "b", "m", 9000);
  t.is(readOverride(data, "a", "m"), 40000);
  t.is(readOverride(data, "b", "m"), 9000);
  t.deepEqual(JSON.parse(readFileSync(overridesFile(data), "utf8")), { version: 1, models: { "a/m": 40000, "b/m": 9000 } });
  recordOverride(data, "a", "m", null);
  t.is(readOverride(data, "a", "m"), undefined);
  t.is(readOverride(data, "b", "m"), 9000);
  t.throws(() => recordOverride(data, "a", "m", 12), { instanceOf: RangeError });
});

test("selectModel: a model without context_window takes the later sources, or is unknown and sized at the fallback", (t) => {
  const h = home(t);
  const config = parseConfig(`[servers.openai]\nkind = "openai"\n[models.m]\nserver = "openai"\nmodel = "gpt-4o"\n[models.x]\nserver = "openai"\nmodel = "mystery"\n`, "/c/config.toml");
  const unknown = selectModel(config, { flag: "m", env: h.env });
  t.is(unknown.contextSource, "unknown");
  t.is(unknown.contextWindow, UNKNOWN_CONTEXT_WINDOW);
  t.is((unknown.spec as { contextWindow?: number }).contextWindow, undefined, "the provider is not told a guess (Ollama's num_ctx)");
  writeCache(h.env, CACHE);
  const dev = selectModel(config, { flag: "m", env: h.env });
  t.like(dev, { contextWindow: 128000, contextSource: "models.dev" });
  t.is((dev.spec as { contextWindow?: number }).contextWindow, 128000);
  t.like(selectModel(config, { flag: "m", env: { ...h.env, NODWYN_CONTEXT_TOKENS: "8000" } }), { contextWindow: 8000, contextSource: "env" });
  t.is(selectModel(config, { flag: "x", env: h.env }).contextSource, "unknown");
});

test("a script's own context_window is its configuration; a script without one takes the later sources", (t) => {
  const h = home(t);
  writeFileSync(join(h.dir, "with.toml"), `model = "demo-1"\ncontext_window = 8192\n[[reply]]\ntext = "hi"\n`);
  writeFileSync(join(h.dir, "without.toml"), `model = "demo-1"\n[[reply]]\ntext = "hi"\n`);
  const cfg = parseConfig("", "/c/config.toml");
  t.like(selectModel(cfg, { flag: "scripted:with.toml", env: h.env, cwd: h.dir }), { contextWindow: 8192, contextSource: "config" });
  t.like(selectModel(cfg, { flag: "scripted:without.toml", env: h.env, cwd: h.dir }), { contextWindow: UNKNOWN_CONTEXT_WINDOW, contextSource: "unknown" });
  t.like(selectModel(cfg, { flag: "scripted:with.toml", env: { ...h.env, NODWYN_CONTEXT_TOKENS: "3000" }, cwd: h.dir }), { contextWindow: 3000, contextSource: "env" });
  recordOverride(h.env.NODWYN_DATA_DIR!, "scripted", "demo-1", 6000);
  t.like(selectModel(cfg, { flag: "scripted:without.toml", env: h.env, cwd: h.dir }), { contextWindow: 6000, contextSource: "override" });
});
