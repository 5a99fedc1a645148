// The strict streaming reader: records come back as written, and damage names its file and line.

import test from "ava";
import { appendFileSync, writeFileSync } from "node:fs";
import { crc32 } from "node:zlib";
import { LogCorruptError, LogNotFoundError, readLog, verifyLog, type CorruptReason } from "../../../host/log/index.js";
import { bytes, docLine, docLog, putLog, tempDataDir, writtenLog } from "./helpers.js";

test("records written by the writer read back in order, with their lines and offsets", (t) => {
  const dir = tempDataDir(t);
  const file = writtenLog(dir, "s", 20);
  const text = bytes(file).toString("utf8");
  const lines = text.split("\n").slice(0, -1);
  const entries = [...readLog(file).entries()];
  t.is(entries.length, 20);
  let offset = 0;
  entries.forEach((e, i) => {
    t.is(e.line, i + 1);
    t.is(e.record.seq, i + 1);
    t.is(e.offset, offset);
    offset += Buffer.byteLength(lines[i]) + 1;
    t.is(e.end, offset);
    t.deepEqual(e.record.payload, i === 0 ? { version: "0.0.0", origin: "test" } : { text: `record ${i + 1}` });
  });
  t.is(offset, text.length);
});

test("the writer's lines follow docs/log-format.md: the crc is the CRC-32 of the record without it", (t) => {
  const dir = tempDataDir(t);
  const file = writtenLog(dir, "s", 3);
  for (const line of bytes(file).toString("utf8").split("\n").slice(0, -1)) {
    const obj = JSON.parse(line);
    t.deepEqual(Object.keys(obj), ["seq", "ts", "session", "kind", "payload", "crc"]);
    const { crc, ...rest } = obj;
    t.is(crc, crc32(JSON.stringify(rest)).toString(16).padStart(8, "0"));
    t.regex(obj.ts, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  }
});

test("a log built from the format document alone is read as valid", (t) => {
  const dir = tempDataDir(t);
  const file = putLog(dir, "s", docLog(5));
  t.deepEqual(verifyLog(file), { file, records: 5, lastSeq: 5, end: bytes(file).length, lines: 5, tail: null, lastTs: "2026-01-02T03:04:05.678Z" });
});

test("reading in tiny chunks crosses every line boundary and gives the same records", (t) => {
  const dir = tempDataDir(t);
  let text = docLine(1, "session.start", { version: "1" });
  for (let i = 2; i <= 12; i++) text += docLine(i, "note", { text: "é😀x".repeat(i * 13) });
  const file = putLog(dir, "s", text);
  const whole = [...readLog(file)];
  for (let chunk = 64; chunk <= 300; chunk += 7) t.deepEqual([...readLog(file, { chunkSize: chunk })], whole, `chunk ${chunk}`);
});

test("a line longer than the chunk grows the buffer; one longer than maxLineBytes is damage", (t) => {
  const dir = tempDataDir(t);
  const text = docLine(1, "session.start", { version: "1" }) + docLine(2, "note", { text: "y".repeat(5000) }) + docLine(3, "note", { text: "z" });
  const file = putLog(dir, "s", text);
  t.is([...readLog(file, { chunkSize: 64 })].length, 3);
  const e = t.throws(() => verifyLog(file, { chunkSize: 64, maxLineBytes: 1000 }), { instanceOf: LogCorruptError });
  t.is(e!.code, "LOG_LINE_TOO_LONG");
  t.is(e!.line, 2);
  t.is(e!.message, `${file}:2: a line longer than 1000 bytes, and more records follow it`);
});

test("an over-long last line without a newline is a torn tail, not held in memory", (t) => {
  const dir = tempDataDir(t);
  const head = docLog(2);
  const file = putLog(dir, "s", head + "x".repeat(10000));
  const s = verifyLog(file, { chunkSize: 64, maxLineBytes: 500 });
  t.deepEqual(s.tail, { offset: Buffer.byteLength(head), bytes: 10000, line: 3 });
  t.is(s.records, 2);
  t.is(s.end, Buffer.byteLength(head));
});

test("--through stops reading after that record", (t) => {
  const dir = tempDataDir(t);
  const file = putLog(dir, "s", docLog(5) + "garbage that would be damage\n");
  const r = readLog(file, { through: 3 });
  t.deepEqual([...r].map((x) => x.seq), [1, 2, 3]);
  t.is(r.summary!.lastSeq, 3);
});

test("a missing log is LogNotFoundError", (t) => {
  const dir = tempDataDir(t);
  t.throws(() => verifyLog(`${dir}/sessions/none.jsonl`), { instanceOf: LogNotFoundError, code: "LOG_NOT_FOUND" } as never);
});

// Each case: the log's lines, the line where the error must be, its reason.
const BAD: [string, () => string, number, CorruptReason][] = [
  ["a gap in seq", () => docLog(3) + docLine(5, "note", { text: "x" }) + docLine(6, "note", { text: "y" }), 4, "seq-gap"],
  ["a duplicate seq", () => docLog(3) + docLine(3, "note", { text: "x" }), 4, "seq-duplicate"],
  ["a seq going back", () => docLog(4) + docLine(2, "note", { text: "x" }) + docLine(6, "note", { text: "y" }), 5, "seq-duplicate"],
  ["an unknown kind", () => docLog(2) + docLine(3, "session.delete", {}) + docLine(4, "note", { text: "y" }), 3, "unknown-kind"],
  ["a line that is not JSON", () => docLog(2) + "hello\n" + docLine(3, "note", { text: "y" }), 3, "malformed"],
  ["an empty line", () => docLog(2) + "\n" + docLine(3, "note", { text: "y" }), 3, "malformed"],
  ["valid JSON without a crc, then a record", () => docLog(2) + JSON.stringify({ seq: 3, ts: "t", session: "s", kind: "note", payload: {} }) + "\n" + docLine(3, "note", { text: "y" }), 3, "malformed"],
  ["an unknown kind as the last line (its crc matches: written so)", () => docLog(2) + docLine(3, "session.delete", {}), 3, "unknown-kind"],
  ["a seq that is a string, with a good crc", () => docLog(2) + docLine("3" as never, "note", { text: "y" }), 3, "malformed"],
  ["a payload that is an array, with a good crc", () => docLog(1) + docLine(2, "note", [] as never), 2, "malformed"],
  ["a record of another session", () => docLog(2) + docLine(3, "note", { text: "y" }, "other"), 3, "session-mismatch"],
  ["a first record that is not session.start", () => docLine(1, "note", { text: "y" }), 1, "no-start"],
  ["an empty file", () => "", 1, "empty"],
  [
    "a changed byte that keeps the JSON valid",
    () => docLog(3).replace('"record 2"', '"record 7"') + docLine(4, "note", { text: "y" }),
    2,
    "crc-mismatch",
  ],
];

for (const [what, make, line, reason] of BAD) {
  test(`${what} is an error naming the file and line ${line}`, (t) => {
    const dir = tempDataDir(t);
    const file = putLog(dir, "s", make());
    const e = t.throws(() => verifyLog(file), { instanceOf: LogCorruptError });
    t.is(e!.reason, reason);
    t.is(e!.file, file);
    t.is(e!.line, line);
    t.true(e!.message.startsWith(`${file}:${line}: `), e!.message);
    // Iterating gives the records before the damage, then the same error.
    const seen: number[] = [];
    t.throws(() => {
      for (const r of readLog(file)) seen.push(r.seq);
    }, { instanceOf: LogCorruptError });
    t.is(seen.length, line - 1);
  });
}

test("damage early in the file is an error even when everything after it is fine", (t) => {
  const dir = tempDataDir(t);
  const text = docLog(50);
  const lines = text.split("\n");
  lines[9] = lines[9].replace("record 10", "record 1O");
  const file = putLog(dir, "s", lines.join("\n"));
  const e = t.throws(() => verifyLog(file), { instanceOf: LogCorruptError });
  t.is(e!.code, "LOG_CRC_MISMATCH");
  t.is(e!.line, 10);
});

test("a torn tail is reported, not thrown, and reading does not change the file", (t) => {
  const dir = tempDataDir(t);
  const file = putLog(dir, "s", docLog(3));
  appendFileSync(file, docLine(4, "note", { text: "cut" }).slice(0, 20));
  const before = bytes(file);
  const r = readLog(file);
  t.deepEqual([...r].map((x) => x.seq), [1, 2, 3]);
  t.deepEqual(r.summary!.tail, { offset: Buffer.byteLength(docLog(3)), bytes: 20, line: 4 });
  t.deepEqual(bytes(file), before);
});

test("a start position reads on from a known record (what tail -f does)", (t) => {
  const dir = tempDataDir(t);
  const file = putLog(dir, "s", docLog(3));
  const first = verifyLog(file);
  appendFileSync(file, docLine(4, "note", { text: "four" }) + docLine(5, "note", { text: "five" }));
  const more = [...readLog(file, { start: { offset: first.end, line: 4, lastSeq: 3 } }).entries()];
  t.deepEqual(more.map((e) => [e.line, e.record.seq]), [[4, 4], [5, 5]]);
  writeFileSync(file, docLog(3) + docLine(5, "note", { text: "gap" }));
  t.throws(() => [...readLog(file, { start: { offset: first.end, line: 4, lastSeq: 3 } })], { instanceOf: LogCorruptError, message: /:4: seq 5 follows seq 3/ });
});
