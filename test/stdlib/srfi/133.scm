;;; SRFI 133: vectors. The document's examples, every procedure, and its errors.
(import (scheme base) (scheme write) (srfi 133))

;;; Constructors
(make-vector 5 3)                                 ; expect: #(3 3 3 3 3)
(vector 0 1 2 3 4)                                ; expect: #(0 1 2 3 4)
(vector-unfold (lambda (i x) (values x (- x 1))) 10 0) ; expect: #(0 -1 -2 -3 -4 -5 -6 -7 -8 -9)
(vector-unfold values 5)                          ; expect: #(0 1 2 3 4)
(let ((v #(a b c))) (vector-unfold (lambda (i) (vector-ref v i)) (vector-length v))) ; expect: #(a b c)
(vector-unfold (lambda (i a b) (values (list a b) (+ a 1) (* b 2))) 3 0 1) ; expect: #((0 1) (1 2) (2 4))
(vector-unfold-right (lambda (i x) (values (cons i x) (+ x 1))) 5 0) ; expect: #((0 . 4) (1 . 3) (2 . 2) (3 . 1) (4 . 0))
(let ((v #(1 2 3))) (vector-unfold-right (lambda (i x) (values (vector-ref v x) (+ x 1))) (vector-length v) 0)) ; expect: #(3 2 1)
(vector-unfold values 0)                          ; expect: #()
(vector-unfold 'f 2)                              ; expect error: type: bad argument #1 to 'vector-unfold' (procedure expected
(vector-unfold values -1)                         ; expect error: type: bad argument #2 to 'vector-unfold'
(vector-copy '#(a b c d e f g h i))               ; expect: #(a b c d e f g h i)
(vector-copy '#(a b c d e f g h i) 6)             ; expect: #(g h i)
(vector-copy '#(a b c d e f g h i) 3 6)           ; expect: #(d e f)
(vector-reverse-copy '#(5 4 3 2 1 0) 1 5)         ; expect: #(1 2 3 4)
(vector-reverse-copy '#(1 2 3))                   ; expect: #(3 2 1)
(vector-reverse-copy '#(1 2 3) 2 1)               ; expect error: range: bad argument #3 to 'vector-reverse-copy'
(vector-append '#(x) '#(y))                       ; expect: #(x y)
(vector-append '#(a #(b)) '#(#(c)))               ; expect: #(a #(b) #(c))
(vector-concatenate '(#(a b) #(c d)))             ; expect: #(a b c d)
(vector-concatenate '())                          ; expect: #()
(vector-concatenate '(#(a) b))                    ; expect error: type: bad argument #1 to 'vector-concatenate' (list of vectors expected
(vector-append-subvectors '#(a b c d e) 0 2 '#(f g h i j) 2 4) ; expect: #(a b h i)
(vector-append-subvectors)                        ; expect: #()
(vector-append-subvectors '#(a b) 0)              ; expect error: type: bad argument #1 to 'vector-append-subvectors' (vector, start and end expected
(vector-append-subvectors '#(a b) 1 5)            ; expect error: range: bad argument #3 to 'vector-append-subvectors'

;;; Predicates
(list (vector? '#(a b c)) (vector? '(a b c)) (vector? #t) (vector? '#()) (vector? '())) ; expect: (#t #f #f #t #f)
(list (vector-empty? '#(a)) (vector-empty? '#(())) (vector-empty? '#(#())) (vector-empty? '#())) ; expect: (#f #f #f #t)
(vector-empty? '(a))                              ; expect error: type: bad argument #1 to 'vector-empty?' (vector expected
(vector= eq? '#(a b c d) '#(a b c d))             ; expect: #t
(vector= eq? '#(a b c d) '#(a b d c))             ; expect: #f
(vector= = '#(1 2 3 4 5) '#(1 2 3 4))             ; expect: #f
(vector= = '#(1 2 3 4) '#(1 2 3 4))               ; expect: #t
(vector= = '#(1 2) '#(1 2) '#(1 3))               ; expect: #f
(list (vector= eq?) (vector= eq? '#(a)))          ; expect: (#t #t)
(vector= eq? (vector (vector 'a)) (vector (vector 'a))) ; expect: #f
(vector= equal? (vector (vector 'a)) (vector (vector 'a))) ; expect: #t
(vector= = +nan.0 +nan.0)                         ; expect error: type: bad argument #2 to 'vector='
(vector= = (vector +nan.0) (vector +nan.0))       ; expect: #f

;;; Selectors
(vector-ref '#(a b c d) 2)                        ; expect: c
(vector-length '#(a b c))                         ; expect: 3

;;; Iteration
(vector-fold (lambda (len str) (max (string-length str) len)) 0 '#("a" "abc" "ab")) ; expect: 3
(vector-fold (lambda (tail elt) (cons elt tail)) '() '#(1 2 3)) ; expect: (3 2 1)
(vector-fold (lambda (counter n) (if (even? n) (+ counter 1) counter)) 0 '#(1 2 3 4)) ; expect: 2
(vector-fold (lambda (acc a b) (cons (list a b) acc)) '() '#(1 2 3) '#(x y)) ; expect: ((2 y) (1 x))
(vector-fold-right (lambda (tail elt) (cons elt tail)) '() '#(a b c d)) ; expect: (a b c d)
(vector-fold-right (lambda (acc a b) (cons (list a b) acc)) '() '#(1 2 3) '#(x y)) ; expect: ((1 x) (2 y))
(vector-fold + 0 '(1 2))                          ; expect error: type: bad argument #3 to 'vector-fold' (vector expected
(vector-map (lambda (x) (* x x)) (vector-unfold (lambda (i x) (values x (+ x 1))) 4 1)) ; expect: #(1 4 9 16)
(vector-map * (vector-unfold (lambda (i x) (values x (+ x 1))) 5 1) (vector-unfold (lambda (i x) (values x (- x 1))) 5 5)) ; expect: #(5 8 9 8 5)
(let ((v (vector 1 2 3))) (vector-map! (lambda (x) (* x 10)) v) v) ; expect: #(10 20 30)
(let ((v (vector 1 2 3))) (vector-map! + v '#(10 20 30 40)) v) ; expect: #(11 22 33)
(vector-map! + (vector 1 2 3) '#(10))             ; expect error: range: bad argument #3 to 'vector-map!'
(vector-for-each (lambda (x) (display x) (newline)) '#("foo" "bar" "baz" "quux" "zot")) ; expect output: foo\nbar\nbaz\nquux\nzot\n
(vector-count even? '#(3 1 4 1 5 9 2 5 6))        ; expect: 3
(vector-count < '#(1 3 6 9) '#(2 4 6 8 10 12))    ; expect: 2
(vector-cumulate + 0 '#(3 1 4 1 5 9 2 5 6))       ; expect: #(3 4 8 9 14 23 25 30 36)
(vector-cumulate list 'z '#(a b))                 ; expect: #((z a) ((z a) b))

;;; Searching
(vector-index even? '#(3 1 4 1 5 9))              ; expect: 2
(vector-index < '#(3 1 4 1 5 9 2 5 6) '#(2 7 1 8 2)) ; expect: 1
(vector-index = '#(3 1 4 1 5 9 2 5 6) '#(2 7 1 8 2)) ; expect: #f
(vector-index-right even? '#(3 1 4 1 5 9 6 7))    ; expect: 6
(vector-index-right < '#(3 1 4) '#(2 7 1))        ; expect: 1
(vector-index-right < '#(3 1 4) '#(2 7))          ; expect error: range: bad argument #3 to 'vector-index-right'
(vector-skip number? '#(1 2 a b 3 4 c d))         ; expect: 2
(vector-skip number? '#(1 2))                     ; expect: #f
(vector-skip-right number? '#(1 2 a b 3 4 c d))   ; expect: 7
(vector-skip-right = '#(1 2 3) '#(1 5 3))         ; expect: 1
(define (char-cmp c1 c2) (cond ((char<? c1 c2) -1) ((char=? c1 c2) 0) (else 1)))
(vector-binary-search '#(#\a #\b #\c #\d #\e) #\d char-cmp) ; expect: 3
(vector-binary-search '#(#\a #\b #\c #\d #\e) #\z char-cmp) ; expect: #f
(vector-binary-search '#() 1 -)                   ; expect: #f
(vector-binary-search '#(1 3 5 7 9) 7 - 0 3)      ; expect: #f
(vector-binary-search '#(1 3 5 7 9) 7 - 2)        ; expect: 3
(vector-binary-search '#(1 3) 3 (lambda (a b) 'x)) ; expect error: type: bad argument #3 to 'vector-binary-search' (procedure returning an exact integer expected
(vector-any (lambda (x) (and (even? x) (* x 10))) '#(1 3 4 6)) ; expect: 40
(vector-any even? '#(1 3))                        ; expect: #f
(vector-any < '#(3 1) '#(2 7))                    ; expect: #t
(vector-every (lambda (x) (and (odd? x) x)) '#(1 3 5)) ; expect: 5
(vector-every odd? '#(1 2 3))                     ; expect: #f
(vector-every odd? '#())                          ; expect: #t
(vector-every < '#(1 2) '#(2 3 0))                ; expect: #t
(vector-partition even? '#(1 2 3 4 5 6))          ; expect: #(2 4 6 1 3 5) 3
(vector-partition even? '#(2 4))                  ; expect: #(2 4) 2
(vector-partition even? '#())                     ; expect: #() 0

;;; Mutators
(let ((v (vector 1 2 3))) (vector-set! v 0 'x) v) ; expect: #(x 2 3)
(let ((v (vector 'a 'b 'c))) (vector-swap! v 0 2) v) ; expect: #(c b a)
(vector-swap! (vector 1) 0 1)                     ; expect error: range
(let ((v (vector 1 2 3 4))) (vector-fill! v 'z 1 3) v) ; expect: #(1 z z 4)
(let ((v (vector 1 2 3 4 5))) (vector-reverse! v) v) ; expect: #(5 4 3 2 1)
(let ((v (vector 1 2 3 4 5))) (vector-reverse! v 1 4) v) ; expect: #(1 4 3 2 5)
(let ((v (vector 1 2 3 4 5))) (vector-copy! v 0 v 1 3) v) ; expect: #(2 3 3 4 5)
(let ((v (make-vector 5 '-))) (vector-reverse-copy! v 1 '#(a b c)) v) ; expect: #(- c b a -)
(let ((v (vector 1 2 3 4 5))) (vector-reverse-copy! v 1 v 0 3) v) ; expect: #(1 3 2 1 5)
(vector-reverse-copy! (make-vector 2) 1 '#(a b)) ; expect error: range: bad argument #2 to 'vector-reverse-copy!'
(let ((v (make-vector 5 0))) (vector-unfold! (lambda (i) (+ 10 i)) v 1 4) v) ; expect: #(0 11 12 13 0)
(let ((v (make-vector 5 0))) (vector-unfold! (lambda (i x) (values (+ i x) (+ x 1))) v 1 4 0) v) ; expect: #(0 1 3 5 0)
(let ((v (make-vector 5 0))) (vector-unfold-right! (lambda (i) (+ 10 i)) v 1 4) v) ; expect: #(0 11 12 13 0)
(let ((v (make-vector 5 0))) (vector-unfold-right! (lambda (i x) (values (+ i x) (+ x 1))) v 1 4 0) v) ; expect: #(0 3 3 3 0)
(vector-unfold! values (make-vector 2) 0 3)       ; expect error: range: bad argument #4 to 'vector-unfold!'

;;; Conversion
(vector->list '#(1 2 3) 1)                        ; expect: (2 3)
(reverse-vector->list '#(1 2 3))                  ; expect: (3 2 1)
(reverse-vector->list '#(1 2 3 4) 1 3)            ; expect: (3 2)
(list->vector '(1 2))                             ; expect: #(1 2)
(reverse-list->vector '(1 2 3))                   ; expect: #(3 2 1)
(reverse-list->vector '(1 . 2))                   ; expect error: type: bad argument #1 to 'reverse-list->vector' (proper list expected
(vector->string '#(#\a #\b #\c) 1)                ; expect: "bc"
(string->vector "abc" 0 2)                        ; expect: #(#\a #\b)
