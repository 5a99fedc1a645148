;; tak: Takeuchi's function — three-argument non-tail calls and fixnum
;; comparison, with little arithmetic per call.
;; answer: 7
(import (scheme base) (scheme write))

(define (tak x y z)
  (if (< y x)
      (tak (tak (- x 1) y z)
           (tak (- y 1) z x)
           (tak (- z 1) x y))
      z))

(define bench-repeat 500)

(define (repeat-work thunk)
  (let loop ((i 1) (result (thunk)))
    (if (< i bench-repeat)
        (loop (+ i 1) (thunk))
        result)))

(display (repeat-work (lambda () (tak 18 12 6))))
(newline)
