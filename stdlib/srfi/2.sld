;;; (srfi 2): and-let*, an and whose clauses may bind variables (SRFI 2).
(define-library (srfi 2)
  (import (scheme base))
  (export and-let*)
  (begin
    ;; (and-let* (claw ...) body ...): evaluates the claws in order — (variable expression) binds the variable to the
    ;; expression's value for the later claws and the body, (expression) and a bound variable are only tested — and
    ;; returns #f at the first false one; otherwise the value of the body, or of the last claw when there is no body
    ;; (#t when there are neither).
    (define-syntax and-let*
      (syntax-rules ()
        ((_ ()) #t)
        ((_ () body ...) (let () body ...))
        ((_ ((var expr))) (let ((var expr)) var))
        ((_ ((expr))) expr)
        ((_ (id)) (begin (if #f (lambda (id) id)) id))
        ((_ ((var expr) . claws) . body) (let ((var expr)) (if var (and-let* claws . body) #f)))
        ((_ ((expr) . claws) . body) (if expr (and-let* claws . body) #f))
        ;; A claw that is neither a list nor an identifier (2, #f) fails to expand as a lambda parameter.
        ((_ (id . claws) . body) (begin (if #f (lambda (id) id)) (if id (and-let* claws . body) #f)))))))
