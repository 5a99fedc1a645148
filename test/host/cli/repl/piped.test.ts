// The REPL when standard input is not a terminal: no prompts, values on stdout, errors on stderr, the exit status.
import test from "ava";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { BIN, nodwynAsync as nodwyn, tempDir } from "../../../helpers/cli.js";

test("piped: no prompt or banner, each form's value on stdout, status 0 when nothing failed", async (t) => {
  const r = await nodwyn(["repl"], { input: "(define (sq x)\n  (* x x))\n(sq 7) (sq 8)\n\"s\"\n" });
  t.is(r.code, 0, r.stderr);
  t.is(r.stdout, '49\n64\n"s"\n');
  t.is(r.stderr, "");
});

test("piped: errors go to stderr and the status is 1 when a form failed; the rest still runs", async (t) => {
  const r = await nodwyn(["repl"], { input: "(car 1)\n(+ 1 1)\n" });
  t.is(r.code, 1);
  t.is(r.stdout, "2\n");
  t.regex(r.stderr, /^<repl-1>:1:1: bad argument #1 to 'car' \(pair expected, got 1\)\n/);
  // Forms on the line after a failed one run too.
  const line = await nodwyn(["repl"], { input: '(display "a") (car 1) (display "b") (+ 2 2)\n' });
  t.is(line.code, 1);
  t.is(line.stdout, "ab\n4\n", "the value starts a line of its own after the output");
  t.regex(line.stderr, /^\n?<repl-1>:1:15: bad argument #1 to 'car'/);
  const limit = await nodwyn(["repl", "--steps", "10000"], { input: "(let loop () (loop))\n" });
  t.is(limit.code, 3);
  t.regex(limit.stderr, /step budget exhausted/);
});

test("piped: read-line reads the next line of the input, and the REPL goes on after it", async (t) => {
  const r = await nodwyn(["repl"], { input: "(define x (read-line))\nthe next line\n(string-length x)\n(read)\n(a datum\n over lines)\n" });
  t.is(r.code, 0, r.stderr);
  t.is(r.stdout, "13\n(a datum over lines)\n");
});

test("piped: REPL commands work too", async (t) => {
  const r = await nodwyn(["repl"], { input: ",describe car\n(list 1 2)\n,pp $1\n,json (vector 1 2)\n" });
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /^car: a procedure/);
  t.regex(r.stdout, /\n\(1 2\)\n\(1 2\)\n\[\n  1,\n  2\n\]\n$/);
});

test("piped from a file and from a pipe: the same result", (t) => {
  const dir = tempDir();
  const f = join(dir, "in.scm");
  writeFileSync(f, "(define y (read-line))\nhello\n(string-append y \"!\")\n");
  const env = { ...process.env, NODWYN_DATA_DIR: dir };
  const fromFile = spawnSync("bash", ["-c", `'${BIN}' repl < '${f}'`], { encoding: "utf8", env, timeout: 60_000 });
  const fromPipe = spawnSync("bash", ["-c", `cat '${f}' | '${BIN}' repl`], { encoding: "utf8", env, timeout: 60_000 });
  t.is(fromFile.stdout, '"hello!"\n', fromFile.stderr);
  t.is(fromPipe.stdout, '"hello!"\n', fromPipe.stderr);
  t.is(fromFile.status, 0);
  t.is(fromPipe.status, 0);
});
