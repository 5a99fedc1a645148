// The secret shapes the redactor replaces: RE2 patterns (linear time) with a plain-code check on each match.
//
// Every pattern has exactly three groups that together cover the whole match:
// (kept before)(the secret)(kept after). Only the middle group is replaced, so a
// header name, a URL's user or a key's name stays readable. RE2 has no lookaround,
// which is why context that must be kept is matched and put back.
//
// `accept` looks at the secret with plain loops (no JS regular expressions, which
// could backtrack), to tell a credential from a variable name or a placeholder.

import { isPlaceholder, secretNameKind, secretValue } from "./names.js";

export { isPlaceholder };

/** One kind of secret. */
export interface RedactRule {
  /** Stable name: it is the placeholder's label and the redact.event's key. */
  readonly name: string;
  /** What it finds, for docs and reports. */
  readonly doc: string;
  /** RE2 sources, each `(before)(secret)(after)`. */
  readonly patterns: readonly string[];
  /** A check on the secret group (and the whole match); false leaves the match as it is. */
  readonly accept?: (secret: string, match: string) => boolean;
}

/** The text that stands where a secret was: `[REDACTED:rule-name]`. */
export function placeholder(rule: string): string {
  return `[REDACTED:${rule}]`;
}

/** Shannon entropy of `s` in bits per character. */
export function entropy(s: string): number {
  if (s.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let n = 0;
  for (const c of counts.values()) n += c;
  let h = 0;
  for (const c of counts.values()) {
    const p = c / n;
    h -= p * Math.log2(p);
  }
  return h;
}

interface Classes {
  lower: number;
  upper: number;
  digit: number;
  other: number;
}

function classes(s: string): Classes {
  const c = { lower: 0, upper: 0, digit: 0, other: 0 };
  for (let i = 0; i < s.length; i++) {
    const k = s.charCodeAt(i);
    if (k >= 97 && k <= 122) c.lower++;
    else if (k >= 65 && k <= 90) c.upper++;
    else if (k >= 48 && k <= 57) c.digit++;
    else c.other++;
  }
  return c;
}

/** Mixed-case letters and digits: how generated keys look, unlike words and names. */
export function looksGenerated(s: string): boolean {
  const c = classes(s);
  return c.digit > 0 && c.lower > 0 && c.upper > 0;
}

/** Letters, `_`, `.` and `-` only: an identifier or a dotted path (config.secret, getToken), not a value. */
function isIdentifierPath(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const k = v.charCodeAt(i);
    const letter = (k >= 97 && k <= 122) || (k >= 65 && k <= 90);
    if (!letter && k !== 95 && k !== 46 && k !== 45) return false;
  }
  return true;
}

/**
 * Whether `v`, assigned to a name like password or token, looks like a real
 * credential rather than code, a path, a URL or a placeholder. Password names get
 * a lower bar: people choose passwords, machines generate tokens.
 */
export function credentialLike(v: string, passwordName: boolean): boolean {
  if (v.length < (passwordName ? 6 : 8)) return false;
  if (isPlaceholder(v)) return false;
  const first = v[0];
  if (first === "/" || first === "~" || first === ".") return false; // a file path
  if (v.startsWith("http://") || v.startsWith("https://")) return false; // an endpoint, not a secret
  if (isIdentifierPath(v)) return false;
  return entropy(v) >= (passwordName ? 2.0 : 2.5);
}

function nameIsPassword(match: string): boolean {
  const m = match.toLowerCase();
  return m.includes("pass");
}

// A name that holds a secret when something is assigned to it: it ends in one of these.
const SECRET_NAME_CORE =
  "(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|private[_-]?key|signing[_-]?key|encryption[_-]?key|master[_-]?key|auth[_-]?key|client[_-]?secret|credentials?)";

// A name that may hold a secret, for the patterns that find secret-named values in text; which ones do is
// decided in code (names.ts secretNameKind), RE2 having no lookaround.
const NAME_MAYBE = "[a-z0-9_.:#-]*(?:pass|pwd|secret|token|credential|creds|key|auth)[a-z0-9_.-]*";

// A key as Scheme writes it: |with spaces|, "a string", or a symbol that may hold a secret.
const KEY_MAYBE = `(?:\\|[^|]{0,128}\\||"[^"\\\\]{0,128}"|${NAME_MAYBE})`;

// Words of Scheme source that come before the name they bind or pair: (define password "…"), (cons 'token "…").
const BINDERS = new Set(["define", "set!", "cons", "list", "quote"]);

