;; tail-loop: a counting loop of bench-repeat tail calls with two arguments —
;; run at 10^5 and 10^7 iterations, its peak memory must not grow (proper tail
;; calls in constant space).
;; answer: done
(import (scheme base) (scheme write))

(define bench-repeat 10000000)

(define (count-down n acc)
  (if (= n 0)
      (if (= acc bench-repeat) 'done 'wrong)
      (count-down (- n 1) (+ acc 1))))

(display (count-down bench-repeat 0))
(newline)
