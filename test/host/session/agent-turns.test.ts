// How turns end: budgets and turn.checkpoint, cancellation, failing tools and models, strategies of one's own, resume.
import test from "ava";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createSessionLog, readLog } from "../../../host/log/index.js";
import { replayRequest } from "../../../host/window/index.js";
import { ModelError } from "../../../host/model/types.js";
import type { AgentOptions } from "../../../host/session/agent.js";
import type { FakeReply } from "../../helpers/fake-model.js";
import { fakeAgent, gitRepo, records } from "./agent-helpers.js";

function setup(t: any, replies: FakeReply[], o: Partial<AgentOptions> = {}) {
  const root = gitRepo(t, { "a.txt": "alpha\n", "b.txt": "beta\n" });
  return fakeAgent(t, root, replies, { ...o });
}

const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

const read = (path: string, id?: string): FakeReply => ({ calls: [{ name: "fs-read", args: { path }, ...(id ? { id } : {}) }] });

test("the model-call budget: turn.checkpoint, then turn.end limit; the next turn starts afresh", async (t) => {
  const s = setup(t, [read("a.txt"), read("b.txt"), read("a.txt"), { text: "next turn" }], { budgets: { modelCalls: 2 } });
  const agent = await s.open();
  const r = await agent.turn("loop");
  t.is(r.outcome, "limit");
  t.is(r.modelCalls, 2);
  t.regex(r.error!, /budget of 2 model calls/);
  const r2 = await agent.turn("again");
  agent.close();
  t.is(r2.outcome, "done", "the next turn has its own budget");
  const recs = records(s.data);
  const cp = recs.find((x) => x.kind === "turn.checkpoint");
  t.like(cp.payload, { dimension: "model_calls", used: 2, hard: 2, continuation: "stop" });
  t.like(cp.payload.state, { model_calls: 2, tool_calls: 2, tokens: 220, files: ["a.txt", "b.txt"] });
  t.is(typeof cp.payload.state.elapsed_ns, "number");
  const ends = recs.filter((x) => x.kind === "turn.end");
  t.deepEqual(ends.map((x) => x.payload.outcome), ["limit", "done"]);
  t.true(recs.indexOf(cp) < recs.indexOf(ends[0]));
});

test("the tool-call budget stops before the call that would pass it, and that call is answered as not run", async (t) => {
  const s = setup(t, [{ calls: [{ name: "fs-read", args: { path: "a.txt" } }, { name: "fs-read", args: { path: "b.txt" } }] }, { text: "ok" }], { budgets: { toolCalls: 1 } });
  const agent = await s.open();
  const r = await agent.turn("read both");
  const r2 = await agent.turn("and now");
  agent.close();
  t.is(r.outcome, "limit");
  t.is(r2.outcome, "done");
  const results = records(s.data).filter((x) => x.kind === "tool.result");
  t.deepEqual(results.map((x) => x.payload.ok), [true, false]);
  t.regex(results[1].payload.error, /^not run: the turn ended \(limit\)/);
  // The window of the next turn pairs every call with its result.
  const next = s.provider.requests[1]!;
  t.deepEqual(next.messages.filter((m) => m.role === "tool").map((m: any) => m.toolCallId), next.messages.flatMap((m: any) => (m.toolCalls ?? []).map((c: any) => c.id)));
});

test("the token and spend budgets: the reply that reaches them ends the turn; spend ends it as spend_limit", async (t) => {
  const tokens = setup(t, [{ ...read("a.txt"), usage: { inputTokens: 900, outputTokens: 200 } }], { budgets: { tokens: 1000 } });
  const a = await tokens.open();
  const r = await a.turn("x");
  a.close();
  t.is(r.outcome, "limit");
  t.like(records(tokens.data).find((x) => x.kind === "turn.checkpoint").payload, { dimension: "tokens", used: 1100, hard: 1000 });

  const spend = setup(t, [{ ...read("a.txt"), usage: { inputTokens: 500_000, outputTokens: 100_000 } }], {
    budgets: { spendUsd: 1 },
    model: { id: "fake-1", server: "fake", contextWindow: 100_000, prices: { input: 2, output: 8 } },
  });
  const b = await spend.open();
  const r2 = await b.turn("x");
  b.close();
  t.is(r2.outcome, "spend_limit");
  t.is(r2.cost, 1.8);
  const recs = records(spend.data);
  t.like(recs.find((x) => x.kind === "llm.resp").payload.usage, { input_tokens: 500_000, output_tokens: 100_000, cost: 1.8, cost_estimated: true });
  t.like(recs.find((x) => x.kind === "turn.checkpoint").payload, { dimension: "cost", used: 1_800_000, hard: 1_000_000 });
  t.is(recs.find((x) => x.kind === "turn.end").payload.outcome, "spend_limit");
});

