;; mandel: membership in the Mandelbrot set on a grid — flonum multiply, add
;; and compare in an inner loop, with exact-to-inexact contagion where the grid
;; coordinates are computed. Prints the number of grid points that stay bounded
;; for 100 iterations.
;; answer: 2500
(import (scheme base) (scheme write))

(define (mandelbrot-count width height max-iterations)
  (let ((dx (/ 3.0 width)) (dy (/ 2.0 height)))
    (let row ((y 0) (count 0))
      (if (= y height)
          count
          (let ((ci (- (* y dy) 1.0)))
            (let column ((x 0) (count count))
              (if (= x width)
                  (row (+ y 1) count)
                  (let ((cr (- (* x dx) 2.0)))
                    (let iterate ((zr 0.0) (zi 0.0) (i 0))
                      (cond ((= i max-iterations)
                             (column (+ x 1) (+ count 1)))
                            ((> (+ (* zr zr) (* zi zi)) 4.0)
                             (column (+ x 1) count))
                            (else
                             (iterate (+ (- (* zr zr) (* zi zi)) cr)
                                      (+ (* 2.0 zr zi) ci)
                                      (+ i 1)))))))))))))

(define bench-repeat 120)

(define (repeat-work thunk)
  (let loop ((i 1) (result (thunk)))
    (if (< i bench-repeat)
        (loop (+ i 1) (thunk))
        result)))

(display (repeat-work (lambda () (mandelbrot-count 120 80 100))))
(newline)
