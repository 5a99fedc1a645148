// T12: a torn tail is repaired to the last whole record with its bytes kept; any other damage is a typed LogCorruptError, never skipped.
import test from "ava";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LogCorruptError, openForAppend, readLog, verifyLog, type CorruptReason } from "../../../host/log/index.js";
import { bytes, docLine, rng, tempDataDir, writtenLog } from "./helpers.js";

/** A log of 100 records by the real writer: its file, bytes and the start of each line. */
function hundred(dir: string): { file: string; all: Buffer; starts: number[] } {
  const file = writtenLog(dir, "s", 100);
  const all = bytes(file);
  const starts = [0];
  for (let i = all.indexOf(10); i !== -1 && i + 1 < all.length; i = all.indexOf(10, i + 1)) starts.push(i + 1);
  return { file, all, starts };
}

function backups(dir: string): string[] {
  return readdirSync(join(dir, "sessions")).filter((n) => n.includes(".torn-")).sort();
}

test("truncation at every byte offset within the last two records is repaired to the last whole record, the cut bytes backed up", (t) => {
  const dir = tempDataDir(t);
  const { file, all, starts } = hundred(dir);
  const from = starts[98] as number; // record 99's first byte
  let cases = 0;
  for (let cut = from + 1; cut < all.length; cut++) {
    const content = all.subarray(0, cut);
    writeFileSync(file, content);
    const lastWhole = starts.filter((s) => s <= cut).pop() as number; // where the cut line starts
    if (lastWhole === cut) continue; // a cut at a line boundary leaves whole records only
    // The reader names the tail repair would move; every 8th case is repaired for real (each repair fsyncs four times).
    t.deepEqual(verifyLog(file).tail, { offset: lastWhole, bytes: cut - lastWhole, line: starts.indexOf(lastWhole) + 1 }, `cut at ${cut}`);
    cases++;
    if (cases % 8 !== 1) continue;
    const { writer, truncated } = openForAppend("s", { dataDir: dir });
    writer.close();
    t.truthy(truncated, `cut at ${cut}`);
    t.is(truncated!.offset, lastWhole);
    t.deepEqual(bytes(truncated!.backup), all.subarray(lastWhole, cut));
    // The records before the cut, then the note of the repair.
    t.deepEqual(bytes(file).subarray(0, lastWhole), all.subarray(0, lastWhole));
    const recs = [...readLog(file)];
    t.is(recs.length, starts.indexOf(lastWhole) + 1);
    t.is(recs[recs.length - 1]!.payload.topic, "log.repair");
  }
  t.true(cases > 100);
  t.log(`${cases} truncations repaired`);
});

test("every single-bit flip in the last record is repaired: the record moved aside whole, 99 records kept", (t) => {
  const dir = tempDataDir(t);
  const { file, all, starts } = hundred(dir);
  const last = starts[99] as number;
  let cases = 0;
  for (let i = last; i < all.length; i++)
    for (let bit = 0; bit < 8; bit++) {
      const damaged = Buffer.from(all);
      damaged[i] ^= 1 << bit;
      writeFileSync(file, damaged);
      t.deepEqual(verifyLog(file).tail, { offset: last, bytes: all.length - last, line: 100 }, `byte ${i - last} bit ${bit}`);
      cases++;
      if (cases % 8 !== 1) continue;
      const { writer, truncated } = openForAppend("s", { dataDir: dir });
      writer.close();
      t.is(truncated?.offset, last, `byte ${i - last} bit ${bit}`);
      t.deepEqual(bytes(truncated!.backup), damaged.subarray(last));
      t.deepEqual(bytes(file).subarray(0, last), all.subarray(0, last));
      t.is(verifyLog(file).lastSeq, 100); // 99 records and the repair's note
    }
  t.is(cases, 8 * (all.length - last));
  t.log(`${cases} bit flips of the last record repaired`);
});

/** Damage that must be refused: the reason, and the line and offset the error must name. */
function refused(t: import("ava").ExecutionContext, dir: string, file: string, content: Buffer, want: { reason: CorruptReason | CorruptReason[]; line?: number; offset?: number }, what: string, full = true): void {
  writeFileSync(file, content);
  const before = backups(dir);
  const e = t.throws(() => (full ? openForAppend("s", { dataDir: dir }) : verifyLog(file)), { instanceOf: LogCorruptError }, what);
  if (!e) return;
  const reasons = Array.isArray(want.reason) ? want.reason : [want.reason];
  t.true(reasons.includes(e.reason), `${what}: ${e.reason} ${e.message}`);
  if (want.line !== undefined) t.is(e.line, want.line, what);
  if (want.offset !== undefined) t.is(e.offset, want.offset, what);
  // Never repaired, never skipped: the file is as it was, and no backup was made.
  if (!full) return;
  t.true(bytes(file).equals(content), `${what}: the file was changed`);
  t.deepEqual(backups(dir), before, what);
  t.throws(() => [...readLog(file)], { instanceOf: LogCorruptError }, what);
}

