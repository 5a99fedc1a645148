// Primitives whose cost grows with their input respect the step budget, the deadline and the memory budget (reliability plan T3, finding 6).
//
// Serial: the memory budget measures the process's heap, which concurrent tests would share.
import anyTest from "ava";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { makeInterp } from "../../helpers/interp.js";
import type { Limits, Outcome } from "../../../interpreter/api.js";

const test = anyTest.serial;
const MiB = 1024 * 1024;

function codeOf(out: Outcome): string {
  if (out.ok) return "ok";
  const c = out.condition;
  return c?.kind === "limit" ? `limit:${c.code}` : `${c?.kind ?? "raise"}: ${c?.message}`;
}

async function outcome(src: string, limits: Limits): Promise<string> {
  const { interp } = makeInterp();
  return codeOf(await interp.evaluateOutcome(src, { limits }));
}

// Numbers of 10^6 bits: gcd by Lehmer's algorithm takes ~10 s, Euclid's took minutes.
const BIG_GCD = "(gcd (- (expt 3 630000) 1) (+ (expt 2 1000000) 1))";

test("a bignum gcd stops at the deadline and at the step budget (finding 6)", async (t) => {
  t.is(await outcome(BIG_GCD, { timeoutMs: 300 }), "limit:timeout");
  t.is(await outcome(BIG_GCD, { steps: 1_000_000 }), "limit:steps");
});

test("exact-integer-sqrt, expt and bignum products charge their work to the step budget (finding 6)", async (t) => {
  t.is(await outcome("(exact-integer-sqrt (expt 7 3000000))", { steps: 100_000 }), "limit:steps");
  t.is(await outcome("(let loop ((x 3)) (loop (* x x)))", { steps: 1_000_000 }), "limit:steps");
  t.is(await outcome("(expt 3 10000000)", { steps: 100_000 }), "limit:steps");
  t.is(await outcome("(number->string (expt 3 3000000))", { steps: 1_000_000 }), "limit:steps");
  t.is(await outcome("(string->number (make-string 2000000 #\\7))", { steps: 100_000 }), "limit:steps");
  // With room enough they are computed, and exactly.
  const { interp } = makeInterp();
  t.is(await interp.evaluate("(call-with-values (lambda () (exact-integer-sqrt (+ (* (expt 7 300001) (expt 7 300001)) 5))) (lambda (s r) (and (= s (expt 7 300001)) (= r 5))))"), true);
  t.is(await interp.evaluate("(gcd (* (expt 3 5000) (expt 2 7000)) (* (expt 3 6000) (expt 2 4000) 5))"), await interp.evaluate("(* (expt 3 5000) (expt 2 4000))"));
});

test("a deadline stops a long primitive inside a loop of few steps (finding 6)", async (t) => {
  // Each call is one step; without charges the deadline would be polled every 16,384 of them.
  t.is(await outcome("(let ((l (make-list 3000000 1))) (let loop () (length l) (loop)))", { timeoutMs: 200 }), "limit:timeout");
  t.is(await outcome("(let ((s (make-string 20000000 #\\a))) (let loop () (string->symbol s) (loop)))", { timeoutMs: 200 }), "limit:timeout");
  t.is(await outcome("(let ((v (make-vector 5000000 1))) (let loop () (vector-fill! v 2) (loop)))", { timeoutMs: 200 }), "limit:timeout");
  t.is(await outcome("(let ((a (make-list 2000000 'x)) (b (make-list 2000000 'x))) (let loop () (equal? a b) (loop)))", { timeoutMs: 200 }), "limit:timeout");
});

test("the same primitives under a step budget stop on the budget, whatever the machine's speed", async (t) => {
  const loops = [
    "(let ((l (make-list 1000000 1))) (let loop () (length l) (loop)))",
    "(let ((l (make-list 1000000 1))) (let loop () (reverse l) (loop)))",
    "(let ((l (make-list 1000000 1))) (let loop () (list->vector l) (loop)))",
    "(let ((s (make-string 1000000 #\\a))) (let loop () (string-copy s) (loop)))",
    "(let ((s (make-string 1000000 #\\a))) (let loop () (string=? s s) (loop)))",
    "(let ((v (make-vector 1000000 1))) (let loop () (vector->list v) (loop)))",
    "(let ((l (make-list 1000000 1))) (let loop () (memv 2 l) (loop)))",
    "(let ((l (make-list 1000000 (cons 1 1)))) (let loop () (assv 2 l) (loop)))",
    "(let ((a (make-list 1000000 'x))) (let loop () (equal? a (list-copy a)) (loop)))",
    "(let ((v (make-list 100000 1))) (let loop () (let ((p (open-output-string))) (write v p)) (loop)))",
  ];
  for (const src of loops) t.is(await outcome(src, { steps: 2_000_000 }), "limit:steps", src);
});

test("printing a shared structure in full is charged: a 40-level DAG does not hang write", async (t) => {
  // 40 pairs that write prints as 2^40 leaves (write labels only cycles).
  const src = "(let loop ((i 0) (x 'a)) (if (< i 40) (loop (+ i 1) (cons x x)) (let ((p (open-output-string))) (write x p) 'done)))";
  t.is(await outcome(src, { timeoutMs: 300 }), "limit:timeout");
  t.is(await outcome(src, { memoryBytes: 16 * MiB }), "limit:memory");
});

test("the plan's T3 requests end with a resource condition", async (t) => {
  const cases = [
    "(make-string 1000000000 #\\a)",
    "(make-vector (expt 10 9))",
    "(expt 10 (expt 10 9))",
    '(let loop ((s "x")) (loop (string-append s s)))',
    "(make-list 100000000 0)",
    "(let ((huge (make-string 60000000 #\\a))) (string->list huge))",
  ];
  for (const src of cases) t.is(await outcome(src, {}), "limit:memory", src);
});

// Peak RSS of a fresh process running one evaluation under the default 256 MiB budget.
const API = fileURLToPath(new URL("../../../host/session/embed.js", import.meta.url));
function peakRss(src: string): { code: string; growthMiB: number } {
  const script = `
    const { createNodeInterpreter } = await import(${JSON.stringify(API)});
    const interp = createNodeInterpreter();
    await interp.evaluate("(+ 1 2)");
    const before = process.resourceUsage().maxRSS * 1024;
    const out = await interp.evaluateOutcome(${JSON.stringify(src)});
    const after = process.resourceUsage().maxRSS * 1024;
    process.stdout.write(JSON.stringify({ code: out.ok ? "ok" : out.condition.kind + ":" + out.condition.code, growthMiB: (after - before) / 1048576 }));
  `;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 120_000 });
  if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

test("a runaway allocation grows the process by at most twice the budget", (t) => {
  for (const src of [
    "(let loop ((acc '())) (loop (cons acc acc)))",
    '(let loop ((s "x")) (loop (string-append s s)))',
    "(let loop ((v (vector 1))) (loop (vector-append v v)))",
    "(make-vector (expt 10 9))",
    "(let ((huge (make-string 60000000 #\\a))) (string->list huge))",
  ]) {
    const r = peakRss(src);
    t.is(r.code, "limit:memory", src);
    t.true(r.growthMiB <= 512, `${src}: peak RSS grew by ${r.growthMiB.toFixed(0)} MiB`);
  }
});

test("with a budget that holds it, a length past the largest vector is still a range error, before any allocation", async (t) => {
  const src = "(make-vector 70000000 0)";
  t.is(await outcome(src, { memoryBytes: 2048 * MiB }), "range: bad argument #1 to 'make-vector' (length 70000000 exceeds the maximum 67108864)");
});
