// Names that hold secrets: keys of JSON objects and alists, environment variables, assignments in text.
//
// A name holds a secret when one of its words is a secret word (password,
// secret, token, key with api/access/private…, credential, auth) and the words
// after it do not make it a name *about* the secret (its type, length, URL,
// file, expiry…): AWS_SECRET_ACCESS_KEY, db_password, apiKey, MY_SECRET_VALUE
// and client_secret do; max_tokens, token_type, secret_file and PASSWORD_URL do
// not. Words are split at `_`, `-`, `.`, spaces and lower-to-upper case changes.

const PLACEHOLDER_WORDS = new Set([
  "changeme",
  "password",
  "passwd",
  "secret",
  "token",
  "redacted",
  "null",
  "none",
  "nil",
  "true",
  "false",
  "undefined",
  "example",
  "dummy",
  "placeholder",
  "your_password",
  "your_token",
  "your_api_key",
  "xxxxxxxx",
]);

/** A value that stands for a secret without being one: `changeme`, `********`, `${TOKEN}`, `<token>`. */
export function isPlaceholder(v: string): boolean {
  if (v.length === 0) return true;
  if (v.startsWith("[REDACTED:")) return true;
  if (PLACEHOLDER_WORDS.has(v.toLowerCase())) return true;
  const first = v[0];
  if (first === "$" || first === "%" || first === "{" || first === "<") return true;
  // One character repeated (********, xxxxxxxx, 00000000).
  let same = true;
  for (let i = 1; i < v.length && same; i++) same = v[i] === first;
  return same;
}

/** Words that make a name hold a secret. */
const SECRET_WORDS = new Set(["password", "passwd", "passphrase", "pwd", "secret", "secrets", "token", "credential", "credentials", "creds", "apikey", "privatekey"]);

/** Words that, after a key word, make a pair a secret name ("api key", "access key", "private key", "signing key", …). */
const KEY_QUALIFIERS = new Set(["api", "access", "secret", "private", "signing", "encryption", "master", "auth", "client", "account", "license", "session", "service", "storage", "shared"]);

/** Last words that make a name about a secret rather than the secret itself. */
const ABOUT_WORDS = new Set([
  "type", "types", "name", "names", "id", "ids", "count", "counts", "length", "len", "size", "url", "uri", "urls", "endpoint", "endpoints",
  "path", "paths", "file", "files", "dir", "directory", "hint", "policy", "ttl", "expiry", "expires", "expiration", "expired", "in", "at", "on",
  "kind", "format", "version", "header", "prefix", "scope", "scopes", "usage", "limit", "limits", "budget", "env", "var", "field", "label",
  "required", "enabled", "set", "present", "valid", "mode", "method", "source", "provider", "store", "manager", "rotation", "hash", "hashed",
  "salt", "rounds", "algorithm", "algo", "strength", "min", "max", "used", "remaining", "estimate", "estimated", "index", "pos", "position",
  "start", "end", "ms", "seconds", "s", "bytes", "chars", "reset", "changed", "request", "requests", "response", "ref",
  "refs", "link", "location", "host", "port", "user", "username", "owner", "email", "login", "input", "output", "tokens",
]);

/** The words of a name, lower-cased. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/** What kind of secret a name holds: "password" (people choose them), "secret" (machines generate them), or null. */
export function secretNameKind(name: string): "password" | "secret" | null {
  if (name.length > 128) return null;
  const words = nameWords(name);
  let kind: "password" | "secret" | null = null;
  let at = -1;
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    const secretWord =
      SECRET_WORDS.has(w) ||
      // pgpassword, dbpass…word, githubtoken, clientsecret: a word ending in one
      (w.length > 6 && /(?:password|passwd|secret|token|apikey)$/.test(w)) ||
      (w === "key" && i > 0 && KEY_QUALIFIERS.has(words[i - 1] as string)) ||
      (w === "auth" && i === words.length - 1);
    if (secretWord) {
      kind = /(?:password|passwd|passphrase)$/.test(w) || w === "pwd" ? "password" : (kind ?? "secret");
      at = i;
    }
  }
  if (kind === null) return null;
  // A word after the last secret word names something about it (token_type, password_file).
  const last = words[words.length - 1] as string;
  if (at < words.length - 1 && ABOUT_WORDS.has(last)) return null;
  return kind;
}

/**
 * Whether a string value under a secret name is one to redact: data under
 * such a name is the secret itself unless it is empty, too short to be one,
 * a placeholder (`changeme`, `********`, `${TOKEN}`), a file path, or a URL
 * without a password (an endpoint).
 */
export function secretValue(v: string, kind: "password" | "secret"): boolean {
  const t = v.trim();
  if (t.length < (kind === "password" ? 4 : 6)) return false;
  if (isPlaceholder(t)) return false;
  const first = t[0];
  if (first === "/" || first === "~" || t.startsWith("./") || t.startsWith("../")) return false;
  // An endpoint, unless it carries a password (user:password@); only short values are looked at this way.
  if (t.length <= 2048 && /^https?:\/\/[^\s:@/]+(?:[/:?#]|$)/i.test(t) && !/^https?:\/\/[^\s/@:]*:[^\s/@]*@/i.test(t)) return false;
  return true;
}

/** The shortest environment value registered as a secret (a shorter one would shred ordinary text). */
const MIN_ENV_SECRET = 6;

/**
 * The values of an environment's variables whose names hold secrets
 * (secretNameKind) and whose values look like one (secretValue): what a
 * session registers with its redactor, so that they are replaced wherever
 * they appear — printed by Scheme, in an error, in a tool's output.
 */
export function environmentSecrets(env: Readonly<Record<string, string | undefined>>): string[] {
  const out = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (typeof value !== "string" || value.length < MIN_ENV_SECRET) continue;
    const kind = secretNameKind(name);
    if (kind !== null && secretValue(value, kind)) out.add(value);
  }
  return [...out];
}
