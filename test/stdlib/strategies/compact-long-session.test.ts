// The long session under compact.scm: 300 turns with large tool results in a context of 8,000 tokens; no request over the budget, nothing lost from the log, a fact from turn 3 found and read back verbatim.
import test from "ava";
import { readLog, verifyLog } from "../../../host/log/index.js";
import { replayRequest } from "../../../host/window/index.js";
import type { ModelRequest, ModelResponse } from "../../../host/model/types.js";
import { FakeModel } from "../../helpers/fake-model.js";
import { fakeAgent, gitRepo, records } from "../../host/session/agent-helpers.js";

const TURNS = 300;
const CONTEXT = 8000;
const RESULT_CHARS = 2400; // each turn's eval result: ~600 estimated tokens
const FACT = "FACT-3: the release tag is v3.14.15-rc2 and the signing key id is K-2718";

function reply(text: string, calls: { name: string; args: unknown }[] = [], n = 0): ModelResponse {
  const toolCalls = calls.map((c, i) => ({ id: `call-${n}-${i}`, name: c.name, arguments: JSON.stringify(c.args) }));
  return { text, toolCalls, stopReason: toolCalls.length > 0 ? "tool_calls" : "end", usage: { inputTokens: 100, outputTokens: 20, wallMs: 1 }, attempts: 1 };
}

