// Async host procedures: the machine suspends on their Promise and resumes, in any position.
import test from "ava";
import { makeInterp } from "../../helpers/interp.js";
import { T, MString, EvalError } from "../../../interpreter/api.js";

function withSleep() {
  const ti = makeInterp();
  let calls = 0;
  ti.interp.define({
    name: "async-double",
    params: ["n"],
    types: [T.exactInteger],
    doc: "Doubles n after a timer tick.",
    async: true,
    impl: (n: number) =>
      new Promise((resolve) => {
        calls++;
        setTimeout(() => resolve(n * 2), 0);
      }),
  });
  ti.interp.define({
    name: "async-fail",
    params: [],
    doc: "Rejects.",
    async: true,
    impl: () => Promise.reject(new Error("disk on fire")),
  });
  return { ...ti, calls: () => calls };
}

test("an async procedure's value arrives in a non-tail position", async (t) => {
  const { run } = withSleep();
  t.is(await run("(+ 1 (async-double 20) 1)"), "42");
});

test("async calls deep inside recursion and loops resume the right frames", async (t) => {
  const { run, calls } = withSleep();
  await run("(define (sum l) (if (null? l) 0 (+ (async-double (car l)) (sum (cdr l)))))");
  t.is(await run("(sum '(1 2 3 4 5 6 7 8 9 10))"), "110");
  t.is(await run("(let loop ((i 0) (acc 0)) (if (= i 50) acc (loop (+ i 1) (+ acc (async-double i)))))"), "2450");
  t.is(calls(), 60);
});

test("a continuation captured across an async call can be re-entered", async (t) => {
  const { run } = withSleep();
  const r = await run(`
    (let ((k #f) (n 0))
      (let ((v (async-double (call/cc (lambda (c) (set! k c) 1)))))
        (set! n (+ n 1))
        (if (< n 3) (k (+ n 1)) (list v n))))`);
  t.is(r, "(6 3)");
});

test("a rejected Promise is raised as a host condition that guard can catch", async (t) => {
  const { run, interp } = withSleep();
  t.is(await run("(guard (e ((error-object? e) (condition-kind e))) (async-fail))"), "host");
  await t.throwsAsync(interp.evaluate("(async-fail)"), { instanceOf: EvalError, message: /disk on fire/ });
});

test("an async procedure in a synchronous evaluation is a clear error, not a hang", (t) => {
  const { interp } = withSleep();
  const out = interp.evaluateSyncOutcome("(async-double 1)");
  t.false(out.ok);
  t.regex(out.ok ? "" : (out.condition?.message ?? ""), /asynchronous/);
});

test("evaluations of one interpreter are serialised", async (t) => {
  const { interp } = withSleep();
  await interp.evaluate("(define log '())");
  const a = interp.evaluate("(set! log (cons (async-double 1) log))");
  const b = interp.evaluate("(set! log (cons 'b log))");
  await Promise.all([a, b]);
  t.is(String(await interp.evaluate("(car log)")), "b");
  void MString;
});

test("the deadline and an abort also end the wait for an async procedure", async (t) => {
  const ti = makeInterp();
  ti.interp.define({
    name: "slow",
    params: [],
    doc: "Never resolves: only a limit can end the wait (else the test times out).",
    async: true,
    impl: () => new Promise(() => {}),
  });
  const out = await ti.interp.evaluateOutcome("(slow)", { limits: { timeoutMs: 50 } });
  t.false(out.ok);
  t.is(out.ok ? "" : out.condition?.code, "timeout");
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 20);
  const out2 = await ti.interp.evaluateOutcome("(+ 1 (slow))", { limits: { signal: ac.signal } });
  t.is(out2.ok ? "" : out2.condition?.code, "aborted");
});

test("a raise after an async procedure resumed the guard body from the heap is still caught by that guard (ADR 0045)", async (t) => {
  const { run } = withSleep();
  // The suspension saves the guard's frame; the raise after it escapes to that frame.
  t.is(await run("(+ 1 (guard (e ((number? e) (* e 10))) (raise (+ 1 (async-double 2)))))"), "51");
  // No clause applies: the outer guard, also on the heap, catches it.
  t.is(await run("(guard (e ((symbol? e) (list 'outer e))) (guard (e ((number? e) 'inner)) (async-double 1) (raise 'after-sleep)))"), "(outer after-sleep)");
});
