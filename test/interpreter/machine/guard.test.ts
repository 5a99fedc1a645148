// guard without a capture on entry (ADR 0035): the handler finds the guard's
// frame in the raise's continuation and escapes to it. R7RS 4.2.7 semantics.
import test from "ava";
import { makeInterp } from "../../helpers/interp.js";

test("a guard whose body raises nothing returns the body's values", async (t) => {
  const { run } = makeInterp();
  t.is(await run("(guard (e (#t 'caught)) (+ 1 2))"), "3");
  t.is(await run("(call-with-values (lambda () (guard (e (#t 0)) (values 1 2))) list)"), "(1 2)");
});

test("a raise is caught by the first clause that applies, in the guard's dynamic environment", async (t) => {
  const { run } = makeInterp();
  await run("(define p (make-parameter 'outer))");
  t.is(await run("(guard (e ((string? e) 'str) ((symbol? e) (list e (p)))) (parameterize ((p 'inner)) (raise 'boom)))"), "(boom outer)");
  t.is(await run("(guard (e ((error-object? e) (error-object-message e))) (car 1))"), '"bad argument #1 to \'car\' (pair expected, got 1)"');
});

test("no clause applies: re-raised in the raise's dynamic environment to the outer handler, dynamic-wind in order", async (t) => {
  const { run } = makeInterp();
  await run("(define p (make-parameter 'outer)) (define log '()) (define (note x) (set! log (cons x log)))");
  const r = await run(`(with-exception-handler
      (lambda (e) (note (list 'outer-handler e (p))) 42)
      (lambda ()
        (guard (e ((string? e) 'no))
          (parameterize ((p 'inner))
            (dynamic-wind (lambda () (note 'before))
                          (lambda () (+ 1 (raise-continuable 'x)))
                          (lambda () (note 'after)))))))`);
  t.is(r, "43");
  t.is(await run("(reverse log)"), "(before after before (outer-handler x inner) after)");
});

test("raise-continuable inside a guard body reaches an inner handler and continues", async (t) => {
  const { run } = makeInterp();
  t.is(await run("(guard (e (#t 'caught)) (with-exception-handler (lambda (e) 10) (lambda () (+ 1 (raise-continuable 'c)))))"), "11");
});

test("nested guards: the inner one re-raises to the outer one", async (t) => {
  const { run } = makeInterp();
  t.is(await run("(guard (e (#t (list 'outer e))) (guard (e ((number? e) 'inner)) (raise 'sym)))"), "(outer sym)");
  t.is(await run("(guard (e (#t (list 'outer e))) (guard (e ((number? e) (raise (+ e 1)))) (raise 1)))"), "(outer 2)");
});

test("a continuation captured in a guard body can be re-entered after the guard returned, and the guard still catches", async (t) => {
  const { run } = makeInterp();
  await run("(define k #f) (define out '())");
  await run(`(define (go)
    (set! out (cons (guard (e (#t (list 'caught e)))
                      (let ((v (call/cc (lambda (c) (set! k c) 0))))
                        (if (= v 2) (raise 'two) (+ 100 v))))
                    out))
    (if (< (length out) 3) (k (length out))))`);
  await run("(go)");
  t.is(await run("out"), "((caught two) 101 100)");
});

test("guard inside deep recursion and a raise from deep inside a guard body", async (t) => {
  const { run } = makeInterp();
  await run("(define (rec i) (if (= i 0) 0 (+ 1 (guard (e (#t 0)) (rec (- i 1))))))");
  t.is(await run("(rec 50000)"), "50000");
  await run("(define (deep i) (if (= i 0) (raise 'bottom) (+ 1 (deep (- i 1)))))");
  t.is(await run("(guard (e (#t (list 'deep e))) (deep 100000))"), "(deep bottom)");
  await run("(define (rec2 i) (if (= i 0) (raise 'b) (+ 1 (guard (e ((= i 1) 0)) (rec2 (- i 1))))))");
  t.is(await run("(rec2 30000)"), "30000");
});
