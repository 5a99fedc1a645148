// The command line end to end: --help everywhere, usage errors, --json, exit codes, --root, EPIPE, log show last, prune.
import test from "ava";
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, utimesSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { BIN, nodwynAsync as nodwyn, sessionRecords, tempDir } from "../../helpers/cli.js";
import { COMMANDS } from "../../../host/cli/commands/index.js";
import type { Command } from "../../../host/cli/command.js";
import { createSessionLog } from "../../../host/log/index.js";

/** Every command chain of the table: ["repl"], ["log", "show"], … */
function chains(cs: readonly Command[], prefix: string[] = []): string[][] {
  return cs.flatMap((c) => [[...prefix, c.name], ...chains(c.subcommands ?? [], [...prefix, c.name])]);
}

test("every command and subcommand answers --help on stdout with its usage and the exit codes, status 0", async (t) => {
  const all = chains(COMMANDS);
  t.true(all.length >= 9);
  const results = await Promise.all(all.map((c) => nodwyn([...c, "--help"])));
  results.forEach((r, i) => {
    const name = all[i]!.join(" ");
    t.is(r.code, 0, name);
    t.regex(r.stdout, /^usage: nodwyn /, name);
    t.regex(r.stdout, /exit status:\n  0 +success\n  1 .*\n  2 +usage error.*\n  3 +a limit was reached.*\n  130 +interrupted/, name);
    t.is(r.stderr, "", name);
  });
  const top = await nodwyn(["--help"]);
  t.is(top.code, 0);
  for (const c of COMMANDS) t.regex(top.stdout, new RegExp(`\\n  ${c.name} +\\S`), c.name);
});

test("run --help is the help, not a file named --help", async (t) => {
  const r = await nodwyn(["run", "--help"]);
  t.is(r.code, 0);
  t.notRegex(r.stdout + r.stderr, /ENOENT|cannot read/);
  t.regex(r.stdout, /usage: nodwyn run \[options\] FILE/);
});

test("an unknown option is a usage error with a hint (status 2), never evaluated or opened", async (t) => {
  const dir = tempDir();
  const e = await nodwyn(["-e", '(display "evaluated")', "--jsn"], { cwd: dir });
  t.is(e.code, 2);
  t.is(e.stdout, "");
  t.regex(e.stderr, /^nodwyn eval: unknown option --jsn\nhint: did you mean --json\?\nusage: nodwyn -e FORMS/);
  const r = await nodwyn(["run", "--frobnicate", "p.scm"], { cwd: dir });
  t.is(r.code, 2);
  t.regex(r.stderr, /unknown option --frobnicate/);
  t.notRegex(r.stderr, /cannot read/);
  const c = await nodwyn(["evl"]);
  t.is(c.code, 2);
  t.regex(c.stderr, /unknown command 'evl'\nhint: did you mean 'eval'\?/);
});

test("global options work anywhere before --", async (t) => {
  const dir = tempDir();
  const prog = join(dir, "p.scm");
  writeFileSync(prog, "(import (scheme base) (scheme write) (scheme process-context)) (write (cdr (command-line)))\n");
  const a = await nodwyn(["--no-log", "run", prog, "x", "--", "--steps", "y"]);
  t.is(a.code, 0, a.stderr);
  t.is(a.stdout, '("x" "--steps" "y")');
  const b = await nodwyn(["run", prog, "--no-log", "--steps", "100000"]);
  t.is(b.code, 0, b.stderr);
  t.is(b.stdout, "()");
  t.false(existsSync(join(b.dataDir, "sessions")), "--no-log after the file still applies");
  const c = await nodwyn(["-e", "(+ 1 2)", "--no-log"]);
  t.is(c.stdout, "3\n");
});

