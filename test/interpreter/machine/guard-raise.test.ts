// A raise caught by a guard with no dynamic-wind in between reifies nothing
// (ADR 0045): the clauses are tested on top of the raise and a clause's value
// leaves for the guard by a JS exception. These cases are R7RS 4.2.7 (guard),
// 6.11 (raise, raise-continuable, with-exception-handler) and 4.2.6
// (parameterize) read for what the shortcut must not change; the expected
// values follow from that text, not from a run.
import test from "ava";
import { makeInterp } from "../../helpers/interp.js";
import type { Condition } from "../../../interpreter/api.js";

test("=> passes the test's value to the receiver; a clause with only a test returns the test's value (R7RS's examples)", async (t) => {
  const { run } = makeInterp();
  t.is(await run("(guard (condition ((assq 'a condition) => cdr) ((assq 'b condition))) (raise (list (cons 'a 42))))"), "42");
  t.is(await run("(guard (condition ((assq 'a condition) => cdr) ((assq 'b condition))) (raise (list (cons 'b 23))))"), "(b . 23)");
});

test("else applies when no earlier clause does, and the clauses are tried in order", async (t) => {
  const { run } = makeInterp();
  t.is(await run("(guard (e ((string? e) 'str) (else (list 'else e))) (raise 1))"), "(else 1)");
  t.is(await run("(guard (e ((number? e) 'first) ((= e 1) 'second) (else 'third)) (raise 1))"), "first");
});

test("a clause's values are the guard's values, and the code after the raise never runs", async (t) => {
  const { run } = makeInterp();
  await run("(define after 0)");
  t.is(await run("(call-with-values (lambda () (guard (e (#t (values e 2))) (raise 1) (set! after 1))) list)"), "(1 2)");
  t.is(await run("(+ 10 (guard (e ((symbol? e) 5)) (set! after (+ after 1)) (raise 's) (set! after 100)))"), "15");
  t.is(await run("after"), "1");
});

test("no clause applies: the condition goes on to the outer guard", async (t) => {
  const { run } = makeInterp();
  t.is(await run("(guard (e ((symbol? e) (list 'outer e))) (guard (e ((string? e) 'inner)) (raise 'x)))"), "(outer x)");
  t.is(await run("(guard (e ((symbol? e) (list 'outer e))) (guard (e ((symbol? e) (list 'inner e))) (raise 'x)))"), "(inner x)");
  // Three deep, the middle one passing it on.
  t.is(
    await run("(guard (e (#t (list 'a e))) (guard (e ((number? e) (list 'b e))) (guard (e ((string? e) 'c)) (raise 7))))"),
    "(b 7)",
  );
});

test("no clause applies to raise-continuable: the outer handler's value is the value of the raise-continuable", async (t) => {
  const { run } = makeInterp();
  t.is(await run("(with-exception-handler (lambda (e) 10) (lambda () (+ 1 (guard (e ((string? e) 'no)) (raise-continuable 5)))))"), "11");
  // The code after the raise-continuable inside the body runs on with that value.
  t.is(
    await run("(with-exception-handler (lambda (e) (* e 2)) (lambda () (guard (e ((string? e) 'no)) (list 'body (raise-continuable 5) 'after))))"),
    "(body 10 after)",
  );
});

test("no clause applies to raise and the outer handler returns: a secondary exception", async (t) => {
  const { run } = makeInterp();
  t.is(
    await run(`(guard (e ((error-object? e) (error-object-message e)))
                 (with-exception-handler (lambda (e) 0)
                   (lambda () (guard (e2 ((string? e2) 'no)) (raise 'x)))))`),
    '"exception handler returned from a non-continuable raise"',
  );
});

test("re-raising happens in the raise's dynamic environment: parameterize inside the body", async (t) => {
  const { run } = makeInterp();
  await run("(define p (make-parameter 'outer))");
  // The clauses see the guard's binding ...
  t.is(await run("(guard (e ((eq? (p) 'outer) (list 'clause-sees (p)))) (parameterize ((p 'inner)) (raise 'x)))"), "(clause-sees outer)");
  // ... the outer handler, reached when no clause applies, sees the raise's.
  t.is(await run("(with-exception-handler (lambda (e) (p)) (lambda () (guard (e ((string? e) 'no)) (parameterize ((p 'inner)) (raise-continuable 'c)))))"), "inner");
  // After the guard, the parameter is back to the guard's binding.
  t.is(await run("(begin (guard (e (#t 0)) (parameterize ((p 'inner)) (raise 'x))) (p))"), "outer");
});

test("error objects: message and irritants reach the clauses; uncaught, the error points at its raise", async (t) => {
  const { run, interp } = makeInterp();
  t.is(
    await run('(guard (e ((error-object? e) (list (error-object-message e) (error-object-irritants e)))) (error "bad thing" 1 2))'),
    '("bad thing" (1 2))',
  );
  t.is(await run('(guard (e ((string? e) e)) (raise "a string is not an error object"))'), '"a string is not an error object"');
  const o = await interp.evaluateOutcome('(guard (e ((string? e) \'no)) (error "boom" 7))');
  t.false(o.ok);
  const c = (o as { condition: Condition }).condition;
  t.is(c.message, "boom");
  t.deepEqual(c.irritants, [7]);
  t.is(c.loc?.line, 1);
  t.is(c.loc?.col, 30);
});

