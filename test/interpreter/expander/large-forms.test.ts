// Large forms: cond and case expand without JS recursion per clause; a form nested too deeply is a syntax error at its place.
import test from "ava";
import { makeInterp } from "../../helpers/interp.js";

test("a cond and a case of 20000 clauses expand", (t) => {
  const { interp } = makeInterp();
  const n = 20000;
  const clauses = Array.from({ length: n }, (_, i) => `((= x ${i}) ${i})`).join(" ");
  const caseClauses = Array.from({ length: n }, (_, i) => `((${i}) ${i})`).join(" ");
  const top = interp.interactionEnvironment();
  for (const src of [`(lambda (x) (cond ${clauses} (else -1)))`, `(lambda (x) (case x ${caseClauses} (else -1)))`]) {
    const [form] = interp.read(src, "big.scm");
    t.notThrows(() => interp.expander.expandTop(form, top, undefined));
  }
});

test("cond and case keep their meaning: first true clause, else, =>, a test's value, and no match", async (t) => {
  const { run } = makeInterp();
  t.is(await run("(map (lambda (x) (cond ((< x 0) 'neg) ((assv x '((1 . one))) => cdr) ((memv x '(5 6))) (else 'other))) '(-1 1 5 9))"), "(neg one (5 6) other)");
  t.is(await run("(eq? (cond (#f 1)) (if #f #f))"), "#t");
  t.is(await run("(map (lambda (k) (case k ((a e) 'vowel) ((b) => (lambda (x) (list x x))) (else => symbol->string))) '(e b z))"), '(vowel (b b) "z")');
  t.is(await run("(guard (e ((string? e) (string-append e \"!\")) ((and (symbol? e) e) => symbol->string)) (raise 'sym))"), '"sym"');
  await t.throwsAsync(run("(cond (else 1) (#t 2))"), { message: /cond: else must be the last clause/ });
  await t.throwsAsync(run("(case 1 (else 1) ((1) 2))"), { message: /case: else must be the last clause/ });
});

test("a form nested too deeply to compile is a syntax error at the form, not a host failure", async (t) => {
  const { interp } = makeInterp();
  const n = 50000;
  const src = `(define ok 1)\n(define x ${"(+ 1 ".repeat(n)}0${")".repeat(n)})`;
  const out = await interp.evaluateOutcome(src, { file: "deep.scm" });
  t.false(out.ok);
  const c = out.ok ? null : out.condition;
  t.is(c?.kind, "syntax");
  t.is(c?.message, "form nested too deeply to compile (split it into smaller definitions)");
  t.is(c?.loc?.file, "deep.scm");
  t.is(c?.loc?.line, 2);
  // The interpreter goes on working.
  t.is(interp.lookup("ok"), 1);
  t.is(await interp.evaluate("(+ ok 1)"), 2);
});
