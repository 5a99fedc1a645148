// The line table recall-log's scan maps a match to its line with (recall-log.ts, issue 16): the rows must be the
// ones the scan without it finds, over a cached log that grows between calls and may end in a torn line.
import test from "ava";
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeLine } from "../../../host/log/record.js";
import { DEFAULT_RECALL_KINDS, extendLineTable, recallLog, useLineTables, type RecallLogQuery } from "../../../host/memory/recall-log.js";
import { clearLogCache } from "../../../host/memory/log-cache.js";

const SESSION = "20261203T170000Z-0000f00d";
const ts = (n: number) => new Date(Date.parse("2026-12-03T17:00:00.000Z") + n * 1000).toISOString();

/** Varied records from seq `first`: person input, replies, tool calls and results, kinds not searched, multi-byte text. */
function records(first: number, count: number): Buffer {
  const texts = ["The cat sat", "naïve café — the Ünïcode line", "日本語のテキスト the end", "nothing here", "THE upper case", "emoji 🎉 tHe", "x"];
  const out: Buffer[] = [];
  for (let seq = first; seq < first + count; seq++) {
    const text = texts[seq % texts.length]!;
    const kind = ["user.msg", "llm.resp", "tool.call", "tool.result", "llm.req", "turn.end"][seq % 6]!;
    const payload =
      kind === "user.msg" ? { text, actor: "person" }
      : kind === "llm.resp" ? { req_seq: seq - 1, model: "m", text, stop_reason: "end", usage: {} }
      : kind === "tool.call" ? { call_id: `c${seq}`, tool: "fs-read", args: { path: text }, resp_seq: seq - 1 }
      : kind === "tool.result" ? { call_id: `c${seq - 1}`, tool: "fs-read", ok: true, output: text + "\n" + text, duration_ms: 2 }
      : kind === "llm.req" ? { model: "m", server: "s", tools: [], params: { note: text }, turn: seq }
      : { outcome: "done", turn: seq, elapsed_ms: 1, note: text };
    out.push(encodeLine(seq, ts(seq), SESSION, kind, JSON.stringify(payload)));
  }
  return Buffer.concat(out);
}

const q = (match: string): RecallLogQuery => ({ match, kinds: DEFAULT_RECALL_KINDS, before: null, after: null, limit: 1000, clip: 200 });
const MATCHES = ["the", "THE", "café", "日本", "🎉", "t_e", "the%end", "zzzz", "cat", '"'];

/** Every query's result with the line table and without it (the reference scan: lastIndexOf/indexOf around each hit). */
function both(data: string): { with: unknown[]; without: unknown[] } {
  const run = () => MATCHES.map((m) => recallLog(data, SESSION, q(m)));
  const a = run(); // the table is built here, or extended over what was appended
  useLineTables(false);
  try {
    return { with: a, without: run() };
  } finally {
    useLineTables(true);
  }
}

test("recall-log's rows are the same with the line table as without, as the log grows and ends torn", (t) => {
  const data = mkdtempSync(join(tmpdir(), "nodwyn-line-table-"));
  t.teardown(() => {
    rmSync(data, { recursive: true, force: true });
    clearLogCache();
  });
  clearLogCache();
  mkdirSync(join(data, "sessions"));
  const file = join(data, "sessions", `${SESSION}.jsonl`);
  const start = encodeLine(1, ts(1), SESSION, "session.start", JSON.stringify({ version: "t", origin: "t", cwd: "/r", repo: "/r", argv: [] }));
  writeFileSync(file, Buffer.concat([start, records(2, 200)]));
  const first = both(data);
  t.deepEqual(first.with, first.without);
  // "the" in any ASCII case: 6 of every 7 texts hold it, in the 4 searched kinds of every 6 (counted by reasoning over
  // the cycle in records(); both cycles are checked by the reference count below, not copied from output).
  const theLines = (lo: number, hi: number) => {
    let n = 0;
    for (let s = lo; s <= hi; s++) if (s % 7 !== 3 && s % 7 !== 6 && [0, 1, 2, 3].includes(s % 6)) n++;
    return n;
  };
  // texts[3] "nothing here" and texts[6] "x" lack "the"; "The cat sat" has it.
  t.is((first.with[0] as { matched: number }).matched, theLines(2, 201));

  appendFileSync(file, records(202, 150)); // appended after the table was built: extended, not rebuilt
  const grown = both(data);
  t.deepEqual(grown.with, grown.without);
  t.is((grown.with[0] as { matched: number }).matched, theLines(2, 351));

  const torn = records(352, 1);
  appendFileSync(file, torn.subarray(0, torn.length - 30)); // a torn last line: no newline yet
  const tornRun = both(data);
  t.deepEqual(tornRun.with, tornRun.without);

  appendFileSync(file, Buffer.concat([torn.subarray(torn.length - 30), records(353, 20)])); // the line finished, more after it
  const healed = both(data);
  t.deepEqual(healed.with, healed.without);
  t.is((healed.with[0] as { matched: number }).matched, theLines(2, 372));
});

test("the line table lists every line's start, extended from a line start over appended bytes", (t) => {
  const starts = (b: Buffer) => {
    const out = [0];
    for (let i = 0; i < b.length; i++) if (b[i] === 10 && i + 1 < b.length) out.push(i + 1);
    return b.length === 0 ? [] : out;
  };
  const a = Buffer.from("ab\ncafé\n日本\n");
  const t1 = extendLineTable(a, undefined, 0);
  t.deepEqual([...t1.starts.subarray(0, t1.n)], [0, 3, 9]);
  const b = Buffer.concat([a, Buffer.from("x\nyz")]); // one whole line and a torn one
  const t2 = extendLineTable(b, t1, a.length);
  t.deepEqual([...t2.starts.subarray(0, t2.n)], starts(b));
  const c = Buffer.concat([b, Buffer.from("w\n")]); // the torn line finished: read again from its start
  const t3 = extendLineTable(c, t2, b.lastIndexOf(10) + 1);
  t.deepEqual([...t3.starts.subarray(0, t3.n)], starts(c));
  const many = Buffer.from("l\n".repeat(5000)); // past the first 1024 entries
  const t4 = extendLineTable(many, undefined, 0);
  t.is(t4.n, 5000);
  t.is(t4.starts[4999], 9998);
});
