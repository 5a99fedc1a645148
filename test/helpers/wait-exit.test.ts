// helpers/wait-exit.ts: a child that never exits fails by name, with what it printed, and is killed; one that exits resolves.
import test from "ava";
import { spawn } from "node:child_process";
import { waitExit } from "./wait-exit.js";

test("waitExit resolves with a child's exit code", async (t) => {
  const child = spawn(process.execPath, ["-e", "process.exit(7)"], { stdio: "ignore" });
  t.deepEqual(await waitExit(child, "exit 7", { t }), { code: 7, signal: null });
});

test("waitExit on a child that never exits: rejects naming it, the time waited and its output; the child is killed", async (t) => {
  const child = spawn(process.execPath, ["-e", 'process.stdout.write("still here\\n"); process.stderr.write("and waiting\\n"); setInterval(() => {}, 1000)'], { stdio: ["ignore", "pipe", "pipe"] });
  const gone = new Promise<NodeJS.Signals | null>((r) => child.on("exit", (_c, s) => r(s)));
  // Once it has printed both lines, a short limit.
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  while (!(out.includes("still here") && out.includes("and waiting"))) await new Promise((r) => setTimeout(r, 20));
  const e = await t.throwsAsync(waitExit(child, "the sleeper", { ms: 500, t, output: () => out }));
  t.regex(e!.message, /^the sleeper: the child did not exit within 0\.5 s, so it was killed/);
  t.regex(e!.message, /still here/);
  t.regex(e!.message, /and waiting/);
  t.is(await gone, "SIGKILL");
});
