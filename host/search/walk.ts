// Discovery: the files below a path, in path order, exactly as fs-find lists them and index-grep reads them.
//
// Depth-first, each directory's entries sorted by name in code-point (UTF-8
// byte) order, so `a/x` comes before `a.txt` as with `rg --sort path`. Hidden
// entries (a name starting with a dot) below the path are skipped without being
// counted; symbolic links and other non-regular entries the glob selects are
// counted as "nonregular" and never followed; no ignore file is read. Every
// directory is listed through guard.listDir, so a directory swapped for a link
// during the walk is a denial, not a detour. The walk keeps an explicit stack:
// a deep tree cannot overflow the JS stack.

import type { Dirent } from "node:fs";
import type { Guard, GuardScan } from "../guard/index.js";
import { GuardFileError } from "../guard/index.js";
import type { GlobFilter } from "./glob.js";
import { SearchError } from "./errors.js";

/** Why a candidate was not searched (or, for "protected" and "unreadable", a directory was not entered). */
export type SkipReason =
  | "nonregular" // a symbolic link, FIFO, socket or device
  | "protected" // the guard's denylist (a protected directory counts once)
  | "oversized" // over the per-file read cap
  | "binary" // holds a NUL byte
  | "non-utf8" // not UTF-8 text
  | "withheld" // a checker asked and no one could answer (named in the result)
  | "vanished" // gone between discovery and read
  | "unreadable"; // the operating system refused (permissions)

/** Counts of skipped candidates by reason (only reasons that occurred). */
export type SkipCounts = { [R in SkipReason]?: number };

export function countSkip(s: SkipCounts, r: SkipReason, n = 1): void {
  s[r] = (s[r] ?? 0) + n;
}

/** Deadline, cancellation and yielding to the event loop, shared by the phases of one call. */
export interface Control {
  /** Throws SearchError "timeout" or "aborted". Cheap: call it often. */
  check(): void;
  /** Lets timers and abort events run now and then (the work itself is synchronous). */
  pace(): Promise<void> | void;
}

export interface Discovery {
  /** The path searched, relative to the root ("." for the root). */
  readonly searchRel: string;
  /** The path named one file: it is the only candidate, whatever the glob (as rg does for a named file). */
  readonly explicitFile: boolean;
  /** Regular files selected, relative to the root, in path order (protected ones left out unless kept). */
  readonly candidates: string[];
  readonly skipped: SkipCounts;
}

export interface DiscoverOptions {
  readonly guard: Guard;
  readonly scan: GuardScan;
  /** Who asks (the guard's default actor when undefined). */
  readonly actor: string | undefined;
  readonly filter: GlobFilter | null;
  readonly maxFiles: number;
  readonly control: Control;
  /** For the error message: what the caller asked. */
  readonly describe: string;
  /**
   * Whether discovery leaves out files the denylist protects (fs-find, which
   * reads nothing), or keeps them for the guard to refuse at the read (index-
   * grep: the guard judges each name once, and its refusal is logged).
   */
  readonly keepProtectedFiles?: boolean;
}

/** Compares names by code point, which is UTF-8 byte order (JS `<` compares UTF-16 units). */
export function compareNames(a: string, b: string): number {
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      // A surrogate (an astral character) sorts after every BMP character, U+E000..U+FFFF included.
      const xs = x >= 0xd800 && x <= 0xdfff;
      const ys = y >= 0xd800 && y <= 0xdfff;
      if (xs !== ys) return xs ? 1 : -1;
      return x - y;
    }
  }
  return a.length - b.length;
}

interface Frame {
  readonly rel: string;
  readonly state: number;
  readonly entries: Dirent[];
  i: number;
}

/** Lists the directory sorted, or null when it vanished or cannot be read (counted). A denial propagates. */
function listSorted(o: DiscoverOptions, rel: string, skipped: SkipCounts): Dirent[] | null {
  let entries: Dirent[];
  try {
    entries = o.scan.list(rel);
  } catch (e) {
    if (e instanceof GuardFileError) {
      if (e.code === "not-found" || e.code === "not-directory") return null;
      if (e.code === "io") {
        countSkip(skipped, "unreadable");
        return null;
      }
    }
    throw e;
  }
  entries.sort((a, b) => compareNames(a.name, b.name));
  return entries;
}

/**
 * Discovers the candidates below `path`. The path itself passes the guard's
 * static rules first (a denial is thrown); more than `maxFiles` candidates is
 * SearchError "too-many-files", never a partial list.
 */
export async function discover(path: string, o: DiscoverOptions): Promise<Discovery> {
  const start = o.guard.locate(path, o.actor === undefined ? {} : { actor: o.actor });
  const skipped: SkipCounts = {};
  if (start.kind === "file") return { searchRel: start.relPath, explicitFile: true, candidates: [start.relPath], skipped };
  const searchRel = start.relPath;
  const denylist = o.guard.denylist;
  const filter = o.filter;
  const candidates: string[] = [];
  let count = 0;
  const first = listSorted(o, searchRel, skipped);
  const frames: Frame[] = first === null ? [] : [{ rel: searchRel, state: filter === null ? 0 : filter.initial(searchRel), entries: first, i: 0 }];
  const cut = searchRel === "." ? 0 : searchRel.length + 1;
  while (frames.length > 0) {
    const top = frames[frames.length - 1] as Frame;
    if (top.i >= top.entries.length) {
      frames.pop();
      continue;
    }
    const e = top.entries[top.i++] as Dirent;
    const name = e.name;
    if (name.charCodeAt(0) === 0x2e) continue; // hidden: never listed, never counted
    const relRoot = top.rel === "." ? name : `${top.rel}/${name}`;
    const relSearch = cut === 0 ? relRoot : relRoot.slice(cut);
    if (e.isDirectory()) {
      if (denylist.matchPrefix(relRoot, true) !== null) {
        countSkip(skipped, "protected");
        continue;
      }
      o.control.check();
      const p = o.control.pace();
      if (p !== undefined) await p;
      const entries = listSorted(o, relRoot, skipped);
      if (entries === null) continue;
      frames.push({ rel: relRoot, state: filter === null ? 0 : filter.enterDir(top.state, name, relRoot, relSearch), entries, i: 0 });
      continue;
    }
    if (filter !== null && !filter.selects(top.state, name, relRoot, relSearch)) continue;
    if (!e.isFile()) {
      countSkip(skipped, "nonregular");
      continue;
    }
    if (++count > o.maxFiles) {
      throw new SearchError("too-many-files", `more than ${o.maxFiles} candidate files ${o.describe}: pass a narrower path or a glob`);
    }
    if (o.keepProtectedFiles !== true && denylist.matchPrefix(relRoot, false) !== null) {
      countSkip(skipped, "protected");
      continue;
    }
    candidates.push(relRoot);
  }
  return { searchRel, explicitFile: false, candidates, skipped };
}
