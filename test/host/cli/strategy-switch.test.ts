// --strategy switches between the strategies: a shipped one by name (evict, shell), a file by path (a file of that name first).
import test from "ava";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { nodwynAsync, sessionRecords, tempDir } from "../../helpers/cli.js";

function repo(): string {
  const root = tempDir();
  spawnSync("git", ["init", "-q", root]);
  writeFileSync(join(root, "s.jsonl"), `{"text": "ok"}\n`);
  return root;
}

/** session.start's payload: its strategy is the file that ran. */
const started = (dataDir: string) => sessionRecords(dataDir)[0].payload;

test("--strategy evict runs the shipped evict.scm, shell shell.scm; compact.scm is the default; a path its file; a file named evict wins over the name", async (t) => {
  const root = repo();
  const env = { NODWYN_CONTEXT_TOKENS: "8000" };
  const [ev, sh, none] = await Promise.all([
    nodwynAsync(["ask", "--strategy", "evict", "--model", "scripted:s.jsonl", "hello"], { cwd: root, env }),
    nodwynAsync(["ask", "--strategy", "shell", "--model", "scripted:s.jsonl", "hello"], { cwd: root, env }),
    nodwynAsync(["ask", "--model", "scripted:s.jsonl", "hello"], { cwd: root, env }),
  ]);
  for (const r of [ev, sh, none]) t.is(r.code, 0, r.stderr);
  t.regex(started(ev.dataDir).strategy, /stdlib\/strategies\/evict\.scm$/);
  t.regex(started(sh.dataDir).strategy, /stdlib\/strategies\/shell\.scm$/);
  t.regex(started(none.dataDir).strategy, /stdlib\/strategies\/compact\.scm$/, "compact.scm is the default");
  // A file of that name in the working directory is the person's own strategy.
  writeFileSync(join(root, "evict"), `(import (scheme base) (nodwyn strategy))\n(register-strategy! 'mine (lambda (m) (send (window))))\n`);
  const own = await nodwynAsync(["ask", "--strategy", "evict", "--model", "scripted:s.jsonl", "hello"], { cwd: root, env });
  t.is(own.code, 0, own.stderr);
  t.is(started(own.dataDir).strategy, join(root, "evict"));
  const missing = await nodwynAsync(["ask", "--strategy", "nosuch", "--model", "scripted:s.jsonl", "hello"], { cwd: root, env });
  t.is(missing.code, 1);
  t.regex(missing.stderr, /nosuch/);
});