test("the wall-time budget cancels the model call in flight", async (t) => {
  const s = setup(t, [{ text: "slow", wait: 60_000 }, { text: "ok" }], { budgets: { wallMs: 300 } });
  const agent = await s.open();
  const r = await agent.turn("x");
  t.is(r.outcome, "limit");
  t.is((await agent.turn("y")).outcome, "done", "each turn has its own budget; the fake's second reply is quick");
  agent.close();
  const recs = records(s.data);
  t.like(recs.find((x) => x.kind === "turn.checkpoint").payload, { dimension: "time", hard: 300 });
  t.truthy(recs.find((x) => x.kind === "llm.resp").payload.error);
});

test("cancelling a turn during a tool call answers it, records turn.end cancelled, and the next turn works", async (t) => {
  const ac = new AbortController();
  const s = setup(t, [{ calls: [{ name: "shell-exec", args: { command: "sleep 600" } }, { name: "fs-read", args: { path: "a.txt" } }] }, { text: "fine" }], {
    shellAllow: ["sleep"],
  });
  const agent = await s.open();
  setTimeout(() => ac.abort(), 400);
  const r = await agent.turn("sleep", { signal: ac.signal });
  t.is(r.outcome, "cancelled");
  const r2 = await agent.turn("still there?");
  agent.close();
  t.is(r2.outcome, "done");
  t.is(r2.text, "fine");
  const recs = records(s.data);
  const results = recs.filter((x) => x.kind === "tool.result");
  t.is(results.length, 2);
  t.like(results[0].payload, { tool: "shell-exec", ok: false, error: "cancelled: the command's process group was killed" });
  t.like(results[1].payload, { tool: "fs-read", ok: false });
  t.regex(results[1].payload.error, /^not run: the turn was cancelled/);
  t.deepEqual(recs.filter((x) => x.kind === "turn.end").map((x) => x.payload.outcome), ["cancelled", "done"]);
  // The cancelled turn's calls are in the next request, each answered.
  const next = s.provider.requests[1]!.messages;
  t.is(next.filter((m) => m.role === "tool").length, 2);
});

test("a failing tool, malformed arguments and an unknown tool are results marked as errors, never a failed turn", async (t) => {
  const s = setup(t, [
    { calls: [{ name: "fs-read", args: { path: "missing.txt" } }, { name: "fs-read", args: "{not json" }, { name: "no-such-tool", args: {} }, { name: "fs-read", args: { file: "a.txt" } }, { name: "eval", args: { code: "(car '())" } }] },
    { text: "I see the errors." },
  ]);
  const agent = await s.open();
  const r = await agent.turn("break things");
  agent.close();
  t.is(r.outcome, "done");
  const results = records(s.data).filter((x) => x.kind === "tool.result");
  t.deepEqual(results.map((x) => x.payload.ok), [false, false, false, false, false]);
  t.regex(results[0].payload.error, /missing\.txt/);
  t.regex(results[1].payload.error, /not valid JSON/);
  t.regex(results[2].payload.error, /there is no tool "no-such-tool"; the tools are eval, fs-edit, fs-find, fs-read, fs-write, index-grep, index-search, index-update, recall, recall-entry, recall-log, recall-search, shell-exec/);
  t.regex(results[3].payload.error, /fs-read has no argument "file"; its arguments are path, start-line, line-count/);
  t.regex(results[4].payload.error, /car/);
  const call = records(s.data).filter((x) => x.kind === "tool.call")[1];
  t.is(call.payload.args, "{not json", "malformed arguments are recorded as the model wrote them");
});

test("a model that fails is recorded in llm.resp and fails the turn; the session goes on", async (t) => {
  const s = setup(t, [{ error: new ModelError("http", "fake", "fake: HTTP 500 Internal Server Error", 500) }, { text: "back" }]);
  const agent = await s.open();
  const r = await agent.turn("x");
  t.is(r.outcome, "failed");
  t.regex(r.error!, /HTTP 500/);
  t.is((await agent.turn("y")).outcome, "done");
  agent.close();
  const recs = records(s.data);
  t.like(recs.find((x) => x.kind === "llm.resp").payload, { error: "fake: HTTP 500 Internal Server Error" });
  t.like(recs.find((x) => x.kind === "turn.end").payload, { outcome: "failed" });
});

