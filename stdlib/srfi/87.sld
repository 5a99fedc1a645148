;;; (srfi 87): => in case clauses (SRFI 87), which R7RS's case has.
(define-library (srfi 87)
  (import (scheme base))
  (export case => else))
