;;; SRFI 158: generators and accumulators.
(import (scheme base) (scheme read) (scheme write) (srfi 158) (only (srfi 1) unfold))

;;; Constructors
(generator->list (generator))                     ; expect: ()
(generator->list (generator 1 2 3))               ; expect: (1 2 3)
(let ((g (generator 1))) (list (g) (g) (eof-object? (g)) (eof-object? (g)))) ; expect: (1 #<eof> #t #t)
(generator->list (circular-generator 1 2 3) 5)    ; expect: (1 2 3 1 2)
(circular-generator)                              ; expect error: arity
(generator->list (make-iota-generator 3 8))       ; expect: (8 9 10)
(generator->list (make-iota-generator 3 8 2))     ; expect: (8 10 12)
(generator->list (make-iota-generator 3))         ; expect: (0 1 2)
(generator->list (make-iota-generator 3 0 0.5))   ; expect: (0.0 0.5 1.0)
(generator->list (make-iota-generator 2 1.0))     ; expect: (1.0 2.0)
(generator->list (make-range-generator 3) 4)      ; expect: (3 4 5 6)
(generator->list (make-range-generator 3 8))      ; expect: (3 4 5 6 7)
(generator->list (make-range-generator 3 8 2))    ; expect: (3 5 7)
(generator->list (make-range-generator 0 1 1/4))  ; expect: (0 1/4 1/2 3/4)
(define g (make-coroutine-generator (lambda (yield) (let loop ((i 0)) (when (< i 3) (yield i) (loop (+ i 1)))))))
(generator->list g)                               ; expect: (0 1 2)
(eof-object? (g))                                 ; expect: #t
(generator->list (list->generator '(1 2 3 4 5)))  ; expect: (1 2 3 4 5)
(generator->list (vector->generator '#(1 2 3 4 5))) ; expect: (1 2 3 4 5)
(generator->list (reverse-vector->generator '#(1 2 3 4 5))) ; expect: (5 4 3 2 1)
(generator->list (string->generator "abcde"))     ; expect: (#\a #\b #\c #\d #\e)
(generator->list (vector->generator '#(a b c d e) 2)) ; expect: (c d e)
(generator->list (vector->generator '#(a b c d e) 2 4)) ; expect: (c d)
(generator->list (reverse-vector->generator '#(a b c d e) 2)) ; expect: (e d c)
(generator->list (reverse-vector->generator '#(a b c d e) 2 4)) ; expect: (d c)
(generator->list (reverse-vector->generator '#(a b c d e) 0 2)) ; expect: (b a)
(generator->list (string->generator "abcde" 1 3)) ; expect: (#\b #\c)
(generator->list (bytevector->generator (bytevector 1 2 3) 1)) ; expect: (2 3)
(vector->generator '#(a b) 3)                     ; expect error: range: bad argument #2 to 'vector->generator'
(vector->generator '(a b))                        ; expect error: type: bad argument #1 to 'vector->generator' (vector expected
(define (for-each-digit proc n) (when (> n 0) (let-values (((div rem) (truncate/ n 10))) (proc rem) (for-each-digit proc div))))
(generator->list (make-for-each-generator for-each-digit 3456)) ; expect: (6 5 4 3)
(generator->list (make-for-each-generator vector-for-each '#(a b))) ; expect: (a b)
(generator->list (make-unfold-generator (lambda (s) (> s 5)) (lambda (s) (* s 2)) (lambda (s) (+ s 1)) 0)) ; expect: (0 2 4 6 8 10)

;;; Operations
(generator->list (gcons* 'a 'b (make-range-generator 0 2))) ; expect: (a b 0 1)
(generator->list (gcons* (generator 1)))          ; expect: (1)
(generator->list (gappend (make-range-generator 0 3) (make-range-generator 0 2))) ; expect: (0 1 2 0 1)
(generator->list (gappend))                       ; expect: ()
(generator->list (gflatten (generator '(1 2) '() '(3)))) ; expect: (1 2 3)
(generator->list (ggroup (generator 1 2 3 4 5) 2)) ; expect: ((1 2) (3 4) (5))
(generator->list (ggroup (generator 1 2 3 4 5) 2 'x)) ; expect: ((1 2) (3 4) (5 x))
(generator->list (gmerge < (generator 1 4 5) (generator 2 3 6))) ; expect: (1 2 3 4 5 6)
(generator->list (gmerge (lambda (a b) (< (car a) (car b))) (generator '(1 . a) '(2 . a)) (generator '(1 . b)))) ; expect: ((1 . a) (1 . b) (2 . a))
(let ((g (generator 1 2))) (eq? g (gmerge < g)))  ; expect: #t
(generator->list (gmap - (make-range-generator 0 3))) ; expect: (0 -1 -2)
(generator->list (gmap cons (generator 1 2 3) (generator 4 5))) ; expect: ((1 . 4) (2 . 5))
(generator->list (gcombine (lambda (v s) (values (+ v s) (+ s 1))) 10 (generator 1 2 3))) ; expect: (11 13 15)
(generator->list (gcombine (lambda (a b s) (values (list a b s) (+ s 1))) 0 (generator 'x 'y) (generator 1 2 3))) ; expect: ((x 1 0) (y 2 1))
(generator->list (gfilter odd? (make-range-generator 0 10))) ; expect: (1 3 5 7 9)
(generator->list (gremove odd? (make-range-generator 0 10))) ; expect: (0 2 4 6 8)
(generator->list (gstate-filter (lambda (item state) (values (even? state) (+ 1 state))) 0 (make-range-generator 0 10))) ; expect: (0 2 4 6 8)
(generator->list (gtake (generator 1 2 3 4 5) 3)) ; expect: (1 2 3)
(generator->list (gtake (generator 1 2) 4 'x))    ; expect: (1 2 x x)
(generator->list (gtake (generator 1 2) 4))       ; expect: (1 2)
(generator->list (gdrop (generator 1 2 3 4 5) 2)) ; expect: (3 4 5)
(generator->list (gdrop (generator 1 2) 5))       ; expect: ()
(generator->list (gtake-while odd? (generator 1 3 4 5))) ; expect: (1 3)
(generator->list (gdrop-while odd? (generator 1 3 4 5))) ; expect: (4 5)
(generator->list (gdelete 3 (generator 1 2 3 4 5 3 6 7))) ; expect: (1 2 4 5 6 7)
(generator->list (gdelete 3 (generator 1 2 4 5) <)) ; expect: (1 2)
(generator->list (gdelete-neighbor-dups (list->generator '(a a b c a a a d c)))) ; expect: (a b c a d c)
(generator->list (gdelete-neighbor-dups (generator 1 2 3 1) <)) ; expect: (1 1)
(generator->list (gindex (list->generator '(a b c d e f)) (list->generator '(0 2 4)))) ; expect: (a c e)
(generator->list (gindex (list->generator '(a b c)) (list->generator '(1 1)))) ; expect error: range: bad argument #2 to 'gindex'
(generator->list (gselect (list->generator '(a b c d e f)) (list->generator '(#t #f #f #t #t #f)))) ; expect: (a d e)
(gtake (generator 1) -1)                          ; expect error: type: bad argument #2 to 'gtake'

;;; Consuming
(generator->list (generator 1 2 3 4) 2)           ; expect: (1 2)
(generator->reverse-list (generator 1 2 3))       ; expect: (3 2 1)
(generator->reverse-list (generator 1 2 3) 2)     ; expect: (2 1)
(generator->vector (generator 1 2 3))             ; expect: #(1 2 3)
(generator->vector (generator 1 2 3) 2)           ; expect: #(1 2)
(let ((v (make-vector 4 0))) (list (generator->vector! v 1 (generator 'a 'b 'c 'd)) v)) ; expect: (3 #(0 a b c))
(generator->string (generator #\a #\b))           ; expect: "ab"
(generator->string (generator #\a #\b #\c) 2)     ; expect: "ab"
(generator-fold + 0 (generator 1 2 3) (generator 1 2)) ; expect: 6
(generator-fold cons 'z (generator 'a 'b))        ; expect: (b a . z)
(parameterize ((current-input-port (open-input-string "a b c d e"))) (generator-fold cons 'z read)) ; expect: (e d c b a . z)
(generator-for-each (lambda (a b) (display (+ a b))) (generator 1 2 3) (generator 10 20)) ; expect output: 1122
(generator-map->list (lambda (x) (* x x)) (generator 1 2 3)) ; expect: (1 4 9)
(generator-map->list + (generator 1 2 3) (generator 10 20)) ; expect: (11 22)
(generator-find even? (generator 1 3 4 5))        ; expect: 4
(generator-find even? (generator 1 3))            ; expect: #f
(let ((g (generator 1 2 3 4))) (generator-find even? g) (g)) ; expect: 3
(generator-count odd? (generator 1 2 3))          ; expect: 2
(generator-any (lambda (x) (and (even? x) (* x 10))) (generator 1 2 3)) ; expect: 20
(generator-any even? (generator 1 3))             ; expect: #f
(generator-every (lambda (x) (and (odd? x) x)) (generator 1 3 5)) ; expect: 5
(generator-every odd? (generator 1 2 3))          ; expect: #f
(generator-every odd? (generator))                ; expect: #t
(generator-unfold (make-for-each-generator string-for-each "abc") unfold) ; expect: (#\a #\b #\c)
(generator-fold 'f 0 (generator))                 ; expect error: type: bad argument #1 to 'generator-fold'

;;; Accumulators
(let ((a (make-accumulator * 1 (lambda (x) (list 'product x))))) (a 2) (a 3) (a (eof-object))) ; expect: (product 6)
(let ((a (count-accumulator))) (a 'x) (a 'y) (list (a (eof-object)) (a (eof-object)))) ; expect: (2 2)
(let ((a (list-accumulator))) (a 1) (a 2) (a (eof-object))) ; expect: (1 2)
(let ((a (reverse-list-accumulator))) (a 1) (a 2) (a (eof-object))) ; expect: (2 1)
(let ((a (vector-accumulator))) (a 1) (a 2) (a (eof-object))) ; expect: #(1 2)
(let ((a (reverse-vector-accumulator))) (a 1) (a 2) (a (eof-object))) ; expect: #(2 1)
(let* ((v (vector 0 0 0)) (a (vector-accumulator! v 1))) (a 'x) (a 'y) (a (eof-object))) ; expect: #(0 x y)
(let ((a (vector-accumulator! (vector 0) 0))) (a 1) (a 2)) ; expect error: range: bad argument #2 to 'vector-accumulator!'
(let ((a (string-accumulator))) (a #\a) (a #\b) (a (eof-object))) ; expect: "ab"
(let ((a (string-accumulator))) (a 1))            ; expect error: type
(let ((a (bytevector-accumulator))) (a 1) (a 255) (a (eof-object))) ; expect: #u8(1 255)
(let* ((b (bytevector 0 0 0)) (a (bytevector-accumulator! b 1))) (a 7) (a (eof-object))) ; expect: #u8(0 7 0)
(let ((a (sum-accumulator))) (a 1) (a 2.5) (a (eof-object))) ; expect: 3.5
(let ((a (product-accumulator))) (a 2) (a 5) (a (eof-object))) ; expect: 10
(let ((a (sum-accumulator))) (a (eof-object)))    ; expect: 0
