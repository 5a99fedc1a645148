// eval and its environments (R7RS §6.12), and load (§6.14), over real files.
import test from "ava";
import { join } from "node:path";
import { makeInterp } from "../../helpers/interp.js";
import { writeTree, libInterp, runProgram } from "./tree.js";

test("eval in an environment made of import sets sees exactly those bindings", async (t) => {
  const { run } = makeInterp();
  t.is(await run("(eval '(expt 2 10) (environment '(scheme base)))"), "1024");
  t.is(await run("(eval '(+ (expt 2 10) (sin 0)) (environment '(scheme base) '(scheme inexact)))"), "1024.0");
  await t.throwsAsync(run("(eval '(sin 0) (environment '(scheme base)))"), { message: /unbound variable: sin/ });
  t.is(
    await run(
      "(eval '(let ((p (open-output-string))) (w:write 'x p) (get-output-string p)) (environment '(only (scheme base) let quote open-output-string get-output-string) '(prefix (scheme write) w:)))",
    ),
    '"x"',
  );
  await t.throwsAsync(run("(environment '(no such library))"), { message: /library \(no such library\) not found/ });
});

test("definitions made by eval stay in that environment, and each environment is separate", async (t) => {
  const { run } = makeInterp();
  await run("(define e1 (environment '(scheme base))) (define e2 (environment '(scheme base)))");
  await run("(eval '(define z 10) e1)");
  t.is(await run("(eval '(+ z 1) e1)"), "11");
  await t.throwsAsync(run("(eval 'z e2)"), { message: /unbound variable: z/ });
  await t.throwsAsync(run("z"), { message: /unbound variable: z/ });
  // Syntax defined in an environment is usable by later evals there, hygienically.
  await run("(eval '(define-syntax my-or2 (syntax-rules () ((_ a b) (let ((t a)) (if t t b))))) e1)");
  t.is(await run("(eval '(let ((t 5) (if list)) (my-or2 #f t)) e1)"), "5");
  // An import evaluated in an environment extends it.
  await run("(eval '(import (scheme char)) e2)");
  t.is(await run("(eval '(char-upcase #\\a) e2)"), "#\\A");
});

test("interaction-environment is the REPL's: what eval defines there the REPL sees, and the reverse", async (t) => {
  const { run } = makeInterp();
  await run("(eval '(define from-eval 99) (interaction-environment))");
  t.is(await run("from-eval"), "99");
  await run("(define from-repl 'r)");
  t.is(await run("(eval 'from-repl (interaction-environment))"), "r");
  t.is(await run("(eval '(+ 1 2))"), "3");
});

test("scheme-report-environment 5 has the bindings of (scheme r5rs), syntax included, and no others", async (t) => {
  const { run } = makeInterp();
  t.is(await run("(eval '(* 7 3) (scheme-report-environment 5))"), "21");
  t.is(await run("(eval '(exact->inexact 1/2) (scheme-report-environment 5))"), "0.5");
  t.is(await run("(eval '(cond ((assv 2 '((1 . a) (2 . b))) => cdr) (else 'none)) (scheme-report-environment 5))"), "b");
  t.is(await run("(eval '(case 3 ((1) 'one) (else => (lambda (x) (* x x)))) (scheme-report-environment 5))"), "9");
  t.is(await run("(eval '(let-syntax ((m (syntax-rules () ((_ a ...) '(a ...))))) (m 1 2)) (scheme-report-environment 5))"), "(1 2)");
  // string-map and when are R7RS, not R5RS.
  await t.throwsAsync(run("(eval '(string-map char-upcase \"a\") (scheme-report-environment 5))"), { message: /unbound variable: string-map/ });
  await t.throwsAsync(run("(scheme-report-environment 7)"), { message: /only version 5/ });
});

