// The write guard: the root pin, the write denylist, links swapped in between check and write, atomic replacement.
import test from "ava";
import { existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkWrite, createGuard, writeGuarded, WriteDeniedError } from "../../../host/guard/index.js";

function tree(t: any): { root: string; outside: string } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "nodwyn-write-")));
  t.teardown(() => rmSync(base, { recursive: true, force: true }));
  const root = join(base, "repo");
  const outside = join(base, "outside");
  mkdirSync(join(root, "src"), { recursive: true });
  mkdirSync(join(root, ".git"), { recursive: true });
  mkdirSync(join(root, ".nodwyn"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, "src", "a.ts"), "old\n");
  writeFileSync(join(root, ".env"), "KEY=1\n");
  writeFileSync(join(root, ".nodwyn", "checks.scm"), ";; checks\n");
  writeFileSync(join(root, ".git", "config"), "[core]\n");
  writeFileSync(join(outside, "victim"), "untouched\n");
  return { root, outside };
}

const W = { actor: "model" };

function denied(t: any, f: () => unknown, rule: string): void {
  const e = t.throws(f) as WriteDeniedError;
  t.true(e instanceof WriteDeniedError, String(e));
  t.is(e.rule, rule, e.message);
  t.is(e.code, "guard-denied");
}

test("a file is replaced atomically, keeping its mode; a new one is made with the directories on the way", (t) => {
  const { root } = tree(t);
  const g = createGuard({ root });
  chmodSync(join(root, "src", "a.ts"), 0o600);
  const out = writeGuarded(g, "src/a.ts", Buffer.from("new\n"), W);
  t.like(out, { rel: "src/a.ts", bytes: 4, created: false });
  t.is(readFileSync(join(root, "src", "a.ts"), "utf8"), "new\n");
  t.is(statSync(join(root, "src", "a.ts")).mode & 0o777, 0o600);
  const made = writeGuarded(g, join(root, "lib/deep/b.ts"), Buffer.from("b"), W);
  t.like(made, { rel: "lib/deep/b.ts", created: true });
  t.is(readFileSync(join(root, "lib", "deep", "b.ts"), "utf8"), "b");
  // No temporary file is left beside them.
  t.deepEqual(readdirSync(join(root, "src")), ["a.ts"]);
  t.deepEqual(readdirSync(join(root, "lib", "deep")), ["b.ts"]);
});

test("writes outside the root, with .., into .git/, .nodwyn/ and secret files are refused and change nothing", (t) => {
  const { root, outside } = tree(t);
  const g = createGuard({ root });
  denied(t, () => writeGuarded(g, join(outside, "victim"), Buffer.from("x"), W), "root-pin");
  denied(t, () => writeGuarded(g, "../outside/victim", Buffer.from("x"), W), "root-pin");
  denied(t, () => writeGuarded(g, ".git/config", Buffer.from("x"), W), "write-protected");
  denied(t, () => writeGuarded(g, ".git/hooks/pre-commit", Buffer.from("x"), W), "write-protected");
  denied(t, () => writeGuarded(g, "sub/.GIT/x", Buffer.from("x"), W), "write-protected");
  denied(t, () => writeGuarded(g, ".nodwyn/checks.scm", Buffer.from("x"), W), "write-protected");
  denied(t, () => writeGuarded(g, ".env", Buffer.from("x"), W), "denylist");
  denied(t, () => writeGuarded(g, "config/prod.env", Buffer.from("x"), W), "denylist");
  denied(t, () => writeGuarded(g, ".ssh/id_rsa", Buffer.from("x"), W), "denylist");
  t.is(readFileSync(join(outside, "victim"), "utf8"), "untouched\n");
  t.is(readFileSync(join(root, ".env"), "utf8"), "KEY=1\n");
  t.is(readFileSync(join(root, ".nodwyn", "checks.scm"), "utf8"), ";; checks\n");
  t.is(readFileSync(join(root, ".git", "config"), "utf8"), "[core]\n");
  t.false(existsSync(join(root, "config")), "no directory was made for a refused write");
});

test("a link as the file, a link on the way and a hard-linked file are refused", (t) => {
  const { root, outside } = tree(t);
  const g = createGuard({ root });
  symlinkSync(join(outside, "victim"), join(root, "link"));
  symlinkSync(outside, join(root, "out"));
  linkSync(join(outside, "victim"), join(root, "hard"));
  denied(t, () => writeGuarded(g, "link", Buffer.from("x"), W), "root-pin");
  denied(t, () => writeGuarded(g, "out/victim", Buffer.from("x"), W), "root-pin");
  denied(t, () => writeGuarded(g, "out/new", Buffer.from("x"), W), "root-pin");
  denied(t, () => writeGuarded(g, "hard", Buffer.from("x"), W), "hard-link");
  t.is(readFileSync(join(outside, "victim"), "utf8"), "untouched\n");
  t.false(existsSync(join(outside, "new")));
  t.true(lstatSync(join(root, "link")).isSymbolicLink());
});

test("a directory swapped for a link between the check and the write does not let the write escape", (t) => {
  const { root, outside } = tree(t);
  const g = createGuard({ root });
  mkdirSync(join(root, "lib"));
  writeFileSync(join(root, "lib", "victim"), "inside\n");
  const swap = () => {
    renameSync(join(root, "lib"), join(root, "lib.moved"));
    symlinkSync(outside, join(root, "lib"));
  };
  t.notThrows(() => checkWrite(g, "lib/victim"), "the check by path passes before the swap");
  denied(t, () => writeGuarded(g, "lib/victim", Buffer.from("escaped"), { actor: "model", beforeWrite: swap }), "root-pin");
  t.is(readFileSync(join(outside, "victim"), "utf8"), "untouched\n");
  t.deepEqual(readdirSync(outside), ["victim"], "no temporary file was made outside");
  t.is(readFileSync(join(root, "lib.moved", "victim"), "utf8"), "inside\n");
});

test("a directory on the way replaced by a real one after the check: the write goes to the path named, never into the moved directory", (t) => {
  const { root } = tree(t);
  const g = createGuard({ root });
  mkdirSync(join(root, "a", "b"), { recursive: true });
  const move = () => {
    renameSync(join(root, "a", "b"), join(root, "b2"));
    mkdirSync(join(root, "a", "b"));
  };
  // After the move a/b is a fresh real directory: the write goes there (nothing escapes), and the file is where named.
  const out = writeGuarded(g, "a/b/f", Buffer.from("f"), { actor: "model", beforeWrite: move });
  t.is(out.rel, "a/b/f");
  t.is(readFileSync(join(root, "a", "b", "f"), "utf8"), "f");
  t.false(existsSync(join(root, "b2", "f")));
});

test("a directory named as the file, and a file on the way, are file errors, not denials", (t) => {
  const { root } = tree(t);
  const g = createGuard({ root });
  const e1 = t.throws(() => writeGuarded(g, "src", Buffer.from("x"), W)) as any;
  t.is(e1.code, "is-directory");
  const e2 = t.throws(() => writeGuarded(g, "src/a.ts/x", Buffer.from("x"), W)) as any;
  t.is(e2.code, "not-found");
  t.is(readFileSync(join(root, "src", "a.ts"), "utf8"), "old\n");
});
