// docs/guides/window.md stays true: its worked example runs as written (the scripted provider, real processes) and prints what the guide shows.
import test from "ava";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { BIN, tempDir } from "../helpers/cli.js";

const root = resolve(new URL(".", import.meta.url).pathname, "..", "..", "..");
const guide = readFileSync(join(root, "docs", "guides", "window.md"), "utf8");

test("the worked example: three turns, a summary of the first, the request that shows it, the drop", (t) => {
  const dir = tempDir("nodwyn-window-guide-");
  const env = { ...process.env, NODWYN_DATA_DIR: join(dir, "data"), XDG_CONFIG_HOME: join(dir, "config") };
  const run = (args: string[], input = "") => spawnSync(BIN, args, { cwd: root, env, input, encoding: "utf8", timeout: 90_000 });
  const replies = /cat > replies\.jsonl <<'EOF'\n([\s\S]*?)\nEOF\n/.exec(guide)![1]!;
  writeFileSync(join(dir, "replies.jsonl"), replies + "\n");
  const chat = run(["chat", "--model", `scripted:${join(dir, "replies.jsonl")}`], "What is README.md?\nWhich sections does it have?\nHow do I start?\n");
  t.is(chat.status, 0, chat.stderr);
  const id = readdirSync(join(dir, "data", "sessions"))[0]!.replace(/\.jsonl$/, "");
  const shown = run(["log", "show", "last", "--kind", "user.msg,llm.resp"]).stdout;
  t.regex(shown, /^ {5}3 {2}\S+ {2}user\.msg {10}\{"text":"What is README\.md\?","actor":"person"\}$/m);
  t.regex(shown, /^ {4}10 {2}\S+ {2}llm\.resp {10}\{"req_seq":9,"model":"scripted","text":"It is nodwyn's README: an embeddable Scheme for AI agents\."/m);
  const summaryText = /echo "(The person asked what README\.md is[^"]*)" > turn1\.txt/.exec(guide)![1]!;
  writeFileSync(join(dir, "turn1.txt"), summaryText + "\n");
  const made = run(["summary", "--from", "3", "--through", "10", "--text", join(dir, "turn1.txt"), id]);
  t.is(made.stdout, "26\n", made.stderr);
  t.is(run(["summary", id]).stdout, "   SEQ  SPAN           STATUS      TEXT\n    26  3-10           active      The person asked what README.md is: the README of nodwyn, a…\n");
  writeFileSync(join(dir, "more.jsonl"), /echo '(\{"text": "You asked[^']*)' > more\.jsonl/.exec(guide)![1]! + "\n");
  const resumed = run(["resume", "--model", `scripted:${join(dir, "more.jsonl")}`, id], "What have I asked so far?\n");
  t.is(resumed.status, 0, resumed.stderr);
  const r = run(["replay", id, "--window", "30"]);
  t.is(r.status, 0, r.stderr);
  const req = JSON.parse(r.stdout);
  t.deepEqual(req.messages[0], { role: "user", content: "[continued]" });
  t.is(req.messages[1].content, `[revocable summary seq=26 of the conversation at seq 3-10, written by a person; the events it stands for stay in the log]\n\n${summaryText}\n`);
  t.deepEqual(req.messages[2], { role: "user", content: "Which sections does it have?" });
  t.deepEqual(req.messages.at(-1), { role: "user", content: "What have I asked so far?" });
  const digest = /digest (sha256:[0-9a-f]{64}) verified/.exec(r.stderr)![1]!;
  const canonical = run(["replay", id, "--window", "30", "--canonical"]).stdout;
  t.is("sha256:" + createHash("sha256").update(canonical).digest("hex"), digest);
  t.is(run(["summary", "--drop", "26", id]).stdout, "34\n");
  t.regex(run(["summary", id]).stdout, /^ {4}26 {2}3-10 {11}dropped {5}The person asked .*\(dropped at seq 34\)$/m);
  t.regex(run(["replay", id]).stdout, /^#34 \S+ summary\.drop {2}revokes summary 26 · by person$/m);
  // The README's replay lines run after its quick start.
  const quick = run(["ask", "--model", "scripted:examples/scripted/quick-start.jsonl", "What is in the README?"]);
  t.is(quick.status, 0, quick.stderr);
  const q = run(["replay", "last", "--window", "4"]);
  t.is(q.status, 0, q.stderr);
  t.regex(q.stderr, /the llm\.req at seq 4 \(window-v2\) .* verified/);
});
