;;; (srfi 64): a Scheme API for test suites (SRFI 64), with a simple runner whose report fits `nodwyn run`.
;;;
;;; Written from the document. A test runner is a record; the current runner and the factory are procedures
;;; over a variable (call with no argument to get, one to set). Each test: its name is put in the result
;;; alist, the skip and expect-fail specifiers are all called (so test-match-nth counts every test), then
;;; on-test-begin; the expressions are evaluated with errors caught; the kind is set, the count for it
;;; incremented, on-test-end called and the result alist cleared. The simple runner writes nothing for a
;;; passing test, a FAIL (or XPASS) line with the test's name, group path, form and values for the others,
;;; and at the end of its outermost group the counts. It does not exit: a program that wants its exit code
;;; to say whether the tests passed calls (exit (zero? (test-runner-fail-count (test-runner-get)))) before
;;; its last test-end, or reads the counts in an on-final of its own.
(define-library (srfi 64)
  (import (scheme base) (scheme case-lambda) (scheme read) (scheme write) (scheme eval) (scheme repl))
  (export test-begin test-end test-assert test-eqv test-eq test-equal test-approximate test-error
          test-read-eval-string test-group test-group-with-cleanup test-skip test-expect-fail
          test-match-name test-match-nth test-match-any test-match-all test-apply test-with-runner
          test-runner? test-runner-current test-runner-get test-runner-simple test-runner-null
          test-runner-create test-runner-factory test-runner-reset
          test-runner-pass-count test-runner-fail-count test-runner-xpass-count test-runner-xfail-count
          test-runner-skip-count test-runner-test-name test-runner-group-path test-runner-group-stack
          test-runner-aux-value test-runner-aux-value!
          test-runner-on-test-begin test-runner-on-test-begin! test-runner-on-test-end test-runner-on-test-end!
          test-runner-on-group-begin test-runner-on-group-begin! test-runner-on-group-end test-runner-on-group-end!
          test-runner-on-final test-runner-on-final! test-runner-on-bad-count test-runner-on-bad-count!
          test-runner-on-bad-end-name test-runner-on-bad-end-name!
          test-on-test-begin-simple test-on-test-end-simple test-on-group-begin-simple test-on-group-end-simple
          test-on-final-simple test-on-bad-count-simple test-on-bad-end-name-simple
          test-result-kind test-passed? test-result-ref test-result-set! test-result-remove test-result-clear
          test-result-alist)
  (begin
    ;; (test-runner? obj): true of test runners only.
    ;; (test-runner-pass-count runner), -fail-count, -xpass-count, -xfail-count, -skip-count: how many tests
    ;; of each kind the runner has seen since it was made or reset.
    ;; (test-runner-group-stack runner): the names of the groups being run, innermost first.
    ;; (test-runner-aux-value runner), (test-runner-aux-value! runner value): a slot for a runner's own use.
    ;; (test-runner-on-test-begin runner) and (test-runner-on-test-begin! runner proc), and the same pair for
    ;; on-test-end, on-group-begin, on-group-end, on-final, on-bad-count and on-bad-end-name: the callbacks.
    (define-record-type <test-runner>
      (make-test-runner* pass fail xpass xfail skip stack aux alist skip-list fail-list run-list saves total
                         on-test-begin on-test-end on-group-begin on-group-end on-final on-bad-count on-bad-end-name)
      test-runner?
      (pass test-runner-pass-count set-pass!)
      (fail test-runner-fail-count set-fail!)
      (xpass test-runner-xpass-count set-xpass!)
      (xfail test-runner-xfail-count set-xfail!)
      (skip test-runner-skip-count set-skip!)
      (stack test-runner-group-stack set-stack!)
      (aux test-runner-aux-value test-runner-aux-value!)
      (alist test-result-alist set-alist!)
      (skip-list skip-list set-skip-list!)
      (fail-list fail-list set-fail-list!)
      (run-list run-list set-run-list!)
      (saves saves set-saves!)
      (total total-count set-total!)
      (on-test-begin test-runner-on-test-begin test-runner-on-test-begin!)
      (on-test-end test-runner-on-test-end test-runner-on-test-end!)
      (on-group-begin test-runner-on-group-begin test-runner-on-group-begin!)
      (on-group-end test-runner-on-group-end test-runner-on-group-end!)
      (on-final test-runner-on-final test-runner-on-final!)
      (on-bad-count test-runner-on-bad-count test-runner-on-bad-count!)
      (on-bad-end-name test-runner-on-bad-end-name test-runner-on-bad-end-name!))

    ;; (test-runner-reset runner): back to the state of a new runner (counts zero, no groups, no specifiers);
    ;; the callbacks and the aux value stay.
    (define (test-runner-reset r)
      (set-pass! r 0) (set-fail! r 0) (set-xpass! r 0) (set-xfail! r 0) (set-skip! r 0) (set-total! r 0)
      (set-stack! r '()) (set-alist! r '()) (set-skip-list! r '()) (set-fail-list! r '()) (set-run-list! r #t)
      (set-saves! r '()))

    (define (nothing . args) #f)

    ;; (test-runner-null): a runner whose callbacks do nothing.
    (define (test-runner-null)
      (let ((r (make-test-runner* 0 0 0 0 0 '() #f '() '() '() #t '() 0
                                  nothing nothing nothing nothing nothing nothing nothing)))
        (test-runner-reset r)
        r))

    ;; (test-runner-simple): a runner that reports to the current output port: each failing test (and
    ;; unexpected pass) with its name, group path, form and values, and at the end of its outermost group how
    ;; many tests of each kind there were.
    (define (test-runner-simple)
      (let ((r (test-runner-null)))
        (test-runner-on-test-begin! r test-on-test-begin-simple)
        (test-runner-on-test-end! r test-on-test-end-simple)
        (test-runner-on-group-begin! r test-on-group-begin-simple)
        (test-runner-on-group-end! r test-on-group-end-simple)
        (test-runner-on-final! r test-on-final-simple)
        (test-runner-on-bad-count! r test-on-bad-count-simple)
        (test-runner-on-bad-end-name! r test-on-bad-end-name-simple)
        r))

    (define current-runner #f)
    (define factory test-runner-simple)

    ;; (test-runner-current [runner]): the current runner or #f; with an argument, makes it the current one.
    (define test-runner-current
      (case-lambda (() current-runner) ((r) (set! current-runner r))))

    ;; (test-runner-factory [proc]): the procedure test-runner-create calls (test-runner-simple at first); with
    ;; an argument, makes proc that procedure.
    (define test-runner-factory
      (case-lambda (() factory) ((f) (set! factory f))))

    ;; (test-runner-create): a new runner, made by the factory.
    (define (test-runner-create) ((test-runner-factory)))

    ;; (test-runner-get): the current runner; an error when there is none (no test-begin).
    (define (test-runner-get)
      (or current-runner (error "test-runner-get: no current test runner (test-begin missing?)")))

    ;; (test-result-ref runner name [default]): the value of the result property name of the current test, or
    ;; default (#f) when it has none.
    (define test-result-ref
      (case-lambda
        ((r name) (test-result-ref r name #f))
        ((r name default) (let ((p (assq name (test-result-alist r)))) (if p (cdr p) default)))))

    ;; (test-result-set! runner name value): sets the result property name of the current test.
    (define (test-result-set! r name value)
      (let ((p (assq name (test-result-alist r))))
        (if p (set-cdr! p value) (set-alist! r (cons (cons name value) (test-result-alist r))))))

    ;; (test-result-remove runner name): removes the result property name.
    (define (test-result-remove r name)
      (set-alist! r (let loop ((l (test-result-alist r)))
                      (cond ((null? l) '()) ((eq? (caar l) name) (cdr l)) (else (cons (car l) (loop (cdr l))))))))

    ;; (test-result-clear runner): removes every result property.
    (define (test-result-clear r) (set-alist! r '()))

    ;; (test-result-kind [runner]): pass, fail, xpass, xfail or skip for the test being reported, else #f.
    (define test-result-kind
      (case-lambda (() (test-result-kind (test-runner-get))) ((r) (test-result-ref r 'result-kind))))

    ;; (test-passed? [runner]): true when the test being reported passed (kind pass or xpass).
    (define test-passed?
      (case-lambda (() (test-passed? (test-runner-get)))
                   ((r) (and (memq (test-result-kind r) '(pass xpass)) #t))))

    ;; (test-runner-test-name runner): the name of the current test, "" when it has none.
    (define (test-runner-test-name r) (test-result-ref r 'test-name ""))

    ;; (test-runner-group-path runner): the names of the groups being run, outermost first.
    (define (test-runner-group-path r) (reverse (test-runner-group-stack r)))

    ;; Specifiers: a procedure of the runner, a string (the test's name), an integer n (the next n tests).
    (define (as-matcher s)
      (cond ((procedure? s) s)
            ((string? s) (test-match-name s))
            ((and (integer? s) (exact? s)) (test-match-nth 1 s))
            (else (error "test specifier: not a procedure, string or count" s))))

    ;; (test-match-name name): a specifier true of the tests named name.
    (define (test-match-name name) (lambda (r) (equal? name (test-runner-test-name r))))

    ;; (test-match-nth n [count]): a specifier true of the n-th test it is asked about (counting from 1, from
    ;; the time it is installed) and the count - 1 after it.
    (define test-match-nth
      (case-lambda
        ((n) (test-match-nth n 1))
        ((n count) (let ((i 0)) (lambda (r) (set! i (+ i 1)) (and (>= i n) (< i (+ n count))))))))

    ;; Every matcher is called, so that each nth counter sees each test.
    (define (call-all ms r)
      (let loop ((ms ms) (any #f) (all #t))
        (if (null? ms) (values any all)
            (let ((v ((car ms) r))) (loop (cdr ms) (or any v) (and all v))))))

    ;; (test-match-any specifier ...): a specifier true when any of them is (each is called).
    (define (test-match-any . ss)
      (let ((ms (map as-matcher ss))) (lambda (r) (let-values (((any all) (call-all ms r))) any))))

    ;; (test-match-all specifier ...): a specifier true when all of them are (each is called).
    (define (test-match-all . ss)
      (let ((ms (map as-matcher ss))) (lambda (r) (let-values (((any all) (call-all ms r))) all))))

    ;; (test-skip specifier ...): the tests matching any of them are skipped until the end of the group.
    (define (test-skip . ss)
      (let ((r (test-runner-get))) (set-skip-list! r (cons (apply test-match-any ss) (skip-list r)))))

    ;; (test-expect-fail specifier ...): the tests matching any of them are expected to fail, until the end
    ;; of the group.
    (define (test-expect-fail . ss)
      (let ((r (test-runner-get))) (set-fail-list! r (cons (apply test-match-any ss) (fail-list r)))))

    (define (ensure-runner)
      (or current-runner (let ((r (test-runner-create))) (set! current-runner r) r)))

    ;; (test-begin suite-name [count]): starts a group (making and installing a runner when there is none);
    ;; count, when given, is how many tests the group should have.
    (define test-begin
      (case-lambda
        ((name) (test-begin name #f))
        ((name count)
         (let* ((installed (not current-runner)) (r (ensure-runner)))
           ((test-runner-on-group-begin r) r name count)
           (set-saves! r (cons (vector (skip-list r) (fail-list r) (total-count r) count installed) (saves r)))
           (set-stack! r (cons name (test-runner-group-stack r)))))))

    ;; (test-end [suite-name]): ends the innermost group (on-bad-end-name when suite-name is not its name,
    ;; on-bad-count when a count was given and was wrong); at the end of the outermost group, on-final, and the
    ;; runner that test-begin installed is uninstalled.
    (define test-end
      (case-lambda
        (() (test-end #f))
        ((name)
         (let ((r (test-runner-get)))
           (when (null? (test-runner-group-stack r)) (error "test-end: no test-begin to end" name))
           (test-result-clear r)
           (let ((begun (car (test-runner-group-stack r))) (save (car (saves r))))
             (when (and name (not (equal? name begun))) ((test-runner-on-bad-end-name r) r begun name))
             (let ((expected (vector-ref save 3)) (actual (- (total-count r) (vector-ref save 2))))
               (when (and expected (not (= expected actual))) ((test-runner-on-bad-count r) r actual expected)))
             ((test-runner-on-group-end r) r)
             (set-stack! r (cdr (test-runner-group-stack r)))
             (set-skip-list! r (vector-ref save 0))
             (set-fail-list! r (vector-ref save 1))
             (set-saves! r (cdr (saves r)))
             (when (null? (test-runner-group-stack r))
               ((test-runner-on-final r) r)
               (when (vector-ref save 4) (set! current-runner #f))))))))

    ;; (test-group suite-name decl-or-expr ...): the body as a group, unless a skip specifier matches the name.
    (define-syntax test-group
      (syntax-rules ()
        ((_ name body ...)
         (let ((r (ensure-runner)) (n name))
           (set-alist! r (list (cons 'test-name n)))
           (if (should-execute r)
               (dynamic-wind (lambda () (test-begin n)) (lambda () body ...) (lambda () (test-end n)))
               (test-result-clear r))))))

    ;; (test-group-with-cleanup suite-name decl-or-expr ... cleanup-form): test-group whose last form is
    ;; evaluated however the others exit.
    (define-syntax test-group-with-cleanup
      (syntax-rules ()
        ((_ name cleanup) (test-group name cleanup))
        ((_ name form ... cleanup) (test-group name (dynamic-wind (lambda () #f) (lambda () form ...)
                                                                  (lambda () cleanup))))))

    ;; Sets result-kind to skip, xfail or pass (before the test runs); false when skipped.
    (define (should-execute r)
      (let-values (((skip? all1) (call-all (skip-list r) r))
                   ((fail? all2) (call-all (fail-list r) r)))
        (let ((run? (or (eq? (run-list r) #t) (let-values (((any all) (call-all (run-list r) r))) any))))
          (cond ((or skip? (not run?)) (test-result-set! r 'result-kind 'skip) #f)
                (fail? (test-result-set! r 'result-kind 'xfail) #t)
                (else (test-result-set! r 'result-kind 'pass) #t)))))

    (define (begin-test r name form)
      (set-alist! r (if name (list (cons 'test-name name)) '()))
      (test-result-set! r 'source-form form)
      (let ((go (should-execute r)))
        ((test-runner-on-test-begin r) r)
        (and go (not (eq? (test-result-kind r) 'skip)))))

    (define (end-test r ok)
      (test-result-set! r 'result-kind
                        (if (eq? (test-result-kind r) 'xfail) (if ok 'xpass 'xfail) (if ok 'pass 'fail)))
      (report r))

    (define (report r)
      (case (test-result-kind r)
        ((pass) (set-pass! r (+ 1 (test-runner-pass-count r))))
        ((fail) (set-fail! r (+ 1 (test-runner-fail-count r))))
        ((xpass) (set-xpass! r (+ 1 (test-runner-xpass-count r))))
        ((xfail) (set-xfail! r (+ 1 (test-runner-xfail-count r))))
        (else (set-skip! r (+ 1 (test-runner-skip-count r)))))
      (set-total! r (+ 1 (total-count r)))
      ((test-runner-on-test-end r) r)
      (test-result-clear r))

    (define caught (list 'caught))

    ;; The thunk's value, or (on a raise) caught, with actual-error set.
    (define (evaluate r thunk)
      (call/cc
       (lambda (k)
         (with-exception-handler
          (lambda (e) (test-result-set! r 'actual-error e) (k caught))
          thunk))))

    (define (run-compare r name form compare expected thunk)
      (if (begin-test r name form)
          (begin
            (test-result-set! r 'expected-value expected)
            (let ((v (evaluate r thunk)))
              (unless (eq? v caught) (test-result-set! r 'actual-value v))
              (end-test r (and (not (eq? v caught)) (compare expected v) #t))))
          (report r)))

    (define (run-assert* r name form thunk)
      (if (begin-test r name form)
          (let ((v (evaluate r thunk)))
            (unless (eq? v caught) (test-result-set! r 'actual-value v))
            (end-test r (and (not (eq? v caught)) v #t)))
          (report r)))

    (define (run-error r name form type thunk)
      (if (begin-test r name form)
          (begin
            (test-result-set! r 'expected-error type)
            (let ((v (evaluate r thunk)))
              (if (eq? v caught)
                  (let ((e (test-result-ref r 'actual-error)))
                    (end-test r (cond ((eq? type #t) #t) ((procedure? type) (and (type e) #t)) (else #t))))
                  (begin (test-result-set! r 'actual-value v) (end-test r #f)))))
          (report r)))

    ;; (test-assert [test-name] expression): passes when expression is true.
    (define-syntax test-assert
      (syntax-rules ()
        ((_ expr) (run-assert* (ensure-runner) #f 'expr (lambda () expr)))
        ((_ name expr) (run-assert* (ensure-runner) name 'expr (lambda () expr)))))

    (define-syntax define-compare
      (syntax-rules ()
        ((_ id compare)
         (define-syntax id
           (syntax-rules ()
             ((_ expected expr) (run-compare (ensure-runner) #f 'expr compare expected (lambda () expr)))
             ((_ name expected expr) (run-compare (ensure-runner) name 'expr compare expected (lambda () expr))))))))

    ;; (test-eqv [test-name] expected test-expr): passes when (eqv? expected value).
    (define-compare test-eqv eqv?)
    ;; (test-eq [test-name] expected test-expr): passes when (eq? expected value).
    (define-compare test-eq eq?)
    ;; (test-equal [test-name] expected test-expr): passes when (equal? expected value).
    (define-compare test-equal equal?)

    ;; (test-approximate [test-name] expected test-expr error): passes when the value is within error of
    ;; expected (both ends included).
    (define-syntax test-approximate
      (syntax-rules ()
        ((_ expected expr err) (test-approximate #f expected expr err))
        ((_ name expected expr err)
         (let ((e err))
           (run-compare (ensure-runner) name 'expr (lambda (x v) (and (>= v (- x e)) (<= v (+ x e))))
                        expected (lambda () expr))))))

    ;; (test-error [[test-name] error-type] test-expr): passes when test-expr raises. error-type #t accepts any
    ;; raised object; a procedure is a predicate the raised object must satisfy (error-object?, string?, …);
    ;; any other value accepts any raised object.
    (define-syntax test-error
      (syntax-rules ()
        ((_ expr) (run-error (ensure-runner) #f 'expr #t (lambda () expr)))
        ((_ type expr) (run-error (ensure-runner) #f 'expr type (lambda () expr)))
        ((_ name type expr) (run-error (ensure-runner) name 'expr type (lambda () expr)))))

    ;; (test-read-eval-string string): reads one datum from string (an error if anything but whitespace
    ;; follows it) and evaluates it in the interaction environment.
    (define (test-read-eval-string s)
      (let* ((port (open-input-string s)) (form (read port)))
        (unless (eof-object? (read port)) (error "test-read-eval-string: more than one datum" s))
        (eval form (interaction-environment))))

    ;; (test-with-runner runner decl-or-expr ...): the body with runner as the current runner.
    (define-syntax test-with-runner
      (syntax-rules ()
        ((_ runner body ...)
         (let ((saved #f) (r runner))
           (dynamic-wind (lambda () (set! saved current-runner) (set! current-runner r))
                         (lambda () body ...)
                         (lambda () (set! current-runner saved)))))))

    ;; (test-apply [runner] specifier ... procedure): calls procedure with runner (or the current one, or a new
    ;; one) current; with specifiers, only the tests matching one of them run (the others are skipped). A new
    ;; runner's on-final is called at the end.
    (define (test-apply first . rest)
      (let* ((given (test-runner? first))
             (args (if given rest (cons first rest)))
             (made (and (not given) (not current-runner)))
             (r (cond (given first) (made (test-runner-create)) (else current-runner)))
             (specs (let loop ((a args)) (if (null? (cdr a)) '() (cons (car a) (loop (cdr a))))))
             (proc (let loop ((a args)) (if (null? (cdr a)) (car a) (loop (cdr a))))))
        (let ((saved-run (run-list r)))
          (test-with-runner r
            (dynamic-wind
             (lambda ()
               (unless (null? specs)
                 (set-run-list! r (append (map as-matcher specs) (if (eq? saved-run #t) '() saved-run)))))
             proc
             (lambda () (set-run-list! r saved-run))))
          (when made ((test-runner-on-final r) r)))))

    ;; The simple runner's report.
    (define (path-text r)
      (let loop ((p (test-runner-group-path r)) (acc ""))
        (if (null? p) acc (loop (cdr p) (string-append acc (if (string? (car p)) (car p) "?") " > ")))))

    (define (show label value)
      (display "  ") (display label) (display ": ") (write value) (newline))

    ;; (test-on-test-begin-simple runner): the simple runner's on-test-begin (does nothing).
    (define (test-on-test-begin-simple r) #f)

    ;; (test-on-test-end-simple runner): the simple runner's on-test-end: a line for a test that failed or
    ;; passed unexpectedly (FAIL, XPASS), with its group path, name, form, expected and actual value or error.
    (define (test-on-test-end-simple r)
      (let ((kind (test-result-kind r)))
        (when (memq kind '(fail xpass))
          (display (if (eq? kind 'fail) "FAIL " "XPASS "))
          (display (path-text r))
          (let ((name (test-runner-test-name r)))
            (if (equal? name "") (write (test-result-ref r 'source-form)) (display name)))
          (newline)
          (let ((file (test-result-ref r 'source-file)) (line (test-result-ref r 'source-line)))
            (when file (display "  at ") (display file) (when line (display ":") (display line)) (newline)))
          (for-each (lambda (p)
                      (let ((a (assq (car p) (test-result-alist r)))) (when a (show (cdr p) (cdr a)))))
                    '((source-form . "form") (expected-value . "expected") (actual-value . "actual")
                      (expected-error . "expected error") (actual-error . "actual error"))))))

    ;; (test-on-group-begin-simple runner suite-name count): at the outermost group, a line naming it.
    (define (test-on-group-begin-simple r name count)
      (when (null? (test-runner-group-stack r))
        (display "%%%% Starting test ") (display name) (newline)))

    ;; (test-on-group-end-simple runner): the simple runner's on-group-end (does nothing).
    (define (test-on-group-end-simple r) #f)

    ;; (test-on-final-simple runner): the counts of each kind that occurred, one line each.
    (define (test-on-final-simple r)
      (for-each (lambda (p)
                  (let ((n ((car p) r)))
                    (unless (zero? n) (display (cdr p)) (display n) (newline))))
                (list (cons test-runner-pass-count "# of expected passes      ")
                      (cons test-runner-xfail-count "# of expected failures    ")
                      (cons test-runner-xpass-count "# of unexpected successes ")
                      (cons test-runner-fail-count "# of unexpected failures  ")
                      (cons test-runner-skip-count "# of skipped tests        "))))

    ;; (test-on-bad-count-simple runner actual expected): a line saying the group had actual tests, not
    ;; expected.
    (define (test-on-bad-count-simple r actual expected)
      (display "*** Total number of tests was ") (display actual) (display " but should be ")
      (display expected) (display ". ***") (newline))

    ;; (test-on-bad-end-name-simple runner begin-name end-name): an error: test-end's name is not the group's.
    (define (test-on-bad-end-name-simple r begin-name end-name)
      (error "test-end: the name does not match test-begin's" end-name begin-name))))
