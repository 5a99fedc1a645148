// index-search "conversation" and recall over real logs the agent loop recorded with the scripted provider.
import test from "ava";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConversationMemory, renderSearch } from "../../../host/memory/index.js";
import { gitRepo, logRecords, scriptedSession, testEnv } from "./memory-helpers.js";

function memoryOf(root: string, env: NodeJS.ProcessEnv, session: string, cap = 32_000) {
  return new ConversationMemory({ dataDir: env.NODWYN_DATA_DIR!, session, root, env, capChars: () => cap });
}

const OUT_SH = "printf 'alpha line\\nthe ScrubEnv helper lives here\\nomega\\n'\nprintf 'warn: gizmo\\n' >&2\nexit 1\n";

const REPLIES = [
  { reasoning: "private zebra thinking", tool_calls: [{ name: "shell-exec", arguments: { command: "sh out.sh" } }], usage: { input: 100, output: 20, cost: 0.01 } },
  { text: "ScrubEnv is in host/shell/env.ts.", usage: { input: 150, output: 10, cost: 0.02 } },
  { tool_calls: [{ name: "index-search", arguments: { query: "quokka scrub", scope: "conversation" } }] },
  { tool_calls: [{ name: "recall", arguments: { seq: 3 } }] },
  { text: "I looked back." },
];

test("which events are indexed: messages, replies with calls, results with calls; never thinking, requests, notes, or a search's own call", async (t) => {
  const root = gitRepo(t, { "a.txt": "alpha\n", "out.sh": OUT_SH });
  const env = testEnv(t);
  const s = await scriptedSession(t, { root, env, replies: REPLIES, messages: ["where is scrub env?", "look back for quokka"], more: { notes: ["a host noteword here"] } });
  const recs = logRecords(s.log);
  t.true(recs.some((r) => r.kind === "note" && /noteword/.test(r.payload.text)));
  t.true(recs.some((r) => r.kind === "llm.resp" && r.payload.thinking === "private zebra thinking"));
  const mem = memoryOf(root, env, s.id);
  const scrub = mem.searchConversation("scrub", 20);
  const seqs = scrub.turns.flatMap((g) => g.events.map((e) => e.seq));
  const kindAt = (seq: number) => recs[seq - 1].kind;
  t.deepEqual(new Set(seqs.map(kindAt)), new Set(["user.msg", "llm.resp", "tool.result"]));
  // The result of the shell call is found, and the message; the search call of turn 2 and its result are not.
  const searchCall = recs.find((r) => r.kind === "tool.call" && r.payload.tool === "index-search");
  const searchResult = recs.find((r) => r.kind === "tool.result" && r.payload.tool === "index-search");
  const searchReply = recs.find((r) => r.kind === "llm.resp" && (r.payload.tool_calls ?? []).some((c: any) => c.name === "index-search"));
  t.false(seqs.includes(searchResult.seq));
  t.false(seqs.includes(searchReply.seq));
  t.falsy(searchCall && seqs.includes(searchCall.seq));
  t.is(mem.searchConversation("quokka", 20).found, 1, "quokka is only in the person's message, not the search's own call");
  t.is(mem.searchConversation("zebra", 20).found, 0, "thinking is never indexed");
  t.is(mem.searchConversation("noteword", 20).found, 0, "note records are never indexed");
  t.is(mem.searchConversation("coding agent", 20).found, 0, "requests (the system text) are never indexed");
  // The recall's result is not indexed either (it repeats seq 3).
  const recallResult = recs.find((r) => r.kind === "tool.result" && r.payload.tool === "recall");
  t.truthy(recallResult);
  t.false(mem.searchConversation("where scrub env", 50).turns.flatMap((g) => g.events.map((e) => e.seq)).includes(recallResult.seq));
});

