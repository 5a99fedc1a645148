// Long bodies in chunks and the shared body resumer: a capture's cost does not grow with the captures before it.
import test from "ava";
import { makeInterp } from "../../helpers/interp.js";

/** `n` statements, each a guard whose body raises every tenth time and counts otherwise. */
function guards(n: number): string {
  const s: string[] = [];
  for (let i = 1; i <= n; i++) s.push(`(guard (e (#t (set! caught (+ caught 1)))) (work ${i}))`);
  return s.join("\n  ");
}

/** `n` statements, each a call/cc whose continuation every odd one escapes through. */
function callccs(n: number): string {
  const s: string[] = [];
  for (let i = 1; i <= n; i++) s.push(`(set! count (+ count (call/cc (lambda (k) (if (odd? ${i}) (k ${i}) 0)))))`);
  return s.join("\n  ");
}

const PRELUDE = `(define count 0) (define caught 0)
(define (work i) (if (= 0 (remainder i 10)) (raise i) (set! count (+ count i))))`;

/** What the guard or call/cc program must leave in (count caught). */
function expected(kind: "guard" | "callcc", n: number): string {
  let count = 0;
  let caught = 0;
  for (let i = 1; i <= n; i++) {
    if (kind === "guard") {
      if (i % 10 === 0) caught++;
      else count += i;
    } else if (i % 2 === 1) count += i;
  }
  return `(${count} ${caught})`;
}

/** Runs N captures in one procedure body; returns the answer and the characters of JS generated for it. */
async function inOneBody(kind: "guard" | "callcc", n: number): Promise<{ answer: string; js: number }> {
  let js = 0;
  let counting = false;
  const { run } = makeInterp({ trace: (src) => void (counting && (js += src.length)) });
  await run(PRELUDE);
  counting = true;
  const answer = await run(`(define (run) ${kind === "guard" ? guards(n) : callccs(n)} #t) (run) (list count caught)`);
  return { answer, js };
}

test("N guards and N call/cc in one procedure body give the answers of the same statements one by one", async (t) => {
  for (const kind of ["guard", "callcc"] as const) {
    for (const n of [1, 7, 8, 9, 17, 250]) t.is((await inOneBody(kind, n)).answer, expected(kind, n), `${kind} ${n}`);
  }
});

test("the code made for N captures in one body grows linearly in N: no capture recompiles or resaves what came before it", async (t) => {
  // The code generated while compiling and running the body: the procedure,
  // its chunks, and every resume function its captures needed. Before chunks
  // a resume function held the rest of the body and every call site saved
  // every temp of the body, so the code grew as N².
  for (const kind of ["guard", "callcc"] as const) {
    const sizes = [100, 200, 400];
    const js: number[] = [];
    for (const n of sizes) {
      const r = await inOneBody(kind, n);
      t.is(r.answer, expected(kind, n));
      js.push(r.js);
    }
    for (let i = 1; i < sizes.length; i++) {
      const ratio = (js[i] as number) / (js[i - 1] as number);
      t.true(ratio <= 2.2, `${kind}: N ${sizes[i - 1]} → ${sizes[i]}: ${js[i - 1]} → ${js[i]} characters of JS (×${ratio.toFixed(2)})`);
    }
  }
});

