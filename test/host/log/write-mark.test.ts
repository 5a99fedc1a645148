// ADR 0043: the records of one write of several lines carry the seq of its first; a damaged line followed by whole records of the last write is its torn tail, damage before another write stays an error.
import test from "ava";
import { writeFileSync } from "node:fs";
import { createSessionLog, LogCorruptError, openForAppend, readLog, verifyLog } from "../../../host/log/index.js";
import { decodeLine, encodeLine } from "../../../host/log/record.js";
import { bytes, docLine, putLog, tempDataDir } from "./helpers.js";

/** A log ending with `groups` writes of three notes each, after 9 single writes; the file, its bytes and each line's start. */
function grouped(dir: string, groups = 2): { file: string; all: Buffer; starts: number[] } {
  const w = createSessionLog("s", { version: "0.0.0", origin: "test" }, { dataDir: dir });
  for (let i = 2; i <= 10; i++) w.append("note", { text: `single ${i}` });
  for (let g = 0; g < groups; g++) w.appendAll([0, 1, 2].map((j) => ({ kind: "note" as const, payload: { text: `group ${g}.${j}` } })));
  w.close();
  const all = bytes(w.file);
  const starts = [0];
  for (let i = all.indexOf(10); i !== -1 && i + 1 < all.length; i = all.indexOf(10, i + 1)) starts.push(i + 1);
  return { file: w.file, all, starts };
}

test("a write of one line carries no mark; every line of a group write names the group's first seq", (t) => {
  const dir = tempDataDir(t);
  const { file, all, starts } = grouped(dir);
  const marks = starts.map((s, i) => {
    const end = (starts[i + 1] ?? all.length) - 1;
    const d = decodeLine(all, s, end);
    t.true(d.ok);
    return d.ok ? (d.write ?? null) : undefined;
  });
  t.deepEqual(marks, [...Array(10).fill(null), 11, 11, 11, 14, 14, 14]);
  // The mark is envelope, not record: what a reader returns is unchanged.
  t.deepEqual(Object.keys([...readLog(file)][13]!), ["seq", "ts", "session", "kind", "payload"]);
});

test("a record and its redact.event, one write, are marked as one", (t) => {
  const dir = tempDataDir(t);
  const w = createSessionLog("s", { version: "0.0.0", origin: "test" }, { dataDir: dir });
  w.append("note", { text: "token ghp_" + "a".repeat(36) });
  w.close();
  const all = bytes(w.file);
  const lines = all.toString("utf8").trimEnd().split("\n");
  t.is(lines.length, 3);
  t.regex(lines[1]!, /"kind":"note".*,"write":2,"crc"/);
  t.regex(lines[2]!, /"kind":"redact.event".*,"write":2,"crc"/);
});

test("every bit flip in the first record of the last group write is repaired: the whole write moved aside, the records before kept", (t) => {
  const dir = tempDataDir(t);
  const { file, all, starts } = grouped(dir);
  const first = starts[13] as number; // seq 14, the last write's first record
  let cases = 0;
  for (let i = first; i < (starts[14] as number); i++)
    for (let bit = 0; bit < 8; bit++) {
      const damaged = Buffer.from(all);
      damaged[i] ^= 1 << bit;
      writeFileSync(file, damaged);
      // Whole records 15 and 16 follow the damaged line; their mark says they began at seq 14.
      t.deepEqual(verifyLog(file).tail, { offset: first, bytes: all.length - first, line: 14 }, `byte ${i - first} bit ${bit}`);
      cases++;
      if (cases % 16 !== 1) continue;
      const { writer, truncated } = openForAppend("s", { dataDir: dir });
      writer.close();
      t.is(truncated?.offset, first);
      t.deepEqual(bytes(truncated!.backup), damaged.subarray(first));
      t.deepEqual(bytes(file).subarray(0, first), all.subarray(0, first));
      t.is(verifyLog(file).lastSeq, 14); // 13 records and the repair's note
    }
  t.is(cases, 8 * ((starts[14] as number) - first));
});

test("the first record of a group zeroed whole, ts and all, is repaired too", (t) => {
  const dir = tempDataDir(t);
  const { file, all, starts } = grouped(dir);
  const first = starts[13] as number;
  const damaged = Buffer.from(all);
  damaged.fill(0, first, (starts[14] as number) - 1);
  writeFileSync(file, damaged);
  t.deepEqual(verifyLog(file).tail, { offset: first, bytes: all.length - first, line: 14 });
});

test("damage in an earlier write, with a later group write whole after it, is refused", (t) => {
  const dir = tempDataDir(t);
  const { file, all, starts } = grouped(dir);
  // The first record of the first group (seq 11), and a single write's record (seq 10): the whole records
  // after them belong to writes that began later (seq 14, or 11), so the damage was acknowledged.
  for (const line of [11, 10]) {
    const damaged = Buffer.from(all);
    damaged.fill(0, starts[line - 1] as number, (starts[line] as number) - 1);
    writeFileSync(file, damaged);
    const e = t.throws(() => verifyLog(file), { instanceOf: LogCorruptError }, `line ${line}`);
    t.is(e?.line, line);
    t.regex(e?.message ?? "", /more records follow it/);
  }
  // The middle record of the last group: the record after it began at 14 as well, so that is the torn write.
  const damaged = Buffer.from(all);
  damaged.fill(0, starts[14] as number, (starts[15] as number) - 1);
  writeFileSync(file, damaged);
  t.deepEqual(verifyLog(file).tail, { offset: starts[14], bytes: all.length - (starts[14] as number), line: 15 });
});

test("a mark that names a later seq, zero or a non-integer is not a record, with a valid crc: refused wherever it is", (t) => {
  const dir = tempDataDir(t);
  const { file, all, starts } = grouped(dir, 1);
  for (const mark of [13, 0, 1.5]) {
    const line = encodeLine(12, "2026-01-02T03:04:05.678Z", "s", "note", '{"text":"x"}', mark);
    const d = decodeLine(line, 0, line.length - 1);
    t.false(d.ok, `write ${mark}`);
    if (!d.ok) t.false(d.tornable, `write ${mark}`);
    writeFileSync(file, Buffer.concat([all.subarray(0, starts[11] as number), line, all.subarray(starts[12] as number)]));
    const e = t.throws(() => verifyLog(file), { instanceOf: LogCorruptError });
    t.is(e?.line, 12);
  }
});

test("a bit flip that makes an acknowledged record's ts equal the next write's is still damage, not a torn write", (t) => {
  const dir = tempDataDir(t);
  // Five single writes a millisecond apart; record 3's ts ends in 8, record 4's in 9: one bit apart.
  const ts = (ms: number) => `2026-01-02T03:04:05.${String(ms).padStart(3, "0")}Z`;
  const lines = [docLine(1, "session.start", { version: "0.0.0" }, "s", ts(676))];
  for (let seq = 2; seq <= 5; seq++) lines.push(docLine(seq, "note", { text: `record ${seq}` }, "s", ts(675 + seq)));
  const third = Buffer.from(lines[2]!);
  const at = third.indexOf("678Z") + 2;
  third[at] ^= 1; // "8" -> "9": the damaged line now shows record 4's ts
  t.true(third.includes("679Z"));
  const content = Buffer.concat([Buffer.from(lines[0]! + lines[1]!), third, Buffer.from(lines[3]!), Buffer.from(lines[4]!.slice(0, 20))]);
  const file = putLog(dir, "s", content);
  const e = t.throws(() => openForAppend("s", { dataDir: dir }), { instanceOf: LogCorruptError });
  t.is(e?.line, 3);
  t.true(bytes(file).equals(content), "nothing repaired");
});
