// nodwyn ask, chat and resume as real processes: the scripted provider, exit codes, --json, a resume after SIGKILL, a pseudo-terminal.
import test from "ava";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pty from "node-pty";
import { fileURLToPath } from "node:url";
import { BIN } from "../../helpers/cli.js";
import { waitExit } from "../../helpers/wait-exit.js";

const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

const SECRET = "sk-proj-" + "Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8L9z0X1c2";

interface Env {
  root: string;
  data: string;
  config: string;
  env: NodeJS.ProcessEnv;
}

/** A git repository, a data dir and a config dir in temp folders, removed after the test. */
function place(t: any, files: Record<string, string> = {}): Env {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "nodwyn-agent-cli-")));
  t.teardown(() => rmSync(base, { recursive: true, force: true }));
  const root = join(base, "repo");
  mkdirSync(root);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(root, rel, ".."), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  spawnSync("git", ["init", "-q", root]);
  const data = join(base, "data");
  const config = join(base, "config");
  mkdirSync(join(config, "nodwyn"), { recursive: true });
  const env = { PATH: process.env.PATH, HOME: base, NODWYN_DATA_DIR: data, XDG_CONFIG_HOME: config, LANG: "C.UTF-8", TERM: "xterm" } as NodeJS.ProcessEnv;
  return { root, data, config, env };
}

function run(e: Env, args: string[], input = ""): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(BIN, args, { cwd: e.root, env: e.env, input, encoding: "utf8", timeout: 90_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function sessions(e: Env): string[] {
  const dir = join(e.data, "sessions");
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".jsonl")).map((f) => f.slice(0, -6)).sort() : [];
}

function records(e: Env, id?: string): any[] {
  const s = id ?? sessions(e)[0]!;
  const file = join(e.data, "sessions", `${s}.jsonl`);
  if (!existsSync(file)) return [];
  // The session is live while the pseudo-terminal tests read it: a record
  // being appended has no newline yet, so only complete lines are parsed.
  const lines = readFileSync(file, "utf8").split("\n");
  lines.pop();
  return lines.filter(Boolean).map((l) => JSON.parse(l));
}

