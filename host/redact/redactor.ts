// The redactor: replaces secrets in text and in any JSON value, and reports what it replaced (never the secret).

import RE2 from "re2";
import {
  AUTH_KEY_SOURCE,
  DEFAULT_RULES,
  isPlaceholder,
  placeholder,
  type RedactRule,
} from "./rules.js";
import { secretNameKind, secretValue } from "./names.js";

/** The rule name under which host-registered secret values are counted. */
export const HOST_SECRET_RULE = "host-secret";

/** The shortest value registerSecret accepts: a shorter one would shred ordinary text. */
export const MIN_SECRET_LENGTH = 4;

/** How deep a JSON value may nest. */
export const MAX_DEPTH = 512;

/** A redactor failure with a stable code. */
export class RedactError extends Error {
  readonly code: "REDACT_NOT_JSON" | "REDACT_TOO_DEEP" | "REDACT_SECRET_TOO_SHORT";
  /** JSON Pointer of the offending value, for REDACT_NOT_JSON and REDACT_TOO_DEEP. */
  readonly path: string;
  constructor(code: RedactError["code"], message: string, path = "") {
    super(message);
    this.code = code;
    this.path = path;
    this.name = "RedactError";
  }
}

/** What one redaction replaced: counts per rule and where, never the values. */
export interface RedactionReport {
  /** Rule name → how many secrets it replaced. */
  readonly rules: Readonly<Record<string, number>>;
  /** JSON Pointers (RFC 6901) of the strings changed, at most `maxPaths` of them. */
  readonly paths: readonly string[];
  /** Changed strings beyond `maxPaths`. */
  readonly pathsDropped: number;
  /** Total secrets replaced. */
  readonly total: number;
}

/** The result of redactJSON: the value (the same object when nothing changed) and the report, or null. */
export interface Redaction<T> {
  readonly value: T;
  readonly report: RedactionReport | null;
}

/** Options of a Redactor. */
export interface RedactorOptions {
  /** The rules, in order; DEFAULT_RULES unless given. */
  readonly rules?: readonly RedactRule[];
  /** Paths kept in a report (default 32). */
  readonly maxPaths?: number;
}

/** Counted repetitions in the Set's patterns repeat at most this many times (see screenSource). */
export const SCREEN_MAX_COUNT = 8;

/**
 * A pattern for the Set that screens strings before the rules run: `source`
 * with every counted repetition `{n}`, `{n,}` or `{n,m}` (outside character
 * classes and escapes) made `{min(n, max),}`. Each allows at least every count
 * the original allows and every other operator is monotone, so the screen
 * matches wherever the rule would: it only gives more "maybe"s, which the
 * rule's own RE2 then settles. RE2 compiles a repetition into that many
 * copies, so the screen compiles in half the time (a start-up cost of every
 * logged command).
 */
export function screenSource(source: string, max = SCREEN_MAX_COUNT): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    if (c === "\\") {
      // An escape: the next character, and the braces of \x{41}, \p{Greek}, \P{L}; \Q...\E is literal text.
      let end = i + 2;
      if (source[i + 1] === "Q") {
        const close = source.indexOf("\\E", i + 2);
        end = close === -1 ? source.length : close + 2;
      } else if (/[xpP]/.test(source[i + 1] ?? "") && source[i + 2] === "{") {
        const close = source.indexOf("}", i + 2);
        end = close === -1 ? source.length : close + 1;
      }
      out += source.slice(i, end);
      i = end - 1;
      continue;
    }
    if (inClass) {
      // "[]...]" and "[^]...]" hold a literal "]" first; "[:alpha:]" is a nested name.
      if (c === "[" && source[i + 1] === ":") {
        const close = source.indexOf(":]", i + 2);
        if (close !== -1) {
          out += source.slice(i, close + 2);
          i = close + 1;
          continue;
        }
      }
      if (c === "]") inClass = false;
      out += c;
      continue;
    }
    if (c === "[") {
      inClass = true;
      let j = i + 1;
      if (source[j] === "^") j++;
      if (source[j] === "]") j++;
      out += source.slice(i, j);
      i = j - 1;
      continue;
    }
    if (c === "{") {
      const m = /^\{(\d+)(?:,(\d*))?\}/.exec(source.slice(i));
      if (m !== null) {
        out += `{${Math.min(Number(m[1]), max)},}`;
        i += m[0].length - 1;
        continue;
      }
    }
    out += c;
  }
  return out;
}

