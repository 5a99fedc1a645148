;;; (scheme process-context): exactly the bindings R7RS-small lists for this library.
(define-library (scheme process-context)
  (import (nodwyn builtins))
  (export
    command-line emergency-exit exit get-environment-variable get-environment-variables))
