;;; SRFI 111: boxes.
(import (scheme base) (srfi 111))

(define b (box 1))
(box? b)                                          ; expect: #t
(unbox b)                                         ; expect: 1
(set-box! b 2)
(unbox b)                                         ; expect: 2
(box? 1)                                          ; expect: #f
(box? (vector 1))                                 ; expect: #f
(box? (list 1))                                   ; expect: #f
;; A box may hold anything, another box too.
(unbox (unbox (box (box 'inner))))                ; expect: inner
;; Disjoint from other types, identity as records have it.
(procedure? b)                                    ; expect: #f
(eq? b b)                                         ; expect: #t
(eqv? (box 1) (box 1))                            ; expect: #f
(let ((b2 (box 'x))) (eqv? b2 b2))                ; expect: #t
(unbox 5)                                         ; expect error: type: bad argument #1 to 'unbox' (box expected, got 5)
(set-box! '(1) 2)                                 ; expect error: type: bad argument #1 to 'set-box!'
(box)                                             ; expect error: arity