test("-e --json prints one JSON object: the value, the program's output, or the error with its place", async (t) => {
  const ok = await nodwyn(["-e", '(display "hi") (list 1 "two" #\\3)', "--json"]);
  t.is(ok.code, 0);
  const o = JSON.parse(ok.stdout);
  t.deepEqual(o, { ok: true, value: '(1 "two" #\\3)', output: "hi", exit: 0 });
  const bad = await nodwyn(["--json", "-e", "(define (f x) (car x))\n(f 5)"]);
  t.is(bad.code, 1);
  t.is(bad.stdout.trim().split("\n").length, 1);
  const e = JSON.parse(bad.stdout);
  t.false(e.ok);
  t.is(e.exit, 1);
  t.is(e.error.kind, "type");
  t.is(e.error.message, "bad argument #1 to 'car' (pair expected, got 5)");
  t.deepEqual(e.error.location, { file: "<-e>", line: 1, column: 15 });
  t.true(e.error.backtrace.some((f: any) => f.name === "f"));
});

test("-e --jsonl prints one object per form as it runs, stopping at the first error", async (t) => {
  const r = await nodwyn(["--jsonl", "-e", '(display "a") (+ 1 2)\n(car 1) (display "never")']);
  t.is(r.code, 1);
  const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
  t.is(lines.length, 3);
  t.deepEqual(lines.map((l) => [l.form, l.ok, l.value ?? null, l.output]), [
    [1, true, null, "a"],
    [2, true, "3", ""],
    [3, false, null, ""],
  ]);
  t.deepEqual([lines[2].line, lines[2].column], [2, 1]);
  t.is(lines[2].error.location.line, 2);
});

test("run --json and --jsonl: the program's output and result as JSON", async (t) => {
  const dir = tempDir();
  const prog = join(dir, "p.scm");
  writeFileSync(prog, '(import (scheme base) (scheme write))\n(display "out")\n(define x 4)\n(* x x)\n');
  const j = await nodwyn(["run", "--json", prog]);
  t.is(j.code, 0, j.stderr);
  t.deepEqual(JSON.parse(j.stdout), { ok: true, value: "16", output: "out", exit: 0 });
  const l = await nodwyn(["run", "--jsonl", prog]);
  t.is(l.code, 0, l.stderr);
  const lines = l.stdout.trim().split("\n").map((x) => JSON.parse(x));
  t.deepEqual(lines.map((x) => x.form), [1, 2, 3, 4]);
  t.is(lines[1].output, "out");
  t.is(lines[3].value, "16");
});

test("exit statuses: 0 ok, 1 Scheme error, 2 usage, 3 limit", async (t) => {
  const [ok, err, use, steps, time] = await Promise.all([
    nodwyn(["--no-log", "-e", "1"]),
    nodwyn(["--no-log", "-e", "(error \"boom\")"]),
    nodwyn(["--no-log", "-e"]),
    nodwyn(["--no-log", "--steps", "10000", "-e", "(let loop () (loop))"]),
    nodwyn(["--no-log", "--timeout", "200", "-e", "(let loop () (loop))"]),
  ]);
  t.is(ok.code, 0);
  t.is(err.code, 1);
  t.regex(err.stderr, /boom/);
  t.is(use.code, 2);
  t.is(steps.code, 3);
  t.regex(steps.stderr, /step budget exhausted/);
  t.is(time.code, 3);
  t.regex(time.stderr, /timed out/);
});

test("--root must be an existing directory (usage error, status 2)", async (t) => {
  const dir = tempDir();
  writeFileSync(join(dir, "f.txt"), "x");
  const missing = await nodwyn(["--root", join(dir, "nonexistent"), "-e", "1"]);
  t.is(missing.code, 2);
  t.regex(missing.stderr, /--root .*nonexistent: no such directory/);
  const file = await nodwyn(["-e", "1", "--root", join(dir, "f.txt")]);
  t.is(file.code, 2);
  t.regex(file.stderr, /not a directory/);
  const good = await nodwyn(["--root", dir, "-e", '(cdr (assq (quote text) (fs-read "f.txt")))']);
  t.is(good.code, 0, good.stderr);
  t.is(good.stdout, '"x"\n');
});

