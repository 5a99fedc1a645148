// The provider's key and the session's log: a key read from key_env never reaches a record, whoever echoes it.
import test from "ava";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createProvider } from "../../../host/model/index.js";
import { Redactor } from "../../../host/redact/index.js";
import { AgentSession } from "../../../host/session/agent.js";
import { SSE, completion } from "../model/openai-completion.js";
import { WireServer, status, stream } from "../model/wire-server.js";
import { dataDir, gitRepo, records } from "./agent-helpers.js";

// Shaped like no known kind of key: only its registration can keep it out of the log.
const KEY = "plain-local-server-key-" + "31337-quartz";

function logText(data: string): string {
  const dir = join(data, "sessions");
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), "utf8"))
    .join("");
}

test("a provider made with its own redactor: its key, echoed by a command, by the model and by the server's error, never reaches the log or a request", async (t) => {
  t.is(new Redactor().redactText(KEY).text, KEY, "no rule of the redactor knows this key by its shape");
  const server = await WireServer.start();
  t.teardown(() => server.close());
  const root = gitRepo(t, { "key.txt": `the key is ${KEY}\n` });
  const data = dataDir(t);
  const env = { PATH: process.env.PATH, HOME: root, NODWYN_DATA_DIR: data, LOCAL_KEY: KEY, DEPLOY_NOTE: KEY };
  // As an embedder might: the provider with a redactor of its own (createProvider's default), the session given none.
  const provider = createProvider({ kind: "openai", server: "local", url: `${server.url}/v1`, model: "m-1", keyEnv: "LOCAL_KEY", retries: 0 }, { env });
  server.answer(
    stream(SSE, [
      completion({
        text: ["The key ", `is ${KEY.slice(0, 9)}`, `${KEY.slice(9)}, let me check.`],
        calls: [
          { id: "c1", name: "shell-exec", args: ['{"command": "cat key.txt"}'] },
          { id: "c2", name: "shell-exec", args: ['{"command": "printenv DEPLOY_NOTE"}'] },
          { id: "c3", name: "eval", args: [`{"code": "(string-length \\"${KEY}\\")"}`] },
        ],
        usage: { input: 100, output: 20 },
      }),
    ]),
    status(401, JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}.`, type: "invalid_request_error", code: "invalid_api_key" } })),
    stream(SSE, [completion({ text: ["Fine now."], usage: { input: 150, output: 3 } })]),
  );
  const agent = await AgentSession.open({
    origin: "ask",
    cwd: root,
    env,
    provider,
    model: { id: "m-1", server: "local", contextWindow: 32_000 },
    askApproval: null,
    shellAllow: ["cat", "printenv"],
  });
  const first = await agent.turn("what is the key?");
  t.is(first.outcome, "failed");
  t.regex(first.error ?? "", /HTTP 401/);
  t.false((first.error ?? "").includes(KEY), "the turn's error, as chat and ask print it");
  const second = await agent.turn("and now?");
  agent.close();
  t.is(second.outcome, "done", second.error);

  const text = logText(data);
  t.false(text.includes(KEY), "the key is nowhere in the log");
  t.false(text.includes(KEY.slice(9)), "nor the part the model streamed apart");
  const recs = records(data);
  t.deepEqual(recs.filter((x) => x.kind === "cred.register").map((x) => x.payload), [{ class: "api_key", id: "env:LOCAL_KEY" }], "the provider's credential, recorded without being listed");
  const results = recs.filter((x) => x.kind === "tool.result").map((x) => x.payload);
  t.like(results[0], { tool: "shell-exec", ok: true });
  t.regex(results[0].output, /^exit 0\nthe key is \[REDACTED:/, "the command ran and printed the key; the log has it redacted");
  t.regex(results[1].output, /^exit 1\n?$/, "a variable holding the key is not in the command's environment");
  t.like(results[2], { tool: "eval", ok: true, output: `=> ${KEY.length}` });
  const failed = recs.find((x) => x.kind === "llm.resp" && x.payload.error !== undefined).payload;
  t.regex(failed.error, /HTTP 401.*Incorrect API key provided: \[REDACTED:/, "the server's error is recorded, its echo of the key redacted");

  // What went back to the server: the key in the header only, never in a body.
  t.is(server.requests.length, 3);
  for (const r of server.requests) {
    t.is(r.headers.authorization, `Bearer ${KEY}`);
    t.false(r.raw.includes(KEY));
  }
  const last = server.requests[2]!.body as any;
  const tool = last.messages.find((m: any) => m.role === "tool" && m.tool_call_id === "c1");
  t.regex(tool.content, /the key is \[REDACTED:/);
  const assistant = last.messages.find((m: any) => m.role === "assistant");
  t.regex(assistant.content, /The key is \[REDACTED:[^\]]*\], let me check\./);
});

test("a credential listed with only its id is read from the environment it names, and a command's environment loses it", async (t) => {
  const server = await WireServer.start();
  t.teardown(() => server.close());
  const root = gitRepo(t, { "a.txt": "alpha\n" });
  const data = dataDir(t);
  const other = "another-plain-secret-" + "2718-basalt";
  const env = { PATH: process.env.PATH, HOME: root, NODWYN_DATA_DIR: data, DEPLOY_TARGET: other };
  const provider = createProvider({ kind: "openai", server: "local", url: `${server.url}/v1`, model: "m-1", retries: 0 }, { env });
  server.answer(
    stream(SSE, [completion({ calls: [{ id: "c1", name: "shell-exec", args: ['{"command": "printenv DEPLOY_TARGET"}'] }], usage: { input: 10, output: 5 } })]),
    stream(SSE, [completion({ text: [`It was ${other}.`], usage: { input: 20, output: 5 } })]),
  );
  const agent = await AgentSession.open({
    origin: "ask",
    cwd: root,
    env,
    provider,
    model: { id: "m-1", server: "local", contextWindow: 32_000 },
    askApproval: null,
    shellAllow: ["printenv"],
    credentials: [{ class: "deploy_token", id: "env:DEPLOY_TARGET" }],
  });
  const r = await agent.turn("which target?");
  agent.close();
  t.is(r.outcome, "done", r.error);
  t.false(logText(data).includes(other));
  const recs = records(data);
  t.deepEqual(recs.filter((x) => x.kind === "cred.register").map((x) => x.payload), [{ class: "deploy_token", id: "env:DEPLOY_TARGET" }], "a server without key_env has no credential of its own");
  t.regex(recs.find((x) => x.kind === "tool.result").payload.output, /^exit 1\n?$/);
  t.regex(recs.filter((x) => x.kind === "llm.resp").at(-1).payload.text, /^It was \[REDACTED:[^\]]*\]\.$/);
});
