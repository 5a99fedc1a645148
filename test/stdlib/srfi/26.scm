;;; SRFI 26: cut and cute.
(import (scheme base) (srfi 26))

((cut cons (+ 1 1) <>) 3)                         ; expect: (2 . 3)
((cut list 1 <> 3 <> 5) 2 4)                      ; expect: (1 2 3 4 5)
((cut list))                                      ; expect: ()
((cut list 1 <> 3 <...>) 2)                       ; expect: (1 2 3)
((cut list 1 <> 3 <...>) 2 4 5 6)                 ; expect: (1 2 3 4 5 6)
((cut <> 'a 'b) list)                             ; expect: (a b)
((cut <>) (lambda () 'thunk))                     ; expect: thunk
((cut <> <>) car '(1 2))                          ; expect: 1
((cut list <...>) 1 2)                            ; expect: (1 2)
(map (cut * 2 <>) '(1 2 3 4))                     ; expect: (2 4 6 8)
(map (cut <> 10 2) (list + - * /))                ; expect: (12 8 20 5)
;; cut evaluates the non-slot expressions at each call, cute once, when the procedure is made.
(let* ((x 'wrong) (f (cut list x))) (set! x 'right) (f))   ; expect: (right)
(let* ((x 'orig) (f (cute list x))) (set! x 'wrong) (f))   ; expect: (orig)
(let* ((n 0) (f (cut + (begin (set! n (+ n 1)) n) <>))) (f 10) (f 10) n)  ; expect: 2
(let* ((n 0) (f (cute + (begin (set! n (+ n 1)) n) <>))) (f 10) (f 10) n) ; expect: 1
;; cute evaluates the procedure position once too.
(let* ((n 0) (f (cute (begin (set! n (+ n 1)) list) <> <...>))) (f 1 2) (f 3) n) ; expect: 1
((cute list 1 <> 3 <...>) 2 4)                    ; expect: (1 2 3 4)
((cute <> 1) -)                                   ; expect: -1
;; The procedures have the arity of their slots.
((cut list <> <>) 1)                              ; expect error: arity
((cute list <>) 1 2)                              ; expect error: arity
;; There must be something to call, and <...> only at the end.
(cut)                                             ; expect error: syntax
(cut list <...> 1)                                ; expect error: syntax: <...> may only come last
(cute list <...> 1)                               ; expect error: syntax: <...> may only come last
