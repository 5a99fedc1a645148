;; cpstak: Takeuchi's function in continuation-passing style — every call
;; allocates a closure that captures up to four variables, and every return is
;; a call to such a closure (closure creation, free-variable access, tail calls).
;; answer: 7
(import (scheme base) (scheme write))

(define (cps-tak x y z k)
  (if (< y x)
      (cps-tak (- x 1) y z
               (lambda (a)
                 (cps-tak (- y 1) z x
                          (lambda (b)
                            (cps-tak (- z 1) x y
                                     (lambda (c)
                                       (cps-tak a b c k)))))))
      (k z)))

(define (tak x y z)
  (cps-tak x y z (lambda (result) result)))

(define bench-repeat 100)

(define (repeat-work thunk)
  (let loop ((i 1) (result (thunk)))
    (if (< i bench-repeat)
        (loop (+ i 1) (thunk))
        result)))

(display (repeat-work (lambda () (tak 18 12 6))))
(newline)
