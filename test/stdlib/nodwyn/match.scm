;;; (nodwyn match): every kind of pattern, the binding forms, failure, and JSON as SRFI 180 reads it.
(import (scheme base) (scheme write) (nodwyn match) (srfi 180))

;; Literals: numbers, strings, characters, booleans, (), quoted data; compared with equal?.
(match 1 (1 'one) (_ 'other))                                  ; expect: one
(match 2 (1 'one) (_ 'other))                                  ; expect: other
(match "abc" ("abc" 'str) (_ 'no))                             ; expect: str
(match (string #\a) ("a" 'fresh-string) (_ 'no))               ; expect: fresh-string
(match #\x (#\x 'char) (_ 'no))                                ; expect: char
(match #f (#t 'true) (#f 'false))                              ; expect: false
(match '() (() 'empty) (_ 'no))                                ; expect: empty
(match '(1) (() 'empty) (_ 'no))                               ; expect: no
(match 'sym ('sym 'yes) (_ 'no))                               ; expect: yes
(match 'other ('sym 'yes) (_ 'no))                             ; expect: no
(match '(a (b c)) ('(a (b c)) 'whole) (_ 'no))                 ; expect: whole
(match 1.5 (1.5 'flonum) (_ 'no))                              ; expect: flonum

;; _ matches anything and binds nothing; a variable binds.
(match '(1 2) (_ 'any))                                        ; expect: any
(match 42 (x (+ x 1)))                                         ; expect: 43

;; Lists and improper lists.
(match '(1 2 3) ((a b c) (list c b a)))                        ; expect: (3 2 1)
(match '(1 2 3) ((a b) 'two) ((a b c d) 'four) (_ 'three))     ; expect: three
(match '(1 2 3) ((a . b) (list a b)))                          ; expect: (1 (2 3))
(match '(1 2 . 3) ((a b . c) (list a b c)))                    ; expect: (1 2 3)
(match '(1 2) ((a b . c) c))                                   ; expect: ()
(match 5 ((a . b) 'pair) (_ 'not-pair))                        ; expect: not-pair
(match '(hello (world)) (('hello (who)) who))                  ; expect: world
(match '(1 (2 (3 (4)))) ((a (b (c (d)))) (+ a b c d)))         ; expect: 10

;; Vectors.
(match #(1 2 3) (#(a b c) (+ a b c)))                          ; expect: 6
(match #(1 2) (#(a b c) 'three) (#(a b) 'two))                 ; expect: two
(match '(1 2) (#(a b) 'vector) (_ 'list))                      ; expect: list
(match #() (#() 'empty))                                       ; expect: empty
(match #(1 2 3 4) (#(a b ...) (list a b)))                     ; expect: (1 (2 3 4))
(match #(1 2 3 4) (#(a ... z) (list a z)))                     ; expect: ((1 2 3) 4)

;; Ellipses: ... and ___, zero or more; tail patterns after them; nested.
(match '(1 2 3) ((x ...) x))                                   ; expect: (1 2 3)
(match '() ((x ...) x))                                        ; expect: ()
(match '(1 2 3) ((x ___) x))                                   ; expect: (1 2 3)
(match '(1 2 3 4 5) ((a ... b c) (list a b c)))                ; expect: ((1 2 3) 4 5)
(match '(1 2) ((a ... b c) (list a b c)))                      ; expect: (() 1 2)
(match '(1) ((a ... b c) 'matched) (_ 'too-short))             ; expect: too-short
(match '(0 1 2 3) ((first rest ...) (list first rest)))        ; expect: (0 (1 2 3))
(match '((a . 1) (b . 2)) (((k . v) ...) (list k v)))          ; expect: ((a b) (1 2))
(match '((1 2) (3 4 5) ()) (((x ...) ...) x))                  ; expect: ((1 2) (3 4 5) ())
(match '(1 (2 4) (3 5)) ((a (b c) ...) (list a b c)))          ; expect: (1 (2 3) (4 5))
(match '(let ((x 1) (y 2)) (+ x y))
  (('let ((names vals) ...) body ...) (list names vals body))) ; expect: ((x y) (1 2) ((+ x y)))
;; Each element must match the pattern before the ellipsis.
(match '(1 2 x) (((? number? n) ...) n) (_ 'not-all-numbers))  ; expect: not-all-numbers
(match '(1 2 3) (((? number? n) ...) n))                       ; expect: (1 2 3)
;; An ellipsis pattern needs a proper list; a dotted tail pattern takes what is left.
(match '(1 2 . 3) ((a ...) a) (_ 'improper))                   ; expect: improper
(match '(1 2 3 . 4) ((a ... . t) (list a t)))                  ; expect: ((1 2 3) 4)
(match '(1 2 3 . 4) ((a ... b . t) (list a b t)))              ; expect: ((1 2) 3 4)
(let ((c (list 1 2))) (set-cdr! (cdr c) c) (match c ((a ...) 'list) (_ 'circular)))  ; expect: circular

;; ..1 is one or more, ..k k or more.
(match '(1 2 3) ((a ..1) a))                                   ; expect: (1 2 3)
(match '() ((a ..1) a) (_ 'none))                              ; expect: none
(match '(1 2 3 4) ((a ..3) a) (_ 'short))                      ; expect: (1 2 3 4)
(match '(1 2) ((a ..3) a) (_ 'short))                          ; expect: short
(match '(x 1 2 y) (('x n ..1 'y) n))                           ; expect: (1 2)

;; Quasi-patterns: literal structure, with unquote (and a final unquote-splicing) for patterns.
(match '(1 2) (`(1 ,x) x))                                     ; expect: 2
(match '(add 1 2) (`(add ,a ,b) (+ a b)))                      ; expect: 3
(match '(sub 1 2) (`(add ,a ,b) 'add) (_ 'other))              ; expect: other
(match '(1 2 3) (`(1 ,@rest) rest))                            ; expect: (2 3)
(match '(f 1 2 3) (`(f ,xs ...) xs))                           ; expect: (1 2 3)
(match '(f #(1 2)) (`(f #(,a ,b)) (list a b)))                 ; expect: (1 2)
(match '(a _) (`(a _) 'literal-underscore) (_ 'no))            ; expect: literal-underscore
(match '(a b) (`(a _) 'literal-underscore) (_ 'no))            ; expect: no

;; ? (predicate, then patterns), = (field accessor), and, or, not.
(match 5 ((? string? s) s) ((? number? n) (* n 2)))            ; expect: 10
(match 4 ((? even? (? positive?) x) (list 'even-positive x)))  ; expect: (even-positive 4)
(match -4 ((? even? (? positive?)) 'even-positive) (_ 'no))    ; expect: no
(match "abc" ((= string-length n) n))                          ; expect: 3
(match '(1 2 3) ((= length (? odd?)) 'odd-length) (_ 'even))   ; expect: odd-length
(match '((k . 7)) ((= (lambda (al) (assq 'k al)) (_ . v)) v))  ; expect: 7
(match 5 ((and) 'empty-and))                                   ; expect: empty-and
(match 5 ((and (? number?) x) x))                              ; expect: 5
(match '(1 2) ((and (a b) whole) (list a b whole)))            ; expect: (1 2 (1 2))
(match 5 ((or) 'never) (_ 'empty-or-fails))                    ; expect: empty-or-fails
(match 3 ((or 1 2) 'small) ((or 3 4) 'mid))                    ; expect: mid
(match '(b 9) ((or ('a x) ('b x)) x))                          ; expect: 9
(match '(2 1) ((or (a 1) (1 a)) a))                            ; expect: 2
;; A variable of one alternative that the matching alternative does not bind is #f.
(match '(3 4) ((or (a b) (a)) (list a b)))                     ; expect: (3 4)
(match '(3) ((or (a b) (a)) (list a b)))                       ; expect: (3 #f)
(match 5 ((not 4) 'not-four))                                  ; expect: not-four
(match 4 ((not 4) 'not-four) (_ 'four))                        ; expect: four
(match 'c ((not 'a 'b) 'neither) (_ 'one-of))                  ; expect: neither
(match 'b ((not 'a 'b) 'neither) (_ 'one-of))                  ; expect: one-of
(match '(1 2 3) ((not (_ _)) 'not-two))                        ; expect: not-two

;; $: R7RS records, fields by position in define-record-type's order.
(define-record-type point (make-point x y) point? (x point-x) (y point-y set-point-y!))
(define-record-type other (make-other a) other? (a other-a))
(match (make-point 1 2) (($ point a b) (list a b)))            ; expect: (1 2)
(match (make-point 1 2) (($ point a) a))                       ; expect: 1
(match (make-point 1 2) (($ point 1 b) b) (_ 'no))             ; expect: 2
(match (make-point 0 2) (($ point 1 b) b) (_ 'no))             ; expect: no
(match (make-other 1) (($ point a b) 'point) (($ other a) (list 'other a)))  ; expect: (other 1)
(match '(1 2) (($ point a b) 'point) (_ 'not-a-record))        ; expect: not-a-record
(match (make-point (make-point 1 2) 3) (($ point ($ point a b) c) (list a b c)))  ; expect: (1 2 3)
(match (make-point 1 2) (($ point a b c) c))                   ; expect error: range: record type point has 2 fields

;; set! and get!: a setter and a getter of the matched place.
(let ((p (list 1 2))) (match p ((a (set! s)) (s 9))) p)        ; expect: (1 9)
(let ((p (list 1 2))) (match p (((set! s) . _) (s 'x))) p)     ; expect: (x 2)
(let ((p (list 1 2))) (match p ((_ (get! g)) (set-car! (cdr p) 5) (g))))  ; expect: 5
(let ((r (make-point 1 2))) (match r (($ point _ (set! s)) (s 20))) (point-y r))  ; expect: 20

;; A variable repeated in a pattern must match equal? values each time.
(match '(1 1) ((a a) 'same) ((a b) 'diff))                     ; expect: same
(match '(1 2) ((a a) 'same) ((a b) 'diff))                     ; expect: diff
(match '((1 2) (1 2)) ((a a) a) (_ 'no))                       ; expect: (1 2)
(match '(x x x) ((a a ...) 'all-same) (_ 'no))                 ; expect: all-same
(match '(x x y) ((a a ...) 'all-same) (_ 'no))                 ; expect: no
(match '(1 1) ((a (and b a)) b) (_ 'no))                       ; expect: 1
(match '(1 2) ((a (and b a)) b) (_ 'no))                       ; expect: no

;; (=> fail): the body may give up and let the next clauses try.
(match 1 (x (=> fail) (if (= x 1) (fail) 'kept)) (_ 'fallback))          ; expect: fallback
(match 2 (x (=> fail) (if (= x 1) (fail) 'kept)) (_ 'fallback))          ; expect: kept
(match '(1 2) ((a b) (=> next) (if (> a b) 'desc (next))) ((a b) 'asc))  ; expect: asc

;; Bodies: several forms, internal definitions, the value of the last; clauses tried in order.
(match '(2 3) ((a b) (define c (* a b)) (+ c 1)))              ; expect: 7
(match 'x (y 'first) (z 'second))                              ; expect: first
(match '(1 2) ((a b) (values a b)))                            ; expect: 1 2
;; The expression is evaluated once.
(let ((n 0)) (match (begin (set! n (+ n 1)) '(1 2)) ((a) 'one) ((a b c) 'three) (_ n)))  ; expect: 1

;; No match is an error naming the value.
(match 7 (1 'one))                                             ; expect error: user: match: no pattern matched: 7
(match '(1 2) ((a) a))                                         ; expect error: user: match: no pattern matched: (1 2)
(guard (e ((error-object? e) (list (error-object-message e) (error-object-irritants e)))) (match 'v ('w 1)))  ; expect: ("match: no pattern matched" (v))

;; Hygiene: the user's names do not capture match's own, nor the reverse.
(let ((equal? #f) (car #f) (pair? #f) (null? #f) (v 'user-v) (next 'user-next) (loop 'user-loop) (reverse #f))
  (match '(1 (2 3) 4) ((a (b ...) c) `(,a ,b ,c ,v ,next ,loop)))) ; expect: (1 (2 3) 4 user-v user-next user-loop)
(define-syntax first-of
  (syntax-rules () ((_ e) (match e ((x . y) x)))))
(let ((x 'outer)) (first-of (list x 2)))                       ; expect: outer
(define-syntax pair-same?
  (syntax-rules () ((_ e body) (match e ((tmp tmp) body) (_ 'no)))))
(let ((tmp 'user)) (pair-same? '(1 1) tmp))                    ; expect: user

;; Tail position: a loop of match calls runs in constant space.
(define (count-down n) (match n (0 'done) (_ (count-down (- n 1)))))
(count-down 100000)                                            ; expect: done

;; match-lambda and match-lambda*.
((match-lambda ((a b) (+ a b)) ((a) a)) '(1 2))                ; expect: 3
((match-lambda ((a b) (+ a b)) ((a) a)) '(5))                  ; expect: 5
((match-lambda (('hello (who)) who)) '(hello (world)))         ; expect: world
((match-lambda* ((a b) (+ a b)) ((a) (- a))) 1 2)              ; expect: 3
((match-lambda* ((a b) (+ a b)) ((a) (- a))) 1)                ; expect: -1
((match-lambda* ((a b ...) b)))                                ; expect error: user: match: no pattern matched: ()

;; match-let, match-let*, match-letrec, named match-let.
(match-let (((a b) '(1 2)) (c 3)) (list a b c))                ; expect: (1 2 3)
(match-let () 'no-bindings)                                    ; expect: no-bindings
(let ((a 10)) (match-let ((a 1) (b a)) (list a b)))            ; expect: (1 10)
(match-let* (((a b) '(1 2)) ((c) (list (+ a b)))) (list a b c)) ; expect: (1 2 3)
(match-let* () 'no-bindings)                                   ; expect: no-bindings
(match-let (((a b) '(1))) a)                                   ; expect error: user: match: no pattern matched
(match-let loop (((a . b) '(1 2 3)) (acc 0)) (if (null? b) (+ a acc) (loop b (+ a acc))))  ; expect: 6
(match-letrec (((ev? od?) (list (lambda (n) (if (= n 0) #t (od? (- n 1))))
                                 (lambda (n) (if (= n 0) #f (ev? (- n 1)))))))
  (list (ev? 10) (od? 7)))                                     ; expect: (#t #t)
(match-letrec ((#(f) (vector (lambda (n) (if (= n 0) 1 (* n (f (- n 1))))))) (k 4)) (f k))  ; expect: 24

;; JSON as (srfi 180) reads it: objects are alists with symbol keys, arrays vectors, null the symbol null.
(define call (json-read (open-input-string "{\"name\": \"ls\", \"args\": [\"-l\", \"/tmp\"], \"ok\": true, \"n\": null}")))
(match call ((('name . name) ('args . #(args ...)) . _) (list name args)))  ; expect: ("ls" ("-l" "/tmp"))
(match call ((('name . (? string? name)) _ ('ok . #t) ('n . 'null)) name))  ; expect: "ls"
(define (field key obj) (match (assq key obj) ((_ . v) v) (#f #f)))
(field 'args call)                                             ; expect: #("-l" "/tmp")
(field 'missing call)                                          ; expect: #f
(define results (json-read (open-input-string "[{\"path\": \"a.ts\", \"line\": 3}, {\"path\": \"b.ts\", \"line\": 9}]")))
(match results (#(((_ . paths) (_ . lines)) ...) (list paths lines)))  ; expect: (("a.ts" "b.ts") (3 9))
(match (json-read (open-input-string "{\"error\": {\"code\": 404}}"))
  ((('result . r)) r)
  ((('error . (('code . (? integer? c))))) (list 'error c)))   ; expect: (error 404)
(match (json-read (open-input-string "[]")) (#() 'empty-array)) ; expect: empty-array
(match (json-read (open-input-string "{}")) (() 'empty-object)) ; expect: empty-object