test("definitions of the model's eval persist from call to call and turn to turn", async (t) => {
  const s = setup(t, [{ calls: [{ name: "eval", args: { code: "(define (sq x) (* x x))" } }] }, { text: "defined" }, { calls: [{ name: "eval", args: { code: "(sq 12)" } }] }, { text: "144" }]);
  const agent = await s.open();
  await agent.turn("define");
  await agent.turn("use");
  agent.close();
  const results = records(s.data).filter((x) => x.kind === "tool.result");
  t.is(results[1].payload.output, "=> 144");
});

test("the strategies guide's plan-first example: a plan with request-append, then the loop; every request replays", async (t) => {
  const guide = readFileSync(join(REPO_ROOT, "docs", "guides", "strategies.md"), "utf8");
  const m = /<!-- example: plan-first\.scm[^\n]*-->\n```scheme\n([\s\S]*?)```/.exec(guide);
  t.truthy(m, "the guide holds the example");
  const s = setup(t, [{ text: "1. Read a.txt." }, { calls: [{ name: "shell-exec", args: { command: "cat a.txt" } }] }, read("a.txt"), { text: "a.txt says alpha." }]);
  const file = join(s.root, "plan-first.scm");
  writeFileSync(file, m![1]!);
  const agent = await s.open({ strategyFile: file });
  const r = await agent.turn("what does a.txt say?");
  agent.close();
  t.is(r.outcome, "done", r.error);
  t.is(r.text, "a.txt says alpha.");
  const [first, second] = s.provider.requests;
  t.deepEqual(first!.messages.at(-1), { role: "user", content: "Before doing anything, write a short numbered plan. Do not call any tool yet." });
  t.deepEqual(second!.messages.slice(1).map((x) => x.content), ["1. Read a.txt.", "Now carry out your plan."]);
  t.regex(first!.system, /^You are a careful coding agent/);
  const recs = records(s.data);
  t.like(recs.find((x) => x.kind === "note" && x.payload.topic === "plan").payload, { text: "1. Read a.txt." });
  const results = recs.filter((x) => x.kind === "tool.result");
  t.like(results[0].payload, { tool: "shell-exec", ok: false, error: "this strategy runs no shell commands: use fs-read, fs-find or index-grep" });
  t.like(results[1].payload, { tool: "fs-read", ok: true, output: "alpha\n" });
  const all = [...readLog(agent.writer.file)];
  for (const q of all.filter((x) => x.kind === "llm.req")) t.is(replayRequest(all, q.seq).digest, q.payload.digest as string);
});

test("a strategy's mistakes are clear errors: a stale request, unanswered calls, a load failure", async (t) => {
  const s = setup(t, [read("a.txt"), { text: "x" }]);
  const file = join(s.root, "bad.scm");
  writeFileSync(
    file,
    `(import (scheme base) (nodwyn strategy))
(define (run-turn message)
  (let* ((w (window)) (reply (send w)))
    (guard (e (#t (record-note (error-object-message e) "caught")))
      (send w))
    (for-each run-tool (response-tool-calls reply))
    (send w)))
(register-strategy! 'bad run-turn)
`,
  );
  const agent = await s.open({ strategyFile: file });
  const r = await agent.turn("x");
  agent.close();
  t.is(r.outcome, "failed");
  t.regex(r.error!, /stale-request|the log gained a message since this request was built/);
  const note = records(s.data).find((x) => x.kind === "note" && x.payload.topic === "caught");
  t.regex(note.payload.text, /have no results yet/);
  const broken = join(s.root, "broken.scm");
  writeFileSync(broken, "(import (scheme base) (nodwyn strategy))\n(define (f) (car))\n(f)\n");
  await t.throwsAsync(() => s.open({ strategyFile: broken }), { message: /broken\.scm failed to load: .*car/ });
  writeFileSync(broken, "(import (scheme base))\n(define x 1)\n");
  await t.throwsAsync(() => s.open({ strategyFile: broken }), { message: /did not call \(register-strategy! name on-message\)/ });
  writeFileSync(broken, '(set-system-text! "no import")\n');
  await t.throwsAsync(() => s.open({ strategyFile: broken }), { message: /broken\.scm:1:1: unbound variable: set-system-text! — set-system-text! is in \(nodwyn strategy\): begin the program with \(import \(scheme base\) \(nodwyn strategy\)\)$/ });
  await t.throwsAsync(() => s.open({ strategyFile: join(s.root, "missing.scm") }), { message: /cannot read the strategy \S+missing\.scm: there is no such file \(--strategy names a Scheme program; without it the session runs \S+compact\.scm\)/ });
});

