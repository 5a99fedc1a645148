// window-v1: the request folded from log records, its cut, its digest, and its rebuilding from a log prefix.
import test from "ava";
import fc from "fast-check";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  WindowV1,
  WindowError,
  rebuildRequest,
  canonicalJson,
  digestJson,
  clipMiddle,
  messageTokens,
  textTokens,
  MARKER_RESERVE,
  type WindowParams,
} from "../../../host/window/index.js";
import { createSessionLog, readLog, type LogRecord, type LogKind } from "../../../host/log/index.js";
import { Redactor } from "../../../host/redact/index.js";
import type { ToolDefinition } from "../../../host/model/types.js";

const TOOLS: ToolDefinition[] = [{ name: "eval", description: "Evaluate Scheme forms.", inputSchema: { type: "object", properties: { code: { type: "string" } }, required: ["code"] } }];

let seq = 0;
function rec(kind: LogKind, payload: Record<string, unknown>): LogRecord {
  return { seq: ++seq, ts: "2026-01-01T00:00:00.000Z", session: "s", kind, payload: payload as any };
}

function params(o: Partial<WindowParams> = {}): WindowParams {
  return { model: "m", system: "You work in a repository.", tools: TOOLS, contextWindow: 100_000, ...o };
}

test("user.msg, llm.resp and tool.result become the conversation; other kinds are not in it", (t) => {
  const w = new WindowV1();
  w.add(rec("session.start", { version: "0" }));
  w.add(rec("user.msg", { text: "find TODO" }));
  w.add(rec("llm.req", { model: "m" }));
  w.add(rec("llm.resp", { req_seq: 3, text: "looking", tool_calls: [{ id: "c1", name: "index-grep", arguments: '{"path":".","pattern":"TODO"}' }] }));
  w.add(rec("tool.call", { call_id: "c1", tool: "index-grep", args: {} }));
  w.add(rec("guard.decision", { path: "a", op: "read", decision: "allow" }));
  w.add(rec("tool.result", { call_id: "c1", tool: "index-grep", ok: true, output: "a:1:TODO" }));
  w.add(rec("llm.resp", { req_seq: 8, error: "cancelled" }));
  w.add(rec("tool.result", { call_id: "c2", tool: "fs-read", ok: false, error: "not found" }));
  const b = w.build(params());
  t.deepEqual(b.request.messages, [
    { role: "user", content: "find TODO" },
    { role: "assistant", content: "looking", toolCalls: [{ id: "c1", name: "index-grep", arguments: '{"path":".","pattern":"TODO"}' }] },
    { role: "tool", toolCallId: "c1", name: "index-grep", content: "a:1:TODO" },
    { role: "tool", toolCallId: "c2", name: "fs-read", content: "error: not found", isError: true },
  ]);
  t.is(b.request.system, "You work in a repository.");
  t.is(b.request.tools, TOOLS);
  t.is(b.recipe.name, "window-v1");
  t.is(b.recipe.first_seq, 2);
  t.deepEqual(b.recipe.estimator, { name: "chars4", version: 1 });
});

test("the digest is the SHA-256 of the request's canonical JSON, build after build", (t) => {
  const w = new WindowV1();
  for (let i = 0; i < 5; i++) {
    w.add(rec("user.msg", { text: `question ${i} ü 😀` }));
    const b1 = w.build(params({ maxOutputTokens: 1000, temperature: 0.2 }));
    t.is(b1.digest, digestJson(b1.request));
    w.add(rec("llm.resp", { req_seq: 1, text: `answer ${i}` }));
    const b2 = w.build(params({ additions: [{ role: "user", content: "plan first" }] }));
    t.is(b2.digest, digestJson(b2.request));
    t.deepEqual(b2.request.messages.at(-1), { role: "user", content: "plan first" });
    t.deepEqual(b2.recipe.additions, [{ role: "user", content: "plan first" }]);
  }
  t.regex(digestJson({}), /^sha256:[0-9a-f]{64}$/);
});

test("canonical JSON sorts members, drops undefined ones and has no whitespace", (t) => {
  t.is(canonicalJson({ b: 1, a: [true, null, "x\n"], c: undefined, "é": 1.5, A: {} }), '{"A":{},"a":[true,null,"x\\n"],"b":1,"é":1.5}');
  t.throws(() => canonicalJson({ x: NaN }), { instanceOf: TypeError });
});