test("a closed pipe ends the command quietly with status 0 (head -1)", async (t) => {
  const dir = tempDir();
  const env = { ...process.env, NODWYN_DATA_DIR: dir };
  const chatty = spawnSync("bash", ["-c", `'${BIN}' -e '(let loop ((i 0)) (display i) (newline) (loop (+ i 1)))' | head -1; echo "status=\${PIPESTATUS[0]}" >&2`], { encoding: "utf8", env, timeout: 60_000 });
  t.is(chatty.stdout, "0\n");
  t.is(chatty.stderr, "status=0\n");
  for (let i = 0; i < 3; i++) await nodwyn(["-e", `(make-list 20000 ${i})`], { dataDir: dir });
  const show = spawnSync("bash", ["-c", `'${BIN}' log show last | head -1; echo "status=\${PIPESTATUS[0]}" >&2`], { encoding: "utf8", env, timeout: 60_000 });
  t.regex(show.stdout, /^ +1 .*session\.start/);
  t.is(show.stderr, "status=0\n");
});

test("log show last and log tail last name the latest session", async (t) => {
  const dir = tempDir();
  const first = await nodwyn(["-e", "(+ 1 1)"], { dataDir: dir });
  t.is(first.code, 0);
  // The file times must differ for "latest" to be well defined on a coarse clock.
  const sessions = join(dir, "sessions");
  const [one] = readdirSync(sessions);
  utimesSync(join(sessions, one!), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  await nodwyn(["-e", "(* 21 2)"], { dataDir: dir });
  const show = await nodwyn(["log", "show", "last", "--kind", "eval.result", "--json"], { dataDir: dir });
  t.is(show.code, 0, show.stderr);
  t.is(JSON.parse(show.stdout).payload.value, "42");
  const tail = await nodwyn(["log", "tail", "-n", "1", "last"], { dataDir: dir });
  t.regex(tail.stdout, /session\.end/);
  const empty = await nodwyn(["log", "show", "last"]);
  t.is(empty.code, 2);
  t.regex(empty.stderr, /no session logs in .* yet/);
});

test("log prune deletes logs older than the retention with what lies beside them, keeps live and recent ones", async (t) => {
  const dir = tempDir();
  const old = (id: string, days: number) => {
    createSessionLog(id, { version: "0", origin: "test" }, { dataDir: dir }).close();
    const f = join(dir, "sessions", `${id}.jsonl`);
    const when = new Date(Date.now() - days * 86_400_000);
    utimesSync(f, when, when);
    return f;
  };
  old("ancient", 40);
  writeFileSync(join(dir, "sessions", "ancient.mem"), "x");
  writeFileSync(join(dir, "sessions", "ancient.jsonl.torn-5"), "x");
  old("week", 8);
  old("fresh", 0);
  const live = createSessionLog("live", { version: "0", origin: "test" }, { dataDir: dir });
  const when = new Date(Date.now() - 50 * 86_400_000);
  utimesSync(join(dir, "sessions", "live.jsonl"), when, when);
  try {
    const dry = await nodwyn(["log", "prune", "--dry-run"], { dataDir: dir });
    t.is(dry.code, 0, dry.stderr);
    t.regex(dry.stdout, /would delete ancient/);
    t.regex(dry.stdout, /would delete 1 session log older than 30d .*; 1 still in use, kept/);
    t.true(existsSync(join(dir, "sessions", "ancient.jsonl")));
    const r = await nodwyn(["log", "prune"], { dataDir: dir });
    t.is(r.code, 0);
    t.deepEqual(readdirSync(join(dir, "sessions")).sort(), ["fresh.jsonl", "live.jsonl", "week.jsonl"]);
    const week = await nodwyn(["log", "prune", "--older-than", "7d", "--json"], { dataDir: dir });
    t.deepEqual(week.stdout.trim().split("\n").map((l) => JSON.parse(l).session), ["week"]);
    const bad = await nodwyn(["log", "prune", "--older-than", "soon"], { dataDir: dir });
    t.is(bad.code, 2);
    t.regex(bad.stderr, /a duration such as 30d/);
  } finally {
    live.close();
  }
});

/** Starts nodwyn, waits for `ready` on stdout (or stderr), sends `signal`, and resolves with how it ended. */
function signalled(args: string[], ready: string, signal: NodeJS.Signals, on: "stdout" | "stderr" = "stdout", input = ""): Promise<{ code: number | null; stdout: string; stderr: string; dataDir: string }> {
  const dataDir = tempDir();
  return new Promise((resolveRun, reject) => {
    const child = spawn(BIN, args, { env: { ...process.env, NODWYN_DATA_DIR: dataDir }, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let sent = false;
    const check = () => {
      if (!sent && (on === "stdout" ? stdout : stderr).includes(ready)) {
        sent = true;
        child.kill(signal);
      }
    };
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
      check();
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
      check();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolveRun({ code, stdout, stderr, dataDir });
    });
    // Written, and left open: the REPL waits for more.
    if (input) child.stdin.write(input);
  });
}

test("Ctrl-C (SIGINT) during -e or run interrupts the evaluation: status 130, the condition said, the log closed", async (t) => {
  const loop = '(display "started") (newline) (let loop ((i 0)) (loop (+ i 1)))';
  const r = await signalled(["-e", loop], "started", "SIGINT");
  t.is(r.code, 130);
  t.regex(r.stderr, /evaluation aborted/);
  const recs = sessionRecords(r.dataDir);
  t.like(recs.at(-1), { kind: "session.end", payload: { exit_code: 130 } });
  t.true(recs.some((x) => x.kind === "eval.result" && x.payload.error_kind === "limit"));
  const dir = tempDir();
  const prog = join(dir, "spin.scm");
  writeFileSync(prog, `(import (scheme base) (scheme write))\n(display "out") (display "started" (current-error-port)) (newline (current-error-port)) (let loop ((i 0)) (loop (+ i 1)))\n`);
  const j = await signalled(["run", "--json", prog], "started", "SIGINT", "stderr");
  t.is(j.code, 130);
  t.like(JSON.parse(j.stdout), { ok: false, exit: 130, error: { kind: "limit", code: "aborted" }, output: "out" });
});

test("SIGTERM ends -e and the REPL with session.end in the log", async (t) => {
  const r = await signalled(["-e", '(display "started") (newline) (let loop () (loop))'], "started", "SIGTERM");
  t.is(r.code, 143);
  t.like(sessionRecords(r.dataDir).at(-1), { kind: "session.end", payload: { reason: "interrupted", exit_code: 143 } });
  const repl = await signalled(["repl"], "waiting", "SIGTERM", "stdout", '(display "waiting")\n');
  t.is(repl.code, 143);
  t.like(sessionRecords(repl.dataDir).at(-1), { kind: "session.end", payload: { reason: "interrupted", exit_code: 143 } });
});

test("a bare nodwyn is the REPL, and nodwyn FILE.scm runs the file", async (t) => {
  const dir = tempDir();
  const prog = join(dir, "hello.scm");
  writeFileSync(prog, '(import (scheme base) (scheme write) (scheme process-context)) (display "hello ") (write (cdr (command-line)))\n');
  const run = await nodwyn([prog, "a"], { cwd: dir });
  t.is(run.code, 0, run.stderr);
  t.is(run.stdout, 'hello ("a")');
  const repl = await nodwyn([], { input: "(* 6 7)\n" });
  t.is(repl.code, 0, repl.stderr);
  t.is(repl.stdout, "42\n");
  const missing = await nodwyn(["nosuch.scm"], { cwd: dir });
  t.is(missing.code, 1);
  t.regex(missing.stderr, /cannot read nosuch\.scm: no such file/);
});
