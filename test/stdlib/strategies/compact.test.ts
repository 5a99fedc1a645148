// compact.scm, the default strategy, over real sessions: compaction at the threshold, on /compact focus, on the model's request, one that gives up; each context.compact's fields, the window after, replay, the note's cited seqs.
import test, { type ExecutionContext } from "ava";
import { readLog } from "../../../host/log/index.js";
import { replayRequest } from "../../../host/window/index.js";
import { AgentSession, DEFAULT_STRATEGY, type AgentOptions } from "../../../host/session/agent.js";
import { ModelError, type ModelRequest, type ModelResponse } from "../../../host/model/types.js";
import { FakeModel, type FakeReply } from "../../helpers/fake-model.js";
import { dataDir, gitRepo, records } from "../../host/session/agent-helpers.js";

const BIG = 4000; // characters of one eval result: ~1,000 estimated tokens

function reply(text: string, o: { calls?: { name: string; args: unknown; id?: string }[]; outputTokens?: number; stop?: ModelResponse["stopReason"] } = {}): ModelResponse {
  const calls = (o.calls ?? []).map((c, i) => ({ id: c.id ?? `c${i}-${Math.random().toString(36).slice(2, 8)}`, name: c.name, arguments: JSON.stringify(c.args) }));
  return { text, toolCalls: calls, stopReason: o.stop ?? (calls.length > 0 ? "tool_calls" : "end"), usage: { inputTokens: 100, outputTokens: o.outputTokens ?? 10, wallMs: 1 }, attempts: 1 };
}

/** The prompt a request ends with, when it asks for a handover note. */
function asksForNote(req: ModelRequest): string | null {
  const last = req.messages.at(-1);
  return last?.role === "user" && last.content.includes("Write a handover note") ? last.content : null;
}

/** A note citing every seq the prompt's event index names (the person's messages and each round's first and last). */
function noteFor(prompt: string, lead = "Handover: the task was to fill the log."): string {
  const seqs = [...prompt.matchAll(/seq (\d+)(?:-(\d+))?/g)].flatMap((m) => [Number(m[1]), ...(m[2] ? [Number(m[2])] : [])]);
  return `${lead} ${[...new Set(seqs)].map((s) => `(seq ${s})`).join(" ")}`;
}

/** A model that answers a note request with `note(prompt)`, and other requests from `script` in order. */
function model(script: FakeReply[], note: (prompt: string) => ModelResponse | Error = (p) => reply(noteFor(p), { outputTokens: 77 })) {
  let i = 0;
  const notes: string[] = [];
  const provider = new FakeModel(
    Array.from({ length: 200 }, () => (req: ModelRequest) => {
      const prompt = asksForNote(req);
      if (prompt !== null) {
        notes.push(prompt);
        const r = note(prompt);
        if (r instanceof Error) throw r;
        return r;
      }
      const s = script[i++];
      if (s === undefined) throw new ModelError("protocol", "fake", "no more replies");
      if (typeof s === "function") return s(req);
      if ("error" in s) throw s.error;
      return reply(s.text ?? "", { calls: s.calls?.map((c) => ({ ...c })) ?? [] });
    }),
  );
  return { provider, notes };
}

async function open(t: ExecutionContext, provider: FakeModel, o: Partial<AgentOptions> = {}, root = gitRepo(t, { "a.txt": "alpha\n" }), data = dataDir(t)) {
  const agent = await AgentSession.open({
    origin: "chat",
    cwd: root,
    env: { PATH: process.env.PATH, HOME: root, NODWYN_DATA_DIR: data },
    provider,
    model: { id: "fake-1", server: "fake", contextWindow: 16_000 },
    askApproval: null,
    ...o,
  });
  t.teardown(() => agent.close());
  return { agent, root, data };
}

/** The window's size with nothing in it but the system text and tools (a session opened only to measure). */
async function baseTokens(t: ExecutionContext): Promise<number> {
  const { agent } = await open(t, new FakeModel([]));
  const n = agent.windowInfo(null).tokens as number;
  agent.close();
  return n;
}

function replaysAll(t: ExecutionContext, file: string) {
  const all = [...readLog(file)];
  const reqs = all.filter((r) => r.kind === "llm.req");
  t.true(reqs.length > 0);
  for (const q of reqs) t.is(replayRequest(all, q.seq).digest, (q.payload as any).digest, `llm.req at seq ${q.seq} replays`);
}

