// Deep non-tail recursion (reliability plan T4, finding 12): as deep as memory allows on any JS stack, never a RangeError.
//
// Serial: deep recursion fills the heap, which the memory budget of a concurrent test would count.
import anyTest from "ava";
import { spawnSync } from "node:child_process";
import { Worker } from "node:worker_threads";
import { fileURLToPath } from "node:url";
import { makeInterp } from "../../helpers/interp.js";
import { MString, type Outcome } from "../../../interpreter/api.js";

const test = anyTest.serial;
const EMBED = fileURLToPath(new URL("../../../host/session/embed.js", import.meta.url));

/** Programs recursing through every kind of frame: arity adapters, apply, map, dynamic-wind, handlers, parameters, eval. */
const SHAPES: Record<string, [string, number]> = {
  plain: ["(define (f n) (if (= n 0) 0 (+ 1 (f (- n 1))))) (f 1000000)", 1_000_000],
  rest: ["(define (h . args) (if (= (car args) 0) 0 (+ 1 (h (- (car args) 1))))) (h 50000)", 50_000],
  apply: ["(define (k n) (if (= n 0) 0 (+ 1 (apply k (list (- n 1)))))) (k 50000)", 50_000],
  map: ["(define (m n) (if (= n 0) 0 (+ 1 (car (map m (list (- n 1))))))) (m 50000)", 50_000],
  "dynamic-wind": ["(define (w n) (if (= n 0) 0 (+ 1 (dynamic-wind (lambda () #f) (lambda () (w (- n 1))) (lambda () #f))))) (w 50000)", 50_000],
  "call-with-values": ["(define (v n) (if (= n 0) 0 (+ 1 (call-with-values (lambda () (v (- n 1))) (lambda (x) x))))) (v 50000)", 50_000],
  guard: ["(define (g n) (if (= n 0) 0 (+ 1 (guard (e (#t 0)) (g (- n 1)))))) (g 20000)", 20_000],
  parameterize: ["(define p (make-parameter 0)) (define (q n) (if (= n 0) (p) (+ 1 (parameterize ((p n)) (q (- n 1)))))) (q 20000)", 20_001],
  eval: ["(define (e n) (if (= n 0) 0 (+ 1 (eval (list 'e (- n 1)))))) (e 5000)", 5_000],
  "case-lambda": ["(define cl (case-lambda ((n) (if (= n 0) 0 (+ 1 (cl (- n 1))))) ((a b) 0))) (cl 50000)", 50_000],
  "ten arguments": ["(define (t10 a b c d e f g h i j) (if (= a 0) 0 (+ 1 (t10 (- a 1) b c d e f g h i j)))) (t10 50000 1 2 3 4 5 6 7 8 9)", 50_000],
};

function show(out: Outcome): string {
  return out.ok ? String(out.value) : `${out.condition?.kind}:${out.condition?.code ?? ""} ${out.condition?.message}`;
}

test("every kind of frame recurses thousands to 10^6 deep on this process's stack", async (t) => {
  for (const [name, [src, want]] of Object.entries(SHAPES)) {
    const { interp } = makeInterp();
    t.is(show(await interp.evaluateOutcome(src)), String(want), name);
  }
});

test("10^8 deep ends at a limit, and the interpreter goes on", async (t) => {
  const { interp } = makeInterp();
  await interp.evaluate("(define (f n) (if (= n 0) 0 (+ 1 (f (- n 1)))))");
  const out = await interp.evaluateOutcome("(f 100000000)");
  t.regex(show(out), /^limit:(memory|depth) /);
  t.is(await interp.evaluate("(f 100000)"), 100_000);
});

