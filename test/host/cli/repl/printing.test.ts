// Printing at the REPL in a real pseudo-terminal: large values shortened, ,pp whole, colour on and off (NO_COLOR).
import test from "ava";
import { Pty } from "../../../helpers/pty.js";

const PROMPT = /\n> $/;
/** SGR: colour and emphasis escapes (cursor moves are something else). */
const SGR = /\x1b\[[0-9;]*m/;

test("a 100,000-element list is shortened with the count of what is left out; ,pp $1 prints it whole", async (t) => {
  const p = new Pty({ cols: 80, rows: 40 });
  t.teardown(() => p.kill());
  await p.waitFor(PROMPT);
  const short = await p.line("(let loop ((i 0) (acc '())) (if (= i 100000) (reverse acc) (loop (+ i 1) (cons i acc))))");
  t.regex(short, /\(0 1 2 3 4 5 6 7 8 9 /);
  t.regex(short, / 99 … 99,900 more\)\n/);
  t.regex(short, /shortened: ,pp \$1 prints it whole/);
  t.true(short.length < 2000, `shortened output is small (${short.length} characters)`);
  const whole = await p.line(",pp $1");
  t.regex(whole, / 99998 99999\)\n> $/);
  t.notRegex(whole, /more\)/);
  // Every number is there.
  t.is(whole.match(/\b\d+\b/g)!.length >= 100_000, true);
  // Strings, depth and lines are limited too.
  const s = await p.line('(make-string 5000 #\\x)');
  t.regex(s, /"x{1000}"\[… 4,000 more characters\]/);
  const deep = await p.line("(let loop ((i 0) (acc '())) (if (= i 40) acc (loop (+ i 1) (list acc))))");
  t.regex(deep, /\(\(\(\(\(\(\(\(\(\(\(\(…\)\)\)\)\)\)\)\)\)\)\)\)/);
  p.write("\x04");
  await p.exit();
});

test("colour on a terminal: values, errors and the prompt", async (t) => {
  const p = new Pty();
  t.teardown(() => p.kill());
  await p.waitFor(PROMPT);
  p.write('(list 42 "str")\r');
  await p.waitFor(PROMPT);
  t.regex(p.output, /\x1b\[33m42\x1b\[39m/, "a number in yellow");
  t.regex(p.output, /\x1b\[32m"str"\x1b\[39m/, "a string in green");
  t.regex(p.output, /\x1b\[32m> \x1b\[39m/, "the prompt in green");
  p.write("(car 1)\r");
  await p.waitFor(PROMPT);
  t.regex(p.output, /\x1b\[31m<repl-2>:1:1: bad argument #1 to 'car'/, "the error in red");
  p.write("\x04");
  await p.exit();
});

test("no colour at all with NO_COLOR, or --no-color", async (t) => {
  for (const o of [{ env: { NO_COLOR: "1" } }, { args: ["repl", "--no-color"] }]) {
    const p = new Pty(o);
    t.teardown(() => p.kill());
    await p.waitFor(PROMPT);
    await p.line('(list 42 "str")');
    await p.line("(car 1)");
    p.write("\x04");
    await p.exit();
    t.notRegex(p.output, SGR, JSON.stringify(o));
    t.regex(p.text, /\(42 "str"\)/);
  }
});

test("-e on a terminal shortens a large value too and says how to get all of it; piped it is whole", async (t) => {
  const p = new Pty({ args: ["-e", "(make-list 5000 'x)"], cols: 80 });
  t.teardown(() => p.kill());
  const out = await p.waitFor(/shortened on the terminal: pipe it or add --json for all of it\)\n/);
  t.regex(out, /… 4,900 more\)/);
  t.is((await p.exit()).code, 0);
  const { nodwynAsync } = await import("../../../helpers/cli.js");
  const piped = await nodwynAsync(["-e", "(make-list 5000 'x)"]);
  t.is(piped.stdout, "(" + Array(5000).fill("x").join(" ") + ")\n");
});
