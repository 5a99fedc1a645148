;;; (srfi 132): sorting lists and vectors (SRFI 132).
;;;
;;; Every sort is a stable merge sort. With an ordering the host knows (<, >,
;;; string<?, string>?, char<?, char>? and their -ci forms) it runs in
;;; TypeScript (primitives/srfi/sorting.ts); with any other procedure, here.
(define-library (srfi 132)
  (import (scheme base) (scheme char) (nodwyn primitives srfi 132) (prefix (nodwyn primitives srfi support) %))
  (export list-sorted? vector-sorted?
          list-sort list-stable-sort list-sort! list-stable-sort!
          vector-sort vector-stable-sort vector-sort! vector-stable-sort!
          list-merge list-merge! vector-merge vector-merge!
          list-delete-neighbor-dups list-delete-neighbor-dups!
          vector-delete-neighbor-dups vector-delete-neighbor-dups!
          vector-find-median vector-find-median! vector-select! vector-separate!)
  (begin

    (define (check-procedure who n x) (if (not (procedure? x)) (%arg-error who n "procedure" x)))
    (define (check-vector who n x) (if (not (vector? x)) (%arg-error who n "vector" x)))
    (define (check-list who n x) (if (not (list? x)) (%arg-error who n "proper list" x)))

    ;; The name of an ordering sorted in TypeScript, or #f.
    (define (known less)
      (cond ((eq? less <) '<) ((eq? less >) '>)
            ((eq? less string<?) 'string<?) ((eq? less string>?) 'string>?)
            ((eq? less string-ci<?) 'string-ci<?) ((eq? less string-ci>?) 'string-ci>?)
            ((eq? less char<?) 'char<?) ((eq? less char>?) 'char>?)
            ((eq? less char-ci<?) 'char-ci<?) ((eq? less char-ci>?) 'char-ci>?)
            (else #f)))

    ;; start and end of an optional range of v, checked.
    (define (range who v o argno)
      (let* ((n (vector-length v))
             (start (if (pair? o) (car o) 0))
             (end (if (and (pair? o) (pair? (cdr o))) (cadr o) n)))
        (if (not (and (exact-integer? start) (<= 0 start n))) (%range-error who argno "start out of range" start))
        (if (not (and (exact-integer? end) (<= start end n))) (%range-error who (+ argno 1) "end out of range" end))
        (values start end)))

    ;; Sorts v[start, end) in place with less, stably: a bottom-up merge sort through a scratch vector.
    (define (merge-sort! less v start end)
      (let* ((n (- end start)) (tmp (make-vector n)))
        (define (merge! from to lo mid hi)
          ;; from[lo, mid) and from[mid, hi) into to[lo, hi).
          (let loop ((i lo) (j mid) (k lo))
            (cond ((and (< i mid) (< j hi))
                   (if (less (vector-ref from j) (vector-ref from i))
                       (begin (vector-set! to k (vector-ref from j)) (loop i (+ j 1) (+ k 1)))
                       (begin (vector-set! to k (vector-ref from i)) (loop (+ i 1) j (+ k 1)))))
                  ((< i mid) (vector-copy! to k from i mid))
                  ((< j hi) (vector-copy! to k from j hi)))))
        (if (> n 1)
            (begin
              (vector-copy! tmp 0 v start end)
              ;; Runs of 1, 2, 4 … alternate between tmp and a second buffer; the result is copied back.
              (let ((other (make-vector n)))
                (let pass ((width 1) (from tmp) (to other))
                  (if (>= width n)
                      (vector-copy! v start from 0 n)
                      (begin
                        (let loop ((lo 0))
                          (if (< lo n)
                              (let ((mid (min (+ lo width) n)) (hi (min (+ lo (* 2 width)) n)))
                                (merge! from to lo mid hi)
                                (loop hi))))
                        (pass (* width 2) to from)))))))))

    ;; (list-sorted? < list): True when no element is less than the one before it.
    (define (list-sorted? less l)
      (check-procedure 'list-sorted? 1 less)
      (check-list 'list-sorted? 2 l)
      (or (null? l)
          (let loop ((prev (car l)) (l (cdr l)))
            (or (null? l) (and (not (less (car l) prev)) (loop (car l) (cdr l)))))))

    ;; (vector-sorted? < v [start [end]]): True when no element of v[start, end) is less than the one before it.
    (define (vector-sorted? less v . o)
      (check-procedure 'vector-sorted? 1 less)
      (check-vector 'vector-sorted? 2 v)
      (let-values (((start end) (range 'vector-sorted? v o 3)))
        (let loop ((i (+ start 1)))
          (or (>= i end) (and (not (less (vector-ref v i) (vector-ref v (- i 1)))) (loop (+ i 1)))))))

    ;; (list-sort < list): A new list of the elements sorted by <, stably.
    (define (list-sort less l)
      (check-procedure 'list-sort 1 less)
      (let ((k (known less)))
        (if k
            (%list-sort 'list-sort k l)
            (begin (check-list 'list-sort 2 l)
                   (let ((v (list->vector l))) (merge-sort! less v 0 (vector-length v)) (vector->list v))))))
    ;; (list-stable-sort < list): list-sort (every sort here is stable).
    (define list-stable-sort list-sort)
    ;; (list-sort! < list): list-sort (allowed to reuse the list's pairs; it does not).
    (define list-sort! list-sort)
    ;; (list-stable-sort! < list): list-sort.
    (define list-stable-sort! list-sort)

    ;; (vector-sort < v [start [end]]): A new vector of the elements of v[start, end) sorted by <, stably.
    (define (vector-sort less v . o)
      (check-procedure 'vector-sort 1 less)
      (check-vector 'vector-sort 2 v)
      (let ((k (known less)))
        (if k
            (apply %vector-sort 'vector-sort k v o)
            (let-values (((start end) (range 'vector-sort v o 3)))
              (let ((out (vector-copy v start end))) (merge-sort! less out 0 (vector-length out)) out)))))
    ;; (vector-stable-sort < v [start [end]]): vector-sort.
    (define vector-stable-sort vector-sort)

    ;; (vector-sort! < v [start [end]]): Sorts v[start, end) in place by <, stably.
    (define (vector-sort! less v . o)
      (check-procedure 'vector-sort! 1 less)
      (check-vector 'vector-sort! 2 v)
      (let ((k (known less)))
        (if k
            (apply %vector-sort! 'vector-sort! k v o)
            (let-values (((start end) (range 'vector-sort! v o 3)))
              (merge-sort! less v start end)))))
    ;; (vector-stable-sort! < v [start [end]]): vector-sort!.
    (define vector-stable-sort! vector-sort!)

    ;; (list-merge < list1 list2): The sorted lists merged into one sorted list, stably (list1's elements first
    ;; among equals).
    (define (list-merge less a b)
      (check-procedure 'list-merge 1 less)
      (check-list 'list-merge 2 a)
      (check-list 'list-merge 3 b)
      (let loop ((a a) (b b) (acc '()))
        (cond ((null? a) (append-reverse acc b))
              ((null? b) (append-reverse acc a))
              ((less (car b) (car a)) (loop a (cdr b) (cons (car b) acc)))
              (else (loop (cdr a) b (cons (car a) acc))))))

    (define (append-reverse rev tail) (if (null? rev) tail (append-reverse (cdr rev) (cons (car rev) tail))))

    ;; (list-merge! < list1 list2): list-merge by relinking the lists' own pairs, iteratively.
    (define (list-merge! less a b)
      (check-procedure 'list-merge! 1 less)
      (check-list 'list-merge! 2 a)
      (check-list 'list-merge! 3 b)
      (cond ((null? a) b)
            ((null? b) a)
            (else
             (let* ((head (if (less (car b) (car a)) b a)))
               (let loop ((last head) (a (if (eq? head a) (cdr a) a)) (b (if (eq? head b) (cdr b) b)))
                 (cond ((null? a) (set-cdr! last b) head)
                       ((null? b) (set-cdr! last a) head)
                       ((less (car b) (car a)) (set-cdr! last b) (loop b a (cdr b)))
                       (else (set-cdr! last a) (loop a (cdr a) b))))))))

    ;; (vector-merge < v1 v2 [start1 [end1 [start2 [end2]]]]): A new vector of the sorted ranges merged, stably.
    (define (vector-merge less v1 v2 . o)
      (check-procedure 'vector-merge 1 less)
      (check-vector 'vector-merge 2 v1)
      (check-vector 'vector-merge 3 v2)
      (let*-values (((s1 e1) (range 'vector-merge v1 o 4))
                    ((s2 e2) (range 'vector-merge v2 (if (and (pair? o) (pair? (cdr o))) (cddr o) '()) 6)))
        (let ((to (make-vector (+ (- e1 s1) (- e2 s2)))))
          (merge-into! less to 0 v1 s1 e1 v2 s2 e2)
          to)))

    (define (merge-into! less to k v1 i e1 v2 j e2)
      (cond ((and (< i e1) (< j e2))
             (if (less (vector-ref v2 j) (vector-ref v1 i))
                 (begin (vector-set! to k (vector-ref v2 j)) (merge-into! less to (+ k 1) v1 i e1 v2 (+ j 1) e2))
                 (begin (vector-set! to k (vector-ref v1 i)) (merge-into! less to (+ k 1) v1 (+ i 1) e1 v2 j e2))))
            ((< i e1) (vector-copy! to k v1 i e1))
            ((< j e2) (vector-copy! to k v2 j e2))))

    ;; (vector-merge! < to from1 from2 [start [start1 [end1 [start2 [end2]]]]]): The sorted ranges merged into to
    ;; from index start.
    (define (vector-merge! less to v1 v2 . o)
      (check-procedure 'vector-merge! 1 less)
      (check-vector 'vector-merge! 2 to)
      (check-vector 'vector-merge! 3 v1)
      (check-vector 'vector-merge! 4 v2)
      (let* ((start (if (pair? o) (car o) 0)) (o (if (pair? o) (cdr o) '())))
        (let*-values (((s1 e1) (range 'vector-merge! v1 o 6))
                      ((s2 e2) (range 'vector-merge! v2 (if (and (pair? o) (pair? (cdr o))) (cddr o) '()) 8)))
          (if (not (and (exact-integer? start) (<= 0 start) (<= (+ start (- e1 s1) (- e2 s2)) (vector-length to))))
              (%range-error 'vector-merge! 5 "the merged ranges do not fit in the target from start" start))
          (merge-into! less to start v1 s1 e1 v2 s2 e2))))

    ;; (list-delete-neighbor-dups = list): The list without the elements equal (=, called as (= earlier later)) to
    ;; the one before them.
    (define (list-delete-neighbor-dups same? l)
      (check-procedure 'list-delete-neighbor-dups 1 same?)
      (check-list 'list-delete-neighbor-dups 2 l)
      (if (null? l) '()
          (let loop ((prev (car l)) (l (cdr l)) (acc (list (car l))))
            (cond ((null? l) (reverse acc))
                  ((same? prev (car l)) (loop prev (cdr l) acc))
                  (else (loop (car l) (cdr l) (cons (car l) acc)))))))
    ;; (list-delete-neighbor-dups! = list): list-delete-neighbor-dups.
    (define list-delete-neighbor-dups! list-delete-neighbor-dups)

    ;; (vector-delete-neighbor-dups = v [start [end]]): A new vector of v[start, end) without neighbour duplicates.
    (define (vector-delete-neighbor-dups same? v . o)
      (check-procedure 'vector-delete-neighbor-dups 1 same?)
      (check-vector 'vector-delete-neighbor-dups 2 v)
      (let-values (((start end) (range 'vector-delete-neighbor-dups v o 3)))
        (let ((w (vector-copy v start end)))
          (vector-copy w 0 (dedup! same? w 0 (vector-length w))))))

    ;; Packs w[start, end) without neighbour duplicates into w[start, new-end); returns new-end.
    (define (dedup! same? w start end)
      (if (>= start end) start
          (let loop ((i (+ start 1)) (k (+ start 1)) (prev (vector-ref w start)))
            (cond ((= i end) k)
                  ((same? prev (vector-ref w i)) (loop (+ i 1) k prev))
                  (else (let ((x (vector-ref w i))) (vector-set! w k x) (loop (+ i 1) (+ k 1) x)))))))

    ;; (vector-delete-neighbor-dups! = v [start [end]]): Packs v[start, end) without neighbour duplicates into
    ;; v[start, new-end) and returns new-end.
    (define (vector-delete-neighbor-dups! same? v . o)
      (check-procedure 'vector-delete-neighbor-dups! 1 same?)
      (check-vector 'vector-delete-neighbor-dups! 2 v)
      (let-values (((start end) (range 'vector-delete-neighbor-dups! v o 3)))
        (dedup! same? v start end)))

    (define (default-mean a b) (/ (+ a b) 2))

    ;; (vector-find-median < v knil [mean]): The median of v's elements (knil when there are none; for an even
    ;; count, mean of the two middle ones in sorted order); v is not changed.
    (define (vector-find-median less v knil . o)
      (check-vector 'vector-find-median 2 v)
      (vector-find-median! less (vector-copy v) knil (if (pair? o) (car o) default-mean)))

    ;; (vector-find-median! < v knil [mean]): vector-find-median, leaving v sorted.
    (define (vector-find-median! less v knil . o)
      (check-procedure 'vector-find-median! 1 less)
      (check-vector 'vector-find-median! 2 v)
      (let ((mean (if (pair? o) (car o) default-mean)) (n (vector-length v)))
        (vector-sort! less v)
        (cond ((= n 0) knil)
              ((odd? n) (vector-ref v (quotient n 2)))
              (else (mean (vector-ref v (- (quotient n 2) 1)) (vector-ref v (quotient n 2)))))))

    ;; Hoare-style partition of v[lo, hi) around the element at p: the index where the pivot lands, everything
    ;; before it not greater, everything after not less.
    (define (partition! less v lo hi p)
      (let ((pivot (vector-ref v p)))
        (vector-swap! v p (- hi 1))
        (let loop ((i lo) (store lo))
          (if (< i (- hi 1))
              (if (less (vector-ref v i) pivot)
                  (begin (vector-swap! v i store) (loop (+ i 1) (+ store 1)))
                  (loop (+ i 1) store))
              (begin (vector-swap! v store (- hi 1)) store)))))

    (define (vector-swap! v i j) (let ((x (vector-ref v i))) (vector-set! v i (vector-ref v j)) (vector-set! v j x)))

    ;; Quickselect: leaves v[lo, hi) with the element of rank k (from lo) at lo + k, smaller ones before.
    (define (select! less v lo hi k)
      (let loop ((lo lo) (hi hi) (k k))
        (if (> (- hi lo) 1)
            (let* ((p (partition! less v lo hi (+ lo (quotient (- hi lo) 2)))) (r (- p lo)))
              (cond ((= k r) #t)
                    ((< k r) (loop lo p k))
                    (else (loop (+ p 1) hi (- k r 1))))))))

    ;; (vector-select! < v k [start [end]]): The element of v[start, end) that is k-th smallest (from 0); the range
    ;; may be reordered.
    (define (vector-select! less v k . o)
      (check-procedure 'vector-select! 1 less)
      (check-vector 'vector-select! 2 v)
      (let-values (((start end) (range 'vector-select! v o 4)))
        (if (not (and (exact-integer? k) (<= 0 k) (< k (- end start))))
            (%range-error 'vector-select! 3 "k out of the range's size" k))
        (select! less v start end k)
        (vector-ref v (+ start k))))

    ;; (vector-separate! < v k [start [end]]): Puts the k smallest elements of v[start, end) first in the range, the
    ;; others after, in no particular order.
    (define (vector-separate! less v k . o)
      (check-procedure 'vector-separate! 1 less)
      (check-vector 'vector-separate! 2 v)
      (let-values (((start end) (range 'vector-separate! v o 4)))
        (if (not (and (exact-integer? k) (<= 0 k) (<= k (- end start))))
            (%range-error 'vector-separate! 3 "k out of the range's size" k))
        (if (< k (- end start)) (select! less v start end k))))))
