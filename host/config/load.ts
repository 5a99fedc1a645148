// config.toml read and checked: every key known, every type right, every reference resolved, each error at its line.

import { readFileSync } from "node:fs";
import { checkTable, formatKeyPath, parseToml, TomlSyntaxError, type KeyPath, type Places, type Problem } from "../toml/index.js";
import type { Prices } from "../model/usage.js";
import { ConfigError, type ConfigProblem } from "./errors.js";
import { guardConfigProblems, type GuardSettings } from "../guard/index.js";
import { configLocation } from "./paths.js";
import { BUDGET_DEFAULTS, CONFIG_SCHEMA, DEFAULT_URLS, SERVER_DEFAULTS, SHELL_DEFAULTS, SERVER_KINDS } from "./schema.js";

/** A [servers.NAME] entry, with defaults applied. */
export interface ServerEntry {
  readonly name: string;
  readonly kind: (typeof SERVER_KINDS)[number];
  /** The base URL, without a trailing slash. */
  readonly url: string;
  readonly keyEnv?: string;
  readonly timeoutMs: number;
  readonly idleTimeoutMs: number;
  readonly retries: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly anthropicVersion?: string;
  readonly promptCache?: boolean;
  readonly maxTokensField?: "max_tokens" | "max_completion_tokens";
  /** The line of its table in the file. */
  readonly line: number;
}

/** A [models.NAME] entry. */
export interface ModelEntry {
  readonly name: string;
  readonly server: string;
  readonly model: string;
  /** Absent when config.toml gives none (the budget's later sources may: context-budget.ts). */
  readonly contextWindow?: number;
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  /** Absent when no price is configured. */
  readonly prices?: Prices;
  readonly line: number;
}

/** Per-turn limits ([budget]), defaults applied. */
export interface Budgets {
  readonly modelCalls: number;
  readonly toolCalls: number;
  readonly tokens: number;
  readonly wallMs: number;
  /** US dollars. */
  readonly spend: number;
}

/** shell-exec's settings ([shell]), defaults applied. */
export interface ShellSettings {
  /** Command prefixes that run without asking. */
  readonly allow: readonly string[];
  readonly timeoutMs: number;
}

/** The [guard] table: as written, and as host/guard's parseGuardConfig checked it. */
export interface GuardSection {
  readonly table: Readonly<Record<string, unknown>>;
  readonly line: number;
  /** The settings it makes (the file is refused when the table has any problem). */
  readonly settings: GuardSettings;
}

/** A whole configuration. */
export interface Config {
  /** The file it was read from; null when there is none (the defaults alone). */
  readonly file: string | null;
  /** Where the file is or would be (the path looked for when there is none). */
  readonly path: string;
  readonly servers: Readonly<Record<string, ServerEntry>>;
  readonly models: Readonly<Record<string, ModelEntry>>;
  /** [control] model, when set. */
  readonly controlModel?: string;
  /** [control] compact_threshold, when set: compact.scm's compact-threshold in estimated tokens. */
  readonly compactThreshold?: number;
  readonly budget: Budgets;
  readonly shell: ShellSettings;
  /** [guard], when present, checked by host/guard (guardConfigProblems); without it the guard's defaults apply. */
  readonly guard?: GuardSection;
}

/** The configuration of a machine with no file: no model, default budgets and shell settings. */
export function emptyConfig(path: string = configLocation().path): Config {
  return {
    file: null,
    path,
    servers: {},
    models: {},
    budget: budgetOf(undefined),
    shell: shellOf(undefined),
  };
}

const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const isTableValue = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Date);
const tbl = (v: unknown): Record<string, unknown> => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

function budgetOf(t: Record<string, unknown> | undefined): Budgets {
  const b = t ?? {};
  return {
    modelCalls: num(b.model_calls) ?? BUDGET_DEFAULTS.modelCalls,
    toolCalls: num(b.tool_calls) ?? BUDGET_DEFAULTS.toolCalls,
    tokens: num(b.tokens) ?? BUDGET_DEFAULTS.tokens,
    wallMs: (num(b.wall_seconds) ?? BUDGET_DEFAULTS.wallSeconds) * 1000,
    spend: num(b.spend) ?? BUDGET_DEFAULTS.spend,
  };
}

function shellOf(t: Record<string, unknown> | undefined): ShellSettings {
  const s = t ?? {};
  return {
    allow: Array.isArray(s.allow) ? (s.allow as string[]) : [],
    timeoutMs: (num(s.timeout) ?? SHELL_DEFAULTS.timeoutSeconds) * 1000,
  };
}

