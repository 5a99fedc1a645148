// Summaries: span validity, the source digest, each status rule by itself, and what the window shows for each.
import test from "ava";
import { SourceRecords, checkSpan, replayRequest, sourceDigest, summaryLabel } from "../../../host/window/index.js";
import type { LogRecord } from "../../../host/log/index.js";
import { Synth, text } from "./synth.js";

function check(s: Synth, from: number, through: number) {
  const src = new SourceRecords();
  for (const r of s.records) src.add(r);
  return checkSpan(src, from, through, (x) => s.records[x - 1]?.kind);
}

function digest(s: Synth, from: number, through: number): string {
  const c = check(s, from, through);
  if (!c.ok) throw new Error(c.problem);
  return c.digest;
}

function summarise(s: Synth, from: number, through: number, words: string): number {
  return s.add("summary", { from, through, text: words, digest: digest(s, from, through), actor: "person" }).seq;
}

/** Four finished turns, each a question, one fs-read round, an answer. */
function fourTurns(): { s: Synth; turns: { user: number; answer: number }[] } {
  const s = new Synth();
  const turns = [0, 1, 2, 3].map((i) => s.turnWith(`question ${i}`, [text(`FILE${i}`, 300)], `answer ${i}`));
  return { s, turns };
}

test("a span begins at a user.msg: one that begins anywhere else is refused, saying what is there", (t) => {
  const { s, turns } = fourTurns();
  const c1 = check(s, turns[0]!.user + 1, turns[0]!.answer);
  t.false(c1.ok);
  t.regex((c1 as any).problem, /begins at a user\.msg; seq \d+ is an llm\.req record/);
  const c2 = check(s, 9999, 10_000);
  t.regex((c2 as any).problem, /seq 9999 is not in the log/);
  t.regex((check(s, turns[1]!.user, turns[0]!.answer) as any).problem, /ends \(seq \d+\) before it begins/);
  t.true(check(s, turns[0]!.user, turns[0]!.answer).ok);
});

test("a span ends at a completed reply: not at a failed one, one cut at the output limit, a result, or a reply that calls tools", (t) => {
  const s = new Synth();
  const u = s.user("q");
  const failed = s.add("llm.resp", { req_seq: 1, model: "m", error: "the server timed out" }).seq;
  const cut = s.reply("half an ans", [], { stop_reason: "max_tokens" }).seq;
  const calls = s.reply("", [{ name: "fs-read" }]);
  const result = s.result(calls.ids[0] as string, "fs-read", "x");
  const done = s.reply("whole answer").seq;
  t.regex((check(s, u, failed) as any).problem, new RegExp(`seq ${failed} is an incomplete reply \\(it failed: the server timed out\\)`));
  t.regex((check(s, u, cut) as any).problem, new RegExp(`seq ${cut} is an incomplete reply \\(it stopped at the output limit\\)`));
  t.regex((check(s, u, calls.seq) as any).problem, /is a reply with pending tool calls/);
  t.regex((check(s, u, result) as any).problem, /ends at a completed llm\.resp; seq \d+ is a tool\.result record/);
  t.true(check(s, u, done).ok);
});

test("a span with a tool call whose result comes after it has pending tool calls", (t) => {
  const s = new Synth();
  const u = s.user("q");
  const r = s.reply("", [{ name: "fs-read" }, { name: "fs-read" }]);
  s.result(r.ids[0] as string, "fs-read", "one");
  const answer = s.reply("answered before the second result").seq;
  s.result(r.ids[1] as string, "fs-read", "two");
  const c = check(s, u, answer);
  t.false(c.ok);
  t.is((c as any).problem, `the span has pending tool calls: call "${r.ids[1]}" of the reply at seq ${r.seq} has no result inside it`);
});

test("the digest covers the span's records (seq, kind, redacted payload) and nothing else", (t) => {
  const { s, turns } = fourTurns();
  const d = digest(s, turns[0]!.user, turns[0]!.answer);
  const span = s.records.filter((r) => r.seq >= turns[0]!.user && r.seq <= turns[0]!.answer && ["user.msg", "llm.resp", "tool.call", "tool.result"].includes(r.kind));
  t.is(d, sourceDigest(span));
  const changed = span.map((r) => (r.kind === "user.msg" ? ({ ...r, payload: { ...r.payload, text: "question 0!" } } as LogRecord) : r));
  t.not(sourceDigest(changed), d);
});

test("an active summary stands for its span as one assistant message labelled as a revocable summary", (t) => {
  const { s, turns } = fourTurns();
  const seq = summarise(s, turns[0]!.user, turns[1]!.answer, "Two questions about files were answered.");
  const b = s.request();
  const m = b.request.messages;
  const label = summaryLabel({ seq, from: turns[0]!.user, through: turns[1]!.answer, actor: "person" });
  const found = m.filter((x) => x.content.startsWith("[revocable summary"));
  t.is(found.length, 1);
  t.deepEqual(found[0], { role: "assistant", content: `${label}\n\nTwo questions about files were answered.` });
  // It opens the conversation, so a user message comes first; the originals are not in the request.
  t.is(m[0]!.role, "user");
  const json = JSON.stringify(b.request);
  for (const w of ["question 0", "question 1", "FILE0", "FILE1", "answer 0", "answer 1"]) t.false(json.includes(w), w);
  for (const w of ["question 2", "question 3", "FILE3"]) t.true(json.includes(w), w);
  t.deepEqual(b.recipe.summaries, [seq]);
  t.is(s.window.summaries()[0]!.status, "active");
  s.replayAll();
});

