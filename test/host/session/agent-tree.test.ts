// The session tree in real repositories: checkpoints, /undo restoring what fs-write, fs-edit and a command changed, redo, rewinds and forks.
import test from "ava";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { AgentSession, type AgentOptions } from "../../../host/session/agent.js";
import { readLog } from "../../../host/log/index.js";
import { replayRequest } from "../../../host/window/index.js";
import { FakeModel, type FakeReply } from "../../helpers/fake-model.js";
import { dataDir, gitRepo, records } from "./agent-helpers.js";

// GIT_OPTIONAL_LOCKS=0: the test's own `git status` does not refresh the index, so its bytes show whether anything wrote it.
const git = (root: string, ...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8", env: { ...process.env, GIT_OPTIONAL_LOCKS: "0", GIT_AUTHOR_NAME: "p", GIT_AUTHOR_EMAIL: "p@x", GIT_COMMITTER_NAME: "p", GIT_COMMITTER_EMAIL: "p@x" } });

/** What the person's repository looks like to them: status, stash, refs other than nodwyn's, HEAD, the index's entries. */
function personState(root: string) {
  return {
    status: git(root, "status", "--porcelain=v2", "--untracked-files=all"),
    stash: git(root, "stash", "list"),
    refs: git(root, "for-each-ref", "--format=%(refname) %(objectname)").split("\n").filter((l) => l && !l.startsWith("refs/nodwyn/")).join("\n"),
    head: git(root, "rev-parse", "HEAD"),
    index: git(root, "ls-files", "-s"),
    indexBytes: createHash("sha256").update(readFileSync(join(root, ".git", "index"))).digest("hex"),
  };
}

function plainDir(t: any, files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "nodwyn-plain-")));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

function committedRepo(t: any): string {
  const root = gitRepo(t, { "README.md": "# demo\n", "src/a.ts": "let x = 1;\n", "notes.txt": "untracked\n" });
  git(root, "add", "README.md", "src/a.ts");
  git(root, "commit", "-q", "-m", "first");
  git(root, "branch", "side");
  // A stash and a staged change of the person's: neither may move.
  writeFileSync(join(root, "README.md"), "# demo, stashed\n");
  git(root, "stash", "-q");
  writeFileSync(join(root, "README.md"), "# demo, staged\n");
  git(root, "add", "README.md");
  return root;
}

const call = (name: string, args: unknown): FakeReply => ({ calls: [{ name, args }] });

/** Turn 1 writes through all three ways; the later turns each write one file. */
function script(): FakeReply[] {
  return [
    call("fs-write", { path: "src/new.ts", text: "export const n = 1;\n" }),
    call("fs-edit", { path: "src/a.ts", old: "let x = 1;", new: "let x = 2;" }),
    call("shell-exec", { command: "printf 'from the shell\\n' > shell.txt" }),
    { text: "turn one done" },
    call("fs-write", { path: "two.txt", text: "2\n" }),
    { text: "turn two done" },
    call("fs-write", { path: "three.txt", text: "3\n" }),
    { text: "turn three done" },
    { text: "turn four, after the rewind" },
    { text: "more" },
    { text: "more" },
  ];
}

function options(root: string, data: string, provider: FakeModel, o: Partial<AgentOptions> = {}): AgentOptions {
  return {
    origin: "chat",
    cwd: root,
    env: { PATH: process.env.PATH, HOME: root, NODWYN_DATA_DIR: data },
    provider,
    model: { id: "fake-1", server: "fake", contextWindow: 100_000 },
    askApproval: async () => "once",
    ...o,
  };
}

