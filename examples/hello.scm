;;; A small R7RS program: run it with `./bin/nodwyn run examples/hello.scm`.
(import (scheme base) (scheme write))

(define (greet name)
  (string-append "hello, " name "!"))

(define-record-type point (make-point x y) point? (x point-x) (y point-y))

(display (greet "nodwyn"))
(newline)
(write (map (lambda (p) (+ (point-x p) (point-y p)))
            (list (make-point 1 2) (make-point 3 4))))
(newline)
