// index-search "earlier": the person's switch, the project's tasks (a worktree's too), archived and deleted tasks, recall of another task's event.
import test from "ava";
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openForAppend } from "../../../host/log/index.js";
import { ConversationMemory, MemoryError, memFileOf } from "../../../host/memory/index.js";
import { gitRepo, logRecords, scriptedSession, tempDir, testEnv } from "./memory-helpers.js";

function commitAll(root: string): void {
  execFileSync("git", ["-C", root, "add", "-A"]);
  execFileSync("git", ["-C", root, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "init"]);
}

function allow(env: NodeJS.ProcessEnv, path: string, on: boolean | null): void {
  const dir = join(env.XDG_CONFIG_HOME!, "nodwyn");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "workspaces.toml"), on === null ? "" : `[[workspace]]\npath = ${JSON.stringify(path)}\nearlier_tasks = ${on}\n`);
}

async function project(t: any) {
  const root = gitRepo(t, { "a.txt": "alpha\n" });
  commitAll(root);
  const wt = join(tempDir(t, "nodwyn-mem-wt-"), "feature");
  execFileSync("git", ["-C", root, "worktree", "add", "-q", wt]);
  const other = gitRepo(t, { "b.txt": "beta\n" });
  const env = testEnv(t);
  const a = await scriptedSession(t, { root, env, replies: [{ text: "The walrus service deploys from deploy.sh." }], messages: ["how does the walrus service deploy?"] });
  const b = await scriptedSession(t, { root: wt, env, replies: [{ text: "In the worktree the walrus tusk test is flaky." }], messages: ["why is the walrus tusk test flaky?"] });
  const c = await scriptedSession(t, { root: other, env, replies: [{ text: "walrus in another repository" }], messages: ["walrus elsewhere"] });
  const d = await scriptedSession(t, { root, env, replies: [{ text: "now" }], messages: ["walrus today"], keepOpen: true });
  t.teardown(() => d.agent.close());
  const mem = new ConversationMemory({ dataDir: env.NODWYN_DATA_DIR!, session: d.id, root, env, capChars: () => 32_000 });
  return { root, wt, other, env, a, b, c, d, mem };
}

test("off by default: a clear error saying how the person turns it on; on and off count at the next call", async (t) => {
  const p = await project(t);
  const e = t.throws(() => p.mem.searchEarlier("walrus", 8), { instanceOf: MemoryError })!;
  t.is(e.code, "earlier-off");
  t.regex(e.message, /searching earlier tasks is off/);
  t.regex(e.message, /workspaces\.toml/);
  t.regex(e.message, /earlier_tasks = true/);
  t.false(e.message.includes(p.root), "no host path in what the model reads");
  allow(p.env, p.root, true);
  const r = p.mem.searchEarlier("walrus", 8);
  const tasks = r.turns.map((g) => g.task!.id).sort();
  t.deepEqual(tasks, [p.a.id, p.b.id].sort(), "this repository's other tasks, the worktree's included; not another repository's, not this one");
  allow(p.env, p.root, false);
  t.throws(() => p.mem.searchEarlier("walrus", 8), { message: /earlier_tasks = false/ });
  allow(p.env, p.root, null);
  t.throws(() => p.mem.searchEarlier("walrus", 8), { message: /no \[\[workspace\]\] entry/ });
  // The worktree's path names the same repository.
  allow(p.env, p.wt, true);
  t.is(p.mem.searchEarlier("walrus", 8).tasks, 2);
});

test("a repository cannot give itself leave: a workspaces.toml that lies in its tree, or a file in .nodwyn/, is not taken", async (t) => {
  const p = await project(t);
  mkdirSync(join(p.root, ".nodwyn"), { recursive: true });
  writeFileSync(join(p.root, ".nodwyn", "workspaces.toml"), `[[workspace]]\npath = ${JSON.stringify(p.root)}\nearlier_tasks = true\n`);
  writeFileSync(join(p.root, "workspaces.toml"), `[[workspace]]\npath = ${JSON.stringify(p.root)}\nearlier_tasks = true\n`);
  t.throws(() => p.mem.searchEarlier("walrus", 8), { message: /there is no workspaces\.toml/ });
  const dir = join(p.env.XDG_CONFIG_HOME!, "nodwyn");
  mkdirSync(dir, { recursive: true });
  symlinkSync(join(p.root, "workspaces.toml"), join(dir, "workspaces.toml"));
  t.throws(() => p.mem.searchEarlier("walrus", 8), { message: /lies inside the repository/ });
});