test("null-environment 5 has only the syntactic keywords of R5RS", async (t) => {
  const { run } = makeInterp();
  t.is(await run("((eval '(lambda (f x) (f x x)) (null-environment 5)) + 10)"), "20");
  t.is(await run("((eval '(lambda (x) (cond (x => (lambda (y) y)) (else 'none))) (null-environment 5)) 7)"), "7");
  await t.throwsAsync(run("(eval '(+ 1 2) (null-environment 5))"), { message: /unbound variable: \+/ });
  await t.throwsAsync(run("(eval '(when #t 1) (null-environment 5))"), { message: /unbound variable: when/ });
});

test("eval's errors carry their kind; a bad environment argument is a type error", async (t) => {
  const { run } = makeInterp();
  await t.throwsAsync(run("(eval '(if) (environment '(scheme base)))"), { message: /if: bad syntax/ });
  t.is(await run("(guard (e ((error-object? e) (error-object-message e))) (eval '(car '()) (environment '(scheme base))))"), '"bad argument #1 to \'car\' (pair expected, got ())"');
  await t.throwsAsync(run("(eval 1 'not-an-environment)"), { message: /bad argument #2 to 'eval' \(environment expected, got not-an-environment\)/ });
});

test("load evaluates a file's forms in the interaction environment or in the one given", async (t) => {
  const root = writeTree({
    "ld/loaded.scm": `(define loaded-val 7)\n(define-syntax twice (syntax-rules () ((_ e) (begin e e))))`,
    "ld/broken.scm": `(define ok 1)\n\n(car '())`,
  });
  const ti = libInterp(root);
  const file = join(root, "ld/loaded.scm");
  await ti.run(`(load ${JSON.stringify(file)})`);
  t.is(await ti.run("(let ((n 0)) (twice (set! n (+ n loaded-val))) n)"), "14");
  await ti.run(`(define env (environment '(scheme base))) (load ${JSON.stringify(file)} env)`);
  t.is(await ti.run("(eval '(let ((n 0)) (twice (set! n (+ n 1))) (list n loaded-val)) env)"), "(2 7)");
  t.is(await ti.run(`(guard (e ((file-error? e) 'file-error)) (load ${JSON.stringify(join(root, "ld/none.scm"))}))`), "file-error");
  // An error in a loaded file points into that file.
  const out = await ti.interp.evaluateOutcome(`(load ${JSON.stringify(join(root, "ld/broken.scm"))})`);
  t.false(out.ok);
  t.is(out.ok ? undefined : out.condition?.loc?.file, join(root, "ld/broken.scm"));
  t.is(out.ok ? undefined : out.condition?.loc?.line, 3);
  t.is(await ti.run("ok"), "1");
});

test("load without file access granted is a clear error", async (t) => {
  const { run } = makeInterp();
  await t.throwsAsync(run('(load "anything.scm")'), { message: /load: no file access was granted/ });
});

test("a program can use eval and environment from (scheme eval), and load from (scheme load)", async (t) => {
  const root = writeTree({ "part.scm": `(define part 'loaded)` });
  writeTree(
    {
      "prog.scm": `(import (scheme base) (scheme write) (scheme eval) (scheme load) (scheme repl))
(load ${JSON.stringify(join(root, "part.scm"))})
(write (list (eval '(* 6 7) (environment '(scheme base))) (eval 'part (interaction-environment))))`,
    },
    root,
  );
  const r = await runProgram(root, "prog.scm");
  t.is(r.out, "(42 loaded)", r.error);
});

test("a program importing only (scheme r5rs) has R5RS's syntax: else, =>, syntax-rules, ... and _", async (t) => {
  const root = writeTree({
    "prog.scm": `(import (scheme r5rs))
(define-syntax my-list (syntax-rules () ((_ _ a ...) (list a ...))))
(write (list (cond (#f 0) (else 'else)) (cond ((memv 2 '(1 2)) => length)) (my-list ignored 1 2)))`,
  });
  const r = await runProgram(root, "prog.scm");
  t.is(r.out, "(else 1 (1 2))", r.error);
});
