// `:name` is an identifier (R7RS §2.1); a free `:name` evaluates to the keyword #:name (ADR 0033).
import test from "ava";
import { makeInterp } from "../../helpers/interp.js";

test("quoted :name is a symbol whose name keeps the colon", async (t) => {
  const { run } = makeInterp();
  t.is(await run("(quote :foo)"), ":foo");
  t.is(await run("(symbol? ':foo)"), "#t");
  t.is(await run("(keyword? ':foo)"), "#f");
  t.is(await run("(symbol->string ':foo)"), '":foo"');
  t.is(await run("(eq? ':foo (string->symbol \":foo\"))"), "#t");
  t.is(await run("'(:a 1 #:b 2)"), "(:a 1 #:b 2)");
  t.is(await run("(map symbol? '(: :: ::x :y))"), "(#t #t #t #t)");
});

test("a free :name evaluates to the keyword #:name; #:name is a keyword everywhere", async (t) => {
  const { run } = makeInterp();
  t.is(await run(":limit"), "#:limit");
  t.is(await run("(keyword? :limit)"), "#t");
  t.is(await run("(eq? :limit '#:limit)"), "#t");
  t.is(await run("(keyword->string :limit)"), '"limit"');
  t.is(await run("(keyword? (car '(#:k)))"), "#t");
  t.is(await run("(list :a 1 :b 2)"), "(#:a 1 #:b 2)");
});

test("`:` and `::x` are ordinary identifiers, unbound when nothing defines them", async (t) => {
  const { run } = makeInterp();
  await t.throwsAsync(run("::x"), { message: /unbound variable: ::x/ });
  await t.throwsAsync(run(":"), { message: /unbound variable: :/ });
  t.is(await run("(let ((: 1) (::x 2)) (+ : ::x))"), "3");
});

test("define-syntax :optional, as SRFI 1's reference implementation does", async (t) => {
  const { run } = makeInterp();
  await run(`(define-syntax :optional
    (syntax-rules () ((_ rest default) (if (pair? rest) (car rest) default))))`);
  t.is(await run("(define (f x . maybe) (list x (:optional maybe 10))) (list (f 1) (f 1 2))"), "((1 10) (1 2))");
});

test("define, let, lambda and set! bind :name like any identifier", async (t) => {
  const { run } = makeInterp();
  t.is(await run("(let ((:a 2)) :a)"), "2");
  t.is(await run("((lambda (:x :y) (- :x :y)) 5 3)"), "2");
  t.is(await run("(let ((:a 1)) (set! :a 7) :a)"), "7");
  // Free before the definition, the value after it.
  t.is(await run(":x"), "#:x");
  await run("(define :x 1)");
  t.is(await run(":x"), "1");
  t.is(await run("(begin (set! :x 2) :x)"), "2");
});

test("a :name in a macro template means the keyword where the macro is defined, not a binding at the use", async (t) => {
  const { run } = makeInterp();
  await run("(define-syntax opts (syntax-rules () ((_ v) (list :limit v))))");
  t.is(await run("(let ((:limit 99)) (opts 3))"), "(#:limit 3)");
});

test("a library binds :name and exports it; an importer sees the binding", async (t) => {
  const { run } = makeInterp();
  await run(`(define-library (colon test) (export :opt) (import (scheme base))
    (begin (define-syntax :opt (syntax-rules () ((_ r d) (if (pair? r) (car r) d))))))`);
  t.is(await run("(import (colon test)) (list (:opt '() 4) (:opt '(5) 4))"), "(4 5)");
});