/** The name in the kept part of a secret-named match: its first key (inside bars or quotes, or a run of name characters) that is not a binding form's keyword. */
function nameOf(before: string): string {
  let i = 0;
  while (i < before.length) {
    const c = before[i] as string;
    if (c === "|" || c === '"') {
      const end = before.indexOf(c, i + 1);
      return end === -1 ? "" : before.slice(i + 1, end);
    }
    if (/[A-Za-z0-9_.:#!-]/.test(c)) {
      let j = i;
      while (j < before.length && /[A-Za-z0-9_.:#!-]/.test(before[j] as string)) j++;
      const word = before.slice(i, j);
      if (!BINDERS.has(word.toLowerCase())) return word.replace(/^#?:/, "").replace(/:$/, "");
      i = j;
      continue;
    }
    i++;
  }
  return "";
}

/** An RE2 source matching a whole JSON key naming an Authorization header. */
export const AUTH_KEY_SOURCE = "(?i)^(?:proxy-)?authorization$";

const TOKEN68 = "[A-Za-z0-9._~+/-]+=*";

/** The rules, most specific first: the first rule to claim a secret names it. */
export const DEFAULT_RULES: readonly RedactRule[] = [
  {
    name: "private-key",
    doc: "PEM and OpenSSH private key blocks (RSA, EC, DSA, OPENSSH, ENCRYPTED, PGP), also cut off before their END line",
    patterns: [
      "(-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)([\\s\\S]*?-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|[\\s\\S]*)()",
    ],
    // A block has base64 lines; a sentence that names the header has none.
    accept: (secret) => longestRun(secret, isBase64Char) >= 32,
  },
  {
    name: "aws-access-key-id",
    doc: "AWS access key ids (AKIA…, ASIA…)",
    patterns: ["()(\\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\\b)()"],
  },
  {
    name: "aws-secret-access-key",
    doc: "AWS secret access keys assigned to aws_secret_access_key or SecretAccessKey",
    patterns: ["(?i)(\\b(?:aws_?)?secret_?access_?key[\"']?\\s*[:=]\\s*[\"']?)([A-Za-z0-9/+]{40})()"],
  },
  {
    name: "gcp-api-key",
    doc: "Google Cloud API keys (AIza…)",
    patterns: ["()(\\bAIza[0-9A-Za-z_-]{35})()"],
  },
  {
    name: "gcp-oauth",
    doc: "Google OAuth access tokens (ya29.…) and client secrets (GOCSPX-…)",
    patterns: ["()(\\bya29\\.[0-9A-Za-z_-]{20,})()", "()(\\bGOCSPX-[0-9A-Za-z_-]{28})()"],
  },
  {
    name: "azure-key",
    doc: "Azure storage and service bus keys in connection strings, SAS signatures, client secrets (…Q~…)",
    patterns: [
      "(?i)(\\b(?:AccountKey|SharedAccessKey)\\s*=\\s*)([A-Za-z0-9+/]{20,}={0,2})()",
      "([?&]sig=)([A-Za-z0-9%+/=]{20,})()",
      "()(\\b[A-Za-z0-9_~.-]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34})()",
    ],
  },
  {
    name: "github-token",
    doc: "GitHub tokens (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_)",
    patterns: ["()(\\bgh[pousr]_[A-Za-z0-9]{36,255}\\b)()", "()(\\bgithub_pat_[A-Za-z0-9_]{22,255})()"],
  },
  {
    name: "gitlab-token",
    doc: "GitLab tokens (glpat-, glptt-, gldt-, glrt-, …)",
    patterns: ["()(\\bgl(?:pat|ptt|dt|rt|cbt|oas|soat|ffct|imt|ft|agent)-[A-Za-z0-9_-]{20,})()"],
  },
  {
    name: "slack-token",
    doc: "Slack tokens (xoxb-, xoxp-, …, xapp-) and incoming webhook URLs",
    patterns: [
      "()(\\bxox[abposre]-[A-Za-z0-9-]{10,})()",
      "()(\\bxapp-[0-9]-[A-Za-z0-9-]{10,})()",
      "(https://hooks\\.slack\\.com/services/)([A-Za-z0-9/]{20,})()",
    ],
  },
  {
    name: "stripe-key",
    doc: "Stripe secret and restricted keys (sk_live_, rk_test_, …) and webhook secrets (whsec_)",
    patterns: ["()(\\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,})()", "()(\\bwhsec_[A-Za-z0-9]{24,})()"],
  },
  {
    name: "anthropic-key",
    doc: "Anthropic API keys (sk-ant-…)",
    patterns: ["()(\\bsk-ant-[A-Za-z0-9_-]{20,})()"],
  },
  {
    name: "openai-key",
    doc: "OpenAI API keys (sk-…, sk-proj-…, sk-svcacct-…)",
    patterns: ["(\\bsk-(?:proj-|svcacct-|admin-)?)([A-Za-z0-9_-]{20,})()"],
    // Generated: mixed case and digits; `sk-learn-classification-pipeline` is a name.
    accept: (secret) => looksGenerated(secret),
  },
  {
    name: "npm-token",
    doc: "npm access tokens (npm_…)",
    patterns: ["()(\\bnpm_[A-Za-z0-9]{36})()"],
  },
  {
    name: "pypi-token",
    doc: "PyPI upload tokens (pypi-AgEIcHlwaS5vcmc…)",
    patterns: ["()(\\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,})()"],
  },
  {
    name: "huggingface-token",
    doc: "Hugging Face access tokens (hf_…)",
    patterns: ["()(\\bhf_[A-Za-z0-9]{34,})()"],
    accept: (secret) => looksGenerated(secret.slice(3)),
  },
  {
    name: "sendgrid-key",
    doc: "SendGrid API keys (SG.….…)",
    patterns: ["()(\\bSG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43})()"],
  },
  {
    name: "digitalocean-token",
    doc: "DigitalOcean tokens (dop_v1_, doo_v1_, dor_v1_)",
    patterns: ["()(\\bdo[opr]_v1_[a-f0-9]{64})()"],
  },
  {
    name: "jwt",
    doc: "JSON Web Tokens (three base64url parts, header and claims starting eyJ)",
    patterns: ["()(\\beyJ[A-Za-z0-9_-]{10,}\\.eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]*)()"],
  },
  {
    name: "url-password",
    doc: "the password in a URL's user info (scheme://user:password@host) and in password query parameters",
    patterns: [
      "(\\b[A-Za-z][A-Za-z0-9+.-]{1,30}://[^\\s:/?#@\"'<>]+:)([^\\s/?#@\"'<>]+)(@)",
      "(?i)([?&](?:password|passwd|pwd|pass)=)([^&#\\s\"'<>]+)()",
    ],
    accept: (secret) => !isPlaceholder(secret),
  },
  {
    name: "url-token",
    doc: "tokens in URL query parameters (access_token=, api_key=, client_secret=, …)",
    patterns: [
      "(?i)([?&](?:access_token|refresh_token|id_token|token|api_key|apikey|client_secret|secret|auth)=)([^&#\\s\"'<>]+)()",
    ],
    accept: (secret) => credentialLike(secret, false),
  },
  {
    name: "connection-string-password",
    doc: "Password= and Pwd= in ;-separated connection strings",
    patterns: [
      "(?i)(;\\s*(?:password|pwd)\\s*=\\s*)([^;\"'\\r\\n]+)()",
      "(?i)((?:^|[\\s\"'=?&])(?:password|pwd)\\s*=\\s*)([^;\"'\\s]+)(;)",
    ],
    accept: (secret) => !isPlaceholder(secret.trim()),
  },
  {
    name: "authorization",
    doc: "credentials in Authorization and Proxy-Authorization headers (the scheme name is kept)",
    patterns: [
      `(?i)(\\b(?:proxy-)?authorization["']?\\s*[:=]\\s*["']?(?:bearer|basic|token|bot|apikey|api-key|sso-key|key)\\s+)(${TOKEN68})()`,
      // Parametrised schemes quote their values, so the rest of the line goes.
      "(?i)(\\b(?:proxy-)?authorization[\"']?\\s*[:=]\\s*[\"']?(?:digest|negotiate|ntlm|hmac|aws4-hmac-sha256)\\s+)([^\\r\\n]+)()",
      `(?i)(\\b(?:proxy-)?authorization["']?\\s*[:=]\\s*["']?)(${TOKEN68})()`,
    ],
    // After a scheme any token counts; without one, only something generated-looking.
    accept: (secret, match) =>
      secret.length >= 6 && (hasAuthScheme(match) || (secret.length >= 16 && looksGenerated(secret))),
  },
  {
    name: "scheme-secret",
    doc: "the value of a secret-named key in a Scheme association list or keyword argument as write prints it — (password . \"…\"), (\"API_TOKEN\" . \"…\"), (token \"…\"), #:secret \"…\" — and in source: (cons 'password \"…\"), (define api-key \"…\")",
    patterns: [
      `(?i)(\\(\\s*${KEY_MAYBE}\\s+\\.\\s+")((?:[^"\\\\]|\\\\.)+)("|$)`,
      `(?i)(\\(\\s*${KEY_MAYBE}\\s+\\.\\s+)([^\\s()"|;]+)(\\s*\\))`,
      `(?i)(\\(\\s*${KEY_MAYBE}\\s+")((?:[^"\\\\]|\\\\.)+)("\\s*\\)|$)`,
      `(?i)(#:${NAME_MAYBE}\\s+")((?:[^"\\\\]|\\\\.)+)("|$)`,
      // In source: (cons 'password "…"), (list "api_token" "…"), (define api-key "…"), (set! token "…").
      `(?i)('\\s*${KEY_MAYBE}\\s+")((?:[^"\\\\]|\\\\.)+)("|$)`,
      `(?i)("[^"\\\\]{0,128}"\\s+")((?:[^"\\\\]|\\\\.)+)("|$)`,
      `(?i)(\\(\\s*(?:define|set!)\\s+${KEY_MAYBE}\\s+")((?:[^"\\\\]|\\\\.)+)("|$)`,
    ],
    accept: (secret, match) => {
      const kind = secretNameKind(nameOf(match.slice(0, match.lastIndexOf(secret))));
      return kind !== null && secretValue(secret, kind);
    },
  },
  {
    name: "json-secret",
    doc: "the string value of a secret-named member of JSON text: \"password\": \"…\", \"MY_SECRET_VALUE\": \"…\"",
    patterns: [
      `(?i)("${NAME_MAYBE}"\\s*:\\s*")((?:[^"\\\\]|\\\\.)+)("|$)`,
      // JSON text inside a string literal (source, or a payload quoting one): its quotes escaped.
      `(?i)(\\\\"${NAME_MAYBE}\\\\"\\s*:\\s*\\\\")((?:[^"\\\\]|\\\\[^"])+)(\\\\"|$)`,
    ],
    accept: (secret, match) => {
      const kind = secretNameKind(nameOf(match.slice(0, match.lastIndexOf(secret))));
      return kind !== null && secretValue(secret, kind);
    },
  },
  {
    name: "generic-assignment",
    doc: "a credential-looking value assigned to a name like password, secret, token, api_key or MY_SECRET_VALUE (=, :, :=, =>)",
    patterns: [
      `(?i)(\\b[a-z0-9_.-]*${SECRET_NAME_CORE}(?:[_.-][a-z0-9]+)*["']?\\s*(?::=|=>|=|:)\\s*["'\`]?)([^\\s"'\`,;&<>(){}\\[\\]]{6,})()`,
    ],
    accept: (secret, match) => {
      const before = match.slice(0, match.length - secret.length);
      // A name about a secret (token_type, secret_file) holds none; the core's own name check stays as it was.
      const name = nameOf(before);
      if (/[_.-]/.test(name) && secretNameKind(name) === null && !/(?:password|passwd|passphrase|secret|token|key|credentials?)$/i.test(name)) return false;
      return credentialLike(secret, nameIsPassword(before));
    },
  },
];

function hasAuthScheme(match: string): boolean {
  const m = match.toLowerCase();
  // The header's own separator: the first ':' or '=' after its name.
  const from = m.indexOf("authorization") + "authorization".length;
  const c = m.indexOf(":", from);
  const e = m.indexOf("=", from);
  const sep = c < 0 ? e : e < 0 ? c : Math.min(c, e);
  let after = m.slice(sep + 1).trimStart();
  if (after[0] === '"' || after[0] === "'") after = after.slice(1);
  for (const s of ["bearer ", "basic ", "token ", "bot ", "apikey ", "api-key ", "sso-key ", "key ", "digest ", "negotiate ", "ntlm ", "hmac ", "aws4-hmac-sha256 "])
    if (after.startsWith(s)) return true;
  return false;
}

function isBase64Char(k: number): boolean {
  return (k >= 65 && k <= 90) || (k >= 97 && k <= 122) || (k >= 48 && k <= 57) || k === 43 || k === 47 || k === 61;
}

function longestRun(s: string, ok: (k: number) => boolean): number {
  let best = 0;
  let run = 0;
  for (let i = 0; i < s.length; i++) {
    if (ok(s.charCodeAt(i))) {
      run++;
      if (run > best) best = run;
    } else run = 0;
  }
  return best;
}
