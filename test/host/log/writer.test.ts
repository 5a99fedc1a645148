// The writer: exclusive creation, the lock, one fsync per event, poisoning, redaction at the boundary, resume.

import test from "ava";
import { statSync } from "node:fs";
import { join } from "node:path";
import { Redactor } from "../../../host/redact/index.js";
import {
  LogClosedError,
  LogExistsError,
  LogLockedError,
  LogNotFoundError,
  LogPayloadError,
  LogPoisonedError,
  LogWriteError,
  createSessionLog,
  isLockedByWriter,
  openForAppend,
  readLog,
  verifyLog,
  type LogRecord,
} from "../../../host/log/index.js";
import { ALL_SECRETS, FIXTURES, mix } from "../redact/fixtures.js";
import { FailingFs, bytes, tempDataDir, writtenLog } from "./helpers.js";

const START = { version: "0.1.0", origin: "test" };

function records(file: string): LogRecord[] {
  return [...readLog(file)];
}

test("creating a log writes session.start as seq 1, with private permissions", (t) => {
  const dir = tempDataDir(t);
  const w = createSessionLog("s1", START, { dataDir: dir, now: () => new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)) });
  t.is(w.lastSeq, 1);
  t.is(w.file, join(dir, "sessions", "s1.jsonl"));
  w.close();
  const [r] = records(w.file);
  t.deepEqual(r, { seq: 1, ts: "2026-01-02T03:04:05.006Z", session: "s1", kind: "session.start", payload: START });
  t.is(statSync(w.file).mode & 0o777, 0o600);
  t.is(statSync(join(dir, "sessions")).mode & 0o777, 0o700);
});

test("appends get contiguous seqs and are read back as written", (t) => {
  const dir = tempDataDir(t);
  const w = createSessionLog("s", START, { dataDir: dir });
  const a = w.append("eval.req", { source: "(+ 1 2)", origin: "repl" });
  const b = w.append("eval.result", { ok: true, req_seq: a.seq, value: "3" });
  const c = w.append("turn.end", { outcome: "done", req_seq: a.seq });
  t.deepEqual([a.seq, b.seq, c.seq], [2, 3, 4]);
  t.is(w.lastSeq, 4);
  w.close();
  t.deepEqual(
    records(w.file).map((r) => [r.seq, r.kind, r.payload]),
    [
      [1, "session.start", START],
      [2, "eval.req", { source: "(+ 1 2)", origin: "repl" }],
      [3, "eval.result", { ok: true, req_seq: 2, value: "3" }],
      [4, "turn.end", { outcome: "done", req_seq: 2 }],
    ],
  );
  t.is(w.bytes, bytes(w.file).length);
});

test("an existing session log is never overwritten", (t) => {
  const dir = tempDataDir(t);
  const file = writtenLog(dir, "s", 3);
  const before = bytes(file);
  const e = t.throws(() => createSessionLog("s", START, { dataDir: dir }), { instanceOf: LogExistsError });
  t.is(e!.code, "LOG_EXISTS");
  t.deepEqual(bytes(file), before);
});

test("a second writer in the same process is refused at once, and allowed after close", (t) => {
  const dir = tempDataDir(t);
  const w = createSessionLog("s", START, { dataDir: dir });
  t.true(isLockedByWriter(w.file));
  const e = t.throws(() => openForAppend("s", { dataDir: dir }), { instanceOf: LogLockedError });
  t.is(e!.code, "LOG_LOCKED");
  t.is(e!.message, `session log ${w.file} is already open by another writer`);
  w.append("note", { text: "still mine" });
  w.close();
  t.false(isLockedByWriter(w.file));
  const { writer, truncated } = openForAppend("s", { dataDir: dir, resume: START });
  t.is(truncated, null);
  t.throws(() => openForAppend("s", { dataDir: dir }), { instanceOf: LogLockedError });
  writer.append("note", { text: "second" });
  writer.close();
  t.deepEqual(records(w.file).map((r) => [r.seq, r.kind]), [
    [1, "session.start"],
    [2, "note"],
    [3, "session.resume"],
    [4, "note"],
  ]);
});

