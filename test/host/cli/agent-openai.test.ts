// nodwyn ask and chat against a local OpenAI-compatible server (node:http on 127.0.0.1, the real streamed wire format).
import test from "ava";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pty from "node-pty";
import { BIN } from "../../helpers/cli.js";
import { waitExit } from "../../helpers/wait-exit.js";
import { WireServer, silent, status, stream } from "../model/wire-server.js";
import { SSE, completion } from "../model/openai-completion.js";

const SECRET = "ghp_" + "Rt5Yu6Io7Pa8Sd9Fg0Hj1Kl2Zx3Cv4Bn5Mq6W";

interface Place {
  root: string;
  data: string;
  env: NodeJS.ProcessEnv;
}

/** A git repository and a config.toml naming the server, in temp folders removed after the test. */
function place(t: any, url: string, files: Record<string, string>): Place {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "nodwyn-agent-openai-")));
  t.teardown(() => rmSync(base, { recursive: true, force: true }));
  const root = join(base, "repo");
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(root, rel, ".."), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  spawnSync("git", ["init", "-q", root]);
  mkdirSync(join(base, "config", "nodwyn"), { recursive: true });
  writeFileSync(
    join(base, "config", "nodwyn", "config.toml"),
    `[servers.local]\nkind = "openai"\nurl = "${url}/v1"\nkey_env = "LOCAL_KEY"\nretries = 0\n\n[models.small]\nserver = "local"\nmodel = "qwen2.5-coder:7b"\ncontext_window = 32768\nprice_input = 0.15\nprice_output = 0.60\nprice_cached = 0.075\n\n[control]\nmodel = "small"\n`,
  );
  const env = { PATH: process.env.PATH, HOME: base, NODWYN_DATA_DIR: join(base, "data"), XDG_CONFIG_HOME: join(base, "config"), LOCAL_KEY: "sk-local-test-key-0123456789", TERM: "xterm" } as NodeJS.ProcessEnv;
  return { root, data: join(base, "data"), env };
}

