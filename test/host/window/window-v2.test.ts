// window-v2: messages, caps and the shell clip, sticky elision and its reset, collapse, the roles every provider accepts, narrowing.
import test from "ava";
import { createHash } from "node:crypto";
import {
  CHARS4_V1,
  CHARS4_V2,
  GLUE_TEXT,
  SourceRecords,
  checkSpan,
  recipeContext,
  LOW_WATER,
  MISSING_RESULT_TEXT,
  WindowError,
  canonicalJson,
  resultCapChars,
  textTokensV2,
  type BuiltWindowV2,
} from "../../../host/window/index.js";
import { anthropicMessages } from "../../../host/model/anthropic.js";
import type { Message } from "../../../host/model/types.js";
import { Synth, text } from "./synth.js";

const sha = (s: string) => "sha256:" + createHash("sha256").update(s, "utf8").digest("hex");

/** The tool messages of a request by call id. */
function toolsById(b: BuiltWindowV2): Map<string, Message & { role: "tool" }> {
  const m = new Map<string, Message & { role: "tool" }>();
  for (const x of b.request.messages) if (x.role === "tool") m.set(x.toolCallId, x);
  return m;
}

/** The tokens of a request as its recipe's estimator counts them. */
function tokensOf(b: BuiltWindowV2): number {
  let n = CHARS4_V2.text(b.request.system) + CHARS4_V2.text(canonicalJson(b.request.tools));
  for (const m of b.request.messages) n += CHARS4_V2.message(m);
  return n;
}

test("user.msg, replies and results become messages; a failed or empty reply shows nothing; other kinds are not in it", (t) => {
  const s = new Synth();
  s.user("hello");
  s.add("note", { text: "not in the window" });
  const r = s.reply("Let me look.", [{ name: "fs-read", args: { path: "a" } }]);
  s.add("guard.decision", { path: "a", op: "read", decision: "allow" });
  s.result(r.ids[0] as string, "fs-read", "alpha", false, "it went wrong");
  s.add("llm.req", { model: "m" });
  s.add("llm.resp", { req_seq: 1, model: "m", error: "timeout" });
  s.reply("");
  s.reply("Done.");
  const b = s.window.build(s.params());
  t.deepEqual(b.request.messages, [
    { role: "user", content: "hello" },
    { role: "assistant", content: "Let me look.", toolCalls: [{ id: "c1", name: "fs-read", arguments: '{"path":"a"}' }] },
    { role: "tool", toolCallId: "c1", name: "fs-read", content: "alpha\nerror: it went wrong", isError: true },
    { role: "assistant", content: "Done." },
  ]);
  t.is(b.recipe.name, "window-v2");
  t.like(b.recipe, { low_water: LOW_WATER, shell_clip: [1500, 6000], estimator: { name: "chars4", version: 2 }, first_seq: 2 });
  t.is(b.digest, sha(canonicalJson(b.request)));
  t.is(b.tokens, tokensOf(b));
});

test("a shell-exec result keeps its first 1,500 and last 6,000 characters, and the cut names the seq that holds it whole", (t) => {
  const s = new Synth();
  s.user("run it");
  const r = s.reply("", [{ name: "shell-exec", args: { command: "x" } }]);
  const whole = "exit 0\n" + Array.from({ length: 2000 }, (_, i) => `line ${i}`).join("\n");
  const seq = s.result(r.ids[0] as string, "shell-exec", whole);
  const got = toolsById(s.window.build(s.params())).get(r.ids[0] as string)!.content;
  t.is(got, `${whole.slice(0, 1500)}\n[… ${whole.length - 7500} characters cut: seq ${seq} holds the whole result …]\n${whole.slice(-6000)}`);
  // Output within 7,500 characters is whole.
  const s2 = new Synth();
  s2.user("run it");
  const r2 = s2.reply("", [{ name: "shell-exec" }]);
  s2.result(r2.ids[0] as string, "shell-exec", "x".repeat(7500));
  t.is(toolsById(s2.window.build(s2.params())).get(r2.ids[0] as string)!.content, "x".repeat(7500));
});

