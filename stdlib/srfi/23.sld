;;; (srfi 23): error (SRFI 23), which is R7RS's.
(define-library (srfi 23)
  (import (scheme base))
  (export error))
