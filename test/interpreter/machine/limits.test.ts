// Limits end an evaluation with a `limit` condition Scheme code cannot catch, and the interpreter stays usable.
import test from "ava";
import { makeInterp } from "../../helpers/interp.js";
import { EvalError } from "../../../interpreter/api.js";

async function limitOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (e) {
    if (!(e instanceof EvalError)) throw e;
    return e.condition?.kind === "limit" ? e.condition.code : `not a limit: ${e.message}`;
  }
}

const LOOP = "(let loop ((i 0)) (loop (+ i 1)))";

test("a step budget ends an endless loop", async (t) => {
  const { interp } = makeInterp();
  t.is(await limitOf(interp.evaluate(LOOP, { limits: { steps: 100_000 } })), "steps");
});

test("a deadline ends an endless loop", async (t) => {
  const { interp } = makeInterp();
  t.is(await limitOf(interp.evaluate(LOOP, { limits: { timeoutMs: 50 } })), "timeout");
});

test("an AbortSignal ends an evaluation that is running", async (t) => {
  const { interp } = makeInterp();
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 30);
  t.is(await limitOf(interp.evaluate(LOOP, { limits: { signal: ac.signal } })), "aborted");
});

test("an already aborted signal stops before any work", async (t) => {
  const { interp } = makeInterp();
  const ac = new AbortController();
  ac.abort();
  t.is(await limitOf(interp.evaluate(LOOP, { limits: { signal: ac.signal } })), "aborted");
});

test("the depth ceiling ends runaway non-tail recursion", async (t) => {
  const { interp } = makeInterp();
  await interp.evaluate("(define (down n) (+ 1 (down (+ n 1))))");
  t.is(await limitOf(interp.evaluate("(down 0)", { limits: { maxDepth: 50_000 } })), "depth");
});

test("guard and with-exception-handler do not catch a limit", async (t) => {
  const { interp } = makeInterp();
  t.is(await limitOf(interp.evaluate(`(guard (e (#t 'swallowed)) ${LOOP})`, { limits: { steps: 50_000 } })), "steps");
  t.is(
    await limitOf(interp.evaluate(`(with-exception-handler (lambda (e) 'swallowed) (lambda () ${LOOP}))`, { limits: { timeoutMs: 30 } })),
    "timeout",
  );
});

test("dynamic-wind after thunks do not run when a limit ends the evaluation, and the next evaluation starts clean", async (t) => {
  const { interp, run } = makeInterp();
  await run("(define ran-after #f)");
  t.is(
    await limitOf(interp.evaluate(`(dynamic-wind (lambda () #f) (lambda () ${LOOP}) (lambda () (set! ran-after #t)))`, { limits: { steps: 20_000 } })),
    "steps",
  );
  t.is(await run("ran-after"), "#f");
  // No handler, winder or parameter binding of the stopped evaluation leaks into the next one.
  t.is(await run("(guard (e ((symbol? e) e)) (raise 'fresh))"), "fresh");
  t.is(await run("(+ 1 2)"), "3");
});

test("a budget large enough for the work does not interfere", async (t) => {
  const { interp } = makeInterp();
  t.is(await interp.evaluate("(let loop ((i 0)) (if (< i 1000) (loop (+ i 1)) i))", { limits: { steps: 10_000 } }), 1000);
});
