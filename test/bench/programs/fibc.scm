;; fibc: Fibonacci where each sum is computed from two values delivered through
;; continuations captured with call/cc, and each result is returned by invoking
;; the caller's continuation — two captures and one escape per call.
;; answer: 6765
(import (scheme base) (scheme write))

(define (fibc n k)
  (if (< n 2)
      (k n)
      (k (+ (call-with-current-continuation
             (lambda (c) (fibc (- n 1) c)))
            (call-with-current-continuation
             (lambda (c) (fibc (- n 2) c)))))))

(define (fib n)
  (call-with-current-continuation
   (lambda (k) (fibc n k))))

(define bench-repeat 16)

(define (repeat-work thunk)
  (let loop ((i 1) (result (thunk)))
    (if (< i bench-repeat)
        (loop (+ i 1) (thunk))
        result)))

(display (repeat-work (lambda () (fib 20))))
(newline)
