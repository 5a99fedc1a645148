;;; (scheme lazy): exactly the bindings R7RS-small lists for this library.
(define-library (scheme lazy)
  (import (nodwyn builtins))
  (export
    delay delay-force force make-promise promise?))
