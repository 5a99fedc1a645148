// File-selection globs with ripgrep's --glob semantics, compiled once and matched incrementally during a walk.
//
// - `*`, `?` and `[...]` match within one path component, `**` spans
//   directories, `{a,b}` is either alternative (minimatch, extglobs off);
// - a glob without a slash matches any component of the path relative to the
//   repository root: `*.py` is a file name at any depth, `tests` selects every
//   file under a directory named tests;
// - a glob with a slash matches from the start of the path, relative to the
//   directory searched or to the repository root (a leading `/` is dropped);
//   matching a directory matches the files under it;
// - a trailing slash matches directories only;
// - a leading `!` negates: the glob keeps every path the rest does not match.
// With several globs the last one that matches a path decides; a path no glob
// matches is kept only when every glob is negated (as ripgrep does).
// State per directory is a bitmask of globs already matched by a directory on
// the way, so a file costs one regular-expression test per glob.

import { Minimatch } from "minimatch";
import { SearchError } from "./errors.js";

interface CompiledGlob {
  readonly source: string;
  readonly negate: boolean;
  readonly dirOnly: boolean;
  /** Slash-free: matched against single components; else against paths. */
  readonly component: boolean;
  readonly re: RegExp;
}

/** The globs of one search. `DirState` is opaque: what directories on the way already matched. */
export interface GlobFilter {
  readonly globs: readonly string[];
  /** The state of the directory searched, from its path relative to the root ("." for the root). */
  initial(searchRel: string): number;
  /** The state of a subdirectory. */
  enterDir(parent: number, name: string, relRoot: string, relSearch: string): number;
  /** Whether a file (or other non-directory entry) is selected. */
  selects(state: number, name: string, relRoot: string, relSearch: string): boolean;
}

const MM_OPTS = { dot: true, noext: true, nocomment: true, nonegate: true, optimizationLevel: 2 } as const;
/** At most this many globs (the state is a 31-bit mask). */
export const MAX_GLOBS = 31;

function compile(source: string): CompiledGlob {
  if (typeof source !== "string" || source === "" || source === "!") throw new SearchError("bad-glob", `empty glob ${JSON.stringify(source)}`);
  let p = source;
  const negate = p.startsWith("!");
  if (negate) p = p.slice(1);
  let dirOnly = false;
  if (p.length > 1 && p.endsWith("/")) {
    dirOnly = true;
    p = p.replace(/\/+$/, "");
  }
  const anchoredSlash = p.startsWith("/");
  p = p.replace(/^\/+/, "");
  if (p === "") throw new SearchError("bad-glob", `glob ${JSON.stringify(source)} names nothing`);
  if (p.includes("\0")) throw new SearchError("bad-glob", `glob ${JSON.stringify(source)} contains NUL`);
  const component = !anchoredSlash && !p.includes("/");
  const re = new Minimatch(p, MM_OPTS).makeRe();
  if (re === false) throw new SearchError("bad-glob", `invalid glob ${JSON.stringify(source)}`);
  return { source, negate, dirOnly, component, re };
}

/** Compiles the globs of a search (none: every file is selected). Throws SearchError "bad-glob". */
export function compileGlobs(globs: string | readonly string[] | undefined | null): GlobFilter | null {
  const list = globs === undefined || globs === null ? [] : typeof globs === "string" ? [globs] : [...globs];
  if (list.length === 0) return null;
  if (list.length > MAX_GLOBS) throw new SearchError("bad-glob", `at most ${MAX_GLOBS} globs`);
  const cs = list.map(compile);
  const anyPositive = cs.some((c) => !c.negate);

  const dirHits = (state: number, name: string, relRoot: string, relSearch: string): number => {
    for (let i = 0; i < cs.length; i++) {
      const bit = 1 << i;
      if (state & bit) continue;
      const c = cs[i] as CompiledGlob;
      const hit = c.component ? c.re.test(name) : c.re.test(relSearch) || (relRoot !== relSearch && c.re.test(relRoot));
      if (hit) state |= bit;
    }
    return state;
  };

  return {
    globs: list,
    initial(searchRel: string): number {
      // Directories above and at the one searched: their components (for
      // slash-free globs) and their paths from the root (for the others).
      let state = 0;
      if (searchRel === "." || searchRel === "") return 0;
      const parts = searchRel.split("/");
      for (let k = 0; k < parts.length; k++) {
        const prefix = parts.slice(0, k + 1).join("/");
        for (let i = 0; i < cs.length; i++) {
          const c = cs[i] as CompiledGlob;
          if (c.component ? c.re.test(parts[k] as string) : c.re.test(prefix)) state |= 1 << i;
        }
      }
      return state;
    },
    enterDir: dirHits,
    selects(state: number, name: string, relRoot: string, relSearch: string): boolean {
      // The last glob that matches decides.
      for (let i = cs.length - 1; i >= 0; i--) {
        const c = cs[i] as CompiledGlob;
        let hit = (state & (1 << i)) !== 0;
        if (!hit && !c.dirOnly) hit = c.component ? c.re.test(name) : c.re.test(relSearch) || (relRoot !== relSearch && c.re.test(relRoot));
        if (hit) return !c.negate;
      }
      return !anyPositive;
    },
  };
}