test("a shell-exec result is clipped to its first 1,500 and last 6,000 characters with the cut counted", (t) => {
  const long = "h".repeat(1500) + "m".repeat(2345) + "t".repeat(6000);
  const w = new WindowV1();
  w.add(rec("user.msg", { text: "run" }));
  w.add(rec("tool.result", { call_id: "c", tool: "shell-exec", ok: true, output: long }));
  w.add(rec("tool.result", { call_id: "d", tool: "fs-read", ok: true, output: long }));
  const [, shell, read] = w.build(params()).request.messages;
  t.is(shell!.content, "h".repeat(1500) + "\n[… 2345 characters cut …]\n" + "t".repeat(6000));
  t.is(read!.content, long, "other tools are not clipped by v1");
  t.is(clipMiddle("short"), "short");
  // A surrogate pair at the cut is kept whole.
  const pair = "a".repeat(1499) + "😀" + "b".repeat(7000);
  t.false(/[\ud800-\udbff]\n|\n[\udc00-\udfff]/.test(clipMiddle(pair)));
});

test("when the conversation outgrows the context, whole turns leave from the oldest, with a marker", (t) => {
  const w = new WindowV1();
  const big = "x".repeat(4000); // 1000 tokens
  for (let i = 0; i < 10; i++) {
    w.add(rec("user.msg", { text: `turn ${i} ${big}` }));
    w.add(rec("llm.resp", { req_seq: 1, text: `reply ${i}` }));
  }
  const p = params({ contextWindow: 5000, maxOutputTokens: 500, system: "s" });
  const b = w.build(p);
  const avail = 5000 - 500 - textTokens("s") - textTokens(canonicalJson(TOOLS)) - MARKER_RESERVE;
  const shown = b.request.messages.slice(1);
  t.true(shown.reduce((n, m) => n + messageTokens(m), 0) <= avail);
  t.regex(b.request.messages[0]!.content, /^\[earlier conversation not shown \(log seq \d+-\d+\)/);
  t.is(shown[0]!.role, "user");
  t.true(shown.at(-1)!.content === "reply 9");
  // One more turn would not have fitted: the cut is the oldest possible.
  const firstShown = Number(/turn (\d+)/.exec(shown[0]!.content)![1]);
  t.true(firstShown > 0);
  t.true(b.tokens <= 5000 - 500);
  t.is(b.digest, digestJson(b.request));
});

test("a running turn that alone does not fit sheds its oldest rounds, keeping its message and its newest round", (t) => {
  const w = new WindowV1();
  w.add(rec("user.msg", { text: "do it" }));
  for (let i = 0; i < 20; i++) {
    w.add(rec("llm.resp", { req_seq: 1, text: "", tool_calls: [{ id: `c${i}`, name: "fs-read", arguments: "{}" }] }));
    w.add(rec("tool.result", { call_id: `c${i}`, tool: "fs-read", ok: true, output: `${i} ` + "y".repeat(2000) }));
  }
  const b = w.build(params({ contextWindow: 4000, maxOutputTokens: 400, system: "s" }));
  const m = b.request.messages;
  t.deepEqual(m[0], { role: "user", content: "do it" });
  t.regex(m[1]!.content, /^\[earlier rounds of this turn not shown \(log seq \d+-\d+\)/);
  t.is(m[2]!.role, "assistant");
  t.is((m.at(-1) as any).toolCallId, "c19");
  // Calls and results stay paired.
  const ids = m.flatMap((x) => (x.role === "assistant" ? (x.toolCalls ?? []).map((c) => c.id) : []));
  const answered = m.flatMap((x) => (x.role === "tool" ? [x.toolCallId] : []));
  t.deepEqual(ids, answered);
  t.is(b.digest, digestJson(b.request));
});

test("a request rebuilt from the log prefix before its llm.req has the recorded digest; a changed byte does not", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "nodwyn-window-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const redactor = new Redactor();
  const writer = createSessionLog("w1", { version: "0" }, { dataDir: dir, redactor });
  const w = new WindowV1();
  const follow = () => {
    for (const r of readLog(writer.file)) if (r.seq > w.seq) w.add(r);
  };
  const secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
  writer.append("user.msg", { text: "grep it" });
  for (let round = 0; round < 3; round++) {
    follow();
    const b = w.build(params({ contextWindow: 50_000 }));
    writer.append("llm.req", { model: "m", tools: b.request.tools, params: b.params, recipe: b.recipe, digest: b.digest });
    writer.append("llm.resp", { req_seq: writer.lastSeq, text: "r", tool_calls: [{ id: `c${round}`, name: "index-grep", arguments: "{}" }] });
    writer.append("tool.result", { call_id: `c${round}`, tool: "index-grep", ok: true, output: `config.txt:1:token = ${secret}` });
  }
  writer.close();
  const all = [...readLog(writer.file)];
  const reqs = all.filter((r) => r.kind === "llm.req");
  t.is(reqs.length, 3);
  for (const r of reqs) {
    const out = rebuildRequest(all, r);
    t.true(out.matches, `llm.req ${r.seq}`);
    t.false(JSON.stringify(out.request).includes(secret));
  }
  // The last request carries the earlier results, redacted by the log.
  const last = rebuildRequest(all, reqs[2]!);
  t.true(last.request.messages.some((m) => m.role === "tool" && m.content.includes("[REDACTED:")));
  // One byte of a recorded tool definition, of an earlier event, or the recipe's name.
  const alter = (i: number, f: (p: any) => void): LogRecord[] =>
    all.map((r) => (r.seq === i ? { ...r, payload: (() => { const p = structuredClone(r.payload); f(p); return p; })() } : r));
  const q = reqs[2]!;
  t.false(rebuildRequest(all, { ...q, payload: { ...q.payload, tools: [{ ...TOOLS[0]!, description: TOOLS[0]!.description + "." }] as any } }).matches);
  const earlier = all.find((r) => r.kind === "user.msg")!;
  t.false(rebuildRequest(alter(earlier.seq, (p) => (p.text += "!")), q).matches);
  const renamed = { ...q, payload: { ...q.payload, recipe: { ...(q.payload.recipe as object), name: "window-v9" } } };
  t.throws(() => rebuildRequest(all, renamed as LogRecord), { instanceOf: WindowError, message: /recipe "window-v9"/ });
  t.throws(() => rebuildRequest(all, earlier), { instanceOf: WindowError, message: /not an llm\.req/ });
});

test("property: every build fits when it can, keeps calls paired, and rebuilds to its digest", (t) => {
  const event = fc.oneof(
    fc.record({ k: fc.constant("user" as const), n: fc.nat(3000) }),
    fc.record({ k: fc.constant("round" as const), n: fc.nat(3000), calls: fc.integer({ min: 0, max: 3 }) }),
  );
  fc.assert(
    fc.property(fc.array(event, { minLength: 1, maxLength: 40 }), fc.integer({ min: 1500, max: 20_000 }), (events, ctx) => {
      seq = 0;
      const records: LogRecord[] = [rec("session.start", { version: "0" })];
      let callNo = 0;
      let started = false;
      for (const e of events) {
        if (e.k === "user" || !started) {
          records.push(rec("user.msg", { text: "u".repeat(e.n) }));
          started = true;
          if (e.k === "user") continue;
        }
        const calls = Array.from({ length: (e as { calls: number }).calls }, () => ({ id: `c${callNo++}`, name: "fs-read", arguments: "{}" }));
        records.push(rec("llm.resp", { req_seq: 1, text: "a".repeat(e.n >> 2), tool_calls: calls }));
        for (const c of calls) records.push(rec("tool.result", { call_id: c.id, tool: "fs-read", ok: true, output: "r".repeat(e.n) }));
      }
      const w = new WindowV1();
      const p = params({ contextWindow: ctx, system: "sys" });
      const log: LogRecord[] = [];
      let open = 0; // calls of the last reply not answered yet: the loop builds only when it is 0
      for (const r of records) {
        w.add(r);
        log.push(r);
        if (r.kind === "llm.resp") open = (r.payload.tool_calls as unknown[]).length;
        if (r.kind === "tool.result") open--;
        if (open > 0) continue;
        const b = w.build(p);
        if (b.digest !== digestJson(b.request)) return false;
        const ids = b.request.messages.flatMap((x) => (x.role === "assistant" ? (x.toolCalls ?? []).map((c) => c.id) : []));
        const answered = b.request.messages.flatMap((x) => (x.role === "tool" ? [x.toolCallId] : []));
        if (JSON.stringify(ids) !== JSON.stringify(answered)) return false;
        // Over budget only when the newest round and the turn's message alone do not fit.
        if (b.tokens > ctx - b.recipe.reserve && b.request.messages.filter((m) => m.role === "assistant").length > 1) return false;
        const req = rec("llm.req", { model: "m", tools: b.request.tools as any, params: b.params, recipe: b.recipe, digest: b.digest });
        seq--; // the llm.req is not folded: it only checks the rebuild
        if (!rebuildRequest(log, req).matches) return false;
      }
      return true;
    }),
    { numRuns: 60 },
  );
  t.pass();
});
