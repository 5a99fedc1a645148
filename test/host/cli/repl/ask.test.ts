// A checker's ask verdict put to the person at the REPL (a real pseudo-terminal): yes reads the file, no denies it at the caller's form.
import test from "ava";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Pty } from "../../../helpers/pty.js";
import { sessionRecords, tempDir } from "../../../helpers/cli.js";

const PROMPT = /\n> $/;

function repo(): string {
  const root = tempDir();
  mkdirSync(join(root, ".nodwyn"));
  writeFileSync(
    join(root, ".nodwyn", "checks.scm"),
    `(register-check "asker" (lambda (path info) (if (string=? path "ask.txt") '(ask "it holds the draft") 'allow)))\n`,
  );
  writeFileSync(join(root, "ask.txt"), "the draft\n");
  return root;
}

test("the guard's ask is put to the person: y reads the file, n denies it, both logged", async (t) => {
  const root = repo();
  const p = new Pty({ cwd: root, args: ["repl", "--root", root] });
  t.teardown(() => p.kill());
  await p.waitFor(PROMPT);
  p.write('(cdr (assq (quote text) (fs-read "ask.txt")))\r');
  t.regex(await p.waitFor(/read ask\.txt\? \[y\/N\] $/), /checker asker asks about ask\.txt: it holds the draft\n/);
  p.write("y\r");
  t.regex(await p.waitFor(PROMPT), /\n"the draft\\n"\n> $/);
  p.write('(define (peek) (fs-read "ask.txt"))\r');
  await p.waitFor(PROMPT);
  p.write("(peek)\r");
  await p.waitFor(/\[y\/N\] $/);
  p.write("n\r");
  const denied = await p.waitFor(PROMPT);
  // Reported at the caller's form (the REPL's), with the checker named; not at checks.scm.
  t.regex(denied, /<repl-\d+>:1:\d+: access to "ask\.txt" denied \(ask, checker asker\): the person said no \(it holds the draft\)/);
  t.notRegex(denied, /checks\.scm:\d+/);
  // Ctrl-C at the question denies and interrupts.
  p.write('(fs-read "ask.txt")\r');
  await p.waitFor(/\[y\/N\] $/);
  p.write("\x03");
  t.regex(await p.waitFor(PROMPT), /denied|interrupted/);
  p.write("\x04");
  t.is((await p.exit()).code, 0);
  const decisions = sessionRecords(p.dataDir).filter((r) => r.kind === "guard.decision" && r.payload.path === "ask.txt");
  t.deepEqual(decisions.slice(0, 2).map((d) => [d.payload.decision, d.payload.rule, d.payload.checker]), [
    ["allow", "ask", "asker"],
    ["deny", "ask", "asker"],
  ]);
});

test("without a terminal there is no one to ask: the file is left out, and said so", async (t) => {
  const root = repo();
  const { nodwynAsync } = await import("../../../helpers/cli.js");
  const r = await nodwynAsync(["repl", "--root", root], { cwd: root, input: '(fs-read "ask.txt")\n' });
  t.is(r.code, 1);
  t.regex(r.stderr, /denied \(ask-unanswered, checker asker\): it holds the draft; no one to ask/);
});