test("any other result is capped at a quarter of the usable context, between 2,000 and 32,000 characters", (t) => {
  t.is(resultCapChars(100_000, 4096), 32_000);
  t.is(resultCapChars(8_000, 2_000), 6_000);
  t.is(resultCapChars(4_000, 3_000), 2_000);
  const s = new Synth(8_000, 2_000);
  s.user("read");
  const r = s.reply("", [{ name: "fs-read" }]);
  const whole = text("T", 20_000);
  const seq = s.result(r.ids[0] as string, "fs-read", whole);
  const got = toolsById(s.window.build(s.params())).get(r.ids[0] as string)!.content;
  t.is(got, `${whole.slice(0, 4500)}\n[… ${20_000 - 6000} characters cut: seq ${seq} holds the whole result …]\n${whole.slice(-1500)}`);
  // A small context scales the shell clip down in the seed's proportions (a fifth head, the rest tail).
  const z = new Synth(4_000, 3_000);
  z.user("run");
  const q = z.reply("", [{ name: "shell-exec" }]);
  const out = text("S", 9_000);
  const zs = z.result(q.ids[0] as string, "shell-exec", out);
  t.is(toolsById(z.window.build(z.params())).get(q.ids[0] as string)!.content, `${out.slice(0, 400)}\n[… 7000 characters cut: seq ${zs} holds the whole result …]\n${out.slice(-1600)}`);
});

test("chars4 v2 counts an ASCII character a quarter of a token and any other code unit a whole one; v1 stays as it was", (t) => {
  t.is(textTokensV2("abcd"), 1);
  t.is(textTokensV2("abcde"), 2);
  t.is(textTokensV2("日本語"), 3);
  t.is(textTokensV2("ab日"), 2); // (2 + 4) / 4, rounded up
  t.is(CHARS4_V1.text("日本語日本語日本"), 2);
  t.is(CHARS4_V2.message({ role: "tool", toolCallId: "x", name: "eval", content: "日" }), 4 + 1 + 1);
});

/** A session in a small context whose results overflow it: returns the Synth after `turns` turns of `rounds` results each. */
function overflowing(turns: number, rounds: number, size = 4_000): Synth {
  const s = new Synth(8_000, 1_000);
  for (let i = 0; i < turns; i++) s.turnWith(`question ${i}`, Array.from({ length: rounds }, (_, k) => text(`R${i}x${k}`, size)));
  return s;
}

test("when a request would not fit, old replies and results become [elided seq=N], oldest first, down to the low water", (t) => {
  const s = overflowing(9, 1);
  const results = s.records.filter((r) => r.kind === "tool.result");
  const last = s.built.at(-1)!.built;
  const avail = 8_000 - 1_000;
  t.true(last.tokens <= avail, `${last.tokens} fits in ${avail}`);
  const tools = toolsById(last);
  const elided = results.filter((r) => tools.get(String(r.payload.call_id))!.content.startsWith("[elided"));
  t.true(elided.length > 0);
  // Oldest first: the elided ones are a prefix of the results, each marker naming its own seq.
  t.deepEqual(elided, results.slice(0, elided.length));
  for (const r of elided) t.is(tools.get(String(r.payload.call_id))!.content, `[elided seq=${r.seq}]`);
  // An elided reply keeps its calls (each result keeps its call) with the arguments left out.
  const replies = last.request.messages.filter((m) => m.role === "assistant" && m.content.startsWith("[elided seq="));
  t.true(replies.length > 0);
  for (const m of replies) if (m.role === "assistant") for (const c of m.toolCalls ?? []) t.is(c.arguments, "{}");
  t.true((last.recipe.elided_through ?? 0) >= elided.at(-1)!.seq);
  // The elision step that made room went down to the low water, not just under the line.
  const step = s.built.find((x) => x.built.recipe.elided_through !== undefined)!.built;
  const fixed = CHARS4_V2.text(step.request.system) + CHARS4_V2.text(canonicalJson(step.request.tools));
  const before = s.built[s.built.findIndex((x) => x.built === step) - 1]!.built;
  t.true(before.tokens + 1_100 > avail, "the request before it would not have fit with the next round");
  t.true(step.tokens - fixed <= Math.floor((avail - fixed) * LOW_WATER), `${step.tokens - fixed} ≤ ${LOW_WATER} × ${avail - fixed}`);
  t.is(s.replayAll(), s.built.length);
});

