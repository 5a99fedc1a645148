// evict.scm over real sessions (a fake model, real logs): 0.85 and 0.50 of the budget, whole finished turns first and oldest first,
// then the running turn's oldest rounds; the stub where the history was; /evict [percent]; the unknown window; an undo after an eviction.
import test, { type ExecutionContext } from "ava";
import { join } from "node:path";
import { readLog } from "../../../host/log/index.js";
import { replayRequest } from "../../../host/window/index.js";
import { STDLIB_DIR } from "../../../host/session/node-interpreter.js";
import { fakeAgent, gitRepo, records } from "./agent-helpers.js";
import type { FakeReply } from "../../helpers/fake-model.js";

const EVICT = join(STDLIB_DIR, "strategies", "evict.scm");

/** A cell whose value is a string of n characters of c, opened with a note. */
function bigCell(note: string, n: number, c = "a"): string {
  return `;; ${note}\n(make-string ${n} #\\${c})`;
}

/** One turn's replies: a call of eval on `code`, then an answer. */
function turnReplies(code: string, answer: string): FakeReply[] {
  return [{ calls: [{ name: "eval", args: { code } }] }, { text: answer }];
}

async function evictSession(t: ExecutionContext, replies: FakeReply[], contextWindow: number, more: { contextSource?: string } = {}) {
  const root = gitRepo(t, { "a.txt": "alpha\n" });
  const out: string[] = [];
  const f = fakeAgent(t, root, replies, {
    strategyFile: EVICT,
    model: { id: "fake-1", server: "fake", contextWindow, ...(more.contextSource ? { contextSource: more.contextSource } : {}) },
    observer: { onStrategyOutput: (s) => out.push(s) },
  });
  const agent = await f.open();
  return { agent, out, data: f.data, provider: f.provider };
}

const llmReqs = (recs: any[]) => recs.filter((r) => r.kind === "llm.req");

test("eviction starts above 0.85 of the budget, evicts whole finished turns oldest first down to 0.50, and the stub stands where they were", async (t) => {
  const replies: FakeReply[] = [];
  for (let i = 1; i <= 12; i++) replies.push(...turnReplies(bigCell(`turn ${i} cell`, 2400, String.fromCharCode(96 + i)), `answer ${i}`));
  const { agent, data, provider } = await evictSession(t, replies, 8000);
  for (let i = 1; i <= 12; i++) await agent.turn(`question ${String(i).padStart(2, "0")}`);
  const budget = (agent.windowInfo(null) as any).budget as number;
  agent.close();
  const recs = records(data);
  const narrows = recs.filter((r) => r.kind === "context.narrow");
  t.true(narrows.length >= 1, "the session evicted");
  t.true(narrows.every((n) => n.payload.reason === "evict" && n.payload.lasting === true));
  const reqs = llmReqs(recs);
  // Every request fits 0.85 of the budget once the strategy had its say: it evicts before sending.
  for (const q of reqs) t.true(q.payload.recipe.tokens <= Math.ceil(budget * 0.85) + 0, `request ${q.seq}: ${q.payload.recipe.tokens} of ${budget}`);
  const users = recs.filter((r) => r.kind === "user.msg");
  for (const n of narrows) {
    const before = reqs.filter((q) => q.seq < n.seq).at(-1);
    const after = reqs.find((q) => q.seq > n.seq);
    // The request before was under the start; what the window took when the check ran (the last request plus a round) was over it.
    t.true(before.payload.recipe.tokens <= budget * 0.85);
    // At 0.50 after it, unless nothing more could go: every finished turn gone, the running turn only its message.
    const running = users.filter((u) => u.seq < n.seq).at(-1);
    t.true(after.payload.recipe.tokens <= budget * 0.5 || n.payload.from === running.seq, `after the eviction: ${after.payload.recipe.tokens} of ${budget}`);
    t.true(after.payload.recipe.narrowed === n.seq);
    // Whole turns: the window starts at a user message; every turn before it left whole.
    const first = users.find((u) => u.seq === n.payload.from);
    t.truthy(first, `from ${n.payload.from} is a user message`);
  }
  // The last stub: every turn before the window's first, seq of the first user message to the last event before it.
  const last = narrows.at(-1);
  const gone = users.filter((u) => u.seq < last.payload.from);
  const lastEvent = recs.filter((r) => ["user.msg", "llm.resp", "tool.result"].includes(r.kind) && r.seq < last.payload.from).at(-1);
  const cells = recs.filter((r) => r.kind === "eval.req" && r.seq < last.payload.from);
  const notes = cells.map((c) => ` seq ${c.seq} · ${c.payload.source.split("\n")[0].slice(3)}`);
  t.is(
    last.payload.note,
    `[history evicted: seq ${users[0].seq}–${lastEvent.seq} · ${gone.length} turns · recall: (recall-log :match "text" :before ${lastEvent.seq + 1})]\n` +
      "[the evicted cells noted and judged, oldest first; (recall-entry seq) reads one whole\n" +
      notes.join("\n") +
      "]",
  );
  t.is(last.payload.label, `evicted turns ${users[0].seq}-${lastEvent.seq} x${gone.length}`);
  // The request after it: the stub first, then the kept turns; no evicted event's text.
  const req = provider.requests.at(-1)!;
  t.is(req.messages[0]!.content, last.payload.note);
  t.is(req.messages[1]!.content, recs.find((r) => r.seq === last.payload.from).payload.text);
  t.false(JSON.stringify(req.messages).includes("question 01"));
  // Nothing is lost from the log, and every request replays to its digest.
  t.is(users.length, 12);
  t.is(recs.filter((r) => r.kind === "tool.result" && r.payload.ok).length, 12);
  const all = [...readLog(agent.writer.file)];
  for (const q of all.filter((r) => r.kind === "llm.req")) t.is(replayRequest(all, q.seq).digest, q.payload.digest as string);
});

