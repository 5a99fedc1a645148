// Top-level definitions a macro introduces (R7RS §5.3, §5.6.1, §4.3): spliced by begin, renamed, and seen by each other.
import test from "ava";
import { makeInterp } from "../../helpers/interp.js";
import { writeTree, runProgram, libInterp } from "./tree.js";

// A macro whose (begin …) defines a procedure under a name the user gives and a
// helper under a name of its own: the helper is renamed (§4.3), and the user's
// procedure, defined first, calls it.
const DEFINER = `(define-syntax define-square
  (syntax-rules ()
    ((_ name)
     (begin
       (define (name x) (helper x))
       (define (helper x) (* x x))))))`;

test("a procedure a macro defines at the top level calls a helper the same expansion defines after it", async (t) => {
  const { run } = makeInterp();
  await run(DEFINER);
  await run("(define-square sq)");
  t.is(await run("(sq 10)"), "100");
  // The helper stays private to the expansion: the user's name is untouched.
  await t.throwsAsync(run("(helper 3)"), { message: /unbound variable: helper/ });
  await run("(define (helper x) 'mine) (define-square sq2)");
  t.is(await run("(list (sq2 4) (helper 4))"), "(16 mine)");
  // The definer and its use inside one begin, as a program's top level may have them.
  t.is(await run(`(begin ${DEFINER.replace("define-square", "define-square2")} (define-square2 sq3) (sq3 7))`), "49");
});

test("in a program and in a library body, macro-introduced definitions see each other, in any order", async (t) => {
  const root = writeTree({
    "lib/sq.sld": `(define-library (sq) (import (scheme base)) (export define-square cube)
  (begin ${DEFINER}
    (define-square cube-helper)
    (define (cube x) (* x (cube-helper x)))))`,
    "prog.scm": `(import (scheme base) (scheme write) (sq))
(define-syntax define-even-odd
  (syntax-rules ()
    ((_ even?)
     (begin
       (define (even? n) (if (= n 0) #t (flip (- n 1))))
       (define (flip n) (if (= n 0) #f (even? (- n 1))))))))
(define-even-odd my-even?)
(define-square sq)
(write (list (my-even? 10) (my-even? 7) (sq 9) (cube 3)))`,
  });
  const r = await runProgram(root, "prog.scm", libInterp(root));
  t.is(r.error, "");
  t.is(r.out, "(#t #f 81 27)");
});

test("a top-level begin defines its syntax before the forms after it and its variables before any expression runs", async (t) => {
  const { run } = makeInterp();
  // A macro defined inside the begin is used by the next form of the same begin.
  t.is(await run("(begin (define-syntax twice (syntax-rules () ((_ e) (list e e)))) (define y (twice 1)) y)"), "(1 1)");
  // Expressions run in order, between the definitions.
  t.is(await run("(begin (define log '()) (set! log (cons 'a log)) (define z (cons 'b log)) z)"), "(b a)");
  // Nested begins splice too.
  t.is(await run("(begin (begin (define p 1)) (begin (define q (+ p 1))) (list p q))"), "(1 2)");
});
