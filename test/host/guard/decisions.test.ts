// T19: a checker's denial stops a search with the path and rule (never "no matches" or part of a list); every decision is logged once.
import test from "ava";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CheckerRegistry, createGuard, denyVerdict, GuardDeniedError, type CheckerFn, type GuardDecision } from "../../../host/guard/index.js";
import { createSearchEngine } from "../../../host/search/index.js";

/** 1000 files in 10 folders, each holding the word "needle". */
function thousand(t: import("ava").ExecutionContext): { root: string; files: string[] } {
  const root = mkdtempSync(join(tmpdir(), "nodwyn-t19-"));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const files: string[] = [];
  for (let d = 0; d < 10; d++) {
    mkdirSync(join(root, `d${d}`));
    for (let f = 0; f < 100; f++) {
      const rel = `d${d}/f${String(f).padStart(3, "0")}.txt`;
      writeFileSync(join(root, rel), `line one\nneedle ${d}-${f}\n`);
      files.push(rel);
    }
  }
  return { root, files };
}

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const RUNS = 20;

for (const [label, make] of [
  ["denies", (target: string): CheckerFn => (p) => (p === target ? denyVerdict("not this one") : "allow")],
  ["throws", (target: string): CheckerFn => (p) => {
    if (p === target) throw new Error("the checker broke");
    return "allow";
  }],
  ["returns a non-verdict", (target: string): CheckerFn => (p) => (p === target ? (true as unknown as "allow") : "allow")],
  ["returns nothing", (target: string): CheckerFn => (p) => (p === target ? (undefined as unknown as "allow") : "allow")],
  ["never answers", (target: string): CheckerFn => (p) => (p === target ? new Promise<never>(() => {}) : "allow")],
] as const) {
  test(`a checker that ${label} about 1 file of 1000 stops the search with that path and rule, in ${RUNS} of ${RUNS} runs; logged decisions = files considered`, async (t) => {
    const { root, files } = thousand(t);
    const random = rng(20261201 + label.length);
    for (let run = 0; run < RUNS; run++) {
      const target = files[Math.floor(random() * files.length)] as string;
      let calls = 0;
      const checkers = new CheckerRegistry();
      const fn = make(target);
      checkers.register("project", (p, info) => {
        calls++;
        return fn(p, info);
      });
      const decisions: GuardDecision[] = [];
      const guard = createGuard({ root, checkers, log: (d) => decisions.push(d), logBatch: (ds) => decisions.push(...ds), limits: { checkerTimeoutMs: 50 } });
      const engine = createSearchEngine(guard);
      try {
        // Half the runs find nothing elsewhere (never "no matches"), half find the other 999 (never a partial list).
        const pattern = run % 2 === 0 ? "absent-word" : "needle";
        const e = await t.throwsAsync(() => engine.grep(".", pattern, { limits: { maxMatches: 5000 } }), { instanceOf: GuardDeniedError }, `run ${run}: the search must fail, not report matches`);
        t.is(e!.path, target);
        t.is(e!.rule, "checker");
        // One decision per file the guard considered: each one it asked the checker about, logged once.
        t.is(decisions.length, calls, `run ${run}`);
        t.is(new Set(decisions.map((d) => d.path)).size, decisions.length, `run ${run}: a path decided twice`);
        const denials = decisions.filter((d) => d.decision === "deny");
        t.deepEqual(denials.map((d) => [d.path, d.rule]), [[target, "checker"]], `run ${run}`);
        // Everything before the denied file in path order was decided, and allowed.
        t.true(files.slice(0, files.indexOf(target)).every((f) => decisions.some((d) => d.path === f && d.decision === "allow")), `run ${run}`);
      } finally {
        await engine.close();
      }
    }
  });
}

test("without a denial, a search over the 1000 files decides and logs each exactly once", async (t) => {
  const { root, files } = thousand(t);
  const checkers = new CheckerRegistry();
  let calls = 0;
  checkers.register("count", () => {
    calls++;
    return "allow";
  });
  const decisions: GuardDecision[] = [];
  const guard = createGuard({ root, checkers, log: (d) => decisions.push(d), logBatch: (ds) => decisions.push(...ds) });
  const engine = createSearchEngine(guard);
  t.teardown(() => void engine.close());
  const r = await engine.grep(".", "needle", { limits: { maxMatches: 5000 } });
  t.is(r.matches.length, 1000);
  t.is(calls, 1000);
  t.deepEqual(decisions.map((d) => d.path).sort(), [...files].sort());
  t.true(decisions.every((d) => d.decision === "allow" && d.rule === "checker"));
});
