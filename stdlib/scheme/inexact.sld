;;; (scheme inexact): exactly the bindings R7RS-small lists for this library.
(define-library (scheme inexact)
  (import (nodwyn builtins))
  (export
    acos asin atan cos exp finite? infinite? log nan? sin sqrt tan))
