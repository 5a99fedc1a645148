;;; (scheme case-lambda): exactly the bindings R7RS-small lists for this library.
(define-library (scheme case-lambda)
  (import (nodwyn builtins))
  (export
    case-lambda))