test("the latest two user turns are never replaced: such a summary is recent, and applies once its turns are older", (t) => {
  const { s, turns } = fourTurns();
  const seq = summarise(s, turns[2]!.user, turns[3]!.answer, "Turns two and three.");
  t.is(s.window.summaries()[0]!.status, "recent", "its turns are the latest two");
  t.false(JSON.stringify(s.request().request).includes("Turns two and three."));
  s.turnWith("question 4", []);
  t.is(s.window.summaries()[0]!.status, "recent");
  s.user("question 5");
  t.is(s.window.summaries()[0]!.status, "active");
  const b = s.request();
  t.true(JSON.stringify(b.request).includes("Turns two and three."));
  t.deepEqual(b.recipe.summaries, [seq]);
  s.replayAll();
});

test("a changed source makes a summary stale and leaves the originals in the window", (t) => {
  const { s, turns } = fourTurns();
  const good = digest(s, turns[0]!.user, turns[0]!.answer);
  // The same span, made over a source that said something else.
  const stale = s.add("summary", { from: turns[0]!.user, through: turns[0]!.answer, text: "Summary of another conversation.", digest: "sha256:" + "0".repeat(64), actor: "person" }).seq;
  const st = s.window.summaries().find((x) => x.entry.seq === stale)!;
  t.is(st.status, "stale");
  t.regex(st.entry.stale!, /its source changed/);
  t.not(good, "sha256:" + "0".repeat(64));
  const b = s.request();
  t.false(JSON.stringify(b.request).includes("Summary of another conversation."));
  t.true(JSON.stringify(b.request).includes("question 0"));
  // A span that is not valid (it ends at a result) is stale too.
  const resultSeq = s.records.find((r) => r.kind === "tool.result")!.seq;
  s.add("summary", { from: turns[1]!.user, through: resultSeq, text: "bad span", digest: good, actor: "person" });
  t.regex(s.window.summaries().at(-1)!.entry.stale!, /its span is not valid now/);
  s.replayAll();
});

test("a newer overlapping summary supersedes an older one, and dropping or invalidating the newer does not revive it", (t) => {
  const { s, turns } = fourTurns();
  const older = summarise(s, turns[0]!.user, turns[1]!.answer, "OLDER summary");
  const newer = summarise(s, turns[1]!.user, turns[1]!.answer, "NEWER summary");
  const st = () => Object.fromEntries(s.window.summaries().map((x) => [x.entry.seq, x.status]));
  t.deepEqual(st(), { [older]: "superseded", [newer]: "active" });
  let json = JSON.stringify(s.request().request);
  t.false(json.includes("OLDER"));
  t.true(json.includes("NEWER"));
  t.true(json.includes("question 0"), "the older one's span outside the newer is shown whole");
  s.add("summary.drop", { summary_seq: newer, actor: "person" });
  t.deepEqual(st(), { [older]: "superseded", [newer]: "dropped" });
  json = JSON.stringify(s.request().request);
  t.false(json.includes("OLDER"), "not revived");
  t.false(json.includes("NEWER"));
  t.true(json.includes("question 1"));
  // Invalidated (stale) newer summaries do not revive either.
  const third = summarise(s, turns[0]!.user, turns[0]!.answer, "THIRD");
  const fourth = s.add("summary", { from: turns[0]!.user, through: turns[0]!.answer, text: "FOURTH", digest: "sha256:bad", actor: "person" }).seq;
  t.like(st(), { [third]: "superseded", [fourth]: "stale" });
  json = JSON.stringify(s.request().request);
  t.false(json.includes("THIRD"));
  t.false(json.includes("FOURTH"));
  s.replayAll();
});

test("summaries that do not overlap are all active", (t) => {
  const { s, turns } = fourTurns();
  const a = summarise(s, turns[0]!.user, turns[0]!.answer, "S-A");
  const b = summarise(s, turns[1]!.user, turns[1]!.answer, "S-B");
  t.deepEqual(s.window.summaries().map((x) => x.status), ["active", "active"]);
  const built = s.request();
  t.deepEqual(built.recipe.summaries, [a, b]);
  const asst = built.request.messages.filter((m) => m.content.includes("[revocable summary"));
  t.is(asst.length, 2);
  // Two summaries in a row: a user message between them, so no two assistant messages follow each other.
  const i = built.request.messages.indexOf(asst[1]!);
  t.is(built.request.messages[i - 1]!.role, "user");
});

test("replaying an earlier request uses only the prefix before it: a later revocation does not change what was shown then", (t) => {
  const { s, turns } = fourTurns();
  const seq = summarise(s, turns[0]!.user, turns[0]!.answer, "SUMMARISED first turn");
  s.turnWith("question 4", []);
  const withSummary = s.built.at(-1)!;
  t.true(JSON.stringify(withSummary.built.request).includes("SUMMARISED"));
  s.add("summary.drop", { summary_seq: seq, actor: "person" });
  s.turnWith("question 5", []);
  const without = s.built.at(-1)!;
  t.false(JSON.stringify(without.built.request).includes("SUMMARISED"));
  // Both replay to what they were, from the whole log.
  t.true(JSON.stringify(replayRequest(s.records, withSummary.seq).request).includes("SUMMARISED"));
  t.false(JSON.stringify(replayRequest(s.records, without.seq).request).includes("SUMMARISED"));
  t.is(s.replayAll(), s.built.length);
});
