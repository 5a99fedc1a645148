;; ctak: Takeuchi's function where every result is delivered by invoking a
;; continuation captured with call/cc — continuation capture and escape on
;; every call (the escapes jump out of a chain of tail calls).
;; answer: 10
(import (scheme base) (scheme write))

(define (ctak x y z)
  (call-with-current-continuation
   (lambda (k) (ctak-aux k x y z))))

(define (ctak-aux k x y z)
  (if (< y x)
      (ctak-aux k
                (call-with-current-continuation
                 (lambda (k) (ctak-aux k (- x 1) y z)))
                (call-with-current-continuation
                 (lambda (k) (ctak-aux k (- y 1) z x)))
                (call-with-current-continuation
                 (lambda (k) (ctak-aux k (- z 1) x y))))
      (k z)))

(define bench-repeat 12)

(define (repeat-work thunk)
  (let loop ((i 1) (result (thunk)))
    (if (< i bench-repeat)
        (loop (+ i 1) (thunk))
        result)))

(display (repeat-work (lambda () (ctak 15 10 5))))
(newline)
