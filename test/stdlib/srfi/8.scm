;;; SRFI 8: receive.
(import (scheme base) (srfi 8))

(receive (a b) (values 1 2) (list a b))           ; expect: (1 2)
(receive all (values 1 2 3) all)                  ; expect: (1 2 3)
(receive all (values) all)                        ; expect: ()
(receive (a . rest) (values 1 2 3) (list a rest)) ; expect: (1 (2 3))
(receive (a) 5 a)                                 ; expect: 5
(receive () (values) 'none)                       ; expect: none
;; The body is a body: definitions, then several expressions.
(receive (q r) (floor/ 17 5) (define s (+ q r)) (list q r s)) ; expect: (3 2 5)
;; The wrong number of values is an arity error.
(receive (a b) (values 1 2 3) a)                  ; expect error: arity
(receive (a b) (values 1) a)                      ; expect error: arity
;; A body is required.
(receive (a) 1)                                   ; expect error: syntax
