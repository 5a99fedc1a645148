// BM25 on a hand-computed corpus: the order, the scores, a result's call counting three times, one collection across tasks.
import test from "ava";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { openTask, rankViews, type TaskView } from "../../../host/memory/index.js";
import { handLog, tempDir } from "./memory-helpers.js";

const K1 = 1.2;
const B = 0.75;
const bm25 = (idf: number, tf: number, len: number, avg: number) => (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * len) / avg));
const round = (x: number) => Math.round(x * 1e4) / 1e4;

function corpus(t: any) {
  const data = tempDir(t);
  const repo = tempDir(t, "nodwyn-mem-tree-");
  mkdirSync(join(data, "sessions"), { recursive: true });
  const log = handLog(data, "20260101T000000Z-00000001", repo, [
    ["user.msg", { text: "alpha beta", actor: "person" }], // A: alpha 1, beta 1 (length 2)
    ["llm.resp", { req_seq: 1, text: "alpha alpha gamma" }], // B: alpha 2, gamma 1 (3)
    ["llm.resp", { req_seq: 1, tool_calls: [{ id: "c1", name: "fs-read", arguments: '{"path":"beta.txt"}' }] }], // R: → fs-read {"path":"beta.txt"}: fs, read, path, beta, txt (5)
    ["tool.call", { call_id: "c1", tool: "fs-read", args: { path: "beta.txt" } }],
    ["tool.result", { call_id: "c1", tool: "fs-read", ok: true, output: "delta" }], // C: delta 1, and the call fs, read, beta, txt 3 times each (13)
    ["turn.end", { outcome: "done", turn: 1 }],
  ]);
  return { data, repo, log };
}

test("BM25 over the corpus computed by hand: lengths, idf, order, and the call counted three times", (t) => {
  const { log } = corpus(t);
  const v = openTask(log)!;
  try {
    t.is(v.docs, 4);
    t.is(v.totalLen, 2 + 3 + 5 + 13);
    const avg = 23 / 4;
    const idf = Math.log(1 + (4 - 3 + 0.5) / (3 + 0.5)); // beta: in A, R and C
    const r = rankViews([v], "beta", 8, { earlier: false });
    const got = r.turns.flatMap((g) => g.events.map((e) => [e.seq, e.score]));
    // A (seq 2) first, then C (seq 6: tf 3 through its call, though 13 long), then R (seq 4).
    t.deepEqual(got, [
      [2, round(bm25(idf, 1, 2, avg))],
      [6, round(bm25(idf, 3, 13, avg))],
      [4, round(bm25(idf, 1, 5, avg))],
    ]);
    t.is(round(bm25(idf, 1, 2, avg)), 0.4865);
    t.is(round(bm25(idf, 3, 13, avg)), 0.4413);
    // Two words: B holds alpha twice in 3 words and outranks A (once in 2) and C (delta once in 13, though delta is rarer).
    const two = rankViews([v], "alpha delta", 8, { earlier: false });
    const idfAlpha = Math.log(1 + (4 - 2 + 0.5) / (2 + 0.5));
    const idfDelta = Math.log(1 + (4 - 1 + 0.5) / (1 + 0.5));
    t.deepEqual(two.turns.flatMap((g) => g.events.map((e) => [e.seq, e.score])), [
      [3, round(bm25(idfAlpha, 2, 3, avg))],
      [2, round(bm25(idfAlpha, 1, 2, avg))],
      [6, round(bm25(idfDelta, 1, 13, avg))],
    ]);
  } finally {
    v.close();
  }
});

test("the call's weight: the same word once in a result's call outranks it once in a result's output of the same length", (t) => {
  const data = tempDir(t);
  const repo = tempDir(t, "nodwyn-mem-tree-");
  const log = handLog(data, "20260101T000000Z-00000002", repo, [
    ["user.msg", { text: "go", actor: "person" }],
    ["tool.call", { call_id: "a", tool: "x", args: { q: "kiwi" } }],
    ["tool.result", { call_id: "a", tool: "x", ok: true, output: "one two three four five six" }],
    ["tool.call", { call_id: "b", tool: "x", args: { q: "plum" } }],
    ["tool.result", { call_id: "b", tool: "x", ok: true, output: "kiwi two three four five six" }],
    ["turn.end", { outcome: "done", turn: 1 }],
  ]);
  const v = openTask(log)!;
  try {
    const r = rankViews([v], "kiwi", 8, { earlier: false });
    t.deepEqual(r.turns[0]!.events.map((e) => e.seq), [4, 6]);
    // Their lengths: 6 output words + 3 × (x, kiwi) = 12, and 6 + 3 × (x, plum) = 12: only the weight differs.
    t.is(v.doc(1).len, 12);
    t.is(v.doc(2).len, 12);
  } finally {
    v.close();
  }
});

test("tasks ranked as one collection: a word weighs by the events of all of them; a tie goes to the newer task", (t) => {
  const data = tempDir(t);
  const repo = tempDir(t, "nodwyn-mem-tree-");
  const older = handLog(data, "20260101T000000Z-0000000a", repo, [["user.msg", { text: "walrus tusk", actor: "person" }], ["turn.end", { outcome: "done", turn: 1 }]]);
  const newer = handLog(data, "20260102T000000Z-0000000b", repo, [["user.msg", { text: "walrus tusk", actor: "person" }], ["user.msg", { text: "ivory", actor: "person" }], ["turn.end", { outcome: "done", turn: 2 }]]);
  const views: TaskView[] = [openTask(older)!, openTask(newer)!];
  try {
    const r = rankViews(views, "walrus", 8, { earlier: true });
    t.deepEqual(r.turns.map((g) => g.task!.id), ["20260102T000000Z-0000000b", "20260101T000000Z-0000000a"]);
    t.is(r.turns[0]!.events[0]!.score, r.turns[1]!.events[0]!.score);
    // N is all events of both tasks (3), df 2: idf = ln(1 + 1.5/2.5).
    const idf = Math.log(1 + (3 - 2 + 0.5) / (2 + 0.5));
    t.is(r.turns[0]!.events[0]!.score, round(bm25(idf, 1, 2, 5 / 3)));
    t.is(r.events, 3);
    t.is(r.tasks, 2);
  } finally {
    for (const v of views) v.close();
  }
});
