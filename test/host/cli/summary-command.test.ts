// nodwyn summary as a real process: create, list, drop; the span rules, the 16 KiB limit, redaction, the lock, incomplete logs, and the loop seeing each edit.
import test from "ava";
import { spawn } from "node:child_process";
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createSessionLog, readLog, type LogRecord } from "../../../host/log/index.js";
import { SourceRecords, checkSpan, replayRequest } from "../../../host/window/index.js";
import { AgentSession } from "../../../host/session/agent.js";
import { FakeModel } from "../../helpers/fake-model.js";
import { nodwyn, tempDir } from "../../helpers/cli.js";
import { waitExit } from "../../helpers/wait-exit.js";
import { gitRepo } from "../session/agent-helpers.js";

const FIXTURES = fileURLToPath(new URL("../../../../test/fixtures/window/", import.meta.url));
const HOLD = fileURLToPath(new URL("../../../../test/host/log/fixtures/hold-writer.mjs", import.meta.url));
const A = "20261201T234509Z-ee8622ba";

/** A data dir with a copy of golden log A (closed, three v1 turns then v2 ones). */
function data(): { dir: string; file: string } {
  const dir = tempDir("nodwyn-summary-");
  mkdirSync(join(dir, "sessions"), { recursive: true });
  const file = join(dir, "sessions", `${A}.jsonl`);
  copyFileSync(join(FIXTURES, "v1", `${A}.jsonl`), file);
  return { dir, file };
}

const recs = (file: string): LogRecord[] => [...readLog(file)];

