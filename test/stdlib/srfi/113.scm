;;; SRFI 113: sets and bags. Every procedure of the document, over comparators of each kind (eq?, eqv?, equal?, string-ci=?, one with its own hash), and the errors it names.
(import (scheme base) (scheme char) (srfi 113) (srfi 128))

;; An insertion sort, so that checks of unordered results do not depend on another SRFI.
(define (list-sort less? l)
  (define (insert x sorted) (if (or (null? sorted) (less? x (car sorted))) (cons x sorted) (cons (car sorted) (insert x (cdr sorted)))))
  (let loop ((l l) (acc '())) (if (null? l) acc (loop (cdr l) (insert (car l) acc)))))
(define (sym<? a b) (string<? (symbol->string a) (symbol->string b)))
(define (syms s) (list-sort sym<? (if (set? s) (set->list s) (bag->list s))))
(define (nums s) (list-sort < (if (set? s) (set->list s) (bag->list s))))
(define (counts b) (list-sort (lambda (x y) (sym<? (car x) (car y))) (bag->alist b)))
;; A comparator of its own (not one of the five equalities the tables know): numbers equal by =.
(define num-c (make-comparator real? = < (lambda (x . o) (exact (abs (round x))))))

;;; Constructors
(define abc (set eq-comparator 'a 'b 'c))
(syms abc)                                                    ; expect: (a b c)
(syms (set eq-comparator 'a 'b 'a 'c 'b))                     ; expect: (a b c)
(set-size (set eqv-comparator))                               ; expect: 0
(nums (set num-c 1 2 2.0 3))                                  ; expect: (1 2 3)
(set-size (set string-ci-comparator "a" "A" "b"))             ; expect: 2
(nums (set-unfold eqv-comparator (lambda (i) (= i 0)) (lambda (i) (* i 10)) (lambda (i) (- i 1)) 5))  ; expect: (10 20 30 40 50)
;; The sample implementation's order, comparator last, is accepted too.
(nums (set-unfold (lambda (i) (= i 0)) (lambda (i) (* i 10)) (lambda (i) (- i 1)) 3 eqv-comparator))  ; expect: (10 20 30)
(nums (set-unfold eqv-comparator (lambda (i) (> i 5)) (lambda (i) (quotient i 2)) (lambda (i) (+ i 1)) 0))  ; expect: (0 1 2)
(set 5 1 2)                                                   ; expect error: type: bad argument #1 to 'set' (comparator expected, got 5)
(set-unfold eqv-comparator 1 2 3 4)                           ; expect error: type: bad argument #2 to 'set-unfold'
(set-unfold 1 2 3)                                            ; expect error: user: set-unfold: expected a comparator

;;; Predicates
(map set? (list abc (bag eq-comparator) 'a '() (vector)))     ; expect: (#t #f #f #f #f)
(set-contains? abc 'a)                                        ; expect: #t
(set-contains? abc 'z)                                        ; expect: #f
(set-contains? (set string-ci-comparator "abc") "ABC")        ; expect: #t
(set-contains? (set equal-comparator '(1 2)) (list 1 2))      ; expect: #t
(set-contains? (set eq-comparator (list 1 2)) (list 1 2))     ; expect: #f
(set-empty? (set eq-comparator))                              ; expect: #t
(set-empty? abc)                                              ; expect: #f
(set-disjoint? abc (set eq-comparator 'd 'e))                 ; expect: #t
(set-disjoint? abc (set eq-comparator 'c 'd))                 ; expect: #f
(set-disjoint? (set eq-comparator) (set eq-comparator))       ; expect: #t
(set-contains? 'a 'a)                                         ; expect error: type: bad argument #1 to 'set-contains?' (set expected, got a)
(set-contains? (bag eq-comparator 'a) 'a)                     ; expect error: type: (set expected
(set-disjoint? abc (set eqv-comparator 'z))                   ; expect error: user: set-disjoint?: the sets have different comparators

;;; Accessors
(set-member (set string-ci-comparator "abc" "def") "DEF" 'none) ; expect: "def"
(set-member (set string-ci-comparator "abc" "def") "lmn" 'none) ; expect: none
(eq? (set-element-comparator abc) eq-comparator)              ; expect: #t
(set-element-comparator 'x)                                   ; expect error: type: bad argument #1 to 'set-element-comparator'

;;; Updaters
(syms (set-adjoin abc 'd 'a 'e))                              ; expect: (a b c d e)
(syms abc)                                                    ; expect: (a b c)
(let ((s (set-copy abc))) (set-adjoin! s 'z) (syms s))        ; expect: (a b c z)
(set-adjoin (set string-ci-comparator "x") 'not-a-string)    ; expect error: user: set-adjoin: the set's comparator does not accept this element
(set (make-comparator integer? = < number-hash) 1 'two)       ; expect error: user: the set's comparator does not accept this element
;; set-adjoin keeps the member it has; set-replace puts the new one in its place.
(set-member (set-adjoin (set num-c 2) 2.0) 2 #f)              ; expect: 2
(define n123 (set num-c 1 2 3))
(set-member (set-replace n123 2.0) 2 #f)                      ; expect: 2.0
(set-member n123 2 #f)                                        ; expect: 2
(eq? (set-replace n123 7) n123)                               ; expect: #t
(let ((s (set-copy n123))) (set-replace! s 3.0) (set-any? inexact? s))  ; expect: #t
(syms (set-delete abc 'a 'z))                                 ; expect: (b c)
(syms abc)                                                    ; expect: (a b c)
(let ((s (set-copy abc))) (syms (set-delete! s 'b)))          ; expect: (a c)
(syms (set-delete-all abc '(a c)))                            ; expect: (b)
(let ((s (set-copy abc))) (syms (set-delete-all! s '(a b c z)))) ; expect: ()
(set-delete-all abc 'a)                                       ; expect error: type: bad argument #2 to 'set-delete-all' (list expected

;; set-search!: failure gets insert and ignore, success the member, update and remove; two values come back.
(define yam (set char-comparator #\y #\a #\m))
(define (chars s) (list->string (list-sort char<? (set->list s))))
(let-values (((s obj) (set-search! (set-copy yam) #\! (lambda (insert ignore) (insert 1)) error))) (list (chars s) obj))  ; expect: ("!amy" 1)
(let-values (((s obj) (set-search! (set-copy yam) #\! (lambda (insert ignore) (ignore 2)) error))) (list (chars s) obj))  ; expect: ("amy" 2)
(let-values (((s obj) (set-search! (set-copy yam) #\y error (lambda (e update remove) (update #\b (list 'was e)))))) (list (chars s) obj))  ; expect: ("abm" (was #\y))
(let-values (((s obj) (set-search! (set-copy yam) #\a error (lambda (e update remove) (remove 4))))) (list (chars s) obj))  ; expect: ("my" 4)
(set-search! yam #\a 'no (lambda (e u r) (r 0)))              ; expect error: type: bad argument #3 to 'set-search!' (procedure expected

;;; The whole set
(set-size abc)                                                ; expect: 3
(set-find symbol? (set eqv-comparator 1 2 'a 3) (lambda () 'none))  ; expect: a
(set-find symbol? (set eqv-comparator 1 2 3) (lambda () 'none))     ; expect: none
(set-find symbol? (set eqv-comparator 1) (lambda () (error "no symbol")))  ; expect error: user: no symbol
(set-count odd? (set eqv-comparator 1 2 3 4 5))               ; expect: 3
(set-any? symbol? (set eqv-comparator 1 'a))                  ; expect: #t
(set-any? symbol? (set eqv-comparator 1 2))                   ; expect: #f
(set-any? (lambda (x) x) (set eqv-comparator 5))              ; expect: #t
(set-every? number? (set eqv-comparator 1 2))                 ; expect: #t
(set-every? number? (set eqv-comparator 1 'a))                ; expect: #f
(set-every? number? (set eqv-comparator))                     ; expect: #t
(set-count 'odd? abc)                                         ; expect error: type: bad argument #1 to 'set-count' (procedure expected

;;; Mapping and folding
(list-sort string<? (set->list (set-map string-ci-comparator symbol->string (set eq-comparator 'foo 'bar 'baz))))  ; expect: ("bar" "baz" "foo")
(nums (set-map eqv-comparator (lambda (x) (quotient x 2)) (set eqv-comparator 1 2 3 4 5)))  ; expect: (0 1 2)
;; The document's example puts proc first; both orders are accepted.
(nums (set-map (lambda (x) (quotient x 2)) eqv-comparator (set eqv-comparator 1 2 3 4 5)))  ; expect: (0 1 2)
(let ((total 0)) (set-for-each (lambda (x) (set! total (+ total x))) (set eqv-comparator 1 2 3)) total)  ; expect: 6
(set-fold + 3 (set eqv-comparator 3 4))                       ; expect: 10
(set-fold cons '() (set eqv-comparator))                      ; expect: ()
(define whole (set eqv-comparator 1 2 3 4 5 6 7 8 9 10))
(define (big x) (> x 5))
(nums (set-filter big whole))                                 ; expect: (6 7 8 9 10)
(nums (set-remove big whole))                                 ; expect: (1 2 3 4 5)
(set-size whole)                                              ; expect: 10
(nums (set-filter! big (set-copy whole)))                     ; expect: (6 7 8 9 10)
(nums (set-remove! big (set-copy whole)))                     ; expect: (1 2 3 4 5)
(let-values (((in out) (set-partition big whole))) (list (nums in) (nums out)))   ; expect: ((6 7 8 9 10) (1 2 3 4 5))
(let-values (((in out) (set-partition! big (set-copy whole)))) (list (nums in) (nums out)))  ; expect: ((6 7 8 9 10) (1 2 3 4 5))
(set-size (set-filter big whole))                             ; expect: 5
(set-map eqv-comparator car abc)                              ; expect error: type
(set-filter big 'x)                                           ; expect error: type: bad argument #2 to 'set-filter' (set expected

;;; Copying and conversion
(define abc2 (set-copy abc))
(list (eq? abc2 abc) (set=? abc2 abc) (eq? (set-element-comparator abc2) eq-comparator))  ; expect: (#f #t #t)
(set-adjoin! abc2 'q)
(list (set-size abc) (set-size abc2))                         ; expect: (3 4)
(set->list (set eq-comparator 'a))                            ; expect: (a)
(syms (list->set eq-comparator '(e f e)))                     ; expect: (e f)
(syms (list->set! (set eq-comparator 'e 'f) '(a b e)))        ; expect: (a b e f)
(list->set eq-comparator 'a)                                  ; expect error: type: bad argument #2 to 'list->set' (list expected

;;; Subsets
(define s12 (set eqv-comparator 1 2))
(define s12b (set eqv-comparator 1 2))
(define s123 (set eqv-comparator 1 2 3))
(define s1234 (set eqv-comparator 1 2 3 4))
(define s1245 (set eqv-comparator 1 2 4 5))
(list (set=? s12 s12b) (set=? s12 s123) (set=? s12 s12b s123) (set=? s12))     ; expect: (#t #f #f #t)
(list (set<? s12 s123 s1234) (set<? s12 s12b) (set<? s123 s1245))              ; expect: (#t #f #f)
(list (set<=? s12 s12b s123) (set<=? s12 s123 s12b) (set<=? s123 s1245))       ; expect: (#t #f #f)
(list (set>? s1234 s123 s12) (set>? s12 s12b) (set>? s123 s1245))              ; expect: (#t #f #f)
(list (set>=? s123 s12b s12) (set>=? s12b s123 s12) (set>=? s123 s1245))       ; expect: (#t #f #f)
(set=? s12 (set num-c 1 2))                                   ; expect error: user: set=?: the sets have different comparators
(set<? s12 (set num-c 1 2))                                   ; expect error: user: different comparators
(set<=? s12 (set num-c 1 2))                                  ; expect error: user: different comparators
(set>? s12 (set num-c 1 2))                                   ; expect error: user: different comparators
(set>=? s12 (set num-c 1 2))                                  ; expect error: user: different comparators

;;; Set theory operations
(define abcd (set eq-comparator 'a 'b 'c 'd))
(define efgh (set eq-comparator 'e 'f 'g 'h))
(define abgh (set eq-comparator 'a 'b 'g 'h))
(syms (set-union abcd))                                       ; expect: (a b c d)
(syms (set-union abcd efgh))                                  ; expect: (a b c d e f g h)
(syms (set-union abcd abgh efgh))                             ; expect: (a b c d e f g h)
(syms (set-intersection abcd abgh))                           ; expect: (a b)
(syms (set-intersection abcd efgh))                           ; expect: ()
(syms (set-intersection abcd abgh (set eq-comparator 'b)))    ; expect: (b)
(syms (set-difference abcd abgh))                             ; expect: (c d)
(syms (set-difference abcd (set eq-comparator 'a) (set eq-comparator 'd)))  ; expect: (b c)
(syms (set-difference abcd abcd))                             ; expect: ()
(syms (set-xor abcd abgh))                                    ; expect: (c d g h)
(syms (set-xor abcd (set-copy abcd)))                         ; expect: ()
(list (syms abcd) (syms efgh) (syms abgh))                    ; expect: ((a b c d) (e f g h) (a b g h))
(syms (set-union! (set-copy abcd) abgh))                      ; expect: (a b c d g h)
(syms (set-intersection! (set-copy abcd) abgh))               ; expect: (a b)
(syms (set-difference! (set-copy abcd) abgh))                 ; expect: (c d)
(syms (set-xor! (set-copy abcd) abgh))                        ; expect: (c d g h)
(let ((s (set-copy abcd))) (syms (set-difference! s s)))      ; expect: ()
;; Elements come from the first set that has them.
(set-member (set-union (set num-c 1) (set num-c 1.0 2)) 1 #f)  ; expect: 1
(set-member (set-intersection (set num-c 1.0) (set num-c 1)) 1 #f)  ; expect: 1.0
(set-union abcd (set eqv-comparator 'z))                      ; expect error: user: set-union: the sets have different comparators
(set-intersection abcd (set eqv-comparator 'z))               ; expect error: user: different comparators
(set-difference abcd (set eqv-comparator 'z))                 ; expect error: user: different comparators
(set-xor abcd (set eqv-comparator 'z))                        ; expect error: user: different comparators
(set-union! abcd (set eqv-comparator 'z))                     ; expect error: user: different comparators
(set-intersection! abcd (set eqv-comparator 'z))              ; expect error: user: different comparators
(set-difference! abcd (set eqv-comparator 'z))                ; expect error: user: different comparators
(set-xor! abcd (set eqv-comparator 'z))                       ; expect error: user: different comparators
(set-xor abcd abgh efgh)                                      ; expect error: arity
(set-union abcd (bag eq-comparator 'a))                       ; expect error: type: bad argument #2 to 'set-union' (set expected

;;; Bags: the same procedures, where adjoining adds an occurrence
(define b-abcd (bag eq-comparator 'a 'b 'c 'd))
(map bag? (list b-abcd abcd 'a))                              ; expect: (#t #f #f)
(bag-size (bag eq-comparator 'a 'a 'b))                       ; expect: 3
(counts (bag eq-comparator 'a 'a 'b))                         ; expect: ((a . 2) (b . 1))
(nums (bag-unfold eqv-comparator (lambda (i) (= i 0)) (lambda (i) (quotient i 2)) (lambda (i) (- i 1)) 4))  ; expect: (0 1 1 2)
(nums (bag-unfold (lambda (i) (= i 0)) (lambda (i) i) (lambda (i) (- i 1)) 2 eqv-comparator))  ; expect: (1 2)
(list (bag-contains? b-abcd 'a) (bag-contains? b-abcd 'z))    ; expect: (#t #f)
(list (bag-empty? (bag eq-comparator)) (bag-empty? b-abcd))   ; expect: (#t #f)
(list (bag-disjoint? b-abcd (bag eq-comparator 'x)) (bag-disjoint? b-abcd (bag eq-comparator 'a)))  ; expect: (#t #f)
(bag-member (bag string-ci-comparator "abc" "def") "DEF" 'none) ; expect: "def"
(bag-member (bag string-ci-comparator "abc") "x" 'none)      ; expect: none
(eq? (bag-element-comparator b-abcd) eq-comparator)           ; expect: #t
(syms (bag-adjoin b-abcd 'a 'e))                              ; expect: (a a b c d e)
(bag-size b-abcd)                                             ; expect: 4
(let ((b (bag-copy b-abcd))) (bag-adjoin! b 'a) (bag-element-count b 'a))  ; expect: 2
(bag-adjoin (bag (make-comparator symbol? eq? #f default-hash)) 5)  ; expect error: user: bag-adjoin: the bag's comparator does not accept this element
(bag-member (bag-replace (bag num-c 1 2 2) 2.0) 2 #f)         ; expect: 2.0
(bag-element-count (bag-replace (bag num-c 1 2 2) 2.0) 2)     ; expect: 2
(let ((b (bag num-c 1 2))) (bag-replace! b 1.0) (bag-any? inexact? b))  ; expect: #t
;; Deleting removes one occurrence of each element given.
(syms (bag-delete (bag eq-comparator 'a 'a 'b) 'a 'z))        ; expect: (a b)
(syms (bag-delete! (bag eq-comparator 'a 'b) 'b))             ; expect: (a)
(syms (bag-delete-all (bag eq-comparator 'a 'a 'b 'c) '(a c)))  ; expect: (a b)
(syms (bag-delete-all! (bag eq-comparator 'a 'b) '(a b)))     ; expect: ()
(define bam (bag char-comparator #\y #\a #\m))
(define (bchars b) (list->string (list-sort char<? (bag->list b))))
(let-values (((b obj) (bag-search! (bag-copy bam) #\! (lambda (insert ignore) (insert 1)) error))) (list (bchars b) obj))  ; expect: ("!amy" 1)
(let-values (((b obj) (bag-search! (bag-copy bam) #\! (lambda (insert ignore) (ignore 2)) error))) (list (bchars b) obj))  ; expect: ("amy" 2)
(let-values (((b obj) (bag-search! (bag char-comparator #\y #\y) #\y error (lambda (e update remove) (update #\b 3))))) (list (bchars b) obj))  ; expect: ("bb" 3)
(let-values (((b obj) (bag-search! (bag char-comparator #\a #\a #\m) #\a error (lambda (e update remove) (remove 4))))) (list (bchars b) obj))  ; expect: ("m" 4)
(bag-size (bag eq-comparator 'a 'a 'b))                       ; expect: 3
(bag-find symbol? (bag eqv-comparator 1 'a) (lambda () 'none)) ; expect: a
(bag-find symbol? (bag eqv-comparator 1) (lambda () 'none))   ; expect: none
(bag-count (lambda (x) (eq? x 'a)) (bag eq-comparator 'a 'a 'b))  ; expect: 2
(list (bag-any? symbol? (bag eqv-comparator 1 'a)) (bag-any? symbol? (bag eqv-comparator 1)))  ; expect: (#t #f)
(list (bag-every? number? (bag eqv-comparator 1 1)) (bag-every? number? (bag eqv-comparator 1 'a)))  ; expect: (#t #f)
(nums (bag-map eqv-comparator (lambda (x) (* 10 x)) (bag eqv-comparator 1 2 2)))  ; expect: (10 20 20)
(nums (bag-map eqv-comparator (lambda (x) (quotient x 2)) (bag eqv-comparator 2 3)))  ; expect: (1 1)
(nums (bag-map (lambda (x) (- x)) eqv-comparator (bag eqv-comparator 1)))  ; expect: (-1)
(let ((total 0)) (bag-for-each (lambda (x) (set! total (+ total x))) (bag eqv-comparator 10 10 5)) total)  ; expect: 25
(bag-fold + 5 (bag eqv-comparator 10 10))                     ; expect: 25
(define bwhole (bag eqv-comparator 1 2 6 6 7))
(nums (bag-filter big bwhole))                                ; expect: (6 6 7)
(nums (bag-remove big bwhole))                                ; expect: (1 2)
(nums (bag-filter! big (bag-copy bwhole)))                    ; expect: (6 6 7)
(nums (bag-remove! big (bag-copy bwhole)))                    ; expect: (1 2)
(let-values (((in out) (bag-partition big bwhole))) (list (nums in) (nums out)))  ; expect: ((6 6 7) (1 2))
(let-values (((in out) (bag-partition! big (bag-copy bwhole)))) (list (nums in) (nums out)))  ; expect: ((6 6 7) (1 2))
(nums bwhole)                                                 ; expect: (1 2 6 6 7)
;; A copy's counts are its own.
(let ((c (bag-copy bwhole))) (bag-increment! c 6 10) (list (bag-element-count c 6) (bag-element-count bwhole 6)))  ; expect: (12 2)
(nums (list->bag eqv-comparator '(1 1 2)))                    ; expect: (1 1 2)
(nums (list->bag! (bag eqv-comparator 1) '(1 2)))             ; expect: (1 1 2)
(define b12 (bag eqv-comparator 1 2))
(define b1122 (bag eqv-comparator 1 1 2 2))
(define b112 (bag eqv-comparator 1 1 2))
(list (bag=? b12 (bag eqv-comparator 2 1)) (bag=? b12 b112) (bag=? b112 b112))  ; expect: (#t #f #t)
(list (bag<? b12 b112 b1122) (bag<? b12 b12) (bag<? b112 b12))                  ; expect: (#t #f #f)
(list (bag<=? b12 b12 b112) (bag<=? b112 b12))                                  ; expect: (#t #f)
(list (bag>? b1122 b112 b12) (bag>? b12 b12))                                   ; expect: (#t #f)
(list (bag>=? b112 b12 b12) (bag>=? b12 b112))                                  ; expect: (#t #f)
(bag=? b12 (bag num-c 1 2))                                   ; expect error: user: bag=?: the bags have different comparators
(bag<? b12 (bag num-c 1 2))                                   ; expect error: user: different comparators
(bag<=? b12 (bag num-c 1 2))                                  ; expect error: user: different comparators
(bag>? b12 (bag num-c 1 2))                                   ; expect error: user: different comparators
(bag>=? b12 (bag num-c 1 2))                                  ; expect error: user: different comparators
;; Set theory on bags: union the most of each, intersection the fewest, difference subtracts, xor the difference.
(define aab (bag eq-comparator 'a 'a 'b))
(define abb (bag eq-comparator 'a 'b 'b))
(define bc (bag eq-comparator 'b 'c))
(counts (bag-union aab abb bc))                               ; expect: ((a . 2) (b . 2) (c . 1))
(counts (bag-intersection aab abb))                           ; expect: ((a . 1) (b . 1))
(counts (bag-intersection aab abb bc))                        ; expect: ((b . 1))
(counts (bag-difference aab abb))                             ; expect: ((a . 1))
(counts (bag-difference (bag eq-comparator 'a 'a 'a 'b) (bag eq-comparator 'a) (bag eq-comparator 'a 'b 'b)))  ; expect: ((a . 1))
(counts (bag-xor aab abb))                                    ; expect: ((a . 1) (b . 1))
(counts (bag-xor aab bc))                                     ; expect: ((a . 2) (c . 1))
(list (counts aab) (counts abb))                              ; expect: (((a . 2) (b . 1)) ((a . 1) (b . 2)))
(counts (bag-union! (bag-copy aab) abb))                      ; expect: ((a . 2) (b . 2))
(counts (bag-intersection! (bag-copy aab) abb))               ; expect: ((a . 1) (b . 1))
(counts (bag-difference! (bag-copy aab) abb))                 ; expect: ((a . 1))
(counts (bag-xor! (bag-copy aab) abb))                        ; expect: ((a . 1) (b . 1))
(bag-union aab (bag eqv-comparator 'a))                       ; expect error: user: bag-union: the bags have different comparators
(bag-intersection aab (bag eqv-comparator 'a))                ; expect error: user: different comparators
(bag-difference aab (bag eqv-comparator 'a))                  ; expect error: user: different comparators
(bag-xor aab (bag eqv-comparator 'a))                         ; expect error: user: different comparators
(bag-union! aab (bag eqv-comparator 'a))                      ; expect error: user: different comparators
(bag-intersection! aab (bag eqv-comparator 'a))               ; expect error: user: different comparators
(bag-difference! aab (bag eqv-comparator 'a))                 ; expect error: user: different comparators
(bag-xor! aab (bag eqv-comparator 'a))                        ; expect error: user: different comparators
(bag-union aab abcd)                                          ; expect error: type: bad argument #2 to 'bag-union' (bag expected

;;; Additional bag procedures
(counts (bag-sum aab abb))                                    ; expect: ((a . 3) (b . 3))
(counts (bag-sum aab))                                        ; expect: ((a . 2) (b . 1))
(let ((b (bag eqv-comparator 1))) (bag-sum! b b) (bag-size b)) ; expect: 2
(counts (bag-sum! (bag-copy aab) abb bc))                     ; expect: ((a . 3) (b . 4) (c . 1))
(counts (bag-product 2 aab))                                  ; expect: ((a . 4) (b . 2))
(counts (bag-product 0 aab))                                  ; expect: ()
(let ((b (bag-copy aab))) (bag-product! 3 b) (bag-size b))    ; expect: 9
(bag-size aab)                                                ; expect: 3
(bag-product -1 aab)                                          ; expect error: type: bad argument #1 to 'bag-product' (exact non-negative integer expected
(bag-sum aab (bag eqv-comparator 'a))                         ; expect error: user: bag-sum: the bags have different comparators
(bag-unique-size aab)                                         ; expect: 2
(list (bag-element-count aab 'a) (bag-element-count aab 'z))  ; expect: (2 0)
(let ((r '())) (bag-for-each-unique (lambda (x n) (set! r (cons (cons x n) r))) (bag eqv-comparator 10 10)) r)  ; expect: ((10 . 2))
(bag-fold-unique (lambda (x n acc) (+ x n acc)) 0 (bag eqv-comparator 10 10))  ; expect: 12
(bag-fold-unique (lambda (x n acc) acc) 'nil (bag eqv-comparator)) ; expect: nil
(define semantics (bag eqv-comparator 1 2))
(bag-adjoin! semantics 1)
(list (bag-size semantics) (bag-unique-size semantics))       ; expect: (3 2)
(bag-size (bag-increment! semantics 1 3))                     ; expect: 6
(bag? (bag-decrement! semantics 1 2))                         ; expect: #t
(bag-element-count semantics 1)                               ; expect: 3
(bag-element-count (bag-decrement! semantics 1 10) 1)         ; expect: 0
(bag-contains? semantics 1)                                   ; expect: #f
(bag-element-count (bag-increment! semantics 7 2) 7)          ; expect: 2
(bag-increment! semantics 1 1.5)                              ; expect error: type: bad argument #3 to 'bag-increment!' (exact integer expected
(bag-increment! (bag (make-comparator integer? = < number-hash)) 'x 1)  ; expect error: user: bag-increment!: the bag's comparator does not accept this element
(define multi (bag eqv-comparator 1 2 2 3 3 3))
(define single-set (set eqv-comparator 1 2 3))
(set=? single-set (bag->set multi))                           ; expect: #t
(set? (bag->set multi))                                       ; expect: #t
(bag=? (bag eqv-comparator 1 2 3) (set->bag single-set))      ; expect: #t
(bag=? multi (set->bag single-set))                           ; expect: #f
(let ((b (bag eqv-comparator 'a 'a))) (set->bag! b single-set) (list (bag-size b) (bag-element-count b 'a) (bag-element-count b 2)))  ; expect: (5 2 1)
(set->bag! (bag eq-comparator) single-set)                    ; expect error: user: set->bag!: the bags have different comparators
(set->bag multi)                                              ; expect error: type: bad argument #1 to 'set->bag' (set expected
(bag->alist (bag eqv-comparator 'a 'a))                       ; expect: ((a . 2))
(bag=? (bag eqv-comparator 'a 'a 'b) (alist->bag eqv-comparator '((a . 2) (b . 1))))  ; expect: #t
(bag-size (alist->bag eqv-comparator '((a . 0))))             ; expect: 0
(alist->bag eqv-comparator '((a . x)))                        ; expect error: type: bad argument #2 to 'alist->bag'

;;; Comparators: sets of sets, bags of bags, and the default comparator
(define sos (set set-comparator (set equal-comparator '(2 . 1) '(1 . 1) '(0 . 2)) (set equal-comparator '(0 . 2) '(2 . 1) '(1 . 1))))
(set-size sos)                                                ; expect: 1
(bag-size (bag bag-comparator (bag eqv-comparator 1 2) (bag eqv-comparator 2 1)))  ; expect: 2
(bag-unique-size (bag bag-comparator (bag eqv-comparator 1 2) (bag eqv-comparator 2 1)))  ; expect: 1
(set-size (set bag-comparator (bag eqv-comparator 1 1) (bag eqv-comparator 1)))  ; expect: 2
(define a (set eqv-comparator 1 2 3))
(define aa (bag eqv-comparator 1 2 3))
(list (=? set-comparator a (set eqv-comparator 1 2 4)) (=? set-comparator a (set-copy a)))  ; expect: (#f #t)
(list (=? bag-comparator aa (bag eqv-comparator 1 2 4)) (=? bag-comparator aa (bag-copy aa)))  ; expect: (#f #t)
(= (comparator-hash set-comparator a) (comparator-hash set-comparator (set eqv-comparator 3 2 1)))  ; expect: #t
(list (comparator-ordered? set-comparator) (comparator-hashable? set-comparator) (comparator-test-type set-comparator aa))  ; expect: (#f #t #f)
(list (comparator-ordered? bag-comparator) (comparator-test-type bag-comparator aa))  ; expect: (#f #t)
(<? set-comparator a a)                                       ; expect error: user
(<? bag-comparator aa aa)                                     ; expect error: user
(=? set-comparator a (set num-c 1 2 3))                       ; expect error: user: different comparators
(list (=? (make-default-comparator) a aa) (=? (make-default-comparator) a (set-copy a)))  ; expect: (#f #t)
;; Sets and bags are disjoint from the other types.
(map (lambda (x) (list (set? x) (bag? x) (vector? x) (pair? x) (procedure? x))) (list a aa))  ; expect: ((#t #f #f #f #f) (#f #t #f #f #f))
