;;; SRFI 128: comparators. Every procedure of the document, its examples, the default comparator's order; SRFI 162's names.
(import (scheme base) (scheme char) (srfi 128))

(define bool-c (make-comparator boolean? boolean=? (lambda (x y) (and (not x) y)) boolean-hash))
(define real-c (make-comparator real? = < (lambda (x) (exact (floor (abs x))))))
(define str-c (make-comparator string? string=? string<? string-hash))
(define degenerate (make-comparator (lambda (x) #t) equal? #f #f))

;;; Predicates
(list (comparator? bool-c) (comparator? 5) (comparator? (make-default-comparator))) ; expect: (#t #f #t)
(list (comparator-ordered? real-c) (comparator-ordered? degenerate)) ; expect: (#t #f)
(list (comparator-hashable? str-c) (comparator-hashable? degenerate)) ; expect: (#t #f)
((comparator-ordering-predicate degenerate) 1 2)  ; expect error: user: comparator has no ordering predicate
(comparator-hash degenerate 1)                    ; expect error: user: comparator has no hash function
(make-comparator 1 equal? #f #f)                  ; expect error: type: bad argument #1 to 'make-comparator'

;;; Accessors and invokers
(list (comparator-test-type real-c 3) (comparator-test-type real-c "3")) ; expect: (#t #f)
(comparator-check-type real-c 3)                  ; expect: #t
(comparator-check-type real-c 'x)                 ; expect error: type: bad argument #2 to 'comparator-check-type'
(comparator-hash real-c -7.5)                     ; expect: 7
(eq? (comparator-equality-predicate str-c) string=?) ; expect: #t
(eq? (comparator-type-test-predicate str-c) string?) ; expect: #t
(eq? (comparator-hash-function str-c) string-hash) ; expect: #t
((comparator-ordering-predicate bool-c) #f #t)    ; expect: #t

;;; Comparison predicates, with several objects
(list (=? real-c 1 1.0 1) (=? real-c 1 2) (<? real-c 1 2 3) (<? real-c 1 3 2) (>? real-c 3 2 1)) ; expect: (#t #f #t #f #t)
(list (<=? real-c 1 1 2) (<=? real-c 2 1) (>=? real-c 2 2 1) (>=? real-c 1 2)) ; expect: (#t #f #t #f)
(=? 5 1 1)                                        ; expect error: type: bad argument #1 to '=?'

;;; Constructors over other comparators
(define pc (make-pair-comparator real-c str-c))
(list (comparator-test-type pc '(1 . "a")) (comparator-test-type pc '(1 . 2)) (comparator-test-type pc 5)) ; expect: (#t #f #f)
(list (=? pc '(1 . "a") '(1.0 . "a")) (<? pc '(1 . "b") '(2 . "a")) (<? pc '(1 . "a") '(1 . "b")) (<? pc '(1 . "b") '(1 . "a"))) ; expect: (#t #t #t #f)
(= (comparator-hash pc '(1 . "a")) (comparator-hash pc '(1.0 . "a"))) ; expect: #t
(define lc (make-list-comparator real-c list? null? car cdr))
(list (comparator-test-type lc '(1 2)) (comparator-test-type lc '(1 a)) (=? lc '(1 2) '(1 2)) (=? lc '(1 2) '(1 2 3))) ; expect: (#t #f #t #f)
(list (<? lc '() '(1)) (<? lc '(1 2) '(1 3)) (<? lc '(1 2) '(1 2 0)) (<? lc '(2) '(1 5)) (<? lc '() '())) ; expect: (#t #t #t #f #f)
(define vc (make-vector-comparator real-c vector? vector-length vector-ref))
(list (<? vc #(9) #(1 1)) (<? vc #(1 2) #(1 3)) (=? vc #(1 2) #(1 2)) (<? vc #(1 3) #(1 2)) (comparator-test-type vc #(1 x))) ; expect: (#t #t #t #f #f)
(define bvc (make-vector-comparator (make-comparator exact-integer? = < number-hash) bytevector? bytevector-length bytevector-u8-ref))
(list (<? bvc #u8(1 2) #u8(1 3)) (=? bvc #u8(1) #u8(1))) ; expect: (#t #t)
(let ((s (string #\a))) (list (=? (make-eq-comparator) s s) (=? (make-eq-comparator) s (string #\a)) (=? (make-eqv-comparator) 2.0 2.0) (=? (make-equal-comparator) (list s) (list "a")))) ; expect: (#t #f #t #t)
(comparator-test-type (make-eq-comparator) 'anything) ; expect: #t

;;; Standard hash functions: non-negative exact integers below (hash-bound); equal objects hash alike
(let ((hs (list (boolean-hash #t) (char-hash #\a) (char-ci-hash #\a) (string-hash "abc") (string-ci-hash "ABC") (symbol-hash 'abc) (number-hash 42) (number-hash 1.5))))
  (and (list? hs) (let loop ((hs hs)) (or (null? hs) (and (exact-integer? (car hs)) (>= (car hs) 0) (< (car hs) (hash-bound)) (loop (cdr hs))))))) ; expect: #t
(list (= (string-ci-hash "ABC") (string-ci-hash "abc")) (= (char-ci-hash #\A) (char-ci-hash #\a)) (= (number-hash 1) (number-hash 1.0))) ; expect: (#t #t #t)
(= (string-hash "abc") (string-hash (string #\a #\b #\c))) ; expect: #t
(not (= (string-hash "abc") (string-hash "abd"))) ; expect: #t
(string-hash 'abc)                                ; expect error: type: bad argument #1 to 'string-hash'
(list (hash-bound) (hash-salt) (< (hash-salt) (hash-bound))) ; expect: (4294967296 0 #t)

;;; The default comparator: the order of types, and each type's order
(define d (make-default-comparator))
(<? d '() '(1) #f #\a "a" 'a 1 #(1) #u8(1))     ; expect: #t
(list (<? d #f #t) (<? d #\a #\b) (<? d "abc" "abd") (<? d 'apple 'banana) (<? d 1 2.5) (=? d 2 2.0)) ; expect: (#t #t #t #t #t #t)
(list (<? d '(1 2) '(1 3)) (<? d '(1 . 2) '(2 . 1)) (<? d #(1 2) #(0 0 0)) (<? d #(1 2) #(1 3)) (=? d #("a" (1)) #("a" (1)))) ; expect: (#t #t #t #t #t)
(list (=? d "a" 'a) (<? d 'a "a"))                ; expect: (#f #f)
(list (= (default-hash '(1 "a" #(b))) (default-hash (list 1 "a" (vector 'b)))) (= (default-hash "abc") (string-hash "abc")) (= (default-hash 7) (number-hash 7))) ; expect: (#t #t #t)

;;; comparator-register-default!
(define-record-type point (make-point x y) point? (x point-x) (y point-y))
(define point-c (make-comparator point? (lambda (a b) (and (= (point-x a) (point-x b)) (= (point-y a) (point-y b))))
                                 (lambda (a b) (< (point-x a) (point-x b))) (lambda (p) (point-x p))))
(comparator-register-default! point-c)
(list (=? d (make-point 1 2) (make-point 1 2)) (<? d (make-point 1 2) (make-point 2 0)) (<? d #u8(1) (make-point 0 0))) ; expect: (#t #t #t)
(default-hash (make-point 5 0))                   ; expect: 5

;;; comparator-if<=>
(list (comparator-if<=> real-c 1 2 'less 'equal 'greater) (comparator-if<=> real-c 2 2 'less 'equal 'greater) (comparator-if<=> 3 2 'less 'equal 'greater)) ; expect: (less equal greater)

;;; SRFI 162's comparators and extrema
(list (<? boolean-comparator #f #t) (<? real-comparator 1 2) (<? char-comparator #\a #\b) (=? char-ci-comparator #\a #\A)) ; expect: (#t #t #t #t)
(list (<? string-comparator "a" "b") (=? string-ci-comparator "AB" "ab") (<? list-comparator '(1) '(1 2)) (<? vector-comparator #(1) #(1 2))) ; expect: (#t #t #t #t)
(list (=? eq-comparator 'a 'a) (=? eqv-comparator 1.0 1.0) (=? equal-comparator '(1) '(1)) (eq? default-comparator d)) ; expect: (#t #t #t #t)
(list (comparator-max real-comparator 3 1 4 1 5) (comparator-min real-comparator 3 1 4) (comparator-max-in-list string-comparator '("b" "c" "a")) (comparator-min-in-list string-comparator '("b" "c" "a"))) ; expect: (5 1 "c" "a")
