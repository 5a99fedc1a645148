// Named lets and do loops compiled as loops in their parent (contification): same meaning as procedures.
import test from "ava";
import { makeInterp } from "../../helpers/interp.js";

test("a named let used as a value in a non-tail position gives its result to the expression around it", async (t) => {
  const { run } = makeInterp();
  t.is(await run("(+ 1 (let loop ((i 0) (acc 0)) (if (< i 10) (loop (+ i 1) (+ acc i)) acc)))"), "46");
  t.is(await run("(list (do ((i 0 (+ i 1))) ((= i 3) 'done)) 'after)"), "(done after)");
});

test("nested loops, an inner one in tail position of the outer", async (t) => {
  const { run } = makeInterp();
  const r = await run(`
    (let outer ((i 0) (acc '()))
      (if (= i 3) (reverse acc)
          (let inner ((j 0) (acc acc))
            (if (= j 2) (outer (+ i 1) acc) (inner (+ j 1) (cons (list i j) acc))))))`);
  t.is(r, "((0 0) (0 1) (1 0) (1 1) (2 0) (2 1))");
});

test("a loop variable assigned with set! and closures made in the loop see their own iteration", async (t) => {
  const { run } = makeInterp();
  t.is(await run("(let loop ((i 0) (fs '())) (if (= i 3) (map (lambda (f) (f)) fs) (begin (set! i i) (loop (+ i 1) (cons (lambda () i) fs)))))"), "(2 1 0)");
  t.is(await run("(let ((s 0)) (do ((i 0 (+ i 1))) ((>= i 5) s) (set! s (+ s i)) (set! i (+ i 1))))"), "6");
});

test("a continuation captured inside a loop body is re-entered with the loop's variables as they were", async (t) => {
  const { run } = makeInterp();
  const r = await run(`
    (let ((k #f) (log '()))
      (let loop ((i 0))
        (when (< i 3)
          (let ((v (call/cc (lambda (c) (if (= i 1) (set! k c)) 'first))))
            (set! log (cons (list i v) log))
            (loop (+ i 1)))))
      (if (< (length log) 5) (k 'again) (reverse log)))`);
  // Re-entered at i = 1 with 'again; at i = 2 the call/cc runs anew and returns 'first.
  t.is(r, "((0 first) (1 first) (2 first) (1 again) (2 first))");
});

test("guard inside a loop's jump arguments resumes in the argument, not from the start", async (t) => {
  const { run } = makeInterp();
  t.is(await run("(let loop ((i 0) (n 0)) (if (= i 100) n (loop (+ i 1) (+ n (guard (e (#t 1)) (raise 'x))))))"), "100");
});

test("a long loop yields at its head between time slices and goes on where it was", async (t) => {
  const { run } = makeInterp();
  // Long enough for several 20 ms slices of the asynchronous run loop.
  t.is(await run("(let loop ((i 0) (acc 0)) (if (= i 5000000) acc (loop (+ i 1) (+ acc 1))))"), "5000000");
  t.is(await run("(define (count n) (let loop ((i 0)) (if (< i n) (loop (+ i 1)) i))) (+ 1 (count 3000000))"), "3000001");
});

test("a loop whose procedure escapes stays a procedure", async (t) => {
  const { run } = makeInterp();
  t.is(await run("(let loop ((i 0)) (if (< i 3) (loop (+ i 1)) loop))").then((s) => s.startsWith("#<procedure")), true);
  t.is(await run("(let ((f #f)) (let loop ((i 0)) (set! f loop) (if (< i 2) (loop (+ i 1)) (procedure? f))))"), "#t");
});

test("limits stop a contified endless loop", async (t) => {
  const { interp } = makeInterp();
  const out = await interp.evaluateOutcome("(let loop ((i 0)) (loop (+ i 1)))", { limits: { steps: 100_000 } });
  t.is(out.ok ? "" : out.condition?.code, "steps");
});
