// The session's repository root: the git top-level of the working directory, else the directory itself.

import { lstatSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/**
 * The git top-level of `cwd`: the nearest directory at or above it that holds a
 * `.git` directory or a `.git` file (worktrees and submodules), found without
 * running git. Outside a repository, `cwd` itself. Symbolic links in `cwd` are
 * resolved first, so the root is a real path.
 */
export function findRepoRoot(cwd: string): string {
  const start = realpathSync(resolve(cwd));
  let dir = start;
  for (;;) {
    try {
      const st = lstatSync(join(dir, ".git"));
      if (st.isDirectory() || st.isFile()) return dir;
    } catch {
      // no .git here: go up
    }
    const up = dirname(dir);
    if (up === dir) return start;
    dir = up;
  }
}
