;;; (scheme complex): exactly the bindings R7RS-small lists for this library (ADR 0039).
(define-library (scheme complex)
  (import (nodwyn builtins))
  (export
    angle imag-part magnitude make-polar make-rectangular real-part))
