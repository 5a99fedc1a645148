// Literal constants of the program (quoted and self-evaluating lists, vectors and
// bytevectors) are immutable: the mutators refuse them with an error that names
// the copy that fixes the program (docs/decisions/0044-immutable-literals.md).
import test from "ava";
import { makeInterp } from "../helpers/interp.js";
import { formatRaised } from "../../interpreter/api.js";

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
