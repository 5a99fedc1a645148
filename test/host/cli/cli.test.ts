// The nodwyn command end to end: run, -e, repl, errors, exit codes, session logs.
import test from "ava";
import { writeFileSync, mkdirSync, existsSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { nodwyn, tempDir, sessionRecords, BIN } from "../../helpers/cli.js";

test("-e prints the value of the last form with write", (t) => {
  const r = nodwyn(["-e", '(define x 20) (list "s" #\\a (* x 2))']);
  t.is(r.code, 0);
  t.is(r.stdout, '("s" #\\a 40)\n');
});

test("-e starts the value on a fresh line after output", (t) => {
  const r = nodwyn(["-e", '(display "out") 5']);
  t.is(r.stdout, "out\n5\n");
});

test("run executes a program with its arguments on the command line; an argument like an option goes after --", (t) => {
  const dir = tempDir();
  const prog = join(dir, "p.scm");
  writeFileSync(prog, '(import (scheme base) (scheme write) (scheme process-context))\n(write (cdr (command-line)))\n(newline)\n');
  const r = nodwyn(["run", prog, "a", "--", "--flag"]);
  t.is(r.code, 0, r.stderr);
  t.is(r.stdout, '("a" "--flag")\n');
});

test("an uncaught error prints file:line:col, message and backtrace, and exits 1", (t) => {
  const dir = tempDir();
  const prog = join(dir, "bad.scm");
  writeFileSync(prog, "(import (scheme base))\n(define (f x)\n  (+ 1 (vector-ref x 3)))\n(f (vector 1 2))\n");
  const r = nodwyn(["run", prog]);
  t.is(r.code, 1);
  t.is(r.stdout, "");
  const first = r.stderr.split("\n")[0];
  t.is(first, `${prog}:3:8: bad argument #2 to 'vector-ref' (index 3 out of range [0, 2))`);
  t.regex(r.stderr, /in f \(.*bad\.scm:3:8\)/);
  t.notRegex(r.stderr, /at .*\.js:\d+/, "no JS stack trace");
});

test("exit inside a program sets the status and runs dynamic-wind afters", (t) => {
  const dir = tempDir();
  const prog = join(dir, "exit.scm");
  writeFileSync(prog, '(import (scheme base) (scheme write) (scheme process-context))\n(dynamic-wind (lambda () #f) (lambda () (exit 3)) (lambda () (display "after")))\n');
  const r = nodwyn(["run", prog]);
  t.is(r.code, 3);
  t.is(r.stdout, "after");
});

test("the REPL reads forms across lines, survives errors and exits at end of input (1: a form failed)", (t) => {
  const r = nodwyn(["repl"], { input: '(define (sq x)\n  (* x x))\n(sq 7)\n(car 1)\n(sq 8)\n' });
  t.is(r.code, 1);
  t.is(r.stdout, "49\n64\n");
  t.regex(r.stderr, /bad argument #1 to 'car'/);
});

test("a bad command line is a usage error", (t) => {
  t.is(nodwyn(["frobnicate"]).code, 2);
  t.is(nodwyn(["run"]).code, 2);
  t.is(nodwyn(["-I"]).code, 2);
});

test("-e records a session: start, request, result with value and output, end", (t) => {
  const r = nodwyn(["-e", '(display "hi") (+ 1 2)']);
  t.is(r.code, 0);
  const recs = sessionRecords(r.dataDir);
  t.deepEqual(
    recs.map((x) => x.kind),
    ["session.start", "eval.req", "eval.result", "session.end"],
  );
  t.is(recs[0].payload.origin, "-e");
  t.is(recs[1].payload.source, '(display "hi") (+ 1 2)');
  t.like(recs[2].payload, { ok: true, req_seq: 2, value: "3", output: "hi" });
  t.deepEqual(recs.map((x) => x.seq), [1, 2, 3, 4]);
});

test("a failed evaluation is logged with its error and kind", (t) => {
  const r = nodwyn(["-e", "(car '())"]);
  t.is(r.code, 1);
  const res = sessionRecords(r.dataDir).find((x) => x.kind === "eval.result");
  t.like(res.payload, { ok: false, error_kind: "type" });
  t.regex(res.payload.error, /bad argument #1 to 'car'/);
});

test("the REPL logs every evaluation of the session", (t) => {
  const r = nodwyn(["repl"], { input: "(define a 1)\n(+ a 1)\n" });
  const recs = sessionRecords(r.dataDir);
  t.deepEqual(
    recs.filter((x) => x.kind === "eval.req").map((x) => x.payload.source.trim()),
    ["(define a 1)", "(+ a 1)"],
  );
  t.is(recs.at(-1).kind, "session.end");
});

test("--no-log records nothing", (t) => {
  const r = nodwyn(["--no-log", "-e", "(+ 1 2)"]);
  t.is(r.stdout, "3\n");
  t.false(existsSync(join(r.dataDir, "sessions")));
});

test("a secret in an evaluation does not reach the log", (t) => {
  const secret = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
  const r = nodwyn(["-e", `(string-length "${secret}")`]);
  t.is(r.stdout, "40\n");
  const text = JSON.stringify(sessionRecords(r.dataDir));
  t.false(text.includes(secret));
  t.true(sessionRecords(r.dataDir).some((x) => x.kind === "redact.event"));
});

test("nodwyn log show and verify read the recorded session", (t) => {
  const r = nodwyn(["-e", "(+ 40 2)"]);
  const id = sessionRecords(r.dataDir)[0].session;
  const show = nodwyn(["log", "show", id, "--kind", "eval.result", "--json"], { dataDir: r.dataDir });
  t.is(show.code, 0);
  t.is(JSON.parse(show.stdout.trim().split("\n")[0] as string).payload.value, "42");
  t.is(nodwyn(["log", "verify", id], { dataDir: r.dataDir }).code, 0);
  mkdirSync(join(r.dataDir, "x"), { recursive: true });
});

test("the start-up snapshot and the plain start give the same results", (t) => {
  const dir = tempDir();
  const prog = join(dir, "p.scm");
  writeFileSync(
    prog,
    '(import (scheme base) (scheme write) (scheme char))\n(write (list (string-upcase "straße") (string-downcase "ΟΔΟΣ") (string-foldcase "ΟΔΟΣ") (inexact 1/3) (call/cc (lambda (k) (k 42)))))\n',
  );
  const snap = nodwyn(["--no-log", "run", prog]);
  const plain = nodwyn(["--no-log", "run", prog], { env: { NODWYN_NO_SNAPSHOT: "1" } });
  // The snapshot's source is ASCII, non-ASCII escaped (scripts/bundle.mjs), final sigma's pattern included.
  t.is(snap.stdout, '("STRASSE" "οδος" "οδοσ" 0.3333333333333333 42)');
  t.is(plain.stdout, snap.stdout);
  t.is(nodwyn(["-e", "(+ 1 2)"], { env: { NODWYN_NO_SNAPSHOT: "1" } }).stdout, "3\n");
});

test("output still queued for a slow pipe is written whole before the command exits", (t) => {
  // The command exits at once only when nothing is left to write (main.ts, finish).
  const program = '(let loop ((i 0)) (when (< i 200000) (write-string "0123456789") (loop (+ i 1))))';
  for (const env of [{}, { NODWYN_NO_SNAPSHOT: "1" }]) {
    const r = spawnSync("sh", ["-c", `"$0" --no-log -e '${program}' | (sleep 0.3; wc -c)`, BIN], { encoding: "utf8", env: { ...process.env, ...env } });
    t.is(r.stdout.trim(), "2000000", JSON.stringify(env));
  }
});

test("the snapshot's bundle is ASCII, so V8 keeps its source one byte a character", (t) => {
  const src = readFileSync(join(dirname(BIN), "..", "dist", "snapshot", "nodwyn.cjs"), "latin1");
  const at = src.search(/[^\x00-\x7f]/);
  t.is(at, -1, `non-ASCII at ${at}: ${JSON.stringify(src.slice(at - 40, at + 10))}`);
});

test("current-jiffy counts from this process's start, not from when the snapshot was built", async (t) => {
  // The snapshot holds `performance` already made (host/cli/snapshot.ts). A
  // time origin left from the build would count at least the snapshot's age.
  // The child prints its jiffies; they cannot exceed the time the parent saw
  // the child run, and the check only tells the two apart when the snapshot is
  // older than that run took, so a slow run (a loaded machine) is tried again
  // with an older snapshot instead of asserting any duration.
  const blob = join(dirname(BIN), "..", "dist", "nodwyn.blob");
  t.true(existsSync(blob), "the build made a snapshot");
  let wait = 3000;
  for (let attempt = 0; attempt < 4; attempt++, wait *= 2) {
    const age = Date.now() - statSync(blob).mtimeMs;
    if (age < wait) await new Promise((r) => setTimeout(r, wait - age));
    const ageAtStart = Date.now() - statSync(blob).mtimeMs;
    const start = Date.now();
    const r = nodwyn(["--no-log", "-e", "(import (scheme time)) (exact (floor (/ (* 1000 (current-jiffy)) (jiffies-per-second))))"]);
    const ran = Date.now() - start;
    t.regex(r.stdout, /^\d+\n$/, r.stderr);
    const jiffyMs = Number(r.stdout.trim());
    t.true(jiffyMs <= ran + 5, `the child counted ${jiffyMs} ms but ran only ${ran} ms`);
    if (ran < ageAtStart) {
      t.pass(`the snapshot was ${ageAtStart} ms old, the child counted ${jiffyMs} ms`);
      return;
    }
  }
  t.fail("the child never ran faster than the snapshot's age; nothing was told apart");
});

test("the command works through a symbolic link, as npm installs it", (t) => {
  const dir = tempDir();
  const link = join(dir, "nodwyn");
  symlinkSync(BIN, link);
  const r = spawnSync(link, ["--no-log", "-e", "(* 6 7)"], { encoding: "utf8", env: { ...process.env, NODWYN_DATA_DIR: dir } });
  t.is(r.stdout, "42\n");
});
