;;; (scheme write): exactly the bindings R7RS-small lists for this library.
(define-library (scheme write)
  (import (nodwyn builtins))
  (export
    display write write-shared write-simple))