function citedSeqsExist(t: ExecutionContext, note: string, recs: any[], upTo: number) {
  const cited = [...note.matchAll(/\(seq (\d+)\)/g)].map((m) => Number(m[1]));
  t.true(cited.length > 0, "the note cites seqs");
  for (const s of cited) {
    const r = recs.find((x) => x.seq === s);
    t.truthy(r, `seq ${s} is in the log`);
    t.true(s < upTo, `seq ${s} is in the history the note replaces`);
  }
}

test("compact.scm is the default strategy; it offers the model a compact tool and says so in the system text", async (t) => {
  const { agent, data } = await open(t, new FakeModel([{ text: "hi" }]));
  t.true(DEFAULT_STRATEGY.endsWith("compact.scm"));
  await agent.turn("hello");
  const req = records(data).find((r) => r.kind === "llm.req");
  t.true(req.payload.tools.some((x: any) => x.name === "compact"));
  t.regex(req.payload.recipe.system, /compact asks for a compaction/);
});

test("at the threshold: the window narrows to the note in that turn and later ones; context.compact records every field", async (t) => {
  const base = await baseTokens(t);
  const threshold = base + 1300;
  const { provider, notes } = model([
    { calls: [{ name: "eval", args: { code: `(make-string ${BIG} #\\a)` } }] },
    { text: "made the string" },
    { calls: [{ name: "eval", args: { code: `(make-string ${BIG} #\\d)` } }] },
    { text: "continuing from the note" },
    { text: "turn three" },
  ]);
  const { agent, data } = await open(t, provider, { compactThreshold: threshold });
  await agent.turn("fill the log");
  t.is(notes.length, 0, "under the threshold: no compaction");
  await agent.turn("go on");
  t.is(notes.length, 1, "the second turn's second request passed the threshold");
  await agent.turn("and again");
  t.is(notes.length, 1, "no compaction once the window is small");
  const recs = records(data);
  const compact = recs.filter((r) => r.kind === "context.compact");
  t.is(compact.length, 1);
  const c = compact[0].payload;
  const noteResp = recs.find((r) => r.kind === "llm.resp" && r.payload.text?.startsWith("Handover:"));
  const narrow = recs.find((r) => r.kind === "context.narrow");
  t.deepEqual(narrow.payload, { reason: "compact", resp_seq: noteResp.seq, lasting: true });
  t.true(narrow.seq < compact[0].seq);
  t.like(c, { trigger: "auto", compacted: true, threshold, note_resp_seq: noteResp.seq, note_output_tokens: 77, note_truncated: false });
  t.false("focus" in c);
  // The size before is the window's when the second turn's round made it pass the threshold (the request the note prompt was appended to).
  const noteReq = recs.find((r) => r.seq === noteResp.payload.req_seq);
  t.true(c.before_tokens >= threshold, `${c.before_tokens} >= ${threshold}`);
  t.true(c.after_tokens < c.before_tokens, `${c.after_tokens} < ${c.before_tokens}`);
  t.is(noteReq.payload.recipe.additions.length, 1);
  // The window after: the running turn's message, then the note; the narrowed span (the big result) gone.
  const after = provider.requests[provider.requests.length - 2]!; // "continuing from the note"'s request
  const contents = after.messages.map((m) => m.content);
  t.deepEqual(contents, ["go on", noteResp.payload.text]);
  t.false(JSON.stringify(provider.requests.at(-1)!.messages).includes("aaaaaaaaaa"));
  t.false(JSON.stringify(provider.requests.at(-1)!.messages).includes("dddddddddd"));
  t.deepEqual(provider.requests.at(-1)!.messages.map((m) => m.content), ["go on", noteResp.payload.text, "[continued]", "continuing from the note", "and again"]);
  // The after size is what the next request took.
  const nextReq = recs.filter((r) => r.kind === "llm.req" && r.seq > compact[0].seq)[0];
  t.truthy(nextReq);
  citedSeqsExist(t, noteResp.payload.text, recs, narrow.seq);
  replaysAll(t, agent.writer.file);
  // The log keeps everything: the big result is still there, and recall-log reads it back.
  t.true(recs.some((r) => r.kind === "tool.result" && r.payload.output.includes("a".repeat(BIG))));
  const back = await agent.session.evaluate('(length (recall-log :match "%aaaaaaaaaa%" :kinds "tool.result"))', {});
  t.true(back.ok && back.value === 1);
});

