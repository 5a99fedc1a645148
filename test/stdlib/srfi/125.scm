;;; SRFI 125: hash tables. Every procedure of the document over tables of each kind (eq?, eqv?, equal?, string=?, string-ci=?, a comparator of its own), immutability, the errors.
(import (scheme base) (scheme char) (srfi 125) (srfi 128))

;; An insertion sort, so that the checks of unordered results do not depend on another SRFI.
(define (list-sort less? l)
  (define (insert x sorted) (if (or (null? sorted) (less? x (car sorted))) (cons x sorted) (cons (car sorted) (insert x (cdr sorted)))))
  (let loop ((l l) (acc '())) (if (null? l) acc (loop (cdr l) (insert (car l) acc)))))

(define num-c (make-comparator real? = < (lambda (x . o) (exact (abs (round x))))))
(define (sorted-keys t) (list-sort (lambda (a b) (string<? (if (symbol? a) (symbol->string a) a) (if (symbol? b) (symbol->string b) b))) (hash-table-keys t)))
(define (num-keys t) (list-sort < (hash-table-keys t)))

;;; Constructors
(define t-str (make-hash-table string-comparator))
(define t-eqv (make-hash-table eqv? 100 'weak-keys))
(define t-equal (make-hash-table equal-comparator))
(define t-num (make-hash-table num-c))
(define t-default (make-hash-table default-comparator))
(map hash-table? (list t-str t-eqv t-equal t-num t-default 5)) ; expect: (#t #t #t #t #t #f)
(make-hash-table (lambda (a b) #t))               ; expect error: user: needs a hash function
(make-hash-table (make-comparator (lambda (x) #t) (lambda (a b) #t) #f #f)) ; expect error: user: the comparator has no hash function
(make-hash-table 5)                               ; expect error: type: bad argument #1 to 'make-hash-table'
(define t-lit (hash-table string-comparator "a" 1 "b" 2))
(list (hash-table-size t-lit) (hash-table-ref t-lit "b") (hash-table-mutable? t-lit)) ; expect: (2 2 #f)
(hash-table-set! t-lit "c" 3)                     ; expect error: type: the hash table is immutable
(hash-table string-comparator "a")                ; expect error: user: a key without a value
(define t-unf (hash-table-unfold (lambda (i) (= i 5)) (lambda (i) (values i (* i i))) (lambda (i) (+ i 1)) 0 num-c))
(map (lambda (k) (hash-table-ref t-unf k)) (num-keys t-unf)) ; expect: (0 1 4 9 16)
(define t-al (alist->hash-table '((a . 1) (b . 2) (a . 3)) eq-comparator))
(list (hash-table-ref t-al 'a) (hash-table-size t-al)) ; expect: (1 2)
(hash-table-ref (alist->hash-table '(("x" . 1)) string=? string-hash) "x") ; expect: 1
(alist->hash-table 5 eq-comparator)               ; expect error: type: bad argument #1 to 'alist->hash-table'

;;; Predicates, accessors, mutators on each kind
(hash-table-set! t-str "one" 1 "two" 2 "three" 3)
(list (hash-table-contains? t-str "one") (hash-table-exists? t-str "four") (hash-table-ref t-str "two")) ; expect: (#t #f 2)
(hash-table-set! t-str 'one 1)                    ; expect error: type: bad argument #2 to 'hash-table-set!' (string (the table's keys are strings) expected, got one)
(hash-table-ref t-str "four")                     ; expect error: user: hash-table-ref: no such key in the hash table
(hash-table-ref t-str "four" (lambda () 'none))   ; expect: none
(hash-table-ref t-str "two" (lambda () 'none) (lambda (v) (* v 10))) ; expect: 20
(hash-table-ref/default t-str "four" 'dflt)       ; expect: dflt
(hash-table-set! t-str "one")                     ; expect error: user: a key without a value
(hash-table-set! t-eqv 1.0 'flo 1 'fix 2/3 'rat -0.0 'negzero 0.0 'zero)
(list (hash-table-ref t-eqv 1.0) (hash-table-ref t-eqv 1) (hash-table-ref t-eqv 2/3) (hash-table-ref t-eqv -0.0) (hash-table-ref t-eqv 0.0) (hash-table-size t-eqv)) ; expect: (flo fix rat negzero zero 5)
(hash-table-contains? t-eqv (string #\a))         ; expect: #f
(hash-table-set! t-equal '(1 2) 'list (vector 1 "a") 'vec "str" 'str 7 'seven #u8(1 2) 'bytes)
(list (hash-table-ref t-equal (list 1 2)) (hash-table-ref t-equal (vector 1 "a")) (hash-table-ref t-equal (string #\s #\t #\r)) (hash-table-ref t-equal #u8(1 2)) (hash-table-ref/default t-equal '(1 3) #f)) ; expect: (list vec str bytes #f)
(define t-ci (make-hash-table string-ci=?))
(hash-table-set! t-ci "Hello" 1)
(list (hash-table-ref t-ci "HELLO") (hash-table-ref t-ci "hello")) ; expect: (1 1)
(hash-table-set! t-num 1 'one 2.0 'two)
(list (hash-table-ref t-num 1.0) (hash-table-ref t-num 2) (hash-table-contains? t-num 3)) ; expect: (one two #f)
(hash-table-set! t-num 'x 1)                      ; expect error: type: key of the table's comparator's type
(hash-table-set! t-default '(a "b") 1 2 'two)
(list (hash-table-ref t-default (list 'a "b")) (hash-table-ref t-default 2.0)) ; expect: (1 two)

(list (hash-table-delete! t-str "one" "zzz" "two") (hash-table-size t-str) (hash-table-delete! t-num 1.0)) ; expect: (2 1 1)
(hash-table-empty? (make-hash-table eq-comparator)) ; expect: #t
(hash-table-empty? t-str)                         ; expect: #f
(list (hash-table-intern! t-str "three" (lambda () 'new)) (hash-table-intern! t-str "four" (lambda () 4)) (hash-table-ref t-str "four")) ; expect: (3 4 4)
(hash-table-intern! t-num 10 (lambda () 'ten))    ; expect: ten
(hash-table-update! t-str "four" (lambda (v) (+ v 1)))
(hash-table-ref t-str "four")                     ; expect: 5
(hash-table-update! t-str "five" (lambda (v) (+ v 1)) (lambda () 0))
(hash-table-ref t-str "five")                     ; expect: 1
(hash-table-update! t-str "six" (lambda (v) v))   ; expect error: user: no such key
(hash-table-update!/default t-str "six" (lambda (v) (cons 'x v)) '())
(hash-table-ref t-str "six")                      ; expect: (x)
(hash-table-update!/default t-num 10 (lambda (v) (list v)) #f)
(hash-table-ref t-num 10)                         ; expect: (ten)
(let ((t (hash-table-copy t-unf #t))) (let-values (((k v) (hash-table-pop! t))) (list (= (* k k) v) (hash-table-size t) (hash-table-contains? t k)))) ; expect: (#t 4 #f)
(hash-table-pop! (make-hash-table eq-comparator)) ; expect error: user: hash-table-pop!: the hash table is empty
(let ((t (hash-table-copy t-str #t))) (hash-table-clear! t) (list (hash-table-size t) (hash-table-size t-str))) ; expect: (0 4)

;;; The whole table
(hash-table-size t-str)                           ; expect: 4
(sorted-keys t-str)                               ; expect: ("five" "four" "six" "three")
(list-sort (lambda (a b) (< (if (number? a) a 0) (if (number? b) b 0))) (hash-table-values (hash-table string-comparator "a" 2 "b" 1))) ; expect: (1 2)
(let-values (((ks vs) (hash-table-entries t-unf))) (map (lambda (k v) (= (* k k) v)) ks vs)) ; expect: (#t #t #t #t #t)
(hash-table-find (lambda (k v) (and (= v 9) k)) t-unf (lambda () 'no)) ; expect: 3
(hash-table-find (lambda (k v) (= v 10)) t-unf (lambda () 'no)) ; expect: no
(hash-table-count (lambda (k v) (odd? k)) t-unf)  ; expect: 2

;;; Mapping and folding
(define t-sq (hash-table-map (lambda (v) (+ v 1)) num-c t-unf))
(map (lambda (k) (hash-table-ref t-sq k)) (num-keys t-sq)) ; expect: (1 2 5 10 17)
(let ((acc '())) (hash-table-for-each (lambda (k v) (set! acc (cons k acc))) t-unf) (list-sort < acc)) ; expect: (0 1 2 3 4)
(let ((acc '())) (hash-table-walk t-unf (lambda (k v) (set! acc (cons v acc)))) (list-sort < acc)) ; expect: (0 1 4 9 16)
(let ((t (hash-table-copy t-unf #t))) (hash-table-map! (lambda (k v) (- v)) t) (map (lambda (k) (hash-table-ref t k)) (num-keys t))) ; expect: (0 -1 -4 -9 -16)
(hash-table-map! (lambda (k v) v) t-lit)          ; expect error: type: immutable
(list-sort < (hash-table-map->list (lambda (k v) (+ k v)) t-unf)) ; expect: (0 2 6 12 20)
(hash-table-fold (lambda (k v acc) (+ v acc)) 0 t-unf) ; expect: 30
(hash-table-fold t-unf (lambda (k v acc) (+ k acc)) 0) ; expect: 10
(let ((t (hash-table-copy t-unf #t))) (hash-table-prune! (lambda (k v) (odd? k)) t) (num-keys t)) ; expect: (0 2 4)

;;; Copying and conversion
(let ((c (hash-table-copy t-unf))) (list (hash-table-mutable? c) (hash-table-size c) (hash-table=? default-comparator c t-unf))) ; expect: (#f 5 #t)
(hash-table-mutable? (hash-table-copy t-unf #t))  ; expect: #t
(let ((c (hash-table-copy t-unf #t))) (hash-table-set! c 0 'changed) (hash-table-ref t-unf 0)) ; expect: 0
(let ((e (hash-table-empty-copy t-lit))) (list (hash-table-size e) (hash-table-mutable? e) (begin (hash-table-set! e "z" 1) (hash-table-ref e "z")))) ; expect: (0 #t 1)
(list-sort (lambda (a b) (< (car a) (car b))) (hash-table->alist t-unf)) ; expect: ((0 . 0) (1 . 1) (2 . 4) (3 . 9) (4 . 16))
(list (hash-table=? default-comparator t-unf t-sq) (hash-table=? default-comparator (make-hash-table eq-comparator) (make-hash-table eq-comparator))) ; expect: (#f #t)

;;; Tables as sets
(define (t1) (hash-table-copy (hash-table num-c 1 'a 2 'b 3 'c) #t))
(define t2 (hash-table num-c 2 'x 3 'y 4 'z))
(define (alist t) (list-sort (lambda (a b) (< (car a) (car b))) (hash-table->alist t)))
(alist (hash-table-union! (t1) t2))               ; expect: ((1 . a) (2 . b) (3 . c) (4 . z))
(alist (hash-table-merge! (t1) t2))               ; expect: ((1 . a) (2 . b) (3 . c) (4 . z))
(alist (hash-table-intersection! (t1) t2))        ; expect: ((2 . b) (3 . c))
(alist (hash-table-difference! (t1) t2))          ; expect: ((1 . a))
(alist (hash-table-xor! (t1) t2))                 ; expect: ((1 . a) (4 . z))

;;; Hash functions and reflectivity
(list (= (hash '(1 2)) (hash (list 1 2))) (< (hash "abc" 10) 10) (= (string-hash "x") (string-hash "x" 0)) (= (string-ci-hash "AB") (string-ci-hash "ab")) (exact-integer? (hash-by-identity 'a))) ; expect: (#t #t #t #t #t)
(list (eq? (hash-table-equivalence-function t-eqv) eqv?) (eq? (hash-table-equivalence-function t-str) string=?) (hash-table-hash-function t-eqv)) ; expect: (#t #t #f)
(procedure? (hash-table-hash-function t-num))     ; expect: #t
(hash-table-size 5)                               ; expect error: type: bad argument #1 to 'hash-table-size'
(hash-table-for-each 5 t-unf)                     ; expect error: type: bad argument #1 to 'hash-table-for-each'
