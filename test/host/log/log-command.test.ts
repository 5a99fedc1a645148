// `nodwyn log`: list, show, verify and tail over real log files, with exit codes and no stack traces.

import test from "ava";
import { appendFileSync, writeFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { logCommand } from "../../../host/cli/log-command.js";
import { createSessionLog, sessionLogPath } from "../../../host/log/index.js";
import { FIXTURES } from "../redact/fixtures.js";
import { bytes, docLine, docLog, putLog, tempDataDir } from "./helpers.js";

interface Run {
  code: number;
  out: string;
  err: string;
}

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let s = "";
  stream.setEncoding("utf8");
  stream.on("data", (d: string) => (s += d));
  return { stream, text: () => s };
}

async function run(dir: string, ...argv: string[]): Promise<Run> {
  const out = capture();
  const err = capture();
  const code = await logCommand(argv, { stdout: out.stream, stderr: err.stream, env: { NODWYN_DATA_DIR: dir } });
  return { code, out: out.text(), err: err.text() };
}

function noStack(t: { false: (v: boolean, m?: string) => void }, r: Run): void {
  t.false(/\n\s+at /.test(r.err + r.out), "no JS stack trace");
}

function twoSessions(dir: string): void {
  const a = createSessionLog("alpha", { version: "0.1.0", origin: "repl" }, { dataDir: dir });
  a.append("eval.req", { source: "(+ 1 2)", origin: "repl" });
  a.append("eval.result", { ok: true, req_seq: 2, value: "3" });
  a.append("note", { text: FIXTURES["github-token"].positives[0].text });
  a.append("session.end", { reason: "eof" });
  a.close();
  const b = createSessionLog("beta", { version: "0.1.0", origin: "run" }, { dataDir: dir });
  b.close();
}

test("list shows every session with its origin, and --json gives one object per session", async (t) => {
  const dir = tempDataDir(t);
  twoSessions(dir);
  putLog(dir, "gamma", "damaged\n");
  writeFileSync(sessionLogPath("alpha", dir) + ".torn-12", "x");
  const r = await run(dir, "list");
  t.is(r.code, 0);
  const rows = r.out.trim().split("\n");
  t.regex(rows[0], /^SESSION\s+MODIFIED\s+BYTES\s+ORIGIN$/);
  t.is(rows.length, 4, "three logs; the torn-tail backup is not a log");
  t.regex(r.out, /\nalpha\s.*\srepl\n/);
  t.regex(r.out, /\nbeta\s.*\srun\n/);
  t.regex(r.out, /\ngamma\s.*\(unreadable\)\n/);
  const j = await run(dir, "list", "--json");
  const objs = j.out.trim().split("\n").map((l) => JSON.parse(l));
  t.deepEqual(objs.map((o) => o.session).sort(), ["alpha", "beta", "gamma"]);
  const alpha = objs.find((o) => o.session === "alpha");
  t.is(alpha.bytes, bytes(sessionLogPath("alpha", dir)).length);
  t.is(alpha.origin, "repl");
});

test("list of an empty data directory prints only the header", async (t) => {
  const dir = tempDataDir(t);
  const r = await run(dir, "list");
  t.is(r.code, 0);
  t.is(r.out.trim().split("\n").length, 1);
});

test("show prints every record, one per line, redacted as stored", async (t) => {
  const dir = tempDataDir(t);
  twoSessions(dir);
  const r = await run(dir, "show", "alpha");
  t.is(r.code, 0);
  const lines = r.out.trim().split("\n");
  t.deepEqual(lines.map((l) => l.trim().split(/\s+/)[2]), ["session.start", "eval.req", "eval.result", "note", "redact.event", "session.end"]);
  t.regex(lines[1], /^\s+2  \d{4}-\d\d-\d\dT[\d:.]+Z  eval\.req\s+\{"source":"\(\+ 1 2\)","origin":"repl"\}$/);
  t.false(r.out.includes(FIXTURES["github-token"].positives[0].secret));
});

test("show --from/--through/--kind select records; --json prints records without their crc", async (t) => {
  const dir = tempDataDir(t);
  twoSessions(dir);
  const r = await run(dir, "show", "alpha", "--from", "2", "--through", "4", "--json");
  t.is(r.code, 0);
  const recs = r.out.trim().split("\n").map((l) => JSON.parse(l));
  t.deepEqual(recs.map((x) => x.seq), [2, 3, 4]);
  t.deepEqual(Object.keys(recs[0]), ["seq", "ts", "session", "kind", "payload"]);
  t.deepEqual(recs[1].payload, { ok: true, req_seq: 2, value: "3" });
  const k = await run(dir, "show", "--kind", "eval.req,eval.result", "alpha", "--kind=session.end");
  t.deepEqual(k.out.trim().split("\n").map((l) => Number(l.trim().split(/\s+/)[0])), [2, 3, 6]);
});

test("show takes a path to a .jsonl file as well as a session id", async (t) => {
  const dir = tempDataDir(t);
  twoSessions(dir);
  const r = await run(dir, "show", sessionLogPath("beta", dir));
  t.is(r.code, 0);
  t.is(r.out.trim().split("\n").length, 1);
});

