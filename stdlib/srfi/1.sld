;;; (srfi 1): the list library (SRFI 1).
;;;
;;; Written in Scheme: nearly every procedure calls a procedure argument, which
;;; a TypeScript primitive must not do. The names SRFI 1 shares with R7RS (map,
;;; for-each, member, assoc, append, length …) are R7RS's own bindings, which
;;; already do what SRFI 1 says (map and for-each stop at the shortest list,
;;; member and assoc take an optional predicate). Lists are built front to back
;;; with set-cdr! on a fresh tail, one pair per element. The linear-update (!)
;;; procedures reuse their argument's pairs where that saves work, and are the
;;; pure procedures otherwise (the lset ones), as SRFI 1 allows.
(define-library (srfi 1)
  (import (scheme base) (scheme cxr) (scheme case-lambda)
          (prefix (nodwyn primitives srfi support) %)
          (prefix (nodwyn primitives srfi 1) %))
  (export
    ;; Constructors
    cons list xcons cons* make-list list-tabulate list-copy circular-list iota
    ;; Predicates
    pair? null? proper-list? circular-list? dotted-list? not-pair? null-list? list=
    ;; Selectors
    car cdr caar cadr cdar cddr caaar caadr cadar caddr cdaar cdadr cddar cdddr
    caaaar caaadr caadar caaddr cadaar cadadr caddar cadddr
    cdaaar cdaadr cdadar cdaddr cddaar cddadr cdddar cddddr
    list-ref first second third fourth fifth sixth seventh eighth ninth tenth
    car+cdr take drop take-right drop-right take! drop-right! split-at split-at!
    last last-pair
    ;; Miscellaneous
    length length+ append concatenate reverse append! concatenate! reverse!
    append-reverse append-reverse! zip unzip1 unzip2 unzip3 unzip4 unzip5 count
    ;; Fold, unfold and map
    map for-each fold unfold pair-fold reduce fold-right unfold-right pair-fold-right
    reduce-right append-map append-map! map! pair-for-each filter-map map-in-order
    ;; Filtering and partitioning
    filter partition remove filter! partition! remove!
    ;; Searching
    member memq memv find find-tail any every list-index take-while drop-while
    take-while! span break span! break!
    ;; Deleting
    delete delete-duplicates delete! delete-duplicates!
    ;; Association lists
    assoc assq assv alist-cons alist-copy alist-delete alist-delete!
    ;; Set operations on lists
    lset<= lset= lset-adjoin lset-union lset-union! lset-intersection lset-intersection!
    lset-difference lset-difference! lset-xor lset-xor! lset-diff+intersection
    lset-diff+intersection!
    ;; Primitive side effects
    set-car! set-cdr!)
  (begin

    ;;; ---- argument checks ----

    (define-syntax check-procedure
      (syntax-rules ()
        ((_ who n x) (if (not (procedure? x)) (%arg-error 'who n "procedure" x)))))

    (define-syntax check-index
      (syntax-rules ()
        ((_ who n x) (if (not (and (exact-integer? x) (>= x 0))) (%arg-error 'who n "exact non-negative integer" x)))))

    ;; A list that did not end in '() where a proper list was needed.
    (define (bad-list who n x) (%arg-error who n "proper list" x))

    ;; A list of i elements or more was needed.
    (define (too-short who x i) (%range-error who 2 (string-append "index " (number->string i) " past the end of the list") i))

    ;;; ---- several lists at once ----

    ;; The cars of the lists, or #f when one of them has ended.
    (define (cars lists)
      (let lp ((ls lists) (acc '()))
        (cond ((null? ls) (reverse acc))
              ((pair? (car ls)) (lp (cdr ls) (cons (caar ls) acc)))
              (else #f))))

    ;; The cdrs of the lists (each a pair).
    (define (cdrs lists)
      (let lp ((ls lists) (acc '()))
        (if (null? ls) (reverse acc) (lp (cdr ls) (cons (cdar ls) acc)))))

    ;; The cars of the lists followed by x, or #f when one of them has ended.
    (define (cars+ lists x)
      (let lp ((ls lists) (acc '()))
        (cond ((null? ls) (reverse (cons x acc)))
              ((pair? (car ls)) (lp (cdr ls) (cons (caar ls) acc)))
              (else #f))))

    ;;; ---- constructors ----

    ;; (xcons d a): (cons a d), for passing to higher-order procedures.
    (define (xcons d a) (cons a d))

    ;; (cons* elt1 elt2 ...): Like list, but the last argument is the tail of the result: (cons* 1 2 '(3)) is (1 2 3),
    ;; (cons* 1) is 1.
    (define (cons* first . rest)
      (if (null? rest)
          first
          (let ((head (cons first '())))
            (let lp ((tail head) (rest rest))
              (if (null? (cdr rest))
                  (begin (set-cdr! tail (car rest)) head)
                  (let ((c (cons (car rest) '())))
                    (set-cdr! tail c)
                    (lp c (cdr rest))))))))

    ;; (list-tabulate n init-proc): The list of (init-proc 0) … (init-proc (- n 1)).
    (define (list-tabulate n init-proc)
      (check-index list-tabulate 1 n)
      (check-procedure list-tabulate 2 init-proc)
      (let lp ((i (- n 1)) (acc '()))
        (if (< i 0) acc (lp (- i 1) (cons (init-proc i) acc)))))

    ;; (circular-list elt1 elt2 ...): A circular list of the elements: (circular-list 'z 'q) is (z q z q …).
    (define (circular-list elt . elts)
      (let ((l (cons elt elts)))
        (set-cdr! (last-pair l) l)
        l))

    ;; (iota count [start] [step]): The list (start start+step … start+(count-1)*step); start 0 and step 1 by default.
    (define iota
      (case-lambda
        ((count) (iota count 0 1))
        ((count start) (iota count start 1))
        ((count start step)
         (check-index iota 1 count)
         (if (not (number? start)) (%arg-error 'iota 2 "number" start))
         (if (not (number? step)) (%arg-error 'iota 3 "number" step))
         ;; Each element is start + i*step, so that inexact steps do not accumulate rounding.
         (let lp ((i (- count 1)) (acc '()))
           (if (< i 0)
               acc
               (lp (- i 1) (cons (if (= i 0) start (+ start (* i step))) acc)))))))

    ;;; ---- predicates ----

    ;; (proper-list? x): True when x is a finite list ending in '(); false for circular and dotted lists.
    (define (proper-list? x)
      (let lp ((fast x) (slow x))
        (cond ((null? fast) #t)
              ((not (pair? fast)) #f)
              (else
               (let ((fast (cdr fast)))
                 (cond ((null? fast) #t)
                       ((not (pair? fast)) #f)
                       (else
                        (let ((fast (cdr fast)) (slow (cdr slow)))
                          (and (not (eq? fast slow)) (lp fast slow))))))))))

    ;; (circular-list? x): True when x is a circular list: every cdr of it, however many times taken, is a pair.
    (define (circular-list? x)
      (let lp ((fast x) (slow x))
        (and (pair? fast)
             (let ((fast (cdr fast)))
               (and (pair? fast)
                    (let ((fast (cdr fast)) (slow (cdr slow)))
                      (or (eq? fast slow) (lp fast slow))))))))

    ;; (dotted-list? x): True when x is a finite list that does not end in '(), such as (a . b) or any non-pair but '().
    (define (dotted-list? x)
      (let lp ((fast x) (slow x))
        (cond ((null? fast) #f)
              ((not (pair? fast)) #t)
              (else
               (let ((fast (cdr fast)))
                 (cond ((null? fast) #f)
                       ((not (pair? fast)) #t)
                       (else
                        (let ((fast (cdr fast)) (slow (cdr slow)))
                          (and (not (eq? fast slow)) (lp fast slow))))))))))

    ;; (not-pair? x): (not (pair? x)): the end test of procedures that accept dotted lists.
    (define (not-pair? x) (not (pair? x)))

    ;; (null-list? list): True for '(), false for a pair; an error for anything else (list must be a proper or
    ;; circular list).
    (define (null-list? l)
      (cond ((pair? l) #f)
            ((null? l) #t)
            (else (%arg-error 'null-list? 1 "proper or circular list" l))))

    ;; (list= elt= list ...): True when each list has the length of the next and their elements are pairwise elt=
    ;; (called as (elt= a b) with a from the earlier list); true with fewer than two lists.
    (define (list= elt= . lists)
      (check-procedure list= 1 elt=)
      (let outer ((lists lists))
        (or (null? lists)
            (null? (cdr lists))
            (let ((a (car lists)) (b (cadr lists)))
              (and (or (eq? a b)
                       (let inner ((a a) (b b))
                         (cond ((null? a) (null? b))
                               ((null? b) #f)
                               (else (and (elt= (car a) (car b)) (inner (cdr a) (cdr b)))))))
                   (outer (cdr lists)))))))

    ;;; ---- selectors ----

    ;; (first pair): (car pair).
    (define (first x) (car x))
    ;; (second pair): (cadr pair).
    (define (second x) (cadr x))
    ;; (third pair): (caddr pair).
    (define (third x) (caddr x))
    ;; (fourth pair): (cadddr pair).
    (define (fourth x) (cadddr x))
    ;; (fifth pair): The fifth element.
    (define (fifth x) (car (cddddr x)))
    ;; (sixth pair): The sixth element.
    (define (sixth x) (cadr (cddddr x)))
    ;; (seventh pair): The seventh element.
    (define (seventh x) (caddr (cddddr x)))
    ;; (eighth pair): The eighth element.
    (define (eighth x) (cadddr (cddddr x)))
    ;; (ninth pair): The ninth element.
    (define (ninth x) (car (cddddr (cddddr x))))
    ;; (tenth pair): The tenth element.
    (define (tenth x) (cadr (cddddr (cddddr x))))

    ;; (car+cdr pair): Two values, the car and the cdr of pair.
    (define (car+cdr pair) (values (car pair) (cdr pair)))

    ;; (take x i): A new list of the first i elements of x, which may be proper, circular or dotted.
    (define (take x i)
      (check-index take 2 i)
      (let ((head (cons #f '())))
        (let lp ((x x) (k i) (tail head))
          (cond ((= k 0) (cdr head))
                ((pair? x) (let ((c (cons (car x) '()))) (set-cdr! tail c) (lp (cdr x) (- k 1) c)))
                (else (too-short 'take x i))))))

    ;; (drop x i): x without its first i elements: the i-th cdr of x, shared.
    (define (drop x i)
      (check-index drop 2 i)
      (let lp ((x x) (k i))
        (cond ((= k 0) x)
              ((pair? x) (lp (cdr x) (- k 1)))
              (else (too-short 'drop x i)))))

    ;; (take-right flist i): The last i elements of the finite list flist (a tail of it, shared).
    (define (take-right flist i)
      (let lp ((lag flist) (lead (drop flist i)))
        (if (pair? lead) (lp (cdr lag) (cdr lead)) lag)))

    ;; (drop-right flist i): A new list of all but the last i elements of the finite list flist.
    (define (drop-right flist i)
      (let ((head (cons #f '())))
        (let lp ((lag flist) (lead (drop flist i)) (tail head))
          (if (pair? lead)
              (let ((c (cons (car lag) '()))) (set-cdr! tail c) (lp (cdr lag) (cdr lead) c))
              (cdr head)))))

    ;; (take! x i): take, which may cut x after its i-th pair instead of copying.
    (define (take! x i)
      (check-index take! 2 i)
      (if (= i 0)
          '()
          (begin (set-cdr! (drop x (- i 1)) '()) x)))

    ;; (drop-right! flist i): drop-right, which may cut flist instead of copying.
    (define (drop-right! flist i)
      (let ((lead (drop flist i)))
        (if (pair? lead)
            (let lp ((lag flist) (lead (cdr lead)))
              (if (pair? lead)
                  (lp (cdr lag) (cdr lead))
                  (begin (set-cdr! lag '()) flist)))
            '())))

    ;; (split-at x i): Two values: (take x i) and (drop x i).
    (define (split-at x i)
      (check-index split-at 2 i)
      (let ((head (cons #f '())))
        (let lp ((x x) (k i) (tail head))
          (cond ((= k 0) (values (cdr head) x))
                ((pair? x) (let ((c (cons (car x) '()))) (set-cdr! tail c) (lp (cdr x) (- k 1) c)))
                (else (too-short 'split-at x i))))))

    ;; (split-at! x i): split-at, which may cut x instead of copying its first i elements.
    (define (split-at! x i)
      (check-index split-at! 2 i)
      (if (= i 0)
          (values '() x)
          (let* ((prev (drop x (- i 1))) (rest (cdr prev)))
            (set-cdr! prev '())
            (values x rest))))

    ;; (last pair): The last element of the non-empty finite list pair.
    (define (last pair) (car (last-pair pair)))

    ;; (last-pair pair): The last pair of the non-empty finite list pair.
    (define (last-pair pair)
      (if (not (pair? pair)) (%arg-error 'last-pair 1 "pair" pair))
      (let lp ((p pair))
        (let ((next (cdr p))) (if (pair? next) (lp next) p))))

    ;;; ---- length, append, reverse, zip, count ----

    ;; (length+ clist): The length of a proper list, or #f for a circular list.
    (define (length+ x)
      (let lp ((fast x) (slow x) (n 0))
        (if (pair? fast)
            (let ((fast (cdr fast)) (n (+ n 1)))
              (if (pair? fast)
                  (let ((fast (cdr fast)) (slow (cdr slow)) (n (+ n 1)))
                    (if (eq? fast slow) #f (lp fast slow n)))
                  n))
            n)))

    ;; (concatenate list-of-lists): (apply append list-of-lists), for any number of lists; the last may be any value.
    (define (concatenate lists) (reduce-right append '() lists))

    ;; (append! list ...): append, which may link the lists' own last pairs instead of copying them.
    (define (append! . lists) (concatenate! lists))

    ;; (concatenate! list-of-lists): concatenate, which may link the lists' own last pairs.
    (define (concatenate! lists)
      ;; Skip the leading empty lists; the result is the first non-empty one with the others linked after it.
      (let lp ((ls lists))
        (cond ((null? ls) '())
              ((null? (cdr ls)) (car ls))
              ((not (pair? (car ls))) (lp (cdr ls)))
              (else
               (let ((result (car ls)))
                 (let link ((tail (last-pair result)) (ls (cdr ls)))
                   (cond ((null? (cdr ls)) (set-cdr! tail (car ls)) result)
                         ((pair? (car ls))
                          (set-cdr! tail (car ls))
                          (link (last-pair (car ls)) (cdr ls)))
                         (else (link tail (cdr ls))))))))))

    ;; (reverse! list): reverse, turning list's own pairs around.
    (define (reverse! lis)
      (let lp ((lis lis) (acc '()))
        (if (pair? lis)
            (let ((next (cdr lis))) (set-cdr! lis acc) (lp next lis))
            (if (null? lis) acc (bad-list 'reverse! 1 lis)))))

    ;; (append-reverse rev-head tail): (append (reverse rev-head) tail), without the intermediate list.
    (define (append-reverse rev-head tail)
      (let lp ((rev rev-head) (acc tail))
        (if (pair? rev)
            (lp (cdr rev) (cons (car rev) acc))
            (if (null? rev) acc (bad-list 'append-reverse 1 rev-head)))))

    ;; (append-reverse! rev-head tail): append-reverse, turning rev-head's own pairs around.
    (define (append-reverse! rev-head tail)
      (let lp ((rev rev-head) (acc tail))
        (if (pair? rev)
            (let ((next (cdr rev))) (set-cdr! rev acc) (lp next rev))
            (if (null? rev) acc (bad-list 'append-reverse! 1 rev-head)))))

    ;; (zip clist1 clist2 ...): The list of lists of the lists' elements index by index, as long as the shortest:
    ;; (apply map list lists).
    (define (zip l . ls) (apply map list l ls))

    ;; (unzip1 list): The first elements of the lists in list.
    (define (unzip1 lis) (map car lis))

    ;; (unzip2 list): Two values: the first elements and the second elements of the lists in list.
    (define (unzip2 lis) (values (map car lis) (map cadr lis)))

    ;; (unzip3 list): Three values: the first, second and third elements of the lists in list.
    (define (unzip3 lis) (values (map car lis) (map cadr lis) (map caddr lis)))

    ;; (unzip4 list): Four values: the first to fourth elements of the lists in list.
    (define (unzip4 lis) (values (map car lis) (map cadr lis) (map caddr lis) (map cadddr lis)))

    ;; (unzip5 list): Five values: the first to fifth elements of the lists in list.
    (define (unzip5 lis) (values (map car lis) (map cadr lis) (map caddr lis) (map cadddr lis) (map fifth lis)))

    ;; (count pred clist1 clist2 ...): How many times pred is true of the lists' elements, index by index, left to right,
    ;; up to the end of the shortest.
    (define count
      (case-lambda
        ((pred lis)
         (check-procedure count 1 pred)
         (let lp ((l lis) (n 0))
           (if (pair? l)
               (lp (cdr l) (if (pred (car l)) (+ n 1) n))
               (if (null? l) n (bad-list 'count 2 lis)))))
        ((pred lis . lists)
         (check-procedure count 1 pred)
         (let lp ((ls (cons lis lists)) (n 0))
           (let ((as (cars ls)))
             (if as (lp (cdrs ls) (if (apply pred as) (+ n 1) n)) n))))))

    ;;; ---- fold, unfold, map ----

    ;; (fold kons knil clist1 clist2 ...): Calls (kons elt ... acc) on the lists' elements left to right, acc starting
    ;; as knil and then the last result: (fold cons '() l) reverses l, (fold + 0 l) sums it. It stops at the end of the
    ;; shortest list.
    (define fold
      (case-lambda
        ((kons knil lis)
         (check-procedure fold 1 kons)
         (let lp ((l lis) (acc knil))
           (if (pair? l)
               (lp (cdr l) (kons (car l) acc))
               (if (null? l) acc (bad-list 'fold 3 lis)))))
        ((kons knil lis . lists)
         (check-procedure fold 1 kons)
         (let lp ((ls (cons lis lists)) (acc knil))
           (let ((args (cars+ ls acc)))
             (if args (lp (cdrs ls) (apply kons args)) acc))))))

    ;; (fold-right kons knil clist1 clist2 ...): Calls (kons elt ... acc) on the lists' elements right to left:
    ;; (kons e1 (kons e2 … (kons en knil))). (fold-right cons '() l) copies l.
    (define fold-right
      (case-lambda
        ((kons knil lis)
         (check-procedure fold-right 1 kons)
         ;; Right to left over a vector of the elements: no recursion as deep as the list.
         (let* ((v (if (list? lis) (list->vector lis) (bad-list 'fold-right 3 lis))))
           (let lp ((i (- (vector-length v) 1)) (acc knil))
             (if (< i 0) acc (lp (- i 1) (kons (vector-ref v i) acc))))))
        ((kons knil lis . lists)
         (check-procedure fold-right 1 kons)
         (let collect ((ls (cons lis lists)) (rows '()))
           (let ((as (cars ls)))
             (if as
                 (collect (cdrs ls) (cons as rows))
                 (let lp ((rows rows) (acc knil))
                   (if (null? rows) acc (lp (cdr rows) (apply kons (append (car rows) (list acc))))))))))))

    ;; (pair-fold kons knil clist1 clist2 ...): fold over the pairs of the lists instead of their elements; kons may
    ;; set-cdr! the pairs it is given.
    (define pair-fold
      (case-lambda
        ((kons knil lis)
         (check-procedure pair-fold 1 kons)
         (let lp ((l lis) (acc knil))
           (if (pair? l)
               (let ((next (cdr l))) (lp next (kons l acc)))
               acc)))
        ((kons knil lis . lists)
         (check-procedure pair-fold 1 kons)
         (let lp ((ls (cons lis lists)) (acc knil))
           (if (every pair? ls)
               (let ((next (cdrs ls))) (lp next (apply kons (append ls (list acc)))))
               acc)))))

    ;; (pair-fold-right kons knil clist1 clist2 ...): fold-right over the pairs of the lists:
    ;; (pair-fold-right cons '() '(a b c)) is ((a b c) (b c) (c)).
    (define pair-fold-right
      (case-lambda
        ((kons knil lis)
         (check-procedure pair-fold-right 1 kons)
         (let lp ((pairs (let collect ((l lis) (acc '())) (if (pair? l) (collect (cdr l) (cons l acc)) acc)))
                  (acc knil))
           (if (null? pairs) acc (lp (cdr pairs) (kons (car pairs) acc)))))
        ((kons knil lis . lists)
         (check-procedure pair-fold-right 1 kons)
         (let lp ((rows (let collect ((ls (cons lis lists)) (acc '()))
                          (if (every pair? ls) (collect (cdrs ls) (cons ls acc)) acc)))
                  (acc knil))
           (if (null? rows) acc (lp (cdr rows) (apply kons (append (car rows) (list acc)))))))))

    ;; (reduce f ridentity list): (fold f (car list) (cdr list)), or ridentity when list is empty:
    ;; (reduce max 0 nums).
    (define (reduce f ridentity lis)
      (check-procedure reduce 1 f)
      (if (pair? lis)
          (fold f (car lis) (cdr lis))
          (if (null? lis) ridentity (bad-list 'reduce 3 lis))))

    ;; (reduce-right f ridentity list): (fold-right f ridentity list), using ridentity only when list is empty:
    ;; (reduce-right append '() lists).
    (define (reduce-right f ridentity lis)
      (check-procedure reduce-right 1 f)
      (if (pair? lis)
          (let* ((v (if (list? lis) (list->vector lis) (bad-list 'reduce-right 3 lis)))
                 (n (vector-length v)))
            (let lp ((i (- n 2)) (acc (vector-ref v (- n 1))))
              (if (< i 0) acc (lp (- i 1) (f (vector-ref v i) acc)))))
          (if (null? lis) ridentity (bad-list 'reduce-right 3 lis))))

    ;; (unfold p f g seed [tail-gen]): The list of (f seed), (f (g seed)), … up to the first seed for which (p seed)
    ;; is true, followed by (tail-gen seed) for that seed ('() by default).
    (define unfold
      (case-lambda
        ((p f g seed) (unfold p f g seed (lambda (x) '())))
        ((p f g seed tail-gen)
         (check-procedure unfold 1 p)
         (check-procedure unfold 2 f)
         (check-procedure unfold 3 g)
         (check-procedure unfold 5 tail-gen)
         (let ((head (cons #f '())))
           (let lp ((seed seed) (tail head))
             (if (p seed)
                 (begin (set-cdr! tail (tail-gen seed)) (cdr head))
                 (let ((c (cons (f seed) '())))
                   (set-cdr! tail c)
                   (lp (g seed) c))))))))

    ;; (unfold-right p f g seed [tail]): The list built right to left: (f seed) consed onto tail ('() by default), then
    ;; (f (g seed)) onto that, … until (p seed) is true.
    (define unfold-right
      (case-lambda
        ((p f g seed) (unfold-right p f g seed '()))
        ((p f g seed tail)
         (check-procedure unfold-right 1 p)
         (check-procedure unfold-right 2 f)
         (check-procedure unfold-right 3 g)
         (let lp ((seed seed) (acc tail))
           (if (p seed) acc (lp (g seed) (cons (f seed) acc)))))))

    ;; (append-map f clist1 clist2 ...): (apply append (map f clist1 clist2 ...)).
    (define (append-map f lis . lists)
      (check-procedure append-map 1 f)
      (concatenate (apply map f lis lists)))

    ;; (append-map! f clist1 clist2 ...): (apply append! (map f clist1 clist2 ...)).
    (define (append-map! f lis . lists)
      (check-procedure append-map! 1 f)
      (concatenate! (apply map f lis lists)))

    ;; (map! f list1 clist2 ...): map, storing the results in list1's own pairs; the other lists must be at least as
    ;; long as list1.
    (define (map! f lis . lists)
      (check-procedure map! 1 f)
      (if (null? lists)
          (let lp ((l lis))
            (if (pair? l) (begin (set-car! l (f (car l))) (lp (cdr l))) lis))
          (let lp ((l lis) (ls lists))
            (if (pair? l)
                (begin (set-car! l (apply f (car l) (map car ls))) (lp (cdr l) (map cdr ls)))
                lis))))

    ;; (map-in-order f clist1 clist2 ...): map, calling f on the elements strictly left to right.
    (define map-in-order
      (case-lambda
        ((f lis)
         (check-procedure map-in-order 1 f)
         (let ((head (cons #f '())))
           (let lp ((l lis) (tail head))
             (if (pair? l)
                 (let ((c (cons (f (car l)) '()))) (set-cdr! tail c) (lp (cdr l) c))
                 (cdr head)))))
        ((f lis . lists)
         (check-procedure map-in-order 1 f)
         (let ((head (cons #f '())))
           (let lp ((ls (cons lis lists)) (tail head))
             (let ((as (cars ls)))
               (if as
                   (let ((c (cons (apply f as) '()))) (set-cdr! tail c) (lp (cdrs ls) c))
                   (cdr head))))))))

    ;; (pair-for-each f clist1 clist2 ...): Calls f on the pairs of the lists, left to right, for its effects; f may
    ;; set-cdr! them.
    (define (pair-for-each f lis . lists)
      (check-procedure pair-for-each 1 f)
      (if (null? lists)
          (let lp ((l lis))
            (if (pair? l) (let ((next (cdr l))) (f l) (lp next))))
          (let lp ((ls (cons lis lists)))
            (if (every pair? ls) (let ((next (cdrs ls))) (apply f ls) (lp next)))))
      (if #f #f))

    ;; (filter-map f clist1 clist2 ...): map, keeping only the true results.
    (define filter-map
      (case-lambda
        ((f lis)
         (check-procedure filter-map 1 f)
         (let ((head (cons #f '())))
           (let lp ((l lis) (tail head))
             (if (pair? l)
                 (let ((v (f (car l))))
                   (if v
                       (let ((c (cons v '()))) (set-cdr! tail c) (lp (cdr l) c))
                       (lp (cdr l) tail)))
                 (if (null? l) (cdr head) (bad-list 'filter-map 2 lis))))))
        ((f lis . lists)
         (check-procedure filter-map 1 f)
         (let ((head (cons #f '())))
           (let lp ((ls (cons lis lists)) (tail head))
             (let ((as (cars ls)))
               (if as
                   (let ((v (apply f as)))
                     (if v
                         (let ((c (cons v '()))) (set-cdr! tail c) (lp (cdrs ls) c))
                         (lp (cdrs ls) tail)))
                   (cdr head))))))))

    ;;; ---- filtering and partitioning ----

    ;; (filter pred list): The elements of list that pred is true of, in their order.
    (define (filter pred lis)
      (check-procedure filter 1 pred)
      (let ((head (cons #f '())))
        (let lp ((l lis) (tail head))
          (if (pair? l)
              (if (pred (car l))
                  (let ((c (cons (car l) '()))) (set-cdr! tail c) (lp (cdr l) c))
                  (lp (cdr l) tail))
              (if (null? l) (cdr head) (bad-list 'filter 2 lis))))))

    ;; (remove pred list): The elements of list that pred is false of, in their order.
    (define (remove pred lis)
      (check-procedure remove 1 pred)
      (let ((head (cons #f '())))
        (let lp ((l lis) (tail head))
          (if (pair? l)
              (if (pred (car l))
                  (lp (cdr l) tail)
                  (let ((c (cons (car l) '()))) (set-cdr! tail c) (lp (cdr l) c)))
              (if (null? l) (cdr head) (bad-list 'remove 2 lis))))))

    ;; (partition pred list): Two values: the elements of list that pred is true of and those it is false of, each in
    ;; their order.
    (define (partition pred lis)
      (check-procedure partition 1 pred)
      (let ((in (cons #f '())) (out (cons #f '())))
        (let lp ((l lis) (in-tail in) (out-tail out))
          (if (pair? l)
              (let ((c (cons (car l) '())))
                (if (pred (car l))
                    (begin (set-cdr! in-tail c) (lp (cdr l) c out-tail))
                    (begin (set-cdr! out-tail c) (lp (cdr l) in-tail c))))
              (if (null? l) (values (cdr in) (cdr out)) (bad-list 'partition 2 lis))))))

    ;; (filter! pred list): filter, relinking list's own pairs (with set-cdr!) instead of making new ones.
    (define (filter! pred lis)
      (check-procedure filter! 1 pred)
      (let ((head (cons #f lis)))
        (let lp ((prev head) (l lis))
          (if (pair? l)
              (if (pred (car l))
                  (begin (set-cdr! prev l) (lp l (cdr l)))
                  (lp prev (cdr l)))
              (if (null? l)
                  (begin (set-cdr! prev '()) (cdr head))
                  (bad-list 'filter! 2 lis))))))

    ;; (remove! pred list): remove, relinking list's own pairs instead of making new ones.
    (define (remove! pred lis)
      (check-procedure remove! 1 pred)
      (filter! (lambda (x) (not (pred x))) lis))

    ;; (partition! pred list): partition, relinking list's own pairs into the two lists instead of making new ones.
    (define (partition! pred lis)
      (check-procedure partition! 1 pred)
      (let ((in (cons #f '())) (out (cons #f '())))
        (let lp ((l lis) (in-tail in) (out-tail out))
          (if (pair? l)
              (let ((next (cdr l)))
                (if (pred (car l))
                    (begin (set-cdr! in-tail l) (lp next l out-tail))
                    (begin (set-cdr! out-tail l) (lp next in-tail l))))
              (if (null? l)
                  (begin (set-cdr! in-tail '()) (set-cdr! out-tail '()) (values (cdr in) (cdr out)))
                  (bad-list 'partition! 2 lis))))))

    ;;; ---- searching ----

    ;; (find pred clist): The first element of clist that pred is true of, or #f.
    (define (find pred lis)
      (check-procedure find 1 pred)
      (let lp ((l lis))
        (if (pair? l)
            (if (pred (car l)) (car l) (lp (cdr l)))
            (if (null? l) #f (bad-list 'find 2 lis)))))

    ;; (find-tail pred clist): The first pair of clist whose car pred is true of, or #f.
    (define (find-tail pred lis)
      (check-procedure find-tail 1 pred)
      (let lp ((l lis))
        (if (pair? l)
            (if (pred (car l)) l (lp (cdr l)))
            (if (null? l) #f (bad-list 'find-tail 2 lis)))))

    ;; (any pred clist1 clist2 ...): The first true value of pred on the lists' elements, index by index, or #f; the
    ;; call on the last elements is a tail call.
    (define any
      (case-lambda
        ((pred lis)
         (check-procedure any 1 pred)
         (and (pair? lis)
              (let lp ((head (car lis)) (tail (cdr lis)))
                (if (pair? tail)
                    (or (pred head) (lp (car tail) (cdr tail)))
                    (if (null? tail) (pred head) (bad-list 'any 2 lis))))))
        ((pred lis . lists)
         (check-procedure any 1 pred)
         (let ((ls (cons lis lists)))
           (let ((as (cars ls)))
             (and as
                  (let lp ((as as) (ls (cdrs ls)))
                    (let ((next (cars ls)))
                      (if next
                          (or (apply pred as) (lp next (cdrs ls)))
                          (apply pred as))))))))))

    ;; (every pred clist1 clist2 ...): #f as soon as pred is false on the lists' elements, index by index, else pred's
    ;; last value (#t when a list is empty); the call on the last elements is a tail call.
    (define every
      (case-lambda
        ((pred lis)
         (check-procedure every 1 pred)
         (or (not (pair? lis))
             (let lp ((head (car lis)) (tail (cdr lis)))
               (if (pair? tail)
                   (and (pred head) (lp (car tail) (cdr tail)))
                   (if (null? tail) (pred head) (bad-list 'every 2 lis))))))
        ((pred lis . lists)
         (check-procedure every 1 pred)
         (let ((ls (cons lis lists)))
           (let ((as (cars ls)))
             (or (not as)
                 (let lp ((as as) (ls (cdrs ls)))
                   (let ((next (cars ls)))
                     (if next
                         (and (apply pred as) (lp next (cdrs ls)))
                         (apply pred as))))))))))

    ;; (list-index pred clist1 clist2 ...): The index of the first elements of the lists pred is true of, or #f.
    (define list-index
      (case-lambda
        ((pred lis)
         (check-procedure list-index 1 pred)
         (let lp ((l lis) (i 0))
           (if (pair? l)
               (if (pred (car l)) i (lp (cdr l) (+ i 1)))
               (if (null? l) #f (bad-list 'list-index 2 lis)))))
        ((pred lis . lists)
         (check-procedure list-index 1 pred)
         (let lp ((ls (cons lis lists)) (i 0))
           (let ((as (cars ls)))
             (and as (if (apply pred as) i (lp (cdrs ls) (+ i 1)))))))))

    ;; (take-while pred clist): A new list of the longest prefix of clist whose elements pred is true of.
    (define (take-while pred lis)
      (check-procedure take-while 1 pred)
      (let ((head (cons #f '())))
        (let lp ((l lis) (tail head))
          (if (and (pair? l) (pred (car l)))
              (let ((c (cons (car l) '()))) (set-cdr! tail c) (lp (cdr l) c))
              (cdr head)))))

    ;; (take-while! pred clist): take-while, which may cut clist instead of copying.
    (define (take-while! pred lis)
      (check-procedure take-while! 1 pred)
      (if (and (pair? lis) (pred (car lis)))
          (let lp ((prev lis))
            (let ((next (cdr prev)))
              (if (and (pair? next) (pred (car next)))
                  (lp next)
                  (begin (set-cdr! prev '()) lis))))
          '()))

    ;; (drop-while pred clist): clist without the longest prefix whose elements pred is true of (a tail, shared).
    (define (drop-while pred lis)
      (check-procedure drop-while 1 pred)
      (let lp ((l lis))
        (if (and (pair? l) (pred (car l))) (lp (cdr l)) l)))

    ;; (span pred clist): Two values: (take-while pred clist) and (drop-while pred clist).
    (define (span pred lis)
      (check-procedure span 1 pred)
      (let ((head (cons #f '())))
        (let lp ((l lis) (tail head))
          (if (and (pair? l) (pred (car l)))
              (let ((c (cons (car l) '()))) (set-cdr! tail c) (lp (cdr l) c))
              (values (cdr head) l)))))

    ;; (break pred clist): Two values: the longest prefix of clist whose elements pred is false of, and the rest.
    (define (break pred lis)
      (check-procedure break 1 pred)
      (span (lambda (x) (not (pred x))) lis))

    ;; (span! pred list): span, which may cut list instead of copying its prefix.
    (define (span! pred lis)
      (check-procedure span! 1 pred)
      (if (and (pair? lis) (pred (car lis)))
          (let lp ((prev lis))
            (let ((next (cdr prev)))
              (if (and (pair? next) (pred (car next)))
                  (lp next)
                  (begin (set-cdr! prev '()) (values lis next)))))
          (values '() lis)))

    ;; (break! pred list): break, which may cut list instead of copying its prefix.
    (define (break! pred lis)
      (check-procedure break! 1 pred)
      (span! (lambda (x) (not (pred x))) lis))

    ;;; ---- deleting ----

    ;; (delete x list [=]): list without the elements e for which (= x e) is true (= is equal? by default), in order.
    (define delete
      (case-lambda
        ((x lis) (delete x lis equal?))
        ((x lis =)
         (check-procedure delete 3 =)
         (let ((head (cons #f '())))
           (let lp ((l lis) (tail head))
             (if (pair? l)
                 (if (= x (car l))
                     (lp (cdr l) tail)
                     (let ((c (cons (car l) '()))) (set-cdr! tail c) (lp (cdr l) c)))
                 (if (null? l) (cdr head) (bad-list 'delete 2 lis))))))))

    ;; (delete! x list [=]): delete, relinking list's own pairs instead of making new ones.
    (define delete!
      (case-lambda
        ((x lis) (delete! x lis equal?))
        ((x lis =)
         (check-procedure delete! 3 =)
         (filter! (lambda (e) (not (= x e))) lis))))

    ;; (delete-duplicates list [=]): list with only the first of each run of elements that = (equal? by default) says
    ;; are the same, called as (= earlier later); in order. Linear time when = is eq?, eqv?, equal?, string=? or char=?, O(n²) otherwise.
    (define delete-duplicates
      (case-lambda
        ((lis) (%delete-duplicates lis 'equal? #f))
        ((lis =)
         (cond ((eq? = equal?) (%delete-duplicates lis 'equal? #f))
               ((eq? = eqv?) (%delete-duplicates lis 'eqv? #f))
               ((eq? = eq?) (%delete-duplicates lis 'eq? #f))
               ((eq? = string=?) (%delete-duplicates lis 'string=? #f))
               ((eq? = char=?) (%delete-duplicates lis 'char=? #f))
               (else
                (check-procedure delete-duplicates 2 =)
                ;; Each kept element is compared with the later ones (as (= kept later)), which are dropped when equal.
                (let ((head (cons #f '())))
                  (let lp ((l lis) (tail head))
                    (if (pair? l)
                        (let ((x (car l)))
                          (if (let seen ((k (cdr head)))
                                (and (pair? k) (or (= (car k) x) (seen (cdr k)))))
                              (lp (cdr l) tail)
                              (let ((c (cons x '()))) (set-cdr! tail c) (lp (cdr l) c))))
                        (if (null? l) (cdr head) (bad-list 'delete-duplicates 1 lis))))))))))

    ;; (delete-duplicates! list [=]): delete-duplicates, relinking list's own pairs instead of making new ones.
    (define delete-duplicates!
      (case-lambda
        ((lis) (%delete-duplicates lis 'equal? #t))
        ((lis =)
         (cond ((eq? = equal?) (%delete-duplicates lis 'equal? #t))
               ((eq? = eqv?) (%delete-duplicates lis 'eqv? #t))
               ((eq? = eq?) (%delete-duplicates lis 'eq? #t))
               ((eq? = string=?) (%delete-duplicates lis 'string=? #t))
               ((eq? = char=?) (%delete-duplicates lis 'char=? #t))
               (else
                (check-procedure delete-duplicates! 2 =)
                (let ((kept (cons #f '())))
                  (let lp ((l lis) (tail kept))
                    (if (pair? l)
                        (let ((x (car l)) (next (cdr l)))
                          (if (let seen ((k (cdr kept)))
                                (and (pair? k) (or (= (car k) x) (seen (cdr k)))))
                              (lp next tail)
                              (begin (set-cdr! tail l) (set-cdr! l '()) (lp next l))))
                        (if (null? l) (cdr kept) (bad-list 'delete-duplicates! 1 lis))))))))))

    ;;; ---- association lists ----

    ;; (alist-cons key datum alist): (cons (cons key datum) alist).
    (define (alist-cons key datum alist) (cons (cons key datum) alist))

    ;; (alist-copy alist): A new alist of new pairs with the same keys and data.
    (define (alist-copy alist)
      (map (lambda (entry) (cons (car entry) (cdr entry))) alist))

    ;; (alist-delete key alist [=]): alist without the entries whose key k has (= key k) true (equal? by default).
    (define alist-delete
      (case-lambda
        ((key alist) (alist-delete key alist equal?))
        ((key alist =)
         (check-procedure alist-delete 3 =)
         (filter (lambda (entry) (not (= key (car entry)))) alist))))

    ;; (alist-delete! key alist [=]): alist-delete, relinking alist's own pairs instead of making new ones.
    (define alist-delete!
      (case-lambda
        ((key alist) (alist-delete! key alist equal?))
        ((key alist =)
         (check-procedure alist-delete! 3 =)
         (filter! (lambda (entry) (not (= key (car entry)))) alist))))

    ;;; ---- sets as lists ----

    ;; True when some element of lis is = to x, called as (= elt x).
    (define (member-of = x lis)
      (let lp ((l lis)) (and (pair? l) (or (= (car l) x) (lp (cdr l))))))

    ;; (lset<= = list1 ...): True when every list is a subset of the next: each element of it is = to some element of
    ;; the next, called as (= a b) with a from the earlier list.
    (define (lset<= = . lists)
      (check-procedure lset<= 1 =)
      (let lp ((ls lists))
        (or (null? ls) (null? (cdr ls))
            (and (or (eq? (car ls) (cadr ls))
                     (every (lambda (a) (any (lambda (b) (= a b)) (cadr ls))) (car ls)))
                 (lp (cdr ls))))))

    ;; (lset= = list1 ...): True when every list is set-equal to the next: each a subset of the other.
    (define (lset= = . lists)
      (check-procedure lset= 1 =)
      (let lp ((ls lists))
        (or (null? ls) (null? (cdr ls))
            (let ((a (car ls)) (b (cadr ls)))
              (and (or (eq? a b)
                       (and (every (lambda (x) (any (lambda (y) (= x y)) b)) a)
                            (every (lambda (y) (any (lambda (x) (= x y)) a)) b)))
                   (lp (cdr ls)))))))

    ;; (lset-adjoin = list elt1 ...): list with each elt not already = to one of its elements (called as (= member elt))
    ;; added at the front.
    (define (lset-adjoin = lis . elts)
      (check-procedure lset-adjoin 1 =)
      (fold (lambda (elt acc) (if (member-of = elt acc) acc (cons elt acc))) lis elts))

    ;; (lset-union = list1 ...): The union of the lists: list1, then each element of the next lists not = to one already
    ;; in the result, consed on the front.
    (define (lset-union = . lists)
      (check-procedure lset-union 1 =)
      (reduce (lambda (b a)
                (cond ((null? b) a)
                      ((null? a) b)
                      ((eq? a b) a)
                      (else (fold (lambda (elt acc) (if (member-of = elt acc) acc (cons elt acc))) a b))))
              '()
              lists))

    ;; (lset-union! = list1 ...): lset-union (which here always makes new pairs, as SRFI 1 allows).
    (define (lset-union! = . lists) (apply lset-union = lists))

    ;; (lset-intersection = list1 list2 ...): The elements of list1 that are = to an element of every other list, in
    ;; list1's order (called as (= a b), a from list1).
    (define (lset-intersection = lis . lists)
      (check-procedure lset-intersection 1 =)
      (let ((others (delete lis lists eq?)))
        (cond ((any null? others) '())
              ((null? others) lis)
              (else (filter (lambda (x) (every (lambda (l) (any (lambda (y) (= x y)) l)) others)) lis)))))

    ;; (lset-intersection! = list1 list2 ...): lset-intersection (which here always makes a new list).
    (define (lset-intersection! = lis . lists) (apply lset-intersection = lis lists))

    ;; (lset-difference = list1 list2 ...): The elements of list1 that are = to no element of the other lists, in
    ;; list1's order (called as (= a b), a from list1).
    (define (lset-difference = lis . lists)
      (check-procedure lset-difference 1 =)
      (let ((others (filter pair? lists)))
        (cond ((null? others) lis)
              ((memq lis others) '())
              (else (filter (lambda (x) (every (lambda (l) (not (any (lambda (y) (= x y)) l))) others)) lis)))))

    ;; (lset-difference! = list1 list2 ...): lset-difference (which here always makes a new list).
    (define (lset-difference! = lis . lists) (apply lset-difference = lis lists))

    ;; (lset-xor = list1 ...): The elements in exactly one of two lists — those of the first = to none of the second's
    ;; (as (= a b)) and those of the second = to none of the first's (as (= b a)) — folded over the lists: those in an odd
    ;; number of them.
    (define (lset-xor = . lists)
      (check-procedure lset-xor 1 =)
      (reduce (lambda (b a)
                (fold cons (lset-difference = b a) (lset-difference = a b)))
              '()
              lists))

    ;; (lset-xor! = list1 ...): lset-xor (which here always makes new pairs).
    (define (lset-xor! = . lists) (apply lset-xor = lists))

    ;; (lset-diff+intersection = list1 list2 ...): Two values: the elements of list1 that are = to no element of the other
    ;; lists, and those that are = to an element of one of them, each in list1's order.
    (define (lset-diff+intersection = lis . lists)
      (check-procedure lset-diff+intersection 1 =)
      (cond ((every null? lists) (values lis '()))
            ((memq lis lists) (values '() lis))
            (else (partition (lambda (x) (not (any (lambda (l) (any (lambda (y) (= x y)) l)) lists))) lis))))

    ;; (lset-diff+intersection! = list1 list2 ...): lset-diff+intersection (which here always makes new lists).
    (define (lset-diff+intersection! = lis . lists) (apply lset-diff+intersection = lis lists))))
