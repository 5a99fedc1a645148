;;; (srfi 9): records (SRFI 9): R7RS's define-record-type, which is SRFI 9's.
(define-library (srfi 9)
  (import (scheme base))
  (export define-record-type))