test("usage errors exit 2 with the usage on stderr", async (t) => {
  const dir = tempDataDir(t);
  twoSessions(dir);
  for (const argv of [[], ["frobnicate"], ["show"], ["show", "alpha", "--kind", "nope"], ["show", "alpha", "--from", "0"], ["show", "alpha", "--from", "5", "--through", "2"], ["show", "a", "b"], ["verify", "not an id"], ["list", "--wat"]]) {
    const r = await run(dir, ...argv);
    t.is(r.code, 2, argv.join(" "));
    t.regex(r.err, /^nodwyn log( \w+)?: .+\n(hint: .+\n)?usage: nodwyn log/, argv.join(" "));
    noStack(t, r);
  }
});

test("a missing session exits 1 with a one-line error", async (t) => {
  const dir = tempDataDir(t);
  const r = await run(dir, "show", "nosuch");
  t.is(r.code, 1);
  t.is(r.err, `nodwyn log: session log ${sessionLogPath("nosuch", dir)} does not exist\n`);
});

test("show stops at damage with the file and line, after printing what came before", async (t) => {
  const dir = tempDataDir(t);
  const file = putLog(dir, "s", docLog(3) + docLine(5, "note", { text: "gap" }, "s"));
  const r = await run(dir, "show", "s");
  t.is(r.code, 1);
  t.is(r.out.trim().split("\n").length, 3);
  t.is(r.err, `nodwyn log: ${file}:4: seq 5 follows seq 3 (seq 4 is missing)\n`);
});

test("verify says ok for a whole log", async (t) => {
  const dir = tempDataDir(t);
  twoSessions(dir);
  const r = await run(dir, "verify", "alpha");
  t.is(r.code, 0);
  t.is(r.out, `ok: ${sessionLogPath("alpha", dir)}: 6 records (seq 1..6), ${bytes(sessionLogPath("alpha", dir)).length} bytes\n`);
});

test("verify exits 1 and says where for damage in the middle", async (t) => {
  const dir = tempDataDir(t);
  const text = docLog(6).replace('"record 3"', '"record 8"');
  const file = putLog(dir, "s", text);
  const r = await run(dir, "verify", "s");
  t.is(r.code, 1);
  t.regex(r.err, new RegExp(`^damaged: ${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:3: damaged record: crc [0-9a-f]{8} does not match the recorded [0-9a-f]{8}, and more records follow it\n$`));
  noStack(t, r);
});

test("verify exits 1 for a torn tail when no writer holds the log, 0 when one is appending", async (t) => {
  const dir = tempDataDir(t);
  const w = createSessionLog("s", { version: "0.1.0" }, { dataDir: dir });
  appendFileSync(w.file, '{"seq":2,"ts"');
  const live = await run(dir, "verify", "s");
  t.is(live.code, 0);
  t.regex(live.out, /1 records \(seq 1\.\.1\), \d+ bytes; a writer is appending the next one\n$/);
  w.close();
  const dead = await run(dir, "verify", "s");
  t.is(dead.code, 1);
  t.is(dead.err, `damaged: ${w.file}:2: a torn last line (13 bytes without a newline) after 1 whole records (seq 1..1); resuming the session moves it aside\n`);
});

test("tail prints the last records; -n sets how many", async (t) => {
  const dir = tempDataDir(t);
  putLog(dir, "s", docLog(30));
  const r = await run(dir, "tail", "s");
  t.is(r.code, 0);
  t.deepEqual(r.out.trim().split("\n").map((l) => Number(l.trim().split(/\s+/)[0])), [21, 22, 23, 24, 25, 26, 27, 28, 29, 30]);
  const three = await run(dir, "tail", "-n", "3", "--json", "s");
  t.deepEqual(three.out.trim().split("\n").map((l) => JSON.parse(l).seq), [28, 29, 30]);
});

test("tail -f prints records as they are appended, a line only once it is whole, until aborted", async (t) => {
  const dir = tempDataDir(t);
  const file = putLog(dir, "s", docLog(2));
  const out = capture();
  const err = capture();
  const ac = new AbortController();
  const done = logCommand(["tail", "-f", "-n", "1", "s"], {
    stdout: out.stream,
    stderr: err.stream,
    env: { NODWYN_DATA_DIR: dir },
    signal: ac.signal,
    pollMs: 5,
  });
  const waitFor = async (pred: () => boolean) => {
    for (let i = 0; i < 4000 && !pred(); i++) await new Promise((r) => setTimeout(r, 5));
  };
  const seqs = () => out.text().trim().split("\n").filter(Boolean).map((l) => Number(l.trim().split(/\s+/)[0]));
  await waitFor(() => out.text().includes("record 2"));
  const third = docLine(3, "note", { text: "record 3" });
  appendFileSync(file, third.slice(0, 25));
  // Many polls pass over the half-written line without printing it.
  await new Promise((r) => setTimeout(r, 100));
  t.deepEqual(seqs(), [2]);
  appendFileSync(file, third.slice(25) + docLine(4, "note", { text: "record 4" }));
  await waitFor(() => out.text().includes("record 4"));
  ac.abort();
  t.is(await done, 0);
  t.deepEqual(seqs(), [2, 3, 4]);
  t.is(err.text(), "");
});

test("tail -f stops with exit 1 at damage appended later", async (t) => {
  const dir = tempDataDir(t);
  const file = putLog(dir, "s", docLog(2));
  const out = capture();
  const err = capture();
  const done = logCommand(["tail", "-f", "s"], { stdout: out.stream, stderr: err.stream, env: { NODWYN_DATA_DIR: dir }, pollMs: 5 });
  appendFileSync(file, docLine(4, "note", { text: "gap" }));
  t.is(await done, 1);
  t.is(err.text(), `nodwyn log: ${file}:3: seq 4 follows seq 2 (seq 3 is missing)\n`);
});
