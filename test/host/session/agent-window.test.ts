// The window's procedures a strategy drives it with: context-narrow, context-fold, window-info, window-units, and window-overflow.
import test from "ava";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { readLog } from "../../../host/log/index.js";
import { replayRequest } from "../../../host/window/index.js";
import { AgentSession, type AgentOptions } from "../../../host/session/agent.js";
import { FakeModel, type FakeReply } from "../../helpers/fake-model.js";
import { dataDir, gitRepo, records } from "./agent-helpers.js";

async function session(t: any, strategy: string, replies: FakeReply[], o: Partial<AgentOptions> = {}) {
  const root = gitRepo(t, { "a.txt": "alpha\n" });
  const data = dataDir(t);
  const file = join(root, "strategy.scm");
  writeFileSync(file, `(import (scheme base) (scheme write) (nodwyn strategy))\n${strategy}\n`);
  const provider = new FakeModel(replies);
  const agent = await AgentSession.open({
    origin: "ask",
    cwd: root,
    env: { PATH: process.env.PATH, HOME: root, NODWYN_DATA_DIR: data },
    provider,
    model: { id: "fake-1", server: "fake", contextWindow: 100_000 },
    askApproval: null,
    strategyFile: file,
    ...o,
  });
  return { agent, data, provider };
}

test("context-narrow records the narrowing a strategy asks for, and the next window shows it; context-fold ends a sub-context", async (t) => {
  const { agent, data, provider } = await session(
    t,
    `(define (run-turn m)
       (let ((n (context-narrow "explore" "Sub-task: look at a.txt." :label "look")))
         (record-note (number->string n) "narrow")
         (send (window))
         (let ((f (context-fold "done")))
           (record-note (number->string f) "fold"))
         (send (window))))
     (register-strategy! 'test run-turn)`,
    [{ text: "inside" }, { text: "outside" }],
  );
  await agent.turn("first");
  agent.close();
  const recs = records(data);
  const narrow = recs.find((r) => r.kind === "context.narrow");
  t.deepEqual(narrow.payload, { reason: "explore", note: "Sub-task: look at a.txt.", label: "look" });
  t.like(recs.find((r) => r.kind === "context.fold").payload, { narrow_seq: narrow.seq, reason: "done" });
  t.is(recs.find((r) => r.kind === "note" && r.payload.topic === "narrow").payload.text, String(narrow.seq));
  t.deepEqual(provider.requests[0]!.messages.map((m) => m.content), ["first", "Sub-task: look at a.txt."]);
  // After the fold: the outer context, without the sub-context's reply.
  t.deepEqual(provider.requests[1]!.messages.map((m) => m.content), ["first"]);
  const all = [...readLog(agent.writer.file)];
  for (const q of all.filter((r) => r.kind === "llm.req")) t.is(replayRequest(all, q.seq).digest, q.payload.digest as string);
});

test("a compaction as compact.scm will make it: a note asked for, the window narrowed to it for good, from Scheme", async (t) => {
  const { agent, data, provider } = await session(
    t,
    `(define (run-turn m)
       (if (string=? m "compact")
           (let ((note (send (request-append (window) 'user "Write a handover note."))))
             (context-narrow "compact" #f :resp-seq (response-seq note) :lasting #t)
             (send (window)))
           (send (window))))
     (register-strategy! 'test run-turn)`,
    [{ text: "one" }, { text: "Handover: the person counts; one was said." }, { text: "Going on from the note." }, { text: "three" }],
  );
  await agent.turn("say one");
  await agent.turn("compact");
  await agent.turn("say three");
  agent.close();
  const recs = records(data);
  const note = recs.filter((r) => r.kind === "llm.resp")[1];
  t.like(recs.find((r) => r.kind === "context.narrow").payload, { reason: "compact", resp_seq: note.seq, lasting: true });
  // In the compacting turn: its message, then the note; later: the note first (after a user message), then what followed.
  t.deepEqual(provider.requests[2]!.messages.map((m) => [m.role, m.content]), [
    ["user", "compact"],
    ["assistant", "Handover: the person counts; one was said."],
  ]);
  const later = provider.requests[3]!.messages.map((m) => m.content);
  t.false(later.includes("say one"));
  t.false(later.includes("one"));
  t.deepEqual(later, ["compact", "Handover: the person counts; one was said.", "[continued]", "Going on from the note.", "say three"]);
});

