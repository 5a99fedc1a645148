;; ack: the Ackermann function A(3, n) — deep non-tail recursion (the stack
;; grows to about 2^(n+3) frames) next to many tail calls.
;; answer: 2045
(import (scheme base) (scheme write))

(define (ack m n)
  (cond ((= m 0) (+ n 1))
        ((= n 0) (ack (- m 1) 1))
        (else (ack (- m 1) (ack m (- n 1))))))

(define bench-repeat 8)

(define (repeat-work thunk)
  (let loop ((i 1) (result (thunk)))
    (if (< i bench-repeat)
        (loop (+ i 1) (thunk))
        result)))

(display (repeat-work (lambda () (ack 3 8))))
(newline)
