// The configuration's public entry: config.toml found, read and checked, and the session's model chosen from it.
//
// Typical use (the CLI and the session):
//   const config = loadConfig();                         // ConfigError on a bad file
//   const choice = selectModel(config, { flag: opts.model });
//   const provider = createProvider(choice.spec, { redactor });   // host/model

export { configLocation, configPath, type ConfigLocation } from "./paths.js";
export {
  loadConfig,
  parseConfig,
  emptyConfig,
  type Config,
  type ServerEntry,
  type ModelEntry,
  type Budgets,
  type ShellSettings,
  type GuardSection,
  type LoadConfigOptions,
} from "./load.js";
export { selectModel, SCRIPTED_PREFIX, type ModelChoice, type SelectOptions } from "./select.js";
export { ConfigError, type ConfigErrorCode, type ConfigProblem } from "./errors.js";
export { noConfigHelp, OLLAMA_EXAMPLE, OPENAI_EXAMPLE } from "./help.js";
export { CONFIG_SCHEMA, SERVER_KINDS, DEFAULT_URLS, SERVER_DEFAULTS, BUDGET_DEFAULTS, SHELL_DEFAULTS } from "./schema.js";