/** The default rules' screens, made when the module loads (so the command's start-up snapshot holds them). */
const DEFAULT_SCREENS: readonly string[] = DEFAULT_RULES.flatMap((r) => r.patterns.map((p) => screenSource(p)));

/** A rule's pattern; its RE2 is compiled the first time the Set says it may match (start-up is on every command). */
class Compiled {
  private compiled: RE2 | null = null;
  constructor(
    readonly rule: RedactRule,
    readonly source: string,
  ) {}
  get re(): RE2 {
    return (this.compiled ??= new RE2(this.source, "g"));
  }
}

// What is known of an object key: whether text rules leave it alone, and whether it names a secret field.
interface KeyInfo {
  readonly clean: boolean;
  readonly auth: boolean;
  /** What the key's value is when it names a secret (names.ts), else null. */
  readonly secret: "password" | "secret" | null;
}

const KEY_CACHE_LIMIT = 4096;
/** Strings this long or shorter have what the rules make of them remembered, up to SHORT_RULES_LIMIT of them. */
const SHORT_RULES_LENGTH = 64;
const SHORT_RULES_LIMIT = 8192;

interface Walk {
  counts: Map<string, number>;
  paths: string[];
  dropped: number;
}

/**
 * Replaces secrets with `[REDACTED:rule]`. One instance holds the rules and the
 * secret values the host registered; the session log's writer passes every
 * payload through one before it is written.
 */
export class Redactor {
  private readonly compiled: readonly Compiled[];
  private readonly set: ReturnType<typeof RE2.Set>;
  private readonly maxPaths: number;
  private readonly authKey = new RE2(AUTH_KEY_SOURCE);
  private readonly secrets = new Set<string>();
  // Every form of every registered secret, longest first, so a secret containing
  // another is replaced whole.
  private forms: string[] = [];
  // Payloads repeat the same few keys: what the rules say of each is remembered.
  private readonly keys = new Map<string, KeyInfo>();
  private readonly defaultRules: boolean;
  // During a redactJSON: strings the Set was just shown to match nothing in (rules skips them).
  private screened: ReadonlySet<string> | null = null;
  // What the rules made of short strings, and the counts they added (rules()).
  private readonly shortRules = new Map<string, { text: string; counts: [string, number][] }>();

  constructor(options: RedactorOptions = {}) {
    const rules = options.rules ?? DEFAULT_RULES;
    this.defaultRules = rules === DEFAULT_RULES;
    const compiled: Compiled[] = [];
    for (const rule of rules) for (const p of rule.patterns) compiled.push(new Compiled(rule, p));
    this.compiled = compiled;
    // One pass over a string tells which patterns can match at all; most strings match none.
    // It screens with looser patterns, which compile faster (screenSource).
    this.set = new RE2.Set(rules === DEFAULT_RULES ? DEFAULT_SCREENS : compiled.map((c) => screenSource(c.source)));
    this.maxPaths = options.maxPaths ?? 32;
  }

  /** The rule names, in the order they apply (host-secret first). */
  get ruleNames(): string[] {
    const names = [HOST_SECRET_RULE];
    for (const c of this.compiled) if (!names.includes(c.rule.name)) names.push(c.rule.name);
    return names;
  }

  /**
   * Registers a secret value the host holds (a credential, a token it was given):
   * from now on it is replaced wherever it appears, also JSON-escaped, URL-encoded
   * and base64-encoded. Throws RedactError for a value shorter than MIN_SECRET_LENGTH.
   */
  registerSecret(value: string): void {
    if (typeof value !== "string" || value.length < MIN_SECRET_LENGTH)
      throw new RedactError(
        "REDACT_SECRET_TOO_SHORT",
        `a registered secret must be a string of at least ${MIN_SECRET_LENGTH} characters`,
      );
    if (this.secrets.has(value)) return;
    this.secrets.add(value);
    const forms = new Set(this.forms);
    forms.add(value);
    forms.add(JSON.stringify(value).slice(1, -1));
    forms.add(encodeURIComponent(value));
    if (value.length >= 6) {
      // Unpadded, so the form matches wherever the encoding of the value alone appears.
      let b64 = Buffer.from(value, "utf8").toString("base64");
      while (b64.endsWith("=")) b64 = b64.slice(0, -1);
      forms.add(b64);
      forms.add(Buffer.from(value, "utf8").toString("base64url"));
    }
    this.forms = [...forms].sort((a, b) => b.length - a.length);
    this.keys.clear(); // a key clean before may hold the new secret
  }

