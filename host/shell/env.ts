// The environment a shell command gets: the host's, without the variables that hold credentials.

/** Words of a variable name that mark it as holding a credential. */
const SECRET_WORDS = new Set([
  "KEY",
  "KEYS",
  "APIKEY",
  "TOKEN",
  "TOKENS",
  "SECRET",
  "SECRETS",
  "PASSWORD",
  "PASSWORDS",
  "PASSWD",
  "PASS",
  "PASSPHRASE",
  "CREDENTIAL",
  "CREDENTIALS",
  "CRED",
  "CREDS",
  "AUTH",
  "PRIVATE",
]);

/** The words of a name: split at `_`, `-`, `.` and lower-to-upper case changes, upper-cased. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toUpperCase());
}

/** True when a variable's name looks like it holds a key, a token, a secret or a password. */
export function secretName(name: string): boolean {
  return nameWords(name).some((w) => SECRET_WORDS.has(w));
}

/**
 * The host's environment without credentials: variables whose names look like
 * keys, tokens, secrets or passwords (secretName), whose values hold a
 * registered secret, or whose values `looksSecret` flags (the redactor's rules:
 * a URL with a password, a known token shape). Returns the environment and the
 * names removed, sorted (never the values).
 */
export function scrubEnv(
  env: NodeJS.ProcessEnv,
  secrets: Iterable<string> = [],
  looksSecret: (value: string) => boolean = () => false,
): { env: Record<string, string>; removed: string[] } {
  const values = [...secrets].filter((s) => s.length > 0);
  const out: Record<string, string> = {};
  const removed: string[] = [];
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) continue;
    if (secretName(k) || values.some((s) => v.includes(s)) || looksSecret(v)) removed.push(k);
    else out[k] = v;
  }
  return { env: out, removed: removed.sort() };
}