test("events under their turn's card line, each with its three best lines numbered as recall numbers them", async (t) => {
  const root = gitRepo(t, { "a.txt": "alpha\n", "out.sh": OUT_SH });
  const env = testEnv(t);
  const s = await scriptedSession(t, { root, env, replies: REPLIES, messages: ["where is scrub env?", "look back for quokka"] });
  const recs = logRecords(s.log);
  const mem = memoryOf(root, env, s.id);
  const r = mem.searchConversation("ScrubEnv helper", 8);
  const result = recs.find((x) => x.kind === "tool.result" && x.payload.tool === "shell-exec");
  const g = r.turns.find((x) => x.events.some((e) => e.seq === result.seq))!;
  t.is(g.turn, 1);
  t.regex(g.card, /^turn 1 \(seq \d+-\d+\) · done · (\d+ ms|\d+\.\d s) · \$0\.0300 · asked: "where is scrub env\?"$/);
  const ev = g.events.find((e) => e.seq === result.seq)!;
  t.regex(ev.heading, new RegExp(`^seq ${result.seq}, the result of shell-exec \\{"command":.*\\}, which failed \\(exit 1\\)$`));
  // The output as the model read it: exit 1, stdout, [stderr], then the error line.
  t.deepEqual(ev.lines.map((l) => l.line), [3]);
  t.is(ev.lines[0]!.text, "the ScrubEnv helper lives here");
  const rc = mem.recall(result.seq, 3, 1, null);
  t.deepEqual(rc.lines, ["the ScrubEnv helper lives here"], "line 3 of the recall is the line the search numbered 3");
  const text = renderSearch(r, "conversation");
  t.true(text.includes(`  seq ${result.seq}, the result of shell-exec`));
  t.true(text.includes("    3: the ScrubEnv helper lives here"));
});

test("recall: heading, lines as a ranged fs-read, a shell result whole, a reply naming its results, a turn's first message with its card", async (t) => {
  const root = gitRepo(t, { "a.txt": "alpha\n", "out.sh": OUT_SH });
  const env = testEnv(t);
  const s = await scriptedSession(t, { root, env, replies: REPLIES, messages: ["where is scrub env?", "look back for quokka"] });
  const recs = logRecords(s.log);
  const mem = memoryOf(root, env, s.id);
  const result = recs.find((x) => x.kind === "tool.result" && x.payload.tool === "shell-exec");
  const whole = mem.recall(result.seq, 0, 0, null);
  t.deepEqual(whole.lines.slice(0, 6), ["exit 1", "alpha line", "the ScrubEnv helper lives here", "omega", "[stderr]", "warn: gizmo"]);
  t.true(whole.text.includes(`[lines 1-${whole.total} of ${whole.total}]`));
  t.regex(whole.text.split("\n")[0]!, new RegExp(`^seq ${result.seq}, the result of shell-exec \\{.*\\}, which failed \\(exit 1\\) \\(turn 1\\)$`));
  const part = mem.recall(result.seq, 2, 2, null);
  t.deepEqual(part.lines, ["alpha line", "the ScrubEnv helper lives here"]);
  t.true(part.text.includes(`[lines 2-3 of ${whole.total}]`));
  t.true(part.text.includes(`(recall ${result.seq} 4 2) reads on`));
  // A reply names the seq of its call's result.
  const reply = recs.find((x) => x.kind === "llm.resp" && (x.payload.tool_calls ?? []).some((c: any) => c.name === "shell-exec"));
  const rr = mem.recall(reply.seq, 0, 0, null);
  t.deepEqual(rr.results, [{ call: reply.payload.tool_calls[0].id, tool: "shell-exec", seq: result.seq }]);
  t.true(rr.text.includes(`shell-exec → seq ${result.seq}`));
  t.false(rr.text.includes("zebra"), "a reply's thinking is not shown");
  // A turn's first message: its card and every event of the turn.
  const msg = recs.find((x) => x.kind === "user.msg");
  const m = mem.recall(msg.seq, 0, 0, null);
  t.regex(m.card![0]!, /^turn 1 \(seq \d+-\d+\) · done/);
  t.true(m.card!.some((l) => l === "commands: sh out.sh → exit 1"));
  const end = recs.find((x) => x.kind === "turn.end").seq;
  const want = recs.filter((x) => x.seq >= msg.seq && x.seq <= end && ["user.msg", "llm.resp", "tool.result"].includes(x.kind)).map((x) => x.seq);
  t.deepEqual(m.events!.map((e) => e.seq), want);
  t.true(m.text.includes("| events: "));
});

