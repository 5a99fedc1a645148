;;; (scheme repl): exactly the bindings R7RS-small lists for this library.
(define-library (scheme repl)
  (import (nodwyn builtins))
  (export
    interaction-environment))
