;;; (srfi 8): receive, binding the values of an expression (SRFI 8).
(define-library (srfi 8)
  (import (scheme base))
  (export receive)
  (begin
    ;; (receive formals expression body ...): evaluates expression and binds formals to its values as a lambda's
    ;; parameters are bound to its arguments — (a b), a, or (a b . rest) — for the body.
    (define-syntax receive
      (syntax-rules ()
        ((_ formals expr body0 body ...)
         (call-with-values (lambda () expr) (lambda formals body0 body ...)))))))
