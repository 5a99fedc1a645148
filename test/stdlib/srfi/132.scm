;;; SRFI 132: sorting. Every procedure, with the orderings sorted in TypeScript and with procedures of its own; stability; the document's examples.
(import (scheme base) (scheme char) (srfi 132))

(define (by-car a b) (< (car a) (car b)))         ; a procedure of its own: the Scheme merge sort
(define pairs '((3 . a) (1 . b) (3 . c) (2 . d) (1 . e) (3 . f)))

;;; Sorted?
(list (list-sorted? < '()) (list-sorted? < '(1 2 2 3)) (list-sorted? < '(1 3 2)) (list-sorted? by-car '((1 . x) (1 . y)))) ; expect: (#t #t #f #t)
(list (vector-sorted? < #(1 2 3)) (vector-sorted? < #(3 1 2 4) 1) (vector-sorted? < #(3 1 2 0) 1 3) (vector-sorted? < #(3 1 2 0) 1)) ; expect: (#t #t #t #f)

;;; List sorts, known and own orderings, stable
(list-sort < '(5 3 -1 3.5 2/3 100000000000000000000 0)) ; expect: (-1 0 2/3 3 3.5 5 100000000000000000000)
(list-sort > '(1 3 2))                            ; expect: (3 2 1)
(list-sort string<? '("pear" "apple" "Zebra" "fig")) ; expect: ("Zebra" "apple" "fig" "pear")
(list-sort string-ci<? '("pear" "apple" "Zebra" "fig")) ; expect: ("apple" "fig" "pear" "Zebra")
(list-sort char<? '(#\c #\a #\b))                 ; expect: (#\a #\b #\c)
(map (lambda (s) (char->integer (string-ref s 0))) (list-sort string<? (list "\x10000;" "\xe000;"))) ; expect: (57344 65536)
(list-sort by-car pairs)                          ; expect: ((1 . b) (1 . e) (2 . d) (3 . a) (3 . c) (3 . f))
(list-stable-sort by-car pairs)                   ; expect: ((1 . b) (1 . e) (2 . d) (3 . a) (3 . c) (3 . f))
(list-sort! (lambda (a b) (> (car a) (car b))) (list-copy pairs)) ; expect: ((3 . a) (3 . c) (3 . f) (2 . d) (1 . b) (1 . e))
(list-stable-sort! < (list 3 1 2))                ; expect: (1 2 3)
(let ((l (list 3 1 2))) (list-sort < l) l)        ; expect: (3 1 2)
(list-sort < '())                                 ; expect: ()
(list-sort < '(1 a))                              ; expect error: type: bad argument #1 to '<' (real number expected, got a)
(list-sort string<? '("a" 1))                     ; expect error: type: bad argument #1 to 'string<?' (string expected, got 1)
(list-sort 5 '(1))                                ; expect error: type: bad argument #1 to 'list-sort'
(list-sort by-car '((1 . a) . 2))                 ; expect error: type: bad argument #2 to 'list-sort'

;;; Vector sorts
(vector-sort < #(5 2 9 1))                        ; expect: #(1 2 5 9)
(vector-sort < #(5 2 9 1 7) 1 4)                  ; expect: #(1 2 9)
(vector-stable-sort by-car (list->vector pairs))  ; expect: #((1 . b) (1 . e) (2 . d) (3 . a) (3 . c) (3 . f))
(vector-sort by-car (list->vector pairs) 2)       ; expect: #((1 . e) (2 . d) (3 . c) (3 . f))
(let ((v (vector 5 2 9 1 7))) (vector-sort! < v) v) ; expect: #(1 2 5 7 9)
(let ((v (vector 5 2 9 1 7))) (vector-sort! > v 1 4) v) ; expect: #(5 9 2 1 7)
(let ((v (list->vector pairs))) (vector-stable-sort! by-car v 0 3) v) ; expect: #((1 . b) (3 . a) (3 . c) (2 . d) (1 . e) (3 . f))
(let ((v (vector 3 1 2))) (vector-sort < v) v)    ; expect: #(3 1 2)
(vector-sort < #(1 2) 3)                          ; expect error: range: bad argument #3 to 'vector-sort'
(vector-sort by-car #((1)) 0 5)                   ; expect error: range: bad argument #4 to 'vector-sort'
(vector-sort < '(1 2))                            ; expect error: type: bad argument #2 to 'vector-sort'

;;; Merges (stable: the first argument's elements first among equals)
(list-merge < '(1 3 5) '(2 3 4 6))                ; expect: (1 2 3 3 4 5 6)
(list-merge by-car '((1 . a) (2 . a)) '((1 . b) (3 . b))) ; expect: ((1 . a) (1 . b) (2 . a) (3 . b))
(list-merge! by-car (list '(1 . a) '(2 . a)) (list '(1 . b) '(3 . b))) ; expect: ((1 . a) (1 . b) (2 . a) (3 . b))
(list-merge! < (list 2 4) '())                    ; expect: (2 4)
(vector-merge < #(1 3 5) #(2 4))                  ; expect: #(1 2 3 4 5)
(vector-merge < #(0 1 3 5) #(2 4 9) 1 3 0 2)      ; expect: #(1 2 3 4)
(let ((to (make-vector 7 'x))) (vector-merge! < to #(1 3) #(2 4) 2) to) ; expect: #(x x 1 2 3 4 x)
(let ((to (make-vector 3 'x))) (vector-merge! < to #(1 3) #(2 4))) ; expect error: range: bad argument #5 to 'vector-merge!'

;;; Deleting neighbour duplicates: the document's examples
(list-delete-neighbor-dups = '(1 1 2 7 7 7 0 -2 -2)) ; expect: (1 2 7 0 -2)
(list-delete-neighbor-dups! = (list 1 1 2))       ; expect: (1 2)
(vector-delete-neighbor-dups = #(1 1 2 7 7 7 0 -2 -2)) ; expect: #(1 2 7 0 -2)
;; The document's (vector-delete-neighbor-dups < #(1 1 2 7 7 7 0 -2 -2) 3 7) => #(7 0 -2) is an erratum (-2 is outside [3, 7)).
(vector-delete-neighbor-dups = #(1 1 2 7 7 7 0 -2 -2) 3 7) ; expect: #(7 0)
(let ((v (vector 0 0 0 1 1 2 2 3 3 4 4 5 5 6 6))) (cons (vector-delete-neighbor-dups! = v 3) v)) ; expect: (9 . #(0 0 0 1 2 3 4 5 6 4 4 5 5 6 6))
(list-delete-neighbor-dups (lambda (a b) (list a b) (= a b)) '()) ; expect: ()

;;; Medians and selection
(vector-find-median < #(5 1 4 2 3) 'none)         ; expect: 3
(vector-find-median < #(4 1 3 2) 'none)           ; expect: 5/2
(vector-find-median < #() 'none)                  ; expect: none
(vector-find-median < #(4 1 3 2) 'none list)      ; expect: (2 3)
(let ((v (vector 4 1 3 2))) (vector-find-median < v 0) v) ; expect: #(4 1 3 2)
(let ((v (vector 4 1 3 2))) (list (vector-find-median! < v 0) v)) ; expect: (5/2 #(1 2 3 4))
(map (lambda (k) (vector-select! < (vector 9 4 7 1 8 2) k)) '(0 1 2 3 4 5)) ; expect: (1 2 4 7 8 9)
(vector-select! < (vector 9 4 7 1 8 2) 1 2 5)     ; expect: 7
(vector-select! < (vector 1 2) 2)                 ; expect error: range: bad argument #3 to 'vector-select!'
(let ((v (vector 9 4 7 1 8 2))) (vector-separate! < v 3) (list (list-sort < (vector->list (vector-copy v 0 3))) (list-sort < (vector->list (vector-copy v 3))))) ; expect: ((1 2 4) (7 8 9))
(let ((v (vector 100 9 4 7 1 8 2 0))) (vector-separate! < v 2 1 7) (list (vector-ref v 0) (list-sort < (vector->list (vector-copy v 1 3))) (vector-ref v 7))) ; expect: (100 (1 2) 0)
