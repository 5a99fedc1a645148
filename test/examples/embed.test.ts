// examples/embed.ts runs as a real program and shows each step of the embedding API (docs/guides/embedding.md).
import test from "ava";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const EXAMPLE = fileURLToPath(new URL("../../examples/embed.js", import.meta.url));

const run = spawnSync(process.execPath, [EXAMPLE], { encoding: "utf8", timeout: 60_000 });
const lines = run.stdout.split("\n");

/** The output line that starts with `prefix` (each step prints lines numbered "N. what: …"). */
function line(prefix: string): string {
  return lines.find((l) => l.startsWith(prefix)) ?? `(no line starts with ${JSON.stringify(prefix)}; stdout was:\n${run.stdout}\nstderr:\n${run.stderr})`;
}

test("the example exits with status 0 and writes nothing to stderr", (t) => {
  t.is(run.status, 0, run.stderr);
  t.is(run.stderr, "");
});

test("evaluate returns the last value and the host receives Scheme's console output", (t) => {
  t.is(line("1. "), '1. evaluate: (+ 1 2) => 3; Scheme printed "hi from Scheme"');
});

test("a procedure defined from a table entry runs, and its types are checked before it is called", (t) => {
  t.is(line("2. word-count"), "2. word-count: 3");
  t.regex(line("2. bad argument"), /bad argument #1 to 'word-count' \(string expected, got 42\)$/);
});

test("an async procedure is awaited by evaluate and refused by evaluateSync", (t) => {
  t.is(line("3. fetch-greeting"), '3. fetch-greeting: "hello, ada!"');
  t.is(line("3. in evaluateSync"), "3. in evaluateSync: refused: async-in-sync: an asynchronous procedure was called in a synchronous evaluation");
});

test("each limit ends the evaluation with a limit condition, guard does not catch it, and the interpreter goes on", (t) => {
  t.is(line("4. steps"), "4. steps: limit (steps): step budget exhausted");
  t.is(line("4. timeout"), "4. timeout: limit (timeout): evaluation timed out");
  t.is(line("4. abort"), "4. abort: limit (aborted): evaluation aborted");
  t.is(line("4. guard"), "4. guard cannot catch it: limit (steps): step budget exhausted");
  t.is(line("4. still usable"), "4. still usable: (* 6 7) => 42");
});

test("values convert both ways: toJS, fromJS, and Scheme reads what the host defined", (t) => {
  t.is(line("5. toJS"), "5. toJS: [ 1, 2.5, 'three', 'four', [ true, false ], 1180591620717411303424n ]");
  t.is(line("5. fromJS"), '5. fromJS: ((name . "nodwyn") (tags . #("scheme" "agents")) (version . 1))');
  t.is(line("5. Scheme reads it"), '5. Scheme reads it: "agents"');
});

test("interp.call calls a Scheme procedure from TypeScript", (t) => {
  t.is(line("6. call"), '6. call: "the title has 2 words"');
});

test("an uncaught error is an EvalError reading file:line:col: message, with kind, irritants and a backtrace", (t) => {
  t.is(line("7. error"), "7. error: script.scm:2:3: bad argument #1 to 'car' (pair expected, got 42)");
  t.is(line("7. kind"), "7. kind type, at script.scm:2:3, irritants 42");
  t.true(line("7. backtrace").startsWith("7. backtrace, innermost first: first-word (script.scm:2:3)"), line("7. backtrace"));
});

test("two interpreters share no definitions", (t) => {
  t.is(line("8. isolation"), "8. isolation: first sees 42; second: unbound variable: secret");
  t.is(line("8. word-count"), "8. word-count in the second: not defined");
});
