;;; (srfi 6): basic string ports (SRFI 6), which are R7RS's.
(define-library (srfi 6)
  (import (scheme base))
  (export open-input-string open-output-string get-output-string))
