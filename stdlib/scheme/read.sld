;;; (scheme read): exactly the bindings R7RS-small lists for this library.
(define-library (scheme read)
  (import (nodwyn builtins))
  (export
    read))
