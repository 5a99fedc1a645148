// fs-write and fs-edit in a turn: the person's approval (once, always for a directory, never), the write guard, exact edits.
import test from "ava";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentOptions } from "../../../host/session/agent.js";
import type { ApprovalAnswer, ApprovalRequest } from "../../../host/shell/index.js";
import type { FakeReply } from "../../helpers/fake-model.js";
import { fakeAgent, gitRepo, records } from "./agent-helpers.js";

function setup(t: any, replies: FakeReply[], o: Partial<AgentOptions> = {}) {
  const root = gitRepo(t, { "README.md": "# demo\n", "src/a.ts": "let x = 1;\nlet y = 1;\n", "src/b.ts": "b\n" });
  mkdirSync(join(root, ".nodwyn"), { recursive: true });
  writeFileSync(join(root, ".nodwyn", "checks.scm"), ";; no checkers\n");
  writeFileSync(join(root, ".env"), "TOKEN=abc\n");
  return fakeAgent(t, root, replies, { origin: "chat", ...o });
}

const call = (name: string, args: unknown): FakeReply => ({ calls: [{ name, args }] });
const answering = (answers: ApprovalAnswer[], asked: ApprovalRequest[]) => async (r: ApprovalRequest) => (asked.push(r), answers.shift() ?? "never");

test("fs-write and fs-edit ask the person; always allows the directory; each answer is an approval.change of kind write", async (t) => {
  const asked: ApprovalRequest[] = [];
  const s = setup(t, [call("fs-write", { path: "src/new.ts", text: "export const n = 1;\n" }), call("fs-edit", { path: "src/a.ts", old: "let x = 1;", new: "let x = 2;" }), call("fs-write", { path: "src/b.ts", text: "B\n" }), { text: "done" }], {
    askApproval: answering(["once", "session"], asked),
  });
  const agent = await s.open();
  const r = await agent.turn("edit things");
  agent.close();
  t.is(r.outcome, "done");
  t.is(readFileSync(join(s.root, "src/new.ts"), "utf8"), "export const n = 1;\n");
  t.is(readFileSync(join(s.root, "src/a.ts"), "utf8"), "let x = 2;\nlet y = 1;\n");
  t.is(readFileSync(join(s.root, "src/b.ts"), "utf8"), "B\n");
  t.is(asked.length, 2, "the third write was under src/, allowed for the session");
  t.like(asked[0], { kind: "write", command: "src/new.ts", prefix: "src/" });
  const recs = records(s.data);
  const changes = recs.filter((x) => x.kind === "approval.change");
  t.deepEqual(changes.map((c) => [c.payload.kind, c.payload.scope, c.payload.prefix]), [["write", "once", "src/"], ["write", "session", "src/"]]);
  const results = recs.filter((x) => x.kind === "tool.result");
  t.deepEqual(results.map((x) => x.payload.ok), [true, true, true]);
  t.is(results[0].payload.output, "wrote src/new.ts (20 bytes, a new file)");
  t.is(results[1].payload.output, "edited src/a.ts: 1 replacement (22 bytes now)");
  const writes = recs.filter((x) => x.kind === "guard.decision" && x.payload.op === "write");
  t.deepEqual(writes.map((x) => [x.payload.path, x.payload.decision]), [["src/new.ts", "allow"], ["src/a.ts", "allow"], ["src/b.ts", "allow"]]);
});

test("an unapproved write changes nothing: refused by the person, and where no one can answer", async (t) => {
  const asked: ApprovalRequest[] = [];
  const s = setup(t, [call("fs-write", { path: "src/a.ts", text: "gone" }), call("fs-edit", { path: "src/a.ts", old: "let x = 1;", new: "z" }), { text: "ok" }], { askApproval: answering(["never"], asked) });
  const agent = await s.open();
  await agent.turn("try");
  agent.close();
  t.is(readFileSync(join(s.root, "src/a.ts"), "utf8"), "let x = 1;\nlet y = 1;\n");
  t.is(asked.length, 1, "a path refused once is refused for the session without asking");
  const results = records(s.data).filter((x) => x.kind === "tool.result");
  t.deepEqual(results.map((x) => x.payload.ok), [false, false]);
  t.regex(results[0].payload.error, /not-approved|the person refused this write/);
  t.regex(results[1].payload.error, /refused writes to src\/a\.ts/);

  const h = setup(t, [call("fs-write", { path: "made.txt", text: "x" }), { text: "ok" }]);
  const a2 = await h.open();
  await a2.turn("try");
  a2.close();
  t.false(existsSync(join(h.root, "made.txt")));
  const r2 = records(h.data).find((x) => x.kind === "tool.result");
  t.regex(r2.payload.error, /no one can answer here/);
});

