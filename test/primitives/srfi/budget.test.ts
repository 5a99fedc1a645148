// The SRFIs' TypeScript procedures charge their work: one call on a big string, char-set or list stops at the step budget.
import test from "ava";
import { makeInterp } from "../../helpers/interp.js";

/** An interpreter with (srfi 1), (srfi 13), (srfi 14) and (srfi 152) imported and big data made, without limits. */
async function setUp() {
  const { interp } = makeInterp();
  await interp.evaluate(`(import (srfi 1) (srfi 13) (srfi 14) (only (srfi 152) string-split))
    (define big (make-string 4000000 #\\a))
    (define big-list (make-list 1000000 1))`);
  return async (src: string, steps: number): Promise<string> => {
    const out = await interp.evaluateOutcome(src, { limits: { steps } });
    if (out.ok) return "ok";
    const c = out.condition;
    return c?.kind === "limit" ? `limit:${c.code}` : `${c?.kind}: ${c?.message}`;
  };
}

test("one search, split or tokenizing of 4 million characters is more than 100,000 steps", async (t) => {
  const run = await setUp();
  for (const call of ["(string-index big #\\z)", "(string-contains-ci big \"ab\")", "(string-tokenize big)", "(string-split big \"b\")", "(string-pad big 4000001)"]) {
    t.is(await run(call, 100_000), "limit:steps", call);
  }
  // The same calls on a short string fit.
  t.is(await run("(list (string-index \"abc\" #\\z) (string-tokenize \"a b\") (string-split \"a b\" \" \"))", 100_000), "ok");
});

test("a list of every character and deleting duplicates of a million elements are more than 100,000 steps", async (t) => {
  const run = await setUp();
  t.is(await run("(char-set->list char-set:full)", 100_000), "limit:steps");
  t.is(await run("(delete-duplicates big-list)", 100_000), "limit:steps");
  t.is(await run("(length (delete-duplicates '(1 2 1)))", 100_000), "ok");
});
