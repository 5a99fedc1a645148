// Literal constants of the program (quoted and self-evaluating lists, vectors and
// bytevectors) are immutable: the mutators refuse them with an error that names
// the copy that fixes the program (docs/decisions/0044-immutable-literals.md).
import test from "ava";
import { join } from "node:path";
import { makeInterp } from "../helpers/interp.js";
import { formatRaised } from "../../interpreter/api.js";
import { nodeFileAccess } from "../../host/session/node-interpreter.js";
import { writeTree, runProgram } from "./expander/tree.js";

async function failure(src: string) {
  const { interp } = makeInterp();
  const out = await interp.evaluateOutcome(src, { file: "prog.scm" });
  if (out.ok) throw new Error(`expected a failure of ${src}`);
  return out;
}

async function value(src: string): Promise<string> {
  return makeInterp().run(src);
}

const LIST_FIX = "mutable pair (a literal is immutable: list-copy it) expected";
const VECTOR_FIX = "mutable vector (a literal is immutable: vector-copy it) expected";
const BYTES_FIX = "mutable bytevector (a literal is immutable: bytevector-copy it) expected";

test("set-car! and set-cdr! of a quoted list are errors that name list-copy", async (t) => {
  const out = await failure("(set-car! (quote (1 2)) 3)");
  t.is(out.condition?.kind, "type");
  t.is(formatRaised(out.error), `prog.scm:1:1: bad argument #1 to 'set-car!' (${LIST_FIX}, got (1 2))`);
  const cdr = await failure("(define l '(a b c))\n(set-cdr! (cdr l) '())");
  t.is(cdr.condition?.message, `bad argument #1 to 'set-cdr!' (${LIST_FIX}, got (b c))`);
  // Every pair of the literal is a literal, not only the first one.
  t.regex((await failure("(set-car! (cddr '(1 2 3)) 0)")).condition?.message ?? "", /mutable pair/);
  // A list inside a quoted vector.
  t.regex((await failure("(set-car! (vector-ref '#((1)) 0) 0)")).condition?.message ?? "", /list-copy it/);
});