  /**
   * What a Redactor made in another thread (the index's preparing thread)
   * needs to redact exactly as this one: `new Redactor()` with these secrets
   * registered. Null when this one has rules of its own (they hold functions).
   */
  threadSpec(): { secrets: string[] } | null {
    return this.defaultRules ? { secrets: [...this.secrets] } : null;
  }

  /** How many secret values are registered. */
  get secretCount(): number {
    return this.secrets.size;
  }

  /** Redacts one string; returns it with the counts per rule (empty when nothing was found). */
  redactText(text: string): { text: string; rules: Record<string, number> } {
    const counts = new Map<string, number>();
    const out = this.string(text, counts);
    return { text: out, rules: Object.fromEntries(counts) };
  }

  /**
   * Redacts every string in a JSON value — object keys too — and replaces values of
   * fields named like secrets (password, token, api_key, Authorization) when they
   * look like credentials. The input is never changed: what changed is copied, the
   * rest shared. Throws RedactError for anything that is not JSON (undefined in an
   * array, NaN, a class instance, a cycle) or nests deeper than MAX_DEPTH.
   */
  redactJSON<T>(value: T): Redaction<T> {
    // Most payloads hold no secret: one check over all their strings at once says so.
    const texts: string[] = [];
    let screened: ReadonlySet<string> | null = null;
    if (!this.precheck(value, texts, [], 0)) {
      const joined = texts.join("\n");
      if (!this.set.test(joined)) {
        // No pattern can match any of these strings (joined, they match every pattern they match
        // alone): the walk below need not ask the Set of them again (rules), a second native call
        // and a second UTF-8 copy of the whole text.
        screened = new Set(texts);
        const secret = this.forms.some((f) => joined.includes(f));
        // One string (a file, a tool's output): its walk runs the encoded-run match anyway, which
        // finds nothing wherever the test would have said no, so the test is a scan done twice.
        if (!secret && texts.length !== 1 && !ENCODED_TEST.test(joined)) return { value, report: null };
      }
    }
    const w: Walk = { counts: new Map(), paths: [], dropped: 0 };
    this.screened = screened;
    let out: T;
    try {
      out = this.walk(value, "", 0, w) as T;
    } finally {
      this.screened = null;
    }
    if (w.counts.size === 0) return { value: out, report: null };
    let total = 0;
    for (const n of w.counts.values()) total += n;
    return {
      value: out,
      report: { rules: Object.fromEntries(w.counts), paths: w.paths, pathsDropped: w.dropped, total },
    };
  }

  private keyInfo(key: string): KeyInfo {
    let info = this.keys.get(key);
    if (!info) {
      const counts = new Map<string, number>();
      info = {
        clean: this.string(key, counts) === key,
        auth: this.authKey.test(key),
        secret: secretNameKind(key),
      };
      if (this.keys.size >= KEY_CACHE_LIMIT) this.keys.clear();
      this.keys.set(key, info);
    }
    return info;
  }

  /**
   * Checks that `v` is JSON (throwing RedactError as walk would) and collects its
   * strings into `texts`. True when the value needs the full walk for another
   * reason: a key the rules change, or a field named like a secret holding a string.
   */
  private precheck(v: unknown, texts: string[], trail: (string | number)[], depth: number): boolean {
    switch (typeof v) {
      case "string":
        // JSON text is parsed and walked (its keys may name secrets): always looked at.
        if (looksLikeJsonText(v)) return true;
        // Joined by newlines, the strings match every pattern they match alone
        // (a newline is a word boundary and whitespace), so this is a superset check.
        if (v.length >= 6 || this.forms.length > 0) texts.push(v);
        return false;
      case "number":
        if (!Number.isFinite(v)) {
          const [p, shown] = at(trail);
          throw new RedactError("REDACT_NOT_JSON", `not JSON at ${shown}: ${v}`, p);
        }
        return false;
      case "boolean":
        return false;
      case "object": {
        if (v === null) return false;
        if (depth >= MAX_DEPTH) {
          const [p, shown] = at(trail);
          throw new RedactError("REDACT_TOO_DEEP", `JSON nested deeper than ${MAX_DEPTH} at ${shown} (or a cycle)`, p);
        }
        let dirty = false;
        if (Array.isArray(v)) {
          for (let i = 0; i < v.length; i++) {
            trail.push(i);
            if (v[i] === undefined) {
              const [p, shown] = at(trail);
              throw new RedactError("REDACT_NOT_JSON", `not JSON at ${shown}: undefined in an array`, p);
            }
            if (this.precheck(v[i], texts, trail, depth + 1)) dirty = true;
            trail.pop();
          }
          return dirty;
        }
        const proto = Object.getPrototypeOf(v);
        if (proto !== Object.prototype && proto !== null) {
          const [p, shown] = at(trail);
          throw new RedactError("REDACT_NOT_JSON", `not JSON at ${shown}: a ${(v as object).constructor?.name ?? "non-plain"} object`, p);
        }
        const obj = v as Record<string, unknown>;
        for (const key of Object.keys(obj)) {
          const e = obj[key];
          if (e === undefined) continue;
          const info = this.keyInfo(key);
          if (!info.clean || (typeof e === "string" && (info.auth || info.secret !== null))) dirty = true;
          trail.push(key);
          if (this.precheck(e, texts, trail, depth + 1)) dirty = true;
          trail.pop();
        }
        return dirty;
      }
      default: {
        const [p, shown] = at(trail);
        throw new RedactError("REDACT_NOT_JSON", `not JSON at ${shown}: ${typeof v}`, p);
      }
    }
  }