function textFile(dir: string, text: string | Buffer): string {
  const f = join(dir, `summary-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(f, text);
  return f;
}

// The v1 log A: turn 1 is seq 3-10 (user.msg 3, answer 10), turn 2 is 12-20, turn 3 is 22-28.
test("a summary is created with its source digest and prints its seq; the list says its status; --drop revokes it", (t) => {
  const { dir, file } = data();
  const before = readFileSync(file);
  const r = nodwyn(["summary", "--from", "3", "--through", "10", "--text", textFile(dir, "Turn 1: the README says there is nothing to do.\n"), A], { dataDir: dir });
  t.is(r.code, 0, r.stderr);
  t.is(r.stdout, "31\n");
  const all = recs(file);
  t.deepEqual(readFileSync(file).subarray(0, before.length), before, "nothing rewritten: the log only gained records");
  const s = all.find((x) => x.seq === 31)!;
  const src = new SourceRecords();
  for (const x of all) src.add(x);
  const c = checkSpan(src, 3, 10, () => undefined);
  t.deepEqual(s.payload, { from: 3, through: 10, text: "Turn 1: the README says there is nothing to do.\n", digest: (c as any).digest, actor: "person" });
  const l = nodwyn(["summary", A], { dataDir: dir });
  t.is(l.code, 0);
  t.regex(l.stdout, /^ +SEQ {2}SPAN +STATUS +TEXT\n +31 {2}3-10 +active +Turn 1: the README says there is nothing to do\.\n$/);
  const d = nodwyn(["summary", "--drop", "31", "--reason", "wrong", A], { dataDir: dir });
  t.is(d.stdout, "32\n");
  t.like(recs(file).at(-1), { kind: "summary.drop", payload: { summary_seq: 31, actor: "person", reason: "wrong" } });
  const j = nodwyn(["summary", "--json", A], { dataDir: dir });
  t.like(JSON.parse(j.stdout), { seq: 31, from: 3, through: 10, status: "dropped", dropped: 32 });
  const again = nodwyn(["summary", "--drop", "31", A], { dataDir: dir });
  t.is(again.code, 1);
  t.is(again.stderr, "nodwyn summary: the summary at seq 31 was already dropped (seq 32)\n");
  const notOne = nodwyn(["summary", "--drop", "3", A], { dataDir: dir });
  t.is(notOne.stderr, `nodwyn summary: seq 3 is a user.msg record, not a summary (nodwyn summary ${A} lists them)\n`);
});

test("the span rules, through the command: it must begin at a user.msg and end at a completed reply without pending calls", (t) => {
  const { dir, file } = data();
  const f = textFile(dir, "text");
  const run = (a: number, b: number) => nodwyn(["summary", "--from", String(a), "--through", String(b), "--text", f, A], { dataDir: dir });
  const starts = run(4, 10);
  t.is(starts.code, 1);
  t.is(starts.stderr, "nodwyn summary: seq 4-10 cannot be summarised: a span begins at a user.msg; seq 4 is an llm.req record\n");
  t.is(run(3, 8).stderr, "nodwyn summary: seq 3-10 cannot be summarised: x\n".replace("3-10", "3-8").replace("x", "a span ends at a completed llm.resp; seq 8 is a tool.result record"));
  t.is(run(3, 5).stderr, "nodwyn summary: seq 3-5 cannot be summarised: seq 5 is a reply with pending tool calls (its results come after it); end the span at a reply without tool calls\n");
  t.is(recs(file).length, 30, "nothing was appended");
});

test("the text: at most 16 KiB of UTF-8, not empty; a secret in it is redacted like in every record", (t) => {
  const { dir, file } = data();
  const run = (f: string) => nodwyn(["summary", "--from", "3", "--through", "10", "--text", f, A], { dataDir: dir });
  const over = run(textFile(dir, "x".repeat(16 * 1024 + 1)));
  t.is(over.code, 1);
  t.regex(over.stderr, /is 16385 bytes; a summary is at most 16384 bytes \(16 KiB\) of UTF-8: shorten it\n$/);
  const bad = run(textFile(dir, Buffer.from([0x61, 0x62, 0xc3, 0x28, 0x63])));
  t.regex(bad.stderr, /is not UTF-8 text \(byte 2 begins no UTF-8 character\): save it as UTF-8\n$/);
  t.regex(run(textFile(dir, "  \n")).stderr, /is empty: write the summary's text in it/);
  t.regex(run(join(dir, "missing.txt")).stderr, /cannot read .*missing\.txt: no such file/);
  t.is(recs(file).length, 30);
  // Exactly 16 KiB (multi-byte characters counted as bytes) is accepted.
  const exact = "é".repeat(8 * 1024);
  t.is(Buffer.byteLength(exact), 16 * 1024);
  t.is(run(textFile(dir, exact)).code, 0);
  // A secret inside the text never reaches the log.
  const secret = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
  const s = run(textFile(dir, `The deploy used token ${secret} from the vault.\n`));
  t.is(s.code, 0, s.stderr);
  t.regex(s.stderr, /held what looks like a secret; the record holds it redacted/);
  const log = readFileSync(file, "utf8");
  t.false(log.includes(secret));
  const rec = recs(file).find((x) => x.kind === "summary" && String(x.payload.text).startsWith("The deploy"))!;
  t.is(rec.payload.text, "The deploy used token [REDACTED:github-token] from the vault.\n");
  t.like(recs(file).find((x) => x.seq === rec.seq + 1), { kind: "redact.event", payload: { target_seq: rec.seq, target_kind: "summary" } });
  // A key the person's configuration names is redacted too, whatever its shape.
  const cfg = join(dir, "config", "nodwyn");
  mkdirSync(cfg, { recursive: true });
  writeFileSync(join(cfg, "config.toml"), '[servers.mine]\nkind = "openai"\nurl = "http://127.0.0.1:9"\nkey_env = "MY_KEY"\n');
  const k = nodwyn(["summary", "--from", "12", "--through", "20", "--text", textFile(dir, "key is plainword123 here\n"), A], { dataDir: dir, env: { MY_KEY: "plainword123" } });
  t.is(k.code, 0, k.stderr);
  t.false(readFileSync(file, "utf8").includes("plainword123"));
});

test("a session another process holds is refused, and nothing is written; the session it leaves unclosed must be recovered first", async (t) => {
  const { dir, file } = data();
  const child = spawn(process.execPath, [HOLD, dir, A, "append"], { stdio: ["pipe", "pipe", "inherit"] });
  const gone = waitExit(child, "the session holder", { t });
  const lines = createInterface({ input: child.stdout! });
  // A line from the holder, or a failure naming it after 90 s (a holder that never answers must not stall the worker).
  const next = () =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the session holder printed no line within 90 s")), 90_000);
      lines.once("line", (l) => {
        clearTimeout(timer);
        resolve(l);
      });
    });
  t.regex(await next(), /^ready \d+$/);
  const size = readFileSync(file).length;
  const f = textFile(dir, "Turn 1.\n");
  const r = nodwyn(["summary", "--from", "3", "--through", "10", "--text", f, A], { dataDir: dir });
  t.is(r.code, 1);
  t.is(r.stderr, `nodwyn summary: the session ${A} is open in another process: close it there first (summaries are added to a closed session)\n`);
  t.is(readFileSync(file).length, size, "not a byte written");
  t.is(nodwyn(["summary", "--drop", "5", A], { dataDir: dir }).code, 1);
  child.stdin!.write("close\n");
  t.is(await next(), "closed");
  child.stdin!.write("exit\n");
  await gone;
  // The child's resume left a session.resume without a session.end: the log must be recovered first.
  const inc = nodwyn(["summary", "--from", "3", "--through", "10", "--text", f, A], { dataDir: dir });
  t.is(inc.code, 1);
  t.is(inc.stderr, `nodwyn summary: the log of ${A} is incomplete: its last session has no session.end (it crashed, or was killed); run nodwyn resume ${A} to recover it (and close it), then edit its summaries\n`);
});

test("an incomplete log is refused until a resume recovers it: a torn last line is left for the resume, not repaired", async (t) => {
  const { dir, file } = data();
  appendFileSync(file, '{"seq":31,"ts":"2026-12-0');
  const torn = readFileSync(file);
  const f = textFile(dir, "Turn 1.\n");
  const r = nodwyn(["summary", "--from", "3", "--through", "10", "--text", f, A], { dataDir: dir });
  t.is(r.code, 1);
  t.regex(r.stderr, new RegExp(`:31: the log's last line is torn \\(25 bytes without a newline\\): the session did not end cleanly: run nodwyn resume ${A} to recover it \\(and close it\\), then edit its summaries\\n$`));
  t.deepEqual(readFileSync(file), torn, "left as it was");
  t.deepEqual(readdirSync(join(dir, "sessions")), [`${A}.jsonl`], "no backup made: the resume will make it and note the repair");
  // The resume recovers it (moving the torn line aside, with a note), and after it closes, the summary is accepted.
  const root = gitRepo(t, { "README.md": "hi\n" });
  const agent = await AgentSession.open({
    origin: "resume",
    cwd: root,
    env: { PATH: process.env.PATH, HOME: root, NODWYN_DATA_DIR: dir },
    provider: new FakeModel([]),
    model: { id: "fake-1", server: "fake", contextWindow: 100_000 },
    askApproval: null,
    resume: A,
  });
  agent.close();
  t.true(recs(file).some((x) => x.kind === "note" && x.payload.topic === "log.repair"));
  const ok = nodwyn(["summary", "--from", "3", "--through", "10", "--text", f, A], { dataDir: dir });
  t.is(ok.code, 0, ok.stderr);
  // A log whose writer never recorded session.end (a crash) is refused the same way.
  const w = createSessionLog("crashed-1", { version: "x", origin: "chat" }, { dataDir: dir });
  w.append("user.msg", { text: "hi" });
  w.close();
  t.regex(nodwyn(["summary", "--drop", "2", "crashed-1"], { dataDir: dir }).stderr, /is incomplete: its last session has no session\.end/);
});

