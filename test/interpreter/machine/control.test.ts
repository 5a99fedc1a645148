// The machine's control: tail calls in constant space, call/cc re-entry, dynamic-wind order, deep recursion.
import test from "ava";
import { makeInterp } from "../../helpers/interp.js";

// A continuation of at most `maxDepth` frames: if a tail call leaked a frame per
// iteration (on the JS stack, which is reified into frames, or on the heap), a
// loop of a million iterations would exceed it and fail with a limit condition.
const TIGHT = { limits: { maxDepth: 200 } };

test("a million self tail calls run in constant space", async (t) => {
  const { run } = makeInterp(TIGHT);
  t.is(await run("(let loop ((i 0)) (if (< i 1000000) (loop (+ i 1)) i))"), "1000000");
});

test("mutual tail recursion through globals runs in constant space", async (t) => {
  const { run } = makeInterp(TIGHT);
  await run("(define (ev? n) (if (= n 0) #t (od? (- n 1)))) (define (od? n) (if (= n 0) #f (ev? (- n 1))))");
  t.is(await run("(ev? 1000001)"), "#f");
});

test("tail calls through cond, case, and, or, when, let*, apply and call/cc stay constant", async (t) => {
  const { run } = makeInterp(TIGHT);
  const loops = [
    "(define (f n) (cond ((= n 0) 'done) (else (f (- n 1)))))",
    "(define (f n) (case n ((0) 'done) (else (f (- n 1)))))",
    "(define (f n) (and #t (if (= n 0) 'done (f (- n 1)))))",
    "(define (f n) (or (and (= n 0) 'done) (f (- n 1))))",
    "(define (f n) (if (= n 0) 'done (let* ((m (- n 1))) (f m))))",
    "(define (f n) (if (= n 0) 'done (apply f (list (- n 1)))))",
    "(define (f n) (if (= n 0) 'done (call/cc (lambda (k) (f (- n 1))))))",
    "(define (f n) (if (= n 0) 'done (call-with-values (lambda () (- n 1)) f)))",
  ];
  for (const def of loops) {
    await run(def);
    t.is(await run("(f 300000)"), "done", def);
  }
});

test("a continuation re-entered several times resumes the same computation", async (t) => {
  const { run } = makeInterp();
  const r = await run(`
    (let ((k #f) (visits '()))
      (let ((v (+ 100 (call/cc (lambda (c) (set! k c) 0)))))
        (set! visits (cons v visits))
        (if (< (length visits) 4) (k (length visits)) (reverse visits))))`);
  t.is(r, "(100 101 102 103)");
});

test("re-entering a continuation captured inside map leaves the earlier result unchanged", async (t) => {
  const { run } = makeInterp();
  const r = await run(`
    (let* ((k #f) (n 0)
           (result (map (lambda (x) (call/cc (lambda (c) (if (= x 2) (set! k c)) x))) '(1 2 3))))
      (set! n (+ n 1))
      (if (= n 1) (begin (set! first result) (k 20)) (list first result)))`.replace("(set! first result)", "(set! k2 result)").replace("(list first result)", "(list k2 result)").replace("(k #f) (n 0)", "(k #f) (k2 #f) (n 0)"));
  t.is(r, "((1 2 3) (1 20 3))");
});

test("generators re-enter continuations across a tree walk", async (t) => {
  const { run } = makeInterp();
  await run(`
    (define (make-gen tree)
      (define return #f)
      (define (walk t) (cond ((null? t) 'skip) ((pair? t) (walk (car t)) (walk (cdr t))) (else (call/cc (lambda (resume) (set! next (lambda () (resume #f))) (return t))))))
      (define next (lambda () (walk tree) (return 'done)))
      (lambda () (call/cc (lambda (r) (set! return r) (next)))))`);
  t.is(await run("(let ((g (make-gen '((a b) (c (d)) e)))) (let loop ((acc '())) (let ((x (g))) (if (eq? x 'done) (reverse acc) (loop (cons x acc))))))"), "(a b c d e)");
});

