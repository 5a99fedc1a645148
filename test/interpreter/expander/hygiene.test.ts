// Hygiene both ways (R7RS §4.3): a macro's bindings never capture the user's names, and the user's bindings never change the macro's.
import test from "ava";
import { writeTree, runProgram } from "./tree.js";
import { makeInterp } from "../../helpers/interp.js";

test("a temporary that a macro binds never captures the user's variable of the same name", async (t) => {
  const { run } = makeInterp();
  await run("(define-syntax my-or2 (syntax-rules () ((_ a b) (let ((t a)) (if t t b)))))");
  t.is(await run("(define t 5) (my-or2 #f t)"), "5");
  t.is(await run("(let ((t 7)) (my-or2 #f t))"), "7");
  // The classic swap!: the user's variable is called tmp, like the macro's temporary.
  await run("(define-syntax swap! (syntax-rules () ((_ a b) (let ((tmp a)) (set! a b) (set! b tmp)))))");
  t.is(await run("(define tmp 'one) (define other 'two) (swap! tmp other) (list tmp other)"), "(two one)");
  t.is(await run("(let ((tmp 1) (x 2)) (swap! tmp x) (list tmp x))"), "(2 1)");
});

test("a body the user hands to a macro sees the user's bindings, not the ones the macro wraps around it", async (t) => {
  const { run } = makeInterp();
  await run("(define-syntax with-x (syntax-rules () ((_ body) (let ((x 'macro)) body))))");
  t.is(await run("(let ((x 'user)) (with-x x))"), "user");
  await run("(define-syntax while (syntax-rules () ((_ c body ...) (let lp () (when c body ... (lp))))))");
  t.is(await run("(define lp 0) (while (< lp 3) (set! lp (+ lp 1))) lp"), "3");
  await run("(define-syntax my-do (syntax-rules () ((_ n body) (do ((i 0 (+ i 1))) ((= i n)) body))))");
  t.is(await run("(define i 'user-i) (define acc '()) (my-do 2 (set! acc (cons i acc))) acc"), "(user-i user-i)");
});

test("a macro whose expansion uses another macro's binder stays hygienic through both", async (t) => {
  const { run } = makeInterp();
  await run("(define-syntax my-let1 (syntax-rules () ((_ v e body) (let ((v e)) body))))");
  await run("(define-syntax add-one (syntax-rules () ((_ x) (my-let1 tmp 1 (+ tmp x)))))");
  t.is(await run("(let ((tmp 10)) (add-one tmp))"), "11");
});

test("local bindings of if, list, let, cond, else and => never break a macro's expansion", async (t) => {
  const { run } = makeInterp();
  await run(`(define-syntax lookup
  (syntax-rules ()
    ((_ k) (cond ((assv k '((1 . one))) => cdr) (else (list 'none k))))))`);
  await run("(define-syntax first-or-empty (syntax-rules () ((_ x) (let ((y x)) (if (pair? y) (list (car y)) '())))))");
  t.is(await run("(let ((if 1) (list 2) (let 3) (cond 4) (else 5) (=> 6)) (vector (lookup 1) (lookup 2)))"), "#(one (none 2))");
  t.is(await run("(let ((if 1) (list 2) (let 3) (pair? 4) (car 5)) (first-or-empty '(a b)))"), "(a)");
  t.is(await run("(define (f list) (first-or-empty list)) (f '(7))"), "(7)");
  // The derived forms themselves: case with else and =>, guard, parameterize, do.
  await run("(define-syntax classify (syntax-rules () ((_ k) (case k ((a) 'is-a) (else => (lambda (v) (list 'other v)))))))");
  t.is(await run("(let ((else 1) (=> 2) (lambda 3) (list 4)) (vector (classify 'a) (classify 'b)))"), "#(is-a (other b))");
  await run("(define-syntax catch (syntax-rules () ((_ e) (guard (c (#t (list 'caught c))) (raise e)))))");
  t.is(await run("(let ((raise 0) (c 9) (guard 1)) (catch c))"), "(caught 9)");
  await run("(define p (make-parameter 1)) (define-syntax with-p (syntax-rules () ((_ v body) (parameterize ((p v)) body))))");
  t.is(await run("(let ((parameterize 0) (p 'shadowed)) (with-p 5 'body))"), "body");
  t.is(await run("(let ((parameterize 0)) (with-p 5 (p)))"), "5");
});

