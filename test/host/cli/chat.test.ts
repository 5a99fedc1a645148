// nodwyn chat in a real pseudo-terminal: a checker's ask verdict put to the person during a turn, y and n.
import test from "ava";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Pty } from "../../helpers/pty.js";
import { sessionRecords, tempDir } from "../../helpers/cli.js";

test("chat: the guard's ask is put to the person while the turn runs; y lets the model read the file, n denies it", async (t) => {
  const root = tempDir();
  spawnSync("git", ["init", "-q", root]);
  mkdirSync(join(root, ".nodwyn"));
  writeFileSync(join(root, ".nodwyn", "checks.scm"), `(register-check "asker" (lambda (path info) (if (string=? path "ask.txt") '(ask "it holds the draft") 'allow)))\n`);
  writeFileSync(join(root, "ask.txt"), "the draft\n");
  writeFileSync(
    join(root, "script.toml"),
    `[[reply]]
tool_calls = [{ name = "fs-read", arguments = { path = "ask.txt" } }]

[[reply]]
text = "First read done."

[[reply]]
tool_calls = [{ name = "fs-read", arguments = { path = "ask.txt" } }]

[[reply]]
text = "Second read done."
`,
  );
  const p = new Pty({ cwd: root, args: ["chat", "--model", "scripted:script.toml"], cols: 160, env: { NODWYN_CHAT_HISTORY: "" } });
  t.teardown(() => p.kill());
  await p.waitFor(/\n> $/);
  p.write("read ask.txt\r");
  t.regex(await p.waitFor(/let the model read ask\.txt\? \[y\/N\] $/), /checker asker asks about ask\.txt: it holds the draft\n/);
  p.write("y\r");
  await p.waitFor("First read done.");
  await p.waitFor(/\n> $/);
  p.write("once more\r");
  await p.waitFor(/\[y\/N\] $/);
  p.write("n\r");
  await p.waitFor("Second read done.");
  await p.waitFor(/\n> $/);
  p.write("\x04");
  t.is((await p.exit()).code, 0);
  const recs = sessionRecords(p.dataDir);
  const reads = recs.filter((r) => r.kind === "tool.result" && r.payload.tool === "fs-read").map((r) => r.payload);
  t.is(reads.length, 2);
  t.true(reads[0].ok, JSON.stringify(reads[0]));
  t.regex(JSON.stringify(reads[0]), /the draft/);
  t.notRegex(JSON.stringify(reads[1]), /the draft\\n/);
  t.regex(JSON.stringify(reads[1]), /denied|refused/);
  const decisions = recs.filter((r) => r.kind === "guard.decision" && r.payload.path === "ask.txt").map((r) => [r.payload.decision, r.payload.rule, r.payload.checker]);
  t.deepEqual(decisions, [
    ["allow", "ask", "asker"],
    ["deny", "ask", "asker"],
  ]);
});
