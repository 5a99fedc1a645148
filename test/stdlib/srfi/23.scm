;;; SRFI 23: error, which is R7RS's.
(import (scheme base) (srfi 23))

(error "something broke" 1 'two "three")          ; expect error: user: something broke: 1 two "three"
(error "no irritants")                            ; expect error: user: no irritants
(guard (e ((error-object? e) (list (error-object-message e) (error-object-irritants e))))
  (error "reason" 1 2))                           ; expect: ("reason" (1 2))
;; This file imports (scheme base) and (srfi 23): two bindings of error would have been an import error.
(procedure? error)                                ; expect: #t
