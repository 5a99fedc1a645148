;;; (srfi 125): hash tables over SRFI 128's comparators (SRFI 125); (srfi 69) is a view of the same tables.
;;;
;;; A table made with eq?, eqv?, equal?, string=? or string-ci=? (as a
;;; comparator's equality predicate or given alone) runs in TypeScript
;;; (primitives/srfi/hash-tables.ts), which uses its own hash for them, as the
;;; document allows. Any other comparator is run here: its hash function picks
;;; the bucket, its equality predicate the entry.
(define-library (srfi 125)
  (import (scheme base) (scheme case-lambda) (scheme char) (srfi 128)
          (nodwyn primitives srfi 125)
          (prefix (nodwyn primitives srfi support) %))
  (export make-hash-table hash-table hash-table-unfold alist->hash-table
          hash-table? hash-table-contains? hash-table-exists? hash-table-empty? hash-table=? hash-table-mutable?
          hash-table-ref hash-table-ref/default
          hash-table-set! hash-table-delete! hash-table-intern! hash-table-update! hash-table-update!/default
          hash-table-pop! hash-table-clear!
          hash-table-size hash-table-keys hash-table-values hash-table-entries hash-table-find hash-table-count
          hash-table-map hash-table-for-each hash-table-walk hash-table-map! hash-table-map->list
          hash-table-fold hash-table-prune!
          hash-table-copy hash-table-empty-copy hash-table->alist
          hash-table-union! hash-table-merge! hash-table-intersection! hash-table-difference! hash-table-xor!
          hash string-hash string-ci-hash hash-by-identity
          hash-table-equivalence-function hash-table-hash-function)
  (begin

    (define (check-procedure who n x) (if (not (procedure? x)) (%arg-error who n "procedure" x)))
    (define (check-table who n x) (if (not (hash-table? x)) (%arg-error who n "hash table" x)))

    ;; The kind of table an equality predicate makes, #f for one nodwyn does not know.
    (define (kind-of equality)
      (cond ((eq? equality eq?) 'eq)
            ((eq? equality eqv?) 'eqv)
            ((eq? equality equal?) 'equal)
            ((eq? equality string=?) 'string)
            ((eq? equality string-ci=?) 'string-ci)
            ;; Extensions the document allows: on their types these are eq? and eqv?.
            ((eq? equality symbol=?) 'eq)
            ((eq? equality char=?) 'eqv)
            (else #f)))

    ;; Makes a table from make-hash-table's arguments: a comparator, or an equality predicate and maybe a hash function.
    ;; The other arguments (a capacity, weak-keys …) are accepted and ignored.
    (define (new-table who spec args)
      (cond ((comparator? spec)
             (let* ((eqp (comparator-equality-predicate spec)) (kind (kind-of eqp)))
               (cond (kind (%make-hash-table kind spec eqp #f))
                     ((comparator-hashable? spec) (%make-hash-table 'generic spec eqp (comparator-hash-function spec)))
                     (else (error (string-append (symbol->string who) ": the comparator has no hash function") spec)))))
            ((procedure? spec)
             (let ((kind (kind-of spec)) (hash (and (pair? args) (procedure? (car args)) (car args))))
               (cond (kind (%make-hash-table kind #f spec hash))
                     (hash (%make-hash-table 'generic #f spec hash))
                     (else (error (string-append (symbol->string who)
                                                 ": an equality predicate other than eq?, eqv?, equal?, string=? and string-ci=? needs a hash function")
                                  spec)))))
            (else (%arg-error who 1 "comparator or equality predicate" spec))))

    ;; (make-hash-table comparator arg ...) or (make-hash-table equality-predicate [hash-function] arg ...): A new
    ;; empty mutable table. With no argument (SRFI 69), keys are compared with equal?.
    (define (make-hash-table . args)
      (if (null? args)
          (%make-hash-table 'equal #f equal? #f)
          (new-table 'make-hash-table (car args) (cdr args))))

    ;; Generic tables: the comparator's hash and equality.
    (define (generic-hash t key)
      (let ((h ((hash-table-hash-function t) key)))
        (if (and (exact-integer? h) (>= h 0)) h
            (error "hash-table: the table's hash function did not return an exact non-negative integer" h key))))

    (define (generic-find t h key)
      (let ((b (%ht-bucket t h)))
        (and b
             (let ((same? (hash-table-equivalence-function t)) (n (vector-length b)))
               (let loop ((i 0))
                 (cond ((= i n) #f)
                       ((same? (car (vector-ref b i)) key) (vector-ref b i))
                       (else (loop (+ i 1)))))))))

    ;; The entry (key . value) of key, or #f.
    (define (entry t key)
      (if (%ht-generic? t) (generic-find t (generic-hash t key) key) (%ht-entry t key)))

    (define (check-key who t key)
      (let ((c (%ht-comparator t)))
        (if (and c (not (comparator-test-type c key)))
            (%arg-error who 2 "key of the table's comparator's type" key))))

    (define (set-one! who t key value)
      (if (%ht-generic? t)
          (begin
            (%ht-check-mutable who t)
            (check-key who t key)
            (let* ((h (generic-hash t key)) (e (generic-find t h key)))
              (if e (set-cdr! e value) (%ht-bucket-add! who t h key value))))
          (%ht-set! who t key value)))

    (define (delete-one! who t key)
      (if (%ht-generic? t)
          (begin
            (%ht-check-mutable who t)
            (let* ((h (generic-hash t key)) (e (generic-find t h key)))
              (if e (begin (%ht-bucket-remove! who t h e) 1) 0)))
          (%ht-delete! who t key)))

    ;; (hash-table comparator [key value] ...): A new immutable table of these associations.
    (define (hash-table comparator . kvs)
      (let ((t (new-table 'hash-table comparator '())))
        (let loop ((kvs kvs))
          (cond ((null? kvs) (%ht-freeze! t))
                ((null? (cdr kvs)) (error "hash-table: a key without a value" (car kvs)))
                (else (set-one! 'hash-table t (car kvs) (cadr kvs)) (loop (cddr kvs)))))))

    ;; (hash-table-unfold stop? mapper successor seed comparator arg ...): A new table of the keys and values mapper
    ;; returns (two values) for each seed, from seed by successor until stop?.
    (define (hash-table-unfold stop? mapper successor seed comparator . args)
      (check-procedure 'hash-table-unfold 1 stop?)
      (check-procedure 'hash-table-unfold 2 mapper)
      (check-procedure 'hash-table-unfold 3 successor)
      (let ((t (new-table 'hash-table-unfold comparator args)))
        (let loop ((seed seed))
          (if (stop? seed)
              t
              (call-with-values (lambda () (mapper seed))
                (lambda (k v) (set-one! 'hash-table-unfold t k v) (loop (successor seed))))))))

    ;; (alist->hash-table alist comparator arg ...) or (alist->hash-table alist [equality-predicate [hash-function]]):
    ;; A new table of the alist's associations; an earlier one wins over a later one with the same key.
    (define (alist->hash-table alist . args)
      (let ((t (apply make-hash-table args)))
        (let loop ((l alist))
          (cond ((null? l) t)
                ((and (pair? l) (pair? (car l)))
                 (if (not (entry t (caar l))) (set-one! 'alist->hash-table t (caar l) (cdar l)))
                 (loop (cdr l)))
                (else (%arg-error 'alist->hash-table 1 "association list" alist))))))

    ;; (hash-table-contains? hash-table key): True when key has an association.
    (define (hash-table-contains? t key) (check-table 'hash-table-contains? 1 t) (if (entry t key) #t #f))
    ;; (hash-table-exists? hash-table key): hash-table-contains? (SRFI 69's name).
    (define hash-table-exists? hash-table-contains?)

    ;; (hash-table=? value-comparator hash-table1 hash-table2): True when the tables have the same keys and each
    ;; key's values are equal in value-comparator's sense.
    (define (hash-table=? vc t1 t2)
      (check-table 'hash-table=? 2 t1)
      (check-table 'hash-table=? 3 t2)
      (and (= (hash-table-size t1) (hash-table-size t2))
           (let ((same? (comparator-equality-predicate vc)))
             (let ((es (%ht-entries t1)))
               (let loop ((i 0))
                 (or (= i (vector-length es))
                     (let* ((e (vector-ref es i)) (e2 (entry t2 (car e))))
                       (and e2 (same? (cdr e) (cdr e2)) (loop (+ i 1))))))))))

    (define (missing who t key) (error (string-append (symbol->string who) ": no such key in the hash table") key))

    ;; (hash-table-ref hash-table key [failure [success]]): key's value (given to success when there is one), else
    ;; (failure); with no failure, a missing key is an error.
    (define hash-table-ref
      (case-lambda
        ((t key)
         (check-table 'hash-table-ref 1 t)
         (let ((e (entry t key))) (if e (cdr e) (missing 'hash-table-ref t key))))
        ((t key failure)
         (check-table 'hash-table-ref 1 t)
         (let ((e (entry t key))) (if e (cdr e) (failure))))
        ((t key failure success)
         (check-table 'hash-table-ref 1 t)
         (let ((e (entry t key))) (if e (success (cdr e)) (failure))))))

    ;; (hash-table-ref/default hash-table key default): key's value, or default.
    (define (hash-table-ref/default t key default)
      (let ((v (%ht-ref-fast t key default)))
        ;; The table itself back: a generic table, looked up here (or a table that is its own key's value: the same).
        (if (eq? v t) (let ((e (entry t key))) (if e (cdr e) default)) v)))

    ;; (hash-table-set! hash-table key value ...): Sets each key's value, left to right.
    (define hash-table-set!
      (case-lambda
        ((t key value)
         (if (not (%ht-set-fast! t key value)) (set-one! 'hash-table-set! t key value)))
        ((t . kvs)
         (check-table 'hash-table-set! 1 t)
         (let loop ((kvs kvs))
           (cond ((null? kvs) (if #f #f))
                 ((null? (cdr kvs)) (error "hash-table-set!: a key without a value" (car kvs)))
                 (else (set-one! 'hash-table-set! t (car kvs) (cadr kvs)) (loop (cddr kvs))))))))

    ;; (hash-table-delete! hash-table key ...): Removes each key's association; the number of keys that had one.
    (define (hash-table-delete! t . keys)
      (check-table 'hash-table-delete! 1 t)
      (let loop ((keys keys) (n 0))
        (if (null? keys) n (loop (cdr keys) (+ n (delete-one! 'hash-table-delete! t (car keys)))))))

    ;; (hash-table-intern! hash-table key failure): key's value; when it has none, (failure) becomes its value.
    (define (hash-table-intern! t key failure)
      (check-table 'hash-table-intern! 1 t)
      (let ((e (entry t key)))
        (if e (cdr e) (let ((v (failure))) (set-one! 'hash-table-intern! t key v) v))))

    ;; (hash-table-update! hash-table key updater [failure [success]]): Sets key's value to updater of what
    ;; hash-table-ref returns.
    (define (hash-table-update! t key updater . o)
      (check-table 'hash-table-update! 1 t)
      (check-procedure 'hash-table-update! 3 updater)
      (set-one! 'hash-table-update! t key (updater (apply hash-table-ref t key o))))

    ;; (hash-table-update!/default hash-table key updater default): Sets key's value to updater of its value or default.
    (define (hash-table-update!/default t key updater default)
      (check-table 'hash-table-update!/default 1 t)
      (check-procedure 'hash-table-update!/default 3 updater)
      (set-one! 'hash-table-update!/default t key (updater (hash-table-ref/default t key default))))

    ;; (hash-table-pop! hash-table): Removes some association and returns its key and value (two values); an error
    ;; on an empty table.
    (define (hash-table-pop! t)
      (check-table 'hash-table-pop! 1 t)
      (%ht-check-mutable 'hash-table-pop! t)
      (if (= 0 (hash-table-size t)) (error "hash-table-pop!: the hash table is empty" t))
      (let ((e (vector-ref (%ht-entries t) 0)))
        (delete-one! 'hash-table-pop! t (car e))
        (values (car e) (cdr e))))

    ;; (hash-table-find proc hash-table failure): The first true result of (proc key value), else (failure).
    (define (hash-table-find proc t failure)
      (check-procedure 'hash-table-find 1 proc)
      (let ((es (%ht-entries t)))
        (let loop ((i 0))
          (if (= i (vector-length es))
              (failure)
              (or (proc (car (vector-ref es i)) (cdr (vector-ref es i))) (loop (+ i 1)))))))

    ;; (hash-table-count pred hash-table): How many associations (pred key value) is true of.
    (define (hash-table-count pred t)
      (check-procedure 'hash-table-count 1 pred)
      (let ((es (%ht-entries t)))
        (let loop ((i 0) (n 0))
          (if (= i (vector-length es)) n
              (loop (+ i 1) (if (pred (car (vector-ref es i)) (cdr (vector-ref es i))) (+ n 1) n))))))

    (define (each proc t)
      (let ((es (%ht-entries t)))
        (let loop ((i 0))
          (if (< i (vector-length es))
              (begin (proc (vector-ref es i)) (loop (+ i 1)))))))

    ;; (hash-table-map proc comparator hash-table): A new table (of comparator) of each key and proc of its value.
    (define (hash-table-map proc comparator t)
      (check-procedure 'hash-table-map 1 proc)
      (let ((out (new-table 'hash-table-map comparator '())))
        (each (lambda (e) (set-one! 'hash-table-map out (car e) (proc (cdr e)))) t)
        out))

    ;; (hash-table-for-each proc hash-table): Calls (proc key value) on each association.
    (define (hash-table-for-each proc t)
      (check-procedure 'hash-table-for-each 1 proc)
      (check-table 'hash-table-for-each 2 t)
      (each (lambda (e) (proc (car e) (cdr e))) t))

    ;; (hash-table-walk hash-table proc): hash-table-for-each with the arguments the other way round (SRFI 69).
    (define (hash-table-walk t proc) (hash-table-for-each proc t))

    ;; (hash-table-map! proc hash-table): Sets each key's value to (proc key value).
    (define (hash-table-map! proc t)
      (check-procedure 'hash-table-map! 1 proc)
      (check-table 'hash-table-map! 2 t)
      (%ht-check-mutable 'hash-table-map! t)
      (each (lambda (e) (set-cdr! e (proc (car e) (cdr e)))) t))

    ;; (hash-table-map->list proc hash-table): The list of (proc key value) of each association.
    (define (hash-table-map->list proc t)
      (check-procedure 'hash-table-map->list 1 proc)
      (check-table 'hash-table-map->list 2 t)
      (let ((es (%ht-entries t)))
        (let loop ((i (- (vector-length es) 1)) (acc '()))
          (if (< i 0) acc (loop (- i 1) (cons (proc (car (vector-ref es i)) (cdr (vector-ref es i))) acc))))))

    ;; (hash-table-fold proc seed hash-table), or (hash-table-fold hash-table proc seed) as in SRFI 69: (proc key
    ;; value acc) on each association, acc starting as seed and then the last result.
    (define (hash-table-fold a b c)
      (let-values (((proc seed t) (if (hash-table? a) (values b c a) (values a b c))))
        (check-procedure 'hash-table-fold 1 proc)
        (check-table 'hash-table-fold 3 t)
        (let ((es (%ht-entries t)))
          (let loop ((i 0) (acc seed))
            (if (= i (vector-length es)) acc
                (loop (+ i 1) (proc (car (vector-ref es i)) (cdr (vector-ref es i)) acc)))))))

    ;; (hash-table-prune! proc hash-table): Removes the associations (proc key value) is true of.
    (define (hash-table-prune! proc t)
      (check-procedure 'hash-table-prune! 1 proc)
      (check-table 'hash-table-prune! 2 t)
      (%ht-check-mutable 'hash-table-prune! t)
      (each (lambda (e) (if (proc (car e) (cdr e)) (delete-one! 'hash-table-prune! t (car e)))) t))

    ;; (hash-table-copy hash-table [mutable?]): A new table of the same comparator and associations, immutable
    ;; unless mutable? is true.
    (define (hash-table-copy t . o)
      (check-table 'hash-table-copy 1 t)
      (%ht-copy t (and (pair? o) (car o) #t) #f))

    ;; (hash-table-empty-copy hash-table): A new empty mutable table of the same comparator.
    (define (hash-table-empty-copy t)
      (check-table 'hash-table-empty-copy 1 t)
      (%ht-copy t #t #t))

    ;; (hash-table-union! hash-table1 hash-table2): Adds to hash-table1 the associations of hash-table2 whose keys it
    ;; lacks; returns hash-table1.
    (define (hash-table-union! t1 t2)
      (check-table 'hash-table-union! 1 t1)
      (check-table 'hash-table-union! 2 t2)
      (each (lambda (e) (if (not (entry t1 (car e))) (set-one! 'hash-table-union! t1 (car e) (cdr e)))) t2)
      t1)
    ;; (hash-table-merge! hash-table1 hash-table2): hash-table-union! (SRFI 69's name).
    (define hash-table-merge! hash-table-union!)

    ;; (hash-table-intersection! hash-table1 hash-table2): Removes from hash-table1 the keys hash-table2 lacks.
    (define (hash-table-intersection! t1 t2)
      (check-table 'hash-table-intersection! 1 t1)
      (check-table 'hash-table-intersection! 2 t2)
      (each (lambda (e) (if (not (entry t2 (car e))) (delete-one! 'hash-table-intersection! t1 (car e)))) t1)
      t1)

    ;; (hash-table-difference! hash-table1 hash-table2): Removes from hash-table1 the keys hash-table2 has.
    (define (hash-table-difference! t1 t2)
      (check-table 'hash-table-difference! 1 t1)
      (check-table 'hash-table-difference! 2 t2)
      (each (lambda (e) (if (entry t2 (car e)) (delete-one! 'hash-table-difference! t1 (car e)))) t1)
      t1)

    ;; (hash-table-xor! hash-table1 hash-table2): Keeps in hash-table1 the keys exactly one of the tables has, with
    ;; their values.
    (define (hash-table-xor! t1 t2)
      (check-table 'hash-table-xor! 1 t1)
      (check-table 'hash-table-xor! 2 t2)
      (each (lambda (e) (if (entry t1 (car e))
                            (delete-one! 'hash-table-xor! t1 (car e))
                            (set-one! 'hash-table-xor! t1 (car e) (cdr e))))
            t2)
      t1)

    ;; (hash obj [bound]): default-hash (SRFI 69: reduced modulo bound when given).
    (define (hash obj . o) (let ((h (default-hash obj))) (if (and (pair? o) (exact-integer? (car o)) (> (car o) 0)) (modulo h (car o)) h)))
    ;; (hash-by-identity obj [bound]): hash (nodwyn's eq? tables use their own hash, so it is safe to call).
    (define hash-by-identity hash)))
