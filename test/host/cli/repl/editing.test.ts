// Line editing in a real pseudo-terminal: Tab completion, history across two REPLs, Ctrl-R, multi-line entries recalled whole.
import test from "ava";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Pty } from "../../../helpers/pty.js";
import { tempDir } from "../../../helpers/cli.js";

const PROMPT = /\n> $/;

test("Tab completes a primitive's name, lists the choices when there are several, and completes commands", async (t) => {
  const p = new Pty();
  t.teardown(() => p.kill());
  await p.waitFor(PROMPT);
  p.write("(index-gr\t");
  await p.waitFor("(index-grep", {});
  // The completed name is in the line: the call runs (and fails on its missing arguments).
  p.write(")\r");
  t.regex(await p.waitFor(PROMPT), /index-grep: wrong number of arguments/);
  p.write("(string-up\t");
  await p.waitFor("(string-upcase");
  p.write(' "abc")\r');
  t.regex(await p.waitFor(PROMPT), /\n"ABC"\n> $/);
  // Several choices, no longer common prefix: they are listed, the line stays.
  p.write("(fs-\t");
  const listed = await p.waitFor(/fs-find +fs-read[\s\S]*> \(fs-$/);
  t.regex(listed, /fs-find/);
  p.write("\x03");
  await p.waitFor(PROMPT);
  p.write(",desc\t");
  await p.waitFor(",describe");
  p.write(" car\r");
  t.regex(await p.waitFor(PROMPT), /car: a procedure/);
  p.write("\x04");
  await p.exit();
});

test("history is kept across two REPLs, multi-line entries come back whole, Ctrl-R finds an entry", async (t) => {
  const dir = tempDir();
  const hist = join(dir, "hist");
  const a = new Pty({ history: hist });
  t.teardown(() => a.kill());
  await a.waitFor(PROMPT);
  a.write("(define (twice x)\r");
  await a.waitFor(/\. +$/);
  a.write("(* 2 x))\r");
  await a.waitFor(PROMPT);
  await a.line("(twice 21)");
  await a.line("(list 'first 'session)");
  a.write("\x04");
  t.is((await a.exit()).code, 0);
  t.true(existsSync(hist));
  t.is(statSync(hist).mode & 0o777, 0o600, "the history file is private");
  t.regex(readFileSync(hist, "utf8"), /^\(define \(twice x\)\\n  \(\* 2 x\)\)\n\(twice 21\)\n/);

  const b = new Pty({ history: hist });
  t.teardown(() => b.kill());
  await b.waitFor(PROMPT);
  // Up twice: the entry before the last, as typed.
  b.write("\x1b[A\x1b[A");
  await b.waitFor("(twice 21)");
  b.write("\r");
  t.regex(await b.waitFor(PROMPT), /unbound variable: twice/, "a new REPL: the definition is not there, its text is");
  // Ctrl-R: the multi-line definition, found by a word inside it, comes back whole and runs.
  b.write("\x12twice x");
  await b.waitFor(/reverse-i-search\)'twice x': \(define \(twice x\)/);
  b.write("\r");
  await b.waitFor(PROMPT);
  t.regex(await b.line("(twice 5)"), /\n10\n> $/);
  // Up from an empty line: the multi-line entry is drawn over two lines with the continuation prompt.
  b.write("\x1b[A\x1b[A");
  await b.waitFor(/> \(define \(twice x\)\n\. +\(\* 2 x\)\)/);
  b.write("\x03\x04");
  await b.exit();
  const lines = readFileSync(hist, "utf8").trim().split("\n");
  t.true(lines.includes("(twice 5)"), "the second REPL appended its entries");
  t.true(lines.includes("(list 'first 'session)"));
});

test("NODWYN_REPL_HISTORY relocates the history; empty keeps none", async (t) => {
  const dir = tempDir();
  const file = join(dir, "sub", "my-history");
  const p = new Pty({ history: file });
  t.teardown(() => p.kill());
  await p.waitFor(PROMPT);
  await p.line("(+ 1 1)");
  p.write("\x04");
  await p.exit();
  t.is(readFileSync(file, "utf8"), "(+ 1 1)\n");
  const none = new Pty({ history: "" });
  t.teardown(() => none.kill());
  await none.waitFor(PROMPT);
  await none.line("(+ 2 2)");
  none.write("\x04");
  await none.exit();
  t.false(existsSync(join(none.home, ".nodwyn_history")), "no history file anywhere");
});

test("the default history file is ~/.nodwyn_history", async (t) => {
  const home = tempDir();
  const p = new Pty({ env: { HOME: home, NODWYN_REPL_HISTORY: undefined } });
  t.teardown(() => p.kill());
  await p.waitFor(PROMPT);
  await p.line("(quote remembered)");
  p.write("\x04");
  await p.exit();
  t.is(readFileSync(join(home, ".nodwyn_history"), "utf8"), "(quote remembered)\n");
});

test("editing keys: Home/End, word moves, Ctrl-K/Ctrl-Y, Ctrl-U, a paste with several lines", async (t) => {
  const p = new Pty();
  t.teardown(() => p.kill());
  await p.waitFor(PROMPT);
  // Type "2 3)", go to the start, type "(+ 1 ", go to the end: (+ 1 2 3)
  p.write("2 3)\x01(+ 1 \x05\r");
  t.regex(await p.waitFor(PROMPT), /\n6\n> $/);
  // Ctrl-U kills the line; Ctrl-Y yanks it back.
  p.write("(* 7 6)\x15\x19\r");
  t.regex(await p.waitFor(PROMPT), /\n42\n> $/);
  // A bracketed paste of two lines is one entry: not run line by line.
  p.write("\x1b[200~(define (half x)\n  (/ x 2))\x1b[201~");
  await p.waitFor("(/ x 2))");
  p.write("\r");
  await p.waitFor(PROMPT);
  t.regex(await p.line("(half 9)"), /\n9\/2\n> $/);
  p.write("\x04");
  await p.exit();
});
