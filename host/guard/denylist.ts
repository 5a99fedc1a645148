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
 * - `*`, `?`, `[...]`, `{a,b}` and `**` as in fs-find globs;
 * - these default entries match whatever the case of the name (`.ENV`,
 *   `ID_RSA`, `Credentials.json` hold what `.env`, `id_rsa` and
 *   `credentials.json` hold); a project's own entries match case-sensitively,
 *   or whatever the case on a file system that ignores case;
 * - names are compared in Unicode normalisation form C, so an NFD spelling (as
 *   macOS writes names) matches its NFC entry;
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
  ".envrc", // direnv: exported variables, often tokens
  // Private keys and certificates with keys.
  "*.pem",
  "*.key",
  "*.ppk", // PuTTY
  "*.p8", // Apple and other PKCS#8 private keys (AuthKey_….p8)
  "id_rsa*",
  "id_dsa*",
  "id_ecdsa*",
  "id_ed25519*",
  "ssh_host_*_key", // an SSH server's host keys (their .pub halves are public)
  "ssh_host_key",
  "*.gpg-key",
  "secring.*",
  "*.ovpn", // VPN profiles embed their keys
  // Key stores, password stores and keychains.
  "*.jks",
  "*.keystore",
  "*.bks",
  "*.p12",
  "*.pfx",
  "*.pkcs12",
  "*.kdbx",
  "*.kdb",
  "*.psafe3",
  "*.agilekeychain",
  "*.opvault",
  "*.1pif",
  "*.keychain",
  "*.keychain-db",
  "*.keyring",
  "*.kwl",
  "Library/Keychains/",
  ".local/share/keyrings/",
  ".local/share/kwalletd/",
  ".password-store/",
  ".config/op/",
  "wallet.dat",
  // Home-directory credential folders and files, wherever they appear in a tree.
  ".ssh/",
  ".gnupg/",
  ".aws/",
  ".azure/",
  ".config/gcloud/",
  ".oci/",
  ".aliyun/",
  ".bluemix/",
  ".config/doctl/",
  ".config/scw/",
  ".config/linode-cli",
  ".fly/",
  ".config/gh/hosts.yml",
  ".config/hub",
  ".databrickscfg",
  ".terraform.d/credentials.tfrc.json",
  ".terraformrc",
  "terraform.rc",
  ".kube/",
  ".minikube/",
  "kubeconfig",
  "*.kubeconfig",
  "kubernetes.io/serviceaccount/",
  ".docker/config.json",
  ".dockercfg",
  ".netrc",
  "_netrc",
  ".npmrc",
  ".pypirc",
  ".gem/credentials",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".m2/settings.xml",
  ".m2/settings-security.xml",
  ".gradle/gradle.properties",
  ".composer/auth.json",
  ".config/composer/auth.json",
  ".git/config", // remote URLs with tokens in them
  ".git-credentials",
  ".config/git/credentials",
  ".gitcookies",
  ".pgpass",
  ".my.cnf",
  ".mylogin.cnf",
  ".s3cfg",
  ".boto",
  ".vault-token",
  ".credentials",
  ".tugboat",
  ".htpasswd",
  "rclone.conf",
  // Shell and REPL histories: commands typed with their passwords and tokens.
  "*_history", // .bash_history, .zsh_history, .python_history, .node_repl_history, .psql_history, .mysql_history, fish_history, …
  ".*history", // .zhistory, .history, .Rhistory
  ".histfile",
  "ConsoleHost_history.txt", // PowerShell
  "repl_history.jl", // Julia
  ".lesshst",
  ".viminfo",
  ".dbshell", // the mongo shell
  // Browser profiles: saved passwords, cookies, session tokens.
  ".mozilla/",
  ".config/google-chrome/",
  ".config/chromium/",
  ".config/BraveSoftware/",
  ".config/microsoft-edge/",
  ".config/vivaldi/",
  ".config/opera/",
  "Library/Application Support/Google/Chrome/",
  "Library/Application Support/Firefox/",
  "Library/Safari/",
  "Library/Cookies/",
  "AppData/Local/Google/Chrome/User Data/",
  "AppData/Roaming/Mozilla/Firefox/",
  "logins.json",
  "key3.db",
  "key4.db",
  "signons.sqlite",
  "cookies.sqlite",
  "Login Data",
  // Files that carry tokens or secrets by convention.
  "credentials.json",
  "*-credentials.json",
  "*_credentials.json",
  "client_secret*.json",
  "*service-account*.json", // Google Cloud service-account keys, Firebase's serviceAccountKey.json
  "*service_account*.json",
  "*serviceaccount*.json",
  "application_default_credentials.json",
  "*.tfstate",
  "*.tfstate.backup",
  "*.tfvars",
  "secrets.yml",
  "secrets.yaml",
  "secrets.json",
  "secrets.toml",
  "etc/shadow",
  "etc/gshadow",
  "etc/master.passwd",
  // Tools that keep server passwords in their settings.
  "wp-config.php",
  "proftpdpasswd",
  "recentservers.xml", // FileZilla
  "sitemanager.xml",
  "filezilla.xml",
  "robomongo.json",
  "dbeaver-data-sources.xml",
  "credentials-config.json", // DBeaver
  ".idea/WebServers.xml",
  ".idea/dataSources.local.xml",
  "sftp-config.json",
  ".vscode/sftp.json",
  ".ftpconfig",
  ".remote-sync.json",
  "deployment-config.json",
  "heroku.json",
  "ventrilo_srv.ini",
  ".esmtprc",
  ".msmtprc",
  ".fetchmailrc",
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
  /** Matched whatever the case (a default entry, or any entry on a case-insensitive file system). */
  readonly nocase: boolean;
  /** 0: matched against the whole prefix; k > 0: against its last k components. */
  readonly span: number;
  /** The glob as matched (without `!`, slashes or the `**\/` prefix), in NFC, lower-cased when nocase. */
  readonly glob: string;
  readonly re: RegExp;
}

