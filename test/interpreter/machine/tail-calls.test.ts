// Proper tail calls (reliability plan T5): a loop and a mutual recursion of 10^7 calls in bounded heap, beside a non-tail recursion that is not.
//
// Each program runs in a child process of its own (nothing else allocating), which samples
// the V8 heap outside the young generation every few milliseconds while the evaluation
// runs (it yields between time slices) and reports the peak growth over the heap before.
// The young generation is left out: a tail loop's garbage dies there, and how much of it
// is live at a sample depends on when the scavenger last ran. What a non-tail call leaves
// behind (a frame per call) survives and is promoted; 10^6 of them measure ~140 MB here,
// the tail loops ~0.3 MB.
import test from "ava";
import { spawnSync } from "node:child_process";

const INTERPRETER = new URL("../../../host/session/node-interpreter.js", import.meta.url).href;

const CHILD = `
import v8 from "node:v8";
const { createNodeInterpreter } = await import(${JSON.stringify(INTERPRETER)});
const old = () => v8.getHeapSpaceStatistics().filter((s) => s.space_name !== "new_space").reduce((a, s) => a + s.space_used_size, 0);
const interp = createNodeInterpreter();
await interp.evaluate("(+ 1 2)");
globalThis.gc();
globalThis.gc();
const base = old();
let peak = base;
const timer = setInterval(() => { peak = Math.max(peak, old()); }, 5);
const value = await interp.evaluate(process.argv[1]);
clearInterval(timer);
peak = Math.max(peak, old());
process.stdout.write(JSON.stringify({ value: String(value), growth: peak - base }));
`;

function run(source: string): { value: string; growth: number } {
  const r = spawnSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", CHILD, source], { encoding: "utf8", timeout: 600_000 });
  if (r.status !== 0) throw new Error(`child failed (${r.status} ${r.signal}): ${r.stderr}`);
  return JSON.parse(r.stdout);
}

const MiB = 1024 * 1024;

test("a named-let loop of 10^7 iterations returns 10^7 and grows the heap by under 8 MiB", (t) => {
  const r = run("(let loop ((i 0)) (if (< i 10000000) (loop (+ i 1)) i))");
  t.is(r.value, "10000000");
  t.true(r.growth < 8 * MiB, `grew ${(r.growth / MiB).toFixed(1)} MiB`);
});

test("even?/odd? mutual recursion 10^7 deep in tail position returns and grows the heap by under 8 MiB", (t) => {
  const r = run("(define (ev? n) (if (= n 0) #t (od? (- n 1)))) (define (od? n) (if (= n 0) #f (ev? (- n 1)))) (ev? 10000000)");
  t.is(r.value, "true");
  t.true(r.growth < 8 * MiB, `grew ${(r.growth / MiB).toFixed(1)} MiB`);
});

test("the measure can fail: 10^6 non-tail calls grow the heap by far more than 8 MiB", (t) => {
  const r = run("(define (f n) (if (= n 0) 0 (+ 1 (f (- n 1))))) (f 1000000)");
  t.is(r.value, "1000000");
  t.true(r.growth > 8 * MiB, `grew ${(r.growth / MiB).toFixed(1)} MiB`);
});
