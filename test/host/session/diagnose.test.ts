// Error reports placed where the person can act: the unbound variable itself, the user's call under stdlib, hints.
import test from "ava";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { nodwynAsync as nodwyn, tempDir } from "../../helpers/cli.js";
import { editDistance, nearest, nearestAll } from "../../../host/session/near.js";
import { enclosingHeads, exportedNames, findIdentifierIn, findTopLevelName, importsLibrary, srfiExports } from "../../../host/session/diagnose.js";

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

test("an unbound name as a definition's value, with no call around it, is reported at the name", async (t) => {
  const dir = tempDir();
  const prog = join(dir, "p.scm");
  writeFileSync(prog, "(import (scheme base))\n(define z 1)\n(define x\n  yy)\n");
  const r = await nodwyn(["--no-log", "run", prog], { cwd: dir });
  t.is(r.code, 1);
  t.regex(r.stderr, new RegExp(`^${prog.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:4:3: unbound variable: yy\n`));
  const e = await nodwyn(["--no-log", "-e", "(define w\n  (if #t nope 1))"]);
  t.regex(e.stderr, /^<-e>:2:10: unbound variable: nope\n/);
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

test("a keyword the program did not import: the variable's error names the keyword and its library", async (t) => {
  const dir = tempDir();
  const esc = (p: string) => p.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  // No (import …) at all: define is read as a call, so x is an unbound variable.
  const p1 = join(dir, "p1.scm");
  writeFileSync(p1, "(define x 1)\n");
  const r1 = await nodwyn(["--no-log", "run", p1], { cwd: dir });
  t.is(r1.code, 1);
  t.regex(
    r1.stderr,
    new RegExp(`^${esc(p1)}:1:9: unbound variable: x\n  define is syntax in \\(scheme base\\), which this program does not import, so \\(define …\\) was read as a call and x as a variable: add \\(scheme base\\) to the program's \\(import …\\)\n`),
  );
  // case-lambda is in (scheme case-lambda), not (scheme base).
  const p2 = join(dir, "p2.scm");
  writeFileSync(p2, "(import (scheme base) (scheme write))\n(define f (case-lambda ((a) a) ((a b) b)))\n(display (f 1))\n");
  const r2 = await nodwyn(["--no-log", "run", p2], { cwd: dir });
  t.regex(r2.stderr, /unbound variable: a\n  case-lambda is syntax in \(scheme case-lambda\), which this program does not import, so \(case-lambda …\) was read as a call and a as a variable: add \(scheme case-lambda\) to the program's \(import …\)\n/);
  // Imported: an unbound variable inside define is only that, with no word about define.
  const p3 = join(dir, "p3.scm");
  writeFileSync(p3, "(import (scheme base))\n(define (f) (+ 1 yy))\n(f)\n");
  const r3 = await nodwyn(["--no-log", "run", p3], { cwd: dir });
  t.regex(r3.stderr, /unbound variable: yy\n/);
  t.notRegex(r3.stderr, /is syntax in/);
});

test("an SRFI's syntax not imported, in a program, an -e text and a REPL entry: the hint names the SRFI", async (t) => {
  const dir = tempDir();
  const hint = (how: string, fix: string) =>
    new RegExp(`unbound variable: b\n  receive is syntax in \\(srfi 8\\), which ${how}, so \\(receive …\\) was read as a call and b as a variable: ${fix}\n`);
  const p = join(dir, "p.scm");
  writeFileSync(p, "(import (scheme base))\n(receive (a b) (values 1 2) a)\n");
  const r1 = await nodwyn(["--no-log", "run", p], { cwd: dir });
  t.regex(r1.stderr, hint("this program does not import", "add \\(srfi 8\\) to the program's \\(import …\\)"));
  // The entries' texts are found through the session (`<-e>`, `<repl-1>`), not on disk.
  const r2 = await nodwyn(["--no-log", "-e", "(receive (a b) (values 1 2) a)"], { cwd: dir });
  t.regex(r2.stderr, hint("is not imported here", "\\(import \\(srfi 8\\)\\)"));
  const r3 = await nodwyn(["--no-log", "repl"], { cwd: dir, input: "(receive (a b) (values 1 2) a)\n" });
  t.regex(r3.stderr, hint("is not imported here", "\\(import \\(srfi 8\\)\\)"));
  // An SRFI's procedure around an unbound name is not the reason: no word about syntax.
  const r4 = await nodwyn(["--no-log", "-e", "(fold + 0 zz)"], { cwd: dir });
  t.regex(r4.stderr, /unbound variable: zz\n/);
  t.notRegex(r4.stderr, /is syntax in/);
});

test("the lists around a place, and which libraries a program imports, read from the text", (t) => {
  const text = "(define f\n  (lambda (x) ((g) x)))";
  t.deepEqual(enclosingHeads(text, 2, 20), ["lambda", "define"], "((g) x): a list headed by a list has no operator");
  t.deepEqual(enclosingHeads(text, 1, 2), ["define"], "the operator stands inside its own list");
  t.deepEqual(enclosingHeads("x", 1, 1), []);
  const prog = "; a program\n(import (scheme base) (only (scheme write) display) (prefix (srfi 1) s:))\n(define x 1)";
  t.true(importsLibrary(prog, "(scheme base)"));
  t.true(importsLibrary(prog, "(scheme write)"), "inside an import set");
  t.true(importsLibrary(prog, "(srfi 1)"));
  t.false(importsLibrary(prog, "(scheme case-lambda)"));
  t.false(importsLibrary(prog, "(scheme)"), "a prefix of a name is not the name");
  t.false(importsLibrary("(define x 1)", "(scheme base)"));
});
