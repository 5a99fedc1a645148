;;; SRFI 1: the list library. The examples of the document, then edge and error cases.
(import (scheme base) (scheme write) (srfi 1))

;;; Constructors
(cons 'a '())                                     ; expect: (a)
(list 'a (+ 3 4) 'c)                              ; expect: (a 7 c)
(xcons '(b c) 'a)                                 ; expect: (a b c)
(cons* 1 2 3 4)                                   ; expect: (1 2 3 . 4)
(cons* 1)                                         ; expect: 1
(cons* 1 2 '(3 4))                                ; expect: (1 2 3 4)
(make-list 4 'c)                                  ; expect: (c c c c)
(length (make-list 3))                            ; expect: 3
(list-tabulate 4 values)                          ; expect: (0 1 2 3)
(list-tabulate 0 values)                          ; expect: ()
(list-tabulate 3 (lambda (i) (* i i)))            ; expect: (0 1 4)
(list-tabulate -1 values)                         ; expect error: type: bad argument #1 to 'list-tabulate'
(list-tabulate 2 'x)                              ; expect error: type: bad argument #2 to 'list-tabulate' (procedure expected
(let* ((l (list 1 2 (list 3))) (c (list-copy l))) (list (equal? l c) (eq? l c) (eq? (caddr l) (caddr c)))) ; expect: (#t #f #t)
(list-copy '(1 2 . 3))                            ; expect: (1 2 . 3)
(take (circular-list 'z 'q) 5)                    ; expect: (z q z q z)
(let ((c (circular-list 1))) (eq? c (cdr c)))     ; expect: #t
(circular-list)                                   ; expect error: arity
(iota 5)                                          ; expect: (0 1 2 3 4)
(iota 5 1)                                        ; expect: (1 2 3 4 5)
(iota 5 0 2)                                      ; expect: (0 2 4 6 8)
(iota 3 1/2 1/3)                                  ; expect: (1/2 5/6 7/6)
(iota 5 0 -0.5)                                   ; expect: (0 -0.5 -1.0 -1.5 -2.0)
(iota 0)                                          ; expect: ()
(iota -1)                                         ; expect error: type: bad argument #1 to 'iota'
(iota 2 'a)                                       ; expect error: type: bad argument #2 to 'iota' (number expected, got a)

;;; Predicates
(map proper-list? (list '() '(1 2) '(1 . 2) 3 (circular-list 1 2))) ; expect: (#t #t #f #f #f)
(map circular-list? (list '() '(1 2) '(1 . 2) 3 (circular-list 1 2) (cons 0 (circular-list 1 2 3)))) ; expect: (#f #f #f #f #t #t)
(map dotted-list? (list '() '(1 2) '(1 . 2) 3 'george (circular-list 1 2))) ; expect: (#f #f #t #t #t #f)
(map pair? (list '(a . b) '(a b c) '() '#(a b) 7 'a)) ; expect: (#t #t #f #f #f #f)
(map null? (list '() '(a) 0))                     ; expect: (#t #f #f)
(null-list? '())                                  ; expect: #t
(null-list? '(1))                                 ; expect: #f
(null-list? (circular-list 1))                    ; expect: #f
(null-list? 5)                                    ; expect error: type: bad argument #1 to 'null-list?'
(map not-pair? (list '() '(1) 5))                 ; expect: (#t #f #t)
(list= eq?)                                       ; expect: #t
(list= eq? '(a))                                  ; expect: #t
(list= eq? '(a b) '(a b) '(a b))                  ; expect: #t
(list= eq? '(a b) '(a b) '(a c))                  ; expect: #f
(list= = '(1 2) '(1 2 3))                         ; expect: #f
(list= = '(1 2 3) '(1 2))                         ; expect: #f
(list= < '(1 2) '(2 3) '(3 4))                    ; expect: #t
(list= < '(1 2) '(2 3) '(3 3))                    ; expect: #f

;;; Selectors
(car '(a b c))                                    ; expect: a
(cdr '(1 . 2))                                    ; expect: 2
(car '())                                         ; expect error: type
(cddadr '(1 (2 3 4) 5))                           ; expect: (4)
(caar '((1) 2))                                   ; expect: 1
(cdddar '((1 2 3 4)))                             ; expect: (4)
(list-ref '(a b c d) 2)                           ; expect: c
(define ten '(1 2 3 4 5 6 7 8 9 10))
(list (first ten) (second ten) (third ten) (fourth ten) (fifth ten) (sixth ten) (seventh ten) (eighth ten) (ninth ten) (tenth ten)) ; expect: (1 2 3 4 5 6 7 8 9 10)
(third '(a b c d e))                              ; expect: c
(tenth '(1 2 3))                                  ; expect error: type
(car+cdr '(1 . 2))                                ; expect: 1 2
(take '(a b c d e) 2)                             ; expect: (a b)
(drop '(a b c d e) 2)                             ; expect: (c d e)
(take '(1 2 3 . d) 2)                             ; expect: (1 2)
(drop '(1 2 3 . d) 2)                             ; expect: (3 . d)
(take '(1 2 3 . d) 3)                             ; expect: (1 2 3)
(drop '(1 2 3 . d) 3)                             ; expect: d
(let ((l (list 1 2))) (eq? l (take l 2)))         ; expect: #f
(let ((l (list 1 2 3))) (eq? (cdr l) (drop l 1))) ; expect: #t
(take '(1 2) 3)                                   ; expect error: range: bad argument #2 to 'take'
(drop '(1 2) 3)                                   ; expect error: range: bad argument #2 to 'drop'
(take '(1 2) -1)                                  ; expect error: type: bad argument #2 to 'take'
(take-right '(a b c d e) 2)                       ; expect: (d e)
(drop-right '(a b c d e) 2)                       ; expect: (a b c)
(take-right '(1 2 3 . d) 2)                       ; expect: (2 3 . d)
(drop-right '(1 2 3 . d) 2)                       ; expect: (1)
(take-right '(1 2 3 . d) 0)                       ; expect: d
(drop-right '(1 2 3 . d) 0)                       ; expect: (1 2 3)
(let ((l (list 1 2 3))) (eq? (cdr l) (take-right l 2))) ; expect: #t
(let ((l (list 1 2))) (eq? l (drop-right l 0)))   ; expect: #f
(take-right '(1 2) 3)                             ; expect error: range
(take! (list 1 2 3 4) 2)                          ; expect: (1 2)
(take! (list 1 2) 0)                              ; expect: ()
(take! (circular-list 1 3 5) 8)                   ; expect: (1 3)
(drop-right! (list 1 2 3 4) 1)                    ; expect: (1 2 3)
(drop-right! (list 1 2) 2)                        ; expect: ()
(split-at '(a b c d e f g h) 3)                   ; expect: (a b c) (d e f g h)
(split-at '(a b) 0)                               ; expect: () (a b)
(split-at '(a b) 3)                               ; expect error: range
(split-at! (list 'a 'b 'c 'd) 1)                  ; expect: (a) (b c d)
(split-at! (list 'a 'b) 0)                        ; expect: () (a b)
(last '(a b c))                                   ; expect: c
(last-pair '(a b c))                              ; expect: (c)
(last-pair '(a b . c))                            ; expect: (b . c)
(last '())                                        ; expect error: type: bad argument #1 to 'last-pair' (pair expected

;;; Length, append, concatenate, reverse, zip, count
(length '(1 2 3))                                 ; expect: 3
(length+ '(1 2 3))                                ; expect: 3
(length+ '())                                     ; expect: 0
(length+ (circular-list 1 2 3))                   ; expect: #f
(append '(x) '(y))                                ; expect: (x y)
(append '(a) '(b c d))                            ; expect: (a b c d)
(append '(a (b)) '((c)))                          ; expect: (a (b) (c))
(append '(a b) '(c . d))                          ; expect: (a b c . d)
(append '() 'a)                                   ; expect: a
(append '(x y))                                   ; expect: (x y)
(append)                                          ; expect: ()
(concatenate '((1 2) (3) () (4 5)))               ; expect: (1 2 3 4 5)
(concatenate '((1) 2))                            ; expect: (1 . 2)
(concatenate '())                                 ; expect: ()
(let ((tail (list 9))) (eq? tail (cdr (concatenate (list '(1) tail))))) ; expect: #t
(append! (list 1 2) '() (list 3) (list 4 5))      ; expect: (1 2 3 4 5)
(append! '() '() 'x)                              ; expect: x
(append!)                                         ; expect: ()
(let* ((a (list 1 2)) (r (append! a (list 3)))) (eq? a r)) ; expect: #t
(concatenate! (list (list 1) '() (list 2 3)))     ; expect: (1 2 3)
(reverse '(a (b c) d (e (f))))                    ; expect: ((e (f)) d (b c) a)
(reverse! (list 1 2 3))                           ; expect: (3 2 1)
(reverse! '())                                    ; expect: ()
(append-reverse '(3 2 1) '(4 5))                  ; expect: (1 2 3 4 5)
(append-reverse! (list 3 2 1) '(4 5))             ; expect: (1 2 3 4 5)
(append-reverse '() 'x)                           ; expect: x
(zip '(one two three) '(1 2 3) '(odd even odd even odd even odd even)) ; expect: ((one 1 odd) (two 2 even) (three 3 odd))
(zip '(1 2 3))                                    ; expect: ((1) (2) (3))
(zip '(3 1 4 1) (circular-list #f #t))            ; expect: ((3 #f) (1 #t) (4 #f) (1 #t))
(unzip1 '((1) (2) (3)))                           ; expect: (1 2 3)
(unzip2 '((1 one) (2 two) (3 three)))             ; expect: (1 2 3) (one two three)
(unzip3 '((1 a x) (2 b y)))                       ; expect: (1 2) (a b) (x y)
(unzip4 '((1 a x p) (2 b y q)))                   ; expect: (1 2) (a b) (x y) (p q)
(unzip5 '((1 a x p u) (2 b y q v)))               ; expect: (1 2) (a b) (x y) (p q) (u v)
(unzip2 '())                                      ; expect: () ()
(count even? '(3 1 4 1 5 9 2 5 6))                ; expect: 3
(count < '(1 2 4 8) '(2 4 6 8 10 12 14 16))       ; expect: 3
(count < '(3 1 4 1) (circular-list 1 10))         ; expect: 2
(count even? '())                                 ; expect: 0
(count even? '(1 . 2))                            ; expect error: type: bad argument #2 to 'count' (proper list expected
(count 5 '(1))                                    ; expect error: type: bad argument #1 to 'count' (procedure expected

;;; Fold, unfold, map
(fold + 0 '(1 2 3))                               ; expect: 6
(fold cons '() '(a b c))                          ; expect: (c b a)
(fold cons '(x) '(c b a))                         ; expect: (a b c x)
(fold (lambda (x count) (if (symbol? x) (+ count 1) count)) 0 '(a 1 b "c" d)) ; expect: 3
(fold (lambda (s max-len) (max max-len (string-length s))) 0 '("a" "abc" "ab")) ; expect: 3
(fold cons* '() '(a b c) '(1 2 3 4 5))            ; expect: (c 3 b 2 a 1)
(fold + 0 '())                                    ; expect: 0
(fold + 0 '(1 2 . 3))                             ; expect error: type: bad argument #3 to 'fold' (proper list expected, got (1 2 . 3))
(fold 5 0 '(1))                                   ; expect error: type: bad argument #1 to 'fold' (procedure expected, got 5)
(fold-right cons '() '(a b c))                    ; expect: (a b c)
(fold-right (lambda (x l) (if (even? x) (cons x l) l)) '() '(1 2 3 4)) ; expect: (2 4)
(fold-right cons* '() '(a b c) '(1 2 3 4 5))      ; expect: (a 1 b 2 c 3)
(fold-right list 'end '(1 2))                     ; expect: (1 (2 end))
(fold-right + 0 '(1 . 2))                         ; expect error: type: bad argument #3 to 'fold-right'
(pair-fold cons '() '(a b c))                     ; expect: ((c) (b c) (a b c))
(pair-fold (lambda (pair tail) (set-cdr! pair tail) pair) '() (list 1 2 3)) ; expect: (3 2 1)
(pair-fold (lambda (a b acc) (cons (list (car a) (car b)) acc)) '() '(1 2 3) '(x y)) ; expect: ((2 y) (1 x))
(pair-fold-right cons '() '(a b c))               ; expect: ((a b c) (b c) (c))
(pair-fold-right (lambda (a b acc) (cons (length a) (cons (length b) acc))) '() '(1 2 3) '(x y)) ; expect: (3 2 2 1)
(reduce + 0 '(1 2 3 4))                           ; expect: 10
(reduce max 0 '(3 9 2))                           ; expect: 9
(reduce + 0 '())                                  ; expect: 0
(reduce list 'none '(1 2 3))                      ; expect: (3 (2 1))
(reduce-right append '() '((1 2) (3) (4 5)))      ; expect: (1 2 3 4 5)
(reduce-right list 'none '(1 2 3))                ; expect: (1 (2 3))
(reduce-right + 0 '())                            ; expect: 0
(reduce-right + 0 '(5))                           ; expect: 5
(unfold (lambda (x) (> x 10)) (lambda (x) (* x x)) (lambda (x) (+ x 1)) 1) ; expect: (1 4 9 16 25 36 49 64 81 100)
(unfold null-list? car cdr '(1 2 3))              ; expect: (1 2 3)
(unfold not-pair? car cdr '(1 2 . 3) values)      ; expect: (1 2 . 3)
(unfold null-list? car cdr '(1 2) (lambda (x) '(3 4))) ; expect: (1 2 3 4)
(unfold-right zero? (lambda (x) (* x x)) (lambda (x) (- x 1)) 10) ; expect: (1 4 9 16 25 36 49 64 81 100)
(unfold-right null-list? car cdr '(1 2 3))        ; expect: (3 2 1)
(unfold-right null-list? car cdr '(3 2 1) '(4 5)) ; expect: (1 2 3 4 5)
(map cadr '((a b) (d e) (g h)))                   ; expect: (b e h)
(map (lambda (n) (expt n n)) '(1 2 3 4 5))        ; expect: (1 4 27 256 3125)
(map + '(1 2 3) '(4 5 6))                         ; expect: (5 7 9)
(map + '(3 1 4 1) (circular-list 1 0))            ; expect: (4 1 5 1)
(let ((v (make-vector 5))) (for-each (lambda (i) (vector-set! v i (* i i))) '(0 1 2 3 4)) v) ; expect: #(0 1 4 9 16)
(let ((acc '())) (for-each (lambda (a b) (set! acc (cons (+ a b) acc))) '(1 2 3) (circular-list 10)) acc) ; expect: (13 12 11)
(append-map (lambda (x) (list x (- x))) '(1 3 8)) ; expect: (1 -1 3 -3 8 -8)
(append-map list '(1 2) '(a b))                   ; expect: (1 a 2 b)
(append-map! (lambda (x) (list x (- x))) '(1 3 8)) ; expect: (1 -1 3 -3 8 -8)
(map! (lambda (x) (* x x)) (list 1 2 3))          ; expect: (1 4 9)
(map! + (list 1 2 3) '(10 20 30 40))              ; expect: (11 22 33)
(let ((order '())) (map-in-order (lambda (x) (set! order (cons x order)) (* 2 x)) '(1 2 3)) order) ; expect: (3 2 1)
(map-in-order (lambda (x) (* 2 x)) '(1 2 3))      ; expect: (2 4 6)
(map-in-order cons '(1 2 3) '(a b))               ; expect: ((1 . a) (2 . b))
(let ((a '())) (pair-for-each (lambda (x) (set! a (cons x a))) '(a b c)) (reverse a)) ; expect: ((a b c) (b c) (c))
(pair-for-each (lambda (pair) (display pair)) '(a b c)) ; expect output: (a b c)(b c)(c)
(let ((a '())) (pair-for-each (lambda (x y) (set! a (cons (list x y) a))) '(1 2) '(3 4 5)) (reverse a)) ; expect: (((1 2) (3 4 5)) ((2) (4 5)))
(filter-map (lambda (x) (and (number? x) (* x x))) '(a 1 b 3 c 7)) ; expect: (1 9 49)
(filter-map (lambda (a b) (and (< a b) (- b a))) '(1 5 2) '(3 4 9)) ; expect: (2 7)

;;; Filtering and partitioning
(filter even? '(0 7 8 8 43 -4))                   ; expect: (0 8 8 -4)
(filter even? '())                                ; expect: ()
(filter even? '(1 . 2))                           ; expect error: type: bad argument #2 to 'filter' (proper list expected
(filter 'even? '(1))                              ; expect error: type: bad argument #1 to 'filter' (procedure expected
(partition symbol? '(one 2 3 four five 6))        ; expect: (one four five) (2 3 6)
(remove even? '(0 7 8 8 43 -4))                   ; expect: (7 43)
(filter! even? (list 0 7 8 8 43 -4))              ; expect: (0 8 8 -4)
(partition! symbol? (list 'one 2 3 'four))        ; expect: (one four) (2 3)
(remove! even? (list 0 7 8))                      ; expect: (7)

;;; Searching
(find even? '(1 2 3))                             ; expect: 2
(any even? '(1 2 3))                              ; expect: #t
(find even? '(1 7 3))                             ; expect: #f
(any even? '(1 7 3))                              ; expect: #f
(find even? '(1 3 . x))                           ; expect error: type: bad argument #2 to 'find'
(any even? '(1 3 . x))                            ; expect error: type: bad argument #2 to 'any'
(find even? (circular-list 1 6 3))                ; expect: 6
(any even? (circular-list 1 6 3))                 ; expect: #t
(find even? '(3 1 4 1 5 9))                       ; expect: 4
(find-tail even? '(3 1 37 -8 -5 0 0))             ; expect: (-8 -5 0 0)
(find-tail even? '(3 1 37 -5))                    ; expect: #f
(take-while even? '(2 18 3 10 22 9))              ; expect: (2 18)
(take-while! even? (list 2 18 3 10 22 9))         ; expect: (2 18)
(take-while! even? (list 1 2))                    ; expect: ()
(drop-while even? '(2 18 3 10 22 9))              ; expect: (3 10 22 9)
(span even? '(2 18 3 10 22 9))                    ; expect: (2 18) (3 10 22 9)
(break even? '(3 1 4 1 5 9))                      ; expect: (3 1) (4 1 5 9)
(span! even? (list 2 18 3 10 22 9))               ; expect: (2 18) (3 10 22 9)
(break! even? (list 3 1 4 1 5 9))                 ; expect: (3 1) (4 1 5 9)
(span even? '(1 2))                               ; expect: () (1 2)
(any integer? '(a 3 b 2.7))                       ; expect: #t
(any integer? '(a 3.1 b 2.7))                     ; expect: #f
(any < '(3 1 4 1 5) '(2 7 1 8 2))                 ; expect: #t
(any (lambda (x) (and (even? x) (* x 10))) '(1 2 3)) ; expect: 20
(any even? '())                                   ; expect: #f
(every odd? '(1 2 3))                             ; expect: #f
(every < '(1 2 3) '(4 5 6))                       ; expect: #t
(every (lambda (x) (and (odd? x) x)) '(1 3 5))    ; expect: 5
(every even? '())                                 ; expect: #t
(every odd? '(1 3 . x))                           ; expect error: type: bad argument #2 to 'every'
(every < '(1 2) '())                              ; expect: #t
(list-index even? '(3 1 4 1 5 9))                 ; expect: 2
(list-index < '(3 1 4 1 5 9 2 5 6) '(2 7 1 8 2))  ; expect: 1
(list-index = '(3 1 4 1 5 9 2 5 6) '(2 7 1 8 2))  ; expect: #f
(list-index even? '(1 3))                         ; expect: #f
(memq 'a '(a b c))                                ; expect: (a b c)
(memq (list 'a) '(b (a) c))                       ; expect: #f
(member (list 'a) '(b (a) c))                     ; expect: ((a) c)
(memv 101 '(100 101 102))                         ; expect: (101 102)
(member 5 '(1 7 3 8) <)                           ; expect: (7 3 8)
;; The last call of any and every is a tail call: a million-element list in constant space.
(any (lambda (x) (and (= x 999999) 'found)) (iota 1000000)) ; expect: found

;;; Deleting
(delete 3 '(1 3 2 3))                             ; expect: (1 2)
(delete 5 '(3 7 5 9 1) <)                         ; expect: (3 5 1)
(delete "a" (list "a" "b" "a"))                   ; expect: ("b")
(delete "a" (list "a" "b") eq?)                   ; expect: ("a" "b")
(delete! 3 (list 1 3 2 3))                        ; expect: (1 2)
(delete-duplicates '(a b a c a b c z))            ; expect: (a b c z)
(delete-duplicates '((a . 3) (b . 7) (a . 9) (c . 1)) (lambda (x y) (eq? (car x) (car y)))) ; expect: ((a . 3) (b . 7) (c . 1))
(delete-duplicates (list 1 2.0 2 "x" "x" #\a #\a '(1 (2)) '(1 (2)) #(1) #(1) 1/2 1/2 2.0 -0.0 0.0)) ; expect: (1 2.0 2 "x" #\a (1 (2)) #(1) 1/2 -0.0 0.0)
(delete-duplicates (list "x" "x") eq?)            ; expect: ("x" "x")
(delete-duplicates (list 1.5 1.5) eqv?)           ; expect: (1.5)
(delete-duplicates (list (list 1) (list 1)) eqv?) ; expect: ((1) (1))
(delete-duplicates '(1 2 3 4) (lambda (a b) (= (modulo a 2) (modulo b 2)))) ; expect: (1 2)
;; = is called as (= earlier later).
(let ((calls '())) (delete-duplicates '(1 2) (lambda (a b) (set! calls (cons (list a b) calls)) #f)) calls) ; expect: ((1 2))
(delete-duplicates '())                           ; expect: ()
(delete-duplicates (list "b" "a" "b" (string #\a) "c") string=?) ; expect: ("b" "a" "c")
(delete-duplicates (list "A" "a") string=?)       ; expect: ("A" "a")
(delete-duplicates! (list "x" "y" "x") string=?)  ; expect: ("x" "y")
(delete-duplicates (list #\a #\b #\a) char=?)    ; expect: (#\a #\b)
(delete-duplicates (list 5) string=?)             ; expect: (5)
(delete-duplicates (list "a" 5) string=?)         ; expect error: type: bad argument #2 to 'string=?'
(delete-duplicates (list 5 "a") string=?)         ; expect error: type: bad argument #1 to 'string=?'
(delete-duplicates (list #\a "a") char=?)         ; expect error: type: bad argument #2 to 'char=?'
(delete-duplicates '(1 . 2))                      ; expect error: type: bad argument #1 to 'delete-duplicates' (proper list expected
(delete-duplicates (circular-list 1 2))           ; expect error: type: bad argument #1 to 'delete-duplicates' (proper list (not circular) expected
(delete-duplicates! (list 1 2 1))                 ; expect: (1 2)

;;; Association lists
(define e '((a 1) (b 2) (c 3)))
(assq 'a e)                                       ; expect: (a 1)
(assq 'd e)                                       ; expect: #f
(assq (list 'a) '(((a)) ((b)) ((c))))             ; expect: #f
(assoc (list 'a) '(((a)) ((b)) ((c))))            ; expect: ((a))
(assv 5 '((2 3) (5 7) (11 13)))                   ; expect: (5 7)
(assoc 5 '((2 . a) (7 . b)) <)                    ; expect: (7 . b)
(alist-cons 'a 1 '((b . 2)))                      ; expect: ((a . 1) (b . 2))
(let* ((a (list (cons 'x 1))) (c (alist-copy a))) (list (equal? a c) (eq? (car a) (car c)))) ; expect: (#t #f)
(alist-delete 'a '((a . 1) (b . 2) (a . 3)))      ; expect: ((b . 2))
(alist-delete 5 '((3 . a) (7 . b) (9 . c) (5 . d)) <) ; expect: ((3 . a) (5 . d))
(alist-delete! 'a (list (cons 'a 1) (cons 'b 2))) ; expect: ((b . 2))

;;; Set operations on lists
(lset<= eq? '(a) '(a b a) '(a b c c))             ; expect: #t
(lset<= eq?)                                      ; expect: #t
(lset<= eq? '(a))                                 ; expect: #t
(lset<= = '(2 1) '(2 1 0))                        ; expect: #t
(lset<= = '(2 1 0) '(2 1))                        ; expect: #f
(lset= eq? '(b e a) '(a e b) '(e e b a))          ; expect: #t
(lset= eq?)                                       ; expect: #t
(lset= eq? '(a))                                  ; expect: #t
(lset= eq? '(a) '())                              ; expect: #f
(lset= = '(2 1) '(2 1 0))                         ; expect: #f
;; = gets its first argument from the earlier list.
(lset= (lambda (a b) (= (exact (round a)) b)) '(1.2 0.1 2.3) '(2 1 0)) ; expect: #t
(lset-adjoin eq? '(a b c d c e) 'a 'e 'i 'o 'u)   ; expect: (u o i a b c d c e)
(lset-union eq? '(a b c d e) '(a e i o u))        ; expect: (u o i a b c d e)
(lset-union eq? '(a a c) '(x a x))                ; expect: (x a a c)
(lset-union eq?)                                  ; expect: ()
(lset-union eq? '(a b c))                         ; expect: (a b c)
(lset-union eq? '() '(a b))                       ; expect: (a b)
(lset-union! eq? (list 'a 'b) (list 'b 'c))       ; expect: (c a b)
(lset-intersection eq? '(a b c d e) '(a e i o u)) ; expect: (a e)
(lset-intersection eq? '(a x y a) '(x a x z))     ; expect: (a x a)
(lset-intersection eq? '(a b c))                  ; expect: (a b c)
(lset-intersection eq? '(a b) '(b) '())           ; expect: ()
(lset-intersection! eq? (list 'a 'b) '(b))        ; expect: (b)
(lset-difference eq? '(a b c d e) '(a e i o u))   ; expect: (b c d)
(lset-difference eq? '(a b c))                    ; expect: (a b c)
(lset-difference! eq? (list 'a 'b) '(b))          ; expect: (a)
(lset= eq? '(d c b i o u) (lset-xor eq? '(a b c d e) '(a e i o u))) ; expect: #t
(lset-xor eq? '(a b c d e) '(a e i o u))          ; expect: (d c b i o u)
(lset-xor eq?)                                    ; expect: ()
(lset-xor eq? '(a b c d e))                       ; expect: (a b c d e)
(lset= eq? '(a c) (lset-xor eq? '(a b) '(b c) '(c a b)))  ; expect: #f
(lset-xor eq? '(a b) '(b c) '(c d))               ; expect: (a d)
(lset-xor! eq? (list 'a 'b) (list 'b 'c))         ; expect: (a c)
(lset-diff+intersection eq? '(a b c d e) '(a e i o u)) ; expect: (b c d) (a e)
(lset-diff+intersection eq? '(a b c d) '(a) '(d)) ; expect: (b c) (a d)
(lset-diff+intersection! eq? (list 'a 'b) '(b))   ; expect: (a) (b)
(lset-union 'eq? '(a))                            ; expect error: type: bad argument #1 to 'lset-union'

;;; Primitive side effects
(let ((p (list 1 2))) (set-car! p 3) (set-cdr! p '(4)) p) ; expect: (3 4)

;;; The linear-update procedures build their results from their argument's own pairs.
(define (cells l) (let lp ((l l) (acc '())) (if (pair? l) (lp (cdr l) (cons l acc)) acc)))
(define (within? result cs) (and (every (lambda (c) (memq c cs)) (cells result)) #t))
(let* ((x (list 0 7 8 8 43 -4)) (cs (cells x)) (r (filter! even? x))) (list r (within? r cs))) ; expect: ((0 8 8 -4) #t)
(let* ((x (list 0 7 8 8 43 -4)) (cs (cells x)) (r (remove! even? x))) (list r (within? r cs))) ; expect: ((7 43) #t)
(let* ((x (list 'one 2 3 'four)) (cs (cells x))) (let-values (((a b) (partition! symbol? x))) (list a b (and (within? a cs) (within? b cs))))) ; expect: ((one four) (2 3) #t)
(let* ((x (list 1 48 2 5 37)) (cs (cells x)) (r (delete! 5 x <))) (list r (within? r cs))) ; expect: ((1 2 5) #t)
(let* ((x (list 'a 'b 'a 'c 'a 'b 'c 'z)) (cs (cells x)) (r (delete-duplicates! x))) (list r (within? r cs))) ; expect: ((a b c z) #t)
(let* ((x (list 1 2 3 4 5)) (cs (cells x)) (r (delete-duplicates! x (lambda (a b) (= (modulo a 2) (modulo b 2)))))) (list r (within? r cs))) ; expect: ((1 2) #t)
(let* ((x (list (cons 1 #t) (cons 7 #t) (cons 4 #t))) (cs (cells x)) (r (alist-delete! 7 x))) (list r (within? r cs))) ; expect: (((1 . #t) (4 . #t)) #t)
(let* ((x (list 1 2 3 4 5 6)) (y (take! x 3))) (list y (eq? x y) (eq? (cdr x) (cdr y)))) ; expect: ((1 2 3) #t #t)
(let* ((x (list 1 2 3 4 5 6)) (y (drop-right! x 3))) (list y (eq? x y)))            ; expect: ((1 2 3) #t)
(let* ((x (list 1 2 3 4)) (y (cddr x))) (let-values (((a b) (split-at! x 2))) (list a b (eq? a x) (eq? b y)))) ; expect: ((1 2) (3 4) #t #t)
(let* ((x (list 2 18 3 10)) (r (take-while! even? x))) (list r (eq? r x)))         ; expect: ((2 18) #t)
(let* ((x (list 2 18 3 10)) (cs (cells x))) (let-values (((a b) (span! even? x))) (list a b (and (within? a cs) (within? b cs))))) ; expect: ((2 18) (3 10) #t)
(let* ((x (list 1 2)) (y (list 3 4)) (z (list 5 6)) (r (append! x y '() z))) (list r (eq? r x) (eq? (cddr r) y) (eq? (cddddr r) z))) ; expect: ((1 2 3 4 5 6) #t #t #t)
(let* ((l (list 1 2 3)) (m (map! (lambda (x) (* x x)) l))) (list m l (eq? m l)))   ; expect: ((1 4 9) (1 4 9) #t)
(let* ((x (list 1 2 3)) (cs (cells x)) (r (reverse! x))) (list r (within? r cs))) ; expect: ((3 2 1) #t)