for (const where of ["git", "outside git"] as const) {
  test(`${where}: /undo restores what fs-write, fs-edit and a command changed; redo brings it back; the log keeps everything`, async (t) => {
    const root = where === "git" ? committedRepo(t) : plainDir(t, { "README.md": "# demo\n", "src/a.ts": "let x = 1;\n", "notes.txt": "untracked\n" });
    const data = dataDir(t);
    const before = where === "git" ? personState(root) : null;
    const provider = new FakeModel(script());
    const agent = await AgentSession.open(options(root, data, provider));
    const r1 = await agent.turn("change three files");
    t.is(r1.outcome, "done");
    t.is(readFileSync(join(root, "src/a.ts"), "utf8"), "let x = 2;\n");
    t.is(readFileSync(join(root, "shell.txt"), "utf8"), "from the shell\n");
    const cp = records(data).find((x) => x.kind === "checkpoint");
    t.like(cp.payload, { turn: 1, store: where === "git" ? "git" : "private" });
    t.deepEqual([...cp.payload.files].sort(), ["shell.txt", "src/a.ts", "src/new.ts"]);

    const u = await agent.undo();
    t.like(u, { from: 1, to: 0, reason: "undo", files: "restored" });
    t.deepEqual([...u.restored], ["shell.txt", "src/a.ts", "src/new.ts"]);
    t.is(readFileSync(join(root, "src/a.ts"), "utf8"), "let x = 1;\n");
    t.false(existsSync(join(root, "src/new.ts")));
    t.false(existsSync(join(root, "shell.txt")));
    t.is(readFileSync(join(root, "notes.txt"), "utf8"), "untracked\n");
    if (before !== null) t.deepEqual(personState(root), before, "index, HEAD, branches, stash and untracked files are as they were");

    const r = await agent.redo();
    t.like(r, { from: 0, to: 1, reason: "redo", files: "restored" });
    t.is(readFileSync(join(root, "src/new.ts"), "utf8"), "export const n = 1;\n");
    t.is(readFileSync(join(root, "src/a.ts"), "utf8"), "let x = 2;\n");
    t.is(readFileSync(join(root, "shell.txt"), "utf8"), "from the shell\n");
    await t.throwsAsync(() => agent.redo(), { message: /nothing to redo/ });
    agent.close();

    const recs = records(data);
    const moves = recs.filter((x) => x.kind === "head.move").map((x) => [x.payload.reason, x.payload.from, x.payload.to, x.payload.files]);
    t.deepEqual(moves, [["undo", 1, 0, "restored"], ["redo", 0, 1, "restored"]]);
    // Every original event is still there, in order.
    const turn1 = recs.filter((x) => ["user.msg", "llm.req", "llm.resp", "tool.call", "tool.result", "turn.end"].includes(x.kind));
    t.is(turn1.filter((x) => x.kind === "tool.result").length, 3);
    t.is(recs.filter((x) => x.kind === "user.msg").length, 1);
    if (where === "git") {
      t.regex(git(root, "for-each-ref", "refs/nodwyn/"), /refs\/nodwyn\/checkpoints\//, "the checkpoints are kept under nodwyn's own ref");
    }
  });

  test(`${where}: undo does not overwrite a file the person changed after the turn unless they say so`, async (t) => {
    const root = where === "git" ? committedRepo(t) : plainDir(t, { "src/a.ts": "let x = 1;\n" });
    const data = dataDir(t);
    const provider = new FakeModel(script());
    const agent = await AgentSession.open(options(root, data, provider));
    await agent.turn("change three files");
    writeFileSync(join(root, "src/a.ts"), "let x = 'mine';\n");
    const asked: string[][] = [];
    const u = await agent.undo({ ask: async (files) => (asked.push([...files]), "keep") });
    t.deepEqual(asked, [["src/a.ts"]]);
    t.deepEqual([...u.kept], ["src/a.ts"]);
    t.is(readFileSync(join(root, "src/a.ts"), "utf8"), "let x = 'mine';\n", "the person's change is kept");
    t.false(existsSync(join(root, "src/new.ts")), "the others are restored");
    t.false(existsSync(join(root, "shell.txt")));
    // Cancelled: nothing changes and nothing is recorded.
    await agent.redo();
    writeFileSync(join(root, "src/new.ts"), "mine too\n");
    const c = await agent.undo({ ask: async () => "cancel" });
    t.is(c.seq, 0);
    t.is(readFileSync(join(root, "src/new.ts"), "utf8"), "mine too\n");
    t.true(existsSync(join(root, "shell.txt")));
    // Overwrite: the person said so.
    const o = await agent.undo({ ask: async () => "overwrite" });
    t.true(o.restored.includes("src/new.ts"));
    t.false(existsSync(join(root, "src/new.ts")));
    agent.close();
    const moves = records(data).filter((x) => x.kind === "head.move");
    t.deepEqual(moves.map((m) => m.payload.reason), ["undo", "redo", "undo"]);
    t.deepEqual(moves[0].payload.kept, ["src/a.ts"]);
    t.is(typeof moves[0].payload.left, "string", "the tree as the undo found it is captured (nothing lost)");
  });

  test(`${where}: rewinding three turns, then a new turn and a fork; the window leaves the abandoned branch out and every request replays`, async (t) => {
    const root = where === "git" ? committedRepo(t) : plainDir(t, { "src/a.ts": "let x = 1;\n" });
    const data = dataDir(t);
    const provider = new FakeModel(script());
    const agent = await AgentSession.open(options(root, data, provider));
    await agent.turn("change three files");
    await agent.turn("write two");
    await agent.turn("write three");
    t.true(existsSync(join(root, "three.txt")));
    for (let i = 0; i < 3; i++) await agent.undo();
    t.false(existsSync(join(root, "two.txt")));
    t.false(existsSync(join(root, "three.txt")));
    t.is(readFileSync(join(root, "src/a.ts"), "utf8"), "let x = 1;\n");
    const r4 = await agent.turn("start again");
    t.is(r4.outcome, "done");
    // The request of turn 4 holds no message of the abandoned turns.
    const req = provider.requests.at(-1)!;
    const texts = req.messages.map((m) => m.content).join("\n");
    t.false(/change three files|write two|write three|turn one done/.test(texts), texts);
    t.true(texts.includes("start again"));
    const tree = agent.checkpoints();
    t.is(tree.head, 4);
    t.is(tree.turns.find((x) => x.turn === 4)!.parent, 0);
    t.deepEqual(tree.turns.filter((x) => x.onBranch).map((x) => x.turn), [4]);
    const f = agent.fork();
    t.is(f.turn, 4);
    agent.close();
    const recs = records(data, agent.id);
    t.deepEqual(recs.filter((x) => x.kind === "head.move").map((x) => [x.payload.from, x.payload.to]), [[3, 2], [2, 1], [1, 0]]);
    t.is(recs.filter((x) => x.kind === "user.msg").length, 4, "nothing is deleted");
    // Every request of the session replays to its digest, before and after the rewind.
    const all = [...readLog(join(data, "sessions", `${agent.id}.jsonl`))];
    const reqs = all.filter((x) => x.kind === "llm.req");
    t.is(reqs.length, 9);
    for (const q of reqs) t.is(replayRequest(all, q.seq).digest, (q.payload as any).digest);
    // The fork: where it came from, and the head's branch only.
    const forked = records(data, f.session);
    const forkNote = recs.find((x) => x.kind === "note" && x.payload.topic === "fork");
    t.deepEqual(forkNote.payload.data, { session: f.session, turn: 4 });
    t.deepEqual(forked[0].payload.forked_from, { session: agent.id, turn: 4, seq: forkNote.seq - 1 });
    t.deepEqual(forked.filter((x) => x.kind === "user.msg").map((x) => x.payload.text), ["start again"]);
    const provider2 = new FakeModel([{ text: "in the fork" }]);
    const resumed = await AgentSession.open(options(root, data, provider2, { resume: f.session }));
    await resumed.turn("go on");
    resumed.close();
    const sent = provider2.requests[0]!.messages.map((m) => m.content);
    t.deepEqual(sent.filter((c) => c === "start again" || c === "go on"), ["start again", "go on"]);
  });
}

test("a fork numbers its turns again and can undo a copied turn from the checkpoints it keeps under its own ref", async (t) => {
  const root = committedRepo(t);
  const data = dataDir(t);
  const agent = await AgentSession.open(options(root, data, new FakeModel([{ text: "nothing" }, call("fs-write", { path: "f.txt", text: "f\n" }), { text: "wrote f" }])));
  await agent.turn("first, no files");
  await agent.undo();
  await agent.turn("write f");
  const f = agent.fork();
  agent.close();
  t.is(f.turn, 2);
  t.regex(git(root, "for-each-ref", "--format=%(refname)", "refs/nodwyn/"), new RegExp(`refs/nodwyn/checkpoints/${f.session}`));
  const forked = records(data, f.session);
  t.deepEqual(forked.filter((x) => x.kind === "turn.end").map((x) => x.payload.turn), [1]);
  t.deepEqual(forked.filter((x) => x.kind === "checkpoint").map((x) => x.payload.turn), [1]);
  const resumed = await AgentSession.open(options(root, data, new FakeModel([]), { resume: f.session }));
  t.is(resumed.turns, 1);
  const u = await resumed.undo();
  resumed.close();
  t.like(u, { from: 1, to: 0, files: "restored" });
  t.false(existsSync(join(root, "f.txt")));
});

test("an undo never writes through a directory the person (or a command) turned into a link since", async (t) => {
  const root = committedRepo(t);
  const data = dataDir(t);
  const outside = realpathSync(mkdtempSync(join(tmpdir(), "nodwyn-outside-")));
  t.teardown(() => rmSync(outside, { recursive: true, force: true }));
  writeFileSync(join(outside, "a.ts"), "outside\n");
  const agent = await AgentSession.open(options(root, data, new FakeModel([call("fs-edit", { path: "src/a.ts", old: "let x = 1;", new: "let x = 2;" }), { text: "ok" }])));
  await agent.turn("edit src/a.ts");
  rmSync(join(root, "src"), { recursive: true });
  symlinkSync(outside, join(root, "src"));
  await t.throwsAsync(() => agent.undo({ ask: async () => "overwrite" }), { message: /src is not a directory \(it is a link or a file now\); nothing was restored/ });
  agent.close();
  t.is(readFileSync(join(outside, "a.ts"), "utf8"), "outside\n");
  t.deepEqual(readdirSync(outside), ["a.ts"]);
  t.false(records(data).some((x) => x.kind === "head.move"), "a move that failed is not recorded");
});
