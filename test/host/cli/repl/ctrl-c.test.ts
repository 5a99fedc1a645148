// Ctrl-C at the REPL in its three situations, in a real pseudo-terminal: a half-typed entry, a running evaluation, an empty prompt.
import test from "ava";
import { Pty } from "../../../helpers/pty.js";
import { sessionRecords } from "../../../helpers/cli.js";

const PROMPT = /\n> $/;

test("Ctrl-C drops a half-typed entry, even one of several lines, and gives a fresh prompt", async (t) => {
  const p = new Pty();
  t.teardown(() => p.kill());
  await p.waitFor(PROMPT);
  p.write("(define (f x)\r");
  await p.waitFor(/\. +$/);
  p.write("(* x");
  await p.waitFor("(* x");
  p.write("\x03");
  const after = await p.waitFor(PROMPT);
  t.regex(after, /\^C\n> $/);
  t.notRegex(after, /To leave/);
  // f was never defined: the dropped entry was not evaluated.
  const r = await p.line("(f 2)");
  t.regex(r, /unbound variable: f/);
  t.regex(await p.line("(+ 1 2)"), /\n3\n> $/);
  p.write("\x04");
  t.is((await p.exit()).code, 0);
});

test("Ctrl-C during an evaluation interrupts it with a clear message; definitions are kept", async (t) => {
  const p = new Pty();
  t.teardown(() => p.kill());
  await p.waitFor(PROMPT);
  await p.line("(define kept 42)");
  p.write("(let loop ((i 0)) (loop (+ i 1)))\r");
  await p.waitFor("(let loop ((i 0)) (loop (+ i 1)))\n");
  // Once it runs (the echo of Enter came back), Ctrl-C interrupts it.
  p.write("\x03");
  const msg = await p.waitFor(PROMPT);
  // The message starts a line of its own, after the echoed ^C.
  t.regex(msg, /\^C\ninterrupted \(Ctrl-C\)/);
  t.regex(msg, /definitions are kept/);
  t.regex(await p.line("kept"), /\n42\n> $/);
  // An interrupted evaluation can be started again and interrupted again.
  p.write("(define (spin) (spin)) (spin)\r");
  await p.waitFor("(spin)\n");
  p.write("\x03");
  t.regex(await p.waitFor(PROMPT), /interrupted \(Ctrl-C\)/);
  p.write(",q\r");
  t.is((await p.exit()).code, 0);
  const recs = sessionRecords(p.dataDir);
  const results = recs.filter((r) => r.kind === "eval.result" && !r.payload.ok);
  t.true(results.some((r) => r.payload.error_kind === "limit" && /aborted/.test(r.payload.error)), "the log records the interruption");
  t.is(recs.at(-1).kind, "session.end");
});

test("Ctrl-C at an empty prompt says how to leave; a second one leaves with status 0", async (t) => {
  const p = new Pty();
  t.teardown(() => p.kill());
  await p.waitFor(PROMPT);
  p.write("\x03");
  const hint = await p.waitFor(PROMPT);
  t.regex(hint, /To leave, press Ctrl-C again or Ctrl-D, or type ,q/);
  // Something else in between disarms it.
  t.regex(await p.line("(* 6 7)"), /\n42\n> $/);
  p.write("\x03");
  await p.waitFor(/To leave[^\n]*\n> $/);
  p.write("\x03");
  t.is((await p.exit()).code, 0);
});

test("Ctrl-D leaves at an empty prompt, and deletes a character on a line", async (t) => {
  const p = new Pty();
  t.teardown(() => p.kill());
  await p.waitFor(PROMPT);
  // (+ 1 22) with the cursor moved back over one 2: Ctrl-D deletes it.
  p.write("(+ 1 22)\x1b[D\x1b[D\x04\r");
  t.regex(await p.waitFor(PROMPT), /\n3\n> $/);
  p.write("\x04");
  t.is((await p.exit()).code, 0);
});

test("Ctrl-C while a program waits for a line from the console interrupts it", async (t) => {
  const p = new Pty();
  t.teardown(() => p.kill());
  await p.waitFor(PROMPT);
  p.write("(read-line)\r");
  await p.waitFor("(read-line)\n");
  p.write("half a li\x03");
  t.regex(await p.waitFor(PROMPT), /interrupted \(Ctrl-C\)/);
  t.regex(await p.line("(+ 2 2)"), /\n4\n> $/);
  p.write("\x04");
  t.is((await p.exit()).code, 0);
});
