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
#   scripts/r7rs-yardstick.sh /tmp/r7rs-tests.scm
#
# The suite imports (chibi test). This script writes a minimal (chibi test) of
# its own into a temporary library directory: test, test-values, test-assert,
# test-error, test-begin and test-end, comparing with equal? and, for inexact
# numbers, a relative tolerance of 1e-5 (the suite's expected values are given
# to 15 digits, as chibi's test library allows). Every failure is printed with
# the expression, the expected and the actual value, each group ends with its
# counts, and the last line is "PASS n FAIL m". The exit status is 0 only when
# nothing failed.
#
# nodwyn has no complex numbers (optional in R7RS §6.2.3), so it has no
# (scheme complex) library, which the suite imports. The temporary directory
# gets a stand-in (scheme complex) that re-exports the real-only angle,
# magnitude, make-rectangular … of (scheme r5rs), so the assertions about
# complex numbers fail one by one instead of stopping the file at its import.
# One cannot: the "Numeric syntax" group reads "#d1.0+1.0i" from a string port
# outside any test, a read error without complex numbers, which ends the run
# there. The script then prints the counts of the tests run until then.
set -euo pipefail

if [ $# -lt 1 ] || [ ! -f "$1" ]; then
  sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2
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
  (import (scheme base) (scheme inexact) (scheme write) (scheme file) (scheme process-context))
  (export test test-values test-assert test-error test-begin test-end)
  (begin
    (define passed 0)
    (define failed 0)
    (define groups '())

    ;; Inexact reals compare with a relative tolerance; everything else with equal?.
    (define (close? a b)
      (cond ((and (real? a) (real? b) (inexact? a) (inexact? b))
             (or (equal? a b)
                 (and (nan? a) (nan? b))
                 (let ((m (max (abs a) (abs b))))
                   (if (zero? (min (abs a) (abs b)))
                       (< m 1e-5)
                       (< (abs (- a b)) (* m 1e-5))))))
            ((and (pair? a) (pair? b))
             (and (close? (car a) (car b)) (close? (cdr a) (cdr b))))
            (else (equal? a b))))

    (define-record-type <raised> (make-raised obj) raised? (obj raised-obj))

    (define (describe x)
      (if (raised? x)
          (let ((e (raised-obj x)))
            (if (error-object? e)
                (string-append "raised: " (error-object-message e))
                (let ((o (open-output-string)))
                  (write e o)
                  (string-append "raised: " (get-output-string o)))))
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
        ((_ expect expr)
         (check 'expr
                (lambda () (call-with-values (lambda () expect) list))
                (lambda () (call-with-values (lambda () expr) list))))))

    (define-syntax test-assert
      (syntax-rules ()
        ((_ expr) (check 'expr (lambda () #t) (lambda () (if expr #t #f))))))

    (define-syntax test-error
      (syntax-rules ()
        ((_ expr)
         (let ((got (attempt (lambda () expr))))
           (if (raised? got)
               (pass!)
               (fail! 'expr "an error" (describe got)))))))

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
      (if (null? groups)
          (begin
            (display "PASS ") (display passed)
            (display " FAIL ") (display failed)
            (newline))))))
EOF

cat >"$LIB/scheme/complex.sld" <<'EOF'
;; Stand-in for (scheme complex): the real-only versions that (scheme r5rs) exports.
(define-library (scheme complex)
  (import (scheme r5rs))
  (export angle imag-part magnitude make-polar make-rectangular real-part))
EOF

# Run from the suite's folder: it checks (file-exists? ".").
cd "$(dirname "$SUITE")"
set +e
NODWYN_YARDSTICK_TALLY="$LIB/tally.txt" "$NODWYN" run -I "$LIB" "$SUITE" | tee "$LIB/out.txt"
status=${PIPESTATUS[0]}
set -e
summary=$(grep -E '^PASS [0-9]+ FAIL [0-9]+$' "$LIB/out.txt" | tail -n 1 || true)
if [ -z "$summary" ]; then
  sofar=$(cat "$LIB/tally.txt" 2>/dev/null || echo "PASS 0 FAIL 0")
  echo "r7rs-yardstick: the suite stopped before its end (exit status $status); up to there: $sofar" >&2
  exit 1
fi
[ "$status" -eq 0 ] && [ "${summary##* }" = "0" ]