test("elision is sticky: between two steps each request is the previous one plus what the log gained", (t) => {
  const s = overflowing(14, 1, 3_000);
  let steps = 0;
  let sharedOk = 0;
  for (let i = 1; i < s.built.length; i++) {
    const a = s.built[i - 1]!.built;
    const b = s.built[i]!.built;
    const prefix = b.request.messages.slice(0, a.request.messages.length);
    if (a.recipe.elided_through === b.recipe.elided_through && JSON.stringify(a.recipe.collapsed) === JSON.stringify(b.recipe.collapsed)) {
      t.deepEqual(prefix, a.request.messages, `request ${i} extends request ${i - 1}`);
      sharedOk++;
    } else {
      steps++;
      t.true((b.recipe.elided_through ?? 0) >= (a.recipe.elided_through ?? 0), "the frontier only moves forward");
    }
  }
  t.true(steps >= 2, `${steps} elision steps`);
  t.true(sharedOk > steps * 2, `${sharedOk} requests extend the one before`);
  s.replayAll();
});

test("a summary, its drop and a narrowing reset the decisions: the policy recomputes from the source", (t) => {
  const s = overflowing(9, 1);
  const before = s.request();
  t.truthy(before.recipe.elided_through);
  // A summary of the first three turns: the window recomputes, and with the room it makes, elides less.
  const users = s.records.filter((r) => r.kind === "user.msg").map((r) => r.seq);
  const answers = s.records.filter((r) => r.kind === "llm.resp" && !r.payload.tool_calls).map((r) => r.seq);
  const digest = spanDigest(s, users[0]!, answers[2]!);
  s.add("summary", { from: users[0], through: answers[2], text: "The first three questions were answered.", digest, actor: "person" });
  const after = s.request();
  t.true(after.request.messages.some((m) => m.role === "assistant" && m.content.includes("The first three questions were answered.")));
  t.true((after.recipe.elided_through ?? 0) < (before.recipe.elided_through ?? 0), "fewer elided once the summary made room");
  // Dropping it brings the originals back, and the decisions start again from them.
  s.add("summary.drop", { summary_seq: s.last - 1, actor: "person" });
  const dropped = s.request();
  t.false(dropped.request.messages.some((m) => m.content.includes("The first three questions were answered.")));
  t.deepEqual(dropped.recipe.summaries, undefined);
  t.true((dropped.recipe.elided_through ?? 0) > 0);
  s.replayAll();
});

/** The digest a summary of from..through records (as nodwyn summary computes it). */
function spanDigest(s: Synth, from: number, through: number): string {
  const src = new SourceRecords();
  for (const r of s.records) src.add(r);
  const c = checkSpan(src, from, through, (x) => s.records[x - 1]?.kind);
  if (!c.ok) throw new Error(c.problem);
  return c.digest;
}