test("dynamic-wind runs before and after in order on escape and re-entry", async (t) => {
  const { run } = makeInterp();
  const r = await run(`
    (let ((trace '()) (k #f) (n 0))
      (define (note x) (set! trace (cons x trace)))
      (dynamic-wind
        (lambda () (note 'before))
        (lambda () (call/cc (lambda (c) (set! k c))) (note 'during))
        (lambda () (note 'after)))
      (set! n (+ n 1))
      (if (< n 3) (k 'again))
      (reverse trace))`);
  t.is(r, "(before during after before during after before during after)");
});

test("nested dynamic-winds unwind innermost first when escaping", async (t) => {
  const { run } = makeInterp();
  const r = await run(`
    (let ((trace '()))
      (define (note x) (set! trace (cons x trace)))
      (call/cc (lambda (out)
        (dynamic-wind (lambda () (note 'in1))
          (lambda () (dynamic-wind (lambda () (note 'in2)) (lambda () (out 'x)) (lambda () (note 'out2))))
          (lambda () (note 'out1)))))
      (reverse trace))`);
  t.is(r, "(in1 in2 out2 out1)");
});

// R7RS 6.10: after is called whenever control leaves the thunk's dynamic extent. An error that no
// handler takes leaves it too (the evaluation ends), so the after thunks run, innermost first,
// before the error is the evaluation's outcome — and the error reported is still the first one.
test("an error no handler takes runs the after thunks of the dynamic-winds it leaves", async (t) => {
  const { run, out } = makeInterp();
  const e = await t.throwsAsync(
    run(`(dynamic-wind (lambda () (display "in1 "))
           (lambda () (dynamic-wind (lambda () (display "in2 ")) (lambda () (car 1)) (lambda () (display "out2 "))))
           (lambda () (display "out1 ")))`),
  );
  t.regex(e!.message, /bad argument #1 to 'car' \(pair expected, got 1\)/);
  t.is(out(), "in1 in2 out2 out1 ");
  // An after thunk that fails itself stops the unwinding; the outcome is the error that started it.
  const e2 = await t.throwsAsync(
    run(`(dynamic-wind (lambda () #f)
           (lambda () (dynamic-wind (lambda () #f) (lambda () (raise 'first)) (lambda () (display "a2 ") (raise 'second))))
           (lambda () (display "a1 ")))`),
  );
  t.regex(e2!.message, /first/);
  t.is(out(), "in1 in2 out2 out1 a2 ");
  // The next evaluation starts outside every extent: escaping from it runs no stale after thunk.
  t.is(await run("(+ 1 (call/cc (lambda (k) (k 1))))"), "2");
  t.is(out(), "in1 in2 out2 out1 a2 ");
  // A handled error leaves nothing to unwind at top level: guard already ran the after thunk once.
  t.is(await run(`(guard (e (#t 'caught)) (dynamic-wind (lambda () #f) (lambda () (raise 'x)) (lambda () (display "g "))))`), "caught");
  t.is(out(), "in1 in2 out2 out1 a2 g ");
});

test("non-tail recursion a million deep returns", async (t) => {
  const { run } = makeInterp();
  await run("(define (f n) (if (= n 0) 0 (+ 1 (f (- n 1)))))");
  t.is(await run("(f 1000000)"), "1000000");
});

test("an escape from deep recursion and an error raised there are caught", async (t) => {
  const { run } = makeInterp();
  await run("(define (dig n k) (if (= n 0) (k 'escaped) (+ 1 (dig (- n 1) k))))");
  t.is(await run("(call/cc (lambda (k) (dig 200000 k)))"), "escaped");
  await run("(define (boom n) (if (= n 0) (car '()) (+ 1 (boom (- n 1)))))");
  t.is(await run("(guard (e ((error-object? e) 'caught)) (boom 200000))"), "caught");
});

test("a frame resumed after the stack was reified continues with the calls after its site", async (t) => {
  // Two calls in one body: the first trips the depth limit in its callee, the
  // resume function must then make the second call with the fast code's site ids.
  const { run } = makeInterp();
  await run("(define (id x) x) (define (g l) (if (null? l) '() (cons (id (car l)) (g (cdr l)))))");
  t.is(await run("(let ((r (g (iota-list 20000)))) (list (length r) (car r) (list-ref r 19999)))".replace("(iota-list 20000)", "(let loop ((i 20000) (acc '())) (if (= i 0) acc (loop (- i 1) (cons i acc))))")), "(20000 1 20000)");
});

test("a procedure with a rest parameter re-entered after a yield keeps its rest list", async (t) => {
  // Long enough to cross several time slices of the asynchronous run loop.
  const { run } = makeInterp();
  await run("(define (count-down n . tags) (if (= n 0) tags (count-down (- n 1) (car tags))))");
  // With the rest list wrapped twice on re-entry the result would nest deeper.
  t.is(await run("(count-down 3000000 'x)"), "(x)");
  t.is(await run("(string-length (string-map (lambda (c) #\\b) (make-string 200000 #\\a)))"), "200000");
});

test("deep recursion of a procedure with many variables fits Node's default JS stack", async (t) => {
  // ava runs without a larger --stack-size: the depth limit weighs each frame by its variables.
  const { run } = makeInterp();
  await run(`(define (f n a b c d e)
    (if (= n 0) 0
        (let* ((x (+ a 1)) (y (+ b x)) (z (+ c y)) (w (+ d z)) (q (+ e w)))
          (+ 1 (f (- n 1) x y z w q) (vector-length (vector x y z w q))))))`);
  t.is(await run("(f 100000 1 2 3 4 5)"), "600000");
});

// R7RS §6.10: (apply proc arg1 ... args) — the last argument, a list, is required.
test("apply spreads its last argument, a required list, after the others; without one it is an error", async (t) => {
  const { run } = makeInterp();
  t.is(await run("(list (apply + (list 3 4)) (apply + 3 4 '()) (apply list 1 2 '(3 4)) (apply + '()))"), "(7 7 (1 2 3 4) 0)");
  await t.throwsAsync(run("(apply +)"), { message: /apply: wrong number of arguments \(expected at least 2, got 1\)/ });
  await t.throwsAsync(run("(apply + 3)"), { message: /bad argument #2 to 'apply' \(list expected, got 3\)/ });
  await t.throwsAsync(run("(apply + 3 4)"), { message: /bad argument #3 to 'apply' \(list expected, got 4\)/ });
  await t.throwsAsync(run("(apply + '(2 3 . 4))"), { message: /bad argument #2 to 'apply' \(list expected/ });
  // The error is a Scheme condition a handler catches, as in chibi's suite.
  t.is(await run("(guard (e ((error-object? e) 'caught)) (apply +))"), "caught");
});

test("a continuation re-entered through a frame that reads a global defined after the procedure was compiled", async (t) => {
  // f reads \`later\` through the unbound check (it was not defined when f was
  // compiled); the check records a site of its own, and f's frame must still
  // resume after the call/cc exactly as it was saved, once per re-entry.
  const { run } = makeInterp();
  await run("(define k #f) (define seen '())");
  await run("(define (f) (list (call/cc (lambda (c) (set! k c) 1)) later (call/cc (lambda (c) 2)) later))");
  await run("(define later 10)");
  await run("(set! seen (cons (f) seen))");
  await run("(if (< (length seen) 3) (k (+ 1 (length seen))))");
  await run("(if (< (length seen) 3) (k (+ 1 (length seen))))");
  t.is(await run("(reverse seen)"), "((1 10 2 10) (2 10 2 10) (3 10 2 10))");
});

test("an unbound global read in a procedure, not called: the error is the reference's, and the procedure still runs once it is defined", async (t) => {
  const { run } = makeInterp();
  await run("(define (g x) (+ x (* 2 missing)))");
  await t.throwsAsync(run("(g 1)"), { message: /unbound variable: missing/ });
  await run("(define missing 20)");
  t.is(await run("(g 1)"), "41");
});