test("a bit flip in any earlier record is a LogCorruptError at that record, whatever follows", (t) => {
  const dir = tempDataDir(t);
  const { file, all, starts } = hundred(dir);
  const random = rng(12);
  let cases = 0;
  // Every bit of record 50, and one random bit of every other record but the last.
  const targets: [number, number][] = [];
  for (let i = starts[49] as number; i < (starts[50] as number) - 1; i++) for (let bit = 0; bit < 8; bit++) targets.push([i, bit]);
  for (let r = 0; r < 99; r++) {
    const s = starts[r] as number;
    const e = (starts[r + 1] as number) - 1; // not its newline (that would join two lines: also refused, tested below)
    targets.push([s + Math.floor(random() * (e - s)), Math.floor(random() * 8)]);
  }
  for (const [i, bit] of targets) {
    const damaged = Buffer.from(all);
    damaged[i] ^= 1 << bit;
    const line = starts.filter((s) => s <= i).length;
    // Every case read strictly; every 16th also refused by open-for-append, the file and backups checked unchanged.
    refused(t, dir, file, damaged, { reason: ["crc-mismatch", "malformed"], line, offset: starts[line - 1] }, `byte ${i} bit ${bit}`, cases % 16 === 0);
    cases++;
  }
  t.log(`${cases} bit flips in earlier records refused`);
});

test("deleted, duplicated and swapped lines, a seq gap, an unknown kind, invalid UTF-8, an over-length line and a NUL run are refused", (t) => {
  const dir = tempDataDir(t);
  const { file, all, starts } = hundred(dir);
  const line = (n: number) => all.subarray(starts[n - 1] as number, n < 100 ? (starts[n] as number) : all.length);
  const join_ = (parts: Buffer[]) => Buffer.concat(parts);
  const before = (n: number) => all.subarray(0, starts[n - 1] as number);
  const after = (n: number) => all.subarray(n < 100 ? (starts[n] as number) : all.length);
  let cases = 0;
  for (const n of [2, 10, 50, 98, 99]) {
    // Deleted: the next record's seq is a gap.
    refused(t, dir, file, join_([before(n), after(n)]), { reason: "seq-gap", line: n }, `line ${n} deleted`);
    // Duplicated.
    refused(t, dir, file, join_([before(n + 1), line(n), after(n)]), { reason: "seq-duplicate", line: n + 1 }, `line ${n} duplicated`);
    // Swapped with the next one.
    refused(t, dir, file, join_([before(n), line(n + 1), line(n), after(n + 1)]), { reason: "seq-gap", line: n }, `lines ${n} and ${n + 1} swapped`);
    cases += 3;
  }
  // A seq gap written with a valid crc, in the middle.
  refused(t, dir, file, join_([before(51), Buffer.from(docLine(52, "note", { text: "skipped one" }, "s")), after(51)]), { reason: "seq-gap", line: 51 }, "a seq gap");
  // An unknown kind with a valid crc: written so, never a torn tail — in the middle or last.
  refused(t, dir, file, join_([before(51), Buffer.from(docLine(51, "session.delete", {}, "s")), after(51)]), { reason: "unknown-kind", line: 51 }, "an unknown kind");
  refused(t, dir, file, join_([all, Buffer.from(docLine(101, "session.delete", {}, "s"))]), { reason: "unknown-kind", line: 101 }, "an unknown kind last");
  // Invalid UTF-8 in the middle (the crc no longer matches).
  const bad = Buffer.from(all);
  bad[(starts[40] as number) + 30] = 0xff;
  refused(t, dir, file, bad, { reason: "crc-mismatch", line: 41, offset: starts[40] }, "invalid UTF-8");
  // An over-length line in the middle.
  refused(t, dir, file, join_([before(30), Buffer.from("x".repeat(17 * 1024 * 1024) + "\n"), after(29)]), { reason: "line-too-long", line: 30, offset: starts[29] }, "an over-length line");
  // A run of NULs over parts of three records, in the middle.
  const nul = Buffer.from(all);
  nul.fill(0, (starts[60] as number) + 10, (starts[62] as number) + 10);
  refused(t, dir, file, nul, { reason: ["crc-mismatch", "malformed"], line: 61, offset: starts[60] }, "a NUL run");
  // Two lines joined by a flipped newline, in the middle.
  const joined = Buffer.from(all);
  joined[(starts[70] as number) - 1] ^= 1;
  refused(t, dir, file, joined, { reason: ["crc-mismatch", "malformed"], line: 70 }, "a flipped newline");
  cases += 7;
  t.log(`${cases} structural damages refused`);
});
