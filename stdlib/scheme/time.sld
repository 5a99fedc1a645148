;;; (scheme time): exactly the bindings R7RS-small lists for this library.
(define-library (scheme time)
  (import (nodwyn builtins))
  (export
    current-jiffy current-second jiffies-per-second))
