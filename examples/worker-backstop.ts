// The worker backstop (reliability plan T6): evaluate in a worker thread and terminate it at twice the deadline, for what no limit can stop.
//
// A limit is polled by Scheme code and by the primitives that do long work; a
// synchronous procedure of the host's that loops or blocks (a bug, or code not
// written for nodwyn) is not, and holds the thread. In a worker, the host
// keeps its own thread: `worker.terminate()` ends the stuck one, and V8's
// `resourceLimits` cap its heap. docs/guides/embedding.md, "Safety".
// Run: `npx tsc -p . && node dist/examples/worker-backstop.js`.

import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { fileURLToPath } from "node:url";
// Only types at the top: the host's thread must not load nodwyn's Node modules
// itself. fs-ext (the log's and the index's flock) is a native addon that is not
// safe to load in more than one thread: with it loaded in the host's thread, the
// second worker that loads it ends the process with SIGSEGV. The worker imports
// the interpreter (below); the host only starts workers.
import type { Limits } from "../host/session/embed.js";

/** What an evaluation in a worker came to: a value or error as text, or "terminated" when the backstop ended the worker. */
export type WorkerOutcome = { ok: true; value: string } | { ok: false; error: string; terminated: boolean };

/**
 * Evaluates `source` in a fresh worker with `limits` (a deadline is required),
 * and terminates the worker if it has not answered by twice the deadline,
 * counted from when the worker's interpreter is ready (its start-up, loading
 * modules and native addons, is not the evaluation's time, and a worker is
 * never terminated in the middle of loading them).
 * `memoryMiB` caps the worker's old generation (V8's resourceLimits).
 */
export function evaluateInWorker(source: string, limits: Limits & { timeoutMs: number }, o: { memoryMiB?: number; buggyPrimitive?: boolean } = {}): Promise<WorkerOutcome> {
  return new Promise((resolve) => {
    const worker = new Worker(fileURLToPath(import.meta.url), {
      workerData: { source, limits, buggyPrimitive: o.buggyPrimitive === true },
      resourceLimits: { maxOldGenerationSizeMb: o.memoryMiB ?? 512 },
    });
    let settled = false;
    let backstop: NodeJS.Timeout | undefined;
    const settle = (out: WorkerOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(backstop);
      resolve(out);
    };
    worker.on("message", (m: WorkerOutcome | "ready") => {
      if (m === "ready") {
        backstop = setTimeout(() => {
          void worker.terminate();
          settle({ ok: false, error: `terminated: no answer within ${2 * limits.timeoutMs} ms (twice the deadline)`, terminated: true });
        }, 2 * limits.timeoutMs);
        return;
      }
      settle(m);
      void worker.terminate();
    });
    worker.once("error", (e) => settle({ ok: false, error: `the worker failed: ${e.message}`, terminated: false }));
    worker.once("exit", (code) => settle({ ok: false, error: `the worker exited with status ${code}`, terminated: false }));
  });
}

if (!isMainThread && parentPort !== null) {
  const { source, limits, buggyPrimitive } = workerData as { source: string; limits: Limits; buggyPrimitive: boolean };
  const { createNodeInterpreter, writeToString } = await import("../host/session/embed.js");
  const interp = createNodeInterpreter();
  if (buggyPrimitive) {
    // A primitive with a budgeting bug: it loops in JS and never lets a limit be polled.
    interp.define({ name: "spin-forever", params: [], doc: "Never returns (a simulated bug).", impl: () => { for (;;); } });
  }
  parentPort.postMessage("ready");
  const out = await interp.evaluateOutcome(source, { limits });
  parentPort.postMessage(out.ok ? { ok: true, value: writeToString(out.value, "write") } : { ok: false, error: out.condition?.message ?? String(out.error), terminated: false });
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log("1. an answer:", await evaluateInWorker("(apply + (list 1 2 3))", { timeoutMs: 2000 }));
  console.log("2. a limit:", await evaluateInWorker("(let loop () (loop))", { timeoutMs: 500 }));
  console.log("3. a stuck primitive:", await evaluateInWorker("(spin-forever)", { timeoutMs: 500 }, { buggyPrimitive: true }));
  console.log("4. the host goes on:", await evaluateInWorker("(* 6 7)", { timeoutMs: 2000 }));
}
