// Which files of a working tree the index holds: those git lists, or without git the walk index-grep does, plus paths added whole.
//
// With git: `git ls-files -co --exclude-standard -z`, tracked and untracked
// files that are not ignored, except that under a `.nodwyn` directory only
// tracked ones count (other sessions' worktrees and attachments live there).
// git runs with the repository's fsmonitor hook turned off, so listing never
// runs a program the repository names. Without git, or when git cannot list
// the tree, the scan engine's own walk (fs-find) lists it, exactly as
// index-grep would. A path added with index-update is walked the same way and
// held whole, git's ignores notwithstanding; the walk (and so index-grep's
// rules) still leaves out hidden entries, links and protected files.

import { spawnSync } from "node:child_process";
import type { SearchEngine } from "../search/index.js";

export interface Listing {
  /** Root-relative paths with `/`, unique, in path order (as index-grep orders them). */
  readonly paths: string[];
  /** How the tree was listed. */
  readonly by: "git" | "walk";
}

export interface ListOptions {
  readonly root: string;
  /** The git program, or null to list without it. */
  readonly git: string | null;
  /** Paths added with index-update PATH, walked whole. */
  readonly added: readonly string[];
  readonly search: SearchEngine;
  readonly actor: string;
  readonly signal?: AbortSignal;
}

/**
 * Compares root-relative paths in index-grep's path order: component by
 * component, names by code point (compareNames), a directory's files where the
 * directory's name sorts, as a depth-first walk lists them. One pass over the
 * characters, no split: at the first difference a `/` ends the shorter
 * component (which sorts first), otherwise the two characters decide as
 * compareNames decides; a path that is a prefix of the other sorts first.
 */
export function comparePaths(a: string, b: string): number {
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x === 0x2f) return -1;
    if (y === 0x2f) return 1;
    // A surrogate (an astral character) sorts after every BMP character, as in compareNames.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** What git lists in the tree at `root`, or null when git cannot (not a repository, no git). */
export function gitFiles(root: string, git: string): string[] | null {
  const r = spawnSync(git, ["-c", "core.fsmonitor=", "-c", "core.quotePath=false", "ls-files", "-co", "-t", "--exclude-standard", "-z"], {
    cwd: root,
    encoding: "buffer",
    maxBuffer: 1024 * 1024 * 1024,
    env: { ...process.env, GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (r.error !== undefined || r.status !== 0) return null;
  const out: string[] = [];
  const seen = new Set<string>();
  for (const rec of r.stdout.toString("utf8").split("\0")) {
    if (rec.length < 3) continue;
    const tag = rec[0];
    const path = rec.slice(2);
    // Untracked files under .nodwyn/ are other sessions' worktrees and attachments: never listed.
    if (tag === "?" && (path.startsWith(".nodwyn/") || path.includes("/.nodwyn/"))) continue;
    if (seen.has(path)) continue; // an unmerged file is listed once per stage
    seen.add(path);
    out.push(path);
  }
  return out;
}

/** The files of a tree the index should hold, before its limits. */
export async function listTree(o: ListOptions): Promise<Listing> {
  const fromGit = o.git === null ? null : gitFiles(o.root, o.git);
  const paths = new Set<string>(fromGit ?? (await walk(o, ".")));
  for (const a of o.added) for (const p of await walk(o, a)) paths.add(p);
  return { paths: [...paths].sort(comparePaths), by: fromGit === null ? "walk" : "git" };
}

/** The regular files below `path` as fs-find lists them (no cap on their number). */
async function walk(o: ListOptions, path: string): Promise<string[]> {
  const r = await o.search.find(path, { actor: o.actor, limits: { maxFiles: Infinity, timeoutMs: 10 * 60_000 }, ...(o.signal ? { signal: o.signal } : {}) });
  return r.files;
}