async function waitFor<T>(what: string, f: () => T | undefined | false, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test("nodwyn ask with the scripted provider: index-grep and eval on a real repository, then the answer", (t) => {
  const e = place(t, { "src/app.ts": "// TODO: handle errors\nexport const app = 1;\n", "deploy/keys.txt": `OPENAI_API_KEY=${SECRET}\n` });
  writeFileSync(
    join(e.root, "script.toml"),
    `[[reply]]
text = "Searching."
tool_calls = [{ name = "index-grep", arguments = { path = ".", pattern = "TODO|OPENAI", glob = "!script.toml" } }]

[[reply]]
tool_calls = [{ name = "eval", arguments = { code = "(length (vector->list (cdr (assq 'matches (index-grep \\"src\\" \\"TODO\\")))))" } }]

[[reply]]
text = "One TODO, in src/app.ts."
`,
  );
  const r = run(e, ["ask", "--model", "scripted:script.toml", "Where", "are", "the", "TODOs?"]);
  t.is(r.code, 0, r.stderr);
  t.is(r.stdout, "One TODO, in src/app.ts.\n");
  const recs = records(e);
  t.deepEqual(recs.map((x) => x.seq), recs.map((_, i) => i + 1));
  const kinds = recs.map((x) => x.kind).filter((k) => k !== "guard.decision" && k !== "redact.event");
  t.deepEqual(kinds, [
    "session.start",
    "session.model",
    "user.msg",
    "llm.req",
    "llm.resp",
    "tool.call",
    "tool.result",
    "llm.req",
    "llm.resp",
    "tool.call",
    "eval.req",
    "eval.result",
    "tool.result",
    "llm.req",
    "llm.resp",
    "turn.end",
    "session.end",
  ]);
  t.false(JSON.stringify(recs).includes(SECRET), "the secret the grep found never reaches the log");
  t.true(recs.some((x) => x.kind === "redact.event"));
  const results = recs.filter((x) => x.kind === "tool.result");
  t.regex(results[0].payload.output, /deploy\/keys\.txt:1:OPENAI_API_KEY=\S*\[REDACTED:openai-key\]\n/);
  t.is(results[1].payload.output, "=> 1");
  t.like(recs.find((x) => x.kind === "user.msg").payload, { text: "Where are the TODOs?", actor: "person" });
  t.like(recs.at(-2).payload, { outcome: "done", turn: 1 });
});

test("nodwyn ask --json prints the turn's records, from user.msg to turn.end", (t) => {
  const e = place(t, { "a.txt": "alpha\n" });
  writeFileSync(join(e.root, "s.jsonl"), '{"text": "hello"}\n');
  const r = run(e, ["ask", "--json", "--model", "scripted:s.jsonl"], "say hello\n");
  t.is(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
  t.deepEqual(lines.map((x) => x.kind), ["user.msg", "llm.req", "llm.resp", "turn.end"]);
  t.is(lines[0].payload.text, "say hello\n");
  t.is(lines[2].payload.text, "hello");
});

test("nodwyn ask's exit codes: 3 when a budget ends the turn, 1 when it fails, 2 for a usage error", (t) => {
  const e = place(t, { "a.txt": "alpha\n" });
  writeFileSync(join(e.root, "loop.jsonl"), '{"tool_calls": [{"name": "fs-read", "arguments": {"path": "a.txt"}}]}\n'.repeat(3));
  const limited = run(e, ["ask", "--max-model-calls", "1", "--model", "scripted:loop.jsonl", "read forever"]);
  t.is(limited.code, 3);
  t.regex(limited.stderr, /the turn ended limit: the turn reached its budget of 1 model calls/);
  writeFileSync(join(e.root, "err.jsonl"), '{"error": {"status": 500, "message": "the server broke"}}\n');
  const failed = run(e, ["ask", "--model", "scripted:err.jsonl", "x"]);
  t.is(failed.code, 1);
  t.regex(failed.stderr, /the turn ended failed: .*the server broke/);
  const usage = run(e, ["ask", "--max-tokens", "lots", "x"]);
  t.is(usage.code, 2);
  t.regex(usage.stderr, /--max-tokens: a positive integer is expected, got "lots"/);
  t.is(run(e, ["ask", "--model", "scripted:loop.jsonl"], "   \n").code, 2, "an empty message");
  const none = run(e, ["ask", "hello"]);
  t.is(none.code, 1);
  t.regex(none.stderr, /No model is configured\. nodwyn reads .*config\.toml/);
  t.regex(none.stderr, /kind = "ollama"/);
  const chat = run(e, ["chat"], "hello\n");
  t.is(chat.code, 1);
  t.regex(chat.stderr, /^nodwyn chat: No model is configured\. nodwyn reads .*config\.toml[\s\S]*For Ollama on this machine:[\s\S]*kind = "ollama"[\s\S]*For OpenAI:[\s\S]*key_env = "OPENAI_API_KEY"/);
  t.deepEqual(sessions(e).filter((s) => records(e, s).some((x) => x.kind === "user.msg" && x.payload.text === "hello\n")), [], "nothing was sent");
});

test("nodwyn ask's exit codes: 4 when the spend budget ends the turn, 130 when Ctrl-C (SIGINT) cancels it", async (t) => {
  const e = place(t, { "a.txt": "alpha\n" });
  writeFileSync(join(e.root, "costly.jsonl"), '{"tool_calls": [{"name": "fs-read", "arguments": {"path": "a.txt"}}], "usage": {"input": 10, "output": 5, "cost": 0.25}}\n{"text": "never sent"}\n');
  const spent = run(e, ["ask", "--max-spend", "0.1", "--model", "scripted:costly.jsonl", "spend"]);
  t.is(spent.code, 4, spent.stderr);
  t.regex(spent.stderr, /the turn ended spend_limit/);
  const earlier = sessions(e);
  writeFileSync(join(e.root, "slow.jsonl"), '{"text": "too late", "delay_ms": 600000}\n');
  const child = spawn(BIN, ["ask", "--model", "scripted:slow.jsonl", "wait"], { cwd: e.root, env: e.env, stdio: "ignore" });
  const exited = waitExit(child, "nodwyn ask (SIGINT during a slow request)", { t });
  const id = await waitFor("the request", () => sessions(e).find((s) => !earlier.includes(s) && records(e, s).some((x) => x.kind === "llm.req")));
  child.kill("SIGINT");
  t.is((await exited).code, 130);
  const recs = records(e, id);
  t.like(recs.find((x) => x.kind === "turn.end").payload, { outcome: "cancelled" });
  t.like(recs.at(-1), { kind: "session.end", payload: { exit_code: 130 } });
});

test("shell-exec in nodwyn ask: [shell] allow runs a prefix; anything else is refused for the model to read", (t) => {
  const e = place(t, { "a.txt": "alpha\n" });
  writeFileSync(join(e.config, "nodwyn", "config.toml"), '[control]\nmodel = "scripted:script.jsonl"\n\n[shell]\nallow = ["git status"]\n');
  writeFileSync(
    join(e.config, "nodwyn", "script.jsonl"),
    [
      { tool_calls: [{ name: "shell-exec", arguments: { command: "git status --short" } }] },
      { tool_calls: [{ name: "shell-exec", arguments: { command: "rm a.txt" } }] },
      { text: "done" },
    ]
      .map((x) => JSON.stringify(x))
      .join("\n"),
  );
  const r = run(e, ["ask", "tidy up"]);
  t.is(r.code, 0, r.stderr);
  const results = records(e).filter((x) => x.kind === "tool.result");
  t.like(results[0].payload, { ok: true });
  t.regex(results[0].payload.output, /^exit 0\n\?\? a\.txt/);
  t.like(results[1].payload, { ok: false });
  t.regex(results[1].payload.error, /not run: this command needs the person's approval and no one can answer here \(the allowed prefixes are: "git status"/);
  t.true(existsSync(join(e.root, "a.txt")), "nothing ran unasked");
});

test("nodwyn resume after a SIGKILL in the middle of a tool call: recovery results, the model restored, then chat goes on", async (t) => {
  const e = place(t, { "a.txt": "alpha\n" });
  writeFileSync(join(e.config, "nodwyn", "config.toml"), '[shell]\nallow = ["sleep"]\n');
  writeFileSync(join(e.root, "first.jsonl"), '{"text": "Sleeping.", "tool_calls": [{"name": "shell-exec", "arguments": {"command": "sleep 60"}}]}\n');
  const child = spawn(BIN, ["ask", "--model", "scripted:first.jsonl", "sleep a minute"], { cwd: e.root, env: e.env, stdio: "ignore" });
  const exited = waitExit(child, "nodwyn ask (SIGKILL during sleep 60)", { t });
  await waitFor("the tool call in the log", () => sessions(e).length === 1 && records(e).some((x) => x.kind === "tool.call"));
  child.kill("SIGKILL");
  await exited;
  const id = sessions(e)[0]!;
  const before = records(e, id);
  t.false(before.some((x) => x.kind === "tool.result" || x.kind === "session.end"));
  writeFileSync(join(e.root, "second.jsonl"), '{"text": "Back again."}\n');
  const r = run(e, ["resume", "--model", "scripted:second.jsonl", id], "are you there?\n");
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, new RegExp(`resumed ${id} \\(1 turn\\)`));
  t.regex(r.stdout, /Back again\./);
  const after = records(e, id).slice(before.length);
  t.deepEqual(after.map((x) => x.kind), ["session.resume", "tool.result", "turn.end", "session.model", "user.msg", "llm.req", "llm.resp", "turn.end", "session.end"]);
  t.like(after[1].payload, { tool: "shell-exec", ok: false, recovered: true });
  t.like(after[2].payload, { outcome: "failed", turn: 1 });
  t.like(after[7].payload, { outcome: "done", turn: 2 });
  // A second process cannot resume it while this one holds it; and a closed one resumes again.
  const again = run(e, ["resume", "--model", "scripted:second.jsonl", id], "");
  t.is(again.code, 0, again.stderr);
});

test("nodwyn resume refuses a session another process has open, saying what to do; once that one ends, it resumes", async (t) => {
  const e = place(t, { "a.txt": "alpha\n" });
  writeFileSync(join(e.root, "s.jsonl"), '{"text": "first"}\n{"text": "second"}\n');
  // A chat whose input stays open holds the session's lock.
  const chat = spawn(BIN, ["chat", "--model", "scripted:s.jsonl"], { cwd: e.root, env: e.env, stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  chat.stdout.on("data", (d) => (out += d));
  const exited = waitExit(chat, "nodwyn chat (holding the session's lock)", { t, output: () => out });
  chat.stdin.write("one\n");
  await waitFor("the chat's first answer", () => out.includes("first"));
  const id = sessions(e)[0]!;
  const refused = run(e, ["resume", "--model", "scripted:s.jsonl", id]);
  t.is(refused.code, 1);
  t.regex(refused.stderr, /^nodwyn resume: session log \S+ is already open by another writer: another nodwyn \(a chat, an ask or a resume\) has this session open; end it there first/);
  t.false(records(e, id).some((x) => x.kind === "session.resume"), "the refused resume wrote nothing");
  chat.stdin.end();
  t.is((await exited).code, 0);
  const again = run(e, ["resume", "--model", "scripted:s.jsonl", "last"], "two\n");
  t.is(again.code, 0, again.stderr);
  t.deepEqual(records(e, id).filter((x) => x.kind === "session.resume" || x.kind === "turn.end").map((x) => x.kind), ["turn.end", "session.resume", "turn.end"]);
});

test("nodwyn chat in a pseudo-terminal: the reply streams, Ctrl-C cancels a turn and keeps the session, the next turn works", async (t) => {
  const e = place(t, { "a.txt": "alpha\n" });
  writeFileSync(
    join(e.root, "chat.toml"),
    `[[reply]]
chunks = ["Stream", "ing ", "reply ", "here."]
chunk_delay_ms = 30

[[reply]]
text = "too slow"
delay_ms = 600000

[[reply]]
text = "Still here."
`,
  );
  const p = pty.spawn(BIN, ["chat", "--model", "scripted:chat.toml"], { name: "xterm", cols: 160, rows: 40, cwd: e.root, env: e.env as Record<string, string> });
  let screen = "";
  p.onData((d) => (screen += d));
  const exit = waitExit(p, "nodwyn chat in a pty", { t, output: () => screen });
  t.teardown(() => {
    try {
      p.kill("SIGKILL");
    } catch {
      // already gone
    }
  });
  await waitFor("the prompt", () => screen.includes("> "));
  p.write("hello\r");
  await waitFor("the streamed reply", () => screen.includes("Streaming reply here."));
  await waitFor("the first footer", () => /\[scripted · turn 1 · /.test(screen));
  const mark = screen.length;
  p.write("take your time\r");
  await waitFor("the slow request sent", () => records(e).filter((x) => x.kind === "llm.req").length === 2);
  p.write("\x03");
  await waitFor("the cancelled turn's footer", () => /turn 2 · .*cancelled/.test(screen.slice(mark)));
  p.write("again\r");
  await waitFor("the third reply", () => screen.includes("Still here."));
  await waitFor("the third footer", () => /\[scripted · turn 3 · /.test(screen));
  p.write("\x04");
  t.is((await exit).code, 0);
  const recs = records(e);
  t.deepEqual(recs.filter((x) => x.kind === "turn.end").map((x) => x.payload.outcome), ["done", "cancelled", "done"]);
  t.like(recs.filter((x) => x.kind === "llm.resp")[1].payload, { error: "cancelled" });
  t.is(recs.at(-1).kind, "session.end");
});

test("nodwyn chat in a pseudo-terminal: a shell command is asked about (once, always for its prefix, never), each tool call is one line", async (t) => {
  const e = place(t, { "a.txt": "alpha\n", "b.txt": "beta\n" });
  const call = (command: string) => JSON.stringify({ tool_calls: [{ name: "shell-exec", arguments: { command } }] });
  writeFileSync(join(e.root, "ask.jsonl"), [call("touch one.txt"), call("touch two.txt"), call("touch three.txt"), call("rm a.txt"), call("rm b.txt"), '{"text": "All done.", "usage": {"input": 900, "output": 3}}'].join("\n") + "\n");
  const p = pty.spawn(BIN, ["chat", "--model", "scripted:ask.jsonl"], { name: "xterm", cols: 200, rows: 50, cwd: e.root, env: e.env as Record<string, string> });
  let screen = "";
  p.onData((d) => (screen += d));
  const exit = waitExit(p, "nodwyn chat in a pty (shell questions)", { t, output: () => screen });
  t.teardown(() => {
    try {
      p.kill("SIGKILL");
    } catch {
      // already gone
    }
  });
  // The commands asked about (the line editor draws a question more than once).
  const asked = () => [...new Set([...screen.matchAll(/Run `([^`]+)`\?/g)].map((m) => m[1]))];
  await waitFor("the prompt", () => screen.includes("> "));
  p.write("make some files\r");
  await waitFor("the first question", () => screen.includes('Run `touch one.txt`? [o]nce, [a]lways for "touch" in this session, [n]ever: '));
  p.write("o\r");
  await waitFor("the second question", () => screen.includes("Run `touch two.txt`?"));
  p.write("a\r");
  await waitFor("the question about rm", () => screen.includes("Run `rm a.txt`?"));
  t.false(screen.includes("Run `touch three.txt`"), "always for touch: not asked again");
  p.write("n\r");
  await waitFor("the answer", () => screen.includes("All done."));
  await waitFor("the footer", () => /\[scripted · turn 1 · 900 in · 3 out tokens/.test(screen));
  t.deepEqual(asked(), ["touch one.txt", "touch two.txt", "rm a.txt"], "never for rm: rm b.txt is refused without a question");
  // One line per call: the tool, its arguments, then the result's size and time, or the error.
  const plain = screen.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "");
  t.regex(plain, /⏺ shell-exec command="touch three\.txt" → \d+ chars, \d+ ms\r?\n/);
  t.regex(plain, /⏺ shell-exec command="rm b\.txt" → error, \d+ ms: .*the person refused/);
  p.write("\x04");
  t.is((await exit).code, 0);
  t.true(["one.txt", "two.txt", "three.txt"].every((f) => existsSync(join(e.root, f))));
  t.true(existsSync(join(e.root, "a.txt")) && existsSync(join(e.root, "b.txt")), "nothing refused ran");
  const recs = records(e);
  t.deepEqual(
    recs.filter((x) => x.kind === "approval.change").map((x) => [x.payload.scope, x.payload.prefix, x.payload.actor]),
    [
      ["once", "touch", "person"],
      ["session", "touch", "person"],
      ["never", "rm", "person"],
    ],
  );
  // Each answer is recorded before its command's result.
  const order = recs.filter((x) => x.kind === "approval.change" || x.kind === "tool.result").map((x) => (x.kind === "tool.result" ? (x.payload.ok ? "ran" : "refused") : x.payload.scope));
  t.deepEqual(order, ["once", "ran", "session", "ran", "ran", "never", "refused", "refused"]);
});

test("README's quick start: nodwyn ask with the scripted provider runs in this repository, without a model server", (t) => {
  const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
  const hello = /^\.\/bin\/nodwyn (ask --model scripted:examples\/models\/hello\.toml "[^"]+")$/m.exec(readme);
  t.truthy(hello, "the README shows the hello.toml command");
  const home = mkdtempSync(join(tmpdir(), "nodwyn-readme-"));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const h = spawnSync("sh", ["-c", `${BIN} ${hello![1]}`], { cwd: REPO_ROOT, env: { PATH: process.env.PATH, HOME: home, NODWYN_DATA_DIR: home, XDG_CONFIG_HOME: home }, encoding: "utf8", timeout: 90_000 });
  t.is(h.status, 0, h.stderr);
  t.is(h.stdout, "The README's title is on its first line: this is nodwyn.\n");
  const grep = readFileSync(join(home, "sessions", readdirSync(join(home, "sessions"))[0]!), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)).find((x) => x.kind === "tool.result");
  t.like(grep.payload, { tool: "index-grep", ok: true });
  t.regex(grep.payload.output, /README\.md:1:# nodwyn/, "the grep found the title it speaks of");
  const line = /^\.\/bin\/nodwyn (ask --model scripted:examples\/scripted\/quick-start\.jsonl "[^"]+")/m.exec(readme);
  t.truthy(line, "the README shows the command");
  const data = mkdtempSync(join(tmpdir(), "nodwyn-readme-"));
  t.teardown(() => rmSync(data, { recursive: true, force: true }));
  const r = spawnSync("sh", ["-c", `${BIN} ${line![1]}`], { cwd: REPO_ROOT, env: { PATH: process.env.PATH, HOME: data, NODWYN_DATA_DIR: data, XDG_CONFIG_HOME: data }, encoding: "utf8", timeout: 90_000 });
  t.is(r.status, 0, r.stderr);
  t.is(r.stdout, "README.md's first section is the Quick start; the eval counted its sections.\n");
  const log = readFileSync(join(data, "sessions", readdirSync(join(data, "sessions"))[0]!), "utf8");
  t.regex(log, /"kind":"eval.result","payload":\{"ok":true,"req_seq":\d+,"elapsed_ms":[\d.]+,"value":"\d+"\}/);
});

test("the strategies guide's offline try: plan-first.scm with its scripted replies, through nodwyn ask and nodwyn log show, as the guide writes them", (t) => {
  const guide = readFileSync(join(REPO_ROOT, "docs", "guides", "strategies.md"), "utf8");
  const strategy = /<!-- example: plan-first\.scm[^\n]*-->\n```scheme\n([\s\S]*?)```/.exec(guide)?.[1];
  const offline = guide.slice(guide.indexOf("Try it offline"));
  const replies = /cat > plan\.jsonl <<'EOF'\n([\s\S]*?)\nEOF\n/.exec(offline)?.[1];
  const lines = (/```sh\n[\s\S]*?\nEOF\n([\s\S]*?)```/.exec(offline)?.[1] ?? "").split("\n").filter((l) => l.startsWith("nodwyn ")).map((l) => l.replace(/\s+#.*$/, ""));
  t.truthy(strategy && replies, "the guide holds the strategy and the replies");
  t.is(lines.length, 2);
  const e = place(t, { "README.md": "# demo\nTODO: write the docs\n" });
  writeFileSync(join(e.root, "plan-first.scm"), strategy!);
  writeFileSync(join(e.root, "plan.jsonl"), replies! + "\n");
  const sh = (line: string) => spawnSync("sh", ["-c", line.replace(/^nodwyn /, `${BIN} `)], { cwd: e.root, env: e.env, encoding: "utf8", timeout: 90_000 });
  const ask = sh(lines[0]!);
  t.is(ask.status, 0, ask.stderr);
  t.is(ask.stdout, "There is one TODO, in README.md.\n");
  const show = sh(lines[1]!);
  t.is(show.status, 0, show.stderr);
  t.regex(show.stdout, /note[\s\S]*1\. Find the TODOs\. 2\. Say where they are\./);
  t.regex(show.stdout, /turn\.end[\s\S]*done/);
  const grep = records(e).find((x) => x.kind === "tool.result");
  t.like(grep.payload, { tool: "index-grep", ok: true });
  t.regex(grep.payload.output, /README\.md:2:TODO: write the docs/);
});

test("SIGTERM during a command: the command's process group goes with nodwyn, and the log ends with session.end", async (t) => {
  const e = place(t, { "sleeper.sh": "echo $$ > sleeper.pid\nexec sleep 600\n" });
  writeFileSync(join(e.config, "nodwyn", "config.toml"), '[shell]\nallow = ["sh sleeper.sh"]\n');
  writeFileSync(join(e.root, "s.jsonl"), '{"tool_calls": [{"name": "shell-exec", "arguments": {"command": "sh sleeper.sh"}}]}\n');
  const child = spawn(BIN, ["ask", "--model", "scripted:s.jsonl", "sleep"], { cwd: e.root, env: e.env, stdio: "ignore" });
  const exited = waitExit(child, "nodwyn ask (SIGTERM during sh sleeper.sh)", { t });
  const pidFile = join(e.root, "sleeper.pid");
  await waitFor("the command running", () => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "");
  const pid = Number(readFileSync(pidFile, "utf8"));
  child.kill("SIGTERM");
  t.is((await exited).code, 143);
  await waitFor("the command gone", () => {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  });
  const recs = records(e);
  t.like(recs.at(-1), { kind: "session.end", payload: { reason: "interrupted", exit_code: 143 } });
});

test("nodwyn resume restores the session's model while the configuration has it, else talks to the default and notes it", async (t) => {
  const e = place(t, { "a.txt": "alpha\n" });
  writeFileSync(join(e.root, "kept.jsonl"), '{"text": "first answer"}\n');
  const first = run(e, ["ask", "--model", "scripted:kept.jsonl", "one"]);
  t.is(first.code, 0, first.stderr);
  const id = sessions(e)[0]!;
  const r = run(e, ["resume", id], "two\n");
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /first answer/, "the same script answered: the model was restored");
  const recs = records(e, id);
  const resumed = recs.filter((x) => x.kind === "session.model");
  t.deepEqual(resumed.map((x) => x.payload.name), ["scripted:kept.jsonl", "scripted:kept.jsonl"]);
  t.false(recs.some((x) => x.kind === "note" && x.payload.topic === "session.model"));

  // A model the configuration no longer has: the default, and a note saying so.
  writeFileSync(join(e.config, "nodwyn", "config.toml"), '[servers.gone]\nkind = "openai"\nurl = "http://127.0.0.1:9/v1"\nretries = 0\n\n[models.small]\nserver = "gone"\nmodel = "m"\ncontext_window = 4096\n\n[control]\nmodel = "small"\n');
  const failed = run(e, ["ask", "hello"]);
  t.is(failed.code, 1, "nothing listens on port 9");
  const id2 = sessions(e).find((s) => s !== id)!;
  writeFileSync(join(e.root, "default.jsonl"), '{"text": "the default speaking"}\n');
  writeFileSync(join(e.config, "nodwyn", "config.toml"), '[control]\nmodel = "scripted:' + join(e.root, "default.jsonl") + '"\n');
  const again = run(e, ["resume", id2], "still there?\n");
  t.is(again.code, 0, again.stderr);
  t.regex(again.stdout, /note: the session's model small is not in the configuration any more/);
  t.regex(again.stdout, /the default speaking/);
  const recs2 = records(e, id2);
  const note = recs2.find((x) => x.kind === "note" && x.payload.topic === "session.model");
  t.regex(note.payload.text, /small is not in the configuration/);
  t.like(recs2.filter((x) => x.kind === "session.model").at(-1).payload, { model: "scripted" });
});
