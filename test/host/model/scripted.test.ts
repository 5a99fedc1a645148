// The scripted provider: replies in order, streamed in pieces, tool calls, usage, errors and cancellation; a bad script named at its line.

import test from "ava";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createProvider, loadScript, ModelError, type ModelRequest, type StreamEvent } from "../../../host/model/index.js";

const REQ: ModelRequest = { model: "m", system: "", messages: [{ role: "user", content: "hi" }], tools: [] };

function dir(t: import("ava").ExecutionContext): string {
  const d = mkdtempSync(join(tmpdir(), "nodwyn-script-"));
  t.teardown(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

function write(t: import("ava").ExecutionContext, name: string, text: string): string {
  const f = join(dir(t), name);
  writeFileSync(f, text);
  return f;
}

const TOML = `# what the "model" says, one [[reply]] per request
model = "demo"
context_window = 4096

[[reply]]
text = "Let me look."
[[reply.tool_calls]]
name = "index-grep"
arguments = { path = ".", pattern = "TODO" }
[[reply.tool_calls]]
id = "mine"
name = "eval"
arguments = '{"source": "(+ 1 2)"}'

[[reply]]
chunks = ["Found ", "three ", "TODOs."]
usage = { input = 120, output = 4, cached = 100 }
`;

test("TOML: replies in order, text streamed in its pieces, tool calls with their arguments as JSON text", async (t) => {
  const p = createProvider({ kind: "scripted", file: write(t, "s.toml", TOML) });
  t.is(p.kind, "scripted");
  t.is(p.model, "demo");
  const events: StreamEvent[] = [];
  const r1 = await p.complete(REQ, { onEvent: (e) => events.push(e) });
  t.is(r1.text, "Let me look.");
  t.deepEqual(r1.toolCalls, [
    { id: "call_1_1", name: "index-grep", arguments: '{"path":".","pattern":"TODO"}' },
    { id: "mine", name: "eval", arguments: '{"source": "(+ 1 2)"}' },
  ]);
  t.is(r1.stopReason, "tool_calls");
  t.true(r1.usage.unreported);
  t.is(r1.usage.inputTokens, 0);
  t.deepEqual(events.map((e) => e.type), ["text", "tool_call", "tool_call"]);

  events.length = 0;
  const r2 = await p.complete(REQ, { onEvent: (e) => events.push(e) });
  t.deepEqual(
    events.map((e) => (e.type === "text" ? e.delta : e.type)),
    ["Found ", "three ", "TODOs."],
  );
  t.is(r2.text, "Found three TODOs.");
  t.is(r2.stopReason, "end");
  t.is(r2.usage.inputTokens, 120);
  t.is(r2.usage.cachedTokens, 100);
  t.falsy(r2.usage.unreported);
  t.true(r2.usage.wallMs >= 0);

  const e = await t.throwsAsync(p.complete(REQ), { instanceOf: ModelError });
  t.is(e!.code, "exhausted");
  t.regex(e!.message, /s\.toml: no reply left: the script has 2 replies and this is request 3/);
});

test("JSON Lines: one reply per line, blank and # lines skipped", async (t) => {
  const f = write(
    t,
    "s.jsonl",
    [
      "# a comment",
      JSON.stringify({ text: "", tool_calls: [{ name: "fs-read", arguments: { path: "README.md" } }] }),
      "",
      JSON.stringify({ text: "done", stop_reason: "max_tokens", usage: { input: 3, output: 1 } }),
    ].join("\n"),
  );
  const p = createProvider({ kind: "scripted", file: f });
  const r1 = await p.complete(REQ);
  t.deepEqual(r1.toolCalls, [{ id: "call_1_1", name: "fs-read", arguments: '{"path":"README.md"}' }]);
  const r2 = await p.complete(REQ);
  t.is(r2.stopReason, "max_tokens");
  t.is(loadScript(f).replies[1]!.line, 4);
});

test("a scripted error reply fails that request with the given code and status", async (t) => {
  const p = createProvider({
    kind: "scripted",
    file: write(t, "e.toml", `[[reply]]\nerror = { code = "http", status = 503, message = "overloaded" }\n[[reply]]\ntext = "ok"\n`),
  });
  const e = await t.throwsAsync(p.complete(REQ), { instanceOf: ModelError });
  t.is(e!.code, "http");
  t.is(e!.status, 503);
  t.regex(e!.message, /scripted: overloaded/);
  t.is((await p.complete(REQ)).text, "ok");
});

test("cancellation during a delay rejects with cancelled, and an aborted signal never starts", async (t) => {
  const p = createProvider({ kind: "scripted", file: write(t, "d.toml", `[[reply]]\ndelay_ms = 60000\ntext = "late"\n[[reply]]\ntext = "next"\n`) });
  const ac = new AbortController();
  const pending = p.complete(REQ, { signal: ac.signal });
  setTimeout(() => ac.abort(), 20);
  const e = await t.throwsAsync(pending, { instanceOf: ModelError });
  t.is(e!.code, "cancelled");
  const gone = new AbortController();
  gone.abort();
  t.is((await t.throwsAsync(p.complete(REQ, { signal: gone.signal }), { instanceOf: ModelError }))!.code, "cancelled");
  // The cancelled request used its reply; the next one answers.
  t.is((await p.complete(REQ)).text, "next");
});

test("a bad script is an error naming the file, line and key", (t) => {
  const cases: [string, string, RegExp][] = [
    ["a.toml", `[[reply]]\ntext = "a"\ntxet = "b"\n`, /a\.toml:3:1: unknown key txet in \[reply\[0\]\] \(known keys: text, chunks/],
    ["b.toml", `[[reply]]\n[[reply.tool_calls]]\narguments = {}\n`, /b\.toml:2:1: \[reply\[0\]\.tool_calls\[0\]\] needs name/],
    ["c.toml", `[[reply]]\ntext = 3\n`, /c\.toml:2:1: reply\[0\]\.text must be a string, got an integer \(3\)/],
    ["d.toml", `[[reply]]\ntext = "ab"\nchunks = ["a", "c"]\n`, /d\.toml:3:1: reply\[0\]\.chunks must join to the reply's text/],
    ["e.toml", `title = "x"\n`, /e\.toml:1:1: unknown key title/],
    ["f.toml", `model = "m"\n`, /f\.toml:1:1: the file needs reply/],
    ["g.toml", `[[reply]]\ntext = "x"\nerror = { message = "m" }\n`, /g\.toml:3:1: reply\[0\]\.error: a reply that fails has no text/],
    ["h.toml", `[[reply]\n`, /h\.toml:1:\d+: /],
    ["i.jsonl", `{"text": "ok"}\n{"text": "a", "stop": "end"}\n`, /i\.jsonl:2:15: unknown key stop/],
    ["j.jsonl", `{"text": "ok"}\n{not json}\n`, /j\.jsonl:2:1: not JSON: /],
    ["k.jsonl", `["text"]\n`, /k\.jsonl:1:1: a reply is a JSON object/],
    ["l.jsonl", `# nothing\n\n`, /l\.jsonl:1:1: the script has no reply/],
    ["m.txt", `x`, /m\.txt: a script is a \.toml or a \.jsonl file/],
    ["n.jsonl", `{"usage": {"input": -1, "output": 2}}\n`, /n\.jsonl:1:12: usage\.input must be at least 0, got -1/],
  ];
  const d = dir(t);
  for (const [name, text, re] of cases) {
    const f = join(d, name);
    writeFileSync(f, text);
    const e = t.throws(() => loadScript(f), { instanceOf: ModelError }, name);
    t.is(e!.code, "config", name);
    t.regex(e!.message, re, name);
  }
  const missing = t.throws(() => loadScript(join(d, "none.toml")), { instanceOf: ModelError });
  t.regex(missing!.message, /none\.toml: cannot read the script: no such file/);
});