test("dynamic-wind between the raise and the guard: after thunks run once, innermost first, before the clause", async (t) => {
  const { run } = makeInterp();
  await run("(define log '()) (define (note x) (set! log (cons x log)))");
  t.is(
    await run(`(guard (e (#t (note 'clause) e))
                 (dynamic-wind (lambda () (note 'b1))
                   (lambda () (dynamic-wind (lambda () (note 'b2)) (lambda () (raise 'x)) (lambda () (note 'a2))))
                   (lambda () (note 'a1))))`),
    "x",
  );
  t.is(await run("(reverse log)"), "(b1 b2 a2 a1 clause)");
});

test("dynamic-wind around the guard: its after thunk runs once, when the guard's caller leaves it", async (t) => {
  const { run } = makeInterp();
  await run("(define log '()) (define (note x) (set! log (cons x log)))");
  t.is(
    await run(`(dynamic-wind (lambda () (note 'b))
                 (lambda () (guard (e (#t (note (list 'clause e)) 'done)) (note 'body) (raise 'x)))
                 (lambda () (note 'a)))`),
    "done",
  );
  t.is(await run("(reverse log)"), "(b body (clause x) a)");
});

test("a clause's test or body that raises goes to the handler outside the guard", async (t) => {
  const { run } = makeInterp();
  t.is(await run("(guard (e (#t (list 'outer (error-object? e)))) (guard (e ((car e) 'never)) (raise 'x)))"), "(outer #t)");
  t.is(await run("(guard (e (#t (list 'outer e))) (guard (e (#t (raise (list 'again e)))) (raise 'x)))"), "(outer (again x))");
  // raise-continuable in a clause: the outer handler's value is the clause's value.
  t.is(await run("(with-exception-handler (lambda (e) 5) (lambda () (guard (e (#t (+ 1 (raise-continuable e)))) (raise 'x))))"), "6");
});

test("a continuation captured in a clause returns through the guard each time it is called", async (t) => {
  const { run } = makeInterp();
  t.is(
    await run(`(let ((k #f) (log '()))
                 (let ((v (guard (e (#t (call/cc (lambda (c) (set! k c) 0)))) (raise 'x))))
                   (set! log (cons v log))
                   (if (< v 2) (k (+ v 1)))
                   (reverse log)))`),
    "(0 1 2)",
  );
});

test("a body re-entered through a continuation raises again and the guard catches each time", async (t) => {
  const { run } = makeInterp();
  t.is(
    await run(`(let ((k #f) (n 0))
                 (let ((v (guard (e (#t (list 'caught e)))
                            (call/cc (lambda (c) (set! k c)))
                            (set! n (+ n 1))
                            (raise n))))
                   (if (< n 3) (k #f))
                   v))`),
    "(caught 3)",
  );
});

test("a handler installed inside the guard body raises: the guard catches what it raises", async (t) => {
  const { run } = makeInterp();
  t.is(await run("(guard (e (#t (list 'g e))) (with-exception-handler (lambda (e) (raise (list 'h e))) (lambda () (raise 'x))))"), "(g (h x))");
  // The inner handler returns to a raise-continuable: the guard sees nothing.
  t.is(await run("(guard (e (#t 'g)) (with-exception-handler (lambda (e) (* e 3)) (lambda () (+ 1 (raise-continuable 2)))))"), "7");
});

test("a thousand raises caught in a loop leave the JS stack and the handler stack as they were", async (t) => {
  const { run } = makeInterp();
  t.is(await run("(let loop ((i 0) (n 0)) (if (= i 1000) n (loop (+ i 1) (+ n (guard (e ((number? e) e)) (raise 1))))))"), "1000");
  // No guard is left installed: a raise now is uncaught by any of them.
  t.is(await run("(guard (e ((symbol? e) 'outer)) (let loop ((i 0)) (if (< i 10) (begin (guard (e ((number? e) e)) (raise 1)) (loop (+ i 1))) (raise 's))))"), "outer");
});

test("the raise reifies no frame when no dynamic-wind lies between it and the guard (ADR 0045)", async (t) => {
  // The depth limit counts the frames a reified continuation holds: 300 calls
  // deep, a raise that reified the stack would hold more than 200.
  const { run, interp } = makeInterp();
  await run("(define (deep i) (if (= i 0) (raise 'bottom) (+ 1 (deep (- i 1)))))");
  const limits = { maxDepth: 200 };
  const fast = await interp.evaluateOutcome("(guard (e (#t (list 'caught e))) (deep 300))", { limits });
  t.true(fast.ok);
  // With a dynamic-wind in between the raise takes the heap path, which reifies.
  const wound = await interp.evaluateOutcome("(guard (e (#t (list 'caught e))) (dynamic-wind (lambda () #f) (lambda () (deep 300)) (lambda () #f)))", { limits });
  t.false(wound.ok);
  t.regex((wound as { condition: Condition }).condition.message, /recursion depth limit \(200 frames\)/);
});
