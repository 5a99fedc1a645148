;;; (scheme load): exactly the bindings R7RS-small lists for this library.
(define-library (scheme load)
  (import (nodwyn builtins))
  (export
    load))