test("the mutator refuses through every path: inlined, called through a variable, and by apply", async (t) => {
  // set-car! is inlined in compiled code; (f set-car!) calls the primitive itself.
  const viaVar = await failure("(define (f op) (op '(1 2) 0))\n(f set-car!)");
  t.is(viaVar.condition?.message, `bad argument #1 to 'set-car!' (${LIST_FIX}, got (1 2))`);
  const viaApply = await failure("(apply vector-set! '#(1 2) 0 '(9))");
  t.is(viaApply.condition?.message, `bad argument #1 to 'vector-set!' (${VECTOR_FIX}, got #(1 2))`);
  t.regex((await failure("(list-set! '(1 2 3) 1 'x)")).condition?.message ?? "", /^bad argument #1 to 'list-set!' \(mutable pair/);
});

test("vector literals, quoted or self-evaluating, refuse vector-set!, vector-fill! and vector-copy! into them", async (t) => {
  t.is((await failure("(vector-set! #(1 2 3) 0 'x)")).condition?.message, `bad argument #1 to 'vector-set!' (${VECTOR_FIX}, got #(1 2 3))`);
  t.is((await failure("(vector-fill! '#(1 2) 0)")).condition?.message, `bad argument #1 to 'vector-fill!' (${VECTOR_FIX}, got #(1 2))`);
  t.is(
    (await failure("(vector-copy! #(1 2) 0 (vector 8 9))")).condition?.message,
    `bad argument #1 to 'vector-copy!' (${VECTOR_FIX}, got #(1 2))`,
  );
  // Copying *from* a literal is fine.
  t.is(await value("(let ((v (make-vector 2 0))) (vector-copy! v 0 #(8 9)) v)"), "#(8 9)");
  // A vector inside a quoted list.
  t.regex((await failure("(vector-set! (car '(#(1))) 0 2)")).condition?.message ?? "", /vector-copy it/);
});

test("bytevector literals refuse bytevector-u8-set!, bytevector-copy! into them and read-bytevector!", async (t) => {
  t.is(
    (await failure("(bytevector-u8-set! #u8(1 2) 0 7)")).condition?.message,
    `bad argument #1 to 'bytevector-u8-set!' (${BYTES_FIX}, got #u8(1 2))`,
  );
  t.regex((await failure("(bytevector-copy! #u8(1 2) 0 (bytevector 3))")).condition?.message ?? "", /^bad argument #1 to 'bytevector-copy!' \(mutable bytevector/);
  t.regex(
    (await failure("(read-bytevector! #u8(0 0) (open-input-bytevector (bytevector 1 2)))")).condition?.message ?? "",
    /^bad argument #1 to 'read-bytevector!' \(mutable bytevector/,
  );
});

test("the copies the message names are mutable, and so are the results of constructors", async (t) => {
  t.is(await value("(let ((l (list-copy '(1 2)))) (set-car! l 9) (set-cdr! (cdr l) '(3)) l)"), "(9 2 3)");
  t.is(await value("(let ((v (vector-copy #(1 2)))) (vector-set! v 0 9) (vector-fill! v 7 1) v)"), "#(9 7)");
  t.is(await value("(let ((b (bytevector-copy #u8(1 2)))) (bytevector-u8-set! b 1 5) b)"), "#u8(1 5)");
  t.is(await value("(let ((l (list 1 2)) (v (vector 1 2))) (set-car! l 'a) (vector-set! v 1 'b) (list l v))"), "((a 2) #(1 b))");
  // New structure built from a literal is not literal.
  t.is(await value("(let ((l (map (lambda (x) x) '(1 2)))) (set-car! l 0) l)"), "(0 2)");
  t.is(await value("(let ((l (vector->list #(1 2)))) (set-car! l 0) l)"), "(0 2)");
  t.is(await value("(let ((v (list->vector '(1 2)))) (vector-set! v 0 0) v)"), "#(0 2)");
  t.is(await value("(let ((l (append '(1) '(2) (list 3)))) (set-car! l 0) l)"), "(0 2 3)");
});

test("data that read produces are mutable: they are not program text", async (t) => {
  const src =
    "(let ((d (read (open-input-string \"(1 #(2) #u8(3))\"))))" +
    " (set-car! d 'a) (vector-set! (cadr d) 0 'b) (bytevector-u8-set! (car (cddr d)) 0 4) d)";
  t.is(await value(src), "(a #(b) #u8(4))");
});

test("eval of a quote of a list the program built leaves that list mutable and returns it itself", async (t) => {
  const src =
    "(let ((l (list 1 2))) (let ((r (eval (list 'quote l) (interaction-environment))))" +
    " (set-car! l 9) (list (eq? r l) l)))";
  t.is(await value(src), "(#t (9 2))");
  // A literal of program text given to eval stays a literal.
  const out = await failure("(set-car! (eval ''(1 2) (interaction-environment)) 0)");
  t.regex(out.condition?.message ?? "", /list-copy it/);
});

test("a literal's mark does not change what it is: equal?, printing, length and reading it work as before", async (t) => {
  t.is(await value("(list (equal? '(1 #(2) #u8(3)) (list 1 (vector 2) (bytevector 3))) (length '(1 2 3)) (vector-ref #(a b) 1) (vector-length #(1 2)))"), "(#t 3 b 2)");
  t.is(await value("(list (vector? #(1)) (bytevector? #u8(1)) (pair? '(1)) (list? '(1 2)))"), "(#t #t #t #t)");
  // Datum labels inside a literal are filled in by the reader, whatever the mark.
  t.is(await value("(let ((x '#0=(a #(b #0#)))) (eq? x (vector-ref (cadr x) 1)))"), "#t");
});

test("literals of included and loaded files are immutable too, like those of the program", async (t) => {
  const root = writeTree({
    "src/lits.scm": "(define inc-list '(1 2 3))\n(define inc-vec #(1 2))\n(define inc-bytes #u8(1 2))\n",
    "src/LITS-CI.scm": "(DEFINE CI-LIST '(A B))\n",
    "lib/inc/lib.sld": '(define-library (inc lib) (import (scheme base)) (export lib-list) (include "body.scm"))',
    "lib/inc/body.scm": "(define lib-list '(x y))\n",
    "src/prog.scm": [
      "(import (scheme base) (scheme write) (inc lib))",
      '(include "lits.scm")',
      '(include-ci "LITS-CI.scm")',
      "(define (try thunk) (guard (e ((error-object? e) (error-object-message e))) (thunk) 'mutated))",
      "(write (list (try (lambda () (set-car! inc-list 9)))",
      "             (try (lambda () (vector-set! inc-vec 0 9)))",
      "             (try (lambda () (bytevector-u8-set! inc-bytes 0 9)))",
      "             (try (lambda () (set-cdr! ci-list '())))",
      "             (try (lambda () (set-car! lib-list 'z)))))",
    ].join("\n"),
  });
  const r = await runProgram(root, "src/prog.scm");
  t.true(r.ok, r.error);
  const msg = (what: string, fix: string, got: string) => `"bad argument #1 to '${what}' (${fix}, got ${got})"`;
  t.is(
    r.out,
    `(${msg("set-car!", LIST_FIX, "(1 2 3)")} ${msg("vector-set!", VECTOR_FIX, "#(1 2)")} ${msg("bytevector-u8-set!", BYTES_FIX, "#u8(1 2)")}` +
      ` ${msg("set-cdr!", LIST_FIX, "(a b)")} ${msg("set-car!", LIST_FIX, "(x y)")})`,
  );
  // load reads its file as program text too.
  const loaded = makeInterp({ files: nodeFileAccess });
  await t.throwsAsync(loaded.run(`(load ${JSON.stringify(join(root, "src/lits.scm"))}) (set-car! inc-list 0)`), {
    message: new RegExp(`bad argument #1 to 'set-car!' \\(mutable pair \\(a literal is immutable: list-copy it\\) expected, got \\(1 2 3\\)\\)`),
  });
});

test("quasiquote: a level with an unquote is new pairs, to its end; a part without one is the literal itself", async (t) => {
  // The whole spine of a list that holds an unquote is built, the constant tail after it too.
  t.is(await value("(let* ((x 1) (l `(,x 2 3))) (set-car! (cdr l) 9) (set-cdr! (cddr l) '(4)) l)"), "(1 9 3 4)");
  t.is(await value("(let* ((x 1) (l `(0 ,@(list x) 2 3))) (set-car! (cdddr l) 9) l)"), "(0 1 2 9)");
  t.is(await value("(let* ((x 1) (v `#(0 ,x))) (vector-set! v 0 9) v)"), "#(9 1)");
  // No unquote at all: the quasiquote is a quote of the literal.
  t.regex((await failure("(set-car! `(1 2) 0)")).condition?.message ?? "", /list-copy it/);
  t.regex((await failure("(vector-set! `#(1 2) 0 0)")).condition?.message ?? "", /vector-copy it/);
  // A part with no unquote inside is the literal.
  t.regex((await failure("(let ((x 1)) (set-car! (car `((a b) ,x)) 0))")).condition?.message ?? "", /got \(a b\)/);
  // What an unquote inserts is the program's own value, mutable if it was.
  t.is(await value("(let* ((m (list 1 2)) (l `(a ,m))) (set-car! (cadr l) 9) m)"), "(9 2)");
});

test("string literals are immutable as before, and strings read by read are not", async (t) => {
  const STRING_FIX = "mutable string (a literal is immutable: string-copy it) expected";
  t.is((await failure('(string-set! "abc" 0 #\\z)')).condition?.message, `bad argument #1 to 'string-set!' (${STRING_FIX}, got "abc")`);
  t.is((await failure('(string-copy! "abc" 0 "xy")')).condition?.message, `bad argument #1 to 'string-copy!' (${STRING_FIX}, got "abc")`);
  t.is((await failure('(string-fill! "abc" #\\z)')).condition?.message, `bad argument #1 to 'string-fill!' (${STRING_FIX}, got "abc")`);
  t.is(await value('(let ((s (string-copy "abc"))) (string-set! s 0 #\\z) (string-copy! s 1 "xy") s)'), '"zxy"');
  t.is(await value("(let ((s (read (open-input-string \"\\\"abc\\\"\")))) (string-set! s 0 #\\z) s)"), '"zbc"');
});

test("eval of read data is not a literal; records made by evaluated code are mutable", async (t) => {
  // read gives data, not program text: a quote of it evaluates to that (mutable) datum.
  t.is(await value("(let ((d (read (open-input-string \"(quote (1 2))\")))) (let ((l (eval d (interaction-environment)))) (set-car! l 9) l))"), "(9 2)");
  const rec =
    "(eval '(define-record-type point (make-point x y) point? (x px set-px!) (y py)) (interaction-environment))" +
    "(let ((p (eval '(make-point '(1 2) 2) (interaction-environment)))) (set-px! p 9) (px p))";
  t.is(await value(rec), "9");
});