test("usage: the three forms and their flags", (t) => {
  const { dir } = data();
  const f = textFile(dir, "x");
  t.is(nodwyn(["summary", "--from", "3", A], { dataDir: dir }).code, 2);
  t.regex(nodwyn(["summary", "--from", "3", A], { dataDir: dir }).stderr, /needs --from, --through and --text \(missing --through, --text\)/);
  t.is(nodwyn(["summary", "--drop", "3", "--from", "3", "--through", "10", "--text", f, A], { dataDir: dir }).code, 2);
  t.is(nodwyn(["summary", "--reason", "x", A], { dataDir: dir }).code, 2);
  t.is(nodwyn(["summary", join(dir, "sessions", `${A}.jsonl`)], { dataDir: dir }).code, 2);
  t.is(nodwyn(["summary", "--from", "0", "--through", "10", "--text", f, A], { dataDir: dir }).code, 2);
  const nope = nodwyn(["summary", "20991231T000000Z-00000000"], { dataDir: dir });
  t.is(nope.code, 1);
  const h = nodwyn(["summary", "--help"], { dataDir: dir });
  t.is(h.code, 0);
  t.regex(h.stdout, /active .*recent.*dropped.*stale.*superseded/s);
});

test("the loop sees each edit at its next request: a summary replaces its span, a drop brings the originals back, and each request replays", async (t) => {
  const { dir, file } = data();
  const root = gitRepo(t, { "README.md": "hi\n" });
  const resume = async (replies: string[], messages: string[]) => {
    const provider = new FakeModel(replies.map((text) => ({ text })));
    const agent = await AgentSession.open({
      origin: "resume",
      cwd: root,
      env: { PATH: process.env.PATH, HOME: root, NODWYN_DATA_DIR: dir },
      provider,
      model: { id: "fake-1", server: "fake", contextWindow: 100_000 },
      askApproval: null,
      resume: A,
    });
    for (const m of messages) await agent.turn(m);
    agent.close();
    return provider.requests;
  };
  t.is(nodwyn(["summary", "--from", "3", "--through", "20", "--text", textFile(dir, "SUMMARY of the first two turns.\n"), A], { dataDir: dir }).stdout, "31\n");
  const [withSummary] = await resume(["ok"], ["next"]);
  const shown = JSON.stringify(withSummary);
  t.true(shown.includes("SUMMARY of the first two turns."));
  t.false(shown.includes("What does the README say?"));
  t.false(shown.includes("Square 12 in Scheme."));
  t.true(shown.includes("Print the numbers to 4000."));
  const drop = nodwyn(["summary", "--drop", "31", A], { dataDir: dir });
  t.is(drop.code, 0, drop.stderr);
  const [without] = await resume(["ok"], ["again"]);
  const back = JSON.stringify(without);
  t.false(back.includes("SUMMARY of the first two turns."));
  t.true(back.includes("What does the README say?"));
  // Every request of the log replays to its digest from the records before it alone.
  const all = recs(file);
  for (const q of all.filter((x) => x.kind === "llm.req")) t.is(replayRequest(all, q.seq).digest, q.payload.digest as string);
});
