// scripts/chibi-libraries.sh runs a chibi checkout's match and SRFI 135 test libraries and reports their counts.
import test from "ava";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { REPO_ROOT } from "../../host/cli/gen-reference.js";
import { tempDir } from "../helpers/cli.js";

const SCRIPT = join(REPO_ROOT, "scripts", "chibi-libraries.sh");

/**
 * A stand-in for a chibi-scheme checkout, written for this test: a (chibi
 * match) and an (srfi 135) of one procedure each, and test libraries shaped
 * like chibi's (one run-tests procedure of test forms, through (chibi test)).
 */
function fakeChibi(matchTests: string): string {
  const root = join(tempDir(), "chibi-scheme");
  const lib = join(root, "lib");
  mkdirSync(join(lib, "chibi", "match"), { recursive: true });
  mkdirSync(join(lib, "srfi", "135"), { recursive: true });
  writeFileSync(join(lib, "chibi", "match.sld"), '(define-library (chibi match) (export twice) (import (scheme base)) (include "match/match.scm"))\n');
  writeFileSync(join(lib, "chibi", "match", "match.scm"), "(define (twice x) (* 2 x))\n");
  writeFileSync(
    join(lib, "chibi", "match-test.sld"),
    `(define-library (chibi match-test) (export run-tests) (import (scheme base) (chibi match) (chibi test))
  (begin (define (run-tests) (test-begin "match") ${matchTests} (test-end))))\n`,
  );
  writeFileSync(join(lib, "srfi", "135.sld"), '(define-library (srfi 135) (export text-length) (import (scheme base)) (include "135.scm"))\n');
  writeFileSync(join(lib, "srfi", "135.scm"), "(define (text-length s) (string-length s))\n");
  writeFileSync(
    join(lib, "srfi", "135", "test.sld"),
    `(define-library (srfi 135 test) (export run-tests) (import (scheme base) (srfi 135) (chibi test))
  (begin (define (run-tests) (test-begin "135") (test 3 (text-length "abc")) (test-assert (= 0 (text-length "")))
    (test-not (= 1 (text-length ""))) (test-error (text-length 5)) (test-equal = 2 (text-length "ab")) (test-end))))\n`,
  );
  return root;
}

function run(args: string[]) {
  return spawnSync("bash", [SCRIPT, ...args], { encoding: "utf8", env: { ...process.env, NODWYN_DATA_DIR: tempDir() } });
}

test("both test libraries run to their end; all passing is status 0 with each library's counts", (t) => {
  const r = run([fakeChibi('(test 4 (twice 2)) (test "named" 6 (twice 3))')]);
  t.is(r.status, 0, r.stdout + r.stderr);
  t.regex(r.stdout, /== \(chibi match-test\)\nPASS 2 FAIL 0\n/);
  t.regex(r.stdout, /== \(srfi 135 test\)\nPASS 5 FAIL 0\n/);
});

test("a failing or raising assertion is a failure and the run goes on; any failure is status 1", (t) => {
  const r = run([fakeChibi("(test 5 (twice 2)) (test 1 (car '())) (test 8 (twice 4))")]);
  t.is(r.status, 1);
  t.regex(r.stdout, /FAIL: \(twice 2\)\n {2}expected 5\n {2}got {6}4\n/);
  t.regex(r.stdout, /FAIL: \(car \(quote \(\)\)\)\n {2}expected 1\n {2}got {6}\(raised /);
  t.regex(r.stdout, /PASS 1 FAIL 2\n/);
});

test("without a chibi checkout it prints its usage with status 2", (t) => {
  const r = run([join(tempDir(), "nowhere")]);
  t.is(r.status, 2);
  t.regex(r.stderr, /scripts\/chibi-libraries\.sh \/path\/to\/chibi-scheme/);
  t.regex(r.stderr, /no lib\/ folder in: /);
  const missing = fakeChibi("");
  writeFileSync(join(missing, "lib", "srfi", "135.scm"), "");
  spawnSync("rm", ["-r", join(missing, "lib", "srfi", "135")]);
  const m = run([missing]);
  t.is(m.status, 2);
  t.regex(m.stderr, /lib\/srfi\/135 is missing/);
});
