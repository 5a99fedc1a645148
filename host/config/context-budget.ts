// The model's context window in tokens and where it came from: the first source that has a number wins (seed 001, "Budget").
//
//   1. NODWYN_CONTEXT_TOKENS in the environment;
//   2. the model's context_window in config.toml (a script's own context_window for scripted:FILE);
//   3. the overrides recorded for the model (`/context set N` in chat), in
//      DATA_DIR/context-overrides.json;
//   4. the models.dev cache, $XDG_CACHE_HOME/nodwyn/models.dev/api.json (default
//      ~/.cache/…), in models.dev's own format: {provider: {models: {id: {limit: {context}}}}}.
// A model none of them knows has an unknown window: the session then sizes its
// window at UNKNOWN_CONTEXT_WINDOW (what a script without a context_window always
// had), says so, and the eviction strategy never evicts by that guess (docs/decisions/0032).

import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { resolveDataDir } from "../log/paths.js";
import { ConfigError } from "./errors.js";

/** What the window is sized at when no source knows the model's context window. */
export const UNKNOWN_CONTEXT_WINDOW = 32768;

/** The smallest context window a source may give (as config.toml's context_window). */
export const MIN_CONTEXT_TOKENS = 256;

/** The sources in the order they are asked. */
export type ContextSource = "env" | "config" | "override" | "models.dev" | "unknown";

/** The resolved budget: tokens null when unknown; where says which file or variable gave it. */
export interface ContextBudget {
  readonly tokens: number | null;
  readonly source: ContextSource;
  readonly where: string;
  /** Sources that were there but could not be read (a damaged cache): said, then skipped. */
  readonly problems: readonly string[];
}

/** The overrides file of a data directory. */
export function overridesFile(dataDir: string): string {
  return join(dataDir, "context-overrides.json");
}

/** The models.dev cache file: $XDG_CACHE_HOME/nodwyn/models.dev/api.json, else ~/.cache/nodwyn/models.dev/api.json. */
export function modelsDevCacheFile(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), ".cache");
  return join(base, "nodwyn", "models.dev", "api.json");
}

/** The override key of a model: its server and id (the same id on two servers may differ). */
function overrideKey(server: string, model: string): string {
  return `${server}/${model}`;
}

function readJson(file: string): { value?: unknown; missing?: true; problem?: string } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { missing: true };
    return { problem: `${file} cannot be read (${code ?? (e as Error).message})` };
  }
  try {
    return { value: JSON.parse(text) };
  } catch (e) {
    return { problem: `${file} is not JSON (${(e as Error).message}): it was skipped` };
  }
}

function goodTokens(n: unknown): n is number {
  return typeof n === "number" && Number.isSafeInteger(n) && n >= MIN_CONTEXT_TOKENS;
}

/** The override recorded for server/model, or undefined; a damaged file is a problem, not an error. */
export function readOverride(dataDir: string, server: string, model: string, problems: string[] = []): number | undefined {
  const file = overridesFile(dataDir);
  const r = readJson(file);
  if (r.problem !== undefined) problems.push(r.problem);
  const models = (r.value as { models?: Record<string, unknown> } | undefined)?.models;
  if (models === undefined || models === null || typeof models !== "object") return undefined;
  const v = models[overrideKey(server, model)];
  if (v === undefined) return undefined;
  if (!goodTokens(v)) {
    problems.push(`${file}: the override of ${overrideKey(server, model)} is not a whole number of tokens ≥ ${MIN_CONTEXT_TOKENS}: it was skipped`);
    return undefined;
  }
  return v;
}

