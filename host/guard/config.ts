// The [guard] table of config.toml, checked strictly: every key known, every shape right, every glob valid, or an error naming it.
//
// A person's guard settings live here (config.toml is theirs, not the
// repository's): the hard-link policy, entries added to or removed from the
// denylist, exceptions, case matching, per-turn caps and checker budgets.
// Nothing is ever accepted while a part of it is ignored: an unknown key, a
// value of the wrong shape, an invalid or overlapping glob, a removal of an
// entry the default list does not have — each is a problem naming its key, and
// any problem fails the whole configuration (the caller refuses to start).
// host/config's loader hands its [guard] table here (guardConfigProblems), so
// the problems come with the file's lines and columns.

import { DEFAULT_DENYLIST, denylistEntryProblem, type DenylistConfig } from "./denylist.js";
import type { HardLinkPolicy } from "./guard.js";

/** What a person's [guard] table says, checked. */
export interface GuardSettings {
  readonly hardLinks: HardLinkPolicy;
  /** Entries added to the denylist (exceptions as `!glob`) and default entries removed. */
  readonly denylist: DenylistConfig;
  /** Undefined: found out from the root's file system. */
  readonly caseInsensitive?: boolean;
  readonly maxReadsPerTurn?: number;
  readonly maxBytesPerTurn?: number;
  readonly checkerTimeoutMs?: number;
  readonly checkerSteps?: number;
}

/** The settings of a person with no [guard] table. */
export const DEFAULT_GUARD_SETTINGS: GuardSettings = { hardLinks: "refuse", denylist: {} };

/** One problem of a [guard] table: the key path inside the table (["deny", 2]) and what is wrong. */
export interface GuardConfigProblem {
  readonly path: readonly (string | number)[];
  /** The key as TOML writes it, from the top of the file: guard.deny[2]. */
  readonly key: string;
  readonly message: string;
}

/** The [guard] table's keys and what each takes, for messages and `nodwyn … --help`. */
export const GUARD_KEYS: Readonly<Record<string, string>> = {
  hard_links: '"refuse" (the default) or "allow": whether a file with more than one hard link may be read',
  deny: "an array of globs added to the denylist",
  allow: "an array of globs that are exceptions to the denylist (a file they match is not denied by the entries matching it)",
  remove: "an array of default denylist entries to remove, each exactly as the default list writes it",
  case_insensitive: 'true, false or "auto" (the default): whether your own entries match whatever the case',
  max_reads_per_turn: "a positive integer: file reads allowed per turn",
  max_bytes_per_turn: "a positive integer: bytes read allowed per turn",
  checker_timeout_ms: "a positive integer up to 600000: milliseconds one project checker may take per file",
  checker_steps: "a positive integer up to 1000000000: steps one project checker may take per file",
};

/** A [guard] table that failed its checks. */
export class GuardConfigError extends Error {
  readonly code = "GUARD_CONFIG_INVALID" as const;
  constructor(
    message: string,
    readonly file: string,
    readonly problems: readonly GuardConfigProblem[],
  ) {
    super(message);
    this.name = "GuardConfigError";
  }
}

function keyText(path: readonly (string | number)[]): string {
  let s = "guard";
  for (const p of path) s += typeof p === "number" ? `[${p}]` : /^[A-Za-z0-9_-]+$/.test(p) ? `.${p}` : `.${JSON.stringify(p)}`;
  return s;
}

function kindOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (v instanceof Date) return "a date";
  switch (typeof v) {
    case "string":
      return "a string";
    case "boolean":
      return "a boolean";
    case "number":
    case "bigint":
      return Number.isInteger(Number(v)) ? "an integer" : "a float";
    case "object":
      return "a table";
    default:
      return typeof v;
  }
}

function isTable(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Date);
}

/** The edit distance of two short strings, for "did you mean". */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
  return (d[a.length] as number[])[b.length] as number;
}

/**
 * Checks a [guard] table: the settings when it is right, and every problem
 * found (settings null when there is any). `table` undefined is no table: the
 * defaults.
 */
