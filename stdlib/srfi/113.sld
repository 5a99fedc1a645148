;;; (srfi 113): sets and bags over SRFI 128 comparators (SRFI 113), as hash tables of (srfi 125).
;;;
;;; A set or a bag is a record of its comparator and a table from element to
;;; entry, a pair (element . count): a set's counts are 1. The table is an
;;; (srfi 125) table of the comparator, so a comparator whose equality is
;;; eq?, eqv?, equal?, string=? or string-ci=? runs in TypeScript
;;; (primitives/srfi/hash-tables.ts), any other by its own hash function,
;;; which is then required (the document allows that). The ! procedures
;;; update their first argument and return it. Errors the document names
;;; are raised: arguments of distinct comparators (eq?), an element the
;;; comparator's type test refuses, set-find's failure called.
(define-library (srfi 113)
  (import (scheme base) (scheme case-lambda) (srfi 128)
          (only (srfi 125) make-hash-table hash-table-ref/default hash-table-set! hash-table-delete!
                hash-table-size hash-table-values hash-table-prune!)
          (prefix (nodwyn primitives srfi support) %))
  (export set set-unfold set? set-contains? set-empty? set-disjoint? set-member set-element-comparator
          set-adjoin set-adjoin! set-replace set-replace! set-delete set-delete! set-delete-all set-delete-all!
          set-search! set-size set-find set-count set-any? set-every?
          set-map set-for-each set-fold set-filter set-filter! set-remove set-remove! set-partition set-partition!
          set-copy set->list list->set list->set!
          set=? set<? set>? set<=? set>=?
          set-union set-intersection set-difference set-xor set-union! set-intersection! set-difference! set-xor!
          bag bag-unfold bag? bag-contains? bag-empty? bag-disjoint? bag-member bag-element-comparator
          bag-adjoin bag-adjoin! bag-replace bag-replace! bag-delete bag-delete! bag-delete-all bag-delete-all!
          bag-search! bag-size bag-find bag-count bag-any? bag-every?
          bag-map bag-for-each bag-fold bag-filter bag-filter! bag-remove bag-remove! bag-partition bag-partition!
          bag-copy bag->list list->bag list->bag!
          bag=? bag<? bag>? bag<=? bag>=?
          bag-union bag-intersection bag-difference bag-xor bag-union! bag-intersection! bag-difference! bag-xor!
          bag-sum bag-sum! bag-product bag-product! bag-unique-size bag-element-count
          bag-for-each-unique bag-fold-unique bag-increment! bag-decrement!
          bag->set set->bag set->bag! bag->alist alist->bag
          set-comparator bag-comparator)
  (begin

    ;; A set (bag? #f) or a bag (bag? #t).
    (define-record-type <sob>
      (make-sob bag? comparator table)
      sob?
      (bag? sob-bag?)
      (comparator sob-comparator)
      (table sob-table))

    (define (kind s) (if (sob-bag? s) "bag" "set"))

    (define (check-set who n x) (if (not (and (sob? x) (not (sob-bag? x)))) (%arg-error who n "set" x)))
    (define (check-bag who n x) (if (not (and (sob? x) (sob-bag? x))) (%arg-error who n "bag" x)))
    (define (checker bag?) (if bag? check-bag check-set))
    (define (check-procedure who n x) (if (not (procedure? x)) (%arg-error who n "procedure" x)))
    (define (check-comparator who n x) (if (not (comparator? x)) (%arg-error who n "comparator" x)))
    (define (check-list who n x) (if (not (list? x)) (%arg-error who n "list" x)))
    (define (check-count who n x)
      (if (not (and (exact-integer? x) (>= x 0))) (%arg-error who n "exact non-negative integer" x)))

    ;; The document: it is an error to give one procedure sets or bags of distinct comparators (eq?).
    (define (check-same who a b)
      (if (not (eq? (sob-comparator a) (sob-comparator b)))
          (error (string-append (symbol->string who) ": the " (kind a) "s have different comparators"))))

    ;; Checks every argument of an n-ary procedure: all sets (bags) of the first one's comparator.
    (define (check-all who bag? s rest)
      ((checker bag?) who 1 s)
      (let loop ((r rest) (n 2))
        (if (pair? r)
            (begin ((checker bag?) who n (car r)) (check-same who s (car r)) (loop (cdr r) (+ n 1))))))

    (define (new-sob who bag? cmp)
      (check-comparator who 1 cmp)
      (make-sob bag? cmp (make-hash-table cmp)))
    (define (empty-like s) (make-sob (sob-bag? s) (sob-comparator s) (make-hash-table (sob-comparator s))))

    (define (entry s x) (hash-table-ref/default (sob-table s) x #f))
    (define (entries s) (hash-table-values (sob-table s)))
    (define (count-of s x) (let ((e (entry s x))) (if e (cdr e) 0)))

    ;; The document: it is an error to add an element the comparator's type test refuses.
    (define (check-element who s x)
      (if (not (comparator-test-type (sob-comparator s) x))
          (error (string-append (symbol->string who) ": the " (kind s) "'s comparator does not accept this element") x)))

    ;; Adds n occurrences of x (a set keeps its member when it has one).
    (define (add! who s x n)
      (check-element who s x)
      (let ((e (entry s x)))
        (cond ((not e) (if (> n 0) (hash-table-set! (sob-table s) x (cons x (if (sob-bag? s) n 1)))))
              ((sob-bag? s) (set-cdr! e (+ (cdr e) n))))))

    ;; Sets x's count to n (0 removes it), x's entry keeping its element.
    (define (store-count! s x n)
      (let ((e (entry s x)))
        (cond ((<= n 0) (if e (hash-table-delete! (sob-table s) x)))
              (e (set-cdr! e n))
              (else (hash-table-set! (sob-table s) x (cons x n))))))

    (define (copy s)
      (let ((c (empty-like s)))
        (for-each (lambda (e) (hash-table-set! (sob-table c) (car e) (cons (car e) (cdr e)))) (entries s))
        c))

    (define (size s)
      (if (sob-bag? s)
          (let loop ((es (entries s)) (n 0)) (if (null? es) n (loop (cdr es) (+ n (cdar es)))))
          (hash-table-size (sob-table s))))

    ;; Every element, each as many times as it occurs.
    (define (fold-occurrences proc nil s)
      (let loop ((es (entries s)) (acc nil))
        (if (null? es)
            acc
            (let ((x (caar es)))
              (let rep ((k (cdar es)) (acc acc))
                (if (= k 0) (loop (cdr es) acc) (rep (- k 1) (proc x acc))))))))

    ;; ---- constructors ----

    (define (make-from who bag? cmp elements)
      (let ((s (new-sob who bag? cmp)))
        (for-each (lambda (x) (add! who s x 1)) elements)
        s))

    ;; (set comparator element ...): A new set of comparator holding the elements.
    (define (set cmp . elements) (make-from 'set #f cmp elements))
    ;; (bag comparator element ...): A new bag of comparator holding the elements, each as often as it is given.
    (define (bag cmp . elements) (make-from 'bag #t cmp elements))

    (define (unfold who bag?)
      (lambda args
        (let-values (((cmp stop? mapper successor seed)
                      (cond ((and (= (length args) 5) (comparator? (car args))) (apply values args))
                            ((and (= (length args) 5) (comparator? (list-ref args 4)))
                             (values (list-ref args 4) (list-ref args 0) (list-ref args 1) (list-ref args 2) (list-ref args 3)))
                            (else (error (string-append (symbol->string who) ": expected a comparator, stop?, mapper, successor and seed") args)))))
          (check-procedure who 2 stop?)
          (check-procedure who 3 mapper)
          (check-procedure who 4 successor)
          (let ((s (new-sob who bag? cmp)))
            (let loop ((seed seed))
              (if (stop? seed) s (begin (add! who s (mapper seed) 1) (loop (successor seed)))))))))
    ;; (set-unfold comparator stop? mapper successor seed): A new set of (mapper seed) for each seed from seed by
    ;; successor until (stop? seed). The sample implementation's order, comparator last, is accepted too.
    (define set-unfold (unfold 'set-unfold #f))
    ;; (bag-unfold comparator stop? mapper successor seed): As set-unfold, making a bag.
    (define bag-unfold (unfold 'bag-unfold #t))

    ;; ---- predicates and accessors ----

    ;; (set? obj): Whether obj is a set.
    (define (set? x) (and (sob? x) (not (sob-bag? x))))
    ;; (bag? obj): Whether obj is a bag.
    (define (bag? x) (and (sob? x) (sob-bag? x)))

    (define (contains who bag?) (lambda (s x) ((checker bag?) who 1 s) (and (entry s x) #t)))
    ;; (set-contains? set element): Whether element is a member of set.
    (define set-contains? (contains 'set-contains? #f))
    ;; (bag-contains? bag element): Whether element occurs in bag.
    (define bag-contains? (contains 'bag-contains? #t))

    (define (empty who bag?) (lambda (s) ((checker bag?) who 1 s) (= (hash-table-size (sob-table s)) 0)))
    ;; (set-empty? set): Whether set has no elements.
    (define set-empty? (empty 'set-empty? #f))
    ;; (bag-empty? bag): Whether bag has no elements.
    (define bag-empty? (empty 'bag-empty? #t))

    (define (disjoint who bag?)
      (lambda (a b)
        (check-all who bag? a (list b))
        (let loop ((es (entries a)))
          (cond ((null? es) #t) ((entry b (caar es)) #f) (else (loop (cdr es)))))))
    ;; (set-disjoint? set1 set2): Whether the two sets have no element in common.
    (define set-disjoint? (disjoint 'set-disjoint? #f))
    ;; (bag-disjoint? bag1 bag2): Whether the two bags have no element in common.
    (define bag-disjoint? (disjoint 'bag-disjoint? #t))

    (define (member-of who bag?) (lambda (s x default) ((checker bag?) who 1 s) (let ((e (entry s x))) (if e (car e) default))))
    ;; (set-member set element default): The member of set equal to element (in the comparator's sense), else default.
    (define set-member (member-of 'set-member #f))
    ;; (bag-member bag element default): The element of bag equal to element, else default.
    (define bag-member (member-of 'bag-member #t))

    (define (element-comparator who bag?) (lambda (s) ((checker bag?) who 1 s) (sob-comparator s)))
    ;; (set-element-comparator set): The comparator of set.
    (define set-element-comparator (element-comparator 'set-element-comparator #f))
    ;; (bag-element-comparator bag): The comparator of bag.
    (define bag-element-comparator (element-comparator 'bag-element-comparator #t))

    ;; ---- updaters ----

    (define (adjoin! who bag? fresh?)
      (lambda (s . elements)
        ((checker bag?) who 1 s)
        (let ((r (if fresh? (copy s) s)))
          (for-each (lambda (x) (add! who r x 1)) elements)
          r)))
    ;; (set-adjoin set element ...): A new set of set's members and each element it lacks.
    (define set-adjoin (adjoin! 'set-adjoin #f #t))
    ;; (set-adjoin! set element ...): set-adjoin, updating set.
    (define set-adjoin! (adjoin! 'set-adjoin! #f #f))
    ;; (bag-adjoin bag element ...): A new bag of bag's elements and one more occurrence of each element.
    (define bag-adjoin (adjoin! 'bag-adjoin #t #t))
    ;; (bag-adjoin! bag element ...): bag-adjoin, updating bag.
    (define bag-adjoin! (adjoin! 'bag-adjoin! #t #f))

    (define (replace! who bag? fresh?)
      (lambda (s x)
        ((checker bag?) who 1 s)
        (let ((e (entry s x)))
          (if (not e)
              s
              (let ((r (if fresh? (copy s) s)))
                (check-element who r x)
                (let ((n (cdr e)))
                  (hash-table-delete! (sob-table r) x)
                  (hash-table-set! (sob-table r) x (cons x n)))
                r)))))
    ;; (set-replace set element): When set has a member equal to element, a new set with element in its place;
    ;; else set itself.
    (define set-replace (replace! 'set-replace #f #t))
    ;; (set-replace! set element): set-replace, updating set.
    (define set-replace! (replace! 'set-replace! #f #f))
    ;; (bag-replace bag element): As set-replace: element takes the place (and the count) of its equal in bag.
    (define bag-replace (replace! 'bag-replace #t #t))
    ;; (bag-replace! bag element): bag-replace, updating bag.
    (define bag-replace! (replace! 'bag-replace! #t #f))

    (define (delete-list! s elements) (for-each (lambda (x) (store-count! s x (- (count-of s x) 1))) elements) s)
    (define (deleter who bag? fresh?)
      (lambda (s . elements) ((checker bag?) who 1 s) (delete-list! (if fresh? (copy s) s) elements)))
    (define (deleter-all who bag? fresh?)
      (lambda (s elements)
        ((checker bag?) who 1 s)
        (check-list who 2 elements)
        (delete-list! (if fresh? (copy s) s) elements)))
    ;; (set-delete set element ...): A new set of set's members except those equal to an element.
    (define set-delete (deleter 'set-delete #f #t))
    ;; (set-delete! set element ...): set-delete, updating set.
    (define set-delete! (deleter 'set-delete! #f #f))
    ;; (set-delete-all set element-list): set-delete of the elements of a list.
    (define set-delete-all (deleter-all 'set-delete-all #f #t))
    ;; (set-delete-all! set element-list): set-delete-all, updating set.
    (define set-delete-all! (deleter-all 'set-delete-all! #f #f))
    ;; (bag-delete bag element ...): A new bag with one occurrence fewer of each element (one that does not occur
    ;; is ignored).
    (define bag-delete (deleter 'bag-delete #t #t))
    ;; (bag-delete! bag element ...): bag-delete, updating bag.
    (define bag-delete! (deleter 'bag-delete! #t #f))
    ;; (bag-delete-all bag element-list): bag-delete of the elements of a list.
    (define bag-delete-all (deleter-all 'bag-delete-all #t #t))
    ;; (bag-delete-all! bag element-list): bag-delete-all, updating bag.
    (define bag-delete-all! (deleter-all 'bag-delete-all! #t #f))

    (define (searcher who bag?)
      (lambda (s x failure success)
        ((checker bag?) who 1 s)
        (check-procedure who 3 failure)
        (check-procedure who 4 success)
        (let ((e (entry s x)))
          (if e
              (success (car e)
                       (lambda (new obj)
                         (check-element who s new)
                         (let ((n (cdr e)))
                           (hash-table-delete! (sob-table s) x)
                           (hash-table-set! (sob-table s) new (cons new n)))
                         (values s obj))
                       (lambda (obj) (hash-table-delete! (sob-table s) x) (values s obj)))
              (failure (lambda (obj) (add! who s x 1) (values s obj))
                       (lambda (obj) (values s obj)))))))
    ;; (set-search! set element failure success): Looks for element. Not found: (failure insert ignore), where
    ;; (insert obj) adds element and (ignore obj) leaves set as it is. Found: (success member update remove), where
    ;; (update new-element obj) puts new-element in member's place and (remove obj) removes member. Each returns
    ;; two values, set and obj.
    (define set-search! (searcher 'set-search! #f))
    ;; (bag-search! bag element failure success): As set-search!; insert adds one occurrence, remove every
    ;; occurrence of the element found, update keeps its count.
    (define bag-search! (searcher 'bag-search! #t))

    ;; ---- the whole set ----

    (define (sizer who bag?) (lambda (s) ((checker bag?) who 1 s) (size s)))
    ;; (set-size set): The number of members.
    (define set-size (sizer 'set-size #f))
    ;; (bag-size bag): The number of elements, each counted as often as it occurs.
    (define bag-size (sizer 'bag-size #t))

    (define (finder who bag?)
      (lambda (pred s failure)
        (check-procedure who 1 pred)
        ((checker bag?) who 2 s)
        (check-procedure who 3 failure)
        (let loop ((es (entries s)))
          (cond ((null? es) (failure))
                ((pred (caar es)) (caar es))
                (else (loop (cdr es)))))))
    ;; (set-find predicate set failure): Some member satisfying predicate, else the result of (failure).
    (define set-find (finder 'set-find #f))
    ;; (bag-find predicate bag failure): Some element satisfying predicate, else the result of (failure).
    (define bag-find (finder 'bag-find #t))

    (define (counter who bag?)
      (lambda (pred s)
        (check-procedure who 1 pred)
        ((checker bag?) who 2 s)
        (let loop ((es (entries s)) (n 0))
          (cond ((null? es) n)
                ((pred (caar es)) (loop (cdr es) (+ n (cdar es))))
                (else (loop (cdr es) n))))))
    ;; (set-count predicate set): How many members satisfy predicate.
    (define set-count (counter 'set-count #f))
    ;; (bag-count predicate bag): How many elements satisfy predicate, each counted as often as it occurs.
    (define bag-count (counter 'bag-count #t))

    (define (any who bag?)
      (lambda (pred s)
        (check-procedure who 1 pred)
        ((checker bag?) who 2 s)
        (let loop ((es (entries s)))
          (cond ((null? es) #f) ((pred (caar es)) #t) (else (loop (cdr es)))))))
    (define (every who bag?)
      (lambda (pred s)
        (check-procedure who 1 pred)
        ((checker bag?) who 2 s)
        (let loop ((es (entries s)))
          (cond ((null? es) #t) ((pred (caar es)) (loop (cdr es))) (else #f)))))
    ;; (set-any? predicate set): #t when some member satisfies predicate, else #f.
    (define set-any? (any 'set-any? #f))
    ;; (set-every? predicate set): #t when every member satisfies predicate, else #f.
    (define set-every? (every 'set-every? #f))
    ;; (bag-any? predicate bag): #t when some element satisfies predicate, else #f.
    (define bag-any? (any 'bag-any? #t))
    ;; (bag-every? predicate bag): #t when every element satisfies predicate, else #f.
    (define bag-every? (every 'bag-every? #t))

    ;; ---- mapping and folding ----

    (define (mapper who bag?)
      (lambda (a b s)
        ;; The document's signature is (comparator proc set); its example has (proc comparator set).
        (let-values (((cmp proc) (if (comparator? a) (values a b) (values b a))))
          (check-comparator who 1 cmp)
          (check-procedure who 2 proc)
          ((checker bag?) who 3 s)
          (let ((r (new-sob who bag? cmp)))
            (for-each (lambda (e) (add! who r (proc (car e)) (cdr e))) (entries s))
            r))))
    ;; (set-map comparator proc set): A new set of comparator holding (proc member) for each member of set.
    ;; (set-map proc comparator set), the document's example, is accepted too.
    (define set-map (mapper 'set-map #f))
    ;; (bag-map comparator proc bag): A new bag of comparator holding (proc element) for each element of bag.
    (define bag-map (mapper 'bag-map #t))

    (define (for-eacher who bag?)
      (lambda (proc s)
        (check-procedure who 1 proc)
        ((checker bag?) who 2 s)
        (fold-occurrences (lambda (x acc) (proc x) acc) #f s)
        (if #f #f)))
    ;; (set-for-each proc set): Calls (proc member) on each member.
    (define set-for-each (for-eacher 'set-for-each #f))
    ;; (bag-for-each proc bag): Calls (proc element) on each element, as often as it occurs.
    (define bag-for-each (for-eacher 'bag-for-each #t))

    (define (folder who bag?)
      (lambda (proc nil s)
        (check-procedure who 1 proc)
        ((checker bag?) who 3 s)
        (fold-occurrences proc nil s)))
    ;; (set-fold proc nil set): (proc member acc) over the members, acc starting as nil.
    (define set-fold (folder 'set-fold #f))
    ;; (bag-fold proc nil bag): (proc element acc) over the elements, as often as each occurs.
    (define bag-fold (folder 'bag-fold #t))

    ;; A new set of the entries of s whose element satisfies pred (keep? #t) or does not (keep? #f).
    (define (select s pred keep?)
      (let ((r (empty-like s)))
        (for-each (lambda (e) (if (eq? keep? (and (pred (car e)) #t)) (hash-table-set! (sob-table r) (car e) (cons (car e) (cdr e)))))
                  (entries s))
        r))
    ;; Removes from s, in place, the entries whose element satisfies pred (drop? #t) or does not (drop? #f).
    (define (prune! s pred drop?) (hash-table-prune! (lambda (k e) (eq? drop? (and (pred (car e)) #t))) (sob-table s)) s)

    (define (filterer who bag? keep? fresh?)
      (lambda (pred s)
        (check-procedure who 1 pred)
        ((checker bag?) who 2 s)
        (if fresh? (select s pred keep?) (prune! s pred (not keep?)))))
    ;; (set-filter predicate set): A new set of the members that satisfy predicate.
    (define set-filter (filterer 'set-filter #f #t #t))
    ;; (set-filter! predicate set): set-filter, updating set.
    (define set-filter! (filterer 'set-filter! #f #t #f))
    ;; (set-remove predicate set): A new set of the members that do not satisfy predicate.
    (define set-remove (filterer 'set-remove #f #f #t))
    ;; (set-remove! predicate set): set-remove, updating set.
    (define set-remove! (filterer 'set-remove! #f #f #f))
    ;; (bag-filter predicate bag): A new bag of the elements that satisfy predicate.
    (define bag-filter (filterer 'bag-filter #t #t #t))
    ;; (bag-filter! predicate bag): bag-filter, updating bag.
    (define bag-filter! (filterer 'bag-filter! #t #t #f))
    ;; (bag-remove predicate bag): A new bag of the elements that do not satisfy predicate.
    (define bag-remove (filterer 'bag-remove #t #f #t))
    ;; (bag-remove! predicate bag): bag-remove, updating bag.
    (define bag-remove! (filterer 'bag-remove! #t #f #f))

    (define (partitioner who bag? fresh?)
      (lambda (pred s)
        (check-procedure who 1 pred)
        ((checker bag?) who 2 s)
        (let ((out (select s pred #f)))
          (values (if fresh? (select s pred #t) (prune! s pred #f)) out))))
    ;; (set-partition predicate set): Two new sets: the members that satisfy predicate, and the others.
    (define set-partition (partitioner 'set-partition #f #t))
    ;; (set-partition! predicate set): set-partition, the first set being set updated.
    (define set-partition! (partitioner 'set-partition! #f #f))
    ;; (bag-partition predicate bag): Two new bags: the elements that satisfy predicate, and the others.
    (define bag-partition (partitioner 'bag-partition #t #t))
    ;; (bag-partition! predicate bag): bag-partition, the first bag being bag updated.
    (define bag-partition! (partitioner 'bag-partition! #t #f))

    ;; ---- copying and conversion ----

    (define (copier who bag?) (lambda (s) ((checker bag?) who 1 s) (copy s)))
    ;; (set-copy set): A new set of the same comparator and members.
    (define set-copy (copier 'set-copy #f))
    ;; (bag-copy bag): A new bag of the same comparator and elements.
    (define bag-copy (copier 'bag-copy #t))

    (define (to-list who bag?) (lambda (s) ((checker bag?) who 1 s) (fold-occurrences cons '() s)))
    ;; (set->list set): A new list of the members, in no particular order.
    (define set->list (to-list 'set->list #f))
    ;; (bag->list bag): A new list of the elements, each as often as it occurs.
    (define bag->list (to-list 'bag->list #t))

    (define (from-list who bag?)
      (lambda (cmp l) (check-comparator who 1 cmp) (check-list who 2 l) (make-from who bag? cmp l)))
    ;; (list->set comparator list): A new set of comparator holding the elements of list (duplicates once).
    (define list->set (from-list 'list->set #f))
    ;; (list->bag comparator list): A new bag of comparator holding the elements of list.
    (define list->bag (from-list 'list->bag #t))

    (define (from-list! who bag?)
      (lambda (s l)
        ((checker bag?) who 1 s)
        (check-list who 2 l)
        (for-each (lambda (x) (add! who s x 1)) l)
        s))
    ;; (list->set! set list): set with the elements of list added.
    (define list->set! (from-list! 'list->set! #f))
    ;; (list->bag! bag list): bag with the elements of list added.
    (define list->bag! (from-list! 'list->bag! #t))

    ;; ---- subsets ----

    ;; Whether every count of a is at most b's.
    (define (sub? a b)
      (let loop ((es (entries a)))
        (cond ((null? es) #t)
              ((<= (cdar es) (count-of b (caar es))) (loop (cdr es)))
              (else #f))))
    (define (same? a b) (and (= (hash-table-size (sob-table a)) (hash-table-size (sob-table b))) (sub? a b) (sub? b a)))
    (define (proper-sub? a b) (and (sub? a b) (not (sub? b a))))

    (define (chain who bag? rel)
      (lambda (s . rest)
        (check-all who bag? s rest)
        (let loop ((a s) (r rest))
          (or (null? r) (and (rel a (car r)) (loop (car r) (cdr r)))))))
    ;; (set=? set1 set2 ...): Whether the sets have the same members.
    (define set=? (chain 'set=? #f same?))
    ;; (set<? set1 set2 ...): Whether each set is a proper subset of the next.
    (define set<? (chain 'set<? #f proper-sub?))
    ;; (set>? set1 set2 ...): Whether each set is a proper superset of the next.
    (define set>? (chain 'set>? #f (lambda (a b) (proper-sub? b a))))
    ;; (set<=? set1 set2 ...): Whether each set is a subset of the next.
    (define set<=? (chain 'set<=? #f sub?))
    ;; (set>=? set1 set2 ...): Whether each set is a superset of the next.
    (define set>=? (chain 'set>=? #f (lambda (a b) (sub? b a))))
    ;; (bag=? bag1 bag2 ...): Whether the bags have the same elements, each as often.
    (define bag=? (chain 'bag=? #t same?))
    ;; (bag<? bag1 bag2 ...): Whether each bag is a proper subbag of the next (every count at most the next's,
    ;; and the bags not equal).
    (define bag<? (chain 'bag<? #t proper-sub?))
    ;; (bag>? bag1 bag2 ...): Whether each bag is a proper superbag of the next.
    (define bag>? (chain 'bag>? #t (lambda (a b) (proper-sub? b a))))
    ;; (bag<=? bag1 bag2 ...): Whether each bag is a subbag of the next.
    (define bag<=? (chain 'bag<=? #t sub?))
    ;; (bag>=? bag1 bag2 ...): Whether each bag is a superbag of the next.
    (define bag>=? (chain 'bag>=? #t (lambda (a b) (sub? b a))))

    ;; ---- set theory ----

    ;; Each takes the first argument (to update) and one other; counts follow the document's bag rules, and a
    ;; set's are all 1, so the same code serves both. Elements come from the first argument that has them.
    (define (union2! a b)
      (for-each (lambda (e) (let ((n (count-of a (car e)))) (if (> (cdr e) n) (if (= n 0) (hash-table-set! (sob-table a) (car e) (cons (car e) (cdr e))) (store-count! a (car e) (cdr e))))))
                (entries b)))
    (define (intersection2! a b)
      (for-each (lambda (e) (store-count! a (car e) (min (cdr e) (count-of b (car e))))) (entries a)))
    (define (difference2! a b)
      (for-each (lambda (e) (if (entry a (car e)) (store-count! a (car e) (- (count-of a (car e)) (cdr e))))) (entries b)))
    (define (xor2! a b)
      (for-each (lambda (e)
                  (let ((n (count-of a (car e))))
                    (if (= n 0)
                        (hash-table-set! (sob-table a) (car e) (cons (car e) (cdr e)))
                        (store-count! a (car e) (abs (- n (cdr e)))))))
                (entries b)))
    (define (sum2! a b)
      (for-each (lambda (e)
                  (let ((n (count-of a (car e))))
                    (if (= n 0)
                        (hash-table-set! (sob-table a) (car e) (cons (car e) (cdr e)))
                        (store-count! a (car e) (+ n (cdr e))))))
                (entries b)))

    (define (n-ary who bag? op2 fresh?)
      (lambda (s . rest)
        (check-all who bag? s rest)
        ;; A later argument that is the first one itself is read from a copy, as it was before the update.
        (let ((r (if fresh? (copy s) s)))
          (for-each (lambda (o) (op2 r (if (eq? o r) (copy o) o))) rest)
          r)))
    (define (binary who bag? op2 fresh?)
      (let ((f (n-ary who bag? op2 fresh?)))
        (lambda (a b) (f a b))))
    ;; Difference: the first minus the union of the others.
    (define (difference who bag? fresh?)
      (lambda (s . rest)
        (check-all who bag? s rest)
        (let ((r (if fresh? (copy s) s)))
          (for-each (lambda (o) (difference2! r (if (eq? o r) (copy o) o))) rest)
          r)))

    ;; (set-union set1 set2 ...): A new set of the members of any set.
    (define set-union (n-ary 'set-union #f union2! #t))
    ;; (set-intersection set1 set2 ...): A new set of the members of every set.
    (define set-intersection (n-ary 'set-intersection #f intersection2! #t))
    ;; (set-difference set1 set2 ...): A new set of the members of set1 that no other set has.
    (define set-difference (difference 'set-difference #f #t))
    ;; (set-xor set1 set2): A new set of the members of exactly one of the two sets.
    (define set-xor (binary 'set-xor #f xor2! #t))
    ;; (set-union! set1 set2 ...): set-union, updating set1.
    (define set-union! (n-ary 'set-union! #f union2! #f))
    ;; (set-intersection! set1 set2 ...): set-intersection, updating set1.
    (define set-intersection! (n-ary 'set-intersection! #f intersection2! #f))
    ;; (set-difference! set1 set2 ...): set-difference, updating set1.
    (define set-difference! (difference 'set-difference! #f #f))
    ;; (set-xor! set1 set2): set-xor, updating set1.
    (define set-xor! (binary 'set-xor! #f xor2! #f))
    ;; (bag-union bag1 bag2 ...): A new bag where each element occurs as often as in the bag that has most of it.
    (define bag-union (n-ary 'bag-union #t union2! #t))
    ;; (bag-intersection bag1 bag2 ...): A new bag where each element occurs as often as in the bag that has
    ;; fewest of it.
    (define bag-intersection (n-ary 'bag-intersection #t intersection2! #t))
    ;; (bag-difference bag1 bag2 ...): A new bag where each element occurs as often as in bag1 less its
    ;; occurrences in the others (not below zero).
    (define bag-difference (difference 'bag-difference #t #t))
    ;; (bag-xor bag1 bag2): A new bag where each element occurs the difference of its two counts (absolute).
    (define bag-xor (binary 'bag-xor #t xor2! #t))
    ;; (bag-union! bag1 bag2 ...): bag-union, updating bag1.
    (define bag-union! (n-ary 'bag-union! #t union2! #f))
    ;; (bag-intersection! bag1 bag2 ...): bag-intersection, updating bag1.
    (define bag-intersection! (n-ary 'bag-intersection! #t intersection2! #f))
    ;; (bag-difference! bag1 bag2 ...): bag-difference, updating bag1.
    (define bag-difference! (difference 'bag-difference! #t #f))
    ;; (bag-xor! bag1 bag2): bag-xor, updating bag1.
    (define bag-xor! (binary 'bag-xor! #t xor2! #f))

    ;; ---- bags only ----

    ;; (bag-sum bag1 bag2 ...): A new bag where each element occurs the sum of its counts in the bags.
    (define bag-sum (n-ary 'bag-sum #t sum2! #t))
    ;; (bag-sum! bag1 bag2 ...): bag-sum, updating bag1.
    (define bag-sum! (n-ary 'bag-sum! #t sum2! #f))

    (define (product who fresh?)
      (lambda (n b)
        (check-count who 1 n)
        (check-bag who 2 b)
        (let ((r (if fresh? (copy b) b)))
          (for-each (lambda (e) (store-count! r (car e) (* n (cdr e)))) (entries r))
          r)))
    ;; (bag-product n bag): A new bag where each element of bag occurs n times as often (n an exact non-negative
    ;; integer).
    (define bag-product (product 'bag-product #t))
    ;; (bag-product! n bag): bag-product, updating bag.
    (define bag-product! (product 'bag-product! #f))

    ;; (bag-unique-size bag): The number of distinct elements.
    (define (bag-unique-size b) (check-bag 'bag-unique-size 1 b) (hash-table-size (sob-table b)))

    ;; (bag-element-count bag element): How many times element occurs in bag.
    (define (bag-element-count b x) (check-bag 'bag-element-count 1 b) (count-of b x))

    ;; (bag-for-each-unique proc bag): Calls (proc element count) on each distinct element.
    (define (bag-for-each-unique proc b)
      (check-procedure 'bag-for-each-unique 1 proc)
      (check-bag 'bag-for-each-unique 2 b)
      (for-each (lambda (e) (proc (car e) (cdr e))) (entries b))
      (if #f #f))

    ;; (bag-fold-unique proc nil bag): (proc element count acc) over the distinct elements, acc starting as nil.
    (define (bag-fold-unique proc nil b)
      (check-procedure 'bag-fold-unique 1 proc)
      (check-bag 'bag-fold-unique 3 b)
      (let loop ((es (entries b)) (acc nil))
        (if (null? es) acc (loop (cdr es) (proc (caar es) (cdar es) acc)))))

    (define (bag-change! who b x n sign)
      (check-bag who 1 b)
      (if (not (exact-integer? n)) (%arg-error who 3 "exact integer" n))
      (if (> (* sign n) 0) (check-element who b x))
      (let ((new (+ (count-of b x) (* sign n))))
        (store-count! b x new)
        b))
    ;; (bag-increment! bag element count): bag with element's count raised by count, an exact integer (never
    ;; below zero).
    (define (bag-increment! b x n) (bag-change! 'bag-increment! b x n 1))
    ;; (bag-decrement! bag element count): bag with element's count lowered by count (never below zero).
    (define (bag-decrement! b x n) (bag-change! 'bag-decrement! b x n -1))

    ;; (bag->set bag): A new set (of bag's comparator) of the distinct elements of bag.
    (define (bag->set b)
      (check-bag 'bag->set 1 b)
      (let ((s (make-sob #f (sob-comparator b) (make-hash-table (sob-comparator b)))))
        (for-each (lambda (e) (hash-table-set! (sob-table s) (car e) (cons (car e) 1))) (entries b))
        s))

    ;; (set->bag set): A new bag (of set's comparator) holding each member of set once.
    (define (set->bag s)
      (check-set 'set->bag 1 s)
      (let ((b (make-sob #t (sob-comparator s) (make-hash-table (sob-comparator s)))))
        (for-each (lambda (e) (hash-table-set! (sob-table b) (car e) (cons (car e) 1))) (entries s))
        b))

    ;; (set->bag! bag set): bag with one more occurrence of each member of set.
    (define (set->bag! b s)
      (check-bag 'set->bag! 1 b)
      (check-set 'set->bag! 2 s)
      (check-same 'set->bag! b s)
      (for-each (lambda (e) (store-count! b (car e) (+ (count-of b (car e)) 1))) (entries s))
      b)

    ;; (bag->alist bag): A new alist of (element . count), one for each distinct element.
    (define (bag->alist b)
      (check-bag 'bag->alist 1 b)
      (map (lambda (e) (cons (car e) (cdr e))) (entries b)))

    ;; (alist->bag comparator alist): A new bag of comparator where each key of alist occurs as often as its value
    ;; (an exact non-negative integer) says.
    (define (alist->bag cmp alist)
      (check-comparator 'alist->bag 1 cmp)
      (check-list 'alist->bag 2 alist)
      (let ((b (new-sob 'alist->bag #t cmp)))
        (for-each (lambda (p)
                    (if (not (pair? p)) (%arg-error 'alist->bag 2 "alist" alist))
                    (check-count 'alist->bag 2 (cdr p))
                    (add! 'alist->bag b (car p) (cdr p)))
                  alist)
        b))

    ;; ---- comparators ----

    ;; An order-independent hash of the elements (each as often as it occurs) by their comparator's hash.
    (define (sob-hash s . bound)
      (let ((cmp (sob-comparator s)) (m (hash-bound)))
        (let loop ((es (entries s)) (h (hash-table-size (sob-table s))))
          (if (null? es)
              (if (and (pair? bound) (exact-integer? (car bound)) (> (car bound) 0)) (modulo h (car bound)) h)
              (loop (cdr es) (modulo (+ h (* (cdar es) (comparator-hash cmp (caar es)))) m))))))

    ;; set-comparator: A comparator of sets (equal when set=?), hashable, without an ordering; sets of distinct
    ;; comparators are an error to compare.
    (define set-comparator (make-comparator set? (lambda (a b) (set=? a b)) #f sob-hash))
    ;; bag-comparator: A comparator of bags (equal when bag=?), hashable, without an ordering.
    (define bag-comparator (make-comparator bag? (lambda (a b) (bag=? a b)) #f sob-hash))
    (comparator-register-default! set-comparator)
    (comparator-register-default! bag-comparator)))
