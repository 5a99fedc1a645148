// findRepoRoot: the git top-level found by walking up, without running git; else the directory itself.
import test from "ava";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findRepoRoot } from "../../../host/guard/index.js";
import { makeTree } from "./tree.js";

test("a .git directory above the working directory makes its directory the root", (t) => {
  const tree = makeTree({ "repo/src/deep/x.txt": "x" });
  t.teardown(tree.cleanup);
  mkdirSync(join(tree.root, "repo/.git"));
  const real = realpathSync(tree.root);
  t.is(findRepoRoot(join(tree.root, "repo/src/deep")), join(real, "repo"));
  t.is(findRepoRoot(join(tree.root, "repo")), join(real, "repo"));
});

test("a .git file (a worktree or submodule) counts too, and the nearest one wins", (t) => {
  const tree = makeTree({ "outer/inner/src/x.txt": "x" });
  t.teardown(tree.cleanup);
  mkdirSync(join(tree.root, "outer/.git"));
  writeFileSync(join(tree.root, "outer/inner/.git"), "gitdir: ../.git/worktrees/inner\n");
  t.is(findRepoRoot(join(tree.root, "outer/inner/src")), join(realpathSync(tree.root), "outer/inner"));
});

test("outside a repository the working directory itself is the root, as a real path", (t) => {
  const tree = makeTree({ "plain/sub/x.txt": "x" });
  t.teardown(tree.cleanup);
  symlinkSync(join(tree.root, "plain"), join(tree.root, "alias"));
  t.is(findRepoRoot(join(tree.root, "alias/sub")), join(realpathSync(tree.root), "plain/sub"));
});
