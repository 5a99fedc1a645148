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
;; As SRFI 39 says (R7RS leaves it an error), a parameter called with a value stores it, converted, in its
;; current binding: the global one outside parameterize, the innermost one inside.
(radix 2)
(radix)                                           ; expect: 2
(p 3)
(p)                                               ; expect: 30
(parameterize ((radix 16)) (radix 8) (radix))     ; expect: 8
(radix)                                           ; expect: 2
(define converted (make-parameter "10" (lambda (x) (if (number? x) x (string->number x)))))
(converted "20")
(converted)                                       ; expect: 20
(only-booleans 5)                                 ; expect error: user: only booleans are accepted
(radix 1 2)                                       ; expect error: arity