test("when whole turns are not enough, the running turn sheds its oldest rounds, keeping its message and its newest round", async (t) => {
  const replies: FakeReply[] = [...turnReplies(bigCell("small first turn", 400), "first done")];
  // One long turn: ten rounds of large results.
  for (let i = 1; i <= 10; i++) replies.push({ calls: [{ name: "eval", args: { code: bigCell(`round ${i}`, 3000, String.fromCharCode(96 + i)) } }] });
  replies.push({ text: "long turn done" });
  const { agent, data, provider } = await evictSession(t, replies, 8000);
  await agent.turn("first question");
  await agent.turn("the long question");
  const budget = (agent.windowInfo(null) as any).budget as number;
  agent.close();
  const recs = records(data);
  const narrows = recs.filter((r) => r.kind === "context.narrow");
  t.true(narrows.length >= 2, `${narrows.length} evictions`);
  const long = recs.filter((r) => r.kind === "user.msg")[1];
  const first = recs.filter((r) => r.kind === "user.msg")[0];
  // The first eviction takes the finished turn whole, then rounds of the running one.
  const n0 = narrows[0];
  t.regex(n0.payload.note, new RegExp(`^\\[history evicted: seq ${first.seq}–\\d+ · 1 turns · recall: \\(recall-log :match "text" :before \\d+\\)\\]\\n`));
  t.regex(n0.payload.note, /\n\[turn history evicted: \d+ rounds · seq \d+–\d+ · recall: \(recall-log :match "text" :after \d+ :before \d+\)\]\n\[the evicted cells/);
  const lastN = narrows.at(-1);
  const m = /\[turn history evicted: (\d+) rounds · seq (\d+)–(\d+) · recall: \(recall-log :match "text" :after (\d+) :before (\d+)\)\]/.exec(lastN.payload.note)!;
  t.truthy(m);
  const [rounds, a, b, after, before] = m.slice(1).map(Number) as [number, number, number, number, number];
  t.is(after, a - 1);
  t.is(before, b + 1);
  // The shed rounds begin with the long turn's first reply, and the count is the replies in a–b.
  const replySeqs = recs.filter((r) => r.kind === "llm.resp" && r.seq > long.seq).map((r) => r.seq);
  t.is(a, replySeqs[0]);
  t.is(rounds, replySeqs.filter((s) => s >= a && s <= b).length);
  t.is(lastN.payload.from, replySeqs.find((s) => s > b));
  // Requests after it: the long turn's message first, the stub, then the newest rounds.
  const req = provider.requests.at(-1)!;
  t.deepEqual([req.messages[0]!.role, req.messages[0]!.content], ["user", "the long question"]);
  t.is(req.messages[1]!.content, lastN.payload.note);
  t.true(JSON.stringify(req.messages).includes("j".repeat(100)), "the newest round is kept");
  for (const q of llmReqs(recs)) t.true(q.payload.recipe.tokens <= budget, `request ${q.seq}: ${q.payload.recipe.tokens} of ${budget}`);
  t.is(recs.filter((r) => r.kind === "tool.result").length, 11, "nothing is lost from the log");
});

test("an unknown window is said once and never evicted by guesswork", async (t) => {
  const replies: FakeReply[] = [];
  for (let i = 1; i <= 8; i++) replies.push(...turnReplies(bigCell(`turn ${i}`, 2400), `answer ${i}`));
  const { agent, data, out } = await evictSession(t, replies, 8000, { contextSource: "unknown" });
  for (let i = 1; i <= 8; i++) await agent.turn(`question ${i}`);
  agent.close();
  const recs = records(data);
  t.is(recs.filter((r) => r.kind === "context.narrow").length, 0);
  const said = recs.filter((r) => r.kind === "note" && r.payload.topic === "evict");
  t.is(said.length, 1);
  t.regex(said[0].payload.text, /the model's context window is unknown .* so nothing is evicted/);
  t.is(out.join("").match(/context window is unknown/g)?.length, 1);
});

test("/evict 40% drops the oldest whole turns up to 40% of the retained history, keeps the newest; /compact is its alias; bad percents are said", async (t) => {
  const replies: FakeReply[] = [];
  for (let i = 1; i <= 5; i++) replies.push(...turnReplies(bigCell(`turn ${i}`, 400, String.fromCharCode(96 + i)), `answer ${i}`));
  const { agent, data, out } = await evictSession(t, replies, 100_000);
  for (let i = 1; i <= 5; i++) await agent.turn(`question ${i}`);
  const units = agent.windowUnits() as any[];
  t.is(units.length, 5);
  const total = units.reduce((s, u) => s + u.tokens, 0);
  // The rule by hand: the oldest turns while their sum stays within 40%.
  let expect = 0;
  for (let sum = 0; expect < units.length - 1 && sum + units[expect].tokens <= Math.floor((total * 40) / 100); expect++) sum += units[expect].tokens;
  t.is(expect, 2, "five turns of about the same size: two fit in 40%");
  t.true(await agent.command("evict", "40%"));
  let recs = records(data);
  let narrows = recs.filter((r) => r.kind === "context.narrow");
  t.is(narrows.length, 1);
  t.is(narrows[0].payload.from, units[2].from);
  t.regex(narrows[0].payload.note, /^\[history evicted: seq \d+–\d+ · 2 turns · /);
  t.regex(out.join(""), /evicted 2 turns \(seq \d+–\d+\): the window went from \d+ to \d+ tokens/);
  // /compact 40 is the same command; it keeps the newest turn whatever the share.
  t.true(await agent.command("compact", "100"));
  recs = records(data);
  narrows = recs.filter((r) => r.kind === "context.narrow");
  t.is(narrows.length, 2);
  t.is(narrows[1].payload.from, units[4].from, "the newest turn stays");
  t.regex(narrows[1].payload.note, /^\[history evicted: seq \d+–\d+ · 4 turns · /);
  t.is((agent.windowUnits() as any[]).length, 1);
  for (const bad of ["0", "101", "abc", "40%%", "4.5"]) {
    out.length = 0;
    t.true(await agent.command("evict", bad));
    t.regex(out.join(""), /\/evict takes a percent of the retained history from 1 to 100 \(40 or 40%; default 50\)/);
  }
  // Nothing more to evict: said, no record.
  out.length = 0;
  t.true(await agent.command("evict", ""));
  t.regex(out.join(""), /nothing evicted \(the newest turn always stays/);
  t.is(records(data).filter((r) => r.kind === "context.narrow").length, 2);
  t.false(await agent.command("summarise", ""));
  // The host holds the boundary: an eviction from before the window's first seq is refused, whatever the strategy asks.
  const e = t.throws(() => agent.recordEviction(1, { turns: { from: 1, through: 1, count: 1 }, rounds: null }), { any: true }) as any;
  t.is(e.condition.code, "bad-eviction");
  t.regex(e.condition.message, /record-eviction: :from 1 is before the window's first seq \d+: evicted history never comes back/);
  t.is(records(data).filter((r) => r.kind === "context.narrow").length, 2);
  agent.close();
});

test("/evict with the default of 50%, and 40 without the sign", async (t) => {
  const replies: FakeReply[] = [];
  for (let i = 1; i <= 4; i++) replies.push(...turnReplies(bigCell(`turn ${i}`, 400, String.fromCharCode(96 + i)), `answer ${i}`));
  const { agent, data } = await evictSession(t, replies, 100_000);
  for (let i = 1; i <= 4; i++) await agent.turn(`question ${i}`);
  const units = agent.windowUnits() as any[];
  t.true(await agent.command("evict", ""));
  t.is(records(data).filter((r) => r.kind === "context.narrow")[0].payload.from, units[2].from, "two of four turns are 50%");
  agent.close();
  const replies2: FakeReply[] = [];
  for (let i = 1; i <= 5; i++) replies2.push(...turnReplies(bigCell(`turn ${i}`, 400, String.fromCharCode(96 + i)), `answer ${i}`));
  const s2 = await evictSession(t, replies2, 100_000);
  for (let i = 1; i <= 5; i++) await s2.agent.turn(`question ${i}`);
  const u2 = s2.agent.windowUnits() as any[];
  t.true(await s2.agent.command("evict", "40"));
  t.is(records(s2.data).filter((r) => r.kind === "context.narrow")[0].payload.from, u2[2].from);
  s2.agent.close();
});

test("the boundary only moves forward: an undo of the turn that evicted does not bring the evicted turns back", async (t) => {
  // Each question gets a call of eval, then an answer; "after undo" an answer at once.
  let n = 0;
  const reply: FakeReply = (req) => {
    const last = req.messages.at(-1)!;
    const calls = last.role === "user" && last.content.startsWith("question") ? [{ id: `c${++n}`, name: "eval", arguments: JSON.stringify({ code: bigCell(`turn ${n}`, 2400, String.fromCharCode(96 + n)) }) }] : [];
    return { text: calls.length ? "" : "answered", toolCalls: calls, stopReason: calls.length ? "tool_calls" : "end", usage: { inputTokens: 100, outputTokens: 10, wallMs: 1 }, attempts: 1 };
  };
  const { agent, data, provider } = await evictSession(t, Array.from({ length: 40 }, () => reply), 8000);
  let evictedIn = 0;
  for (let i = 1; i <= 12 && evictedIn === 0; i++) {
    await agent.turn(`question ${String(i).padStart(2, "0")}`);
    if (records(data).some((r) => r.kind === "context.narrow")) evictedIn = i;
  }
  t.true(evictedIn > 0);
  const narrow = records(data).find((r) => r.kind === "context.narrow");
  const m = await agent.undo();
  t.is(m.to, evictedIn - 1);
  await agent.turn("after undo");
  agent.close();
  const recs = records(data);
  t.true(recs.some((r) => r.kind === "head.move"));
  const req = provider.requests.at(-1)!;
  // The stub still stands first; no turn it evicted is back; the undone turn is gone too.
  t.is(req.messages[0]!.content, narrow.payload.note);
  t.false(JSON.stringify(req.messages).includes("question 01"));
  t.false(JSON.stringify(req.messages).includes(`question ${String(evictedIn).padStart(2, "0")}`));
  t.is(req.messages.at(-1)!.content, "after undo");
  // A strategy cannot move it back either.
  t.is(recs.filter((r) => r.kind === "context.narrow").length, 1);
});
