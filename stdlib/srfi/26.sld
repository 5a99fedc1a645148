;;; (srfi 26): cut and cute, procedures with some parameters specialised (SRFI 26).
(define-library (srfi 26)
  (import (scheme base))
  (export cut cute)
  (begin
    ;; (cut slot-or-expr slot-or-expr ...): a procedure with one parameter for each <> among the slot-or-exprs (and the
    ;; rest of its arguments for a final <...>) that calls the first slot-or-expr with the others, the expressions
    ;; evaluated at each call: (cut cons 1 <>) is (lambda (x) (cons 1 x)).
    (define-syntax cut
      (syntax-rules ()
        ((_ slot-or-expr ...) (%cut () () slot-or-expr ...))))

    (define-syntax %cut
      (syntax-rules (<> <...>)
        ((_ (param ...) (proc arg ...))
         (lambda (param ...) ((begin proc) arg ...)))
        ((_ (param ...) (proc arg ...) <...>)
         (lambda (param ... . rest) (apply proc arg ... rest)))
        ((_ (param ...) (position ...) <...> . more)
         (syntax-error "cut: <...> may only come last"))
        ((_ (param ...) (position ...) <> . more)
         (%cut (param ... x) (position ... x) . more))
        ((_ (param ...) (position ...) expr . more)
         (%cut (param ...) (position ... expr) . more))))

    ;; (cute slot-or-expr slot-or-expr ...): like cut, but the expressions that are not slots (the procedure too) are
    ;; evaluated once, when the procedure is made.
    (define-syntax cute
      (syntax-rules ()
        ((_ slot-or-expr ...) (%cute () () () slot-or-expr ...))))

    (define-syntax %cute
      (syntax-rules (<> <...>)
        ((_ (param ...) (binding ...) (proc arg ...))
         (let (binding ...) (lambda (param ...) (proc arg ...))))
        ((_ (param ...) (binding ...) (proc arg ...) <...>)
         (let (binding ...) (lambda (param ... . rest) (apply proc arg ... rest))))
        ((_ (param ...) (binding ...) (position ...) <...> . more)
         (syntax-error "cute: <...> may only come last"))
        ((_ (param ...) (binding ...) (position ...) <> . more)
         (%cute (param ... x) (binding ...) (position ... x) . more))
        ((_ (param ...) (binding ...) (position ...) expr . more)
         (%cute (param ...) (binding ... (x expr)) (position ... x) . more))))))
