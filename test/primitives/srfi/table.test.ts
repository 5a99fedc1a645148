// The SRFI table and what the host makes of it: libraries found by import, their other names, features, primitive libraries.
import test from "ava";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { SRFIS, availableSrfis, srfiFeatures, srfiAliases, srfiPrimitiveLibraries, primitiveLibraryKey } from "../../../primitives/srfi/index.js";
import { STDLIB_DIR } from "../../../host/session/node-interpreter.js";
import { makeInterp } from "../../helpers/interp.js";

test("the table is in number order, one line per SRFI, and every SRFI that is here has its library file", (t) => {
  const numbers = SRFIS.map((s) => s.number);
  t.deepEqual(numbers, [...numbers].sort((a, b) => a - b));
  t.is(new Set(numbers).size, numbers.length);
  for (const s of availableSrfis()) t.true(existsSync(join(STDLIB_DIR, "srfi", `${s.number}.sld`)), `stdlib/srfi/${s.number}.sld`);
  for (const s of SRFIS.filter((x) => x.status === "planned")) {
    t.false(existsSync(join(STDLIB_DIR, "srfi", `${s.number}.sld`)), `SRFI ${s.number} is planned but has a file`);
    t.is(s.primitives, undefined);
  }
});

test("every SRFI that is here is imported by (srfi N) and by its (srfi N name), which is the same library", async (t) => {
  const { interp } = makeInterp();
  for (const s of availableSrfis()) {
    const lib = interp.library(`(srfi ${s.number})`);
    t.true(lib.exports.size > 0, `(srfi ${s.number}) exports something`);
    if (s.name !== undefined) t.is(interp.library(`(srfi ${s.number} ${s.name})`), lib, `(srfi ${s.number} ${s.name}) is (srfi ${s.number})`);
  }
  // Both names in one program: the same bindings, no conflict.
  const out = await interp.runProgram("(import (scheme base) (srfi 111) (srfi 111 boxes)) (unbox (box 7))", "both.scm");
  t.true(out.ok && out.value === 7);
});

test("a program imports an SRFI and its other name side by side with (scheme base)", async (t) => {
  const { interp } = makeInterp();
  const out = await interp.runProgram("(import (scheme base) (srfi 8) (srfi 8 receive) (srfi 23) (srfi 39)) (receive (a b) (values 1 2) (+ a b))", "prog.scm");
  t.true(out.ok);
  t.is(out.ok && out.value, 3);
});

test("cond-expand knows each SRFI that is here as srfi-N, (features) lists them, and planned ones are not features", async (t) => {
  const { run } = makeInterp();
  const features = (await run("(features)")).slice(1, -1).split(" ");
  for (const s of SRFIS) {
    const f = `srfi-${s.number}`;
    t.is(features.includes(f), s.status === "complete", f);
    const v = await run(`(cond-expand (${f} 'yes) (else 'no))`);
    t.is(v, s.status === "complete" ? "yes" : "no", `cond-expand ${f}`);
  }
  t.deepEqual(srfiFeatures(), availableSrfis().map((s) => `srfi-${s.number}`));
  t.is(await run("(cond-expand ((library (srfi 2 and-let*)) 'yes) (else 'no))"), "yes");
  t.is(await run("(cond-expand ((library (srfi 1 no-such-name)) 'yes) (else 'no))"), "no");
});

test("a planned SRFI is a library that is not found", async (t) => {
  const planned = SRFIS.find((s) => s.status === "planned");
  if (planned === undefined) return t.pass("every SRFI of the table is here");
  const { interp } = makeInterp();
  const out = await interp.evaluateOutcome(`(import (srfi ${planned.number}))`);
  t.false(out.ok);
  t.regex(out.ok ? "" : String(out.condition?.message), new RegExp(`library \\(srfi ${planned.number}\\) not found`));
});

test("aliases map (srfi N name) to (srfi N); primitive libraries are keyed (nodwyn primitives srfi N)", (t) => {
  for (const [alias, target] of srfiAliases()) t.regex(alias, new RegExp(`^${target} [^ ]+$`));
  for (const key of srfiPrimitiveLibraries().keys()) t.regex(key, /^nodwyn primitives srfi (\d+|support)$/);
  t.is(primitiveLibraryKey(13), "nodwyn primitives srfi 13");
});
