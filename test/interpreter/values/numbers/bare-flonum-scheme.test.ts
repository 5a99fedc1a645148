// ADR 0046 seen from Scheme: compiled arithmetic, printing, hashing, JSON and the host boundary with bare flonums.
import test from "ava";
import { makeInterp } from "../../../helpers/interp.js";
import { Flonum } from "../../../../interpreter/values/numbers/repr.js";

test("1.5 + 1.5 is the inexact 3.0, in compiled code and through apply", async (t) => {
  const { run } = makeInterp();
  t.is(await run("(+ 1.5 1.5)"), "3.0");
  t.is(await run("(exact? (+ 1.5 1.5))"), "#f");
  t.is(await run("(inexact? (+ 1.5 1.5))"), "#t");
  t.is(await run("(apply + '(1.5 1.5))"), "3.0");
  t.is(await run("(let ((f (lambda (a b) (+ a b)))) (f 1.5 1.5))"), "3.0");
  t.is(await run("(* 0.5 4)"), "2.0");
  t.is(await run("(- 0.5 0.5)"), "0.0");
  t.is(await run("(exact? (- 0.5 0.5))"), "#f");
  t.is(await run("(/ 1.5 0.5)"), "3.0");
  t.is(await run("(+ 1 (* 2 0.25))"), "1.5");
  t.is(await run("(- 0.0)"), "-0.0");
  t.is(await run("-0.0"), "-0.0");
  t.is(await run("(* -1 0.0)"), "-0.0");
  t.is(await run("(eqv? 2 2.0)"), "#f");
  t.is(await run("(eqv? (+ 1.5 1.5) 3)"), "#f");
  t.is(await run("(= (+ 1.5 1.5) 3)"), "#t");
});

test("a float loop keeps its exactness: integral partial sums print inexact, the counter stays exact", async (t) => {
  const { run } = makeInterp();
  t.is(await run("(let loop ((i 0) (s 0.0)) (if (= i 8) (list i s (exact? i) (exact? s)) (loop (+ i 1) (+ s 0.25))))"), "(8 2.0 #t #f)");
  t.is(await run("(do ((i 0 (+ i 1)) (x 0.5 (* x 2))) ((= i 3) x))"), "4.0");
  t.is(await run("(let loop ((x 0.1) (n 0)) (if (> x 1) n (loop (+ x 0.1) (+ n 1))))"), "10");
});

test("NaN and the infinities: printing, predicates, eqv? and =", async (t) => {
  const { run } = makeInterp();
  t.is(await run("(list +nan.0 +inf.0 -inf.0 (/ 1.0 0.0) (- (/ 1.0 0.0)))"), "(+nan.0 +inf.0 -inf.0 +inf.0 -inf.0)");
  t.is(await run("(list (nan? +nan.0) (finite? 1.5) (finite? +inf.0) (infinite? -inf.0) (integer? +inf.0) (rational? +nan.0) (real? +nan.0))"), "(#t #t #f #t #f #f #t)");
  t.is(await run("(let ((x +nan.0)) (list (eqv? x x) (eqv? +nan.0 (/ 0. 0.)) (= x x)))"), "(#t #t #f)");
  t.is(await run("(list (exact? +inf.0) (inexact? +nan.0))"), "(#f #t)");
});

test("predicates, conversions and rounding on non-integral flonums", async (t) => {
  const { run } = makeInterp();
  t.is(await run("(list (integer? 1.5) (integer? 2.0) (rational? 1.5) (exact-integer? 1.5) (exact-integer? 2.0))"), "(#f #t #t #f #f)");
  t.is(await run("(exact 2.5)"), "5/2");
  t.is(await run("(exact 0.5)"), "1/2");
  t.is(await run("(inexact 1/4)"), "0.25");
  t.is(await run("(list (round 2.5) (round 3.5) (round -0.5) (floor 1.5) (ceiling 1.5) (truncate -1.5))"), "(2.0 4.0 -0.0 1.0 2.0 -1.0)");
  t.is(await run("(list (numerator 0.5) (denominator 0.5))"), "(1.0 2.0)");
  t.is(await run("(list (max 1.5 2) (min 1.5 2) (abs -1.5))"), "(2.0 1.5 1.5)");
  t.is(await run("(list (number->string 1.5) (string->number \"1.5\") (string->number \"#e1.5\") (number->string 0.1 2))"), '("1.5" 1.5 3/2 "0.0001100110011001100110011001100110011001100110011001101")');
  t.is(await run("(list (sqrt 2.25) (expt 1.5 2) (exp 0) (exact (floor 2.5)))"), "(1.5 2.25 1.0 2)");
});

