// The golden logs (test/fixtures/window): real sessions of the loop; every request in them replays to its digest, and a changed byte is caught, saying which.
import test from "ava";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { fileURLToPath } from "node:url";
import { LogCorruptError, readLog, type LogRecord } from "../../../host/log/index.js";
import { WindowError, replayRequest } from "../../../host/window/index.js";

const FIXTURES = fileURLToPath(new URL("../../../../test/fixtures/window/", import.meta.url));
const A = "20261201T234509Z-ee8622ba";
const B = "20261201T234510Z-1448d84b";
const C = "20261202T000837Z-73a35602";

function logs(dir: string): string[] {
  return readdirSync(join(FIXTURES, dir))
    .filter((f) => f.endsWith(".jsonl") && !f.startsWith("script"))
    .map((f) => join(FIXTURES, dir, f));
}

const recordsOf = (file: string): LogRecord[] => [...readLog(file)];

test("every llm.req of the golden logs replays to its recorded digest: window-v1 ones and window-v2 ones", (t) => {
  const recipes = new Map<string, number>();
  for (const file of [...logs("v1"), ...logs("v2")]) {
    const recs = recordsOf(file);
    for (const q of recs.filter((r) => r.kind === "llm.req")) {
      const r = replayRequest(recs, q.seq);
      t.is(r.digest, q.payload.digest as string, `${file}: llm.req ${q.seq}`);
      recipes.set(r.recipe, (recipes.get(r.recipe) ?? 0) + 1);
    }
  }
  t.true((recipes.get("window-v1") ?? 0) >= 14 * 2, "the v1 requests, in v1/ and again in v2/");
  t.true((recipes.get("window-v2") ?? 0) >= 80);
});

test("the golden logs hold what they are for: summaries, a drop, narrowings, a fold, elision steps and collapse, made by the loop", (t) => {
  const a = recordsOf(join(FIXTURES, "v2", `${A}.jsonl`));
  const kinds = a.map((r) => r.kind);
  t.is(kinds.filter((k) => k === "summary").length, 3);
  t.is(kinds.filter((k) => k === "summary.drop").length, 1);
  t.is(kinds.filter((k) => k === "context.narrow").length, 3);
  t.is(kinds.filter((k) => k === "context.fold").length, 1);
  const v2 = a.filter((r) => r.kind === "llm.req" && (r.payload.recipe as any).name === "window-v2");
  t.true(v2.some((r) => (r.payload.recipe as any).summaries !== undefined), "a request shows a summary");
  t.true(v2.some((r) => (r.payload.recipe as any).narrowed !== undefined), "a request shows a narrowed context");
  const first = a.find((r) => r.kind === "llm.req" && (r.payload.recipe as any).summaries?.[0] === 47)!;
  const req = replayRequest(a, first.seq).request;
  t.deepEqual(req.messages.slice(0, 2).map((m) => m.role), ["user", "assistant"], "a summary opening the window comes after a user message");
  t.regex(req.messages[1]!.content, /^\[revocable summary seq=47 of the conversation at seq 3-10/);
  const b = recordsOf(join(FIXTURES, "v2", `${B}.jsonl`)).filter((r) => r.kind === "llm.req" && (r.payload.recipe as any).name === "window-v2");
  t.true(new Set(b.map((r) => (r.payload.recipe as any).elided_through)).size >= 5, "several elision steps");
  const c = recordsOf(join(FIXTURES, "v2", `${C}.jsonl`)).filter((r) => r.kind === "llm.req");
  t.true(c.some((r) => (r.payload.recipe as any).collapsed !== undefined), "collapse");
});

/** A copy of a golden log in a temp dir, with one record's line changed by `edit` (its CRC made right again when `recrc`). */
function tampered(t: any, id: string, seq: number, edit: (line: string) => string, recrc: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), "nodwyn-golden-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, `${id}.jsonl`);
  copyFileSync(join(FIXTURES, "v2", `${id}.jsonl`), file);
  const lines = readFileSync(file, "utf8").split("\n");
  const old = lines[seq - 1]!;
  let line = edit(old);
  if (line === old) throw new Error("the edit changed nothing");
  if (recrc) {
    const body = line.slice(0, line.length - 18) + "}";
    const crc = crc32(Buffer.from(body, "utf8")).toString(16).padStart(8, "0");
    line = `${line.slice(0, line.length - 18)},"crc":"${crc}"}`;
  }
  lines[seq - 1] = line;
  writeFileSync(file, lines.join("\n"));
  return file;
}

function replayError(file: string, seq: number): WindowError {
  try {
    replayRequest(readLog(file), seq);
  } catch (e) {
    if (e instanceof WindowError) return e;
    throw e;
  }
  throw new Error(`llm.req ${seq} replayed`);
}

function v2Request(id: string, nth = 0): LogRecord {
  return recordsOf(join(FIXTURES, "v2", `${id}.jsonl`)).filter((r) => r.kind === "llm.req" && (r.payload.recipe as any).name === "window-v2")[nth]!;
}

