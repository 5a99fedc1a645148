// Runaway loops stop (reliability plan T2): exactly at the step budget, soon after the deadline, whatever handlers they run under.
//
// Serial: a synchronous evaluation of one test would hold up the deadline of another.
import anyTest from "ava";
import { makeInterp } from "../../helpers/interp.js";
import { spend, type Interpreter, type Limits, type Outcome } from "../../../interpreter/api.js";

const test = anyTest.serial;

function codeOf(out: Outcome): string {
  if (out.ok) return "ok";
  const c = out.condition;
  return c?.kind === "limit" ? `limit:${c.code}` : `${c?.kind ?? "raise"}: ${c?.message}`;
}

/** The fewest steps with which `src` completes, found by bisection (it must complete with `hi`). */
async function minimalSteps(interp: Interpreter, src: string, hi: number): Promise<number> {
  let lo = 0;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if ((await interp.evaluateOutcome(src, { limits: { steps: mid } })).ok) hi = mid;
    else lo = mid;
  }
  return hi;
}

test("the step budget is exact: each loop iteration is one step, and the step past the budget is refused", async (t) => {
  const { interp } = makeInterp();
  const loop = (n: number) => `(let loop ((i 0)) (if (< i ${n}) (loop (+ i 1)) i))`;
  const s1000 = await minimalSteps(interp, loop(1000), 100_000);
  const s50000 = await minimalSteps(interp, loop(50_000), 1_000_000);
  // The iterations differ by 49,000, and so do the budgets they need: a step is a step across batches of 16,384.
  t.is(s50000 - s1000, 49_000);
  t.is(codeOf(await interp.evaluateOutcome(loop(50_000), { limits: { steps: s50000 - 1 } })), "limit:steps");
  t.is(codeOf(await interp.evaluateOutcome(loop(50_000), { limits: { steps: s50000 } })), "ok");
});

test("an endless loop stops at exactly 10^7 steps, having run every one of them", async (t) => {
  const { interp, run } = makeInterp();
  await run("(define n 0)");
  const endless = "(set! n 0) (let loop () (set! n (+ n 1)) (loop))";
  // Under a budget of 100 steps it runs n₁₀₀ iterations: the rest went to starting it.
  t.is(codeOf(await interp.evaluateOutcome(endless, { limits: { steps: 100 } })), "limit:steps");
  const start = 100 - (await interp.evaluate("n"));
  t.true(start > 0 && start < 100);
  // 10^7 steps later, exactly as many more iterations (over 610 batches of 16,384 steps).
  t.is(codeOf(await interp.evaluateOutcome(endless, { limits: { steps: 10_000_000 } })), "limit:steps");
  t.is(await interp.evaluate("n"), 10_000_000 - start);
});

test("100 of 100 endless loops stop at the step budget, bare or under guard and with-exception-handler, and no handler runs", async (t) => {
  const { interp, run } = makeInterp();
  await run("(define ran #f)");
  const loops = [
    "(let loop () (loop))",
    "(guard (e (#t (set! ran #t) 'swallowed)) (let loop () (loop)))",
    "(with-exception-handler (lambda (e) (set! ran #t) 'swallowed) (lambda () (let loop () (loop))))",
    "(let loop ((i 0)) (loop (+ i 1)))",
  ];
  let stopped = 0;
  for (let i = 0; i < 100; i++) {
    const out = await interp.evaluateOutcome(loops[i % loops.length] as string, { limits: { steps: 200_000 } });
    if (codeOf(out) === "limit:steps") stopped++;
  }
  t.is(stopped, 100);
  t.is(await run("ran"), "#f");
});

