// The model providers' public entry: one interface (types.ts), made from a spec by createProvider; pricing in usage.ts.
//
// Typical use (host/session):
//   const provider = createProvider(choice.spec, { redactor: session.redactor });
//   if (provider.credential) record("cred.register", provider.credential);
//   const reply = await provider.complete(request, { signal, onEvent });
//   record("llm.resp", { …, usage: usageRecord(reply.usage, { prices, estimator, endpoint }) });

import { Redactor } from "../redact/index.js";
import { HttpProvider } from "./provider.js";
import { createScriptedProvider } from "./scripted.js";
import type { ProviderOptions, ProviderSpec } from "./spec.js";
import type { ModelProvider } from "./types.js";

export * from "./types.js";
export type { ProviderSpec, HttpProviderSpec, ScriptedProviderSpec, ProviderOptions, RetryTiming, ProtocolKind, ProviderKind } from "./spec.js";
export { costOf, usageRecord, CacheEstimator, endpointHost, type Prices, type Cost, type EndpointKey, type UsageRecord, type UsageRecordOptions } from "./usage.js";
export { loadScript, ScriptedProvider, SCRIPT_DEFAULT_CONTEXT_WINDOW, type Script, type ScriptReply } from "./scripted.js";
export { credentialRecord, readKey } from "./credential.js";
export { HttpProvider, HTTP_DEFAULTS } from "./provider.js";
export { retryAfterMs, backoffMs } from "./http.js";
export { openaiBody } from "./openai.js";
export { ollamaBody } from "./ollama.js";
export { anthropicBody, ANTHROPIC_VERSION, ANTHROPIC_DEFAULT_MAX_TOKENS } from "./anthropic.js";

/**
 * Makes the provider a spec describes. For a server with key_env, the key is
 * read from the environment now and registered with options.redactor as a
 * secret; provider.credential then says what cred.register records. A scripted
 * spec's file is read and checked now. Throws ModelError "config" when the
 * provider cannot be made (a key variable unset, a bad script).
 */
export function createProvider(spec: ProviderSpec, options: ProviderOptions = {}): ModelProvider {
  if (spec.kind === "scripted") return createScriptedProvider(spec);
  return new HttpProvider(spec, options.redactor ?? new Redactor(), options.env ?? process.env, options.retry);
}
