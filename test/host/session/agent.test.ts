// The agent session: a turn driven by shell.scm over a real repository and log, every record in order.
import test from "ava";
import { readLog } from "../../../host/log/index.js";
import { replayRequest } from "../../../host/window/index.js";
import { AgentSession, type AgentOptions } from "../../../host/session/agent.js";
import { FakeModel, type FakeReply } from "../../helpers/fake-model.js";
import { dataDir, gitRepo, records } from "./agent-helpers.js";

const SECRET = "ghp_" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa";

function options(t: any, root: string, data: string, replies: FakeReply[], o: Partial<AgentOptions> = {}): AgentOptions & { provider: FakeModel } {
  return {
    origin: "ask",
    cwd: root,
    env: { ...process.env, NODWYN_DATA_DIR: data },
    provider: new FakeModel(replies),
    model: { id: "fake-1", server: "fake", contextWindow: 32_000 },
    askApproval: null,
    ...o,
  } as AgentOptions & { provider: FakeModel };
}

test("a turn: the model greps, evaluates, then answers; the log holds every step in order", async (t) => {
  const root = gitRepo(t, { "src/a.ts": "// TODO one\nconst x = 1;\n", "config.txt": `token = ${SECRET}\n` });
  const data = dataDir(t);
  const o = options(t, root, data, [
    { text: "Searching.", calls: [{ name: "index-grep", args: { path: ".", pattern: "TODO|token" } }] },
    { calls: [{ name: "eval", args: { code: "(define n 41) (display \"hi\") (+ n 1)" } }] },
    { text: "There is one TODO, in src/a.ts." },
  ]);
  const agent = await AgentSession.open(o);
  const r = await agent.turn("Where are the TODOs?");
  agent.close();
  t.is(r.outcome, "done", r.error);
  t.is(r.text, "There is one TODO, in src/a.ts.");
  t.is(r.modelCalls, 3);
  t.is(r.toolCalls, 2);

  const recs = records(data);
  t.deepEqual(recs.map((x) => x.seq), recs.map((_, i) => i + 1), "contiguous seq");
  const turn = recs.slice(recs.findIndex((x) => x.kind === "user.msg"));
  const shape = turn.map((x) => x.kind).filter((k) => k !== "guard.decision" && k !== "redact.event");
  t.deepEqual(shape, [
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
  // The grep's guard decisions sit between its call and its result.
  const call = turn.findIndex((x) => x.kind === "tool.call");
  const result = turn.findIndex((x) => x.kind === "tool.result");
  t.true(turn.slice(call, result).some((x) => x.kind === "guard.decision" && x.payload.actor === "model"));
  // The secret never reaches the log, nor the second request.
  t.false(JSON.stringify(recs).includes(SECRET));
  const second = o.provider.requests[1]!;
  t.false(JSON.stringify(second).includes(SECRET));
  t.true(second.messages.some((m) => m.role === "tool" && m.content.includes("[REDACTED:")));
  // The eval ran in the model's interpreter, as the model.
  const evalReq = turn.find((x) => x.kind === "eval.req");
  t.like(evalReq.payload, { origin: "model", actor: "model" });
  const evalResult = turn.filter((x) => x.kind === "tool.result")[1];
  t.like(evalResult.payload, { tool: "eval", ok: true, output: "hi\n=> 42" });
  t.is(typeof evalResult.payload.duration_ms, "number");
  // Every request rebuilds from the log to the digest it recorded, and is what the model got.
  const all = [...readLog(agent.writer.file)];
  const reqs: any[] = all.filter((x) => x.kind === "llm.req");
  reqs.forEach((q, i) => {
    const re = replayRequest(all, q.seq);
    t.is(re.digest, q.payload.digest, `llm.req ${q.seq}`);
    t.deepEqual(JSON.parse(JSON.stringify(re.request)), o.provider.requests[i]);
  });
  t.like(reqs[0]!.payload.recipe, { name: "window-v2", context_window: 32_000, estimator: { name: "chars4", version: 2 } });
  t.deepEqual(reqs[0]!.payload.tools.map((x: any) => x.name), ["eval", "fs-edit", "fs-find", "fs-read", "fs-write", "index-grep", "index-search", "index-update", "recall", "recall-entry", "recall-log", "recall-search", "shell-exec", "compact"]);
  t.regex(reqs[0]!.payload.recipe.system, /eval is a Scheme \(R7RS\) REPL/);
});
