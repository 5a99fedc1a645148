#!/usr/bin/env bash
# Runs chibi-scheme's portable R7RS test suite (tests/r7rs-tests.scm) against nodwyn.
#
# The suite is a yardstick kept outside this project (issue 4): it is never
# copied into the repository. Get it yourself, e.g.
#
#   curl -fsSLo /tmp/r7rs-tests.scm \
#     https://raw.githubusercontent.com/ashinn/chibi-scheme/master/tests/r7rs-tests.scm
#
# then run
#
#   scripts/r7rs-yardstick.sh [--whole] /tmp/r7rs-tests.scm
#
# By default the file runs form by form: a driver program reads it with `read`
# and evaluates each top-level form with `eval` in an environment made by the
# file's own `(import …)`. A form that raises outside any test (a macro that
# fails to expand, a read error at run time) is printed as "FORM FAILED", counted
# as one failure, and the run goes on with the next form, so one defect can
# never hide the rest of the file. With --whole the file runs as one program
# (`nodwyn run`), as a user would run it; it then stops at the first such error
# and the script reports the counts up to there.
#
# The suite imports (chibi test). This script writes a minimal (chibi test) of
# its own into a temporary library directory: test, test-values, test-assert,
# test-error (each with an optional name first), test-begin and test-end,
# comparing with equal? and, for inexact numbers (complex ones part by part), a relative tolerance of 1e-5
# (the suite's expected values are given to 15 digits, as chibi's test library
# allows). Every failure is printed with the expression, the expected and the
# actual value, each group ends with its counts, and the last line is
# "PASS n FAIL m". The exit status is 0 only when nothing failed.
#
# The suite imports (scheme complex), which nodwyn has since ADR 0039 (before
# it, this script wrote a real-only stand-in), and reads "#d1.0+1.0i" from a
# string port outside any test.
set -euo pipefail

WHOLE=0
if [ "${1:-}" = "--whole" ]; then
  WHOLE=1
  shift
