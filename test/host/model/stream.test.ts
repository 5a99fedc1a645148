// Stream reading without a network: server-sent events and JSON lines cut at every place, retry timing, tool call assembly.

import test from "ava";
import fc from "fast-check";
import { backoffMs, retryAfterMs } from "../../../host/model/http.js";
import { LineSplitter, SseParser, ToolCallAssembler, WireError, type SseEvent } from "../../../host/model/stream.js";
import { sseText } from "./wire-server.js";

function feed(parts: readonly string[], make: (push: (e: SseEvent) => void) => SseParser): { events: SseEvent[]; cut: boolean } {
  const events: SseEvent[] = [];
  const p = make((e) => events.push(e));
  for (const s of parts) p.write(s);
  return { events, cut: p.end() };
}

function cuts(text: string, points: readonly number[]): string[] {
  const at = [...new Set(points.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let last = 0;
  for (const p of at) {
    out.push(text.slice(last, p));
    last = p;
  }
  out.push(text.slice(last));
  return out;
}

test("SSE: fields, comments, multi-line data, event names, a space after the colon or none", (t) => {
  const text = ": a comment\nevent: one\ndata: {\"a\":\ndata:1}\n\ndata:plain\nid: 7\nretry: 10\n\nevent: empty\n\n";
  const { events, cut } = feed([text], (push) => new SseParser(push));
  t.deepEqual(events, [
    { event: "one", data: '{"a":\n1}' },
    { event: "message", data: "plain" },
  ]);
  t.false(cut);
});

test("SSE: an event without its blank line at the end is reported cut, not dispatched", (t) => {
  const { events, cut } = feed(["data: whole\n\ndata: half"], (push) => new SseParser(push));
  t.deepEqual(events, [{ event: "message", data: "whole" }]);
  t.true(cut);
  t.true(feed(["data: x\n"], (push) => new SseParser(push)).cut);
});

test("property: SSE events come out the same whatever the line endings and wherever the text is cut", (t) => {
  const data = fc.string({ maxLength: 30 }).map((s) => s.replace(/[\r\n]/g, " "));
  const ev = fc.record({ event: fc.constantFrom("", "message_start", "content_block_delta"), data });
  fc.assert(
    fc.property(fc.array(ev, { minLength: 1, maxLength: 8 }), fc.constantFrom("\n", "\r\n", "\r"), fc.array(fc.nat(), { maxLength: 12 }), (evs, eol, points) => {
      const text = evs.map((e) => `${e.event ? `event: ${e.event}${eol}` : ""}data: ${e.data}${eol}${eol}`).join("");
      const { events, cut } = feed(cuts(text, points), (push) => new SseParser(push));
      t.false(cut);
      return JSON.stringify(events) === JSON.stringify(evs.map((e) => ({ event: e.event || "message", data: e.data })));
    }),
    { numRuns: 300 },
  );
});

test("property: JSON lines split anywhere give the same lines; the rest is what follows the last newline", (t) => {
  fc.assert(
    fc.property(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 10 }), fc.boolean(), (values, points, lastNewline) => {
      const lines = values.map((v) => JSON.stringify(v));
      const text = lines.join("\r\n") + (lastNewline ? "\n" : "");
      const got: string[] = [];
      const s = new LineSplitter((l) => got.push(l));
      for (const part of cuts(text, points)) s.write(part);
      const rest = s.rest();
      const all = rest === "" ? got : [...got, rest];
      return JSON.stringify(all) === JSON.stringify(lines) && (lastNewline ? rest === "" : rest === lines[lines.length - 1]);
    }),
    { numRuns: 300 },
  );
  t.pass();
});

test("the wire helper writes events as the SSE format says", (t) => {
  t.is(sseText([{ event: "ping", data: { type: "ping" } }, { data: "[DONE]" }]), 'event: ping\ndata: {"type":"ping"}\n\ndata: [DONE]\n\n');
});

test("tool call pieces: by index, the name whole, repeated or split, arguments joined; ids made when missing", (t) => {
  const seen: unknown[] = [];
  const a = new ToolCallAssembler((e) => seen.push(e), "call");
  a.piece(1, "id-b", "second", '{"x"');
  a.piece(0, undefined, "fir", "{");
  a.piece(0, undefined, "st", "}");
  a.piece(1, "id-b", "second", ":1}");
  const calls = a.done();
  t.is(calls[0]!.name, "first");
  t.is(calls[0]!.arguments, "{}");
  t.regex(calls[0]!.id, /^call_[0-9a-f]{8}_0$/);
  t.deepEqual(calls[1], { id: "id-b", name: "second", arguments: '{"x":1}' });
  t.is(seen.length, 4);
  const nameless = new ToolCallAssembler(undefined, "call");
  nameless.piece(0, "x", undefined, "{}");
  t.throws(() => nameless.done(), { instanceOf: WireError, message: /tool call 0 has no function name/ });
});

test("Retry-After: seconds, an HTTP date, retry-after-ms; nothing usable is undefined", (t) => {
  const h = (o: Record<string, string>): Headers => new Headers(o);
  t.is(retryAfterMs(h({ "retry-after": "7" })), 7000);
  t.is(retryAfterMs(h({ "retry-after-ms": "250", "retry-after": "7" })), 250);
  const now = Date.parse("2026-12-01T10:00:00Z");
  t.is(retryAfterMs(h({ "retry-after": "Tue, 01 Dec 2026 10:00:30 GMT" }), now), 30_000);
  t.is(retryAfterMs(h({ "retry-after": "Tue, 01 Dec 2026 09:00:00 GMT" }), now), 0);
  t.is(retryAfterMs(h({ "retry-after": "soon" })), undefined);
  t.is(retryAfterMs(h({})), undefined);
});

test("backoff doubles from the base up to the cap, with half of each delay random", (t) => {
  const timing = { baseDelayMs: 100, maxDelayMs: 1000 };
  t.is(backoffMs(2, timing, () => 0), 50);
  t.is(backoffMs(2, timing, () => 1), 100);
  t.is(backoffMs(3, timing, () => 1), 200);
  t.is(backoffMs(4, timing, () => 0.5), 300);
  t.is(backoffMs(10, timing, () => 1), 1000);
  t.is(backoffMs(10, timing, () => 0), 500);
  t.is(backoffMs(2, {}, () => 1), 500);
});