test("open-for-append without a resume appends nothing itself (a summary or a title to a closed log)", (t) => {
  const dir = tempDataDir(t);
  const file = writtenLog(dir, "s", 3);
  const { writer } = openForAppend("s", { dataDir: dir });
  t.is(writer.lastSeq, 3);
  writer.append("session.title", { actor: "person", title: "the log" });
  writer.close();
  t.deepEqual(records(file).map((r) => r.kind), ["session.start", "note", "note", "session.title"]);
});

test("opening a missing log for append is LogNotFoundError", (t) => {
  const dir = tempDataDir(t);
  t.throws(() => openForAppend("nope", { dataDir: dir }), { instanceOf: LogNotFoundError });
});

test("a bad payload writes nothing and does not poison the writer", (t) => {
  const dir = tempDataDir(t);
  const w = createSessionLog("s", START, { dataDir: dir });
  const size = w.bytes;
  t.throws(() => w.append("eval.req", { src: "x" }), { instanceOf: LogPayloadError, message: /required field "source"/ });
  t.throws(() => w.append("bogus.kind" as never, {}), { instanceOf: LogPayloadError, code: "LOG_UNKNOWN_KIND" } as never);
  t.throws(() => w.append("note", { text: "x", data: { v: NaN } }), { instanceOf: LogPayloadError, message: /not JSON at \/data\/v/ });
  t.throws(() => w.append("note", { text: "x", data: { d: new Date() } }), { instanceOf: LogPayloadError });
  t.throws(() => w.append("session.start", START), { instanceOf: LogPayloadError, message: /only the first record/ });
  t.is(w.bytes, size);
  t.false(w.poisoned);
  t.is(w.append("note", { text: "fine" }).seq, 2);
  w.close();
  t.is(records(w.file).length, 2);
});

