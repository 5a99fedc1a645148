// nodwyn sessions and nodwyn session title|archive|delete as real processes; /model in chat, recorded and restored by resume; /tree, /undo, /redo in a pseudo-terminal.
import test from "ava";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pty from "node-pty";
import { BIN } from "../../helpers/cli.js";
import { waitExit } from "../../helpers/wait-exit.js";

const DIST = fileURLToPath(new URL("../../../", import.meta.url));

interface Env {
  root: string;
  data: string;
  env: NodeJS.ProcessEnv;
}

function place(t: any, files: Record<string, string> = {}): Env {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "nodwyn-sessions-")));
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
  return { root, data, env: { PATH: process.env.PATH, HOME: base, NODWYN_DATA_DIR: data, XDG_CONFIG_HOME: config, LANG: "C.UTF-8", TERM: "xterm" } };
}

function run(e: Env, args: string[], input = "") {
  const r = spawnSync(BIN, args, { cwd: e.root, env: e.env, input, encoding: "utf8", timeout: 90_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function ids(e: Env): string[] {
  const dir = join(e.data, "sessions");
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".jsonl")).map((f) => f.slice(0, -6)).sort() : [];
}

function records(e: Env, id: string): any[] {
  return readFileSync(join(e.data, "sessions", `${id}.jsonl`), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

async function waitFor<T>(what: string, f: () => T | undefined | false, ms = 90_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A second process that holds the session's writer lock until killed. */
async function holdLock(t: any, e: Env, id: string): Promise<ChildProcess> {
  const code = `import { openForAppend } from ${JSON.stringify(join(DIST, "host/log/index.js"))};
openForAppend(${JSON.stringify(id)}, { dataDir: ${JSON.stringify(e.data)} });
process.stdout.write("locked\\n");
setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  t.teardown(() => child.kill("SIGKILL"));
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  await waitFor("the lock held", () => out.includes("locked"));
  return child;
}

test("sessions lists the repository's sessions; title and archive append to a closed session; delete refuses while another process holds it", async (t) => {
  const e = place(t, { "script.toml": 'model = "alpha"\n[[reply]]\ntext = "one"\n[[reply]]\ntext = "two"\n' });
  t.is(run(e, ["chat", "--model", "scripted:script.toml"], "hello there, the first message\nand a second\n").code, 0);
  const [id] = ids(e);
  const listed = run(e, ["sessions", "--json"]);
  t.is(listed.code, 0, listed.stderr);
  const row = JSON.parse(listed.stdout.trim());
  t.like(row, { session: id, title: null, first: "hello there, the first message", turns: 2, archived: false, open: false, forked_from: null, repo: e.root });
  t.regex(run(e, ["sessions"]).stdout, /"hello there, the first message"\n    2 turns/);

  t.is(run(e, ["session", "title", id!, "the", "parser", "rewrite"]).code, 0);
  t.regex(run(e, ["sessions"]).stdout, /the parser rewrite/);
  t.like(records(e, id!).at(-1), { kind: "session.title", payload: { actor: "person", title: "the parser rewrite" } });

  t.is(run(e, ["session", "archive", id!]).code, 0);
  t.regex(run(e, ["sessions"]).stdout, /no sessions of .* \(1 archived: --all shows them\)/);
  t.like(JSON.parse(run(e, ["sessions", "--all", "--json"]).stdout), { session: id, archived: true });
  t.is(run(e, ["session", "archive", "--restore", id!]).code, 0);
  t.like(JSON.parse(run(e, ["sessions", "--json"]).stdout), { archived: false });
  t.deepEqual(records(e, id!).filter((r) => r.kind === "session.archive").map((r) => r.payload.archived), [true, false]);

  // Another process holds it: title and delete are refused, nothing changes.
  writeFileSync(join(e.data, "sessions", `${id}.mem`), "memory");
  const holder = await holdLock(t, e, id!);
  const before = readFileSync(join(e.data, "sessions", `${id}.jsonl`));
  const refused = run(e, ["session", "delete", id!]);
  t.is(refused.code, 1);
  t.regex(refused.stderr, /is open in another process: it is not deleted/);
  t.regex(run(e, ["session", "title", id!, "x"]).stderr, /is open in another process/);
  t.true(existsSync(join(e.data, "sessions", `${id}.mem`)));
  t.deepEqual(readFileSync(join(e.data, "sessions", `${id}.jsonl`)), before);
  t.regex(run(e, ["sessions"]).stdout, /open now/);
  const gone = waitExit(holder, "the lock holder (SIGKILLed)");
  holder.kill("SIGKILL");
  await gone;
  const del = run(e, ["session", "delete", "--json", id!]);
  t.is(del.code, 0, del.stderr);
  t.like(JSON.parse(del.stdout), { session: id, deleted: true });
  t.deepEqual(ids(e), []);
  t.false(existsSync(join(e.data, "sessions", `${id}.mem`)));
});

test("/model moves the chat to another model between turns (session.model with from); resume restores it", (t) => {
  const e = place(t, {
    "a.toml": 'model = "alpha"\n[[reply]]\ntext = "from alpha"\n',
    "b.toml": 'model = "beta"\n[[reply]]\ntext = "from beta"\n[[reply]]\ntext = "beta again"\n',
  });
  const b = join(e.root, "b.toml");
  const r = run(e, ["chat", "--model", "scripted:a.toml"], `first\n/model scripted:${b}\nsecond\n/title two models\n`);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /from alpha[\s\S]*from the next turn the session talks to beta on scripted[\s\S]*from beta/);
  const [id] = ids(e);
  const recs = records(e, id!);
  const models = recs.filter((x) => x.kind === "session.model");
  t.is(models.length, 2);
  t.like(models[1].payload, { from: "alpha", model: "beta", server: "scripted", name: `scripted:${b}`, actor: "person" });
  t.is(typeof models[1].payload.context.context_window, "number");
  t.like(recs.filter((x) => x.kind === "session.title").at(-1).payload, { title: "two models" });
  const resumed = run(e, ["resume", id!], "third\n");
  t.is(resumed.code, 0, resumed.stderr);
  t.regex(resumed.stdout, /beta on scripted/);
  // A new provider over the same script: its first reply.
  t.regex(resumed.stdout, /from beta/);
  const after = records(e, id!);
  const resume = after.find((x) => x.kind === "session.resume");
  t.is(resume.payload.model, "beta");
  t.like(after.filter((x) => x.kind === "session.model").at(-1).payload, { model: "beta", name: `scripted:${b}` });
});

test("/tree, /undo and /redo in nodwyn chat on a pseudo-terminal, with the scripted provider", async (t) => {
  const e = place(t, {
    "src/a.ts": "let x = 1;\n",
    "chat.toml": `[[reply]]
tool_calls = [{ name = "fs-edit", arguments = { path = "src/a.ts", old = "let x = 1;", new = "let x = 2;" } }]

[[reply]]
text = "Edited."

[[reply]]
tool_calls = [{ name = "fs-write", arguments = { path = "notes.md", text = "notes\\n" } }]

[[reply]]
text = "Wrote notes."
`,
  });
  const p = pty.spawn(BIN, ["chat", "--model", "scripted:chat.toml"], { name: "xterm", cols: 160, rows: 40, cwd: e.root, env: { ...e.env, NO_COLOR: "1" } as Record<string, string> });
  let screen = "";
  p.onData((d) => (screen += d));
  const exit = waitExit(p, "nodwyn chat in a pty (/tree, /undo, /redo)", { t, output: () => screen });
  t.teardown(() => {
    try {
      p.kill("SIGKILL");
    } catch {
      // already gone
    }
  });
  await waitFor("the prompt", () => screen.includes("> "));
  p.write("edit a.ts\r");
  await waitFor("the approval question", () => /Write src\/a\.ts .*\[o\]nce/.test(screen));
  p.write("a\r");
  await waitFor("the first footer", () => /turn 1 · /.test(screen));
  p.write("write notes\r");
  await waitFor("the second approval question", () => /Write notes\.md .*\[o\]nce/.test(screen));
  p.write("o\r");
  await waitFor("the second footer", () => /turn 2 · /.test(screen));
  t.is(readFileSync(join(e.root, "notes.md"), "utf8"), "notes\n");
  let mark = screen.length;
  p.write("/tree\r");
  await waitFor("the tree", () => /head at turn 2/.test(screen.slice(mark)) && /"write notes"\s+1 file \(notes\.md\)\s+← head/.test(screen.slice(mark)));
  t.regex(screen.slice(mark), /"edit a\.ts"\s+1 file \(src\/a\.ts\)/);
  mark = screen.length;
  p.write("/undo\r");
  await waitFor("the undo", () => /undone: the head is at turn 1; restored notes\.md/.test(screen.slice(mark)));
  t.false(existsSync(join(e.root, "notes.md")));
  t.is(readFileSync(join(e.root, "src/a.ts"), "utf8"), "let x = 2;\n");
  mark = screen.length;
  p.write("/undo\r");
  await waitFor("the second undo", () => /undone: the head is at the start; restored src\/a\.ts/.test(screen.slice(mark)));
  t.is(readFileSync(join(e.root, "src/a.ts"), "utf8"), "let x = 1;\n");
  mark = screen.length;
  p.write("/redo\r");
  await waitFor("the redo", () => /redone: the head is at turn 1; restored src\/a\.ts/.test(screen.slice(mark)));
  t.is(readFileSync(join(e.root, "src/a.ts"), "utf8"), "let x = 2;\n");
  mark = screen.length;
  p.write("/tree\r");
  await waitFor("the tree after", () => /head at turn 1; \/redo returns to turn 2/.test(screen.slice(mark)));
  p.write("\x04");
  t.is((await exit).code, 0);
  const [id] = ids(e);
  const moves = records(e, id!).filter((x) => x.kind === "head.move").map((x) => [x.payload.reason, x.payload.from, x.payload.to]);
  t.deepEqual(moves, [["undo", 2, 1], ["undo", 1, 0], ["redo", 0, 1]]);
});