/** Records the override for server/model (null takes it back); atomic (a temp file renamed). Returns the file. */
export function recordOverride(dataDir: string, server: string, model: string, tokens: number | null): string {
  if (tokens !== null && !goodTokens(tokens)) throw new RangeError(`a context window is a whole number of tokens ≥ ${MIN_CONTEXT_TOKENS}, not ${tokens}`);
  const file = overridesFile(dataDir);
  const r = readJson(file);
  const old = (r.value as { models?: Record<string, unknown> } | undefined)?.models;
  const models: Record<string, unknown> = old !== null && typeof old === "object" ? { ...old } : {};
  if (tokens === null) delete models[overrideKey(server, model)];
  else models[overrideKey(server, model)] = tokens;
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ version: 1, models }, null, 2) + "\n");
  renameSync(tmp, file);
  return file;
}

/**
 * The context window models.dev's cache gives the model: an entry whose id is
 * the model's (or, for an id `provider/model`, that provider's entry), the
 * provider named like the server first; undefined when the cache has none.
 */
export function modelsDevContext(cache: unknown, server: string, model: string): number | undefined {
  if (cache === null || typeof cache !== "object") return undefined;
  const providers = cache as Record<string, unknown>;
  const lookup = (provider: string, id: string): number | undefined => {
    const p = providers[provider] as { models?: Record<string, { limit?: { context?: unknown } }> } | undefined;
    const c = p?.models?.[id]?.limit?.context;
    return goodTokens(c) ? c : undefined;
  };
  const slash = model.indexOf("/");
  if (slash > 0) {
    const v = lookup(model.slice(0, slash), model.slice(slash + 1));
    if (v !== undefined) return v;
  }
  const first = lookup(server, model);
  if (first !== undefined) return first;
  for (const name of Object.keys(providers).sort()) {
    const v = lookup(name, model);
    if (v !== undefined) return v;
  }
  return undefined;
}

/**
 * Resolves the budget: `configured` is the model's context_window in config.toml
 * (or its script's), when it has one. A bad NODWYN_CONTEXT_TOKENS is a
 * ConfigError saying what to write; a damaged override or cache file is
 * listed in problems and skipped.
 */
export function resolveContextBudget(o: { readonly server: string; readonly model: string; readonly configured?: number; readonly configWhere?: string; readonly env?: NodeJS.ProcessEnv }): ContextBudget {
  const env = o.env ?? process.env;
  const problems: string[] = [];
  const raw = env.NODWYN_CONTEXT_TOKENS;
  if (raw !== undefined && raw.trim() !== "") {
    const n = /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
    if (!goodTokens(n))
      throw new ConfigError("CONFIG_INVALID", `NODWYN_CONTEXT_TOKENS=${JSON.stringify(raw)} is not a context window: give a whole number of tokens ≥ ${MIN_CONTEXT_TOKENS} (e.g. NODWYN_CONTEXT_TOKENS=128000), or unset it`);
    return { tokens: n, source: "env", where: "NODWYN_CONTEXT_TOKENS", problems };
  }
  if (o.configured !== undefined) return { tokens: o.configured, source: "config", where: o.configWhere ?? "config.toml", problems };
  const data = resolveDataDir(env);
  const over = readOverride(data, o.server, o.model, problems);
  if (over !== undefined) return { tokens: over, source: "override", where: overridesFile(data), problems };
  const cacheFile = modelsDevCacheFile(env);
  const cache = readJson(cacheFile);
  if (cache.problem !== undefined) problems.push(cache.problem);
  const dev = modelsDevContext(cache.value, o.server, o.model);
  if (dev !== undefined) return { tokens: dev, source: "models.dev", where: cacheFile, problems };
  return { tokens: null, source: "unknown", where: "", problems };
}

/** The budget's sources in words, for a person told that none knows the model. */
export function unknownContextHelp(server: string, model: string, env: NodeJS.ProcessEnv = process.env): string {
  return (
    `no source knows the context window of ${model} on ${server}: set NODWYN_CONTEXT_TOKENS, give the model a context_window in config.toml, ` +
    `record one with /context set N in chat, or put models.dev's api.json at ${modelsDevCacheFile(env)}`
  );
}
