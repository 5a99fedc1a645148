;; fib: doubly recursive Fibonacci — the cost of a non-tail procedure call,
;; a fixnum comparison and fixnum addition/subtraction.
;; answer: 6765
(import (scheme base) (scheme write))

(define (fib n)
  (if (< n 2)
      n
      (+ (fib (- n 1)) (fib (- n 2)))))

;; The runner may lower bench-repeat for a slow implementation and divides
;; the time by it; the answer does not depend on it.
(define bench-repeat 2000)

(define (repeat-work thunk)
  (let loop ((i 1) (result (thunk)))
    (if (< i bench-repeat)
        (loop (+ i 1) (thunk))
        result)))

(display (repeat-work (lambda () (fib 20))))
(newline)
