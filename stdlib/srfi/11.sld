;;; (srfi 11): let-values and let*-values (SRFI 11), which are R7RS's.
(define-library (srfi 11)
  (import (scheme base))
  (export let-values let*-values))