const MM_OPTS = { dot: true, noext: true, nocomment: true, nonegate: true, optimizationLevel: 2 } as const;

/** Why an entry cannot be compiled, or null: the checks a configuration's entries must pass. */
export function denylistEntryProblem(entry: string): string | null {
  if (typeof entry !== "string") return "is not a string";
  let p = entry.startsWith("!") ? entry.slice(1) : entry;
  p = p.replace(/\/+$/, "").replace(/^\/+/, "");
  if (p === "") return "is empty";
  if (entry.includes("\0")) return "holds a NUL character";
  if (entry.includes("\\")) return "holds a backslash (paths use /, and nothing needs escaping)";
  if (p.split("/").some((c) => c === "" || c === "." || c === "..")) return "has an empty, '.' or '..' component";
  let depth = 0;
  let braces = 0;
  for (const ch of p) {
    if (ch === "[") depth++;
    else if (ch === "]") depth = Math.max(0, depth - 1);
    else if (ch === "{" && depth === 0) braces++;
    else if (ch === "}" && depth === 0) braces--;
    if (braces < 0) return "has a '}' without its '{'";
  }
  if (depth !== 0) return "has a '[' without its ']'";
  if (braces !== 0) return "has a '{' without its '}'";
  if (new Minimatch(p, MM_OPTS).makeRe() === false) return "is not a valid glob";
  return null;
}

function compileEntry(entry: string, nocase: boolean): Compiled {
  const problem = denylistEntryProblem(entry);
  if (problem !== null) throw new Error(`denylist entry ${JSON.stringify(entry)} ${problem}`);
  let p = entry.normalize("NFC");
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
  if (nocase) p = p.toLowerCase();
  // An unanchored entry of k components without `**` can only match the last k
  // components of a prefix: testing just those keeps the regular expressions
  // short (a search asks about thousands of paths). Otherwise `**/` lets one
  // expression try every depth.
  const parts = p.split("/");
  const span = anchored || parts.includes("**") ? 0 : parts.length;
  const glob = span === 0 && !anchored ? `**/${p}` : p;
  const re = new Minimatch(glob, MM_OPTS).makeRe();
  if (re === false) throw new Error(`denylist entry ${JSON.stringify(entry)} is not a valid glob`);
  return { entry, negate, dirOnly, nocase, span, glob: p, re };
}

const PLAIN = /^[^*?[\]{}\\()!+@]+$/;

/**
 * A set of entries of one case rule, matched against one string (already in
 * NFC, and lower-cased for a nocase set). Entries of one component that are an
 * exact name, `*` + a suffix starting with a dot, or a prefix + `*` — most of
 * the default list — are looked up without regular expressions (a search asks
 * about thousands of names); the others share one combined regular
 * expression. find() gives the index of the last entry that matches, or -1.
 */
