;;; SRFI 64: the test suite API, written from the document. Most checks run tests under a null runner and read
;;; its counts, so that failing tests here are data, not failures of this file.
(import (scheme base) (scheme write) (srfi 64))

(define (counts r)
  (list (test-runner-pass-count r) (test-runner-fail-count r) (test-runner-xpass-count r)
        (test-runner-xfail-count r) (test-runner-skip-count r)))

(define r (test-runner-null))
(test-runner? r)                                             ; expect: #t
(test-runner? 5)                                             ; expect: #f
(test-runner-current)                                        ; expect: #f
(test-runner-get)                                            ; expect error: user: no current test runner
(test-with-runner r
  (test-begin "s")
  (test-assert (= 1 1))
  (test-assert "named" #f)
  (test-eqv 2 (+ 1 1))
  (test-eqv 'named-eqv 3 (+ 1 1))
  (test-eq 'a 'a)
  (test-equal '(1 #(2)) (list 1 (vector 2)))
  (test-equal "eq" '(1) '(2))
  (test-approximate 1.0 1.05 0.1)
  (test-approximate 1.0 1.2 0.1)
  (test-error (car '()))
  (test-error #t (vector-ref (vector) 1))
  (test-error "pred" error-object? (error "x"))
  (test-error "pred-no" string? (error "x"))
  (test-error 'no-raise #t 5)
  (test-assert "raises" (car '()))
  (test-end "s"))
(counts r)                                                   ; expect: (8 7 0 0 0)
(test-runner-current)                                        ; expect: #f

;; Skip and expect-fail: strings, counts, procedures, match-any/all; scoped to the group.
(define r2 (test-runner-null))
(test-with-runner r2
  (test-begin "g")
  (test-skip "b")
  (test-assert "a" #t)
  (test-assert "b" #f)
  (test-expect-fail 2)
  (test-assert "c" #f)
  (test-assert "d" #t)
  (test-assert "e" #t)
  (test-begin "inner")
  (test-skip (test-match-all (test-match-name "x") (lambda (r) #t)))
  (test-expect-fail (test-match-any "y" "z"))
  (test-assert "x" #f)
  (test-assert "y" #f)
  (test-assert "z" #t)
  (test-end "inner")
  (test-assert "x" #t)
  (test-assert "b" #f)
  (test-end))
(counts r2)                                                  ; expect: (3 0 2 2 3)

;; test-match-nth n count counts from its installation.
(define r3 (test-runner-null))
(test-with-runner r3
  (test-begin "n")
  (test-skip (test-match-nth 2 2))
  (test-assert #t) (test-assert #f) (test-assert #f) (test-assert #t)
  (test-end))
(counts r3)                                                  ; expect: (2 0 0 0 2)

;; Groups: test-group, path and stack, skipping a group by name, cleanup however the body exits.
(define seen '())
(define r4 (test-runner-null))
(test-runner-on-test-end! r4 (lambda (r) (set! seen (cons (list (test-runner-test-name r) (test-runner-group-path r)
                                                                 (test-result-kind r) (test-passed? r)) seen))))
(test-with-runner r4
  (test-begin "top")
  (test-group "g1" (test-assert "t1" #t) (test-runner-group-stack r4))
  (test-skip "g2")
  (test-group "g2" (test-assert "never" #f))
  (test-group-with-cleanup "g3" (test-assert "t3" #f) (set! seen (cons 'cleaned seen)))
  (test-end "top"))
(reverse seen)              ; expect: (("t1" ("top" "g1") pass #t) ("t3" ("top" "g3") fail #f) cleaned)
(define cleaned #f)
(guard (e (#t (list 'escaped cleaned)))
  (test-with-runner (test-runner-null)
    (test-begin "c")
    (test-group-with-cleanup "gc" (raise 'out) (set! cleaned #t))))  ; expect: (escaped #t)

;; Result properties of a test, seen in on-test-end.
(define props #f)
(define r5 (test-runner-null))
(test-runner-on-test-end! r5 (lambda (r) (set! props (list (test-result-ref r 'result-kind) (test-result-ref r 'expected-value)
                                                           (test-result-ref r 'actual-value) (test-result-ref r 'source-form)
                                                           (test-result-ref r 'test-name) (test-result-ref r 'nope 'dflt)))))
(test-with-runner r5 (test-begin "p") (test-equal "eq" 1 (+ 1 1)) (test-end))
props                                                        ; expect: (fail 1 2 (+ 1 1) "eq" dflt)
(test-with-runner r5 (test-begin "p") (test-error "err" #t (raise 'boom)) (test-end))
(test-runner-on-test-end! r5 (lambda (r) (set! props (list (test-result-ref r 'actual-error) (test-result-kind r)))))
(test-with-runner r5 (test-begin "p") (test-error "err" #t (raise 'boom)) (test-end))
props                                                        ; expect: (boom pass)

;; test-result-set!, -remove, -clear, -alist.
(define r6 (test-runner-null))
(test-result-set! r6 'a 1)
(test-result-set! r6 'b 2)
(test-result-set! r6 'a 3)
(test-result-ref r6 'a)                                      ; expect: 3
(length (test-result-alist r6))                              ; expect: 2
(test-result-remove r6 'a)
(test-result-alist r6)                                       ; expect: ((b . 2))
(test-result-clear r6)
(test-result-alist r6)                                       ; expect: ()
(test-result-kind r6)                                        ; expect: #f
(test-runner-test-name r6)                                   ; expect: ""
(test-runner-aux-value! r6 'mine)
(test-runner-aux-value r6)                                   ; expect: mine

;; Callbacks: group begin/end, final, bad count, bad end name; test begin.
(define log '())
(define (note . x) (set! log (cons x log)))
(define r7 (test-runner-null))
(test-runner-on-group-begin! r7 (lambda (r name count) (note 'begin name count)))
(test-runner-on-group-end! r7 (lambda (r) (note 'end (car (test-runner-group-stack r)))))
(test-runner-on-final! r7 (lambda (r) (note 'final (test-runner-pass-count r))))
(test-runner-on-bad-count! r7 (lambda (r actual expected) (note 'bad-count actual expected)))
(test-runner-on-bad-end-name! r7 (lambda (r b e) (note 'bad-name b e)))
(test-runner-on-test-begin! r7 (lambda (r) (note 'test (test-runner-test-name r))))
(test-with-runner r7 (test-begin "a" 2) (test-assert "only" #t) (test-end "b"))
(reverse log)     ; expect: ((begin "a" 2) (test "only") (bad-name "a" "b") (bad-count 1 2) (end "a") (final 1))
(procedure? (test-runner-on-test-begin r7))                  ; expect: #t
(list (procedure? (test-runner-on-test-end r7)) (procedure? (test-runner-on-group-begin r7))
      (procedure? (test-runner-on-group-end r7)) (procedure? (test-runner-on-final r7))
      (procedure? (test-runner-on-bad-count r7)) (procedure? (test-runner-on-bad-end-name r7)))  ; expect: (#t #t #t #t #t #t)
(test-runner-reset r7)
(counts r7)                                                  ; expect: (0 0 0 0 0)
(test-runner-group-stack r7)                                 ; expect: ()

;; test-end without a group; test-read-eval-string.
(test-with-runner (test-runner-null) (test-end))             ; expect error: user: no test-begin
(test-read-eval-string "(+ 1 2)")                            ; expect: 3
(test-read-eval-string "(+ 1 2) 4")                          ; expect error: user: more than one datum
(test-read-eval-string "(+ 1")                               ; expect error: read

;; test-apply: only the tests matching a specifier run.
(define r8 (test-runner-null))
(test-with-runner r8 (test-begin "ap")
  (test-apply r8 "keep" (lambda () (test-assert "keep" #t) (test-assert "drop" #f)))
  (test-end))
(counts r8)                                                  ; expect: (1 0 0 0 1)
(define final-ran #f)
(test-runner-current #f) ; a host-caught error above leaves test-with-runner's runner current
(test-runner-factory (lambda () (let ((r (test-runner-null))) (test-runner-on-final! r (lambda (r) (set! final-ran (counts r)))) r)))
(test-apply (lambda () (test-assert #t)))
final-ran                                                    ; expect: (1 0 0 0 0)
(procedure? (test-runner-create))                            ; expect: #f
(test-runner? (test-runner-create))                          ; expect: #t
(test-runner-factory test-runner-simple)
(eq? (test-runner-factory) test-runner-simple)               ; expect: #t
(test-runner-current r8)
(eq? (test-runner-current) r8)                               ; expect: #t
(eq? (test-runner-get) r8)                                   ; expect: #t
(test-runner-current #f)

;; The simple runner's report: failures named, counts at the end.
(begin (test-begin "rep") (test-assert "good" #t) (test-eqv "bad" 1 2) (test-end))  ; expect output: %%%% Starting test rep\nFAIL rep > bad\n  form: 2\n  expected: 1\n  actual: 2\n# of expected passes      1\n# of unexpected failures  1\n
(test-runner-current)                                        ; expect: #f
(begin (test-begin "bc" 2) (test-assert #t) (test-end))  ; expect output: %%%% Starting test bc\n*** Total number of tests was 1 but should be 2. ***\n# of expected passes      1\n
(test-begin "x") (test-end "y")                              ; expect error: user: does not match
(test-runner-current #f)
(list test-on-test-begin-simple test-on-test-end-simple test-on-group-begin-simple test-on-group-end-simple
      test-on-final-simple test-on-bad-count-simple test-on-bad-end-name-simple)
