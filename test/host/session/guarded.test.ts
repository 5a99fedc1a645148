// The file primitives and project checkers from the command line, on real trees.
import test from "ava";
import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { nodwyn, tempDir, sessionRecords } from "../../helpers/cli.js";

function repo(): string {
  const root = tempDir("nodwyn-repo-");
  mkdirSync(join(root, ".git"));
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src", "a.ts"), "const x = 1; // TODO one\nconst y = 2;\n");
  writeFileSync(join(root, "src", "b.ts"), "// TODO two\n");
  writeFileSync(join(root, "notes.md"), "TODO three\n");
  writeFileSync(join(root, ".env"), "TOKEN=abc\n");
  return root;
}

test("index-grep works from -e in the repository root and prints its result with write", (t) => {
  const root = repo();
  const r = nodwyn(["-e", '(index-grep "." "TODO" "*.ts" 0)'], { cwd: join(root, "src") });
  t.is(r.code, 0, r.stderr);
  t.is(
    r.stdout.trim(),
    '((matches . #(((path . "src/a.ts") (line . 1) (text . "const x = 1; // TODO one")) ((path . "src/b.ts") (line . 1) (text . "// TODO two")))) (files . 2) (skipped) (truncated . #f))',
  );
});

test("every file the primitives read is logged as a guard decision", (t) => {
  const root = repo();
  const r = nodwyn(["-e", '(fs-read "notes.md")'], { cwd: root });
  t.is(r.code, 0, r.stderr);
  const d = sessionRecords(r.dataDir).filter((x) => x.kind === "guard.decision");
  t.true(d.some((x) => x.payload.path === "notes.md" && x.payload.decision === "allow"));
});

test("a search's decisions are in the log, in path order, before its result is recorded", (t) => {
  const root = repo();
  const r = nodwyn(["-e", '(index-grep "." "TODO")'], { cwd: root });
  t.is(r.code, 0, r.stderr);
  const recs = sessionRecords(r.dataDir);
  const decisions = recs.filter((x) => x.kind === "guard.decision");
  t.deepEqual(
    decisions.map((x) => `${x.payload.path} ${x.payload.decision}`),
    ["notes.md allow", "src/a.ts allow", "src/b.ts allow"],
  );
  const result = recs.findIndex((x) => x.kind === "eval.result");
  t.true(result > recs.indexOf(decisions[2]!), "the decisions come before the result");
  t.deepEqual(recs.map((x) => x.seq), recs.map((_, i) => i + 1));
});

test("a secret file is denied with an error, not read", (t) => {
  const root = repo();
  const r = nodwyn(["-e", '(fs-read ".env")'], { cwd: root });
  t.is(r.code, 1);
  t.regex(r.stderr, /denied|denylist/i);
  t.false(r.stdout.includes("TOKEN"));
});

test("a project checker in .nodwyn/checks.scm denies a file and stops a search", (t) => {
  const root = repo();
  mkdirSync(join(root, ".nodwyn"));
  writeFileSync(
    join(root, ".nodwyn", "checks.scm"),
    '(register-check "no-b" (lambda (path info) (if (string=? path "src/b.ts") \'(deny "b is private") \'allow)))\n',
  );
  const grep = nodwyn(["-e", '(index-grep "src" "TODO")'], { cwd: root });
  t.is(grep.code, 1);
  t.regex(grep.stderr, /b is private/);
  const ok = nodwyn(["-e", '(fs-read "src/a.ts")'], { cwd: root });
  t.is(ok.code, 0, ok.stderr);
});

test("a checker that raises or loops denies", (t) => {
  const root = repo();
  mkdirSync(join(root, ".nodwyn"));
  writeFileSync(join(root, ".nodwyn", "checks.scm"), "(register-check 'spin (lambda (path info) (let loop () (loop))))\n");
  const r = nodwyn(["-e", '(fs-read "notes.md")'], { cwd: root });
  t.is(r.code, 1);
  t.regex(r.stderr, /spin/);
  writeFileSync(join(root, ".nodwyn", "checks.scm"), "(register-check 'boom (lambda (path info) (car '())))\n");
  const r2 = nodwyn(["-e", '(fs-read "notes.md")'], { cwd: root });
  t.is(r2.code, 1);
  t.regex(r2.stderr, /boom/);
});

test("--sandbox sends Scheme's own file ports through the guard; plain run does not", (t) => {
  const root = repo();
  const src = '(import (scheme base) (scheme file) (scheme write)) (write (read-line (open-input-file ".env")))';
  writeFileSync(join(root, "p.scm"), src);
  const plain = nodwyn(["run", "p.scm"], { cwd: root });
  t.is(plain.stdout, '"TOKEN=abc"');
  const sand = nodwyn(["--sandbox", "run", "p.scm"], { cwd: root });
  t.is(sand.code, 1);
  t.is(sand.stdout, "");
  t.regex(sand.stderr, /\.env/);
});

test("--root chooses the repository root", (t) => {
  const root = repo();
  const other = tempDir();
  const r = nodwyn(["--root", root, "-e", '(cdr (assq (quote files) (index-grep "." "TODO")))'], { cwd: other });
  t.is(r.stdout.trim(), "3");
});

test("a checker's error is its own: a guard around the read sees the denial, not the checker's error", (t) => {
  const root = repo();
  mkdirSync(join(root, ".nodwyn"));
  writeFileSync(join(root, ".nodwyn", "checks.scm"), "(register-check 'boom (lambda (path info) (car '())))\n");
  // The guard's clause must run once: were the checker to see this evaluation's
  // handlers, its error would run the clause inside the checker too.
  const r = nodwyn(
    ["-e", '(define n 0) (define k (guard (e ((error-object? e) (set! n (+ n 1)) (condition-kind e))) (fs-read "notes.md"))) (list k n)'],
    { cwd: root },
  );
  t.is(r.code, 0, r.stderr);
  t.is(r.stdout.trim(), "(host 1)");
});

test("a program imports the agent primitives from (nodwyn agent)", (t) => {
  const root = repo();
  writeFileSync(join(root, "p.scm"), '(import (scheme base) (scheme write) (nodwyn agent))\n(write (cdr (assq (quote files) (index-grep "src" "TODO"))))\n');
  const r = nodwyn(["run", "p.scm"], { cwd: root });
  t.is(r.code, 0, r.stderr);
  t.is(r.stdout, "2");
  writeFileSync(join(root, "q.scm"), '(import (scheme base))\n(index-grep "src" "TODO")\n');
  const q = nodwyn(["run", "q.scm"], { cwd: root });
  t.is(q.code, 1);
  t.regex(q.stderr, /unbound variable: index-grep/);
});
