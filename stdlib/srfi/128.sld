;;; (srfi 128): comparators (SRFI 128), with SRFI 162's standard comparators.
;;;
;;; A comparator is a record of four procedures. The hash functions of the
;;; standard types are TypeScript (primitives/srfi/hash-tables.ts, shared
;;; with the hash tables of (srfi 125) and (srfi 69)); the default comparator
;;; orders the types: () < pairs < booleans < characters < strings < symbols
;;; < numbers < vectors < bytevectors < registered types < anything else.
(define-library (srfi 128)
  (import (scheme base) (scheme case-lambda) (scheme char)
          (only (nodwyn primitives srfi 125) boolean-hash char-hash char-ci-hash string-hash string-ci-hash
                symbol-hash number-hash %structural-hash)
          (prefix (nodwyn primitives srfi support) %))
  (export comparator? comparator-ordered? comparator-hashable?
          make-comparator make-pair-comparator make-list-comparator make-vector-comparator
          make-eq-comparator make-eqv-comparator make-equal-comparator
          boolean-hash char-hash char-ci-hash string-hash string-ci-hash symbol-hash number-hash
          make-default-comparator default-hash comparator-register-default!
          comparator-type-test-predicate comparator-equality-predicate
          comparator-ordering-predicate comparator-hash-function
          comparator-test-type comparator-check-type comparator-hash
          hash-bound hash-salt
          =? <? >? <=? >=?
          comparator-if<=>
          ;; SRFI 162's standard comparators and extrema
          default-comparator boolean-comparator real-comparator char-comparator char-ci-comparator
          string-comparator string-ci-comparator list-comparator vector-comparator
          eq-comparator eqv-comparator equal-comparator
          comparator-max comparator-min comparator-max-in-list comparator-min-in-list)
  (begin

    ;; A comparator: comparator? is true of it; comparator-type-test-predicate, comparator-equality-predicate,
    ;; comparator-ordering-predicate and comparator-hash-function give its procedures; comparator-ordered? and
    ;; comparator-hashable? say whether it was given an ordering and a hash function.
    (define-record-type comparator
      (%make-comparator type-test equality ordering hash ordered? hashable?)
      comparator?
      (type-test comparator-type-test-predicate)
      (equality comparator-equality-predicate)
      (ordering comparator-ordering-predicate)
      (hash comparator-hash-function)
      (ordered? comparator-ordered?)
      (hashable? comparator-hashable?))

    (define (check-procedure who n x) (if (not (procedure? x)) (%arg-error who n "procedure" x)))
    (define (check-comparator who n x) (if (not (comparator? x)) (%arg-error who n "comparator" x)))

    ;; (make-comparator type-test equality ordering hash): A comparator of the four procedures. ordering or hash may
    ;; be #f: the comparator is then not ordered (not hashable), and calling the missing procedure is an error.
    ;; As in the sample implementation, type-test may be #t (every object) and equality #t (derived from ordering).
    (define (make-comparator type-test equality ordering hash)
      (let ((type-test (if (eq? type-test #t) (lambda (x) #t) type-test))
            (equality (if (eq? equality #t)
                          (lambda (a b) (and (not (ordering a b)) (not (ordering b a))))
                          equality)))
        (check-procedure 'make-comparator 1 type-test)
        (check-procedure 'make-comparator 2 equality)
        (if ordering (check-procedure 'make-comparator 3 ordering))
        (if hash (check-procedure 'make-comparator 4 hash))
        (%make-comparator type-test equality
                          (or ordering (lambda (a b) (error "comparator has no ordering predicate" a b)))
                          (or hash (lambda (x . _) (error "comparator has no hash function" x)))
                          (if ordering #t #f) (if hash #t #f))))

    ;; (hash-bound): Every hash this library computes is below it (2^32).
    (define-syntax hash-bound (syntax-rules () ((_) 4294967296)))
    ;; (hash-salt): 0: hashes are the same in every run, so a session replays the same.
    (define-syntax hash-salt (syntax-rules () ((_) 0)))

    (define (combine h x) (modulo (+ (* h 31) x) 4294967296))

    ;; (make-pair-comparator car-comparator cdr-comparator): Pairs compared by car, then by cdr.
    (define (make-pair-comparator ca cd)
      (check-comparator 'make-pair-comparator 1 ca)
      (check-comparator 'make-pair-comparator 2 cd)
      (make-comparator
       (lambda (x) (and (pair? x) (comparator-test-type ca (car x)) (comparator-test-type cd (cdr x))))
       (lambda (a b) (and ((comparator-equality-predicate ca) (car a) (car b))
                          ((comparator-equality-predicate cd) (cdr a) (cdr b))))
       (lambda (a b) (if ((comparator-equality-predicate ca) (car a) (car b))
                         ((comparator-ordering-predicate cd) (cdr a) (cdr b))
                         ((comparator-ordering-predicate ca) (car a) (car b))))
       (lambda (x . _) (combine (comparator-hash ca (car x)) (comparator-hash cd (cdr x))))))

    ;; (make-list-comparator element-comparator type-test empty? head tail): Sequences in lexicographic order, the
    ;; empty one first.
    (define (make-list-comparator ec type-test empty? head tail)
      (check-comparator 'make-list-comparator 1 ec)
      (let ((elt= (comparator-equality-predicate ec)) (elt< (comparator-ordering-predicate ec)))
        (make-comparator
         (lambda (x) (and (type-test x)
                          (let loop ((x x)) (or (empty? x) (and (comparator-test-type ec (head x)) (loop (tail x)))))))
         (lambda (a b) (let loop ((a a) (b b))
                         (cond ((empty? a) (empty? b))
                               ((empty? b) #f)
                               (else (and (elt= (head a) (head b)) (loop (tail a) (tail b)))))))
         (lambda (a b) (let loop ((a a) (b b))
                         (cond ((empty? a) (not (empty? b)))
                               ((empty? b) #f)
                               ((elt= (head a) (head b)) (loop (tail a) (tail b)))
                               (else (elt< (head a) (head b))))))
         (lambda (x . _) (let loop ((x x) (h 17)) (if (empty? x) h (loop (tail x) (combine h (comparator-hash ec (head x))))))))))

    ;; (make-vector-comparator element-comparator type-test length ref): Vectors, the shorter first, then by
    ;; elements in order.
    (define (make-vector-comparator ec type-test len ref)
      (check-comparator 'make-vector-comparator 1 ec)
      (let ((elt= (comparator-equality-predicate ec)) (elt< (comparator-ordering-predicate ec)))
        (make-comparator
         (lambda (x) (and (type-test x)
                          (let ((n (len x))) (let loop ((i 0)) (or (= i n) (and (comparator-test-type ec (ref x i)) (loop (+ i 1))))))))
         (lambda (a b) (let ((n (len a)))
                         (and (= n (len b))
                              (let loop ((i 0)) (or (= i n) (and (elt= (ref a i) (ref b i)) (loop (+ i 1))))))))
         (lambda (a b) (let ((n (len a)) (m (len b)))
                         (cond ((< n m) #t)
                               ((> n m) #f)
                               (else (let loop ((i 0))
                                       (cond ((= i n) #f)
                                             ((elt= (ref a i) (ref b i)) (loop (+ i 1)))
                                             (else (elt< (ref a i) (ref b i)))))))))
         (lambda (x . _) (let ((n (len x))) (let loop ((i 0) (h n)) (if (= i n) h (loop (+ i 1) (combine h (comparator-hash ec (ref x i)))))))))))

    ;; Registered comparators, in registration order.
    (define registered '())

    ;; (comparator-register-default! comparator): The default comparator uses comparator for the objects its type
    ;; test accepts (which must be none of the standard types).
    (define (comparator-register-default! c)
      (check-comparator 'comparator-register-default! 1 c)
      (set! registered (append registered (list c))))

    (define (type-rank x)
      (cond ((null? x) 0) ((pair? x) 1) ((boolean? x) 2) ((char? x) 3) ((string? x) 4) ((symbol? x) 5)
            ((number? x) 6) ((vector? x) 7) ((bytevector? x) 8)
            (else (let loop ((cs registered) (i 9))
                    (cond ((null? cs) 1000)
                          ((comparator-test-type (car cs) x) i)
                          (else (loop (cdr cs) (+ i 1))))))))

    (define (registered-at rank) (list-ref registered (- rank 9)))

    (define (default=? a b)
      (let ((ra (type-rank a)))
        (and (= ra (type-rank b))
             (case ra
               ((0) #t)
               ((1) (and (default=? (car a) (car b)) (default=? (cdr a) (cdr b))))
               ((2) (eq? a b))
               ((3) (char=? a b))
               ((4) (string=? a b))
               ((5) (eq? a b))
               ((6) (= a b))
               ((7) (let ((n (vector-length a)))
                      (and (= n (vector-length b))
                           (let loop ((i 0)) (or (= i n) (and (default=? (vector-ref a i) (vector-ref b i)) (loop (+ i 1))))))))
               ((8) (equal? a b))
               ((1000) (eqv? a b))
               (else ((comparator-equality-predicate (registered-at ra)) a b))))))

    (define (default<? a b)
      (let ((ra (type-rank a)) (rb (type-rank b)))
        (cond ((< ra rb) #t)
              ((> ra rb) #f)
              (else
               (case ra
                 ((0) #f)
                 ((1) (if (default=? (car a) (car b)) (default<? (cdr a) (cdr b)) (default<? (car a) (car b))))
                 ((2) (and (not a) b))
                 ((3) (char<? a b))
                 ((4) (string<? a b))
                 ((5) (string<? (symbol->string a) (symbol->string b)))
                 ((6) (< a b))
                 ((7 8) (let* ((len (if (= ra 7) vector-length bytevector-length))
                               (ref (if (= ra 7) vector-ref bytevector-u8-ref))
                               (n (len a)) (m (len b)))
                          (cond ((< n m) #t)
                                ((> n m) #f)
                                (else (let loop ((i 0))
                                        (cond ((= i n) #f)
                                              ((default=? (ref a i) (ref b i)) (loop (+ i 1)))
                                              (else (default<? (ref a i) (ref b i)))))))))
                 ((1000) #f)
                 (else ((comparator-ordering-predicate (registered-at ra)) a b)))))))

    ;; (default-hash obj): The default comparator's hash: boolean-hash, char-hash, string-hash, symbol-hash and
    ;; number-hash on those types, the elements' hashes combined on pairs and vectors, a registered comparator's
    ;; hash on its type.
    (define (default-hash obj . _)
      (if (null? registered)
          (%structural-hash obj)
          (let ((r (type-rank obj)))
            (cond ((= r 1) (combine (default-hash (car obj)) (default-hash (cdr obj))))
                  ((= r 7) (let ((n (vector-length obj)))
                             (let loop ((i 0) (h n)) (if (= i n) h (loop (+ i 1) (combine h (default-hash (vector-ref obj i))))))))
                  ((and (>= r 9) (< r 1000)) (comparator-hash (registered-at r) obj))
                  (else (%structural-hash obj))))))

    (define the-default-comparator (make-comparator (lambda (x) #t) default=? default<? default-hash))

    ;; (make-default-comparator): The comparator of every Scheme value (see the library's header for the order).
    (define (make-default-comparator) the-default-comparator)

    (define eq-c (make-comparator (lambda (x) #t) eq? default<? default-hash))
    (define eqv-c (make-comparator (lambda (x) #t) eqv? default<? default-hash))
    (define equal-c (make-comparator (lambda (x) #t) equal? default<? default-hash))
    ;; (make-eq-comparator): Any values, equal when eq?, ordered as the default comparator orders them, default-hash.
    (define (make-eq-comparator) eq-c)
    ;; (make-eqv-comparator): Any values, equal when eqv?.
    (define (make-eqv-comparator) eqv-c)
    ;; (make-equal-comparator): Any values, equal when equal?.
    (define (make-equal-comparator) equal-c)

    ;; (comparator-test-type comparator obj): The type test's answer on obj.
    (define (comparator-test-type c obj)
      (check-comparator 'comparator-test-type 1 c)
      ((comparator-type-test-predicate c) obj))

    ;; (comparator-check-type comparator obj): #t when the type test accepts obj, else an error.
    (define (comparator-check-type c obj)
      (if (comparator-test-type c obj) #t (%arg-error 'comparator-check-type 2 "object of the comparator's type" obj)))

    ;; (comparator-hash comparator obj): The hash function's result on obj.
    (define (comparator-hash c obj)
      (check-comparator 'comparator-hash 1 c)
      ((comparator-hash-function c) obj))

    (define (chain who rel)
      (lambda (c a b . rest)
        (check-comparator who 1 c)
        (let loop ((a a) (b b) (rest rest))
          (and (rel c a b) (or (null? rest) (loop b (car rest) (cdr rest)))))))

    (define (c=? c a b) ((comparator-equality-predicate c) a b))
    (define (c<? c a b) ((comparator-ordering-predicate c) a b))

    ;; (=? comparator obj1 obj2 obj3 ...): True when each object is equal to the next in the comparator's sense.
    (define =? (chain '=? c=?))
    ;; (<? comparator obj1 obj2 obj3 ...): True when each object precedes the next.
    (define <? (chain '<? c<?))
    ;; (>? comparator obj1 obj2 obj3 ...): True when each object follows the next.
    (define >? (chain '>? (lambda (c a b) (c<? c b a))))
    ;; (<=? comparator obj1 obj2 obj3 ...): True when no object follows the next.
    (define <=? (chain '<=? (lambda (c a b) (not (c<? c b a)))))
    ;; (>=? comparator obj1 obj2 obj3 ...): True when no object precedes the next.
    (define >=? (chain '>=? (lambda (c a b) (not (c<? c a b)))))

    ;; (comparator-if<=> [comparator] obj1 obj2 less-than equal-to greater-than): Evaluates less-than, equal-to or
    ;; greater-than as obj1 precedes, equals or follows obj2 (the default comparator when none is given).
    (define-syntax comparator-if<=>
      (syntax-rules ()
        ((_ a b less equal greater) (comparator-if<=> the-default-comparator a b less equal greater))
        ((_ c a b less equal greater)
         (let ((cmp c) (x a) (y b))
           (cond ((<? cmp x y) less) ((=? cmp x y) equal) (else greater))))))

    ;; default-comparator: SRFI 162's name of (make-default-comparator).
    (define default-comparator the-default-comparator)
    ;; boolean-comparator: Booleans, #f before #t (SRFI 162).
    (define boolean-comparator (make-comparator boolean? eq? (lambda (a b) (and (not a) b)) boolean-hash))
    ;; real-comparator: Real numbers with = and < (SRFI 162).
    (define real-comparator (make-comparator real? = < number-hash))
    ;; char-comparator: Characters with char=? and char<? (SRFI 162).
    (define char-comparator (make-comparator char? char=? char<? char-hash))
    ;; char-ci-comparator: Characters, case folded (SRFI 162).
    (define char-ci-comparator (make-comparator char? char-ci=? char-ci<? char-ci-hash))
    ;; string-comparator: Strings with string=? and string<? (SRFI 162).
    (define string-comparator (make-comparator string? string=? string<? string-hash))
    ;; string-ci-comparator: Strings, case folded (SRFI 162).
    (define string-ci-comparator (make-comparator string? string-ci=? string-ci<? string-ci-hash))
    ;; list-comparator: Lists of any values, elements by the default comparator (SRFI 162).
    (define list-comparator (make-list-comparator the-default-comparator list? null? car cdr))
    ;; vector-comparator: Vectors of any values, elements by the default comparator (SRFI 162).
    (define vector-comparator (make-vector-comparator the-default-comparator vector? vector-length vector-ref))
    ;; eq-comparator: (make-eq-comparator) (SRFI 162).
    (define eq-comparator eq-c)
    ;; eqv-comparator: (make-eqv-comparator) (SRFI 162).
    (define eqv-comparator eqv-c)
    ;; equal-comparator: (make-equal-comparator) (SRFI 162).
    (define equal-comparator equal-c)

    ;; (comparator-max comparator obj1 obj2 ...): The greatest object (SRFI 162).
    (define (comparator-max c x . xs) (comparator-max-in-list c (cons x xs)))
    ;; (comparator-min comparator obj1 obj2 ...): The least object (SRFI 162).
    (define (comparator-min c x . xs) (comparator-min-in-list c (cons x xs)))
    ;; (comparator-max-in-list comparator list): The greatest element of a non-empty list (SRFI 162).
    (define (comparator-max-in-list c xs)
      (let loop ((best (car xs)) (xs (cdr xs)))
        (if (null? xs) best (loop (if (<? c best (car xs)) (car xs) best) (cdr xs)))))
    ;; (comparator-min-in-list comparator list): The least element of a non-empty list (SRFI 162).
    (define (comparator-min-in-list c xs)
      (let loop ((best (car xs)) (xs (cdr xs)))
        (if (null? xs) best (loop (if (<? c (car xs) best) (car xs) best) (cdr xs)))))))