export function guardConfigProblems(table: unknown): { settings: GuardSettings | null; problems: GuardConfigProblem[] } {
  const problems: GuardConfigProblem[] = [];
  const bad = (path: (string | number)[], message: string): void => {
    problems.push({ path, key: keyText(path), message: `${keyText(path)} ${message}` });
  };
  if (table === undefined) return { settings: DEFAULT_GUARD_SETTINGS, problems };
  if (!isTable(table)) {
    problems.push({ path: [], key: "guard", message: `guard must be a table ([guard]), not ${kindOf(table)}` });
    return { settings: null, problems };
  }
  for (const key of Object.keys(table)) {
    if (Object.hasOwn(GUARD_KEYS, key)) continue;
    const near = Object.keys(GUARD_KEYS)
      .map((k) => [k, distance(k, key)] as const)
      .filter(([, n]) => n <= 3)
      .sort((a, b) => a[1] - b[1])[0];
    bad([key], `is not a setting of the guard${near ? ` (did you mean ${near[0]}?)` : ""}; the settings are ${Object.keys(GUARD_KEYS).join(", ")}`);
  }

  let hardLinks: HardLinkPolicy = "refuse";
  if ("hard_links" in table) {
    const v = table.hard_links;
    if (v === "refuse" || v === "allow") hardLinks = v;
    else bad(["hard_links"], `must be "refuse" or "allow", not ${typeof v === "string" ? JSON.stringify(v) : kindOf(v)}`);
  }

  const globs = (key: "deny" | "allow" | "remove"): string[] => {
    if (!(key in table)) return [];
    const v = table[key];
    if (!Array.isArray(v)) {
      bad([key], `must be an array of strings, not ${kindOf(v)}`);
      return [];
    }
    const out: string[] = [];
    const seen = new Set<string>();
    v.forEach((e, i) => {
      if (typeof e !== "string") return bad([key, i], `must be a string, not ${kindOf(e)}`);
      if (seen.has(e)) return bad([key, i], `repeats ${JSON.stringify(e)}`);
      seen.add(e);
      if (key !== "remove") {
        if (e.startsWith("!")) return bad([key, i], `${JSON.stringify(e)} starts with '!': ${key === "deny" ? "put exceptions in guard.allow" : "write the glob itself, without '!'"}`);
        const p = denylistEntryProblem(e);
        if (p !== null) return bad([key, i], `${JSON.stringify(e)} ${p}`);
      } else if (!DEFAULT_DENYLIST.includes(e)) {
        return bad([key, i], `${JSON.stringify(e)} is not an entry of the default denylist (remove takes entries exactly as host/guard/denylist.ts writes them)`);
      }
      out.push(e);
    });
    return out;
  };
  const deny = globs("deny");
  const allow = globs("allow");
  const remove = globs("remove");
  // The same glob denied and allowed says two things at once: which was meant is not for the guard to guess.
  const denied = new Set(deny.map((g) => g.replace(/\/+$/, "")));
  allow.forEach((g) => {
    if (denied.has(g.replace(/\/+$/, ""))) bad(["allow", (table.allow as unknown[]).indexOf(g)], `${JSON.stringify(g)} is also in guard.deny: keep it in one of them`);
  });
  const defaults = new Set(DEFAULT_DENYLIST);
  deny.forEach((g, i) => {
    if (defaults.has(g)) bad(["deny", i], `${JSON.stringify(g)} is already an entry of the default denylist`);
  });

  let caseInsensitive: boolean | undefined;
  if ("case_insensitive" in table) {
    const v = table.case_insensitive;
    if (typeof v === "boolean") caseInsensitive = v;
    else if (v !== "auto") bad(["case_insensitive"], `must be true, false or "auto", not ${typeof v === "string" ? JSON.stringify(v) : kindOf(v)}`);
  }

  const int = (key: string, max: number): number | undefined => {
    if (!(key in table)) return undefined;
    const v = table[key];
    const n = typeof v === "bigint" ? Number(v) : v;
    if (typeof n !== "number" || !Number.isInteger(n)) {
      bad([key], `must be an integer, not ${kindOf(v)}`);
      return undefined;
    }
    if (n < 1 || n > max) {
      bad([key], `must be between 1 and ${max}, not ${n}`);
      return undefined;
    }
    return n;
  };
  const maxReadsPerTurn = int("max_reads_per_turn", 1_000_000_000);
  const maxBytesPerTurn = int("max_bytes_per_turn", Number.MAX_SAFE_INTEGER);
  const checkerTimeoutMs = int("checker_timeout_ms", 600_000);
  const checkerSteps = int("checker_steps", 1_000_000_000);

  if (problems.length > 0) return { settings: null, problems };
  const add = [...deny, ...allow.map((g) => `!${g}`)];
  return {
    settings: {
      hardLinks,
      denylist: { ...(add.length ? { add } : {}), ...(remove.length ? { remove } : {}) },
      ...(caseInsensitive !== undefined ? { caseInsensitive } : {}),
      ...(maxReadsPerTurn !== undefined ? { maxReadsPerTurn } : {}),
      ...(maxBytesPerTurn !== undefined ? { maxBytesPerTurn } : {}),
      ...(checkerTimeoutMs !== undefined ? { checkerTimeoutMs } : {}),
      ...(checkerSteps !== undefined ? { checkerSteps } : {}),
    },
    problems,
  };
}

/**
 * Checks a [guard] table and returns its settings; throws GuardConfigError
 * listing every problem, each as `file:line:col: guard.key …` when `placeOf`
 * gives places (host/config's loader does), else `file: guard.key …`.
 */
export function parseGuardConfig(table: unknown, file: string, placeOf?: (path: readonly (string | number)[]) => { line: number; col: number }): GuardSettings {
  const { settings, problems } = guardConfigProblems(table);
  if (settings !== null) return settings;
  const lines = problems.map((p) => {
    const at = placeOf?.(["guard", ...p.path]);
    return `${file}${at ? `:${at.line}:${at.col}` : ""}: ${p.message}`;
  });
  throw new GuardConfigError(lines.join("\n"), file, problems);
}