  private string(s: string, counts: Map<string, number>, depth = 0): string {
    let out = s;
    if (this.forms.length > 0) out = this.replaceSecrets(out, counts);
    if (out.length < 6) return out;
    // JSON text in a string (a tool's output, a payload quoted in a note): redacted as JSON, keys and all.
    if (depth < 2 && looksLikeJsonText(out)) {
      const j = this.jsonText(out, counts, depth);
      if (j !== null) return j;
    }
    out = this.rules(out, counts);
    // Secrets under base64 or percent-encoding: decoded, looked at, and the encoded run replaced.
    if (depth < 2 && out.length >= 12) out = this.encoded(out, counts, depth);
    return out;
  }

  /** A string that parses as JSON, redacted as a JSON value and written back; null when it is not JSON or nothing changed. */
  private jsonText(s: string, counts: Map<string, number>, depth: number): string | null {
    let parsed: unknown;
    try {
      parsed = JSON.parse(s);
    } catch {
      return null;
    }
    const w: Walk = { counts: new Map(), paths: [], dropped: 0 };
    let red: unknown;
    try {
      red = this.walk(parsed, "", 0, w, depth + 1);
    } catch {
      return null; // deeper than allowed: the text rules take it
    }
    if (w.counts.size === 0) return null;
    for (const [k, n] of w.counts) counts.set(k, (counts.get(k) ?? 0) + n);
    return JSON.stringify(red);
  }

  /**
   * The encoded runs of `s`, each decoded and redacted, a run that held a secret replaced.
   * The runs come from one native match (no callback per run, which cost twice the
   * matching itself on source code, full of long names and paths that look like base64);
   * the string is rebuilt only when a run changed. Matches are leftmost and do not
   * overlap, so each is found again with indexOf from the end of the one before.
   */
  private encoded(s: string, counts: Map<string, number>, depth: number): string {
    const runs = s.match(encodedRunsRe());
    if (runs === null) return s;
    let parts: string[] | null = null;
    let pos = 0; // where the next run is looked for
    let kept = 0; // how much of s is in parts
    for (const run of runs) {
      const at = s.indexOf(run, pos);
      pos = at + run.length;
      const red = this.encodedRun(run, counts, depth);
      if (red === run) continue;
      (parts ??= []).push(s.slice(kept, at), red);
      kept = pos;
    }
    if (parts === null) return s;
    parts.push(s.slice(kept));
    return parts.join("");
  }

  /** One encoded run: the run itself when it decodes to nothing with a secret in it. */
  private encodedRun(run: string, counts: Map<string, number>, depth: number): string {
    const url = run.includes("%");
    let decoded: string | null = null;
    if (url) {
      try {
        decoded = decodeURIComponent(run);
      } catch {
        decoded = null;
      }
    } else decoded = base64Text(run);
    if (decoded === null || decoded === run) return run;
    const inner = new Map<string, number>();
    const red = this.string(decoded, inner, depth + 1);
    if (inner.size === 0) return run;
    for (const [k, n] of inner) counts.set(k, (counts.get(k) ?? 0) + n);
    // A percent-encoded run is kept readable, decoded, its secrets replaced; a base64 one goes whole.
    return url ? red : placeholder([...inner.keys()][0] as string);
  }