test("writes outside the root, into .git/, .env and .nodwyn/checks.scm are refused before the person is asked", async (t) => {
  const asked: ApprovalRequest[] = [];
  const s = setup(t, [
    call("fs-write", { path: "../escape.txt", text: "x" }),
    call("fs-write", { path: "/tmp/nodwyn-escape.txt", text: "x" }),
    call("fs-write", { path: ".git/hooks/post-commit", text: "#!/bin/sh\n" }),
    call("fs-write", { path: ".env", text: "TOKEN=stolen\n" }),
    call("fs-edit", { path: ".nodwyn/checks.scm", old: ";; no checkers", new: "(exit)" }),
    { text: "ok" },
  ], { askApproval: answering(["once", "once", "once", "once", "once"], asked) });
  const agent = await s.open();
  await agent.turn("escape");
  agent.close();
  t.is(asked.length, 0);
  const results = records(s.data).filter((x) => x.kind === "tool.result");
  t.deepEqual(results.map((x) => x.payload.ok), [false, false, false, false, false]);
  for (const r of results) t.regex(r.payload.error, /guard-denied|denied/);
  t.false(existsSync(join(s.root, "..", "escape.txt")));
  t.false(existsSync("/tmp/nodwyn-escape.txt"));
  t.false(existsSync(join(s.root, ".git", "hooks", "post-commit")));
  t.is(readFileSync(join(s.root, ".env"), "utf8"), "TOKEN=abc\n");
  t.is(readFileSync(join(s.root, ".nodwyn", "checks.scm"), "utf8"), ";; no checkers\n");
  const denials = records(s.data).filter((x) => x.kind === "guard.decision" && x.payload.op === "write");
  t.true(denials.length >= 4 && denials.every((d) => d.payload.decision === "deny"));
});

test("fs-edit fails clearly when the text is absent or ambiguous, and count replaces every occurrence", async (t) => {
  const s = setup(t, [
    call("fs-edit", { path: "src/a.ts", old: "let z", new: "q" }),
    call("fs-edit", { path: "src/a.ts", old: " = 1;", new: " = 3;" }),
    call("fs-edit", { path: "src/a.ts", old: " = 1;", new: " = 3;", count: 3 }),
    call("fs-edit", { path: "src/a.ts", old: " = 1;", new: " = 3;", count: 2 }),
    call("fs-edit", { path: "src/missing.ts", old: "a", new: "b" }),
    { text: "ok" },
  ], { askApproval: async () => "session" });
  const agent = await s.open();
  await agent.turn("edit");
  agent.close();
  const results = records(s.data).filter((x) => x.kind === "tool.result");
  t.deepEqual(results.map((x) => x.payload.ok), [false, false, false, true, false]);
  t.regex(results[0].payload.error, /does not occur in src\/a\.ts/);
  t.regex(results[1].payload.error, /occurs 2 times in src\/a\.ts: include more of the surrounding text/);
  t.regex(results[2].payload.error, /occurs 2 times in src\/a\.ts, not 3/);
  t.is(results[3].payload.output, "edited src/a.ts: 2 replacements (22 bytes now)");
  t.regex(results[4].payload.error, /no such file/);
  t.is(readFileSync(join(s.root, "src/a.ts"), "utf8"), "let x = 3;\nlet y = 3;\n");
});

test("a directory swapped for a link between the check and the write: the turn's write is refused and nothing escapes", async (t) => {
  const outside = mkdtempSync(join(tmpdir(), "nodwyn-outside-"));
  t.teardown(() => rmSync(outside, { recursive: true, force: true }));
  writeFileSync(join(outside, "b.ts"), "outside\n");
  let root = "";
  const s = setup(t, [call("fs-write", { path: "src/b.ts", text: "escaped" }), { text: "ok" }], {
    askApproval: async () => "once",
    beforeWrite: () => {
      renameSync(join(root, "src"), join(root, "src.moved"));
      symlinkSync(outside, join(root, "src"));
    },
  });
  root = s.root;
  const agent = await s.open();
  await agent.turn("write");
  agent.close();
  t.is(readFileSync(join(outside, "b.ts"), "utf8"), "outside\n");
  t.deepEqual(readdirSync(outside), ["b.ts"]);
  t.is(readFileSync(join(root, "src.moved", "b.ts"), "utf8"), "b\n");
  const result = records(s.data).find((x) => x.kind === "tool.result");
  t.false(result.payload.ok);
  t.regex(result.payload.error, /became a symbolic link between the check and the write/);
});