test("a test suite written as one procedure of a thousand guarded assertions runs them all (SRFI 135's shape)", async (t) => {
  // Like chibi's (chibi test): each assertion is a macro use that evaluates
  // its expression inside a guard, in one run-tests body with internal
  // definitions that later assertions use.
  const { run, out } = makeInterp();
  await run(`
    (define passed 0) (define failed '())
    (define-syntax test
      (syntax-rules ()
        ((_ expect expr)
         (let ((got (guard (e (#t (list 'raised (if (error-object? e) (error-object-message e) e)))) expr)))
           (if (equal? got expect) (set! passed (+ passed 1)) (set! failed (cons 'expr failed)))))))
    (define-syntax test-error
      (syntax-rules () ((_ expr) (test 'error (guard (e (#t 'error)) expr 'no-error)))))`);
  const body: string[] = ["(define abc (string #\\a #\\b #\\c))", "(define total 0)"];
  let n = 0;
  for (let i = 0; i < 250; i++) {
    body.push(`(test ${i + 3} (string-length (string-append abc (make-string ${i} #\\x))))`);
    body.push(`(test-error (string-ref abc ${3 + i}))`);
    body.push(`(test "${"c".repeat(i % 5)}" (substring (string-append abc (make-string 5 #\\c)) 3 ${3 + (i % 5)}))`);
    body.push(`(begin (set! total (+ total ${i})) (test ${(i * (i + 1)) / 2} total))`);
    n += 4;
  }
  t.is(await run(`(define (run-tests) ${body.join("\n")} (display (list passed (length failed)))) (run-tests) failed`), "()");
  t.is(out(), `(${n} 0)`);
});

test("a continuation captured early in a long body is re-entered after the later chunks ran, with the same variables", async (t) => {
  const { run } = makeInterp();
  await run("(define (touch i) i)");
  const stmts: string[] = [];
  for (let i = 1; i <= 30; i++) {
    stmts.push(`(set! log (cons (touch ${i}) log))`);
    if (i === 5) stmts.push("(call/cc (lambda (k) (if (not k0) (set! k0 k))))");
  }
  const r = await run(`
    (define k0 #f) (define rounds 0)
    (define (body) (define log '()) ${stmts.join(" ")} (reverse log))
    (let ((r (body)))
      (set! rounds (+ rounds 1))
      (if (< rounds 3) (k0 #f) (list rounds r)))`);
  // Each re-entry goes on after statement 5 with the same log: 6 … 30 again.
  const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
  const log = [...range(1, 30), ...range(6, 30), ...range(6, 30)];
  t.is(r, `(3 (${log.join(" ")}))`);
});

test("a long body keeps its tail call, its deep recursion, its loop and dynamic-wind", async (t) => {
  const calls = Array.from({ length: 20 }, (_, i) => `(touch ${i})`).join(" ");
  // The self tail call ends the last chunk, and each chunk tail-calls the
  // next: 100,000 iterations within a ceiling of 1,000 frames.
  const shallow = makeInterp({ limits: { maxDepth: 1000 } });
  await shallow.run("(define (touch i) i)");
  t.is(await shallow.run(`(define (f n acc) ${calls} (if (= n 0) acc (f (- n 1) (+ acc 1)))) (f 100000 0)`), "100000");
  const { run, out } = makeInterp();
  await run("(define (touch i) i)");
  // A non-tail recursion through the chunks, deeper than the JS stack.
  t.is(await run(`(define (g n) ${calls} (if (= n 0) 0 (+ 1 (g (- n 1))))) (g 100000)`), "100000");
  // A named let's body ending in its jump is left whole, and stays a loop.
  t.is(await run(`(let loop ((i 0) (acc '())) ${calls} (if (< i 3) (loop (+ i 1) (cons i acc)) acc))`), "(2 1 0)");
  // An escape from a later chunk runs the after thunk once.
  t.is(
    await run(`(call/cc (lambda (k) (dynamic-wind (lambda () (display "[")) (lambda () ${calls} (k 'out) ${calls} 'no) (lambda () (display "]")))))`),
    "out",
  );
  t.is(out(), "[]");
});

test("an error in a later chunk of a long body names the procedure and the line", async (t) => {
  const { interp } = makeInterp();
  const lines = Array.from({ length: 20 }, (_, i) => `  (touch ${i})`);
  lines.splice(15, 0, "  (car touch)");
  const out = await interp.evaluateOutcome(`(define (touch i) i)\n(define (long)\n${lines.join("\n")})\n(list (long))`, { file: "prog.scm" });
  t.false(out.ok);
  if (out.ok) return;
  t.regex(out.condition?.message ?? "", /car/);
  t.is(out.condition?.loc?.line, 18);
  t.is(out.condition?.backtrace?.[0]?.name, "long");
});
