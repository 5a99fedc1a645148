// A server's key: read from the environment variable key_env names, registered with the redactor, described for cred.register.

import { MIN_SECRET_LENGTH, type Redactor } from "../redact/index.js";
import type { HttpProviderSpec } from "./spec.js";
import { ModelError, type CredentialRef } from "./types.js";

/** What cred.register records for a server's key: class "api_key", id "env:NAME"; undefined for a server without key_env. */
export function credentialRecord(spec: { readonly keyEnv?: string }): CredentialRef | undefined {
  return spec.keyEnv === undefined ? undefined : { class: "api_key", id: `env:${spec.keyEnv}` };
}

/**
 * Reads the key of a server from `env[spec.keyEnv]` and registers it with the
 * redactor as a secret, so it is replaced wherever it would be written (the
 * log, an error message). Returns undefined for a server without key_env.
 * Throws ModelError "config" when the variable is unset, empty or too short to
 * be a key — naming the variable, never showing a value.
 */
export function readKey(
  spec: HttpProviderSpec,
  env: Readonly<Record<string, string | undefined>>,
  redactor: Redactor,
): { key: string; credential: CredentialRef } | undefined {
  const credential = credentialRecord(spec);
  if (spec.keyEnv === undefined || credential === undefined) return undefined;
  const raw = env[spec.keyEnv];
  const key = raw?.trim() ?? "";
  if (key === "")
    throw new ModelError(
      "config",
      spec.server,
      `server ${spec.server}: the environment variable ${spec.keyEnv} (its key_env) is ${raw === undefined ? "not set" : "empty"}: export it with the server's key, or remove key_env if the server needs none`,
    );
  if (key.length < MIN_SECRET_LENGTH)
    throw new ModelError(
      "config",
      spec.server,
      `server ${spec.server}: ${spec.keyEnv} holds ${key.length} characters, too short to be a key (at least ${MIN_SECRET_LENGTH})`,
    );
  redactor.registerSecret(key);
  if (raw !== undefined && raw !== key && raw.length >= MIN_SECRET_LENGTH) redactor.registerSecret(raw);
  return { key, credential };
}
