// Macro forms: macro-defining macros, let-syntax vs letrec-syntax, internal define-syntax, expansion once, and error places.
import test from "ava";
import { makeInterp } from "../../helpers/interp.js";
import { SyntaxRules } from "../../../interpreter/expander/syntax-rules.js";
import { writeTree, runProgram } from "./tree.js";

test("macros that define macros, passing literals and templates through", async (t) => {
  const { run } = makeInterp();
  await run("(define-syntax def-const (syntax-rules () ((_ name val) (define-syntax name (syntax-rules () ((_) val))))))");
  await run("(def-const five 5)");
  t.is(await run("(five)"), "5");
  await run(`(define-syntax def-table
  (syntax-rules () ((_ name (k v) ...) (define-syntax name (syntax-rules (k ...) ((_ k) v) ...)))))`);
  await run("(def-table color (red 1) (green 2))");
  t.is(await run("(list (color red) (color green))"), "(1 2)");
  await t.throwsAsync(run("(color blue)"), { message: /no rule of macro 'color' matches/ });
  // The generated macro's own temporaries are hygienic too.
  await run("(define-syntax make-swapper (syntax-rules () ((_ name) (define-syntax name (syntax-rules () ((_ a b) (let ((tmp a)) (set! a b) (set! b tmp))))))))");
  await run("(make-swapper sw!)");
  t.is(await run("(define tmp 'x) (define y 'y) (sw! tmp y) (list tmp y)"), "(y x)");
  // A macro-defining macro used in a body defines a local macro.
  await run("(define-syntax gen (syntax-rules () ((_ n) (begin (define-syntax n (syntax-rules () ((_ a) (let ((tmp a)) (list tmp 'n))))) (n 5)))))");
  t.is(await run("(let () (gen foo))"), "(5 foo)");
});

test("let-syntax transformers see the outer macros; letrec-syntax transformers see each other", async (t) => {
  const { run } = makeInterp();
  await run("(define-syntax foo (syntax-rules () ((_) 'outer)))");
  const body = "((foo (syntax-rules () ((_) 'inner))) (bar (syntax-rules () ((_) (foo))))) (list (foo) (bar))";
  t.is(await run(`(let-syntax ${body})`), "(inner outer)");
  t.is(await run(`(letrec-syntax ${body})`), "(inner inner)");
  // letrec-syntax allows a recursive macro.
  t.is(await run("(letrec-syntax ((count (syntax-rules () ((_) 0) ((_ x . r) (+ 1 (count . r)))))) (count a b c))"), "3");
  // The bindings are local to the body.
  await run("(let-syntax ((only-here (syntax-rules () ((_) 1)))) (only-here))");
  await t.throwsAsync(run("(only-here)"), { message: /unbound variable: only-here/ });
});

test("internal define-syntax: local to the body, sees local variables lexically, may produce definitions", async (t) => {
  const { run } = makeInterp();
  t.is(await run("(define (g x) (define-syntax double (syntax-rules () ((_ e) (* 2 e)))) (define y (double x)) (+ y 1)) (g 5)"), "11");
  await t.throwsAsync(run("(double 1)"), { message: /unbound variable: double/ });
  // The macro's x is the x where it was defined, not the one where it is used.
  t.is(await run("(let ((x 1)) (define-syntax x2 (syntax-rules () ((_) (* x 2)))) (let ((x 100)) (x2)))"), "2");
  t.is(
    await run("(define (h) (define-syntax defn (syntax-rules () ((_ n v) (define n v)))) (defn a 1) (defn b (+ a 1)) (list a b)) (h)"),
    "(1 2)",
  );
  // An internal macro shadows a global one of the same name inside its body only.
  await run("(define-syntax which (syntax-rules () ((_) 'global)))");
  t.is(await run("(list (let () (define-syntax which (syntax-rules () ((_) 'local))) (which)) (which))"), "(local global)");
});