test("a record larger than maxRecordBytes is logged in part, its longest string cut with a marker of how much went", (t) => {
  const dir = tempDataDir(t);
  const w = createSessionLog("s", START, { dataDir: dir, maxRecordBytes: 500 });
  t.is(w.append("note", { text: "x".repeat(600), topic: "kept whole" }).seq, 2);
  // Escapes count as the bytes they take in the file.
  t.is(w.append("note", { text: '"\\'.repeat(400) }).seq, 3);
  w.close();
  const rs = records(w.file);
  const lines = bytes(w.file).toString().split("\n").filter(Boolean);
  t.true(lines.every((l) => Buffer.byteLength(l) <= 500));
  const text = (rs[1]!.payload as { text: string; topic: string }).text;
  t.is((rs[1]!.payload as { topic: string }).topic, "kept whole");
  const m = /^(x+)…\[nodwyn: (\d+) more characters not logged: the record was larger than the log's limit of 500 bytes\]$/.exec(text);
  t.truthy(m, text);
  t.is(m![1]!.length + Number(m![2]), 600);
});

test("a record no cut can fit is refused without poisoning", (t) => {
  const dir = tempDataDir(t);
  const w = createSessionLog("s", START, { dataDir: dir, maxRecordBytes: 500 });
  const e = t.throws(() => w.append("note", { text: "many numbers", data: { n: Array.from({ length: 200 }, (_, i) => i) } }), { instanceOf: LogPayloadError });
  t.is(e!.code, "LOG_RECORD_TOO_LARGE");
  t.is(w.append("note", { text: "x".repeat(100) }).seq, 2);
  w.close();
});

test("an invalid session.start creates no file", (t) => {
  const dir = tempDataDir(t);
  t.throws(() => createSessionLog("s", { origin: "x" } as never, { dataDir: dir }), { instanceOf: LogPayloadError });
  t.throws(() => openForAppend("s", { dataDir: dir }), { instanceOf: LogNotFoundError });
  t.notThrows(() => createSessionLog("s", START, { dataDir: dir }).close());
});

test("every append is one write and one fdatasync, and returns after it", (t) => {
  const dir = tempDataDir(t);
  const fs = new FailingFs();
  const w = createSessionLog("s", START, { dataDir: dir, fs });
  const syncs0 = fs.count("fdatasync");
  const writes0 = fs.count("write");
  for (let i = 0; i < 10; i++) w.append("note", { text: `n${i}` });
  // A record with a secret and its redact.event go in the same write and fsync.
  w.append("note", { text: FIXTURES["github-token"].positives[0].text });
  t.is(fs.count("fdatasync") - syncs0, 11);
  t.is(fs.count("write") - writes0, 11);
  // The order: each write is followed by its fdatasync before the next write.
  const ops = fs.calls.filter((c) => c.op === "write" || c.op === "fdatasync").map((c) => c.op);
  for (let i = 0; i < ops.length; i += 2) t.deepEqual(ops.slice(i, i + 2), ["write", "fdatasync"]);
  w.close();
});

test("appendAll writes a group in one write and one fdatasync, with contiguous seqs, redact.events in place", (t) => {
  const dir = tempDataDir(t);
  const fs = new FailingFs();
  const w = createSessionLog("s", START, { dataDir: dir, fs });
  const syncs0 = fs.count("fdatasync");
  const writes0 = fs.count("write");
  const secret = FIXTURES["github-token"].positives[0].text;
  const rs = w.appendAll([
    { kind: "note", payload: { text: "a" } },
    { kind: "note", payload: { text: secret } },
    { kind: "note", payload: { text: "c" } },
  ]);
  t.is(fs.count("fdatasync") - syncs0, 1);
  t.is(fs.count("write") - writes0, 1);
  t.deepEqual(rs.map((r) => r.seq), [2, 3, 5]);
  t.is(rs[1]!.redaction!.seq, 4);
  t.is(rs[0]!.redaction, null);
  t.is(w.lastSeq, 5);
  t.deepEqual(w.appendAll([]), []);
  t.is(fs.count("write") - writes0, 1, "an empty group writes nothing");
  t.is(w.append("note", { text: "after" }).seq, 6);
  w.close();
  t.deepEqual(records(w.file).map((r) => [r.seq, r.kind]), [
    [1, "session.start"],
    [2, "note"],
    [3, "note"],
    [4, "redact.event"],
    [5, "note"],
    [6, "note"],
  ]);
  t.is(records(w.file)[3]!.payload.target_seq, 3);
  t.is(verifyLog(w.file).lastSeq, 6);
});

test("appendAll with one bad payload writes none of the group and does not poison", (t) => {
  const dir = tempDataDir(t);
  const w = createSessionLog("s", START, { dataDir: dir });
  const size = w.bytes;
  t.throws(
    () =>
      w.appendAll([
        { kind: "note", payload: { text: "fine" } },
        { kind: "eval.req", payload: { src: "x" } },
      ]),
    { instanceOf: LogPayloadError, message: /required field "source"/ },
  );
  t.throws(() => w.appendAll([{ kind: "note", payload: { text: "x" } }, { kind: "session.start", payload: START }]), {
    instanceOf: LogPayloadError,
    message: /only the first record/,
  });
  t.is(w.bytes, size);
  t.false(w.poisoned);
  t.is(w.lastSeq, 1);
  t.deepEqual(w.appendAll([{ kind: "note", payload: { text: "x" } }]).map((r) => r.seq), [2]);
  w.close();
  t.deepEqual(records(w.file).map((r) => r.seq), [1, 2]);
});

test("a failed fdatasync of a group poisons the writer and acknowledges none of it", (t) => {
  const dir = tempDataDir(t);
  const fs = new FailingFs();
  const w = createSessionLog("s", START, { dataDir: dir, fs });
  fs.set({ fdatasyncAt: 1 });
  t.throws(() => w.appendAll([{ kind: "note", payload: { text: "a" } }, { kind: "note", payload: { text: "b" } }]), { instanceOf: LogWriteError });
  t.true(w.poisoned);
  t.is(w.lastSeq, 1);
  fs.set({});
  t.throws(() => w.append("note", { text: "c" }), { instanceOf: LogPoisonedError });
  w.close();
  t.deepEqual(records(w.file).map((r) => r.seq), [1]);
});

test("creating a log fsyncs the sessions folder (and every folder it had to make) before the first record", (t) => {
  const dir = tempDataDir(t);
  const fs = new FailingFs();
  const w = createSessionLog("s", START, { dataDir: join(dir, "new", "data"), fs });
  w.close();
  const sessions = join(dir, "new", "data", "sessions");
  // fd numbers are reused: an fsync's file is the latest open of its fd before it.
  const dirFsyncs = fs.calls
    .map((c, i) => (c.op === "fsync" ? fs.calls.slice(0, i).findLast((o) => o.op === "open" && o.fd === c.fd)?.path : undefined))
    .filter((p) => p !== undefined);
  for (const d of [dir, join(dir, "new"), join(dir, "new", "data"), sessions]) t.true(dirFsyncs.includes(d), d);
  const lastDirSync = fs.calls.findLastIndex((c) => c.op === "fsync");
  const firstWrite = fs.calls.findIndex((c) => c.op === "write");
  t.true(lastDirSync < firstWrite);
});

test("closing unlocks before it closes the file", (t) => {
  const dir = tempDataDir(t);
  const fs = new FailingFs();
  const w = createSessionLog("s", START, { dataDir: dir, fs });
  const fd = fs.calls.find((c) => c.op === "open" && c.path === w.file)!.fd;
  w.close();
  const tail = fs.calls.filter((c) => c.fd === fd).slice(-2);
  t.deepEqual(tail.map((c) => [c.op, c.arg]), [
    ["flock", "un"],
    ["close", undefined],
  ]);
  t.notThrows(() => w.close(), "close is idempotent");
  t.throws(() => w.append("note", { text: "late" }), { instanceOf: LogClosedError });
});

test("a failed write poisons the writer: it throws, and every later append throws", (t) => {
  const dir = tempDataDir(t);
  const fs = new FailingFs();
  const w = createSessionLog("s", START, { dataDir: dir, fs });
  w.append("note", { text: "acknowledged" });
  fs.set({ writeAt: 2 });
  w.append("note", { text: "acknowledged too" });
  const e = t.throws(() => w.append("note", { text: "failed" }), { instanceOf: LogWriteError });
  t.is(e!.code, "LOG_WRITE_FAILED");
  t.regex(e!.message, /write failed: EIO/);
  t.true(w.poisoned);
  fs.set({}); // the disk is fine again: the writer still refuses
  const p = t.throws(() => w.append("note", { text: "after" }), { instanceOf: LogPoisonedError });
  t.is(p!.code, "LOG_POISONED");
  t.throws(() => w.append("note", { text: "after" }), { instanceOf: LogPoisonedError });
  w.close();
  t.deepEqual(records(w.file).map((r) => r.payload.text ?? r.kind), ["session.start", "acknowledged", "acknowledged too"]);
});

test("a short write then an error poisons, and the partial record is truncated away", (t) => {
  const dir = tempDataDir(t);
  const fs = new FailingFs();
  const w = createSessionLog("s", START, { dataDir: dir, fs });
  fs.set({ writeAt: 1, shortWriteBytes: 30 });
  t.throws(() => w.append("note", { text: "half written" }), { instanceOf: LogWriteError, message: /ENOSPC/ });
  t.true(w.poisoned);
  w.close();
  const s = verifyLog(w.file);
  t.is(s.tail, null);
  t.is(s.records, 1);
});

test("when the truncate back fails too, the next open repairs the torn record and loses nothing acknowledged", (t) => {
  const dir = tempDataDir(t);
  const fs = new FailingFs();
  const w = createSessionLog("s", START, { dataDir: dir, fs });
  w.append("note", { text: "acknowledged" });
  fs.set({ writeAt: 1, shortWriteBytes: 30, ftruncateFails: true });
  t.throws(() => w.append("note", { text: "half written" }), { instanceOf: LogWriteError });
  w.close();
  t.is(verifyLog(w.file).tail!.bytes, 30);
  const { writer, truncated } = openForAppend("s", { dataDir: dir, resume: START });
  writer.close();
  t.is(truncated!.bytes, 30);
  t.deepEqual(records(w.file).map((r) => [r.seq, r.payload.text ?? r.kind]), [
    [1, "session.start"],
    [2, "acknowledged"],
    [3, "session.resume"],
    [4, truncated!.message],
  ]);
});

test("a failed fsync poisons the writer: the append never reports success", (t) => {
  const dir = tempDataDir(t);
  const fs = new FailingFs();
  const w = createSessionLog("s", START, { dataDir: dir, fs });
  w.append("note", { text: "acknowledged" });
  fs.set({ fdatasyncAt: 1 });
  const e = t.throws(() => w.append("note", { text: "not durable" }), { instanceOf: LogWriteError });
  t.regex(e!.message, /fsync failed: EIO/);
  t.true(w.poisoned);
  fs.set({});
  t.throws(() => w.append("note", { text: "after" }), { instanceOf: LogPoisonedError });
  t.is(w.lastSeq, 2);
  w.close();
  // The unacknowledged record was truncated away, so the log holds what was acknowledged.
  t.deepEqual(records(w.file).map((r) => r.seq), [1, 2]);
});

test("a deferred session.start is written at once and made durable by the next append's one fdatasync", (t) => {
  const dir = tempDataDir(t);
  const fs = new FailingFs();
  const w = createSessionLog("s", START, { dataDir: dir, fs, deferStart: true });
  const seen: number[] = [];
  w.watch((line) => seen.push(JSON.parse(line.toString("utf8")).seq));
  // Written (another reader sees it) but not synced, and not yet told to the watchers.
  t.is(fs.count("write"), 1);
  t.is(fs.count("fdatasync"), 0);
  t.deepEqual(records(w.file).map((r) => r.kind), ["session.start"]);
  t.deepEqual(seen, []);
  w.append("eval.req", { source: "1", origin: "run", actor: "user" });
  // Two writes, one fdatasync after both; the watchers then see both, in order.
  t.deepEqual(
    fs.calls.filter((c) => c.op === "write" || c.op === "fdatasync").map((c) => c.op),
    ["write", "write", "fdatasync"],
  );
  t.deepEqual(seen, [1, 2]);
  w.close();
  t.deepEqual(records(w.file).map((r) => r.seq), [1, 2]);
});

test("close makes a record appended without durability durable before it unlocks; sync with none pending does nothing", (t) => {
  const dir = tempDataDir(t);
  const fs = new FailingFs();
  const w = createSessionLog("s", START, { dataDir: dir, fs });
  const syncs0 = fs.count("fdatasync");
  w.sync();
  t.is(fs.count("fdatasync"), syncs0, "nothing pending: no fdatasync");
  const fd = fs.calls.find((c) => c.op === "open" && c.path === w.file)!.fd;
  w.append("note", { text: "last" }, { durable: false });
  t.is(fs.count("fdatasync"), syncs0);
  w.close();
  t.deepEqual(fs.calls.filter((c) => c.fd === fd).slice(-3).map((c) => c.op), ["fdatasync", "flock", "close"]);
  t.deepEqual(records(w.file).map((r) => r.seq), [1, 2]);
});

test("a failed fdatasync at close of a deferred record is LogWriteError, and the log is still unlocked and closed", (t) => {
  const dir = tempDataDir(t);
  const fs = new FailingFs();
  const w = createSessionLog("s", START, { dataDir: dir, fs });
  w.append("note", { text: "deferred" }, { durable: false });
  fs.set({ fdatasyncAt: 1 });
  const e = t.throws(() => w.close(), { instanceOf: LogWriteError });
  t.regex(e!.message, /fsync failed: EIO/);
  t.true(w.isClosed);
  t.false(isLockedByWriter(w.file));
});

test("no fixture secret reaches the file; each redaction is recorded in a redact.event that holds no secret", (t) => {
  const dir = tempDataDir(t);
  const w = createSessionLog("s", START, { dataDir: dir });
  for (const { text } of ALL_SECRETS) {
    const r = w.append("tool.result", {
      call_id: "c1",
      tool: "shell-exec",
      ok: true,
      output: { stdout: `out: ${text}`, lines: ["a", text], [text.slice(0, 80)]: "as a key" },
    });
    t.truthy(r.redaction, text);
    t.is(r.redaction!.seq, r.seq + 1);
  }
  w.close();
  const raw = bytes(w.file).toString("utf8");
  for (const { secret } of ALL_SECRETS) t.false(raw.includes(secret), `secret reached the file: ${secret}`);
  const recs = records(w.file);
  const events = recs.filter((r) => r.kind === "redact.event");
  t.is(events.length, ALL_SECRETS.length);
  for (const ev of events) {
    const target = recs[(ev.payload.target_seq as number) - 1];
    t.is(target.kind, "tool.result");
    t.is(ev.payload.target_kind, "tool.result");
    t.is(ev.seq, target.seq + 1);
    t.true(Object.values(ev.payload.rules as Record<string, number>).every((n) => n >= 1));
    t.true((ev.payload.paths as string[]).includes("/output/lines/1"));
  }
});

test("a host-registered secret never reaches the file, even registered after the writer opened", (t) => {
  const dir = tempDataDir(t);
  const redactor = new Redactor();
  const w = createSessionLog("s", START, { dataDir: dir, redactor });
  const secret = "held-by-the-host " + mix(12);
  redactor.registerSecret(secret);
  const r = w.append("user.msg", { text: `please use ${secret} for it` });
  t.deepEqual(r.redaction!.report.rules, { "host-secret": 1 });
  w.close();
  const raw = bytes(w.file).toString("utf8");
  t.false(raw.includes(secret));
  t.true(raw.includes("please use [REDACTED:host-secret] for it"));
  const ev = records(w.file)[2];
  t.deepEqual(ev.payload, { target_seq: 2, target_kind: "user.msg", rules: { "host-secret": 1 }, paths: ["/text"] });
});

test("a resume keeps seq contiguous with what the file holds", (t) => {
  const dir = tempDataDir(t);
  const file = writtenLog(dir, "s", 7);
  for (let round = 0; round < 3; round++) {
    const { writer } = openForAppend("s", { dataDir: dir, resume: { version: "0.1.0", origin: `round ${round}` } });
    writer.append("note", { text: `round ${round}` });
    writer.close();
  }
  const recs = records(file);
  t.deepEqual(recs.map((r) => r.seq), Array.from({ length: 13 }, (_, i) => i + 1));
  t.deepEqual(recs.slice(7).map((r) => r.kind), ["session.resume", "note", "session.resume", "note", "session.resume", "note"]);
});

test("a resume whose session.resume cannot be written fails and leaves the log unlocked", (t) => {
  const dir = tempDataDir(t);
  const file = writtenLog(dir, "s", 3);
  const fs = new FailingFs();
  fs.set({ fdatasyncAt: 1 });
  t.throws(() => openForAppend("s", { dataDir: dir, fs, resume: START }), { instanceOf: LogWriteError });
  t.false(isLockedByWriter(file));
  const { writer } = openForAppend("s", { dataDir: dir, resume: START });
  t.is(writer.lastSeq, 4);
  writer.close();
});
