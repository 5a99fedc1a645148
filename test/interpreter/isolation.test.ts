// Two interpreters in one process share no state.
import test from "ava";
import { makeInterp } from "../helpers/interp.js";

test("definitions, symbols and parameters of one interpreter are invisible to another", async (t) => {
  const a = makeInterp();
  const b = makeInterp();
  await a.run("(define secret 41) (define p (make-parameter 1))");
  t.is(await a.run("(+ secret 1)"), "42");
  await t.throwsAsync(b.run("secret"), { message: /unbound variable: secret/ });
  t.not(a.interp.symbols.intern("x"), b.interp.symbols.intern("x"));
  await b.run("(define secret 'other)");
  t.is(await a.run("secret"), "41");
});

test("a library instantiated in one interpreter is instantiated again in another", async (t) => {
  const a = makeInterp();
  const b = makeInterp();
  t.not(a.interp.library("(scheme base)"), b.interp.library("(scheme base)"));
  t.is(a.interp.library("(scheme base)"), a.interp.library("(scheme base)"));
});

test("redefining a standard procedure in one REPL leaves the other alone", async (t) => {
  const a = makeInterp();
  const b = makeInterp();
  await a.run("(define (car x) 'mine)");
  t.is(await a.run("(car '(1 2))"), "mine");
  t.is(await b.run("(car '(1 2))"), "1");
});

test("output of one interpreter goes to its own ports", async (t) => {
  const a = makeInterp();
  const b = makeInterp();
  await a.run('(display "from a")');
  await b.run('(display "from b")');
  t.is(a.out(), "from a");
  t.is(b.out(), "from b");
});