test("a macro use is expanded once, when its form is compiled, not each time the code runs", async (t) => {
  const { run } = makeInterp();
  await run("(define-syntax inc-once (syntax-rules () ((_ x) (+ x 1))))");
  const original = SyntaxRules.prototype.expand;
  let expansions = 0;
  SyntaxRules.prototype.expand = function (this: SyntaxRules, ...args: Parameters<typeof original>) {
    if (this.name === "inc-once") expansions++;
    return original.apply(this, args);
  };
  try {
    await run("(define (f n) (inc-once (inc-once n)))");
    t.is(expansions, 2);
    t.is(await run("(let loop ((i 0) (acc 0)) (if (= i 1000) acc (loop (+ i 1) (+ acc (f i)))))"), String(999 * 1000 / 2 + 2000));
    t.is(expansions, 2);
  } finally {
    SyntaxRules.prototype.expand = original;
  }
});

test("a use that matches no rule is a syntax error naming the macro, showing the form, at the use's place", async (t) => {
  const root = writeTree({
    "prog.scm": `(import (scheme base) (scheme write))
(define-syntax my-let (syntax-rules () ((_ ((n v) ...) b ...) ((lambda (n ...) b ...) v ...))))

(display "before")
   (my-let ((a 1) (b))
     (+ a b))`,
  });
  const r = await runProgram(root, "prog.scm");
  t.is(r.out, "before");
  t.is(r.outcome.ok ? null : r.outcome.condition?.kind, "syntax");
  t.is(r.error, `${root}/prog.scm:5:4: no rule of macro 'my-let' matches: (my-let ((a 1) (b)) (+ a b))`);
});

test("syntax-error in a template reports its message and arguments at the macro use", async (t) => {
  const root = writeTree({
    "prog.scm": `(import (scheme base))
(define-syntax must-pair
  (syntax-rules () ((_ (a b)) 'ok) ((_ x) (syntax-error "must-pair: expected a pair" x))))
(must-pair (1 2))

(must-pair 5)`,
  });
  const r = await runProgram(root, "prog.scm");
  t.is(r.error, `${root}/prog.scm:6:1: must-pair: expected a pair: 5`);
});

test("an error in expanded code points at the user's form: the argument's own place, or the macro use", async (t) => {
  const root = writeTree({
    "lib/my/first.sld": `(define-library (my first)
  (import (scheme base))
  (export first-of)
  (begin (define-syntax first-of (syntax-rules () ((_ e) (car e))))))`,
    "arg.scm": `(import (scheme base))
(define-syntax wrap (syntax-rules () ((_ e) (let ((t 1)) e))))
(define (g)
  (wrap
    (vector-ref (vector) 3)))
(g)`,
    "template.scm": `(import (scheme base) (my first))

(define (f x)
  (first-of x))
(f 5)`,
    "nested.scm": `(import (scheme base) (my first))
(define-syntax outer (syntax-rules () ((_ x) (list (first-of x)))))
(define (h v)
     (outer v))
(h 'sym)`,
  });
  const arg = await runProgram(root, "arg.scm");
  t.is(arg.error, `${root}/arg.scm:5:5: bad argument #2 to 'vector-ref' (index 3 out of range [0, 0))`);
  t.is(arg.outcome.ok ? null : arg.outcome.condition?.backtrace?.[0]?.name, "g");
  // The car comes from the library's template: the error is placed at the use in the program.
  const tmpl = await runProgram(root, "template.scm");
  t.is(tmpl.error, `${root}/template.scm:4:3: bad argument #1 to 'car' (pair expected, got 5)`);
  const nested = await runProgram(root, "nested.scm");
  t.is(nested.error, `${root}/nested.scm:4:6: bad argument #1 to 'car' (pair expected, got sym)`);
});

test("a malformed special form inside a macro's output is reported at the macro use", async (t) => {
  const root = writeTree({
    "prog.scm": `(import (scheme base))
(define-syntax broken (syntax-rules () ((_ x) (if))))
(define (k)

  (broken 1))`,
  });
  const r = await runProgram(root, "prog.scm");
  t.is(r.outcome.ok ? null : r.outcome.condition?.kind, "syntax");
  t.regex(r.error, new RegExp(`^${root}/prog\\.scm:5:3: if: bad syntax`));
});

test("parameterize takes any expression that evaluates to a parameter object", async (t) => {
  const { run } = makeInterp();
  t.is(await run("(define ps (list (make-parameter 1) (make-parameter 2))) (parameterize (((car ps) 10) ((cadr ps) 20)) (list ((car ps)) ((cadr ps))))"), "(10 20)");
});