test("when the markers alone do not fit, old units collapse into one [elided seq=A-B]; the latest two user messages stay whole", (t) => {
  const s = new Synth(3_000, 500);
  const users: number[] = [];
  for (let i = 0; i < 60; i++) users.push(s.turnWith(`q${i} ${text(`U${i}`, 200)}`, [text(`R${i}`, 1_500)]).user);
  const b = s.request();
  const first = b.request.messages[0]!;
  t.is(first.role, "user");
  t.regex(first.content, /^\[elided seq=\d+-\d+\]$/);
  const [, a, z] = /seq=(\d+)-(\d+)/.exec(first.content)!;
  t.is(Number(a), users[0]);
  t.true(b.recipe.collapsed!.length >= 1);
  t.deepEqual(b.recipe.collapsed![0], [Number(a), Number(z)]);
  // The latest two user messages are whole, in order.
  const recs = s.records;
  for (const u of users.slice(-2)) t.true(b.request.messages.some((m) => m.role === "user" && m.content === recs[u - 1]!.payload.text));
  t.true(b.tokens <= 2_500);
  // Nothing of a collapsed event is in the request.
  const json = JSON.stringify(b.request);
  t.false(json.includes("U0 "));
  t.false(json.includes("R0 "));
  s.replayAll();
});