test("an integer-only argument refuses a non-integral flonum", async (t) => {
  const { run } = makeInterp();
  for (const src of ["(vector-ref (vector 1 2 3) 1.5)", "(string-ref \"abc\" 0.5)", "(odd? 1.5)", "(quotient 7.5 2)", "(make-vector 1.5)", "(list-tail '(1 2 3) 1.5)", "(exact-integer-sqrt 2.25)"]) {
    await t.throwsAsync(() => run(src), undefined, src);
  }
  t.is(await run("(quotient 7.0 2)"), "3.0");
  t.is(await run("(case 1.5 ((1.5) 'yes) (else 'no))"), "yes");
  t.is(await run("(case 3 ((3.0) 'inexact) ((3) 'exact) (else 'no))"), "exact");
});

test("hash tables: 1.5 finds 1.5 however it was computed, and 2 and 2.0 are different keys", async (t) => {
  const { run } = makeInterp();
  t.is(
    await run(`(import (srfi 69))
      (let ((h (make-hash-table)))
        (hash-table-set! h 1.5 'a)
        (hash-table-set! h 2.0 'b)
        (list (hash-table-ref/default h (/ 3 2.) #f) (hash-table-ref/default h (+ 0.75 0.75) #f)
              (hash-table-ref/default h 2 #f) (hash-table-ref/default h (* 4 0.5) #f)))`),
    "(a a #f b)",
  );
  t.is(
    await run(`(import (srfi 69))
      (let ((h (make-hash-table eqv?)))
        (hash-table-set! h +nan.0 'nan)
        (hash-table-set! h 0.1 'tenth)
        (list (hash-table-ref/default h (/ 0. 0.) #f) (hash-table-ref/default h (/ 1 10.) #f) (hash-table-size h)))`),
    "(nan tenth 2)",
  );
  t.is(await run("(import (srfi 69)) (= (hash 1.5) (hash (+ 0.75 0.75)))"), "#t");
  t.is(
    await run(`(import (srfi 125))
      (let ((h (make-hash-table equal?)))
        (hash-table-set! h (list 1.5 2.0) 'x)
        (list (hash-table-ref/default h (list (* 3 0.5) (* 4 0.5)) #f) (hash-table-ref/default h (list 1.5 2) #f)))`),
    "(x #f)",
  );
});

test("JSON: 1.5 round-trips as a flonum, integers stay exact, and NaN has no JSON form", async (t) => {
  const m = makeInterp();
  t.is(await m.run(`(import (srfi 180)) (call-with-port (open-input-string "[1.5, 2, 2.0, -0.5, 1e-7]") json-read)`), "#(1.5 2 2.0 -0.5 1.0e-7)");
  t.is(await m.run(`(import (srfi 180)) (let ((p (open-output-string))) (json-write (vector 1.5 2 2.0 -0.5) p) (get-output-string p))`), '"[1.5,2,2.0,-0.5]"');
  t.is(await m.run(`(import (srfi 180)) (inexact? (vector-ref (call-with-port (open-input-string "[1.5]") json-read) 0))`), "#t");
  await t.throwsAsync(() => m.run(`(import (srfi 180)) (json-write +nan.0 (open-output-string))`));
  await t.throwsAsync(() => m.run(`(import (srfi 180)) (json-write (/ 1. 0.) (open-output-string))`));
});

test("the host boundary: a JS 1.5 is the Scheme 1.5, a JS integer stays exact, and values go back as numbers", async (t) => {
  const { interp, run } = makeInterp();
  const half = interp.fromJS(1.5);
  t.is(half, 1.5);
  t.true(interp.fromJS(-0) instanceof Flonum);
  t.is(interp.fromJS(7), 7);
  t.true(interp.fromJS(2 ** 60) instanceof Flonum);
  t.is(interp.toJS(await interp.evaluate("(+ 1.25 0.25)")), 1.5);
  t.is(interp.toJS(await interp.evaluate("(* 0.5 3)")), 1.5);
  t.is(interp.toJS(await interp.evaluate("(* 0.5 4)")), 2);
  t.is(await run("(exact? 3)"), "#t");
});