test("end-turn ends the turn at once with its outcome; skip-tool answers a call without running it", async (t) => {
  const s = setup(t, [read("a.txt")]);
  const file = join(s.root, "strict.scm");
  writeFileSync(
    file,
    `(import (scheme base) (nodwyn strategy))
(define (run-turn message)
  (let ((reply (send (window))))
    (for-each (lambda (c) (skip-tool c "this strategy reads nothing")) (response-tool-calls reply))
    (end-turn 'failed "refused to read")
    (record-note "never recorded")))
(register-strategy! 'strict run-turn)
`,
  );
  const agent = await s.open({ strategyFile: file });
  const r = await agent.turn("read");
  agent.close();
  t.is(r.outcome, "failed");
  t.is(r.error, "refused to read");
  const recs = records(s.data);
  t.like(recs.find((x) => x.kind === "tool.result").payload, { ok: false, error: "this strategy reads nothing" });
  t.false(recs.some((x) => x.kind === "note" && x.payload.text === "never recorded"));
});

test("resume: session.resume, then a recovery result for each call a crash left unanswered, then the interrupted turn's end", async (t) => {
  const s = setup(t, [{ text: "resumed fine" }]);
  // A log as a crash leaves it: a reply with two calls, the first started, neither answered.
  const w = createSessionLog("crashed-1", { version: "0", origin: "ask", model: "fake-1", server: "fake" }, { dataDir: s.data });
  w.append("session.model", { model: "fake-1", server: "fake" });
  w.append("user.msg", { text: "do two things", actor: "person" });
  w.append("llm.req", { model: "fake-1" });
  w.append("llm.resp", { req_seq: 4, text: "", tool_calls: [{ id: "k1", name: "shell-exec", arguments: '{"command":"sleep 5"}' }, { id: "k2", name: "fs-read", arguments: '{"path":"a.txt"}' }] });
  w.append("tool.call", { call_id: "k1", tool: "shell-exec", args: { command: "sleep 5" }, resp_seq: 5 });
  w.close();
  const agent = await s.open({ resume: "crashed-1", origin: "resume" });
  t.is(agent.turns, 1);
  const r = await agent.turn("go on");
  agent.close();
  t.is(r.turn, 2);
  t.is(r.outcome, "done");
  const recs = records(s.data, "crashed-1");
  const after = recs.slice(6).map((x) => `${x.kind}${x.payload.call_id ? ":" + x.payload.call_id : ""}`);
  t.deepEqual(after.slice(0, 5), ["session.resume", "tool.result:k1", "tool.result:k2", "turn.end", "session.model"]);
  const [k1, k2] = recs.filter((x) => x.kind === "tool.result");
  t.like(k1.payload, { recovered: true, ok: false });
  t.regex(k1.payload.error, /^interrupted: the session ended while this call was running/);
  t.regex(k2.payload.error, /^not run: the session ended before this call ran/);
  t.like(recs.find((x) => x.kind === "turn.end").payload, { outcome: "failed", turn: 1 });
  // The model sees the interrupted turn, each call answered, then the new message.
  const msgs = s.provider.requests[0]!.messages;
  t.deepEqual(msgs.map((m) => m.role), ["user", "assistant", "tool", "tool", "user"]);
});

test("llm.resp usage: Ollama's timings as reported, and estimated_cached_tokens against the session's slowest reply", async (t) => {
  const s = setup(t, [
    { ...read("a.txt"), usage: { inputTokens: 1000, outputTokens: 10, promptEvalMs: 1000, evalMs: 200, totalMs: 1300, loadMs: 50 } },
    { text: "ok", usage: { inputTokens: 1200, outputTokens: 5, promptEvalMs: 300 } },
    { text: "again", usage: { inputTokens: 1300, outputTokens: 5, promptEvalMs: 100, cachedTokens: 0 } },
  ]);
  const agent = await s.open();
  await agent.turn("one");
  await agent.turn("two");
  agent.close();
  const usage = records(s.data).filter((x) => x.kind === "llm.resp").map((x) => x.payload.usage);
  t.deepEqual(usage[0], { input_tokens: 1000, output_tokens: 10, wall_ms: 1, prompt_eval_ms: 1000, eval_ms: 200, total_ms: 1300, load_ms: 50 });
  t.is(usage[1].estimated_cached_tokens, 900, "(1 − 0.25 / 1) × 1200");
  t.is(usage[2].cached_tokens, 0);
  t.is(usage[2].estimated_cached_tokens, undefined, "a reported count wins, zero included");
});