test("R7RS §4.3.2's examples: a local if does not change the macro's if, and => shadowed is not the literal", async (t) => {
  const { run } = makeInterp();
  t.is(
    await run(`(let-syntax ((my-when (syntax-rules () ((_ test stmt1 stmt2 ...) (if test (begin stmt1 stmt2 ...))))))
  (let ((if #t))
    (my-when if (set! if 'now))
    if))`),
    "now",
  );
  t.is(await run("(let ((=> #f)) (cond (#t => 'ok)))"), "ok");
  t.is(
    await run(`(letrec-syntax ((my-or (syntax-rules () ((_) #f) ((_ e) e) ((_ e1 e2 ...) (let ((temp e1)) (if temp temp (my-or e2 ...)))))))
  (let ((x #f) (y 7) (temp 8) (let odd?) (if even?))
    (my-or x (let temp) (if y) y)))`),
    "7",
  );
});

test("a literal matches only the same binding: a user's local else is not the macro's else", async (t) => {
  const { run } = makeInterp();
  await run("(define-syntax my-if (syntax-rules (else) ((_ c (else e)) (if c 'then e)) ((_ c x) 'no-else)))");
  t.is(await run("(my-if #f (else 1))"), "1");
  t.is(await run("(let ((else #f)) (my-if #f (else 1)))"), "no-else");
});

test("a local macro named like a special form shadows it, and a variable shadows a macro", async (t) => {
  const { run } = makeInterp();
  t.is(await run("(let-syntax ((if (syntax-rules () ((_ a b c) 'mine)))) (if #t 2 3))"), "mine");
  t.is(await run("(let ((when 1) (unless 2)) (+ when unless))"), "3");
});

test("a library's macro refers to the library's bindings wherever it is used (referential transparency)", async (t) => {
  const root = writeTree({
    "lib/my/mac.sld": `(define-library (my mac)
  (import (scheme base))
  (export wrap counter-next! define-getter)
  (begin
    (define count 0)
    (define (helper x) (list 'wrapped x))
    (define-syntax hidden-mac (syntax-rules () ((_ x) (helper x))))
    (define-syntax wrap (syntax-rules () ((_ e) (hidden-mac e))))
    (define-syntax counter-next! (syntax-rules () ((_) (begin (set! count (+ count 1)) count))))
    (define-syntax define-getter (syntax-rules () ((_ name) (define (name) count))))))`,
    "prog.scm": `(import (scheme base) (scheme write) (my mac))
(define (helper x) 'user-helper)
(define count 100)
(define-getter get)
(write (let ((list vector) (helper 0) (hidden-mac 1) (count -1))
  (list (wrap 1) (counter-next!) (counter-next!) count (get))))`,
  });
  const r = await runProgram(root, "prog.scm");
  t.is(r.out, "#((wrapped 1) 1 2 -1 2)", r.error);
});

test("a name a top-level macro defines is private to that expansion; a name the user passes is the user's", async (t) => {
  const { run } = makeInterp();
  await run("(define-syntax gen-def (syntax-rules () ((_ v) (define hidden v))))");
  await run("(gen-def 10) (gen-def 20)");
  t.is(await run("(guard (e (#t 'unbound)) hidden)"), "unbound");
  await run("(define-syntax gen-getter (syntax-rules () ((_ name v) (begin (define hidden v) (define (name) hidden)))))");
  await run("(gen-getter get-a 1) (gen-getter get-b 2)");
  t.is(await run("(list (get-a) (get-b))"), "(1 2)");
  await run("(define hidden 'user)");
  t.is(await run("(list hidden (get-a) (get-b))"), "(user 1 2)");
});

test("in a program too, definitions a macro introduces stay private to each expansion", async (t) => {
  const root = writeTree({
    "prog.scm": `(import (scheme base) (scheme write))
(define-syntax counter
  (syntax-rules () ((_ next) (begin (define n 0) (define (next) (set! n (+ n 1)) n)))))
(counter next-a)
(counter next-b)
(next-a) (next-a)
(define n 'user)
(write (list (next-a) (next-b) n))`,
  });
  const r = await runProgram(root, "prog.scm");
  t.is(r.out, "(3 1 user)", r.error);
});

test("quasiquote, vectors and quoted symbols in templates come out as plain data", async (t) => {
  const { run } = makeInterp();
  await run("(define-syntax qq (syntax-rules () ((_ a ...) `(start ,a ... ,@(list a ...) end))))");
  t.is(await run("(let ((list vector)) (qq 1 2))"), "(start 1 2 1 2 end)");
  await run("(define-syntax names (syntax-rules () ((_ x) '(x y #(z)))))");
  t.is(await run("(names q)"), "(q y #(z))");
  t.is(await run("(eq? (car (cdr (names q))) 'y)"), "#t");
});