test("the newest round is elided last and only as far as it must; a request that cannot fit at all is an overflow", (t) => {
  const s = new Synth(3_000, 500);
  s.user("read four big files");
  const r = s.reply("", [{ name: "fs-read" }, { name: "fs-read" }, { name: "fs-read" }, { name: "fs-read" }]);
  for (const id of r.ids) s.result(id, "fs-read", text(id, 3_000)); // capped at 2,500 characters each: four do not fit
  const b = s.request();
  const tools = [...toolsById(b).values()];
  t.true(b.tokens <= 2_500);
  t.is(tools.filter((m) => m.content.startsWith("[elided")).length, 1, "one of the four had to go, the oldest");
  t.is(tools[0]!.content.startsWith("[elided"), true);
  // A person's message larger than the whole budget cannot be sent.
  const big = new Synth(3_000, 500);
  big.user(text("huge", 12_000));
  const e = t.throws(() => big.window.build(big.params()), { instanceOf: WindowError });
  t.is(e!.code, "overflow");
  t.regex(e!.message, /cannot fit in the model's context/);
});

test("every request starts with a user message and never has two assistant messages in a row", (t) => {
  // A strategy that sends twice without a message in between (the plan-first example) …
  const s = new Synth();
  s.user("plan, then act");
  s.request();
  s.reply("1. Look.");
  s.request();
  s.reply("Done.");
  const b = s.window.build(s.params([{ role: "assistant", content: "Continuing:" }]));
  t.deepEqual(
    b.request.messages.map((m) => [m.role, m.content]),
    [
      ["user", "plan, then act"],
      ["assistant", "1. Look."],
      ["user", GLUE_TEXT],
      ["assistant", "Done."],
      ["user", GLUE_TEXT],
      ["assistant", "Continuing:"],
    ],
  );
  // … and Anthropic's wire form of it alternates, starting with the user.
  const turns = anthropicMessages(b.request);
  t.is(turns[0]!.role, "user");
  for (let i = 1; i < turns.length; i++) t.not(turns[i]!.role, turns[i - 1]!.role);
  // A context narrowed to a reply (a handover note) begins with a user message before it.
  const n = new Synth();
  n.user("long work");
  n.request();
  const note = n.reply("Handover: the task is X; done Y; left Z.").seq;
  n.end();
  n.add("context.narrow", { reason: "compact", resp_seq: note, lasting: true });
  n.user("go on");
  const nb = n.window.build(n.params());
  t.deepEqual(nb.request.messages.map((m) => [m.role, m.content]), [
    ["user", GLUE_TEXT],
    ["assistant", "Handover: the task is X; done Y; left Z."],
    ["user", "go on"],
  ]);
  t.is(anthropicMessages(nb.request)[0]!.role, "user");
  n.request();
  n.replayAll();
});

test("a narrowing shows its note where the history was, keeps the running turn's message, and starts at :from", (t) => {
  const s = new Synth();
  s.turnWith("first", [text("A", 100)]);
  const u2 = s.user("second: read two files");
  const r1 = s.round("fs-read", text("B", 100));
  s.round("fs-read", text("C", 100));
  // Evict the running turn's first round: the stub replaces it, the turn's message stays.
  s.add("context.narrow", { reason: "evict", note: `[turn history evicted: 1 rounds · seq ${r1.resp}–${r1.result}]`, from: r1.result + 1, lasting: true });
  const b = s.window.build(s.params());
  t.deepEqual(b.request.messages.slice(0, 2), [
    { role: "user", content: "second: read two files" },
    { role: "user", content: `[turn history evicted: 1 rounds · seq ${r1.resp}–${r1.result}]` },
  ]);
  const json = JSON.stringify(b.request);
  t.false(json.includes("A lorem"), "the first turn is gone");
  t.false(json.includes("B lorem"), "the evicted round is gone");
  t.true(json.includes("C lorem"), "the newest round stays");
  t.is(b.recipe.narrowed, s.last);
  t.is(b.recipe.first_seq, u2);
  s.request();
  s.replayAll();
});

test("a fold ends the innermost sub-context and hides its events; a lasting narrowing is not folded", (t) => {
  const s = new Synth();
  s.turnWith("outer question", [text("OUT", 100)]);
  const u = s.user("explore something");
  const narrow = s.add("context.narrow", { reason: "explore", note: "Sub-task: find the config reader.", label: "explore" }).seq;
  s.request();
  const r = s.reply("Looking.", [{ name: "fs-read" }]);
  s.result(r.ids[0] as string, "fs-read", text("INNER", 200));
  const inside = s.window.build(s.params());
  t.deepEqual(inside.request.messages.slice(0, 2).map((m) => m.content), ["explore something", "Sub-task: find the config reader."]);
  t.false(JSON.stringify(inside.request).includes("outer question"), "inside the sub-context the outer one is not shown");
  s.add("context.fold", { narrow_seq: narrow, reason: "done" });
  s.request();
  s.reply("The config is read in load.ts.");
  const after = s.window.build(s.params());
  const json = JSON.stringify(after.request);
  t.true(json.includes("outer question"));
  t.true(json.includes("explore something"));
  t.false(json.includes("INNER"), "the sub-context's events are hidden");
  t.false(json.includes("Sub-task"), "and so is its note");
  t.true(json.includes("The config is read in load.ts."));
  t.is(after.request.messages.filter((m) => m.content === "explore something").length, 1);
  void u;
  s.request();
  s.replayAll();
});

test("a result whose call is not in the window becomes a user message; a call whose result is hidden gets one saying so", (t) => {
  const s = new Synth();
  s.user("go");
  const r = s.reply("", [{ name: "fs-read" }]);
  // Narrowed between the call and its result, from the result on.
  s.add("context.narrow", { reason: "test", note: "from here", lasting: true });
  s.result(r.ids[0] as string, "fs-read", "the file");
  const b = s.window.build(s.params());
  t.deepEqual(b.request.messages.at(-1), { role: "user", content: `[the result of fs-read (seq ${s.last}), whose call is not in this window]\nthe file` });
  const f = new Synth();
  f.user("outer");
  const n = f.add("context.narrow", { reason: "sub", note: "inner" }).seq;
  f.add("context.fold", { narrow_seq: n });
  const call = f.reply("", [{ name: "fs-read" }]);
  const n2 = f.add("context.narrow", { reason: "sub", note: "inner 2" }).seq;
  f.result(call.ids[0] as string, "fs-read", "hidden result");
  f.add("context.fold", { narrow_seq: n2 });
  f.user("next");
  const fb = f.window.build(f.params());
  t.deepEqual(fb.request.messages.map((m) => m.role), ["user", "assistant", "tool", "user"]);
  t.like(fb.request.messages[2], { role: "tool", toolCallId: call.ids[0], content: MISSING_RESULT_TEXT, isError: true });
});

test("the digest is the SHA-256 of the request's canonical JSON, build after build, across steps and additions", (t) => {
  const s = overflowing(10, 2, 2_500);
  for (const { built } of s.built) t.is(built.digest, sha(canonicalJson(built.request)));
  const b = s.window.build({ ...s.params([{ role: "user", content: "now summarise" }]), temperature: 0.2 });
  t.is(b.digest, sha(canonicalJson(b.request)));
  t.is(b.tokens, tokensOf(b));
});

test("window units: the turns of the context, finished or not, with their rounds and sizes", (t) => {
  const s = new Synth();
  const a = s.turnWith("one", [text("X", 400)]);
  const u = s.user("two");
  const r = s.round("fs-read", text("Y", 800));
  const units = s.window.units();
  t.is(units.length, 2);
  t.like(units[0], { user: a.user, from: a.user, through: a.answer, finished: true });
  t.is(units[0]!.rounds.length, 2);
  t.like(units[1], { user: u, from: u, through: r.result, finished: false });
  t.deepEqual(units[1]!.rounds.map((x) => [x.from, x.through]), [[r.resp, r.result]]);
  t.true(units[1]!.rounds[0]!.tokens > 200);
  t.is(units[1]!.tokens, units[1]!.rounds[0]!.tokens + CHARS4_V2.message({ role: "user", content: "two" }));
});

test("a branch filter (issue 17's seam): the window shows the events of the current branch, and a move rebuilds it", (t) => {
  // A stand-in for a head move: a note naming the seqs the rewind abandoned; a second note brings them back.
  let abandoned: [number, number] | null = null;
  const branch = {
    onRecord(r: { kind: string; payload: Record<string, unknown> }) {
      if (r.kind !== "note" || r.payload.topic !== "head.move") return false;
      abandoned = Array.isArray(r.payload.data) ? (r.payload.data as [number, number]) : null;
      return true;
    },
    includes: (seq: number) => abandoned === null || seq < abandoned[0] || seq > abandoned[1],
  };
  const s = new Synth(100_000, undefined, branch as any);
  s.turnWith("kept turn", []);
  const a = s.user("abandoned turn");
  s.request();
  const z = s.reply("abandoned answer").seq;
  s.end();
  s.add("note", { text: "rewind", topic: "head.move", data: [a, s.last] });
  s.user("after the rewind");
  let json = JSON.stringify(s.window.build(s.params()).request.messages);
  t.true(json.includes("kept turn"));
  t.false(json.includes("abandoned"));
  t.true(json.includes("after the rewind"));
  s.add("note", { text: "redo", topic: "head.move" });
  json = JSON.stringify(s.window.build(s.params()).request.messages);
  t.true(json.includes("abandoned answer"), `seq ${z} is on the branch again`);
});

test("a session.model with another context resets the decisions and caps results for the new context", (t) => {
  const s = overflowing(9, 1);
  const before = s.request();
  t.truthy(before.recipe.elided_through);
  t.is(before.recipe.result_cap, resultCapChars(8_000, 1_000));
  // The same context again (a resume) changes nothing.
  s.add("session.resume", { version: "test", context: recipeContext("window-v2", 8_000, 1_000) });
  t.is(s.window.build(s.params()).recipe.elided_through, before.recipe.elided_through);
  // A larger model: the decisions start again (nothing needs eliding now) and the caps grow.
  s.add("session.model", { model: "big", context: recipeContext("window-v2", 100_000) });
  const big = s.window.build({ ...s.params(), contextWindow: 100_000, maxOutputTokens: undefined } as any);
  t.is(big.recipe.elided_through, undefined);
  t.is(big.recipe.result_cap, resultCapChars(100_000, 4096));
  t.false(JSON.stringify(big.request).includes("[elided seq="));
});
