// The long session (issue 16): 300 turns with large tool results under evict.scm with an 8,000-token context — no request over
// the budget, nothing lost from the log, and a fact from turn 3 found again by index-search and read back verbatim by recall.
import test from "ava";
import { join } from "node:path";
import { STDLIB_DIR } from "../../../host/session/node-interpreter.js";
import type { ModelRequest, ModelResponse, ToolCall } from "../../../host/model/types.js";
import { fakeAgent, gitRepo, records } from "./agent-helpers.js";

const TURNS = 300;
const FACT = "deploy key fingerprint: SHA256:zqxvfact3 9f:1c:77:02 (rotated on the 3rd)";

function answer(calls: ToolCall[], text = ""): ModelResponse {
  return { text, toolCalls: calls, stopReason: calls.length > 0 ? "tool_calls" : "end", usage: { inputTokens: 100, outputTokens: 10, wallMs: 1 }, attempts: 1 };
}

test("300 turns with large results under evict.scm in 8,000 tokens: every request within the budget, the log whole, turn 3's fact read back", async (t) => {
  t.timeout(600_000);
  const root = gitRepo(t, { "facts/deploy.txt": `notes of the deploy\n${FACT}\nend\n` });
  let calls = 0;
  const reply = (req: ModelRequest): ModelResponse => {
    const last = req.messages.at(-1)!;
    if (last.role !== "user" || !last.content.startsWith("task ")) return answer([], "done");
    const k = Number(last.content.slice(5));
    const id = `c${++calls}`;
    if (k === 3) return answer([{ id, name: "fs-read", arguments: JSON.stringify({ path: "facts/deploy.txt" }) }]);
    if (k === TURNS)
      return answer([
        {
          id,
          name: "eval",
          arguments: JSON.stringify({
            code:
              ";; find the deploy fingerprint again and read its event back\n" +
              `(let* ((r (index-search "zqxvfact3" "conversation")) (turn (vector-ref (cdr (assq 'turns r)) 0)) (ev (vector-ref (cdr (assq 'events turn)) 0)))\n` +
              "  (cdr (assq 'text (recall (cdr (assq 'seq ev))))))",
          }),
        },
      ]);
    return answer([{ id, name: "eval", arguments: JSON.stringify({ code: `;; turn ${k}: a large result\n(string-append "turn-${k} " (make-string 3000 #\\x))` }) }]);
  };
  const f = fakeAgent(t, root, Array.from({ length: TURNS * 2 + 10 }, () => reply), {
    strategyFile: join(STDLIB_DIR, "strategies", "evict.scm"),
    model: { id: "fake-1", server: "fake", contextWindow: 8000 },
  });
  const agent = await f.open();
  for (let k = 1; k <= TURNS; k++) {
    const r = await agent.turn(`task ${k}`);
    if (r.outcome !== "done") t.fail(`turn ${k}: ${r.outcome} ${r.error ?? ""}`);
  }
  agent.close();
  const recs = records(f.data);
  // No request ever exceeds the budget (the context less the reply's reserve).
  const reqs = recs.filter((r) => r.kind === "llm.req");
  t.is(reqs.length, TURNS * 2);
  const over = reqs.filter((q) => q.payload.recipe.tokens > q.payload.recipe.budget);
  t.deepEqual(over.map((q) => q.seq), []);
  t.is(reqs[0].payload.recipe.budget, 6000);
  t.true(Math.max(...reqs.map((q) => q.payload.recipe.tokens)) <= 6000 * 0.85 + 1);
  const evictions = recs.filter((r) => r.kind === "context.narrow" && r.payload.reason === "evict");
  t.true(evictions.length > 20, `${evictions.length} evictions`);
  // Nothing is lost: every message, every result whole.
  t.is(recs.filter((r) => r.kind === "user.msg").length, TURNS);
  const results = recs.filter((r) => r.kind === "tool.result");
  t.is(results.length, TURNS);
  for (let k = 1; k <= TURNS; k++) {
    if (k === 3 || k === TURNS) continue;
    const out = String(results[k - 1].payload.output);
    if (!out.includes(`turn-${k} ${"x".repeat(3000)}`)) t.fail(`turn ${k}'s result is not whole in the log`);
  }
  t.true(String(results[2].payload.output).includes(FACT));
  // The fact from turn 3, found by index-search and read back verbatim by recall, in turn 300.
  const last = results[TURNS - 1].payload;
  t.true(last.ok, JSON.stringify(last).slice(0, 400));
  t.true(String(last.output).includes(FACT), String(last.output).slice(0, 400));
  // By then turn 3 had long left the window: the last request does not hold it, the stub says how far eviction went.
  const lastReq = reqs.at(-1).payload;
  t.true(lastReq.recipe.narrowed > 0);
  const stub = evictions.at(-1).payload.note as string;
  t.regex(stub, /^\[history evicted: seq \d+–\d+ · \d+ turns · recall: \(recall-log :match "text" :before \d+\)\]\n\[the evicted cells noted and judged/);
  t.regex(stub, /\+\d+ earlier\n/);
});
