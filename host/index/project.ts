// Where a repository's index lives: the project key from git's common directory, and the files under projects/<key>/index.
//
// All the worktrees of a repository share git's common directory (the main
// worktree's .git), so a key derived from it gives them one index. It is found
// as git finds it, without running git: `.git` is a directory (the common
// directory, unless it holds a `commondir` file) or a file `gitdir: PATH`
// naming the worktree's own git directory, whose `commondir` file names the
// common one. Outside git, the key is derived from the tree's root.

import { createHash } from "node:crypto";
import { lstatSync, readFileSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

/** A working tree, and where its repository's index is kept. */
export interface ProjectPaths {
  /** The working tree's root (a real path). */
  readonly root: string;
  /** The tree's own git directory, when it is in git. */
  readonly gitDir: string | null;
  /** Git's common directory (the repository), when in git. */
  readonly commonDir: string | null;
  /** projects/<key>: names the repository, shared by its worktrees. */
  readonly key: string;
  /** Names this working tree among the repository's (its manifest's file name). */
  readonly treeKey: string;
  /** <data dir>/projects/<key>/index: everything in it is derived. */
  readonly indexDir: string;
}

function digest(s: string, hexChars = 16): string {
  return createHash("sha256").update(s).digest("hex").slice(0, hexChars);
}

/** A directory name made of a repository's name: letters, digits, `.`, `_`, `-`; at most 40 characters. */
function slug(name: string): string {
  const s = name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[.-]+/, "").slice(0, 40);
  return s === "" ? "repo" : s;
}

/** The git directories of the tree at `root`, found as git does, or null outside git. */
export function gitDirsOf(root: string): { gitDir: string; commonDir: string } | null {
  let dir = root;
  for (;;) {
    const dotGit = join(dir, ".git");
    const st = lstatSync(dotGit, { throwIfNoEntry: false });
    if (st !== undefined && (st.isDirectory() || st.isFile())) {
      let gitDir = dotGit;
      if (st.isFile()) {
        const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, "utf8"));
        if (m === null) return null;
        gitDir = resolve(dir, m[1] as string);
      }
      let commonDir = gitDir;
      try {
        commonDir = resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim());
      } catch {
        // no commondir file: the git directory is the common one
      }
      try {
        return { gitDir: realpathSync(gitDir), commonDir: realpathSync(commonDir) };
      } catch {
        return null;
      }
    }
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/** The index's place for the working tree at `root` (a real path) under `dataDir`. */
export function projectPaths(root: string, dataDir: string): ProjectPaths {
  const real = realpathSync(root);
  const git = gitDirsOf(real);
  let key: string;
  if (git !== null) {
    // A common directory named .git is the main worktree's: the repository is named by the folder holding it.
    const repoDir = basename(git.commonDir) === ".git" ? dirname(git.commonDir) : git.commonDir.replace(/\.git$/, "");
    key = `${slug(basename(repoDir))}-${digest(`git:${git.commonDir}`)}`;
  } else {
    key = `${slug(basename(real))}-${digest(`dir:${real}`)}`;
  }
  return {
    root: real,
    gitDir: git?.gitDir ?? null,
    commonDir: git?.commonDir ?? null,
    key,
    treeKey: digest(`tree:${real}`),
    indexDir: join(dataDir, "projects", key, "index"),
  };
}
