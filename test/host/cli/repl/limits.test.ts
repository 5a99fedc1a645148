// Safety defaults through the command line: the memory limit at the REPL (which goes on) and in run; --sandbox at the REPL and -e.
import test from "ava";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Pty } from "../../../helpers/pty.js";
import { nodwynAsync as nodwyn, sessionRecords, tempDir } from "../../../helpers/cli.js";

const PROMPT = /\n> $/;
const CONS_LOOP = "(let loop ((acc '())) (loop (cons acc acc)))";

test("at the REPL an allocation loop ends with the memory-limit condition; the REPL goes on with its definitions", async (t) => {
  const p = new Pty({ args: ["repl", "--memory", "64"] });
  t.teardown(() => p.kill());
  await p.waitFor(PROMPT);
  await p.line("(define kept 'still-here)");
  const r = await p.line(CONS_LOOP);
  t.regex(r, /memory limit reached \(64 MiB for this evaluation\)/);
  t.notRegex(r, /heap out of memory|FATAL|JavaScript/i);
  t.regex(await p.line("kept"), /\nstill-here\n> $/);
  // Once more: the memory of the first loop was given back.
  t.regex(await p.line(CONS_LOOP), /memory limit reached/);
  t.regex(await p.line("(length (make-list 1000 0))"), /\n1000\n> $/);
  p.write("\x04");
  t.is((await p.exit()).code, 0);
});

test("run: an allocation loop ends the program with the memory limit and exit status 3, never a V8 abort", async (t) => {
  const dir = tempDir();
  const prog = join(dir, "grow.scm");
  writeFileSync(prog, `(import (scheme base))\n(define (grow v) (grow (vector-append v v (vector 1))))\n(grow (vector 1))\n`);
  const r = await nodwyn(["run", "--memory", "64", prog]);
  t.is(r.code, 3);
  t.regex(r.stderr, /memory limit reached \(64 MiB for this evaluation\)/);
  t.notRegex(r.stderr, /heap out of memory|FATAL|JavaScript/i);
  const j = await nodwyn(["run", "--json", "--memory", "64", prog]);
  const o = JSON.parse(j.stdout);
  t.like(o, { ok: false, exit: 3, error: { kind: "limit", code: "memory" } });
});

test("--sandbox at the REPL and -e: a file port to .env is denied by the guard, the environment is the allow-list, writes are refused", async (t) => {
  const root = tempDir();
  writeFileSync(join(root, ".env"), "TOKEN=hunter2\n");
  writeFileSync(join(root, "notes.txt"), "fine\n");
  const env = { NODWYN_TEST_SECRET: "s3cret-value" };
  const readEnv = '(call-with-input-file ".env" read-line)';
  const open = await nodwyn(["-e", readEnv, "--root", root], { cwd: root, env });
  t.is(open.stdout, '"TOKEN=hunter2"\n', "without --sandbox a person's own -e reads what it likes");
  const sand = await nodwyn(["--sandbox", "-e", readEnv, "--root", root], { cwd: root, env });
  t.is(sand.code, 1);
  t.regex(sand.stderr, /^<-e>:1:1: .*access to "\.env" denied \(denylist\)/, "reported at the caller's form");
  t.notRegex(sand.stdout + sand.stderr, /hunter2/);
  const getenv = await nodwyn(["--sandbox", "-e", '(get-environment-variable "NODWYN_TEST_SECRET")'], { cwd: root, env });
  t.is(getenv.stdout, "#f\n");
  const plainEnv = await nodwyn(["-e", '(get-environment-variable "NODWYN_TEST_SECRET")'], { cwd: root, env });
  t.is(plainEnv.stdout, '"s3cret-value"\n');
  const write = await nodwyn(["--sandbox", "-e", '(call-with-output-file "out.txt" (lambda (p) (write 1 p)))'], { cwd: root });
  t.is(write.code, 1);
  t.regex(write.stderr, /not permitted|refused|denied/);
  // The REPL with --sandbox, piped: the same, and a permitted file reads.
  const repl = await nodwyn(["repl", "--sandbox", "--root", root], { cwd: root, input: `${readEnv}\n(call-with-input-file "notes.txt" read-line)\n` });
  t.is(repl.code, 1);
  t.is(repl.stdout, '"fine"\n');
  t.regex(repl.stderr, /denied \(denylist\)/);
  const decisions = sessionRecords(repl.dataDir).filter((r) => r.kind === "guard.decision").map((r) => [r.payload.path, r.payload.decision]);
  t.deepEqual(decisions, [
    [".env", "deny"],
    ["notes.txt", "allow"],
  ]);
});

test("a model's eval (nodwyn ask): a file port to .env is denied by the guard and the environment is the allow-list, with no --sandbox given", async (t) => {
  const root = tempDir();
  const secret = "nodwyn-test-secret-4711";
  writeFileSync(join(root, ".env"), `TOKEN=${secret}\n`);
  writeFileSync(
    join(root, "script.toml"),
    `[[reply]]
tool_calls = [{ name = "eval", arguments = { code = "(call-with-input-file \\".env\\" read-line)" } }]

[[reply]]
tool_calls = [{ name = "eval", arguments = { code = "(get-environment-variable \\"NODWYN_TEST_SECRET\\")" } }]

[[reply]]
text = "done"
`,
  );
  const config = tempDir("nodwyn-config-");
  const r = await nodwyn(["ask", "--model", "scripted:script.toml", "--root", root, "read .env"], {
    cwd: root,
    env: { HOME: root, XDG_CONFIG_HOME: config, NODWYN_TEST_SECRET: secret },
  });
  t.is(r.code, 0, r.stderr);
  t.is(r.stdout, "done\n");
  const recs = sessionRecords(r.dataDir);
  const results = recs.filter((x) => x.kind === "tool.result" && x.payload.tool === "eval").map((x) => x.payload);
  t.is(results.length, 2);
  t.false(results[0].ok);
  t.regex(results[0].error, /^<eval>:1:1: .*access to "\.env" denied \(denylist\)/);
  t.like(results[1], { ok: true, output: "=> #f" });
  t.true(recs.some((x) => x.kind === "guard.decision" && x.payload.path === ".env" && x.payload.decision === "deny"));
  t.false(JSON.stringify(recs).includes(secret), "neither the file's secret nor the variable's reaches the model or the log");
});
