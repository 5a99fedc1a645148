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
  | "nonregular" // a symbolic link, FIFO, socket or device, or a file with more than one hard link
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
 * Discovery as it goes: the candidates below a path in path order, a few at a
 * time, so a search can read the first files while the walk goes on (see
 * GrepRun). `start` checks the path and lists it; `take` walks on until it
 * has the candidates asked for; `finish` walks the rest without keeping them,
 * for the skip counts and the cap. More than `maxFiles` candidates is
 * SearchError "too-many-files", thrown by whichever call meets the one too many.
 */
export class Walk {
  private readonly frames: Frame[];
  private readonly buffer: string[] = [];
  /** Index in `buffer` of the next candidate to hand out. */
  private head = 0;
  private count = 0;
  private readonly cut: number;

  private constructor(
    private readonly o: DiscoverOptions,
    /** The path searched, relative to the root ("." for the root). */
    readonly searchRel: string,
    /** The path named one file: it is the only candidate, whatever the glob (as rg does for a named file). */
    readonly explicitFile: boolean,
    readonly skipped: SkipCounts,
    first: Dirent[] | null,
  ) {
    const filter = o.filter;
    this.frames = first === null ? [] : [{ rel: searchRel, state: filter === null ? 0 : filter.initial(searchRel), entries: first, i: 0 }];
    this.cut = searchRel === "." ? 0 : searchRel.length + 1;
    if (explicitFile) this.buffer.push(searchRel);
  }

  /** Checks the path against the guard's static rules (a denial is thrown) and lists it. */
  static start(path: string, o: DiscoverOptions): Walk {
    const start = o.guard.locate(path, o.actor === undefined ? {} : { actor: o.actor });
    const skipped: SkipCounts = {};
    if (start.kind === "file") return new Walk(o, start.relPath, true, skipped, null);
    return new Walk(o, start.relPath, false, skipped, listSorted(o, start.relPath, skipped));
  }

  /** Whether every candidate has been handed out. */
  get exhausted(): boolean {
    return this.head === this.buffer.length && this.frames.length === 0;
  }

  /** Candidates found and not handed out yet. */
  get waiting(): number {
    return this.buffer.length - this.head;
  }

  /** Walks until `n` candidates wait (or the walk is over). */
  async fill(n: number): Promise<void> {
    while (this.buffer.length - this.head < n && this.frames.length > 0) {
      if (this.step(true)) {
        const p = this.o.control.pace();
        if (p !== undefined) await p;
      }
    }
  }

  /** The next candidates, at most `n` (none when exhausted). */
  async take(n: number): Promise<string[]> {
    await this.fill(n);
    const end = Math.min(this.head + n, this.buffer.length);
    const out = this.buffer.slice(this.head, end);
    this.head = end;
    if (this.head === this.buffer.length) {
      this.buffer.length = 0;
      this.head = 0;
    }
    return out;
  }

  /** Walks the rest without keeping its candidates: the skip counts and the cap cover the whole tree. */
  async finish(): Promise<void> {
    while (this.frames.length > 0) {
      if (this.step(false)) {
        const p = this.o.control.pace();
        if (p !== undefined) await p;
      }
    }
  }

  /** Walks one entry, keeping it when it is a candidate; true when it listed a directory. */
  private step(keep: boolean): boolean {
    const o = this.o;
    const skipped = this.skipped;
    const frames = this.frames;
    const top = frames[frames.length - 1] as Frame;
    if (top.i >= top.entries.length) {
      frames.pop();
      return false;
    }
    const e = top.entries[top.i++] as Dirent;
    const name = e.name;
    if (name.charCodeAt(0) === 0x2e) return false; // hidden: never listed, never counted
    const relRoot = top.rel === "." ? name : `${top.rel}/${name}`;
    const cut = this.cut;
    const relSearch = cut === 0 ? relRoot : relRoot.slice(cut);
    const filter = o.filter;
    if (e.isDirectory()) {
      if (o.guard.denylist.matchPrefix(relRoot, true) !== null) {
        countSkip(skipped, "protected");
        return false;
      }
      o.control.check();
      const entries = listSorted(o, relRoot, skipped);
      if (entries !== null) frames.push({ rel: relRoot, state: filter === null ? 0 : filter.enterDir(top.state, name, relRoot, relSearch), entries, i: 0 });
      return true;
    }
    if (filter !== null && !filter.selects(top.state, name, relRoot, relSearch)) return false;
    if (!e.isFile()) {
      countSkip(skipped, "nonregular");
      return false;
    }
    if (++this.count > o.maxFiles) {
      throw new SearchError("too-many-files", `more than ${o.maxFiles} candidate files ${o.describe}: pass a narrower path or a glob`);
    }
    if (o.keepProtectedFiles !== true && o.guard.denylist.matchPrefix(relRoot, false) !== null) {
      countSkip(skipped, "protected");
      return false;
    }
    if (keep) this.buffer.push(relRoot);
    return false;
  }
}

/**
 * Discovers all the candidates below `path` (fs-find). The path itself passes
 * the guard's static rules first (a denial is thrown); more than `maxFiles`
 * candidates is SearchError "too-many-files", never a partial list.
 */
export async function discover(path: string, o: DiscoverOptions): Promise<Discovery> {
  const walk = Walk.start(path, o);
  const candidates = await walk.take(Infinity);
  return { searchRel: walk.searchRel, explicitFile: walk.explicitFile, candidates, skipped: walk.skipped };
}
