;;; SRFI 2: and-let*.
(import (scheme base) (srfi 2))

(and-let* () 1)                                   ; expect: 1
(and-let* () 1 2)                                 ; expect: 2
(and-let* ())                                     ; expect: #t
(let ((x #f)) (and-let* (x)))                     ; expect: #f
(let ((x 1)) (and-let* (x)))                      ; expect: 1
(and-let* ((x #f)))                               ; expect: #f
(and-let* ((x 1)))                                ; expect: 1
(and-let* ((#f) (x 1)))                           ; expect: #f
(and-let* ((2) (x 1)))                            ; expect: 1
(and-let* ((x 1) (2)))                            ; expect: 2
(let ((x "")) (and-let* (x) x))                   ; expect: ""
(let ((x 1)) (and-let* (x) (+ x 1)))              ; expect: 2
(let ((x #f)) (and-let* (x) (+ x 1)))             ; expect: #f
(let ((x 1)) (and-let* (((positive? x))) (+ x 1))) ; expect: 2
(let ((x 0)) (and-let* (((positive? x))) (+ x 1))) ; expect: #f
(let ((x 1)) (and-let* (((positive? x))) ))       ; expect: #t

;; Each binding is seen by the later claws and the body.
(let ((x 1)) (and-let* (((positive? x)) (x (+ x 1)) (x (+ x 1))) (+ x 1))) ; expect: 4
(let ((x 3)) (and-let* (x (y (- x 1)) ((positive? y))) (/ x y)))          ; expect: 3/2
(let ((x 1)) (and-let* (x (y (- x 1)) ((positive? y))) (/ x y)))          ; expect: #f

;; Claws are evaluated left to right and stop at the first false one.
(let ((trace '()))
  (and-let* (((begin (set! trace (cons 1 trace)) #t))
             ((begin (set! trace (cons 2 trace)) #f))
             ((begin (set! trace (cons 3 trace)) #t))))
  (reverse trace))                                ; expect: (1 2)

;; The body is a body: it may define.
(and-let* () (define x 5) x)                      ; expect: 5
(and-let* ((x 6)) (define y x) y)                 ; expect: 6

;; (and-let* ((p (assq k alist))) (cdr p)), the document's look-up.
(define (look-up key alist) (and-let* ((x (assq key alist))) (cdr x)))
(look-up 'b '((a . 1) (b . 2)))                   ; expect: 2
(look-up 'c '((a . 1) (b . 2)))                   ; expect: #f

;; A bare claw must be a variable; a claw of three parts is not a claw.
(and-let* (#f (x 1)))                             ; expect error: syntax
(and-let* (2 (x 1)))                              ; expect error: syntax
(and-let* ((x 1 2)) x)                            ; expect error: syntax
