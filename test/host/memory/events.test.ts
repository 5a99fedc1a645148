// eventText, the text a fold splits into words, is eventLines joined by newlines, made without the array.
import test from "ava";
import type { LogRecord } from "../../../host/log/index.js";
import { eventLines, eventText } from "../../../host/memory/events.js";

const rec = (kind: string, payload: Record<string, unknown>): LogRecord => ({ seq: 5, ts: "2026-01-01T00:00:00.000Z", session: "s", kind: kind as LogRecord["kind"], payload: payload as LogRecord["payload"] });

test("eventText is eventLines joined, for results and replies at their edges", (t) => {
  const cases: [LogRecord, string][] = [
    [rec("tool.result", { tool: "fs-read", ok: true, output: "a\nb\n" }), "a\nb"],
    [rec("tool.result", { tool: "fs-read", ok: true, output: "" }), ""],
    [rec("tool.result", { tool: "fs-read", ok: true, output: "\n" }), ""],
    [rec("tool.result", { tool: "fs-read", ok: false, error: "no such file\n" }), "error: no such file"],
    [rec("tool.result", { tool: "fs-read", ok: false, output: "\n" }), "\nerror: the tool failed"],
    [rec("tool.result", { tool: "fs-read", ok: true, output: '{"a":1}  \n' }), '{\n  "a": 1\n}'],
    [rec("tool.result", { tool: "fs-read", ok: true, output: "[lines 1-2 of 9]\nx" }), "[lines 1-2 of 9]\nx"],
    [rec("tool.result", { tool: "shell-exec", ok: true, output: { exit: 0, stdout: "hi\n", stderr: "" } }), "exit 0\nhi"],
    [rec("llm.resp", { text: "" }), ""],
    [rec("llm.resp", { text: "done\n" }), "done"],
    [rec("llm.resp", { text: "\n", tool_calls: [{ id: "c1", name: "fs-read", arguments: '{"path": "a"}' }] }), '\n→ fs-read {"path":"a"}'],
    [rec("llm.resp", { tool_calls: [{ id: "c1", name: "recall", arguments: "{}" }, { id: "c2", name: "eval", arguments: { code: "(+ 1 2)" } }] }), '→ eval {"code":"(+ 1 2)"}'],
    [rec("user.msg", { text: "hello\nthere" }), "hello\nthere"],
  ];
  for (const [r, want] of cases) {
    t.is(eventText(r), want, JSON.stringify(r.payload));
    t.is(eventText(r), eventLines(r).join("\n"), JSON.stringify(r.payload));
  }
});