fi
if [ $# -lt 1 ] || [ ! -f "$1" ]; then
  sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//' >&2
  [ $# -ge 1 ] && echo "r7rs-yardstick: no such file: $1" >&2
  exit 2
fi
SUITE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
NODWYN=${NODWYN:-$ROOT/bin/nodwyn}

LIB=$(mktemp -d "${TMPDIR:-/tmp}/nodwyn-yardstick.XXXXXX")
trap 'rm -rf "$LIB"' EXIT
mkdir -p "$LIB/chibi" "$LIB/scheme"

cat >"$LIB/chibi/test.sld" <<'EOF'
;; A minimal (chibi test) for running r7rs-tests.scm on nodwyn (written for nodwyn's yardstick).
(define-library (chibi test)
  (import (scheme base) (scheme inexact) (scheme complex) (scheme write) (scheme file) (scheme process-context))
  (export test test-values test-assert test-error test-begin test-end
          yardstick-form-failed! yardstick-summary)
  (begin
    (define passed 0)
    (define failed 0)
    (define groups '())

    ;; Inexact numbers compare with a relative tolerance (complex ones part by part); everything else with equal?.
    (define (close? a b)
      (cond ((and (real? a) (real? b) (inexact? a) (inexact? b))
             (or (equal? a b)
                 (and (nan? a) (nan? b))
                 (let ((m (max (abs a) (abs b))))
                   (if (zero? (min (abs a) (abs b)))
                       (< m 1e-5)
                       (< (abs (- a b)) (* m 1e-5))))))
            ((and (number? a) (number? b) (inexact? a) (inexact? b) (not (and (real? a) (real? b))))
             (and (close? (real-part a) (real-part b)) (close? (imag-part a) (imag-part b))))
            ((and (pair? a) (pair? b))
             (and (close? (car a) (car b)) (close? (cdr a) (cdr b))))
            (else (equal? a b))))

    (define-record-type <raised> (make-raised obj) raised? (obj raised-obj))

    (define (describe-raised e)
      (if (error-object? e)
          (string-append "raised: " (error-object-message e))
          (let ((o (open-output-string)))
            (write e o)
            (string-append "raised: " (get-output-string o)))))

    (define (describe x)
      (if (raised? x)
          (describe-raised (raised-obj x))
          (let ((o (open-output-string)))
            (write x o)
            (get-output-string o))))

    (define (attempt thunk)
      (call/cc
       (lambda (k)
         (with-exception-handler
          (lambda (e) (k (make-raised e)))
          thunk))))

    ;; The running counts, rewritten after every test into the file the script names,
    ;; so that it can report them even when the suite stops early.
    (define tally-file (get-environment-variable "NODWYN_YARDSTICK_TALLY"))
    (define (tally!)
      (if tally-file
          (call-with-output-file tally-file
            (lambda (p)
              (write-string "PASS " p) (write passed p)
              (write-string " FAIL " p) (write failed p)))))

    (define (pass!)
      (set! passed (+ passed 1))
      (tally!))

    (define (fail! what expected got)
      (set! failed (+ failed 1))
      (tally!)
      (display "FAIL: ")
      (write what)
      (display "\n  expected ")
      (display expected)
      (display "\n  got      ")
      (display got)
      (newline))

    ;; The driver's report of a top-level form that raised outside any test.
    (define (yardstick-form-failed! where e)
      (set! failed (+ failed 1))
      (tally!)
      (display "FORM FAILED: ")
      (display where)
      (display "\n  ")
      (display (describe-raised e))
      (newline))

    (define (yardstick-summary)
      (display "PASS ") (display passed)
      (display " FAIL ") (display failed)
      (newline))

    (define (check what expect-thunk thunk)
      (let ((expected (attempt expect-thunk))
            (got (attempt thunk)))
        (if (and (not (raised? expected)) (not (raised? got)) (close? expected got))
            (pass!)
            (fail! what (describe expected) (describe got)))))

    (define-syntax test
      (syntax-rules ()
        ((_ expect expr) (check 'expr (lambda () expect) (lambda () expr)))
        ((_ name expect expr) (check name (lambda () expect) (lambda () expr)))))

    (define-syntax test-values
      (syntax-rules ()
        ((_ expect expr) (test-values 'expr expect expr))
        ((_ name expect expr)
         (check name
                (lambda () (call-with-values (lambda () expect) list))
                (lambda () (call-with-values (lambda () expr) list))))))

    (define-syntax test-assert
      (syntax-rules ()
        ((_ expr) (test-assert 'expr expr))
        ((_ name expr) (check name (lambda () #t) (lambda () (if expr #t #f))))))

    (define-syntax test-error
      (syntax-rules ()
        ((_ expr) (test-error 'expr expr))
        ((_ name expr)
         (let ((got (attempt (lambda () expr))))
           (if (raised? got)
               (pass!)
               (fail! name "an error" (describe got)))))))

    ;; Each group remembers its name and the counts when it began.
    (define (test-begin . name)
      (set! groups (cons (list (if (pair? name) (car name) "") passed failed) groups)))

    (define (test-end . name)
      (if (pair? groups)
          (let ((g (car groups)))
            (set! groups (cdr groups))
            (display "== ") (display (car g)) (display ": ")
            (display (- passed (cadr g))) (display " passed, ")
            (display (- failed (list-ref g 2))) (display " failed; so far PASS ")
            (display passed) (display " FAIL ") (display failed)
            (newline)))
      (if (null? groups) (yardstick-summary)))))
EOF

# The form-by-form driver: every top-level form of the suite evaluated in turn in
# one environment (the suite's imports are forms like the others), each inside a
# guard, so a form that raises is reported and counted and the next one runs.
cat >"$LIB/driver.scm" <<'EOF'
;; Runs a file form by form (nodwyn's yardstick); the file is named by NODWYN_YARDSTICK_SUITE.
(import (scheme base) (scheme read) (scheme write) (scheme file) (scheme eval)
        (scheme process-context) (chibi test))

(define (show-short x)
  (let ((o (open-output-string)))
    (write x o)
    (let ((s (get-output-string o)))
      (if (> (string-length s) 70) (string-append (substring s 0 70) " ...") s))))

(define env (environment))
(define port (open-input-file (get-environment-variable "NODWYN_YARDSTICK_SUITE")))

;; A read error in the file itself ends the run (the reader cannot resynchronise).
(let loop ((n 1))
  (let ((form (guard (e (#t (yardstick-form-failed! "reading the next form" e) (eof-object)))
                (read port))))
    (if (not (eof-object? form))
        (begin
          (guard (e (#t (yardstick-form-failed!
                         (string-append "form " (number->string n) ": " (show-short form))
                         e)))
            (eval form env))
          (loop (+ n 1))))))
(yardstick-summary)
EOF

# Run from the suite's folder: it checks (file-exists? ".").
cd "$(dirname "$SUITE")"
set +e
if [ "$WHOLE" = 1 ]; then
  NODWYN_YARDSTICK_TALLY="$LIB/tally.txt" "$NODWYN" run -I "$LIB" "$SUITE" | tee "$LIB/out.txt"
else
  NODWYN_YARDSTICK_TALLY="$LIB/tally.txt" NODWYN_YARDSTICK_SUITE="$SUITE" \
    "$NODWYN" run -I "$LIB" "$LIB/driver.scm" | tee "$LIB/out.txt"
fi
status=${PIPESTATUS[0]}
set -e
summary=$(grep -E '^PASS [0-9]+ FAIL [0-9]+$' "$LIB/out.txt" | tail -n 1 || true)
if [ -z "$summary" ] || { [ "$WHOLE" = 1 ] && [ "$status" -ne 0 ]; }; then
  sofar=$(cat "$LIB/tally.txt" 2>/dev/null || echo "PASS 0 FAIL 0")
  echo "r7rs-yardstick: the suite stopped before its end (exit status $status); up to there: $sofar" >&2
  exit 1
fi
forms=$(grep -c '^FORM FAILED' "$LIB/out.txt" || true)
if [ "$forms" -gt 0 ]; then
  echo "r7rs-yardstick: $forms of the failures are top-level forms that raised outside any test" >&2
fi
[ "$status" -eq 0 ] && [ "${summary##* }" = "0" ]
