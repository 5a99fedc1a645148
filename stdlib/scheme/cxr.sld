;;; (scheme cxr): exactly the bindings R7RS-small lists for this library.
(define-library (scheme cxr)
  (import (nodwyn builtins))
  (export
    caaar caadr cadar caddr cdaar cdadr cddar cdddr caaaar caaadr caadar caaddr cadaar cadadr
    caddar cadddr cdaaar cdaadr cdadar cdaddr cddaar cddadr cdddar cddddr))