test("window-info and window-units say what the window holds, in numbers a strategy can act on", async (t) => {
  const { agent, data } = await session(
    t,
    `(define (run-turn m)
       (send (window))
       (let ((info (window-info)) (units (window-units)))
         (record-note (call-with-output-string-port info) "info")
         (record-note (call-with-output-string-port units) "units")))
     (define (call-with-output-string-port x) (let ((p (open-output-string))) (write x p) (get-output-string p)))
     (register-strategy! 'test run-turn)`,
    [{ text: "hello back" }, { text: "again" }],
    { model: { id: "fake-1", server: "fake", contextWindow: 20_000, maxOutputTokens: 2_000 } },
  );
  await agent.turn("hello");
  await agent.turn("and again");
  agent.close();
  const notes = records(data).filter((r) => r.kind === "note");
  const info = notes.filter((n) => n.payload.topic === "info").at(-1).payload.text;
  t.regex(info, /\(recipe \. "window-v2"\)/);
  t.regex(info, /\(context-window \. 20000\)/);
  t.regex(info, /\(reserve \. 2000\)/);
  t.regex(info, /\(budget \. 18000\)/);
  t.regex(info, /\(tokens \. \d+\)/);
  t.regex(info, /\(elided \. #\(\)\)/);
  t.regex(info, /\(contexts \. #\(\(\(narrow \. 0\) \(pushed \. #f\) \(lasting \. #f\) \(from \. 1\)\)\)\)/);
  const units = notes.filter((n) => n.payload.topic === "units").at(-1).payload.text;
  const users = records(data).filter((r) => r.kind === "user.msg").map((r) => r.seq);
  t.regex(units, new RegExp(`^#\\(\\(\\(user \\. ${users[0]}\\) \\(from \\. ${users[0]}\\) \\(through \\. \\d+\\) \\(tokens \\. \\d+\\) \\(finished \\. #t\\)`));
  t.regex(units, new RegExp(`\\(\\(user \\. ${users[1]}\\) \\(from \\. ${users[1]}\\) .*\\(finished \\. #f\\)`));
});

test("a strategy's mistakes with the window are host conditions that say what to do", async (t) => {
  const { agent, data } = await session(
    t,
    `(define (try thunk) (guard (e (#t (record-note (error-object-message e) "caught"))) (thunk)))
     (define (run-turn m)
       (try (lambda () (context-fold)))
       (try (lambda () (context-narrow "x" #f)))
       (try (lambda () (context-narrow "x" "note" :from)))
       (try (lambda () (context-narrow "x" "note" :size 3)))
       (try (lambda () (context-narrow "x" "note" :from 99999)))
       (try (lambda () (context-narrow "x" #f :resp-seq 1)))
       (send (window)))
     (register-strategy! 'test run-turn)`,
    [{ text: "ok" }],
  );
  await agent.turn("go");
  agent.close();
  const notes = records(data).filter((r) => r.kind === "note" && r.payload.topic === "caught");
  const caught = notes.map((r) => r.payload.text);
  t.deepEqual(caught, [
    "context-fold: no sub-context is open (only a context-narrow without :lasting opens one)",
    "context-narrow: give the note the narrowed window starts from, or :resp-seq, the reply that is the note",
    "context-narrow: the option :from has no value",
    "context-narrow: unknown option :size (the options are :resp-seq, :from, :lasting, :label)",
    `context-narrow: :from 99999 is not a seq of this log (1 to ${notes[3].seq + 1})`,
    "context-narrow: :resp-seq 1 is a session.start record, not a reply (llm.resp)",
  ]);
  t.false(records(data).some((r) => r.kind === "context.narrow" || r.kind === "context.fold"), "nothing was recorded");
});

test("a window that cannot fit raises window-overflow in the strategy: the turn fails saying why, nothing is sent", async (t) => {
  const { agent, provider } = await session(t, `(register-strategy! 'test (lambda (m) (send (window))))`, [{ text: "never" }], {
    model: { id: "fake-1", server: "fake", contextWindow: 3_000, maxOutputTokens: 500 },
  });
  const r = await agent.turn("x".repeat(20_000));
  agent.close();
  t.is(r.outcome, "failed");
  t.regex(r.error!, /strategy\.scm:2:\d+: window: the window cannot fit in the model's context: the latest two messages of the person and the elided rest need \d+ tokens, and \d+ fit/);
  t.is(provider.requests.length, 0);
});
