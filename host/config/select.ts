// Which model a session talks to: --model, else NODWYN_MODEL, else [control] model; and the provider spec it makes.

import { dirname, resolve } from "node:path";
import type { ProviderSpec } from "../model/spec.js";
import { loadScript } from "../model/scripted.js";
import { ModelError } from "../model/types.js";
import type { Prices } from "../model/usage.js";
import { ConfigError } from "./errors.js";
import { noConfigHelp } from "./help.js";
import type { Config } from "./load.js";
import { resolveContextBudget, UNKNOWN_CONTEXT_WINDOW, type ContextSource } from "./context-budget.js";

/** The prefix of a scripted model's name: `scripted:FILE`. */
export const SCRIPTED_PREFIX = "scripted:";

/** The model chosen for a session, and everything the loop needs of it. */
export interface ModelChoice {
  /** The [models.NAME] entry, or `scripted:FILE` as given. */
  readonly name: string;
  /** What chose it. */
  readonly source: "flag" | "env" | "control" | "only";
  /** What createProvider makes the provider from. */
  readonly spec: ProviderSpec;
  /** The [servers.NAME] it is on ("scripted" for a script). */
  readonly server: string;
  /** Where it is reached: the server's base URL, or the script's absolute path. */
  readonly url: string;
  /** The model id the server knows. */
  readonly model: string;
  /** The context window the session's window is sized at (UNKNOWN_CONTEXT_WINDOW when no source knows it). */
  readonly contextWindow: number;
  /** Which source gave it (context-budget.ts): "unknown" when none did. */
  readonly contextSource: ContextSource;
  /** The variable or file that gave it ("" when unknown). */
  readonly contextWhere: string;
  /** Sources skipped because they could not be read (a damaged cache). */
  readonly contextProblems?: readonly string[];
  readonly maxOutputTokens?: number;
  /** Configured prices; absent for an unpriced model. */
  readonly prices?: Prices;
}

/** What may name the model besides [control]. */
export interface SelectOptions {
  /** --model NAME. */
  readonly flag?: string;
  /** The environment holding NODWYN_MODEL (default process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Where a relative scripted:FILE from --model or NODWYN_MODEL is taken from (default the current directory). */
  readonly cwd?: string;
}

/**
 * Chooses the session's model: `--model NAME`, else `NODWYN_MODEL`, else
 * `[control] model`, else the only [models] entry when there is exactly one.
 * A name is a [models.NAME] entry or `scripted:FILE` (its script is read and
 * checked now; a relative FILE in [control] is taken from the config file's
 * folder). Throws ConfigError: CONFIG_UNKNOWN_MODEL for a name with no entry,
 * CONFIG_NO_MODEL (with how to write a configuration) when nothing names one.
 */
export function selectModel(config: Config, options: SelectOptions = {}): ModelChoice {
  const env = options.env ?? process.env;
  let name: string | undefined;
  let source: ModelChoice["source"];
  if (options.flag) {
    name = options.flag;
    source = "flag";
  } else if (env.NODWYN_MODEL) {
    name = env.NODWYN_MODEL;
    source = "env";
  } else if (config.controlModel !== undefined) {
    name = config.controlModel;
    source = "control";
  } else {
    const names = Object.keys(config.models);
    if (names.length === 1) {
      name = names[0] as string;
      source = "only";
    } else if (names.length === 0) {
      throw new ConfigError("CONFIG_NO_MODEL", noConfigHelp(config.path), config.file ?? undefined);
    } else {
      throw new ConfigError(
        "CONFIG_NO_MODEL",
        `${config.file}: no default model: set [control] model to one of ${names.join(", ")}, or choose one with --model NAME or NODWYN_MODEL`,
        config.file ?? undefined,
      );
    }
  }
  if (name.startsWith(SCRIPTED_PREFIX)) {
    const given = name.slice(SCRIPTED_PREFIX.length);
    if (given === "") throw new ConfigError("CONFIG_UNKNOWN_MODEL", `${name}: give the script's file: scripted:FILE`);
    const base = source === "control" && config.file ? dirname(config.file) : (options.cwd ?? process.cwd());
    const file = resolve(base, given);
    let script;
    try {
      script = loadScript(file);
    } catch (e) {
      if (e instanceof ModelError) throw new ConfigError("CONFIG_SCRIPT", e.message, file);
      throw e;
    }
    return {
      name,
      source,
      spec: { kind: "scripted", file, server: "scripted" },
      server: "scripted",
      url: file,
      model: script.model,
      ...budgetOf({ server: "scripted", model: script.model, env, ...(script.contextWindowGiven ? { configured: script.contextWindow, configWhere: file } : {}) }),
    };
  }
  const entry = config.models[name];
  if (!entry) {
    const names = Object.keys(config.models);
    const where = config.file ?? "the configuration (there is no config file)";
    const via = source === "flag" ? "--model" : source === "env" ? "NODWYN_MODEL" : "[control] model";
    throw new ConfigError(
      "CONFIG_UNKNOWN_MODEL",
      `${via} names ${JSON.stringify(name)}, which is not a [models.NAME] entry of ${where}` +
        (names.length ? ` (models: ${names.join(", ")})` : "") +
        `; or use scripted:FILE`,
      config.file ?? undefined,
    );
  }
  const server = config.servers[entry.server];
  if (!server) throw new ConfigError("CONFIG_UNKNOWN_MODEL", `models.${entry.name}.server names no server`, config.file ?? undefined);
  const budget = budgetOf({ server: server.name, model: entry.model, env, ...(entry.contextWindow !== undefined ? { configured: entry.contextWindow, configWhere: `${config.file ?? "config.toml"} [models.${entry.name}]` } : {}) });
  const spec: ProviderSpec = {
    kind: server.kind,
    server: server.name,
    url: server.url,
    model: entry.model,
    ...(budget.contextSource !== "unknown" ? { contextWindow: budget.contextWindow } : {}),
    ...(server.keyEnv !== undefined ? { keyEnv: server.keyEnv } : {}),
    ...(entry.maxOutputTokens !== undefined ? { maxOutputTokens: entry.maxOutputTokens } : {}),
    ...(entry.temperature !== undefined ? { temperature: entry.temperature } : {}),
    timeoutMs: server.timeoutMs,
    idleTimeoutMs: server.idleTimeoutMs,
    retries: server.retries,
    ...(server.headers ? { headers: server.headers } : {}),
    ...(server.anthropicVersion !== undefined ? { anthropicVersion: server.anthropicVersion } : {}),
    ...(server.promptCache !== undefined ? { promptCache: server.promptCache } : {}),
    ...(server.maxTokensField !== undefined ? { maxTokensField: server.maxTokensField } : {}),
  };
  return {
    name,
    source,
    spec,
    server: server.name,
    url: server.url,
    model: entry.model,
    ...budget,
    ...(entry.maxOutputTokens !== undefined ? { maxOutputTokens: entry.maxOutputTokens } : {}),
    ...(entry.prices ? { prices: entry.prices } : {}),
  };
}

/** The choice's context window from the budget's sources (NODWYN_CONTEXT_TOKENS first: context-budget.ts). */
function budgetOf(o: Parameters<typeof resolveContextBudget>[0]): Pick<ModelChoice, "contextWindow" | "contextSource" | "contextWhere" | "contextProblems"> {
  const b = resolveContextBudget(o);
  return {
    contextWindow: b.tokens ?? UNKNOWN_CONTEXT_WINDOW,
    contextSource: b.source,
    contextWhere: b.where,
    ...(b.problems.length > 0 ? { contextProblems: b.problems } : {}),
  };
}