test("recall stops at a whole line within the window's cut for one result", async (t) => {
  const root = gitRepo(t, { "a.txt": "alpha\n", "out.sh": OUT_SH });
  const env = testEnv(t);
  const lines = Array.from({ length: 200 }, (_, i) => `line number ${i + 1} of a long listing`);
  writeFileSync(join(root, "long.txt"), lines.join("\n") + "\n");
  const s = await scriptedSession(t, { root, env, replies: [{ tool_calls: [{ name: "shell-exec", arguments: { command: "cat long.txt" } }] }, { text: "read it" }], messages: ["show the long file"] });
  const recs = logRecords(s.log);
  const result = recs.find((x) => x.kind === "tool.result" && x.payload.tool === "shell-exec");
  const cap = 2000;
  const r = memoryOf(root, env, s.id, cap).recall(result.seq, 0, 0, null);
  t.is(r.total, 201, r.text.slice(0, 600));
  const used = r.lines.reduce((a, l) => a + l.length + 1, 0);
  t.true(used <= cap);
  const next = `line number ${r.end} of a long listing`;
  t.true(used + next.length + 1 > cap, "one more whole line would pass the cut");
  t.is(r.lines.at(-1), `line number ${r.end - 1} of a long listing`);
  t.true(r.text.includes(`[lines 1-${r.end} of 201]`));
});

test("a running session folds its unfinished turn from the records it holds, and reads from its log only the whole turns the .mem file lacks", async (t) => {
  const root = gitRepo(t, { "a.txt": "alpha\n" });
  const env = testEnv(t);
  const replies = [
    { tool_calls: [{ name: "shell-exec", arguments: { command: "printf 'koala one\\n'" } }] },
    { text: "done one" },
    { tool_calls: [{ name: "shell-exec", arguments: { command: "printf 'wombat two\\n'" } }] },
    { tool_calls: [{ name: "index-search", arguments: { query: "wombat", scope: "conversation" } }] },
    { text: "found it" },
    { tool_calls: [{ name: "index-search", arguments: { query: "koala wombat", scope: "conversation" } }] },
    { text: "both" },
  ];
  const s = await scriptedSession(t, { root, env, replies, messages: ["first look"], keepOpen: true });
  const mem = s.agent.session.memory;
  const ends = () => {
    // Where each turn.end line of the log ends, in bytes.
    const out: number[] = [];
    let at = 0;
    for (const line of readFileSync(s.log).toString("utf8").split("\n").filter(Boolean)) {
      at += Buffer.byteLength(line) + 1;
      if (JSON.parse(line).kind === "turn.end") out.push(at);
    }
    return out;
  };
  await s.agent.turn("second look");
  const recs = logRecords(s.log);
  const found = recs.find((r) => r.kind === "tool.result" && r.payload.tool === "index-search");
  t.regex(String(found.payload.output), /wombat two/, "the search in turn 2 finds turn 2's own result");
  // Only turn 1 was read from the log at that search (it was whole and in no .mem file yet); turn 2's records were held.
  const [end1, end2] = ends();
  await s.agent.turn("third look");
  const third = logRecords(s.log).filter((r) => r.kind === "tool.result" && r.payload.tool === "index-search")[1];
  t.regex(String(third.payload.output), /koala one/);
  t.regex(String(third.payload.output), /wombat two/);
  const opened = mem.lastOpened;
  t.is(opened.length, 1);
  t.is(opened[0]!.action, "extended");
  t.is(opened[0]!.logBytesRead, end2! - end1!, "the third turn's search reads turn 2 from the log, nothing of turn 1, nothing of turn 3");
  s.agent.close();
  // The same answers from a fresh file, read from the log alone.
  const fresh = memoryOf(root, env, s.id).searchConversation("koala wombat", 8);
  t.deepEqual(fresh.turns.flatMap((g) => g.events.map((e) => e.seq)).sort(), mem.searchConversation("koala wombat", 8).turns.flatMap((g) => g.events.map((e) => e.seq)).sort());
});
