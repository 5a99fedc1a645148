;;; (srfi 152): the R7RS-compatible string library (SRFI 152).
;;;
;;; Everything SRFI 152 shares with SRFI 13 is SRFI 13's binding (a program may
;;; import both), and what it shares with R7RS is R7RS's: string-map takes
;;; SRFI 152's strings from proc too. Criteria may be characters and char-sets
;;; as well as predicates, an extension SRFI 152 allows.
(define-library (srfi 152)
  (import (scheme base) (scheme char) (scheme case-lambda)
          (srfi 13)
          (nodwyn primitives srfi 152)
          (only (prefix (nodwyn primitives srfi 13) %) %string-range))
  (export
    ;; Predicates
    string? string-null? string-every string-any
    ;; Constructors
    make-string string string-tabulate string-unfold string-unfold-right
    ;; Conversion
    string->vector string->list vector->string list->string reverse-list->string
    ;; Selection
    string-length string-ref substring string-copy
    string-take string-take-right string-drop string-drop-right
    string-pad string-pad-right string-trim string-trim-right string-trim-both
    ;; Replacement
    string-replace
    ;; Comparison
    string=? string-ci=? string<? string-ci<? string>? string-ci>? string<=? string-ci<=? string>=? string-ci>=?
    ;; Prefixes and suffixes
    string-prefix-length string-suffix-length string-prefix? string-suffix?
    ;; Searching
    string-index string-index-right string-skip string-skip-right
    string-contains string-contains-right
    string-take-while string-take-while-right string-drop-while string-drop-while-right
    string-break string-span
    ;; Concatenation
    string-append string-concatenate string-concatenate-reverse string-join
    ;; Fold and map
    string-fold string-fold-right string-map string-for-each string-count
    string-filter (rename string-delete string-remove)
    ;; Replication and splitting
    string-replicate string-segment string-split
    ;; Input and output
    read-string write-string
    ;; Mutation
    string-set! string-fill! string-copy!)
  (begin

    ;; The checked start and end of s (#f: the defaults), as two values, for who.
    (define-syntax with-range
      (syntax-rules ()
        ((_ (a b) (who s start end) body ...)
         (call-with-values (lambda () (%string-range 'who s 3 start end)) (lambda (a b) body ...)))))

    (define (opt rest k) (let lp ((r rest) (k k)) (cond ((not (pair? r)) #f) ((= k 0) (car r)) (else (lp (cdr r) (- k 1))))))

    ;; (string-take-while s pred [start] [end]): A new string of the longest prefix of s[start, end) whose characters
    ;; satisfy pred.
    (define (string-take-while s pred . range)
      (with-range (a b) (string-take-while s (opt range 0) (opt range 1))
        (substring s a (or (string-skip s pred a b) b))))

    ;; (string-take-while-right s pred [start] [end]): A new string of the longest suffix of s[start, end) whose
    ;; characters satisfy pred.
    (define (string-take-while-right s pred . range)
      (with-range (a b) (string-take-while-right s (opt range 0) (opt range 1))
        (let ((i (string-skip-right s pred a b)))
          (substring s (if i (+ i 1) a) b))))

    ;; (string-drop-while s pred [start] [end]): s[start, end) without its longest prefix whose characters satisfy
    ;; pred, as a new string.
    (define (string-drop-while s pred . range)
      (with-range (a b) (string-drop-while s (opt range 0) (opt range 1))
        (substring s (or (string-skip s pred a b) b) b)))

    ;; (string-drop-while-right s pred [start] [end]): s[start, end) without its longest suffix whose characters
    ;; satisfy pred, as a new string.
    (define (string-drop-while-right s pred . range)
      (with-range (a b) (string-drop-while-right s (opt range 0) (opt range 1))
        (let ((i (string-skip-right s pred a b)))
          (substring s a (if i (+ i 1) a)))))

    ;; (string-span s pred [start] [end]): Two values: the longest prefix of s[start, end) whose characters satisfy
    ;; pred, and the rest.
    (define (string-span s pred . range)
      (with-range (a b) (string-span s (opt range 0) (opt range 1))
        (let ((i (or (string-skip s pred a b) b)))
          (values (substring s a i) (substring s i b)))))

    ;; (string-break s pred [start] [end]): Two values: the longest prefix of s[start, end) whose characters fail pred,
    ;; and the rest, which starts with the first character satisfying it.
    (define (string-break s pred . range)
      (with-range (a b) (string-break s (opt range 0) (opt range 1))
        (let ((i (or (string-index s pred a b) b)))
          (values (substring s a i) (substring s i b)))))))
