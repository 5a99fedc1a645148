// The sub-context an event was recorded in (a context.narrow without lasting, until its context.fold), named in its heading.
import test from "ava";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { deleteMemFile, openTask, rankViews, recallEvent } from "../../../host/memory/index.js";
import { handLog, tempDir } from "./memory-helpers.js";

test("an event in a sub-context is named so in the search's heading and recall's, across the .mem file's last whole turn", (t) => {
  const data = tempDir(t);
  const repo = tempDir(t, "nodwyn-mem-tree-");
  mkdirSync(join(data, "sessions"), { recursive: true });
  const log = handLog(data, "20260101T000000Z-000000c1", repo, [
    ["user.msg", { text: "look around", actor: "person" }], // 2
    ["context.narrow", { reason: "explore", note: "explore the tree for wallaby", label: "explorer" }], // 3
    ["llm.resp", { req_seq: 1, tool_calls: [{ id: "c1", name: "fs-read", arguments: '{"path":"w.txt"}' }] }], // 4
    ["tool.call", { call_id: "c1", tool: "fs-read", args: { path: "w.txt" } }], // 5
    ["tool.result", { call_id: "c1", tool: "fs-read", ok: true, output: "a wallaby in the tree", duration_ms: 1 }], // 6
    ["turn.end", { outcome: "done", turn: 1, elapsed_ms: 10 }], // 7: the sub-context is still open
    ["user.msg", { text: "go on", actor: "person" }], // 8
    ["llm.resp", { req_seq: 1, text: "wallaby seen again" }], // 9: still in it
    ["context.fold", { narrow_seq: 3 }], // 10
    ["llm.resp", { req_seq: 1, text: "wallaby after the fold" }], // 11
    ["turn.end", { outcome: "done", turn: 2, elapsed_ms: 10 }], // 12
    ["user.msg", { text: "and a wallaby in a turn still running", actor: "person" }], // 13
    ["context.narrow", { reason: "explore", note: "a second look", lasting: false }], // 14: no label
    ["llm.resp", { req_seq: 1, text: "wallaby in an unnamed one" }], // 15
  ]);
  const headings = () => {
    const v = openTask(log)!;
    try {
      const r = rankViews([v], "wallaby", 20, { earlier: false });
      const bySeq = new Map(r.turns.flatMap((g) => g.events.map((e) => [e.seq, e.heading] as const)));
      return { action: v.action, bySeq, recall6: recallEvent(v, 6, 0, 0, 10_000).text.split("\n")[0], recall11: recallEvent(v, 11, 0, 0, 10_000).text.split("\n")[0] };
    } finally {
      v.close();
    }
  };
  const fresh = headings();
  t.is(fresh.action, "created");
  t.is(fresh.bySeq.get(6), "seq 6, the result of fs-read {\"path\":\"w.txt\"}, in the explorer's context");
  t.is(fresh.bySeq.get(3), "seq 3, the note the window narrowed to (explore)", "the narrowing's own note is in the context it was written in");
  t.regex(fresh.bySeq.get(9)!, /, in the explorer's context$/);
  t.notRegex(fresh.bySeq.get(11)!, /context/, "after the fold the event is in no sub-context");
  t.regex(fresh.bySeq.get(15)!, /, in a sub-context$/);
  t.regex(fresh.recall6!, /^seq 6, the result of fs-read .*, in the explorer's context \(turn 1\)/);
  t.notRegex(fresh.recall11!, /context/);
  // From the file written at that search (turns 1 and 2, the open sub-context in its meta), then again without it.
  const again = headings();
  t.is(again.action, "read");
  t.deepEqual([...again.bySeq], [...fresh.bySeq]);
  t.true(deleteMemFile(log));
  t.deepEqual([...headings().bySeq], [...fresh.bySeq]);
});
