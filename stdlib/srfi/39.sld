;;; (srfi 39): parameter objects (SRFI 39), as R7RS has them.
(define-library (srfi 39)
  (import (scheme base))
  (export make-parameter parameterize))