test("shell.scm's system text: the tools, eval as a Scheme REPL, and the project's AGENTS.md read through the guard", async (t) => {
  const s = setup(t, [{ text: "ok" }]);
  writeFileSync(join(s.root, "AGENTS.md"), "Run the tests with npm test. Never touch dist/.\n");
  const agent = await s.open();
  await agent.turn("hi");
  agent.close();
  const system = s.provider.requests[0]!.system;
  t.regex(system, /Your tools: eval, fs-edit, fs-find, fs-read, fs-write, index-grep, index-search, index-update, recall, recall-entry, recall-log, recall-search, shell-exec, compact\./);
  t.regex(system, /- index-search ranks the repository's chunks/);
  t.regex(system, /- fs-edit replaces an exact piece of a file .* the person approves each write, and files in \.git\/, \.nodwyn\/ or secret files are never written/);
  t.regex(system, /eval is a Scheme \(R7RS\) REPL in this session/);
  t.regex(system, /The project's instructions \(AGENTS\.md\):\n\nRun the tests with npm test\. Never touch dist\/\./);
  t.false(system.includes(s.root), "the repository's name, not where it is on this machine");
  const recs = records(s.data);
  const read = recs.find((x) => x.kind === "guard.decision" && x.payload.path === "AGENTS.md");
  t.like(read.payload, { decision: "allow", actor: "strategy" });
  t.true(recs.indexOf(read) < recs.findIndex((x) => x.kind === "user.msg"), "read when the session opened");
});

test("without AGENTS.md, .nodwyn/notes.md; a project instruction file the guard refuses is left out", async (t) => {
  const s = setup(t, [{ text: "ok" }, { text: "ok" }]);
  const { mkdirSync } = await import("node:fs");
  mkdirSync(join(s.root, ".nodwyn"));
  writeFileSync(join(s.root, ".nodwyn", "notes.md"), "Notes of the project.\n");
  writeFileSync(join(s.root, "AGENTS.md"), "secret instructions\n");
  writeFileSync(join(s.root, ".nodwyn", "checks.scm"), '(register-check "no-agents" (lambda (path info) (if (string=? path "AGENTS.md") \'(deny "not for models") \'allow)))\n');
  const agent = await s.open();
  await agent.turn("hi");
  agent.close();
  t.regex(s.provider.requests[0]!.system, /The project's instructions \(\.nodwyn\/notes\.md\):\n\nNotes of the project\./);
  t.false(s.provider.requests[0]!.system.includes("secret instructions"));
  t.like(records(s.data).find((x) => x.kind === "guard.decision" && x.payload.path === "AGENTS.md").payload, { decision: "deny", actor: "strategy" });
});

test("the eval tool's limits: steps and memory end the evaluation with an error the model reads; output is capped and counted", async (t) => {
  const s = setup(
    t,
    [
      {
        calls: [
          { name: "eval", args: { code: "(let loop () (loop))" } },
          // Vectors of 100,000 slots: their announced size passes 32 MiB within a
          // few hundred steps, whenever the collector runs (a loop of bare pairs
          // depends on when the heap is sampled, and can spend its 2M steps first).
          { name: "eval", args: { code: "(let loop ((acc '())) (loop (cons (make-vector 100000 acc) acc)))" } },
          { name: "eval", args: { code: "(let loop ((i 0)) (when (< i 100000) (display \"0123456789\") (loop (+ i 1))))" } },
          { name: "eval", args: { code: "(+ 1 2)" } },
        ],
      },
      { text: "ok" },
    ],
    { evalLimits: { steps: 2_000_000, memoryBytes: 32 * 1024 * 1024 } },
  );
  const agent = await s.open();
  const r = await agent.turn("limits");
  agent.close();
  t.is(r.outcome, "done");
  const results = records(s.data).filter((x) => x.kind === "tool.result").map((x) => x.payload);
  t.like(results[0], { ok: false });
  t.regex(results[0].error, /step/i);
  t.like(results[1], { ok: false });
  t.regex(results[1].error, /memory/i);
  t.like(results[2], { ok: true, truncated: true }, "a million characters printed: kept up to the cap, the rest counted");
  t.true(results[2].output.length < 40_000);
  t.regex(results[2].output, /\n\[… 968000 more characters of output not kept\]$/);
  t.like(results[3], { ok: true, output: "=> 3" }, "the session is still usable");
  t.regex(s.provider.requests[0]!.tools.find((x) => x.name === "eval")!.description, /2000000 steps, 30 s, 32 MiB of memory/);
});
