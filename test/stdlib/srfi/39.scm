;;; SRFI 39: parameter objects, as R7RS has them.
(import (scheme base) (scheme write) (srfi 39))

(define radix (make-parameter 10))
(radix)                                           ; expect: 10
(parameterize ((radix 2)) (radix))                ; expect: 2
(radix)                                           ; expect: 10
;; The converter applies to the initial value and to each parameterize value.
(define p (make-parameter 5 (lambda (x) (* x 10))))
(p)                                               ; expect: 50
(parameterize ((p 2)) (p))                        ; expect: 20
(define only-booleans (make-parameter #f (lambda (x) (if (boolean? x) x (error "only booleans are accepted" x)))))
(parameterize ((only-booleans 0)) 'never)         ; expect error: user: only booleans are accepted
;; Bindings are undone on every exit, escapes included.
(call/cc (lambda (k) (parameterize ((radix 16)) (k (radix))))) ; expect: 16
(radix)                                           ; expect: 10
;; Several parameters at once, like let.
(define q (make-parameter 'q))
(parameterize ((radix 8) (q 'qq)) (list (radix) (q))) ; expect: (8 qq)
;; current-output-port is a parameter.
(let ((port (open-output-string)))
  (parameterize ((current-output-port port)) (write 'hi))
  (get-output-string port))                       ; expect: "hi"
;; As in R7RS, a parameter is called with no argument.
(radix 2)                                         ; expect error: arity
