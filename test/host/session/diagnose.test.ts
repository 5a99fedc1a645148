// Error reports placed where the person can act: the unbound variable itself, the user's call under stdlib, hints.
import test from "ava";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { nodwynAsync as nodwyn, tempDir } from "../../helpers/cli.js";
import { editDistance, nearest, nearestAll } from "../../../host/session/near.js";
import { findIdentifierIn } from "../../../host/session/diagnose.js";

test("an unbound operator is reported at its own place, with the near names", async (t) => {
  const r = await nodwyn(["--no-log", "-e", "(define xs (list 1 2))\n  (lenght xs)"]);
  t.is(r.code, 1);
  t.regex(r.stderr, /^<-e>:2:4: unbound variable: lenght\n  did you mean length\?\n/);
});

test("an unbound argument is reported at the argument, not at the call around it", async (t) => {
  const r = await nodwyn(["--no-log", "-e", "(list 1\n      (car '(2))\n      undefined-thing)"]);
  t.regex(r.stderr, /^<-e>:3:7: unbound variable: undefined-thing\n/);
  const json = await nodwyn(["--no-log", "--json", "-e", "(list 1 xyzzy)"]);
  const e = JSON.parse(json.stdout).error;
  t.deepEqual(e.location, { file: "<-e>", line: 1, column: 9 });
  t.is(e.kind, "unbound");
});

test("an agent primitive a program did not import: the library to import", async (t) => {
  const dir = tempDir();
  const prog = join(dir, "p.scm");
  writeFileSync(prog, '(import (scheme base))\n(define r (fs-read "p.scm"))\n');
  const r = await nodwyn(["--no-log", "run", prog], { cwd: dir });
  t.is(r.code, 1);
  t.regex(r.stderr, new RegExp(`^${prog.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:2:12: unbound variable: fs-read\n  fs-read is in \\(nodwyn agent\\): add \\(nodwyn agent\\) to the program's \\(import …\\)\n`));
  const w = join(dir, "w.scm");
  writeFileSync(w, '(import (scheme base))\n(display "x")\n');
  t.regex((await nodwyn(["--no-log", "run", w], { cwd: dir })).stderr, /display is in \(scheme write\)/);
});

test("an error raised inside stdlib is reported at the user's call, with the stdlib frames below it", async (t) => {
  const r = await nodwyn(["--no-log", "-e", "(define (go) (vector-map + 5))\n(go)"]);
  t.is(r.code, 1);
  const [first, ...frames] = r.stderr.trim().split("\n");
  t.regex(first!, /^<-e>:1:14: bad argument #1 to 'vector-length' \(vector expected, got 5\)$/);
  t.true(frames.some((f) => /in vector-map \(.*stdlib\/nodwyn\/prelude\.scm:\d+:\d+\)/.test(f)), frames.join("\n"));
  t.true(frames.some((f) => /<-e>/.test(f)));
});

test("near names: the edit distance, its budget, case, and the best first", (t) => {
  t.is(editDistance("lenght", "length"), 1, "a transposition is one edit");
  t.is(editDistance("abc", "abc"), 0);
  t.is(editDistance("kitten", "sitting"), 3);
  t.is(nearest("lenght", ["list", "length", "lent"]), "length");
  t.is(nearest("xyzzy", ["length", "list"]), undefined);
  t.is(nearest("Car", ["cdr", "car"]), "car", "a difference of case is nearer than any edit");
  t.deepEqual(nearestAll("strng-length", ["string-length", "string-append", "vector-length"]), ["string-length"]);
});

test("finding a name in a form: the operator first, strings and comments skipped", (t) => {
  const text = '(list "xyz" ; xyz\n  (car xyz)\n  (xyz 1))';
  t.deepEqual(findIdentifierIn(text, 1, 1, "xyz"), { line: 3, col: 4 });
  t.deepEqual(findIdentifierIn("(f a b xyz)", 1, 1, "xyz"), { line: 1, col: 8 });
  t.is(findIdentifierIn('(f "xyz")', 1, 1, "xyz"), null);
  t.deepEqual(findIdentifierIn("(a) (b xyz)", 1, 5, "xyz"), { line: 1, col: 8 }, "only the form at the place");
  t.is(findIdentifierIn("(a) (b xyz)", 1, 1, "xyz"), null);
});
