// Real git repositories in temp folders for the index tests, and an index over one opened in-process.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { CheckerRegistry, createGuard, type Guard, type GuardDecision, type GuardLimits } from "../../../host/guard/index.js";
import { createSearchEngine } from "../../../host/search/index.js";
import { Redactor } from "../../../host/redact/index.js";
import { RepoIndex, type IndexUpdateRecord, type RepoIndexOptions } from "../../../host/index/index.js";

/** git with no user or system configuration, and a fixed identity. */
export const GIT_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.invalid",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.invalid",
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

export interface Repo {
  /** The tree's root (a real path). */
  readonly root: string;
  /** A data directory of its own. */
  readonly dataDir: string;
  /** The temp folder holding both (removed by cleanup). */
  readonly base: string;
  write(rel: string, text: string | Uint8Array): void;
  git(...args: string[]): string;
  cleanup(): void;
}

/**
 * A folder with `files`; with `git` (the default) a repository whose files
 * named in `tracked` (all of them when absent) are committed.
 */
export function makeRepo(files: Record<string, string | Uint8Array>, o: { git?: boolean; tracked?: readonly string[] } = {}): Repo {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "nodwyn-index-")));
  const root = join(base, "repo");
  const dataDir = join(base, "data");
  mkdirSync(root);
  const write = (rel: string, text: string | Uint8Array): void => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  for (const [rel, text] of Object.entries(files)) write(rel, text);
  if (o.git !== false) {
    git(root, "init", "-q", "-b", "main");
    const tracked = o.tracked ?? Object.keys(files);
    if (tracked.length > 0) git(root, "add", "-f", "--", ...tracked);
    git(root, "commit", "-q", "--allow-empty", "-m", "init");
  }
  return { root, dataDir, base, write, git: (...args) => git(root, ...args), cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

export interface Opened {
  readonly index: RepoIndex;
  readonly guard: Guard;
  readonly checkers: CheckerRegistry;
  /** Every guard decision, in order. */
  readonly decisions: GuardDecision[];
  /** Every index.update payload, in order. */
  readonly records: IndexUpdateRecord[];
  readonly redactor: Redactor;
}

/** An index over the tree at `root`, as a session makes one (a real guard, scan engine and redactor). */
export function openIndex(
  root: string,
  dataDir: string,
  o: Partial<Omit<RepoIndexOptions, "guard" | "search" | "redactor" | "dataDir">> & { checkers?: CheckerRegistry; guardLimits?: GuardLimits; redactor?: Redactor } = {},
): Opened {
  const decisions: GuardDecision[] = [];
  const records: IndexUpdateRecord[] = [];
  const checkers = o.checkers ?? new CheckerRegistry();
  const guard = createGuard({ root, checkers, log: (d) => decisions.push(d), ...(o.guardLimits ? { limits: o.guardLimits } : {}) });
  const search = createSearchEngine(guard, {}, { readingThread: "never" });
  const redactor = o.redactor ?? new Redactor();
  const { checkers: _c, guardLimits: _g, redactor: _r, ...rest } = o;
  // The real budgets are wall-clock time: on a loaded machine a test would see a partial index. A test of the
  // budgets sets its own, with its own clock.
  const limits = { searchBudgetMs: 600_000, updateBudgetMs: 600_000, ...o.limits };
  const index = new RepoIndex({ guard, search, redactor, dataDir, record: (p) => records.push(p), ...rest, limits });
  return { index, guard, checkers, decisions, records, redactor };
}
