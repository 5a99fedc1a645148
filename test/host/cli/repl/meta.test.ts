// The REPL's commands in a real pseudo-terminal: each one's output, and (help 'name) from code.
import test from "ava";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Pty } from "../../../helpers/pty.js";
import { tempDir } from "../../../helpers/cli.js";

const PROMPT = /\n> $/;

test("the banner says how to get help, how to leave and where the last results are", async (t) => {
  const p = new Pty();
  t.teardown(() => p.kill());
  const banner = await p.waitFor(PROMPT);
  t.regex(banner, /nodwyn \d+\.\d+\.\d+/);
  t.regex(banner, /,help/);
  t.regex(banner, /\$1 \$2 \$3/);
  t.regex(banner, /Ctrl-D leaves/);
  // The last three values are $1, $2, $3.
  await p.line("10");
  await p.line("20");
  await p.line("30");
  t.regex(await p.line("(list $1 $2 $3)"), /\n\(30 20 10\)\n> $/);
  p.write("\x04");
  await p.exit();
});

test(",help lists every command; ,help CMD explains one; .help and .exit work too; an unknown one suggests", async (t) => {
  const p = new Pty();
  t.teardown(() => p.kill());
  await p.waitFor(PROMPT);
  const help = await p.line(",help");
  for (const c of [",help", ",quit", ",bt", ",time", ",expand", ",trace", ",untrace", ",load", ",describe", ",apropos", ",env", ",pp", ",json"]) t.regex(help, new RegExp(`\\n  \\${c}\\b`), c);
  t.regex(await p.line(",help time"), /,time EXPR.*\n  evaluate EXPR and say how long it took/);
  t.regex(await p.line(".help"), /REPL commands/);
  t.regex(await p.line(",descirbe car"), /unknown REPL command ,descirbe \(did you mean ,describe\?\); ,help lists them/);
  p.write(".exit\r");
  t.is((await p.exit()).code, 0);
});

