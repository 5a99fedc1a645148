// The project's checkers live in an interpreter of their own: no evaluation can add, replace or subvert them.
import test from "ava";
import { mkdirSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Outcome } from "../../../interpreter/api.js";
import { CheckerRegistry } from "../../../host/guard/index.js";
import { ProjectChecks, BROKEN_CHECKS, type ChecksLoad } from "../../../host/session/checks.js";
import { logRecords, openSession, repoFixture } from "./session-fixture.js";

const CHECKS = `
(define (starts-with? s p)
  (and (>= (string-length s) (string-length p)) (string=? (substring s 0 (string-length p)) p)))
(register-check "no-secrets-dir"
  (lambda (path info) (if (starts-with? path "secrets/") '(deny "the secrets folder") 'allow)))
`;

function files(): Record<string, string> {
  return { ".nodwyn/checks.scm": CHECKS, "secrets/plan.txt": "the plan\n", "src/a.txt": "a\n" };
}

/** The message of a failed evaluation. */
function failure(out: Outcome): string {
  if (out.ok) return "(it succeeded)";
  return out.condition?.message ?? "(no condition)";
}

for (const [label, o] of [
  ["the model's eval", { kind: "agent" as const, actor: "model" }],
  ["a person's --sandbox REPL", { sandbox: true }],
  ["a person's REPL", {}],
] as const) {
  test(`${label} cannot switch a checker off: register-check does not exist there, and redefining a helper changes nothing`, async (t) => {
    const fx = repoFixture(t, files());
    const s = await openSession(t, fx, o);
    const replace = await s.evaluate(`(register-check "no-secrets-dir" (lambda (p i) 'allow))`);
    t.false(replace.ok);
    t.regex(failure(replace), /unbound variable: register-check/);
    const viaLibrary = await s.evaluate(`(import (nodwyn agent)) register-check`);
    t.false(viaLibrary.ok);
    // The checks file's own helper, redefined here, is another binding in another interpreter.
    t.true((await s.evaluate(`(define starts-with? (lambda (s p) #f)) (define (string=? a b) #f)`)).ok);
    const read = await s.evaluate(`(fs-read "secrets/plan.txt")`);
    t.false(read.ok);
    t.regex(failure(read), /denied \(checker, checker no-secrets-dir\): the secrets folder/);
    t.true((await s.evaluate(`(fs-read "src/a.txt")`)).ok);
    // And through the file ports of a sandboxed session the same checker holds.
    if ("sandbox" in o || "kind" in o) t.false((await s.evaluate(`(open-input-file "secrets/plan.txt")`)).ok);
    // eval with an environment of its own reaches no checker either.
    const ev = await s.evaluate(`(eval '(register-check "x" (lambda (p i) 'allow)) (environment '(scheme base)))`);
    t.false(ev.ok);
    t.deepEqual(s.checkers.list().map((c) => c.name), ["no-secrets-dir"]);
  });
}

test("editing checks.scm is how its checkers change: it is re-read when it changes, and each load is logged", async (t) => {
  const fx = repoFixture(t, files());
  const s = await openSession(t, fx, { kind: "agent", actor: "model" });
  t.false((await s.evaluate(`(fs-read "secrets/plan.txt")`)).ok);
  const file = join(fx.root, ".nodwyn", "checks.scm");
  writeFileSync(file, `(register-check "only-src" (lambda (path info) (if (string=? path "src/a.txt") 'allow '(deny "only src/a.txt"))))\n`);
  // A change the file's times show even on a coarse clock.
  utimesSync(file, new Date(Date.now() + 5000), new Date(Date.now() + 5000));
  t.true((await s.evaluate(`(fs-read "src/a.txt")`)).ok);
  const r = await s.evaluate(`(fs-read "secrets/plan.txt")`);
  t.regex(failure(r), /only src\/a.txt/);
  t.deepEqual(s.checkers.list().map((c) => c.name), ["only-src"]);
  unlinkSync(file);
  t.true((await s.evaluate(`(fs-read "secrets/plan.txt")`)).ok);
  t.is(s.checkers.size, 0);
  const notes = logRecords(fx.dataDir).filter((x) => x.kind === "note" && x.payload.topic === "checks.load");
  t.deepEqual(
    notes.map((n) => [n.payload.data.reason, n.payload.data.ok, n.payload.data.checkers]),
    [
      ["start", true, ["no-secrets-dir"]],
      ["changed", true, ["only-src"]],
      ["removed", true, []],
    ],
  );
});

