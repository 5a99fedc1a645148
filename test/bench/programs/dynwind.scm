;; dynwind: dynamic-wind in a hot loop — each iteration enters three nested
;; extents; some iterations leave normally, some escape from the innermost
;; extent with an escape continuation (running the after thunks on the way
;; out), and some escape from the middle one. Counts entries, exits and escapes.
;; answer: 5600 5600 933 1065866
(import (scheme base) (scheme write))

(define (wind-loop n)
  (let ((entries 0) (exits 0) (escapes 0) (sum 0))
    (define (enter!) (set! entries (+ entries 1)))
    (define (leave!) (set! exits (+ exits 1)))
    (let loop ((i 0))
      (when (< i n)
        (let ((result
               (call-with-current-continuation
                (lambda (escape)
                  (dynamic-wind
                   enter!
                   (lambda ()
                     (dynamic-wind
                      enter!
                      (lambda ()
                        (when (= (remainder i 5) 0)
                          (set! escapes (+ escapes 1))
                          (escape -1))
                        (dynamic-wind
                         enter!
                         (lambda ()
                           (if (= (remainder i 3) 0)
                               (begin (set! escapes (+ escapes 1))
                                      (escape -2))
                               i))
                         leave!))
                      leave!))
                   leave!)))))
          (set! sum (+ sum result))
          (loop (+ i 1)))))
    (list entries exits escapes sum)))

(define bench-repeat 120)

(define (repeat-work thunk)
  (let loop ((i 1) (result (thunk)))
    (if (< i bench-repeat)
        (loop (+ i 1) (thunk))
        result)))

(let ((result (repeat-work (lambda () (wind-loop 2000)))))
  (display (car result))
  (for-each (lambda (n) (display " ") (display n)) (cdr result))
  (newline))