test("an evaluation nested in deep recursion, of the same interpreter or another one, has room too", async (t) => {
  const { interp } = makeInterp();
  const other = makeInterp().interp;
  await other.evaluate("(define (f n) (if (= n 0) 0 (+ 1 (f (- n 1)))))");
  await interp.evaluate("(define (f n) (if (= n 0) 0 (+ 1 (f (- n 1)))))");
  const inner = interp.evaluateSync("(lambda () (f 1000))");
  interp.define({
    name: "nested-here",
    params: [],
    doc: "",
    impl: () => {
      const out = interp.rt.runSync(inner, []);
      return new MString(show(out));
    },
  });
  interp.define({
    name: "nested-there",
    params: [],
    doc: "",
    impl: () => new MString(show(other.evaluateSyncOutcome("(f 1000)"))),
  });
  for (const prim of ["nested-here", "nested-there"]) {
    // The nested evaluations start at every depth of a recursion 3,000 deep: near the ceiling too.
    const src = `(define (g n) (if (= n 0) (${prim}) (let ((r (g (- n 1)))) (if (string=? r (${prim})) r "different")))) (g 3000)`;
    const out = await interp.evaluateOutcome(src);
    t.is(out.ok ? String(out.value) : show(out), "1000", prim);
  }
});

/** The shapes run by a fresh node with `nodeArgs`; returns "name: result" lines. */
function inChild(nodeArgs: string[]): string[] {
  const script = `
    const { createNodeInterpreter } = await import(${JSON.stringify(EMBED)});
    const shapes = ${JSON.stringify(SHAPES)};
    const lines = [];
    for (const [name, [src]] of Object.entries(shapes)) {
      const out = await createNodeInterpreter().evaluateOutcome(src);
      lines.push(name + ": " + (out.ok ? String(out.value) : out.condition.kind + ":" + out.condition.code + " " + out.condition.message));
    }
    const deep = await createNodeInterpreter().evaluateOutcome("(define (f n) (if (= n 0) 0 (+ 1 (f (- n 1))))) (f 100000000)");
    lines.push("10^8: " + (deep.ok ? "returned" : deep.condition.kind + ":" + deep.condition.code));
    process.stdout.write(lines.join("\\n"));
  `;
  const r = spawnSync(process.execPath, [...nodeArgs, "--input-type=module", "-e", script], { encoding: "utf8", timeout: 300_000 });
  if (r.status !== 0) throw new Error(`node ${nodeArgs.join(" ")} failed (${r.status}, ${r.signal}): ${r.stderr}`);
  return r.stdout.split("\n");
}

function expected(): string[] {
  return [...Object.entries(SHAPES).map(([name, [, want]]) => `${name}: ${want}`)];
}

for (const size of [200]) {
  test(`under node --stack-size=${size} every kind of frame still recurses as deep, and 10^8 ends at a limit (finding 12)`, (t) => {
    const lines = inChild([`--stack-size=${size}`]);
    t.deepEqual(lines.slice(0, -1), expected());
    t.regex(lines[lines.length - 1] as string, /^10\^8: limit:(memory|depth)$/);
    t.notRegex(lines.join("\n"), /RangeError|call stack|JS stack/);
  });
}

test("in a worker thread with a small stack, deep recursion works as well", async (t) => {
  const code = `
    const { parentPort } = require("node:worker_threads");
    import(${JSON.stringify(EMBED)}).then(async ({ createNodeInterpreter }) => {
      const shapes = ${JSON.stringify(SHAPES)};
      const lines = [];
      for (const [name, [src]] of Object.entries(shapes)) {
        const out = await createNodeInterpreter().evaluateOutcome(src);
        lines.push(name + ": " + (out.ok ? String(out.value) : out.condition.kind + ":" + out.condition.code + " " + out.condition.message));
      }
      parentPort.postMessage(lines);
    });
  `;
  const w = new Worker(code, { eval: true, resourceLimits: { stackSizeMb: 0.5 } });
  const lines = await new Promise<string[]>((resolve, reject) => {
    w.once("message", resolve);
    w.once("error", reject);
  });
  await w.terminate();
  t.deepEqual(lines, expected());
});