test("100 of 100 endless loops stop at the deadline, under handlers too; the overshoot is small", async (t) => {
  const { interp, run } = makeInterp();
  await run("(define ran #f)");
  const loops = [
    "(let loop () (loop))",
    "(guard (e (#t (set! ran #t) 'swallowed)) (let loop () (loop)))",
    "(with-exception-handler (lambda (e) (set! ran #t) 'swallowed) (lambda () (let loop ((i 0)) (loop (+ i 1)))))",
    // Mutual non-tail and tail calls, and a primitive called in the loop.
    "(define (spin l) (spin (reverse l))) (spin (list 1 2 3))",
  ];
  const deadline = 30;
  let stopped = 0;
  let worst = 0;
  for (let i = 0; i < 100; i++) {
    const t0 = performance.now();
    const out = await interp.evaluateOutcome(loops[i % loops.length] as string, { limits: { timeoutMs: deadline } });
    worst = Math.max(worst, performance.now() - t0 - deadline);
    if (codeOf(out) === "limit:timeout") stopped++;
  }
  t.is(stopped, 100);
  t.is(await run("ran"), "#f");
  t.log(`worst overshoot past a ${deadline} ms deadline: ${worst.toFixed(1)} ms`);
  // The plan asks for 100 ms; asserted generously, the machine may be loaded.
  t.true(worst < 1000, `overshoot ${worst} ms`);
});

test("a dynamic-wind after thunk that loops is cut off by the deadline too", async (t) => {
  const { interp } = makeInterp();
  const src = "(call/cc (lambda (k) (dynamic-wind (lambda () #f) (lambda () (k 'out)) (lambda () (let loop () (loop))))))";
  t.is(codeOf(await interp.evaluateOutcome(src, { limits: { timeoutMs: 50 } })), "limit:timeout");
  t.is(codeOf(await interp.evaluateOutcome(src, { limits: { steps: 100_000 } })), "limit:steps");
  t.is(await interp.evaluate("(+ 1 1)"), 2);
});

test("every limit leaves the interpreter usable, in each mode of evaluation", async (t) => {
  const { interp } = makeInterp();
  const limits: Limits[] = [{ steps: 10_000 }, { timeoutMs: 20 }, { memoryBytes: 4 * 1024 * 1024 }];
  for (const l of limits) {
    const src = l.memoryBytes ? "(let loop ((acc '())) (loop (cons acc acc)))" : "(let loop () (loop))";
    t.regex(codeOf(await interp.evaluateOutcome(src, { limits: l })), /^limit:/);
    t.regex(codeOf(interp.evaluateSyncOutcome(src, { limits: l })), /^limit:/);
    t.is(interp.evaluateSync("(* 6 7)"), 42);
  }
});

test("interleaved async evaluations of several interpreters charge each its own budget", async (t) => {
  // A's primitives charge work while B's and C's evaluations run between A's time slices.
  const a = makeInterp().interp;
  const b = makeInterp().interp;
  const c = makeInterp().interp;
  const work = "(let ((l (make-list 20000 1))) (let loop ((i 0)) (if (< i 2000) (begin (length l) (loop (+ i 1))) 'done)))";
  const results = await Promise.all([
    a.evaluateOutcome(work, { limits: { steps: 1e9 } }),
    b.evaluateOutcome("(let loop () (loop))", { limits: { steps: 50_000 } }),
    c.evaluateOutcome(work),
    b.evaluateOutcome("(let loop () (loop))", { limits: { steps: 50_000 } }),
    // A fresh interpreter's first evaluation reads its imports before it runs.
    makeInterp().interp.evaluateOutcome("(+ 1 2)"),
  ]);
  t.deepEqual(results.map(codeOf), ["ok", "limit:steps", "ok", "limit:steps", "ok"]);
});

test("between the time slices of an async evaluation no budget is installed: work outside it charges nothing", async (t) => {
  const { interp } = makeInterp();
  let charged = 0;
  let escaped = 0;
  const timer = setInterval(() => {
    try {
      // Far more than the evaluation's whole budget: charged to it, this would end it (or throw here).
      spend(1e15);
      charged++;
    } catch {
      escaped++;
    }
  }, 1);
  const out = await interp.evaluateOutcome("(let loop ((i 0)) (if (< i 3000000) (loop (+ i 1)) i))", { limits: { steps: 5_000_000 } });
  clearInterval(timer);
  t.is(codeOf(out), "ok");
  t.true(charged > 0, "the timer ran between slices");
  t.is(escaped, 0);
});
