#!/usr/bin/env bash
# Runs chibi-scheme's portable match and SRFI 135 libraries' own tests on nodwyn.
#
# Like scripts/r7rs-yardstick.sh, a yardstick kept outside this project: the
# libraries and their tests are chibi's, never copied into the repository.
# Point the script at a checkout of chibi-scheme (its lib/ is read from there):
#
#   scripts/chibi-libraries.sh /path/to/chibi-scheme
#
# It copies lib/chibi/match.sld, lib/chibi/match/, lib/chibi/match-test.sld,
# lib/srfi/135.sld, lib/srfi/135.scm and lib/srfi/135/ into a temporary
# library directory, writes there a minimal (chibi test) of its own (test,
# test-assert, test-not, test-equal, test-error, each with an optional name
# first, test-begin, test-end; each assertion evaluated inside a guard, so one
# that raises is a failure and the run goes on), and runs
# `(import (scheme base) (chibi match-test)) (run-tests)` and the same for
# (srfi 135 test). Each prints its failures, then "PASS n FAIL m" and the
# seconds it took (wall clock, start-up included). The exit status is 0 only
# when every assertion passed.
set -euo pipefail

if [ $# -lt 1 ] || [ ! -d "$1/lib" ]; then
  sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//' >&2
  [ $# -ge 1 ] && echo "chibi-libraries: no lib/ folder in: $1" >&2
  exit 2
fi
CHIBI=$(cd "$1" && pwd)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
NODWYN=${NODWYN:-$ROOT/bin/nodwyn}

LIB=$(mktemp -d "${TMPDIR:-/tmp}/nodwyn-chibi-libraries.XXXXXX")
trap 'rm -rf "$LIB"' EXIT
mkdir -p "$LIB/chibi" "$LIB/srfi"
for f in chibi/match.sld chibi/match chibi/match-test.sld srfi/135.sld srfi/135.scm srfi/135; do
  if [ ! -e "$CHIBI/lib/$f" ]; then
    echo "chibi-libraries: $CHIBI/lib/$f is missing (an older chibi-scheme?)" >&2
    exit 2
  fi
  cp -R "$CHIBI/lib/$f" "$LIB/$f"
done

cat >"$LIB/chibi/test.sld" <<'EOF'
;; A minimal (chibi test) for running chibi's library tests on nodwyn (scripts/chibi-libraries.sh).
(define-library (chibi test)
  (import (scheme base) (scheme write))
  (export test test-assert test-not test-equal test-error test-begin test-end)
  (begin
    (define passed 0)
    (define failed 0)
    (define (fail! name expected got)
      (set! failed (+ failed 1))
      (display "FAIL: ") (write name)
      (display "\n  expected ") (write expected)
      (display "\n  got      ") (write got) (newline))
    ;; What an expression gives, or (raised message) when it raises.
    (define (attempt thunk)
      (guard (e (#t (list 'raised (if (error-object? e) (error-object-message e) e))))
        (thunk)))
    (define (check name same? expected thunk)
      (let ((got (attempt thunk)))
        (if (same? expected got) (set! passed (+ passed 1)) (fail! name expected got))))
    (define-syntax test
      (syntax-rules ()
        ((_ expected expr) (check 'expr equal? expected (lambda () expr)))
        ((_ name expected expr) (check name equal? expected (lambda () expr)))))
    (define-syntax test-equal
      (syntax-rules ()
        ((_ same? expected expr) (check 'expr same? expected (lambda () expr)))
        ((_ name same? expected expr) (check name same? expected (lambda () expr)))))
    (define-syntax test-assert
      (syntax-rules ()
        ((_ expr) (check 'expr eq? #t (lambda () (if expr #t #f))))
        ((_ name expr) (check name eq? #t (lambda () (if expr #t #f))))))
    (define-syntax test-not
      (syntax-rules ()
        ((_ expr) (check 'expr eq? #f (lambda () (if expr #t #f))))
        ((_ name expr) (check name eq? #f (lambda () (if expr #t #f))))))
    (define-syntax test-error
      (syntax-rules ()
        ((_ expr) (check 'expr eq? 'error (lambda () (guard (e (#t 'error)) expr 'no-error))))
        ((_ name expr) (check name eq? 'error (lambda () (guard (e (#t 'error)) expr 'no-error))))))
    (define (test-begin . name) #f)
    (define (test-end . name)
      (display "PASS ") (display passed) (display " FAIL ") (display failed) (newline))))
EOF

status=0
for lib in "chibi match-test" "srfi 135 test"; do
  prog="$LIB/run-$(echo "$lib" | tr ' ' '-').scm"
  printf '(import (scheme base) (%s))\n(run-tests)\n' "$lib" >"$prog"
  echo "== ($lib)"
  start=$(date +%s.%N)
  out=$("$NODWYN" run -I "$LIB" "$prog" 2>&1) || true
  end=$(date +%s.%N)
  echo "$out"
  last=$(printf '%s\n' "$out" | grep -E '^PASS [0-9]+ FAIL [0-9]+$' | tail -1 || true)
  if [ -z "$last" ]; then
    echo "chibi-libraries: ($lib) stopped before its end" >&2
    status=1
  elif [ "${last##* }" != 0 ]; then
    status=1
  fi
  echo "   $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }') s"
done
exit $status