test("/compact focus between turns: trigger command, the focus in the prompt and the record, later turns start from the note", async (t) => {
  const { provider, notes } = model([{ text: "first answer" }, { text: "second answer" }]);
  const { agent, data } = await open(t, provider);
  await agent.turn("look at the failing test in a.txt");
  t.true(await agent.command("compact", "the failing test"));
  t.is(notes.length, 1);
  t.regex(notes[0]!, /Keep this in view above all: the failing test/);
  t.regex(notes[0]!, /the person's message at seq \d+/);
  await agent.turn("now fix it");
  const recs = records(data);
  const c = recs.find((r) => r.kind === "context.compact");
  const noteResp = recs.find((r) => r.kind === "llm.resp" && r.payload.text?.startsWith("Handover:"));
  t.like(c.payload, { trigger: "command", compacted: true, focus: "the failing test", note_resp_seq: noteResp.seq, note_output_tokens: 77, note_truncated: false });
  t.false("threshold" in c.payload);
  t.is(typeof c.payload.after_tokens, "number");
  // Between turns: no user.msg, no turn.end for the command; the note's request carries the last turn's number.
  t.is(recs.filter((r) => r.kind === "turn.end").length, 2);
  t.is(recs.find((r) => r.seq === noteResp.payload.req_seq).payload.turn, 1);
  const last = provider.requests.at(-1)!.messages.map((m) => m.content);
  t.false(last.includes("look at the failing test in a.txt"));
  t.true(last.includes(noteResp.payload.text));
  t.is(last.at(-1), "now fix it");
  citedSeqsExist(t, noteResp.payload.text, recs, c.seq);
  replaysAll(t, agent.writer.file);
});

test("on the model's request: its compact call is answered, the note written, the turn goes on from it", async (t) => {
  const { provider, notes } = model([
    { calls: [{ name: "eval", args: { code: `(make-string ${BIG} #\\b)` } }] },
    { calls: [{ name: "compact", args: { focus: "the b string" } }] },
    { text: "done after compacting" },
  ]);
  const { agent, data } = await open(t, provider);
  const r = await agent.turn("make a b string, then compact");
  t.is(r.outcome, "done");
  t.is(notes.length, 1);
  t.regex(notes[0]!, /Keep this in view above all: the b string/);
  const recs = records(data);
  const res = recs.find((x) => x.kind === "tool.result" && x.payload.tool === "compact");
  t.like(res.payload, { ok: true, output: "Compacting: write the handover note you are asked for next." });
  t.truthy(recs.find((x) => x.kind === "tool.call" && x.payload.tool === "compact"));
  const c = recs.find((x) => x.kind === "context.compact").payload;
  t.like(c, { trigger: "requested", compacted: true, focus: "the b string" });
  t.false("threshold" in c);
  t.true(c.after_tokens < c.before_tokens);
  // The last request: the turn's message and the note, not the big result nor the compact call.
  const last = provider.requests.at(-1)!;
  t.is(last.messages.length, 2);
  t.is(last.messages[0]!.content, "make a b string, then compact");
  t.regex(last.messages[1]!.content, /^Handover:/);
  replaysAll(t, agent.writer.file);
});

test("a compaction that gives up: an empty note, a note larger than the history, a failing model; compacted false, no size after, the window as it was", async (t) => {
  for (const [name, note] of [
    ["empty", () => reply("   \n", { outputTokens: 3 })],
    ["larger", () => reply("x".repeat(40_000), { outputTokens: 4000, stop: "max_tokens" })],
    ["error", () => new ModelError("network", "fake", "the server failed")],
  ] as const) {
    const { provider, notes } = model([{ text: "first answer" }, { text: "second answer" }], note as any);
    const { agent, data } = await open(t, provider);
    await agent.turn("the first message");
    const before = provider.requests.at(-1)!.messages.map((m) => m.content);
    t.true(await agent.command("compact", ""), name);
    t.is(notes.length, 1, name);
    await agent.turn("the second message");
    const recs = records(data);
    const c = recs.find((r) => r.kind === "context.compact").payload;
    t.is(c.trigger, "command", name);
    t.is(c.compacted, false, name);
    t.false("after_tokens" in c, name);
    t.false(recs.some((r) => r.kind === "context.narrow"), `${name}: no narrowing`);
    if (name === "error") t.false("note_resp_seq" in c, name);
    else {
      const noteResp = recs.find((r) => r.kind === "llm.resp" && r.payload.req_seq === recs.filter((x) => x.kind === "llm.req")[1].seq);
      t.like(c, { note_resp_seq: noteResp.seq, note_output_tokens: name === "empty" ? 3 : 4000, note_truncated: name === "larger" }, name);
    }
    // The window as it was: the first turn whole, then the new message; no note.
    t.deepEqual(provider.requests.at(-1)!.messages.map((m) => m.content), [...before, "first answer", "the second message"], name);
    replaysAll(t, agent.writer.file);
    agent.close();
  }
});

test("an automatic compaction that gives up is not tried again in the same turn; a note that called tools has them answered as not run", async (t) => {
  const base = await baseTokens(t);
  const { provider, notes } = model(
    [
      { calls: [{ name: "eval", args: { code: `(make-string ${BIG} #\\c)` } }] },
      { calls: [{ name: "eval", args: { code: "(+ 1 2)" } }] },
      { text: "finished" },
    ],
    () => reply("", { calls: [{ name: "fs-read", args: { path: "a.txt" } }] }),
  );
  const { agent, data } = await open(t, provider, { compactThreshold: base + 500 });
  const r = await agent.turn("make it big");
  t.is(r.outcome, "done");
  t.is(notes.length, 1, "one attempt in the turn");
  const recs = records(data);
  const c = recs.find((x) => x.kind === "context.compact").payload;
  t.like(c, { trigger: "auto", compacted: false, threshold: base + 500 });
  const skipped = recs.find((x) => x.kind === "tool.result" && x.payload.tool === "fs-read");
  t.like(skipped.payload, { ok: false, error: "not run: a handover note is text; write the note without calling tools" });
  // Later requests hold neither the note's reply nor its skipped call.
  for (const q of provider.requests.slice(2)) if (asksForNote(q) === null) t.false(q.messages.some((m) => m.role === "tool" && m.name === "fs-read"));
  replaysAll(t, agent.writer.file);
});

test("record-compaction refuses what is not a compaction: a bad trigger, no :before, auto without :threshold, compacted without a note", async (t) => {
  const root = gitRepo(t, { "a.txt": "alpha\n" });
  const { writeFileSync } = await import("node:fs");
  const { join } = await import("node:path");
  const file = join(root, "s.scm");
  const errors: string[] = [];
  writeFileSync(
    file,
    `(import (scheme base) (nodwyn strategy))
     (define (try thunk) (guard (e (#t (record-note (error-object-message e) "err"))) (thunk)))
     (define (run-turn m)
       (let ((r (send (window))))
         (try (lambda () (record-compaction 'sometimes #t :before 1)))
         (try (lambda () (record-compaction 'command #f)))
         (try (lambda () (record-compaction 'auto #f :before 5)))
         (try (lambda () (record-compaction 'command #t :before 5)))
         (try (lambda () (record-compaction 'command #f :before 5 :note 1)))
         (try (lambda () (record-compaction 'command #f :before 5 :focus "x" :note (response-seq r))))))
     (register-strategy! 'test run-turn)`,
  );
  const { agent, data } = await open(t, new FakeModel([{ text: "ok" }]), { strategyFile: file }, root);
  await agent.turn("go");
  for (const r of records(data)) if (r.kind === "note" && r.payload.topic === "err") errors.push(r.payload.text);
  t.is(errors.length, 5, errors.join("\n"));
  t.regex(errors[0]!, /trigger must be auto, command or requested, not sometimes/);
  t.regex(errors[1]!, /give :before/);
  t.regex(errors[2]!, /records the threshold it passed/);
  t.regex(errors[3]!, /give :note/);
  t.regex(errors[4]!, /:note 1 is a session.start record, not the note's reply/);
  t.like(records(data).find((r) => r.kind === "context.compact").payload, { trigger: "command", compacted: false, before_tokens: 5, focus: "x" });
});