class EntrySet {
  private readonly items: readonly Compiled[];
  private readonly index: readonly number[];
  private readonly exact = new Map<string, number>();
  private readonly suffix = new Map<string, number>();
  private readonly prefix: Array<[string, number]> = [];
  private readonly others: number[] = [];
  private readonly all: RegExp | null;

  /** `items` with their indexes in the whole list (so two sets' answers compare). */
  constructor(items: readonly Compiled[], index: readonly number[]) {
    this.items = items;
    this.index = index;
    items.forEach((c, i) => {
      const g = c.glob;
      const k = index[i] as number;
      if (c.span === 1 && PLAIN.test(g)) this.exact.set(g, k);
      else if (c.span === 1 && g.startsWith("*.") && PLAIN.test(g.slice(1))) this.suffix.set(g.slice(1), k);
      else if (c.span === 1 && g.endsWith("*") && PLAIN.test(g.slice(0, -1))) this.prefix.push([g.slice(0, -1), k]);
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

  get size(): number {
    return this.items.length;
  }

  /** The index (in the whole list) of the last entry matching `s`, or -1. */
  find(s: string): number {
    if (this.items.length === 0) return -1;
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
        const i = this.others[j] as number;
        const k = this.index[i] as number;
        if (k <= best) break;
        if ((this.items[i] as Compiled).re.test(s)) {
          best = k;
          break;
        }
      }
    }
    return best;
  }
}

/** The entries of one (negate, directory?) combination, grouped by span and case rule. */
class SpanGroup {
  private readonly bySpan: Array<[number, EntrySet, EntrySet]>;
  private readonly entries: readonly Compiled[];
  constructor(all: readonly Compiled[], pick: (c: Compiled) => boolean) {
    this.entries = all;
    const spans = [...new Set(all.filter(pick).map((c) => c.span))].sort((a, b) => a - b);
    const set = (k: number, nocase: boolean): EntrySet => {
      const idx: number[] = [];
      all.forEach((c, i) => {
        if (pick(c) && c.span === k && c.nocase === nocase) idx.push(i);
      });
      return new EntrySet(
        idx.map((i) => all[i] as Compiled),
        idx,
      );
    };
    this.bySpan = spans.map((k) => [k, set(k, false), set(k, true)]);
  }
  /** The last entry (in list order) matching `prefix` at the smallest span that matches; null when none. */
  find(prefix: string, lower: () => string): string | null {
    for (const [k, cs, ci] of this.bySpan) {
      let best = -1;
      if (cs.size > 0) {
        const s = k === 0 ? prefix : lastComponents(prefix, k);
        if (s !== null) best = cs.find(s);
      }
      if (ci.size > 0) {
        const l = lower();
        const s = k === 0 ? l : lastComponents(l, k);
        if (s !== null) best = Math.max(best, ci.find(s));
      }
      if (best !== -1) return (this.entries[best] as Compiled).entry;
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

/** Options of compileDenylist. */
export interface DenylistOptions {
  /** The file system ignores case: a project's own entries match whatever the case too (the defaults always do). */
  readonly caseInsensitive?: boolean;
}

// Only what is not plain ASCII needs normalising (most paths are ASCII).
const NON_ASCII = /[^\u0000-\u007f]/;

/** Builds the denylist in effect: the defaults, minus `remove`, plus `add`. Throws on an invalid entry. */
export function compileDenylist(config: DenylistConfig = {}, defaults: readonly string[] = DEFAULT_DENYLIST, options: DenylistOptions = {}): Denylist {
  const removed = new Set(config.remove ?? []);
  const kept = defaults.filter((e) => !removed.has(e));
  const added = config.add ?? [];
  const entries = [...kept, ...added];
  const compiled = [...kept.map((e) => compileEntry(e, true)), ...added.map((e) => compileEntry(e, options.caseInsensitive === true))];
  const group = (negate: boolean, dir: boolean) => new SpanGroup(compiled, (c) => c.negate === negate && (dir || !c.dirOnly));
  const denyDir = group(false, true);
  const denyFile = group(false, false);
  const exceptDir = group(true, true);
  const exceptFile = group(true, false);

  const matchPrefix = (raw: string, isDir: boolean): string | null => {
    const prefix = NON_ASCII.test(raw) ? raw.normalize("NFC") : raw;
    let low: string | null = null;
    const lower = (): string => (low ??= prefix.toLowerCase());
    const hit = (isDir ? denyDir : denyFile).find(prefix, lower);
    if (hit === null) return null;
    return (isDir ? exceptDir : exceptFile).find(prefix, lower) === null ? hit : null;
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