  /** The rules' replacements in one string (the Set says which patterns can match). */
  private rules(s: string, counts: Map<string, number>): string {
    if (this.screened?.has(s)) return s;
    // Short strings (keys, JSON's small values) repeat, and each native call has a fixed cost:
    // what the rules do to one is remembered (they depend on nothing but the string).
    const short = s.length <= SHORT_RULES_LENGTH;
    if (short) {
      const known = this.shortRules.get(s);
      if (known !== undefined) {
        for (const [rule, n] of known.counts) counts.set(rule, (counts.get(rule) ?? 0) + n);
        return known.text;
      }
    }
    const found = short ? new Map<string, number>() : counts;
    const out = this.applyRules(s, found);
    if (short) {
      if (this.shortRules.size >= SHORT_RULES_LIMIT) this.shortRules.clear();
      this.shortRules.set(s, { text: out, counts: [...found] });
      for (const [rule, n] of found) counts.set(rule, (counts.get(rule) ?? 0) + n);
    }
    return out;
  }

  private applyRules(s: string, counts: Map<string, number>): string {
    let out = s;
    const hits = this.set.match(out);
    if (hits.length === 0) return out;
    hits.sort((a, b) => a - b);
    for (const i of hits) {
      const { rule, re } = this.compiled[i];
      const mark = placeholder(rule.name);
      out = out.replace(re, (match: string, before: string, secret: string, after: string) => {
        if (secret.length === 0 || secret.includes("[REDACTED:")) return match;
        if (rule.accept && !rule.accept(secret, match)) return match;
        counts.set(rule.name, (counts.get(rule.name) ?? 0) + 1);
        return before + mark + after;
      });
    }
    return out;
  }

  private replaceSecrets(s: string, counts: Map<string, number>): string {
    let out = s;
    const mark = placeholder(HOST_SECRET_RULE);
    for (const f of this.forms) {
      if (out.length < f.length || !out.includes(f)) continue;
      const parts = out.split(f);
      counts.set(HOST_SECRET_RULE, (counts.get(HOST_SECRET_RULE) ?? 0) + parts.length - 1);
      out = parts.join(mark);
    }
    return out;
  }

  // A field named like a secret: its whole value goes, unless it is empty, short, a placeholder, a path or an endpoint.
  private field(key: string, v: string, counts: Map<string, number>): string {
    const info = this.keyInfo(key);
    if (info.auth) {
      const t = v.trim();
      const space = t.indexOf(" ");
      const scheme = space > 0 ? t.slice(0, space) : "";
      const cred = space > 0 ? t.slice(space + 1).trim() : t;
      if (cred.length < 6 || isPlaceholder(cred)) return v;
      counts.set("authorization", (counts.get("authorization") ?? 0) + 1);
      return (scheme ? scheme + " " : "") + placeholder("authorization");
    }
    if (info.secret !== null && secretValue(v, info.secret)) {
      counts.set("generic-assignment", (counts.get("generic-assignment") ?? 0) + 1);
      return placeholder("generic-assignment");
    }
    return v;
  }

  private changed(w: Walk, path: string): void {
    if (w.paths.length < this.maxPaths) w.paths.push(path);
    else w.dropped++;
  }

  private walk(v: unknown, path: string, depth: number, w: Walk, strDepth = 0): unknown {
    switch (typeof v) {
      case "string": {
        const r = this.string(v, w.counts, strDepth);
        if (r !== v) this.changed(w, path);
        return r;
      }
      case "number":
        if (!Number.isFinite(v)) throw new RedactError("REDACT_NOT_JSON", `not JSON at ${path || "/"}: ${v}`, path);
        return v;
      case "boolean":
        return v;
      case "object": {
        if (v === null) return v;
        if (depth >= MAX_DEPTH)
          throw new RedactError("REDACT_TOO_DEEP", `JSON nested deeper than ${MAX_DEPTH} at ${path || "/"} (or a cycle)`, path);
        if (Array.isArray(v)) {
          let copy: unknown[] | null = null;
          for (let i = 0; i < v.length; i++) {
            const e = v[i];
            if (e === undefined)
              throw new RedactError("REDACT_NOT_JSON", `not JSON at ${path}/${i}: undefined in an array`, `${path}/${i}`);
            const r = this.walk(e, `${path}/${i}`, depth + 1, w, strDepth);
            if (r !== e) {
              copy ??= v.slice();
              copy[i] = r;
            }
          }
          return copy ?? v;
        }
        const proto = Object.getPrototypeOf(v);
        if (proto !== Object.prototype && proto !== null)
          throw new RedactError(
            "REDACT_NOT_JSON",
            `not JSON at ${path || "/"}: a ${(v as object).constructor?.name ?? "non-plain"} object`,
            path,
          );
        const obj = v as Record<string, unknown>;
        let copy: Record<string, unknown> | null = null;
        const keys = Object.keys(obj);
        for (let k = 0; k < keys.length; k++) {
          const key = keys[k];
          const e = obj[key];
          if (e === undefined) continue; // absent, as JSON.stringify treats it
          let nkey = this.string(key, w.counts, strDepth);
          if (nkey !== key) {
            copy ??= copyUpTo(obj, keys, k);
            // Two keys redacted alike must not overwrite each other or a later key.
            const base = nkey;
            for (let n = 2; Object.hasOwn(copy, nkey) || keys.includes(nkey); n++) nkey = `${base}#${n}`;
          }
          const memberPath = `${path}/${pointerEscape(nkey)}`;
          if (nkey !== key) this.changed(w, memberPath);
          let r = this.walk(e, memberPath, depth + 1, w, strDepth);
          if (typeof r === "string") {
            const f = this.field(key, r, w.counts);
            if (f !== r) {
              if (r === e && nkey === key) this.changed(w, memberPath);
              r = f;
            }
          }
          if (r !== e) copy ??= copyUpTo(obj, keys, k);
          if (copy) copy[nkey] = r;
        }
        return copy ?? v;
      }
      default:
        throw new RedactError("REDACT_NOT_JSON", `not JSON at ${path || "/"}: ${typeof v}`, path);
    }
  }
}

