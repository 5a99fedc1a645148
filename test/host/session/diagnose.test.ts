// Error reports placed where the person can act: the unbound variable itself, the user's call under stdlib, hints.
import test from "ava";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { nodwynAsync as nodwyn, tempDir } from "../../helpers/cli.js";
import { editDistance, nearest, nearestAll } from "../../../host/session/near.js";
import { exportedNames, findIdentifierIn, findTopLevelName, srfiExports } from "../../../host/session/diagnose.js";

test("an unbound operator is reported at its own place, with the near names", async (t) => {
  const r = await nodwyn(["--no-log", "-e", "(define xs (list 1 2))\n  (lenght xs)"]);
  t.is(r.code, 1);
  t.regex(r.stderr, /^<-e>:2:4: unbound variable: lenght\n  did you mean length\?\n/);
});

test("a bare unbound name at top level is reported at its own place too (the REPL, -e, run)", async (t) => {
  const e = await nodwyn(["--no-log", "-e", "(define x 1)\n  lst"]);
  t.regex(e.stderr, /^<-e>:2:3: unbound variable: lst\n  did you mean let or list\?/);
  const repl = await nodwyn(["--no-log", "repl"], { input: "(define x 1)\n 'lst lst\n" });
  t.regex(repl.stderr, /^<repl-2>:1:7: unbound variable: lst\n/);
  const dir = tempDir();
  const prog = join(dir, "p.scm");
  writeFileSync(prog, "(import (scheme base))\n(define lst2 '(lst))\nlst\n");
  const r = await nodwyn(["--no-log", "run", prog], { cwd: dir });
  t.regex(r.stderr, new RegExp(`^${prog.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:3:1: unbound variable: lst\n`));
});

test("a name of an SRFI used without its import: the SRFI to import", async (t) => {
  const repl = await nodwyn(["--no-log", "repl"], { input: "(iota 3)\n(import (srfi 1))\n(iota 3)\n" });
  t.regex(repl.stderr, /^<repl-1>:1:2: unbound variable: iota\n  iota is in \(srfi 1\): \(import \(srfi 1\)\)\n/);
  t.is(repl.stdout, "(0 1 2)\n");
  const e = await nodwyn(["--no-log", "-e", '(string-index "abc" #\\b)']);
  t.regex(e.stderr, /string-index is in \(srfi 13\): \(import \(srfi 13\)\)/);
});

test("top-level names and export lists, read from the text", (t) => {
  t.deepEqual(findTopLevelName("(f lst)\n'lst (quote lst) lst", "lst"), { line: 2, col: 18 });
  t.is(findTopLevelName("(list lst) \"lst\" ; lst", "lst"), null);
  t.deepEqual(exportedNames("(define-library (x) (export a b (rename c d)) (import (scheme base)) (export e))"), ["a", "b", "d", "e"]);
  const srfi = srfiExports();
  t.is(srfi.get("iota"), "(srfi 1)");
  t.is(srfi.get("string-remove"), "(srfi 130)", "a renamed export");
  t.is(srfi.get("and-let*"), "(srfi 2)");
});

test("an unbound argument is reported at the argument, not at the call around it", async (t) => {
  const r = await nodwyn(["--no-log", "-e", "(list 1\n      (car '(2))\n      undefined-thing)"]);
  t.regex(r.stderr, /^<-e>:3:7: unbound variable: undefined-thing\n/);
  const json = await nodwyn(["--no-log", "--json", "-e", "(list 1 xyzzy)"]);
  const e = JSON.parse(json.stdout).error;
  t.deepEqual(e.location, { file: "<-e>", line: 1, column: 9 });
  t.is(e.kind, "unbound");
});

test("an agent primitive a program did not import: the library to import", async (t) => {
  const dir = tempDir();
  const prog = join(dir, "p.scm");
  writeFileSync(prog, '(import (scheme base))\n(define r (fs-read "p.scm"))\n');
  const r = await nodwyn(["--no-log", "run", prog], { cwd: dir });
  t.is(r.code, 1);
  t.regex(r.stderr, new RegExp(`^${prog.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:2:12: unbound variable: fs-read\n  fs-read is in \\(nodwyn agent\\): add \\(nodwyn agent\\) to the program's \\(import …\\)\n`));
  const w = join(dir, "w.scm");
  writeFileSync(w, '(import (scheme base))\n(display "x")\n');
  t.regex((await nodwyn(["--no-log", "run", w], { cwd: dir })).stderr, /display is in \(scheme write\)/);
});

test("an error raised inside stdlib is reported at the user's call, with the stdlib frames below it", async (t) => {
  const r = await nodwyn(["--no-log", "-e", "(define (go) (vector-map + 5))\n(go)"]);
  t.is(r.code, 1);
  const [first, ...frames] = r.stderr.trim().split("\n");
  t.regex(first!, /^<-e>:1:14: bad argument #1 to 'vector-length' \(vector expected, got 5\)$/);
  t.true(frames.some((f) => /in vector-map \(.*stdlib\/nodwyn\/prelude\.scm:\d+:\d+\)/.test(f)), frames.join("\n"));
  t.true(frames.some((f) => /<-e>/.test(f)));
});

test("near names: the edit distance, its budget, case, and the best first", (t) => {
  t.is(editDistance("lenght", "length"), 1, "a transposition is one edit");
  t.is(editDistance("abc", "abc"), 0);
  t.is(editDistance("kitten", "sitting"), 3);
  t.is(nearest("lenght", ["list", "length", "lent"]), "length");
  t.is(nearest("xyzzy", ["length", "list"]), undefined);
  t.is(nearest("Car", ["cdr", "car"]), "car", "a difference of case is nearer than any edit");
  t.deepEqual(nearestAll("strng-length", ["string-length", "string-append", "vector-length"]), ["string-length"]);
  t.deepEqual(nearestAll("g", ["*", "+", "-", "G"]), ["G"], "a one-letter name: only a difference of case");
  t.deepEqual(nearestAll("ab", ["a", "abs", "b"]), ["abs"]);
});

test("finding a name in a form: the operator first, strings and comments skipped", (t) => {
  const text = '(list "xyz" ; xyz\n  (car xyz)\n  (xyz 1))';
  t.deepEqual(findIdentifierIn(text, 1, 1, "xyz"), { line: 3, col: 4 });
  t.deepEqual(findIdentifierIn("(f a b xyz)", 1, 1, "xyz"), { line: 1, col: 8 });
  t.is(findIdentifierIn('(f "xyz")', 1, 1, "xyz"), null);
  t.deepEqual(findIdentifierIn("(a) (b xyz)", 1, 5, "xyz"), { line: 1, col: 8 }, "only the form at the place");
  t.is(findIdentifierIn("(a) (b xyz)", 1, 1, "xyz"), null);
});