test(",describe shows an agent primitive's signature, doc, example, tool schema and guard rules; (help 'index-grep) works from code", async (t) => {
  const repo = tempDir();
  writeFileSync(join(repo, "a.txt"), "x\n");
  const p = new Pty({ cwd: repo, args: ["repl", "--root", repo] });
  t.teardown(() => p.kill());
  await p.waitFor(PROMPT);
  const d = await p.line(",describe fs-read");
  t.regex(d, /fs-read: an agent primitive/);
  t.regex(d, /\(fs-read path \[start-line\] \[line-count\]\)/);
  t.regex(d, /Example/);
  t.regex(d, /\(fs-read "src\/greet\.scm"\)/);
  t.regex(d, /input \(JSON Schema, 3 arguments/);
  t.regex(d, /path +string, required/);
  t.regex(d, new RegExp(`root +only files under ${repo.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}`));
  t.regex(d, /denylist +\d+ secret-file patterns/);
  t.regex(d, /checkers +none registered/);
  const h = await p.line("(help 'index-grep)");
  t.regex(h, /index-grep: an agent primitive/);
  t.regex(h, /\(index-grep path pattern \[glob\] \[context\]\)/);
  const s = await p.line(",d string-upcase");
  t.regex(s, /string-upcase: a procedure, in \(scheme char\)/);
  t.regex(s, /⇒ "HELLO"/, "the example's value is computed");
  t.regex(await p.line("(define (sq x) \"Squares x.\" (* x x))"), PROMPT);
  const mine = await p.line(",describe sq");
  t.regex(mine, /sq: a procedure; defined at <repl-\d+>:1:1\n  \(sq x\)\n  Squares x\./);
  t.regex(await p.line(",describe let"), /let: syntax \(a special form\), in \(scheme base\)/);
  p.write("\x04");
  await p.exit();
});

test(",apropos, ,env, ,pp, ,json and ,expand print what they say", async (t) => {
  const p = new Pty({ cols: 60 });
  t.teardown(() => p.kill());
  await p.waitFor(PROMPT);
  // On a narrow terminal the banner and ,help are filled to its width, not cut by it.
  for (const l of p.text.split("\n")) t.true([...l].length <= 60, l);
  const help = await p.line(",help");
  t.regex(help, /\n  ,describe NAME +what NAME is: signature,\n {26}documentation,/, "a summary goes on under itself");
  for (const l of help.split("\n")) t.true([...l].length <= 60, l);
  const a = await p.line(",apropos string-up");
  t.regex(a, /1 name containing "string-up"/);
  t.regex(a, /string-upcase/);
  await p.line("(define answer 42)");
  await p.line("(define (greet n) (string-append \"hi \" n))");
  const env = await p.line(",env");
  t.regex(env, /2 names defined here/);
  t.regex(env, /answer +42/);
  t.regex(env, /greet +#<procedure greet>/);
  const pp = await p.line(",pp '(define (f x) (let ((y (* x x)) (z (+ x 1))) (if (> y z) (list y z) (list z y))))");
  t.regex(pp, /\(define \(f x\)\n  \(let \(\(y \(\* x x\)\) \(z \(\+ x 1\)\)\)\n    \(if \(> y z\) \(list y z\) \(list z y\)\)\)\)/);
  const j = await p.line(",json (list (cons 'name \"nodwyn\") (cons 'tags (vector 1 2)) (cons 'none 'null))");
  t.regex(j, /\{\n  "name": "nodwyn",\n  "tags": \[\n    1,\n    2\n  \],\n  "none": null\n\}/);
  t.regex(await p.line(",json (lambda (x) x)"), /cannot be written as JSON/);
  const x = await p.line(",expand (when (> 2 1) (display \"y\") 'done)");
  t.regex(x, /\(if \(> 2 1\) \(begin \(display "y"\) 'done\) \(if #f #f\)\)/);
  // ,expand only expands: a define-syntax in it defines nothing.
  await p.line(",expand (define-syntax swap! (syntax-rules () ((_ a b) (let ((t a)) (set! a b) (set! b t)))))");
  t.regex(await p.line("(swap! 1 2)"), /unbound variable: swap!/);
  p.write("\x04");
  await p.exit();
});

test(",time reports wall time, steps and GC; ,trace shows nested calls; ,untrace stops", async (t) => {
  const p = new Pty();
  t.teardown(() => p.kill());
  await p.waitFor(PROMPT);
  const tm = await p.line(",time (let loop ((i 0)) (if (< i 200000) (loop (+ i 1)) i))");
  t.regex(tm, /\n200000\n/);
  const m = /;; ([\d.]+) ms wall, ([\d.]+) ms CPU, ([\d,]+) steps, \d+ GCs? \([\d.]+ ms\), heap [+-][\d.]+ MB/.exec(tm);
  t.truthy(m, tm);
  t.true(Number(m![3]!.replace(/,/g, "")) >= 150_000, "the loop's steps are counted");
  await p.line("(define (fact n) (if (= n 0) 1 (* n (fact (- n 1)))))");
  t.regex(await p.line(",trace fact"), /tracing fact/);
  const tr = await p.line("(fact 3)");
  t.regex(tr, /> \(fact 3\)\n\| > \(fact 2\)\n\| \| > \(fact 1\)\n\| \| \| > \(fact 0\)\n\| \| \| < 1\n\| \| < 1\n\| < 2\n< 6\n6\n> $/);
  t.regex(await p.line(",trace car"), /imported/);
  t.regex(await p.line(",untrace fact"), /no longer tracing fact/);
  t.regex(await p.line("(fact 3)"), /\(fact 3\)\n6\n> $/);
  p.write("\x04");
  await p.exit();
});

test(",load evaluates a file here; ,bt shows the last error's frames with their places", async (t) => {
  const dir = tempDir();
  writeFileSync(join(dir, "lib.scm"), "(define (inner v) (vector-ref v 5))\n(define (outer v) (+ 1 (inner v)))\n");
  const p = new Pty({ cwd: dir });
  t.teardown(() => p.kill());
  await p.waitFor(PROMPT);
  t.regex(await p.line(",load lib.scm"), /loaded lib\.scm/);
  const err = await p.line("(outer (vector 1 2))");
  t.regex(err, /lib\.scm:1:19: bad argument #2 to 'vector-ref' \(index 5 out of range \[0, 2\)\)/);
  const bt = await p.line(",bt");
  t.regex(bt, /in inner \(.*lib\.scm:1:19\)/);
  t.regex(bt, /in outer \(.*lib\.scm:2:24\)/);
  t.regex(bt, /1 \| \(define \(inner v\) \(vector-ref v 5\)\)\n +\^/, "the source line, with a caret at the place");
  p.write(",q\r");
  t.is((await p.exit()).code, 0);
});

test("help, exit and quit typed without parentheses get an answer, not a procedure's value", async (t) => {
  const p = new Pty();
  t.teardown(() => p.kill());
  await p.waitFor(PROMPT);
  t.regex(await p.line("help"), /REPL commands/);
  t.regex(await p.line("exit"), /exit is a procedure here: \(exit\) or ,q leaves, and so does Ctrl-D/);
  p.write("(exit 3)\r");
  t.is((await p.exit()).code, 3, "(exit 3) leaves with its status");
});
