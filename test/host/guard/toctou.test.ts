// T17: a racer swaps a directory on the way between a real directory and a link outside; the guard never returns the canary.
import test from "ava";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createGuard, GuardDeniedError, GuardFileError } from "../../../host/guard/index.js";

const RACER = fileURLToPath(new URL("../../../../test/host/guard/fixtures/swap-racer.mjs", import.meta.url));
const CANARY = "CANARY-toctou-9d2e";
const LEGIT = "the legitimate file";
// Per PR; the nightly run (npm run test:nightly) sets 100000.
const ITERATIONS = Number(process.env.NODWYN_TOCTOU_ITERATIONS ?? 10_000);

test(`${ITERATIONS} reads while a directory on the way is swapped for a link outside: the canary is returned 0 times`, async (t) => {
  if (process.platform !== "linux") {
    t.log("the racer needs Linux's rename semantics; skipped elsewhere");
    t.pass();
    return;
  }
  const base = mkdtempSync(join(tmpdir(), "nodwyn-toctou-"));
  t.teardown(() => rmSync(base, { recursive: true, force: true }));
  const root = join(base, "repo");
  const outside = join(base, "outside");
  mkdirSync(join(root, "d"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, "d", "file.txt"), LEGIT);
  writeFileSync(join(outside, "file.txt"), CANARY);
  const guard = createGuard({ root });
  const racer = spawn(process.execPath, [RACER, root, outside], { stdio: ["ignore", "pipe", "pipe"] });
  let swaps = 0;
  let err = "";
  racer.stderr!.setEncoding("utf8").on("data", (s: string) => (err += s));
  const ready = new Promise<void>((resolve, reject) => {
    racer.stdout!.setEncoding("utf8").on("data", (s: string) => {
      for (const m of s.matchAll(/swaps (\d+)/g)) swaps = Number(m[1]);
      if (s.includes("ready")) resolve();
    });
    racer.once("exit", (code) => reject(new Error(`the racer exited (${code}): ${err}`)));
  });
  t.teardown(() => void racer.kill("SIGKILL"));
  await ready;
  const outcome = { legit: 0, denied: 0, missing: 0, canary: 0 };
  const seen = (b: Buffer | null): void => {
    const s = b === null ? "" : b.toString();
    if (s.includes(CANARY)) outcome.canary++;
    else if (s === LEGIT) outcome.legit++;
    else throw new Error(`unexpected content ${JSON.stringify(s.slice(0, 40))}`);
  };
  const swapsBefore = swaps;
  for (let i = 0; i < ITERATIONS; i++) {
    try {
      if (i % 3 === 0) seen(guard.readFileSync("d/file.txt"));
      else if (i % 3 === 1) seen(await guard.readFile("d/file.txt"));
      else {
        const s = guard.scan();
        try {
          seen((await s.readFile("d/file.txt")) as Buffer);
        } finally {
          s.close();
        }
      }
    } catch (e) {
      if (e instanceof GuardDeniedError) outcome.denied++;
      else if (e instanceof GuardFileError && e.code === "not-found") outcome.missing++;
      else throw e;
    }
    // Let the racer's pipe be read now and then.
    if (i % 500 === 0) await new Promise((r) => setImmediate(r));
  }
  racer.kill("SIGKILL");
  t.log(`${ITERATIONS} reads: ${outcome.legit} legitimate, ${outcome.denied} denied, ${outcome.missing} not found, ${outcome.canary} canary; ${swaps - swapsBefore}+ swaps meanwhile`);
  t.is(outcome.canary, 0);
  t.is(outcome.legit + outcome.denied + outcome.missing, ITERATIONS);
  t.true(swaps > swapsBefore, "the racer swapped while the guard read");
});