// Headers that carry credentials: a key belongs in the environment, named by key_env.
const SECRET_HEADERS = new Set(["authorization", "x-api-key", "api-key", "proxy-authorization", "cookie"]);

// What the schema cannot say: references between tables and options that belong to one kind.
function crossCheck(doc: Record<string, unknown>, places: Places, out: Problem[]): void {
  const at = (path: KeyPath, message: string): void => {
    out.push({ code: "value", path, place: places.of(path), message });
  };
  const servers = tbl(doc.servers);
  for (const [name, s] of Object.entries(servers)) {
    const t = tbl(s);
    const kind = str(t.kind);
    const only: Record<string, string> = { anthropic_version: "anthropic", prompt_cache: "anthropic", max_tokens_field: "openai" };
    for (const [key, k] of Object.entries(only))
      if (key in t && kind !== undefined && kind !== k)
        at(["servers", name, key], `servers.${formatKeyPath([name])}.${key} is for kind = "${k}", not "${kind}"`);
    for (const h of Object.keys(tbl(t.headers)))
      if (SECRET_HEADERS.has(h.toLowerCase()))
        at(
          ["servers", name, "headers", h],
          `header ${JSON.stringify(h)} carries a credential: name the environment variable that holds the key with key_env instead`,
        );
    const url = str(t.url);
    if (url !== undefined && /^https?:\/\/[^\s/]+/i.test(url)) {
      try {
        const u = new URL(url);
        if (u.username || u.password)
          at(["servers", name, "url"], `servers.${formatKeyPath([name])}.url holds a user name or password: use key_env for the key`);
      } catch {
        at(["servers", name, "url"], `servers.${formatKeyPath([name])}.url is not a valid URL`);
      }
    }
  }
  const models = tbl(doc.models);
  const serverNames = Object.keys(servers);
  for (const [name, m] of Object.entries(models)) {
    const server = str(tbl(m).server);
    if (server !== undefined && !(server in servers))
      at(
        ["models", name, "server"],
        `models.${formatKeyPath([name])}.server names no [servers.${formatKeyPath([server])}]` +
          (serverNames.length ? ` (servers: ${serverNames.join(", ")})` : " (the file has no [servers.NAME] table)"),
      );
  }
  const control = str(tbl(doc.control).model);
  if (control !== undefined && !(control in models) && !control.startsWith("scripted:"))
    at(
      ["control", "model"],
      `control.model names no [models.${formatKeyPath([control])}]` +
        (Object.keys(models).length ? ` (models: ${Object.keys(models).join(", ")})` : " (the file has no [models.NAME] table)"),
    );
}

function toConfigProblems(problems: readonly Problem[]): ConfigProblem[] {
  return problems.map((p) => ({ line: p.place.line, col: p.place.col, key: formatKeyPath(p.path), message: p.message }));
}

const MAX_SHOWN = 20;

/**
 * Parses and checks the text of a config.toml. Throws ConfigError: CONFIG_SYNTAX
 * for text that is not TOML, CONFIG_INVALID listing every unknown key, wrong
 * type, missing key and bad reference, each as `file:line:col: message`.
 */
