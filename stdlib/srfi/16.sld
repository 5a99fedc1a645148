;;; (srfi 16): case-lambda (SRFI 16), which is R7RS's.
(define-library (srfi 16)
  (import (scheme case-lambda))
  (export case-lambda))
