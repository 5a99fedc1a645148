// nodwyn memory search|recall|cards as a real process over sessions the loop recorded with the scripted provider.
import test from "ava";
import { nodwyn } from "../../helpers/cli.js";
import { gitRepo, logRecords, scriptedSession, testEnv } from "../memory/memory-helpers.js";

async function tasks(t: any) {
  const root = gitRepo(t, { "a.txt": "alpha\n" });
  const env = testEnv(t);
  const a = await scriptedSession(t, { root, env, replies: [{ text: "The walrus release failed on the signing step." }], messages: ["why did the walrus release fail?"] });
  const b = await scriptedSession(t, { root, env, replies: [{ text: "Fixed the signing key path." }], messages: ["fix the signing step"] });
  return { root, env, a, b };
}

test("memory search finds every task of the repository, whatever the switch says; --json is the same result", async (t) => {
  const { root, env, a, b } = await tasks(t);
  const r = nodwyn(["memory", "search", "walrus", "signing"], { cwd: root, dataDir: env.NODWYN_DATA_DIR!, env });
  t.is(r.code, 0, r.stderr);
  t.true(r.stdout.includes(`task ${a.id} · "why did the walrus release fail?"`));
  t.true(r.stdout.includes(`task ${b.id}`));
  t.true(r.stdout.includes("1: The walrus release failed on the signing step."));
  t.true(r.stdout.includes("nodwyn memory recall TASK SEQ reads one whole"));
  const j = nodwyn(["memory", "search", "walrus", "--json", "--limit", "1"], { cwd: root, dataDir: env.NODWYN_DATA_DIR!, env });
  t.is(j.code, 0, j.stderr);
  const parsed = JSON.parse(j.stdout);
  t.is(parsed.found, 1);
  t.is(parsed.turns[0].task.id, a.id);
});

test("memory recall [TASK] SEQ [START COUNT] and memory cards SESSION", async (t) => {
  const { root, env, a, b } = await tasks(t);
  const msgA = logRecords(a.log).find((x) => x.kind === "user.msg");
  const r = nodwyn(["memory", "recall", a.id, String(msgA.seq)], { cwd: root, dataDir: env.NODWYN_DATA_DIR!, env });
  t.is(r.code, 0, r.stderr);
  t.true(r.stdout.startsWith(`seq ${msgA.seq}, the person's message (turn 1)\n`));
  t.true(r.stdout.includes("[lines 1-1 of 1]\nwhy did the walrus release fail?"));
  // Without TASK: the repository's latest task.
  const msgB = logRecords(b.log).find((x) => x.kind === "user.msg");
  const last = nodwyn(["memory", "recall", String(msgB.seq), "1", "1", "--json"], { cwd: root, dataDir: env.NODWYN_DATA_DIR!, env });
  t.is(last.code, 0, last.stderr);
  t.deepEqual(JSON.parse(last.stdout).lines, ["fix the signing step"]);
  const c = nodwyn(["memory", "cards", a.id], { cwd: root, dataDir: env.NODWYN_DATA_DIR!, env });
  t.is(c.code, 0, c.stderr);
  t.regex(c.stdout, /turn 1 \(seq \d+-\d+\) · done · .* · asked: "why did the walrus release fail\?"/);
  t.true(c.stdout.includes("answer: The walrus release failed on the signing step."));
  const bad = nodwyn(["memory", "recall", a.id, "99999"], { cwd: root, dataDir: env.NODWYN_DATA_DIR!, env });
  t.is(bad.code, 1);
  t.regex(bad.stderr, /seq 99999 is not an event/);
  const usage = nodwyn(["memory", "recall", "x", "y", "z"], { cwd: root, dataDir: env.NODWYN_DATA_DIR!, env });
  t.is(usage.code, 2);
  const help = nodwyn(["memory", "search", "--help"], { cwd: root, dataDir: env.NODWYN_DATA_DIR!, env });
  t.is(help.code, 0);
  t.regex(help.stdout, /usage: nodwyn memory search QUERY/);
});
