;;; (srfi 145): assume, a declaration that an expression is true (SRFI 145).
(define-library (srfi 145)
  (import (scheme base))
  (export assume)
  (begin
    ;; (assume obj message ...): the value of obj when it is true; when it is false, an error (kind user) whose
    ;; message says which assumption failed and whose irritants are the messages.
    (define-syntax assume
      (syntax-rules ()
        ((_ expr message ...)
         (let ((value expr))
           (if value value (error "assumption failed" 'expr message ...))))))))
