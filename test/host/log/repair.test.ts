// Torn-tail repair on open-for-append: every cut or garbling of the last record is repaired, every other damage refused.

import test from "ava";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  LogCorruptError,
  TruncatedError,
  openForAppend,
  readLog,
  verifyLog,
  type LogRecord,
} from "../../../host/log/index.js";
import { bytes, putLog, rng, tempDataDir, writtenLog } from "./helpers.js";

const RESUME = { version: "0.0.0", origin: "resume" };

// A log of 5 records by the real writer; returns its bytes and where its last line starts.
function fiveRecords(dir: string): { file: string; all: Buffer; lastStart: number } {
  const file = writtenLog(dir, "s", 5);
  const all = bytes(file);
  const lastStart = all.lastIndexOf(10, all.length - 2) + 1;
  return { file, all, lastStart };
}

function backups(dir: string): string[] {
  return readdirSync(join(dir, "sessions")).filter((n) => n.includes(".torn-")).sort();
}

test("cutting the last record at every byte offset is repaired: the torn bytes are kept aside and the log resumes", (t) => {
  const dir = tempDataDir(t);
  const { file, all, lastStart } = fiveRecords(dir);
  const whole = [...readLog(file)];
  const lastLen = all.length - lastStart; // with its newline
  for (let k = 0; k <= lastLen; k++) {
    const cut = all.subarray(0, lastStart + k);
    writeFileSync(file, cut);
    const summary = verifyLog(file);
    const { writer, truncated } = openForAppend("s", { dataDir: dir, resume: RESUME });
    writer.close();
    const recs: LogRecord[] = [...readLog(file)];
    if (k === 0 || k === lastLen) {
      // Nothing torn: either the last record is gone whole, or it is whole.
      t.is(summary.tail, null, `k=${k}`);
      t.is(truncated, null, `k=${k}`);
      const n = k === 0 ? 4 : 5;
      t.deepEqual(recs.slice(0, n), whole.slice(0, n));
      t.deepEqual(recs.map((r) => r.kind).slice(n), ["session.resume"]);
      t.is(recs[n].seq, n + 1);
    } else {
      t.deepEqual(summary.tail, { offset: lastStart, bytes: k, line: 5 }, `k=${k}`);
      t.true(truncated instanceof TruncatedError, `k=${k}`);
      t.is(truncated!.code, "LOG_TRUNCATED");
      t.is(truncated!.offset, lastStart);
      t.is(truncated!.bytes, k);
      t.is(truncated!.line, 5);
      // The backup holds exactly the torn bytes.
      t.deepEqual(bytes(truncated!.backup), all.subarray(lastStart, lastStart + k));
      t.deepEqual(recs.slice(0, 4), whole.slice(0, 4));
      t.deepEqual(recs.slice(4).map((r) => [r.seq, r.kind]), [[5, "session.resume"], [6, "note"]]);
      t.is(recs[5].payload.topic, "log.repair");
      t.deepEqual(recs[5].payload.data, { backup: truncated!.backup, offset: lastStart, bytes: k, line: 5 });
    }
  }
});

test("each repair keeps its own backup: a second tear at the same offset does not overwrite the first", (t) => {
  const dir = tempDataDir(t);
  const { file, all, lastStart } = fiveRecords(dir);
  writeFileSync(file, all.subarray(0, lastStart + 10));
  const a = openForAppend("s", { dataDir: dir });
  a.writer.close();
  writeFileSync(file, Buffer.concat([all.subarray(0, lastStart), Buffer.from("other torn bytes")]));
  const b = openForAppend("s", { dataDir: dir });
  b.writer.close();
  t.not(a.truncated!.backup, b.truncated!.backup);
  t.deepEqual(bytes(a.truncated!.backup), all.subarray(lastStart, lastStart + 10));
  t.is(bytes(b.truncated!.backup).toString(), "other torn bytes");
});

test("flipping any bit of the last record makes it a torn tail: moved aside whole, the log resumes with the records before it", (t) => {
  const dir = tempDataDir(t);
  const { file, all, lastStart } = fiveRecords(dir);
  let repaired = 0;
  for (let i = lastStart; i < all.length; i++) {
    for (let bit = 0; bit < 8; bit++) {
      const damaged = Buffer.from(all);
      damaged[i] ^= 1 << bit;
      writeFileSync(file, damaged);
      // A power loss leaves unsynced sectors garbled: the last write was never acknowledged, so its bytes are a tail.
      const { writer, truncated } = openForAppend("s", { dataDir: dir });
      writer.close();
      t.truthy(truncated, `byte ${i - lastStart} bit ${bit}`);
      t.is(truncated!.offset, lastStart);
      t.is(truncated!.bytes, all.length - lastStart);
      t.deepEqual(bytes(truncated!.backup), damaged.subarray(lastStart));
      t.deepEqual(bytes(file).subarray(0, lastStart), all.subarray(0, lastStart));
      const recs = [...readLog(file)];
      t.deepEqual(recs.map((r: LogRecord) => r.seq), [1, 2, 3, 4, 5]);
      t.is(recs[4]!.payload.topic, "log.repair");
      repaired++;
    }
  }
  t.is(repaired, 8 * (all.length - lastStart));
});

test("damage in an earlier record is an error whatever the tail looks like, and nothing is repaired", (t) => {
  const dir = tempDataDir(t);
  const { file, all, lastStart } = fiveRecords(dir);
  const line3 = all.indexOf(10, all.indexOf(10) + 1) + 1;
  const line3End = all.indexOf(10, line3);
  const random = rng(6);
  for (let n = 0; n < 200; n++) {
    const damaged = Buffer.from(all);
    const i = line3 + Math.floor(random() * (line3End - line3)); // any byte of line 3 but its newline
    damaged[i] ^= 1 << Math.floor(random() * 8);
    // Half the time, a torn tail too.
    const content = n % 2 === 0 ? damaged : damaged.subarray(0, lastStart + 7);
    writeFileSync(file, content);
    const before = backups(dir);
    const e = t.throws(() => openForAppend("s", { dataDir: dir }), { instanceOf: LogCorruptError });
    t.is(e!.line, 3);
    t.deepEqual(bytes(file), content);
    t.deepEqual(backups(dir), before);
  }
});

test("a log holding only a torn line cannot be resumed and is left as it is", (t) => {
  const dir = tempDataDir(t);
  const file = putLog(dir, "s", '{"seq":1,"ts":"2026');
  const e = t.throws(() => openForAppend("s", { dataDir: dir, resume: RESUME }), { instanceOf: LogCorruptError });
  t.is(e!.code, "LOG_EMPTY");
  t.is(bytes(file).toString(), '{"seq":1,"ts":"2026');
  t.deepEqual(backups(dir), []);
});

test("a failed open releases the lock: after fixing the file it opens", (t) => {
  const dir = tempDataDir(t);
  const { file, all } = fiveRecords(dir);
  const damaged = Buffer.from(all);
  damaged[5] ^= 4;
  writeFileSync(file, damaged);
  t.throws(() => openForAppend("s", { dataDir: dir }), { instanceOf: LogCorruptError });
  writeFileSync(file, all);
  const { writer } = openForAppend("s", { dataDir: dir });
  t.is(writer.lastSeq, 5);
  writer.close();
  t.false(existsSync(file + ".torn-0"));
});