test("one byte changed in a recorded tool definition: that request's digest does not match, and the error says so", (t) => {
  const q = v2Request(A, 2);
  const file = tampered(t, A, q.seq, (l) => l.replace('"description":"Evaluate Scheme', '"description":"Evaluate scheme'), true);
  const e = replayError(file, q.seq);
  t.is(e.code, "digest-mismatch");
  const rebuilt = /has digest (sha256:[0-9a-f]{64})/.exec(e.message)![1];
  t.is(
    e.message,
    `the request rebuilt for the llm.req at seq ${q.seq} (window-v2, from seq 1-${q.seq - 1} and its recorded recipe) has digest ${rebuilt}, but the llm.req records ${q.payload.digest}: the log or the recipe was changed after the request was sent, or another program wrote it`,
  );
  // The requests before it are untouched.
  const before = recordsOf(file).filter((r) => r.kind === "llm.req" && r.seq < q.seq);
  for (const r of before) t.is(replayRequest(readLog(file), r.seq).digest, r.payload.digest as string);
});

test("one byte changed in an earlier event: every later request fails its digest, every earlier one still verifies", (t) => {
  const recs = recordsOf(join(FIXTURES, "v2", `${B}.jsonl`));
  const user = recs.find((r) => r.kind === "user.msg" && r.seq > 41)!;
  const file = tampered(t, B, user.seq, (l) => l.replace('"text":"Read file', '"text":"Read File'), true);
  let after = 0;
  for (const q of recs.filter((r) => r.kind === "llm.req")) {
    if (q.seq < user.seq) t.is(replayRequest(readLog(file), q.seq).digest, q.payload.digest as string);
    else {
      t.is(replayError(file, q.seq).code, "digest-mismatch", `llm.req ${q.seq}`);
      after++;
    }
  }
  t.true(after > 10);
});

test("one byte changed in the recipe's name: an unknown recipe, said exactly, never a guess", (t) => {
  const q = v2Request(A, 0);
  const file = tampered(t, A, q.seq, (l) => l.replace('"name":"window-v2"', '"name":"window-v3"'), true);
  const e = replayError(file, q.seq);
  t.is(e.code, "unknown-recipe");
  t.is(e.message, `the llm.req at seq ${q.seq} was built by recipe "window-v3", which this nodwyn does not know (it knows window-v1, window-v2); it cannot be rebuilt`);
  // And in the record that puts the recipe in force: the request no longer agrees with it.
  const recs = recordsOf(join(FIXTURES, "v2", `${A}.jsonl`));
  const model = recs.filter((r) => r.kind === "session.model" && r.seq < q.seq).at(-1)!;
  const file2 = tampered(t, A, model.seq, (l) => l.replace('"recipe":"window-v2"', '"recipe":"window-v1"'), true);
  const e2 = replayError(file2, q.seq);
  t.is(e2.code, "recipe-mismatch");
  t.is(e2.message, `the llm.req at seq ${q.seq} records recipe "window-v2", but the recipe in force (session.model at seq ${model.seq}) is "window-v1"`);
});

test("a changed byte whose CRC was not made right again is the log's own error, naming the file and line", (t) => {
  const q = v2Request(A, 2);
  const file = tampered(t, A, q.seq, (l) => l.replace('"description":"Evaluate Scheme', '"description":"Evaluate scheme'), false);
  const e = t.throws(() => replayRequest(readLog(file), q.seq), { instanceOf: LogCorruptError });
  t.is(e!.code, "LOG_CRC_MISMATCH");
  t.regex(e!.message, new RegExp(`${A}\\.jsonl:${q.seq}: `));
});

test("replay errors: no record, not a request, a request from before recipes", (t) => {
  const recs = recordsOf(join(FIXTURES, "v2", `${A}.jsonl`));
  const last = recs.at(-1)!.seq;
  const err = (seq: number, rs: LogRecord[] = recs) => t.throws(() => replayRequest(rs, seq), { instanceOf: WindowError })!;
  t.is(err(last + 5).message, `the log has no record at seq ${last + 5} (its last record is seq ${last})`);
  t.is(err(last + 5).code, "no-record");
  const e = err(3);
  t.is(e.code, "not-a-request");
  t.is(e.message, "seq 3 is a user.msg record, not an llm.req: give the seq of a request (nodwyn log show SESSION --kind llm.req lists them)");
  t.is(err(5).message.startsWith("seq 5 is an llm.resp record"), true);
  // A legacy llm.req: no recipe, no digest.
  const legacy = recs.map((r) => (r.seq === 4 ? { ...r, payload: { model: "m", messages: [] } } : r)) as LogRecord[];
  const l = err(4, legacy);
  t.is(l.code, "no-recipe");
  t.is(l.message, "the llm.req at seq 4 records no recipe: it comes from before requests recorded them, so its exact request cannot be reconstructed (nodwyn replay SESSION still shows the transcript)");
});