// Runs that may encode a secret: base64 (standard or URL-safe) of 24 characters or more, or text with percent-escapes.
const ENCODED_SOURCE = "[A-Za-z0-9+/_-]{24,}={0,2}|(?:[A-Za-z0-9._~!$&'()*+,;=:@/?-]*%[0-9A-Fa-f]{2})+[A-Za-z0-9._~!$&'()*+,;=:@/?-]*";
// Compiled on first use: a native RE2 cannot be held in the command's start-up snapshot.
let encodedTest: RE2 | null = null;
let encodedRuns: RE2 | null = null;
const ENCODED_TEST = { test: (s: string): boolean => (encodedTest ??= new RE2(ENCODED_SOURCE)).test(s) };
const encodedRunsRe = (): RE2 => (encodedRuns ??= new RE2(ENCODED_SOURCE, "g"));

/** Whether a string may be JSON text worth parsing: an object or array, not too large. */
function looksLikeJsonText(s: string): boolean {
  if (s.length < 8 || s.length > 4 * 1024 * 1024) return false;
  let i = 0;
  while (i < s.length && (s[i] === " " || s[i] === "\n" || s[i] === "\t" || s[i] === "\r")) i++;
  let j = s.length - 1;
  while (j > i && (s[j] === " " || s[j] === "\n" || s[j] === "\t" || s[j] === "\r")) j--;
  return (s[i] === "{" && s[j] === "}") || (s[i] === "[" && s[j] === "]");
}

/** The text a base64 run decodes to, when it is text (UTF-8, nearly all printable); else null. */
function base64Text(run: string): string | null {
  const body = run.replace(/=+$/, "");
  if (body.length < 24 || body.length % 4 === 1) return null;
  const enc = /[-_]/.test(body) ? "base64url" : "base64";
  // Most long runs are binary (an image, a hash): the first bytes tell, before the whole run is decoded.
  const head = Buffer.from(body.slice(0, 64), enc);
  for (const b of head) if (b < 0x20 && b !== 9 && b !== 10 && b !== 13) return null;
  const bytes = Buffer.from(body, enc);
  if (bytes.length < 16) return null;
  let printable = 0;
  for (const b of bytes) if (b >= 0x20 || b === 9 || b === 10 || b === 13) printable++;
  if (printable < bytes.length * 0.95) return null;
  const text = bytes.toString("utf8");
  return text.includes("\ufffd") ? null : text;
}

function copyUpTo(obj: Record<string, unknown>, keys: string[], k: number): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (let i = 0; i < k; i++) if (obj[keys[i]] !== undefined) copy[keys[i]] = obj[keys[i]];
  return copy;
}

function pointer(trail: readonly (string | number)[]): string {
  let p = "";
  for (const k of trail) p += "/" + (typeof k === "number" ? String(k) : pointerEscape(k));
  return p;
}

// The JSON Pointer of `trail`, and how a message names it ("/" for the root).
function at(trail: readonly (string | number)[]): [string, string] {
  const p = pointer(trail);
  return [p, p || "/"];
}

function pointerEscape(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}