export function parseConfig(text: string, file: string): Config {
  let parsed;
  try {
    parsed = parseToml(text);
  } catch (e) {
    if (e instanceof TomlSyntaxError)
      throw new ConfigError("CONFIG_SYNTAX", `${file}:${e.line}:${e.col}: not valid TOML: ${e.detail}`, file, [
        { line: e.line, col: e.col, key: "", message: e.detail },
      ]);
    throw e;
  }
  const { value: doc, places } = parsed;
  const problems = checkTable(doc, CONFIG_SCHEMA, places);
  crossCheck(doc, places, problems);
  // [guard] belongs to the guard, which checks it as strictly (a table of another shape is already a problem above).
  const guard = isTableValue(doc.guard) ? guardConfigProblems(doc.guard) : null;
  for (const p of guard?.problems ?? []) {
    const path = ["guard", ...p.path];
    problems.push({ code: "value", path, place: places.of(path), message: p.message });
  }
  if (problems.length) {
    problems.sort((a, b) => a.place.line - b.place.line || a.place.col - b.place.col);
    const lines = problems.slice(0, MAX_SHOWN).map((p) => `${file}:${p.place.line}:${p.place.col}: ${p.message}`);
    if (problems.length > MAX_SHOWN) lines.push(`… and ${problems.length - MAX_SHOWN} more problems`);
    throw new ConfigError("CONFIG_INVALID", lines.join("\n"), file, toConfigProblems(problems));
  }

  const servers: Record<string, ServerEntry> = {};
  for (const [name, raw] of Object.entries(tbl(doc.servers))) {
    const t = tbl(raw);
    const kind = t.kind as ServerEntry["kind"];
    const headers = t.headers !== undefined ? (tbl(t.headers) as Record<string, string>) : undefined;
    servers[name] = {
      name,
      kind,
      url: (str(t.url) ?? DEFAULT_URLS[kind]).replace(/\/+$/, ""),
      ...(str(t.key_env) !== undefined ? { keyEnv: str(t.key_env) } : {}),
      timeoutMs: (num(t.timeout) ?? SERVER_DEFAULTS.timeoutSeconds) * 1000,
      idleTimeoutMs: (num(t.idle_timeout) ?? SERVER_DEFAULTS.idleTimeoutSeconds) * 1000,
      retries: num(t.retries) ?? SERVER_DEFAULTS.retries,
      ...(headers ? { headers: { ...headers } } : {}),
      ...(str(t.anthropic_version) !== undefined ? { anthropicVersion: str(t.anthropic_version) } : {}),
      ...(typeof t.prompt_cache === "boolean" ? { promptCache: t.prompt_cache } : {}),
      ...(str(t.max_tokens_field) !== undefined ? { maxTokensField: t.max_tokens_field as ServerEntry["maxTokensField"] } : {}),
      line: places.of(["servers", name]).line,
    };
  }
  const models: Record<string, ModelEntry> = {};
  for (const [name, raw] of Object.entries(tbl(doc.models))) {
    const t = tbl(raw);
    const prices: Prices = {
      ...(num(t.price_input) !== undefined ? { input: num(t.price_input) } : {}),
      ...(num(t.price_output) !== undefined ? { output: num(t.price_output) } : {}),
      ...(num(t.price_cached) !== undefined ? { cached: num(t.price_cached) } : {}),
      ...(num(t.price_cache_write) !== undefined ? { cacheWrite: num(t.price_cache_write) } : {}),
    };
    models[name] = {
      name,
      server: t.server as string,
      model: t.model as string,
      ...(num(t.context_window) !== undefined ? { contextWindow: num(t.context_window) as number } : {}),
      ...(num(t.max_output_tokens) !== undefined ? { maxOutputTokens: num(t.max_output_tokens) } : {}),
      ...(num(t.temperature) !== undefined ? { temperature: num(t.temperature) } : {}),
      ...(Object.keys(prices).length ? { prices } : {}),
      line: places.of(["models", name]).line,
    };
  }
  const control = str(tbl(doc.control).model);
  return {
    file,
    path: file,
    servers,
    models,
    ...(control !== undefined ? { controlModel: control } : {}),
    ...(num(tbl(doc.control).compact_threshold) !== undefined ? { compactThreshold: num(tbl(doc.control).compact_threshold) } : {}),
    budget: budgetOf(doc.budget as Record<string, unknown> | undefined),
    shell: shellOf(doc.shell as Record<string, unknown> | undefined),
    ...(doc.guard !== undefined && guard?.settings ? { guard: { table: tbl(doc.guard), line: places.of(["guard"]).line, settings: guard.settings } } : {}),
  };
}

/** Where loadConfig reads, for tests and embedders. */
export interface LoadConfigOptions {
  /** Read this file instead of the one the environment names. */
  readonly path?: string;
  /** The environment that names the file (default process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Reads the configuration: the file `NODWYN_CONFIG` names (which must exist),
 * else `$XDG_CONFIG_HOME/nodwyn/config.toml` or `~/.config/nodwyn/config.toml`,
 * where a missing file means no configuration (emptyConfig()). Throws
 * ConfigError for a file that cannot be read or is wrong.
 */
export function loadConfig(options: LoadConfigOptions = {}): Config {
  const where = options.path !== undefined ? { path: options.path, explicit: true } : configLocation(options.env);
  let text: string;
  try {
    text = readFileSync(where.path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && !where.explicit) return emptyConfig(where.path);
    const why =
      code === "ENOENT"
        ? "no such file (NODWYN_CONFIG names it)"
        : code === "EISDIR"
          ? "a directory, not a file"
          : code === "EACCES"
            ? "permission denied"
            : (e as Error).message;
    throw new ConfigError("CONFIG_UNREADABLE", `${where.path}: cannot read the configuration: ${why}`, where.path);
  }
  return parseConfig(text, where.path);
}
