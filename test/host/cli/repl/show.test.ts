// How the REPL prints values: shortened within its limits with counts, laid out to a width, whole for ,pp, cycles labelled.
import test from "ava";
import { writeToString } from "../../../../interpreter/api.js";
import { createNodeInterpreter } from "../../../../host/session/node-interpreter.js";
import { TERMINAL_LIMITS, showValue } from "../../../../host/cli/repl/show.js";
import { styleFor } from "../../../../host/cli/terminal/style.js";
import { colorEnabled } from "../../../../host/cli/terminal/style.js";

const interp = createNodeInterpreter();
const v = (src: string) => interp.evaluateSync(src);

test("a long list: the first 100 elements, then how many more; whole when asked", (t) => {
  const long = v("(let loop ((i 0) (acc '())) (if (= i 1000) (reverse acc) (loop (+ i 1) (cons i acc))))");
  const short = showValue(long, { limits: TERMINAL_LIMITS, width: 60 });
  t.regex(short, /^\(0 1 2 /);
  t.regex(short, /\s99\s+… 900 more\)$/);
  t.true(short.split("\n").every((l) => l.length <= 60));
  const whole = showValue(long, { width: 60 });
  t.regex(whole, /\s998\s999\)$/);
  t.is(whole.replace(/\s+/g, " "), writeToString(long, "write"));
});

test("vectors, strings and depth are cut the same way; an alist is laid out one pair a line", (t) => {
  t.regex(showValue(v("(make-vector 150 0)"), { limits: TERMINAL_LIMITS }), / 0 … 50 more\)$/);
  t.regex(showValue(v('(make-string 1500 #\\a)'), { limits: TERMINAL_LIMITS }), /^"a{1000}"\[… 500 more characters\]$/);
  t.is(showValue(v("'(1 (2 (3 (4))))"), { limits: { ...TERMINAL_LIMITS, depth: 2 } }), "(1 (2 (…)))");
  t.is(
    showValue(v("'((path . \"README.md\") (start . 1) (end . 20) (text . \"some text that is long enough\"))"), { width: 40 }),
    '((path . "README.md")\n (start . 1)\n (end . 20)\n (text . "some text that is long enough"))',
  );
});

test("code is laid out as code: bodies indented by two, operands aligned", (t) => {
  const code = v("'(define (f x) (let ((y (* x x))) (if (> y 10) (display \"big\") (display \"small\")) y))");
  t.is(showValue(code, { width: 40 }), '(define (f x)\n  (let ((y (* x x)))\n    (if (> y 10)\n      (display "big")\n      (display "small"))\n    y))');
  t.is(showValue(v("''a"), {}), "'a");
});

test("circular structure gets datum labels, and printing ends", (t) => {
  t.is(showValue(v("(let ((l (list 1 2 3))) (set-cdr! (cddr l) l) l)"), {}), "#0=(1 2 3 . #0#)");
  t.is(showValue(v("(let ((l (list 1 2 3))) (set-cdr! (cddr l) (cdr l)) l)"), {}), "(1 . #0=(2 3 . #0#))");
  t.is(showValue(v("(let ((x (vector 1 2))) (vector-set! x 1 x) x)"), {}), "#0=#(1 #0#)");
  t.is(showValue(v("(let ((l (list 1 2 3))) (set-cdr! (cddr l) l) l)"), { limits: TERMINAL_LIMITS }), "#0=(1 2 3 . #0#)");
});

test("whole output reads back as the value (write's syntax, with 'x for quote)", (t) => {
  for (const src of ["'(a \"b\\nc\" #\\x 1.5 1/3 #t #(1 2) #u8(1 2) (quote q) |odd sym|)", "(list (make-list 50 'abc) (make-string 3 #\\\"))"]) {
    const value = v(src);
    const text = showValue(value, { width: 30 });
    t.true(interp.evaluateSync(`(equal? (quote ${text}) (quote ${showValue(value, { width: 1000 })}))`) === true, text);
    t.true(interp.evaluateSync(`(equal? (quote ${text}) ${src})`) === true, text);
  }
});

test("colour: by kind when on, none when off; NO_COLOR and FORCE_COLOR decide", (t) => {
  const on = showValue(v("(list 1 \"s\" #t)"), { style: styleFor(true) });
  t.is(on, "(\x1b[33m1\x1b[39m \x1b[32m\"s\"\x1b[39m \x1b[33m#t\x1b[39m)");
  t.is(showValue(v("(list 1 \"s\" #t)"), { style: styleFor(false) }), '(1 "s" #t)');
  t.true(colorEnabled({ isTTY: true }, {}));
  t.false(colorEnabled({ isTTY: true }, { NO_COLOR: "1" }));
  t.false(colorEnabled({ isTTY: false }, {}));
  t.true(colorEnabled({ isTTY: false }, { FORCE_COLOR: "1" }));
  t.false(colorEnabled({ isTTY: true }, { TERM: "dumb" }));
  t.false(colorEnabled({ isTTY: true }, {}, false), "--no-color");
});
