;;; (srfi 34): exception handling (SRFI 34): R7RS's with-exception-handler, guard and raise, which are SRFI 34's.
(define-library (srfi 34)
  (import (scheme base))
  (export with-exception-handler guard raise => else))
