;;; (scheme eval): exactly the bindings R7RS-small lists for this library.
(define-library (scheme eval)
  (import (nodwyn builtins))
  (export
    environment eval))
