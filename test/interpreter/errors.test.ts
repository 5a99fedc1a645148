// Errors are Scheme conditions with a kind, a message, irritants, a location and a backtrace.
import test from "ava";
import { makeInterp } from "../helpers/interp.js";
import { EvalError, formatRaised } from "../../interpreter/api.js";

async function failure(src: string, file = "prog.scm") {
  const { interp } = makeInterp();
  const out = await interp.evaluateOutcome(src, { file });
  if (out.ok) throw new Error("expected a failure");
  return out;
}

test("a primitive's bad argument names the procedure, the argument and the place", async (t) => {
  const out = await failure("(define (f x) (+ 1 (car x)))\n(f 5)");
  t.is(out.condition?.kind, "type");
  t.is(formatRaised(out.error), "prog.scm:1:20: bad argument #1 to 'car' (pair expected, got 5)");
  t.is(out.condition?.backtrace?.[0]?.name, "f");
});

test("the backtrace lists the active non-tail calls with their call sites", async (t) => {
  const out = await failure("(define (a) (+ 1 (b)))\n(define (b) (+ 1 (c)))\n(define (c) (vector-ref (vector) 0))\n(a)");
  const bt = out.condition?.backtrace ?? [];
  const sites = bt.filter((e) => !e.tail).map((e) => `${e.name}@${e.loc?.line}:${e.loc?.col}`);
  // c fails in its vector-ref (col 13); b and a wait in their calls of c and b (col 18).
  t.deepEqual(sites.slice(0, 3), ["c@3:13", "b@2:18", "a@1:18"]);
});

test("calling a non-procedure and an unbound variable are conditions too", async (t) => {
  t.is((await failure("(5 3)")).condition?.kind, "type");
  const out = await failure("(undefined-thing 1)");
  t.is(out.condition?.kind, "unbound");
  t.regex(out.condition?.message ?? "", /unbound variable: undefined-thing/);
});

test("a syntax error inside a macro expansion points at the user's form", async (t) => {
  const out = await failure("(define-syntax two (syntax-rules () ((_ a b) (list a b))))\n(display 1)\n(two 1)");
  t.is(out.condition?.kind, "syntax");
  t.is(out.condition?.loc?.line, 3);
  t.regex(out.condition?.message ?? "", /no rule of macro 'two' matches/);
});

test("an error raised in expanded code reports the location of the macro use's argument", async (t) => {
  const out = await failure("(define-syntax twice (syntax-rules () ((_ e) (begin e e))))\n\n(twice (car '()))");
  t.is(out.condition?.loc?.line, 3);
});

test("raise of a non-condition reaches the top as an uncaught exception", async (t) => {
  const out = await failure("(raise 'boom)");
  t.is(formatRaised(out.error), "uncaught exception: boom");
  t.is(out.condition, null);
});

test("error objects carry message and irritants", async (t) => {
  const { run } = makeInterp();
  t.is(await run('(guard (e (#t (list (error-object-message e) (error-object-irritants e)))) (error "bad thing" 1 (quote x)))'), '("bad thing" (1 x))');
});

test("the interpreter never surfaces a JS exception for bad source", async (t) => {
  const { interp } = makeInterp();
  for (const src of ["(", ")", "(define)", "(lambda)", "(if)", "(let ((x)) x)", "#(1 . 2)", "(quote)", "(let loop)", "`(,@)", "(define-syntax x 5)"]) {
    const out = await interp.evaluateOutcome(src);
    t.false(out.ok, src);
    const kind = out.ok ? "none" : out.condition?.kind;
    t.true(kind === "read" || kind === "syntax", `${src}: ${kind}`);
  }
  await t.throwsAsync(interp.evaluate("(car"), { instanceOf: EvalError });
});

test("an error in a procedure called in tail position points at the tail call", async (t) => {
  const out = await failure('(define (h s) (string-append s "!"))\n(h 42)');
  t.is(formatRaised(out.error).split(":").slice(0, 3).join(":"), "prog.scm:1:15");
  const tail = out.condition?.backtrace?.filter((e) => e.tail) ?? [];
  t.true(tail.some((e) => e.name === "h" && e.loc?.line === 2));
});

test("a backtrace tells only its own evaluation's tail calls", async (t) => {
  const { interp } = makeInterp();
  await interp.evaluate("(define (noise n) (if (= n 0) 'ok (noise (- n 1)))) (noise 10)");
  const out = await interp.evaluateOutcome("(vector-ref (vector) 1)");
  t.false(out.ok);
  const names = (out.ok ? [] : (out.condition?.backtrace ?? [])).map((e) => e.name);
  t.false(names.includes("noise"), names.join(" "));
});

test("an unbound variable called in tail position, and set! of one, report their place", async (t) => {
  t.is(formatRaised((await failure("(display 1)\n(foo 1)")).error), "prog.scm:2:1: unbound variable: foo");
  t.is(formatRaised((await failure("(define (f) (undefined-thing 1))\n(f)")).error), "prog.scm:1:13: unbound variable: undefined-thing");
  t.is(formatRaised((await failure("\n(set! nowhere 1)")).error), "prog.scm:2:1: set!: unbound variable: nowhere");
});
