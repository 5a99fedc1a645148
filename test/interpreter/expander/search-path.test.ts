// The library search path through the real command: stdlib/ first, then each -I DIR in order, then $NODWYN_PATH.
import test from "ava";
import { join } from "node:path";
import { nodwyn } from "../../helpers/cli.js";
import { writeTree } from "./tree.js";

/** A library (where) exporting `whence`, the name of the directory it was found in. */
function whereLib(dir: string): Record<string, string> {
  return { [`${dir}/where.sld`]: `(define-library (where) (import (scheme base)) (export whence) (begin (define whence '${dir})))` };
}

const PROG = `(import (scheme base) (scheme write) (where)) (write whence)`;

const root = writeTree({
  ...whereLib("a"),
  ...whereLib("b"),
  ...whereLib("c"),
  ...whereLib("d"),
  // A library named like a standard one never hides it: stdlib/ comes first.
  "a/scheme/base.sld": `(define-library (scheme base) (export car) (begin (error "a/scheme/base.sld must not load")))`,
  "only-d/nested/lib/deep.sld": `(define-library (nested lib deep) (import (scheme base)) (export deep) (begin (define deep 'deep)))`,
  "prog.scm": PROG,
  "deep.scm": `(import (scheme base) (scheme write) (nested lib deep)) (write deep)`,
  "missing.scm": `(import (scheme base) (not here))`,
});
const prog = join(root, "prog.scm");
const env = (path?: string) => ({ NODWYN_PATH: path ?? "" });

test("-I DIR adds a library directory; the first directory that has the file wins", (t) => {
  let r = nodwyn(["run", "-I", join(root, "a"), "-I", join(root, "b"), prog], { env: env() });
  t.is(r.stdout, "a", r.stderr);
  r = nodwyn(["run", "-I", join(root, "b"), "-I", join(root, "a"), prog], { env: env() });
  t.is(r.stdout, "b", r.stderr);
  // -IDIR, and a relative DIR taken from the working directory.
  r = nodwyn(["run", `-I${join(root, "c")}`, prog], { env: env() });
  t.is(r.stdout, "c", r.stderr);
  r = nodwyn(["run", "-I", "d", "prog.scm"], { cwd: root, env: env() });
  t.is(r.stdout, "d", r.stderr);
});

test("$NODWYN_PATH lists directories searched after the -I ones, in order", (t) => {
  let r = nodwyn(["run", prog], { env: env(`${join(root, "c")}:${join(root, "d")}`) });
  t.is(r.stdout, "c", r.stderr);
  r = nodwyn(["run", prog], { env: env(`${join(root, "d")}:${join(root, "c")}`) });
  t.is(r.stdout, "d", r.stderr);
  r = nodwyn(["run", "-I", join(root, "b"), prog], { env: env(join(root, "c")) });
  t.is(r.stdout, "b", r.stderr);
  r = nodwyn(["run", join(root, "deep.scm")], { env: env(`::${join(root, "only-d")}:`) });
  t.is(r.stdout, "deep", r.stderr);
});

test("the standard libraries come from stdlib/ even when a library directory has a file of the same name", (t) => {
  const r = nodwyn(["run", "-I", join(root, "a"), prog], { env: env() });
  t.is(r.code, 0, r.stderr);
  t.is(r.stdout, "a");
});

test("-e and the REPL search the same path", (t) => {
  let r = nodwyn(["-I", join(root, "b"), "-e", "(import (where)) whence"], { env: env() });
  t.is(r.stdout, "b\n", r.stderr);
  r = nodwyn(["repl", "-I", join(root, "c")], { env: env(), input: "(import (where))\nwhence\n" });
  t.regex(r.stdout, /\bc\n/, r.stderr);
});

test("a library found nowhere fails with the file looked for and the whole search path, in order", (t) => {
  const r = nodwyn(["run", "-I", join(root, "b"), "-I", join(root, "a"), join(root, "missing.scm")], { env: env(join(root, "d")) });
  t.is(r.code, 1);
  const first = r.stderr.split("\n")[0] ?? "";
  t.regex(first, new RegExp(`^${join(root, "missing.scm")}:1:1: library \\(not here\\) not found \\(no not/here\\.sld in `));
  const dirs = first.slice(first.indexOf(".sld in ") + 8).split(/, |\)/);
  t.is(dirs[0], "stdlib/", "the stdlib by its name, not its absolute path");
  t.deepEqual(dirs.slice(1, 4), [join(root, "b"), join(root, "a"), join(root, "d")]);
});
