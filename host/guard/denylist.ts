// The default denylist of secret files, and how a project's configuration extends or narrows it.
//
// Entries are globs matched against the path relative to the repository root,
// with gitignore-like placement rules (documented on DEFAULT_DENYLIST). They are
// compiled once per guard into two combined regular expressions (one for
// directories on the way, one for the file itself), because a search asks about
// thousands of files per call.

import { Minimatch } from "minimatch";

/**
 * Secret files nodwyn never reads, whatever a checker says.
 *
 * Placement rules (like .gitignore):
 * - an entry without a slash matches any component of the path: the file's own
 *   name, or any directory on the way (then everything below it is denied);
 * - a trailing slash (`.ssh/`) matches directories only;
 * - an entry with a slash elsewhere (`.aws/credentials`) matches that run of
 *   components at any depth; a leading slash anchors it at the repository root;
 * - `*`, `?`, `[...]`, `{a,b}` and `**` as in fs-find globs; matching is case-sensitive;
 * - an entry starting with `!` is an exception: a path component that an
 *   exception matches is not denied by the entries matching that same
 *   component. An exception for a file (`!.env.example`) therefore never
 *   re-opens a file inside a denied directory (`.ssh/.env.example` stays denied).
 */
export const DEFAULT_DENYLIST: readonly string[] = [
  // Environment files with credentials; their checked-in templates are not secrets.
  ".env",
  ".env.*",
  "!.env.example",
  "!.env.sample",
  "!.env.template",
  "*.env", // prod.env, secrets.env
  "!*.example.env",
  // Private keys and certificates with keys.
  "*.pem",
  "*.key",
  "*.ppk", // PuTTY
  "id_rsa*",
  "id_dsa*",
  "id_ecdsa*",
  "id_ed25519*",
  "*.gpg-key",
  "secring.*",
  // Key stores.
  "*.jks",
  "*.keystore",
  "*.bks",
  "*.p12",
  "*.pfx",
  "*.kdbx",
  "*.kdb",
  // Home-directory credential folders and files, wherever they appear in a tree.
  ".ssh/",
  ".gnupg/",
  ".aws/credentials",
  ".aws/sso/",
  ".azure/",
  ".config/gcloud/",
  ".kube/config",
  ".docker/config.json",
  ".dockercfg",
  ".netrc",
  "_netrc",
  ".npmrc",
  ".pypirc",
  ".gem/credentials",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".git-credentials",
  ".pgpass",
  ".my.cnf",
  ".s3cfg",
  ".boto",
  ".vault-token",
  ".terraformrc",
  "terraform.rc",
  ".htpasswd",
  // Files that carry tokens or secrets by convention.
  "credentials.json",
  "client_secret*.json",
  "*.tfstate",
  "*.tfstate.backup",
];

/** A project's changes to the default list (from its configuration). */
export interface DenylistConfig {
  /** Entries added after the defaults (an `!entry` adds an exception). */
  readonly add?: readonly string[];
  /** Default entries removed, by their exact text (e.g. "*.key" for a project whose .key files are not keys). */
  readonly remove?: readonly string[];
}

/** The compiled list: `match(relPath, isDir)` returns the entry that denies, or null. */
export interface Denylist {
  /** The entries in effect, in order. */
  readonly entries: readonly string[];
  /** The denying entry for a path relative to the root ("a/b/c"), or null. `isDir` says what the last component is. */
  match(relPath: string, isDir: boolean): string | null;
  /** The denying entry for one prefix of a path, deciding only about its last component. */
  matchPrefix(prefix: string, isDir: boolean): string | null;
}

interface Compiled {
  readonly entry: string;
  readonly negate: boolean;
  readonly dirOnly: boolean;
  /** 0: matched against the whole prefix; k > 0: against its last k components. */
  readonly span: number;
  /** The glob as matched (without `!`, slashes or the `**\/` prefix). */
  readonly glob: string;
  readonly re: RegExp;
}

const MM_OPTS = { dot: true, noext: true, nocomment: true, nonegate: true, optimizationLevel: 2 } as const;

function compileEntry(entry: string): Compiled {
  let p = entry;
  const negate = p.startsWith("!");
  if (negate) p = p.slice(1);
  let dirOnly = false;
  if (p.endsWith("/")) {
    dirOnly = true;
    p = p.replace(/\/+$/, "");
  }
  let anchored = false;
  if (p.startsWith("/")) {
    anchored = true;
    p = p.replace(/^\/+/, "");
  }
  if (p === "") throw new Error(`denylist entry ${JSON.stringify(entry)} is empty`);
  // An unanchored entry of k components without `**` can only match the last k
  // components of a prefix: testing just those keeps the regular expressions
  // short (a search asks about thousands of paths). Otherwise `**/` lets one
  // expression try every depth.
  const parts = p.split("/");
  const span = anchored || parts.includes("**") ? 0 : parts.length;
  const glob = span === 0 && !anchored ? `**/${p}` : p;
  const re = new Minimatch(glob, MM_OPTS).makeRe();
  if (re === false) throw new Error(`denylist entry ${JSON.stringify(entry)} is not a valid glob`);
  return { entry, negate, dirOnly, span, glob: p, re };
}

