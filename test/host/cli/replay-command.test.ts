// nodwyn replay as a real process: the transcript byte for byte from the file alone, one request rebuilt and verified, and the errors that say which.
import test from "ava";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { crc32 } from "node:zlib";
import { createSessionLog, readLog } from "../../../host/log/index.js";
import { nodwyn, tempDir } from "../../helpers/cli.js";

const FIXTURES = fileURLToPath(new URL("../../../../test/fixtures/window/", import.meta.url));
const A = "20261201T234509Z-ee8622ba";
const C = "20261202T000837Z-73a35602";

/** A data dir holding copies of golden logs. */
function data(...ids: string[]): string {
  const d = tempDir("nodwyn-replay-");
  mkdirSync(join(d, "sessions"), { recursive: true });
  for (const id of ids) copyFileSync(join(FIXTURES, "v2", `${id}.jsonl`), join(d, "sessions", `${id}.jsonl`));
  return d;
}

test("the transcript is the same bytes every time, whatever the clock, zone or language: the checked-in one", (t) => {
  const d = data(A, C);
  for (const id of [A, C]) {
    const expected = readFileSync(join(FIXTURES, "v2", `${id}.transcript.txt`), "utf8");
    const r1 = nodwyn(["replay", id], { dataDir: d });
    const r2 = nodwyn(["replay", join(d, "sessions", `${id}.jsonl`)], { dataDir: tempDir(), env: { TZ: "Asia/Tokyo", LANG: "de_DE.UTF-8", LC_ALL: "de_DE.UTF-8" } });
    t.is(r1.code, 0, r1.stderr);
    t.is(r1.stdout, expected);
    t.is(r2.stdout, expected);
    t.is(r1.stderr, "");
  }
  // Summaries, drops, narrowings and folds are records in it, not applied: the summarised turn is still there.
  const text = readFileSync(join(FIXTURES, "v2", `${A}.transcript.txt`), "utf8");
  t.regex(text, /^#47 \S+ summary {2}of seq 3-10 · by person · source sha256:[0-9a-f]{64}\n {4}The person asked what the README says/m);
  t.regex(text, /^#59 \S+ summary\.drop {2}revokes summary 47 · by person · too short$/m);
  t.regex(text, /^#72 \S+ context\.narrow {2}explore · sub-context · label explore\n {4}Sub-task: read src\/f1\.ts/m);
  t.regex(text, /^#80 \S+ context\.fold {2}ends the context of seq 72 · explored$/m);
  t.regex(text, /^#3 \S+ user\.msg {2}person\n {4}What does the README say\?$/m);
});

test("--window rebuilds one request, verifies its digest and prints it; --canonical prints the bytes the digest is of", (t) => {
  const d = data(A);
  const recs = [...readLog(join(d, "sessions", `${A}.jsonl`))];
  const q = recs.filter((r) => r.kind === "llm.req").at(-1)!;
  const r = nodwyn(["replay", A, "--window", String(q.seq)], { dataDir: d });
  t.is(r.code, 0, r.stderr);
  const req = JSON.parse(r.stdout);
  t.is(req.model, "scripted-1");
  t.true(Array.isArray(req.messages) && req.messages.length > 0);
  t.is(r.stderr, `nodwyn replay: the llm.req at seq ${q.seq} (window-v2) rebuilt from seq 1-${q.seq - 1} and its recorded recipe: digest ${q.payload.digest} verified\n`);
  const c = nodwyn(["replay", "--window", String(q.seq), "--canonical", A], { dataDir: d });
  t.is("sha256:" + createHash("sha256").update(c.stdout, "utf8").digest("hex"), q.payload.digest as string);
  t.deepEqual(JSON.parse(c.stdout), req);
  const j = JSON.parse(nodwyn(["replay", A, "--window", String(q.seq), "--json"], { dataDir: d }).stdout);
  t.like(j, { seq: q.seq, recipe: "window-v2", digest: q.payload.digest, verified: true });
  t.deepEqual(j.request, req);
  // A window-v1 request of the same log, under its own recipe.
  const v1 = recs.find((r) => r.kind === "llm.req")!;
  const r1 = nodwyn(["replay", A, "--window", String(v1.seq)], { dataDir: d });
  t.is(r1.code, 0);
  t.regex(r1.stderr, /\(window-v1\)/);
});

test("errors say which and exit 1: not a request, an unknown recipe, a digest that does not match; usage errors exit 2", (t) => {
  const d = data(A);
  const file = join(d, "sessions", `${A}.jsonl`);
  const r = nodwyn(["replay", A, "--window", "3"], { dataDir: d });
  t.is(r.code, 1);
  t.is(r.stderr, `nodwyn replay: ${file}: seq 3 is a user.msg record, not an llm.req: give the seq of a request (nodwyn log show SESSION --kind llm.req lists them) [not-a-request]\n`);
  t.is(r.stdout, "");
  // Change the recipe's name in one request and the digest of another, each with its CRC made right.
  const lines = readFileSync(file, "utf8").split("\n");
  const reqs = lines.map((l, i) => [l, i] as const).filter(([l]) => l.includes('"kind":"llm.req"') && l.includes('"name":"window-v2"'));
  const fix = (l: string) => {
    const body = l.slice(0, l.length - 18) + "}";
    return `${l.slice(0, l.length - 18)},"crc":"${crc32(Buffer.from(body)).toString(16).padStart(8, "0")}"}`;
  };
  const [l0, i0] = reqs[0]!;
  const [l1, i1] = reqs[1]!;
  lines[i0] = fix(l0.replace('"name":"window-v2"', '"name":"window-v9"'));
  lines[i1] = fix(l1.replace(/"digest":"sha256:[0-9a-f]{4}/, '"digest":"sha256:0000'));
  writeFileSync(file, lines.join("\n"));
  const u = nodwyn(["replay", A, "--window", String(i0 + 1)], { dataDir: d });
  t.is(u.code, 1);
  t.regex(u.stderr, /built by recipe "window-v9", which this nodwyn does not know \(it knows window-v1, window-v2\); it cannot be rebuilt \[unknown-recipe\]\n$/);
  const m = nodwyn(["replay", A, "--window", String(i1 + 1)], { dataDir: d });
  t.is(m.code, 1);
  t.regex(m.stderr, /has digest sha256:[0-9a-f]{64}, but the llm\.req records sha256:0000[0-9a-f]{60}: .* \[digest-mismatch\]\n$/);
  t.is(m.stdout, "", "no guessed request");
  // The transcript still replays: it needs no recipe.
  t.is(nodwyn(["replay", A], { dataDir: d }).code, 0);
  t.is(nodwyn(["replay", A, "--canonical"], { dataDir: d }).code, 2);
  t.is(nodwyn(["replay", A, "--window", "x"], { dataDir: d }).code, 2);
  t.is(nodwyn(["replay", "no such id!"], { dataDir: d }).code, 2);
  const h = nodwyn(["replay", "--help"], { dataDir: d });
  t.is(h.code, 0);
  t.regex(h.stdout, /not an authenticated seal/);
});

test("a log from before recipes replays as a transcript and says its requests cannot be reconstructed exactly", (t) => {
  const d = tempDir("nodwyn-replay-legacy-");
  const w = createSessionLog("legacy-1", { version: "0.0.1", origin: "chat" }, { dataDir: d });
  w.append("user.msg", { text: "hello" });
  const q = w.append("llm.req", { model: "old-model", messages: [{ role: "user", content: "hello" }] });
  w.append("llm.resp", { req_seq: q.seq, model: "old-model", text: "hi" });
  w.append("session.end", { reason: "exit", exit_code: 0 });
  w.close();
  const r = nodwyn(["replay", "legacy-1"], { dataDir: d });
  t.is(r.code, 0);
  t.regex(r.stdout, /^#3 \S+ llm\.req {2}to old-model · no recipe: exact reconstruction cannot be established$/m);
  t.regex(r.stdout, /^#4 \S+ llm\.resp {2}old-model · to llm\.req 3\n {4}hi$/m);
  t.is(r.stderr, "nodwyn replay: 1 of the log's 1 requests record no recipe (a log from before recipes): the transcript replays, but their exact requests cannot be reconstructed\n");
  const e = nodwyn(["replay", "legacy-1", "--window", "3"], { dataDir: d });
  t.is(e.code, 1);
  t.regex(e.stderr, /the llm\.req at seq 3 records no recipe: it comes from before requests recorded them, so its exact request cannot be reconstructed \(nodwyn replay SESSION still shows the transcript\) \[no-recipe\]/);
});
