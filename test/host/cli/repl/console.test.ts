// Console I/O at the REPL in a real pseudo-terminal: display stays visible, read-line and read get the typed line.
import test from "ava";
import { Pty } from "../../../helpers/pty.js";

const PROMPT = /\n> $/;

test("display's output stays on the screen: the prompt starts on a fresh line after it", async (t) => {
  const p = new Pty();
  t.teardown(() => p.kill());
  await p.waitFor(PROMPT);
  t.regex(await p.line('(display "hello")'), /\(display "hello"\)\nhello\n> $/);
  t.regex(await p.line('(begin (display "a") (newline) (display "b") 7)'), /\na\nb\n7\n> $/);
  // Nothing after the output erased it: the raw stream never clears the line once "hello" is written.
  const raw = p.output;
  const at = raw.lastIndexOf("hello");
  t.true(at > 0);
  t.notRegex(raw.slice(at, raw.indexOf("\n", at)), /\x1b\[[0-2]?K|\x1b\[J/, "nothing clears the output's line before the cursor leaves it");
  p.write("\x04");
  await p.exit();
});

test("read-line reads the line typed, echoed, without swallowing the next entry", async (t) => {
  const p = new Pty();
  t.teardown(() => p.kill());
  await p.waitFor(PROMPT);
  p.write("(define got (read-line))\r");
  await p.waitFor("(define got (read-line))\n");
  p.write("some text typed\r");
  // The typed line was echoed as it was typed, and the REPL is back.
  t.regex(await p.waitFor(PROMPT), /some text typed\n> $/);
  t.regex(await p.line("got"), /\n"some text typed"\n> $/);
  // The next entry after a read-line is evaluated as an entry, not eaten by the read.
  t.regex(await p.line("(string-length got)"), /\n15\n> $/);
  // read reads a datum, over several lines if need be; Backspace edits the line being read.
  p.write("(read)\r");
  await p.waitFor("(read)\n");
  p.write("(a b\r");
  p.write("cx\x7f d)\r");
  t.regex(await p.waitFor(PROMPT), /\n\(a b c d\)\n> $/);
  p.write("\x04");
  await p.exit();
});

test("Ctrl-D at an empty read-line is its end of file, not the REPL's", async (t) => {
  const p = new Pty();
  t.teardown(() => p.kill());
  await p.waitFor(PROMPT);
  p.write("(eof-object? (read-line))\r");
  await p.waitFor("(eof-object? (read-line))\n");
  p.write("\x04");
  t.regex(await p.waitFor(PROMPT), /#t\n> $/);
  p.write("(read-line)\r");
  await p.waitFor("(read-line)\n");
  p.write("again\r");
  t.regex(await p.waitFor(PROMPT), /"again"\n> $/);
  p.write("\x04");
  t.is((await p.exit()).code, 0);
});