test("each turn names its task (id, title or first message, the day, archived); archived tasks are included, deleted ones are gone", async (t) => {
  const p = await project(t);
  allow(p.env, p.root, true);
  const { writer } = openForAppend(p.a.id, { env: p.env });
  writer.append("session.title", { actor: "person", title: "Walrus deploys" });
  writer.append("session.archive", { actor: "person", archived: true });
  writer.close();
  const r = p.mem.searchEarlier("walrus deploy", 8);
  const ga = r.turns.find((g) => g.task!.id === p.a.id)!;
  t.deepEqual(ga.task, { id: p.a.id, name: "Walrus deploys", day: logRecords(p.a.log).at(-1).ts.slice(0, 10), archived: true });
  const gb = r.turns.find((g) => g.task!.id === p.b.id)!;
  t.deepEqual(gb.task, { id: p.b.id, name: "why is the walrus tusk test flaky?", day: logRecords(p.b.log).at(-1).ts.slice(0, 10), archived: false });
  t.regex(ga.card, /^turn 1 \(seq \d+-\d+\) · done/);
  // recall of another task's event, with the leave.
  const msg = logRecords(p.a.log).find((x) => x.kind === "user.msg");
  const rc = p.mem.recall(msg.seq, 0, 0, p.a.id);
  t.regex(rc.heading, new RegExp(`^seq ${msg.seq}, the person's message \\(turn 1\\), in task ${p.a.id}$`));
  t.deepEqual(rc.lines, ["how does the walrus service deploy?"]);
  // Another repository's task cannot be recalled from here.
  t.throws(() => p.mem.recall(2, 0, 0, p.c.id), { message: /not one of this repository's tasks/ });
  // A deleted task: its log gone, the task with it.
  rmSync(p.b.log);
  rmSync(memFileOf(p.b.log), { force: true });
  t.deepEqual(p.mem.searchEarlier("walrus", 8).turns.map((g) => g.task!.id), [p.a.id]);
  t.throws(() => p.mem.recall(2, 0, 0, p.b.id), { message: /its log is gone/ });
  allow(p.env, p.root, false);
  t.throws(() => p.mem.recall(msg.seq, 0, 0, p.a.id), { message: /earlier tasks is off/ });
});

test("another repository's task, once its .mem file names its project, is left out before its log is opened", async (t) => {
  const p = await project(t);
  allow(p.env, p.root, true);
  // The first search folds every log (a task's project is known only from its log) and writes each .mem file.
  const first = p.mem.searchEarlier("walrus", 8);
  t.false(first.turns.some((g) => g.task!.id === p.c.id));
  t.true(p.mem.lastOpened.some((o) => o.session === p.c.id), "the other repository's task was opened once, to learn its project");
  const again = p.mem.searchEarlier("walrus", 8);
  t.deepEqual(again.turns.map((g) => g.task!.id), first.turns.map((g) => g.task!.id));
  t.false(p.mem.lastOpened.some((o) => o.session === p.c.id), "its .mem names another project: not opened");
  t.true(p.mem.lastOpened.some((o) => o.session === p.a.id));
  // A log gone with its .mem file kept: another project's task is left out all the same, one of this project's is gone.
  rmSync(p.c.log);
  rmSync(p.a.log);
  t.deepEqual(p.mem.searchEarlier("walrus", 8).turns.map((g) => g.task!.id), [p.b.id]);
});

test("a worktree's session finds the main tree's tasks, and the model's tool call reads the switch at each call", async (t) => {
  const p = await project(t);
  const s = await scriptedSession(t, {
    root: p.wt,
    env: p.env,
    replies: [
      { tool_calls: [{ name: "index-search", arguments: { query: "walrus deploy", scope: "earlier" } }] },
      { text: "off" },
      { tool_calls: [{ name: "index-search", arguments: { query: "walrus deploy", scope: "earlier" } }] },
      { text: "found" },
    ],
    messages: ["first", "second"],
    keepOpen: true,
  });
  // Turn 1 ran with the switch off; turn its on now and run turn 2 through the loop.
  await s.agent.close();
  allow(p.env, p.root, true);
  const results = logRecords(s.log).filter((x) => x.kind === "tool.result" && x.payload.tool === "index-search");
  t.is(results.length, 2);
  t.false(results[0].payload.ok);
  t.regex(results[0].payload.error, /searching earlier tasks is off/);
  t.false(results[1].payload.ok, "the second turn also ran before the switch was turned on");
  const s2 = await scriptedSession(t, { root: p.wt, env: p.env, replies: [{ tool_calls: [{ name: "index-search", arguments: { query: "walrus deploy", scope: "earlier" } }] }, { text: "found" }], messages: ["third"] });
  const r2 = logRecords(s2.log).find((x) => x.kind === "tool.result" && x.payload.tool === "index-search");
  t.true(r2.payload.ok);
  t.true(r2.payload.output.includes(`task ${p.a.id}`), "the main tree's task is found from the worktree");
  t.regex(r2.payload.output, /seq \d+, nodwyn's reply\n {4}1: The walrus service deploys from deploy\.sh\./);
});