test("a malformed checks.scm denies every read, is reported, and allows again once fixed", async (t) => {
  for (const broken of [
    "(register-check \"x\" (lambda (p i) 'allow)", // unbalanced
    "(car '())", // an error while loading
    "(register-check \"x\" 42)", // a checker that is not a procedure
    "(register-check 42 (lambda (p i) 'allow))", // a name that is not a string or a symbol
    "(register-check \"\" (lambda (p i) 'allow))", // an empty name
    "(let loop () (loop))", // a file that never finishes loading
    "(exit 0)", // exit while loading
    "(import (no such library))",
    "#u8(1 2",
    "(open-input-file \"src/a.txt\")", // no file access while loading
  ]) {
    const fx = repoFixture(t, { ...files(), ".nodwyn/checks.scm": broken });
    const s = await openSession(t, fx, { kind: "agent", actor: "model" });
    const r = await s.evaluate(`(fs-read "src/a.txt")`);
    t.false(r.ok, broken);
    t.regex(failure(r), /failed to load, so every read is denied/, broken);
    const note = logRecords(fx.dataDir).find((x) => x.kind === "note" && x.payload.topic === "checks.load");
    t.false(note.payload.data.ok, broken);
    t.deepEqual(s.checkers.list().map((c) => c.name), [BROKEN_CHECKS]);
  }
});

test("a checks.scm that is a symbolic link is not followed: every read is denied", async (t) => {
  const fx = repoFixture(t, { "src/a.txt": "a\n", "elsewhere.scm": CHECKS });
  mkdirSync(join(fx.root, ".nodwyn"));
  symlinkSync(join(fx.root, "elsewhere.scm"), join(fx.root, ".nodwyn", "checks.scm"));
  const s = await openSession(t, fx, { kind: "agent", actor: "model" });
  const r = await s.evaluate(`(fs-read "src/a.txt")`);
  t.regex(failure(r), /not a regular file/);
});

test("a checker fails closed: an error, a loop past its steps, its deadline, exit, a non-verdict, a late answer all deny", async (t) => {
  // The loops get a 50 ms deadline; the quick checkers one a loaded machine cannot
  // reach, so that each fails for its own reason, not for a slow start.
  const cases: [string, RegExp, number][] = [
    ["(car '())", /spin-or-fail failed/, 60_000],
    ["(let loop () (loop))", /exceeded its budget of \d+ steps|time budget/, 50],
    // A long primitive charges its work as steps (ADR 0006): the step budget or the deadline stops it.
    ["(begin (gcd (expt 3 60000) (expt 2 60000)) 'allow)", /exceeded its budget of \d+ steps|time budget/, 50],
    ["(exit 0)", /spin-or-fail failed/, 60_000],
    ["(emergency-exit 0)", /spin-or-fail failed/, 60_000],
    ["#t", /not a verdict/, 60_000],
    ["(raise 'allow)", /spin-or-fail failed/, 60_000],
    ["(call/cc (lambda (k) (k 'deny)))", /denied by checker/, 60_000],
  ];
  for (const [body, why, checkerTimeoutMs] of cases) {
    const fx = repoFixture(t, { ...files(), ".nodwyn/checks.scm": `(register-check "spin-or-fail" (lambda (path info) ${body}))` });
    const s = await openSession(t, fx, { kind: "agent", actor: "model", checkerTimeoutMs });
    const r = await s.evaluate(`(fs-read "src/a.txt")`);
    t.false(r.ok, body);
    t.regex(failure(r), why, body);
    // Sandboxed file ports consult the same checker, synchronously.
    t.false((await s.evaluate(`(open-input-file "src/a.txt")`)).ok, body);
  }
});

test("a checker that answers after its time budget denies even when nothing stopped it (finding 7: 15.7 s against 2000 ms)", (t) => {
  const fx = repoFixture(t, { ".nodwyn/checks.scm": `(register-check "slow" (lambda (path info) 'allow))` });
  const registry = new CheckerRegistry();
  const loads: ChecksLoad[] = [];
  let now = 0;
  // The clock the checker is timed with: each call takes 15.7 s.
  const checks = new ProjectChecks({ root: fx.root, registry, timeoutMs: 2000, onLoad: (l) => loads.push(l), clock: () => (now += 15700) });
  checks.refresh();
  t.deepEqual(loads.map((l) => l.ok), [true]);
  const [c] = registry.list();
  const info = { size: 1, mtimeMs: 0, kind: "file" as const, relPath: "a", absPath: "/x/a", actor: "model" };
  t.throws(() => c!.fn("a", info), { message: /exceeded its time budget \(2000 ms\): it answered after 15700 ms/ });
  now = 0;
  const fast = new ProjectChecks({ root: fx.root, registry, timeoutMs: 2000, clock: () => (now += 1) });
  fast.refresh();
  t.is(registry.list()[0]!.fn("a", info), "allow");
});

test("register-check is refused once checks.scm has loaded (a checker cannot register another)", async (t) => {
  const fx = repoFixture(t, {
    ...files(),
    ".nodwyn/checks.scm": `(define reg register-check) (register-check "sneaky" (lambda (path info) (reg "late" (lambda (p i) 'allow)) 'allow))`,
  });
  const s = await openSession(t, fx, { kind: "agent", actor: "model" });
  const r = await s.evaluate(`(fs-read "src/a.txt")`);
  t.false(r.ok);
  t.regex(failure(r), /registered only while .nodwyn\/checks.scm loads/);
  t.deepEqual(s.checkers.list().map((c) => c.name), ["sneaky"]);
});
