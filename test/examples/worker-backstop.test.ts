// The worker backstop (reliability plan T6): a primitive that never yields is ended by worker.terminate() at twice the deadline, and the host goes on.
import test from "ava";
import { evaluateInWorker } from "../../examples/worker-backstop.js";
import { makeInterp } from "../helpers/interp.js";

test("a stuck primitive is terminated at twice the deadline; the next evaluation, in a worker or here, succeeds", async (t) => {
  const stuck = await evaluateInWorker("(spin-forever)", { timeoutMs: 300 }, { buggyPrimitive: true });
  t.deepEqual(stuck, { ok: false, error: "terminated: no answer within 600 ms (twice the deadline)", terminated: true });
  t.deepEqual(await evaluateInWorker("(* 6 7)", { timeoutMs: 30_000 }), { ok: true, value: "42" });
  t.is(await makeInterp().interp.evaluate("(+ 1 2)"), 3);
});

test("a Scheme loop in a worker ends at its own limit, before the backstop", async (t) => {
  const out = await evaluateInWorker("(let loop () (loop))", { timeoutMs: 30_000, steps: 100_000 });
  t.false(out.ok);
  t.false(!out.ok && out.terminated);
  t.regex(!out.ok ? out.error : "", /step budget exhausted/);
});