test(`compact.scm, ${TURNS} turns of large results in a ${CONTEXT}-token context: every request within the budget, the whole log kept, turn 3's fact recalled verbatim`, async (t) => {
  t.timeout(600_000);
  let n = 0;
  let notes = 0;
  const finalSteps: { name: string; args: unknown }[] = [
    { name: "recall-log", args: { match: "%release tag is%", kinds: ["tool.result"] } },
    { name: "index-search", args: { query: "release tag signing key", scope: "conversation" } },
    { name: "recall-entry", args: { seq: 0 } }, // seq filled from recall-log's row
  ];
  let step = 0;
  let factSeq = 0;
  const answer = (req: ModelRequest): ModelResponse => {
    n++;
    const last = req.messages.at(-1)!;
    if (last.role === "user" && last.content.includes("Write a handover note")) {
      notes++;
      const seqs = [...last.content.matchAll(/seq (\d+)/g)].map((m) => m[1]);
      return reply(`Handover ${notes}: filling the log turn by turn; each turn evaluated a long string. Sources: ${seqs.slice(0, 6).map((s) => `(seq ${s})`).join(" ")}`, [], n);
    }
    const firstUser = [...req.messages].reverse().find((m) => m.role === "user" && /^turn \d+$|^find the fact$/.test(m.content));
    const text = firstUser?.content ?? "";
    if (text === "find the fact") {
      if (last.role === "tool" && step > 0 && step <= finalSteps.length) {
        if (step === 1) factSeq = Number(/^seq (\d+)/.exec(last.content)?.[1] ?? 0);
      }
      if (step < finalSteps.length) {
        const s = finalSteps[step++]!;
        return reply("", [s.name === "recall-entry" ? { name: s.name, args: { seq: factSeq } } : s], n);
      }
      return reply("the fact is back", [], n);
    }
    if (last.role === "tool") return reply(`${text} done`, [], n);
    const k = Number(text.split(" ")[1]);
    const body = k === 3 ? `${FACT} ` : `result of turn ${k} `;
    return reply("", [{ name: "eval", args: { code: `(string-append "${body}" (make-string ${RESULT_CHARS} #\\z))` } }], n);
  };
  const root = gitRepo(t, { "a.txt": "alpha\n" });
  const f = fakeAgent(t, root, [], { model: { id: "fake-1", server: "fake", contextWindow: CONTEXT }, provider: new FakeModel(Array.from({ length: 5000 }, () => answer)) });
  const provider = f.opts.provider as FakeModel;
  const agent = await f.open();
  for (let k = 1; k <= TURNS; k++) {
    const r = await agent.turn(`turn ${k}`);
    if (r.outcome !== "done") t.fail(`turn ${k}: ${r.outcome} ${r.error ?? ""}`);
  }
  const last = await agent.turn("find the fact");
  t.is(last.outcome, "done");
  agent.close();

  const recs = records(f.data);
  // Compactions happened, each recorded whole; none gave up.
  const compactions = recs.filter((r) => r.kind === "context.compact");
  t.true(compactions.length >= 10, `${compactions.length} compactions`);
  for (const c of compactions) {
    t.like(c.payload, { trigger: "auto", compacted: true });
    t.true(c.payload.after_tokens < c.payload.before_tokens);
    t.true(c.payload.before_tokens >= c.payload.threshold);
  }
  // Every request within the budget: as the recipe counted it, and by a lower bound from what the model got.
  const reqs = recs.filter((r) => r.kind === "llm.req");
  t.is(reqs.length, provider.requests.length);
  for (const q of reqs) t.true(q.payload.recipe.tokens <= q.payload.recipe.budget, `llm.req ${q.seq}: ${q.payload.recipe.tokens} > ${q.payload.recipe.budget}`);
  const budget = reqs[0].payload.recipe.budget;
  t.is(budget, CONTEXT - CONTEXT / 4);
  for (const q of provider.requests) {
    const chars = q.messages.reduce((s, m) => s + m.content.length, 0) + q.system.length;
    t.true(chars / 4 <= budget, `a request of ${chars} characters`);
  }
  // Nothing lost: every message, every result whole, the log intact; every request replays to its digest.
  t.is(recs.filter((r) => r.kind === "user.msg").length, TURNS + 1);
  t.is(recs.filter((r) => r.kind === "turn.end" && r.payload.outcome === "done").length, TURNS + 1);
  const results = recs.filter((r) => r.kind === "tool.result" && r.payload.tool === "eval");
  // (A turn whose round passed the threshold goes on from the note, and the model may evaluate again: at least one each.)
  t.true(results.length >= TURNS);
  const bodies = new Set(results.map((r) => /^=> "(FACT-3|result of turn \d+)[: ]/.exec(r.payload.output)?.[1]));
  for (let k = 1; k <= TURNS; k++) t.true(bodies.has(k === 3 ? "FACT-3" : `result of turn ${k}`), `turn ${k}'s result is in the log`);
  for (const r of results) t.true(r.payload.output.endsWith(`${"z".repeat(RESULT_CHARS)}"`));
  const v = verifyLog(agent.writer.file);
  t.is(v.tail, null);
  t.is(v.records, recs.length);
  t.is(v.lastSeq, recs.at(-1).seq);
  const all = [...readLog(agent.writer.file)];
  for (const q of all.filter((r) => r.kind === "llm.req").slice(-40)) t.is(replayRequest(all, q.seq).digest, (q.payload as any).digest);
  // Turn 3's fact: long gone from the window, found by recall-log and index-search, read back verbatim.
  const fact = results.find((r) => r.payload.output.includes(FACT));
  t.truthy(fact);
  t.true(factSeq === fact.seq, `recall-log's row is seq ${factSeq}, the fact is seq ${fact.seq}`);
  const ask = provider.requests.find((q) => q.messages.at(-1)?.content === "find the fact");
  t.truthy(ask);
  t.false(JSON.stringify(ask!.messages).includes("v3.14.15-rc2"), "the fact is not in the window before it is recalled");
  const finals = recs.filter((r) => r.kind === "tool.result" && r.seq > recs.filter((x) => x.kind === "user.msg").at(-1).seq);
  t.deepEqual(finals.map((r) => r.payload.tool), ["recall-log", "index-search", "recall-entry"]);
  t.true(finals[0].payload.output.includes(`seq ${fact.seq} `) && finals[0].payload.output.includes(FACT), finals[0].payload.output.slice(0, 400));
  t.true(finals[1].payload.output.includes(String(fact.seq)), finals[1].payload.output.slice(0, 600));
  t.true(finals[2].payload.output.includes(`${FACT} ${"z".repeat(RESULT_CHARS)}`), "recall-entry reads the result back whole");
});