const PLAIN = /^[^*?[\]{}\\()!+@]+$/;

/**
 * A set of entries, matched against one string. Entries of one component that
 * are an exact name, `*` + a suffix starting with a dot, or a prefix + `*` —
 * most of the default list — are looked up without regular expressions (a
 * search asks about thousands of names); the others share one combined
 * regular expression. find() names the last entry that matches.
 */
class EntrySet {
  private readonly items: readonly Compiled[];
  private readonly exact = new Map<string, number>();
  private readonly suffix = new Map<string, number>();
  private readonly prefix: Array<[string, number]> = [];
  private readonly others: number[] = [];
  private readonly all: RegExp | null;

  constructor(items: readonly Compiled[]) {
    this.items = items;
    items.forEach((c, i) => {
      const g = c.glob;
      if (c.span === 1 && PLAIN.test(g)) this.exact.set(g, i);
      else if (c.span === 1 && g.startsWith("*.") && PLAIN.test(g.slice(1))) this.suffix.set(g.slice(1), i);
      else if (c.span === 1 && g.endsWith("*") && PLAIN.test(g.slice(0, -1))) this.prefix.push([g.slice(0, -1), i]);
      else this.others.push(i);
    });
    let all: RegExp | null = null;
    if (this.others.length > 1) {
      const res = this.others.map((i) => (items[i] as Compiled).re);
      const unicode = res.some((r) => r.flags.includes("u"));
      try {
        all = new RegExp(`^(?:${res.map((r) => `(?:${r.source})`).join("|")})$`, unicode ? "u" : "");
      } catch {
        all = null; // a combination the engine rejects: test entry by entry
      }
    }
    this.all = all;
  }

  /** The last entry matching `s`, or null. */
  find(s: string): string | null {
    if (this.items.length === 0) return null;
    let best = this.exact.get(s) ?? -1;
    if (this.suffix.size > 0) {
      for (let i = s.indexOf("."); i !== -1; i = s.indexOf(".", i + 1)) {
        const k = this.suffix.get(s.slice(i));
        if (k !== undefined && k > best) best = k;
      }
    }
    for (const [p, k] of this.prefix) if (k > best && s.startsWith(p)) best = k;
    if (this.others.length > 0 && (this.all === null || this.all.test(s))) {
      for (let j = this.others.length - 1; j >= 0; j--) {
        const k = this.others[j] as number;
        if (k <= best) break;
        if ((this.items[k] as Compiled).re.test(s)) {
          best = k;
          break;
        }
      }
    }
    return best === -1 ? null : (this.items[best] as Compiled).entry;
  }
}

/** The entries of one (negate, directory?) combination, grouped by span. */
class SpanGroup {
  private readonly bySpan: Array<[number, EntrySet]>;
  constructor(items: readonly Compiled[]) {
    const spans = [...new Set(items.map((c) => c.span))].sort((a, b) => a - b);
    this.bySpan = spans.map((k) => [k, new EntrySet(items.filter((c) => c.span === k))]);
  }
  find(prefix: string): string | null {
    for (const [k, set] of this.bySpan) {
      const s = k === 0 ? prefix : lastComponents(prefix, k);
      if (s === null) continue;
      const hit = set.find(s);
      if (hit !== null) return hit;
    }
    return null;
  }
}

/** The last k components of a path, or null when it has fewer. */
function lastComponents(path: string, k: number): string | null {
  let i = path.length;
  for (let n = 0; n < k; n++) {
    if (i < 0) return null;
    i = path.lastIndexOf("/", i - 1);
  }
  return path.slice(i + 1);
}

/** Builds the denylist in effect: the defaults, minus `remove`, plus `add`. Throws on an invalid entry. */
export function compileDenylist(config: DenylistConfig = {}, defaults: readonly string[] = DEFAULT_DENYLIST): Denylist {
  const removed = new Set(config.remove ?? []);
  const entries = [...defaults.filter((e) => !removed.has(e)), ...(config.add ?? [])];
  const compiled = entries.map(compileEntry);
  const group = (negate: boolean, dir: boolean) => new SpanGroup(compiled.filter((c) => c.negate === negate && (dir || !c.dirOnly)));
  const denyDir = group(false, true);
  const denyFile = group(false, false);
  const exceptDir = group(true, true);
  const exceptFile = group(true, false);

  const matchPrefix = (prefix: string, isDir: boolean): string | null => {
    const hit = (isDir ? denyDir : denyFile).find(prefix);
    if (hit === null) return null;
    return (isDir ? exceptDir : exceptFile).find(prefix) === null ? hit : null;
  };
  return {
    entries,
    matchPrefix,
    match(relPath: string, isDir: boolean): string | null {
      if (relPath === "" || relPath === ".") return null;
      // Each directory on the way, then the path itself.
      let i = relPath.indexOf("/");
      while (i !== -1) {
        const hit = matchPrefix(relPath.slice(0, i), true);
        if (hit !== null) return hit;
        i = relPath.indexOf("/", i + 1);
      }
      return matchPrefix(relPath, isDir);
    },
  };
}
