;;; SRFI 145: assume.
(import (scheme base) (srfi 145))

(assume #t)                                       ; expect: #t
(assume 5 "five")                                 ; expect: 5
(assume (memq 'b '(a b c)))                       ; expect: (b c)
(+ 1 (assume 2))                                  ; expect: 3
(assume #f)                                       ; expect error: user: assumption failed: #f
(assume (= 1 2) "one is not two" 42)              ; expect error: user: assumption failed: (= 1 2) "one is not two" 42
(guard (e (#t (error-object-irritants e))) (assume (null? '(1)) "not empty")) ; expect: ((null? (quote (1))) "not empty")
;; The expression is evaluated once.
(let ((n 0)) (assume (begin (set! n (+ n 1)) n)) n) ; expect: 1