function records(p: Place): any[] {
  const dir = join(p.data, "sessions");
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".jsonl")) : [];
  return files.length === 0 ? [] : readFileSync(join(dir, files[0]!), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

test("nodwyn ask against a local OpenAI-compatible server: index-grep and eval, then the answer; the secret grepped reaches neither the log nor the next request", async (t) => {
  const server = await WireServer.start();
  t.teardown(() => server.close());
  const p = place(t, server.url, { "src/main.ts": "// TODO: retry on failure\nexport {};\n", "deploy/env.txt": `GITHUB_TOKEN=${SECRET}\n` });
  server.answer(
    stream(SSE, [completion({ text: ["Let me ", "search."], calls: [{ id: "call_g", name: "index-grep", args: ['{"path": ".", ', '"pattern": "TODO|TOKEN"}'] }], usage: { input: 900, output: 30 } })], { gapMs: 2 }),
    stream(SSE, [completion({ calls: [{ id: "call_e", name: "eval", args: ['{"code": "(+ 40 2)"}'] }], usage: { input: 1200, output: 20, cached: 800 } })]),
    stream(SSE, [completion({ text: ["One TODO: src/main.ts line 1."], usage: { input: 1300, output: 15, cached: 1100 } })]),
  );
  const child = spawn(BIN, ["ask", "Where", "are", "the", "TODOs?"], { cwd: p.root, env: p.env });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const { code } = await waitExit(child, "nodwyn ask against the local server", { on: "close", t, output: () => stdout + stderr });
  t.is(code, 0, stderr);
  t.is(stdout, "One TODO: src/main.ts line 1.\n");

  const recs = records(p);
  t.deepEqual(recs.map((x) => x.seq), recs.map((_, i) => i + 1), "contiguous seq");
  const turn = recs.slice(recs.findIndex((x) => x.kind === "user.msg"));
  const call = turn.findIndex((x) => x.kind === "tool.call");
  const result = turn.findIndex((x) => x.kind === "tool.result");
  t.deepEqual(turn.slice(0, call + 1).map((x) => x.kind), ["user.msg", "llm.req", "llm.resp", "tool.call"]);
  t.true(turn.slice(call + 1, result).every((x) => x.kind === "guard.decision"), "guard.decision… between the call and its result");
  t.true(result > call + 1);
  const after = turn.slice(result + 1).map((x) => x.kind).filter((k) => k !== "redact.event");
  t.deepEqual(after, ["llm.req", "llm.resp", "tool.call", "eval.req", "eval.result", "tool.result", "llm.req", "llm.resp", "turn.end", "session.end"]);
  t.deepEqual(recs.slice(0, recs.findIndex((x) => x.kind === "user.msg")).map((x) => x.kind), ["session.start", "cred.register", "session.model"]);
  t.deepEqual(recs.find((x) => x.kind === "cred.register").payload, { class: "api_key", id: "env:LOCAL_KEY" });

  // The secret: not in the log, not in the second request the server received, nor the third.
  t.false(JSON.stringify(recs).includes(SECRET));
  t.is(server.requests.length, 3);
  for (const r of server.requests.slice(1)) t.false(r.raw.includes(SECRET));
  const second = server.requests[1]!.body as any;
  const toolMsg = second.messages.find((m: any) => m.role === "tool");
  t.is(toolMsg.tool_call_id, "call_g");
  t.regex(toolMsg.content, /deploy\/env\.txt:1:GITHUB_TOKEN=\[REDACTED:/);
  t.regex(toolMsg.content, /src\/main\.ts:1:\/\/ TODO: retry on failure/);
  t.false(server.requests.some((r) => r.raw.includes("sk-local-test-key")), "the key is in the header only");
  t.false(JSON.stringify(recs).includes("sk-local-test-key"), "and never in the log");
  t.is(server.requests[0]!.headers.authorization, "Bearer sk-local-test-key-0123456789");

  // Usage as the server reported it, priced from config.toml.
  const resps = recs.filter((x) => x.kind === "llm.resp");
  t.like(resps[1].payload.usage, { input_tokens: 1200, output_tokens: 20, cached_tokens: 800, cost_estimated: true });
  const cost = ((1200 - 800) * 0.15 + 800 * 0.075 + 20 * 0.6) / 1e6;
  t.true(Math.abs(resps[1].payload.usage.cost - cost) < 1e-12);
  t.is(typeof resps[1].payload.usage.wall_ms, "number");
  t.deepEqual(resps[0].payload.tool_calls, [{ id: "call_g", name: "index-grep", arguments: '{"path": ".", "pattern": "TODO|TOKEN"}' }]);
});

test("nodwyn chat against the local server in a pseudo-terminal: the reply streams, Ctrl-C cancels a turn, the next one works", async (t) => {
  const server = await WireServer.start();
  t.teardown(() => server.close());
  const p = place(t, server.url, { "a.txt": "alpha\n" });
  // The first reply's events up to "Hello " go at once; the rest only when the test has seen "Hello " on the screen.
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const events = completion({ text: ["Hello ", "from ", "the ", "server."], usage: { input: 50, output: 4 } }).split(/(?<=\n\n)/);
  server.answer(
    async (res) => {
      res.writeHead(200, { "content-type": SSE });
      res.write(events.slice(0, 2).join(""));
      await released;
      res.end(events.slice(2).join(""));
    },
    silent(SSE),
    stream(SSE, [completion({ text: ["Still ", "here."], usage: { input: 60, output: 2 } })]),
  );
  const term = pty.spawn(BIN, ["chat"], { name: "xterm", cols: 160, rows: 40, cwd: p.root, env: p.env as Record<string, string> });
  let screen = "";
  term.onData((d) => (screen += d));
  const exit = waitExit(term, "nodwyn chat in a pty against the local server", { t, output: () => screen });
  t.teardown(() => {
    try {
      term.kill("SIGKILL");
    } catch {
      // gone
    }
  });
  const waitFor = async (what: string, f: () => boolean) => {
    const end = Date.now() + 60_000;
    while (!f()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}; the screen:\n${screen}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  await waitFor("the prompt", () => screen.includes("> "));
  t.regex(screen, /qwen2\.5-coder:7b on local/);
  term.write("hi\r");
  // Streamed: the first pieces are on the screen before the reply is whole.
  await waitFor("the first piece", () => screen.includes("Hello "));
  t.false(screen.includes("server."), "the first piece is shown before the rest of the reply was sent");
  release();
  await waitFor("the whole reply", () => screen.includes("Hello from the server."));
  await waitFor("the footer", () => /\[qwen2\.5-coder:7b · turn 1 · 50 in · 4 out tokens · \$0\.0000/.test(screen));
  term.write("wait\r");
  await waitFor("the second request", () => server.requests.length === 2);
  term.write("\x03");
  await waitFor("the cancelled footer", () => /turn 2 · .*cancelled/.test(screen));
  term.write("again\r");
  await waitFor("the third reply", () => screen.includes("Still here."));
  term.write("\x04");
  t.is((await exit).code, 0);
  const recs = records(p);
  t.deepEqual(recs.filter((x) => x.kind === "turn.end").map((x) => x.payload.outcome), ["done", "cancelled", "done"]);
  // The third request carries the first turn and the cancelled turn's message.
  const third = server.requests[2]!.body as any;
  t.deepEqual(third.messages.filter((m: any) => m.role === "user").map((m: any) => m.content), ["hi", "wait", "again"]);
});

test("nodwyn ask when the server refuses the key and quotes it: exit 1, and the key is neither on stderr nor in the log", async (t) => {
  const server = await WireServer.start();
  t.teardown(() => server.close());
  const p = place(t, server.url, { "a.txt": "alpha\n" });
  const key = p.env.LOCAL_KEY!;
  server.answer(status(401, JSON.stringify({ error: { message: `Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.`, type: "invalid_request_error", code: "invalid_api_key" } })));
  // Not spawnSync: the server answers from this process's event loop.
  const child = spawn(BIN, ["ask", "hello"], { cwd: p.root, env: p.env });
  const r = { stdout: "", stderr: "", status: null as number | null };
  child.stdout.on("data", (d) => (r.stdout += d));
  child.stderr.on("data", (d) => (r.stderr += d));
  r.status = (await waitExit(child, "nodwyn ask (the key refused)", { on: "close", t, output: () => r.stdout + r.stderr })).code;
  t.is(r.status, 1, r.stderr);
  t.regex(r.stderr, /nodwyn ask: the turn ended failed: .*HTTP 401/);
  t.regex(r.stderr, /Incorrect API key provided: \[REDACTED:/);
  t.false(r.stderr.includes(key) || r.stdout.includes(key));
  const recs = records(p);
  t.false(JSON.stringify(recs).includes(key));
  t.like(recs.find((x) => x.kind === "turn.end").payload, { outcome: "failed" });
  t.regex(recs.find((x) => x.kind === "llm.resp").payload.error, /HTTP 401/);
});

test("README's quick start with a local OpenAI-compatible server: its config.toml, then ask, chat and resume last as it shows them", async (t) => {
  const readme = readFileSync(new URL("../../../../README.md", import.meta.url), "utf8");
  const section = readme.slice(readme.indexOf("With a model server"));
  const toml = /```toml\n([\s\S]*?)```/.exec(section)?.[1];
  const sh = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  t.truthy(toml && sh, "the README has the config and the commands");
  t.regex(toml!, /url = "http:\/\/127\.0\.0\.1:8080\/v1"/);
  const commands = sh!.split("\n").filter((l) => l.startsWith("./bin/nodwyn ")).map((l) => l.replace(/\s+#.*$/, ""));
  t.deepEqual(commands.map((c) => c.split(" ")[1]), ["ask", "chat", "resume"]);

  const server = await WireServer.start();
  t.teardown(() => server.close());
  const p = place(t, server.url, { "a.txt": "alpha\n" });
  // The README's file as a person would save it, on this test's server instead of port 8080.
  writeFileSync(join(p.env.XDG_CONFIG_HOME!, "nodwyn", "config.toml"), toml!.replace("http://127.0.0.1:8080/v1", `${server.url}/v1`));
  server.answer(
    stream(SSE, [completion({ text: ["In host/config/load.ts."], usage: { input: 300, output: 6 } })]),
    stream(SSE, [completion({ text: ["Hello from chat."], usage: { input: 320, output: 4 } })]),
    stream(SSE, [completion({ text: ["Resumed, still here."], usage: { input: 340, output: 4 } })]),
  );
  const run = (line: string, input: string) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
      // The line as the README writes it, through a shell, from the repository's root (./bin/nodwyn is this checkout's).
      const child = spawn("sh", ["-c", line.replace(/^\.\/bin\/nodwyn/, BIN)], { cwd: p.root, env: p.env });
      const r = { code: null as number | null, stdout: "", stderr: "" };
      child.stdout.on("data", (d) => (r.stdout += d));
      child.stderr.on("data", (d) => (r.stderr += d));
      void waitExit(child, line, { on: "close", t, output: () => r.stdout + r.stderr }).then(({ code }) => done({ ...r, code }), fail);
      child.stdin.end(input);
    });
  const ask = await run(commands[0]!, "");
  t.is(ask.code, 0, ask.stderr);
  t.is(ask.stdout, "In host/config/load.ts.\n");
  const chat = await run(commands[1]!, "hello\n");
  t.is(chat.code, 0, chat.stderr);
  t.regex(chat.stdout, /qwen2\.5-coder:7b on local/);
  t.regex(chat.stdout, /Hello from chat\./);
  const resume = await run(commands[2]!, "still there?\n");
  t.is(resume.code, 0, resume.stderr);
  t.regex(resume.stdout, /resumed \S+ \(1 turn\)/);
  t.regex(resume.stdout, /Resumed, still here\./);
  // resume last took the chat's session: its request carries the chat's turn.
  const third = server.requests[2]!.body as any;
  t.deepEqual(third.messages.filter((m: any) => m.role === "user").map((m: any) => m.content), ["hello", "still there?"]);
  t.is(server.requests[0]!.headers.authorization, undefined, "no key_env, no key sent");
});
