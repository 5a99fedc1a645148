;;; (srfi 133): the vector library (SRFI 133).
;;;
;;; In Scheme: the procedures call their procedure arguments, and vector-ref and
;;; vector-set! are open-coded by the compiler. The names SRFI 133 shares with
;;; R7RS (vector-map, vector-for-each, vector-copy, vector-fill! …) are R7RS's
;;; own bindings, which already take several vectors and stop at the shortest.
(define-library (srfi 133)
  (import (scheme base) (scheme cxr) (scheme case-lambda)
          (prefix (nodwyn primitives srfi support) %))
  (export
    ;; Constructors
    make-vector vector vector-unfold vector-unfold-right vector-copy vector-reverse-copy
    vector-append vector-concatenate vector-append-subvectors
    ;; Predicates
    vector? vector-empty? vector=
    ;; Selectors
    vector-ref vector-length
    ;; Iteration
    vector-fold vector-fold-right vector-map vector-map! vector-for-each vector-count vector-cumulate
    ;; Searching
    vector-index vector-index-right vector-skip vector-skip-right vector-binary-search
    vector-any vector-every vector-partition
    ;; Mutators
    vector-set! vector-swap! vector-fill! vector-reverse! vector-copy! vector-reverse-copy!
    vector-unfold! vector-unfold-right!
    ;; Conversion
    vector->list reverse-vector->list list->vector reverse-list->vector vector->string string->vector)
  (begin

    (define (check-procedure who n x) (if (not (procedure? x)) (%arg-error who n "procedure" x)))
    (define (check-vector who n x) (if (not (vector? x)) (%arg-error who n "vector" x)))
    (define (check-index who n x)
      (if (not (and (exact-integer? x) (>= x 0))) (%arg-error who n "exact non-negative integer" x)))
    (define (check-vectors who n vs)
      (let lp ((vs vs) (n n)) (if (pair? vs) (begin (check-vector who n (car vs)) (lp (cdr vs) (+ n 1))))))

    ;; start and end (#f: 0 and the length) of v checked for who, whose argument n is start, as two values.
    (define (range who v n start end)
      (let* ((len (vector-length v))
             (s (if start start 0))
             (e (if end end len)))
        (check-index who n s)
        (check-index who (+ n 1) e)
        (if (> s len) (%range-error who n (string-append "start " (number->string s) " out of range [0, " (number->string len) "]") s))
        (if (or (> e len) (< e s))
            (%range-error who (+ n 1) (string-append "end " (number->string e) " out of range [" (number->string s) ", " (number->string len) "]") e))
        (values s e)))

    (define (opt rest k) (let lp ((r rest) (k k)) (cond ((not (pair? r)) #f) ((= k 0) (car r)) (else (lp (cdr r) (- k 1))))))

    (define-syntax with-range
      (syntax-rules ()
        ((_ (s e) (who v n rest) body ...)
         (call-with-values (lambda () (range 'who v n (opt rest 0) (opt rest 1))) (lambda (s e) body ...)))))

    ;; The length of the shortest of the vectors.
    (define (shortest vs)
      (let lp ((vs (cdr vs)) (n (vector-length (car vs))))
        (if (pair? vs) (lp (cdr vs) (min n (vector-length (car vs)))) n)))

    ;; The elements at index i of the vectors, as a list.
    (define (elements-at vs i) (map (lambda (v) (vector-ref v i)) vs))

    ;;; ---- constructors ----

    ;; Fills v[start, end) (from the right when right?) with the values f returns for (f index seed ...), the seeds
    ;; replaced each time by f's further values.
    (define (unfold-into who f v start end right? seeds)
      (if (null? seeds)
          (if right?
              (let lp ((i (- end 1))) (if (>= i start) (begin (vector-set! v i (f i)) (lp (- i 1)))))
              (let lp ((i start)) (if (< i end) (begin (vector-set! v i (f i)) (lp (+ i 1))))))
          (let lp ((i (if right? (- end 1) start)) (seeds seeds))
            (if (if right? (>= i start) (< i end))
                (call-with-values (lambda () (apply f i seeds))
                  (lambda (x . next)
                    (vector-set! v i x)
                    (lp (if right? (- i 1) (+ i 1)) next)))))))

    ;; (vector-unfold f length initial-seed ...): A new vector of length elements: element i is the first value of
    ;; (f i seed ...), whose further values are the seeds of the next call: (vector-unfold values 3) is #(0 1 2).
    (define (vector-unfold f len . seeds)
      (check-procedure 'vector-unfold 1 f)
      (check-index 'vector-unfold 2 len)
      (let ((v (make-vector len)))
        (unfold-into 'vector-unfold f v 0 len #f seeds)
        v))

    ;; (vector-unfold-right f length initial-seed ...): vector-unfold from the last index to the first.
    (define (vector-unfold-right f len . seeds)
      (check-procedure 'vector-unfold-right 1 f)
      (check-index 'vector-unfold-right 2 len)
      (let ((v (make-vector len)))
        (unfold-into 'vector-unfold-right f v 0 len #t seeds)
        v))

    ;; (vector-reverse-copy vec [start] [end]): A new vector of the elements of vec[start, end) in reverse order.
    (define (vector-reverse-copy v . rest)
      (check-vector 'vector-reverse-copy 1 v)
      (with-range (s e) (vector-reverse-copy v 2 rest)
        (let ((out (make-vector (- e s))))
          (let lp ((i s) (j (- e s 1)))
            (if (< i e) (begin (vector-set! out j (vector-ref v i)) (lp (+ i 1) (- j 1))) out)))))

    ;; (vector-concatenate list-of-vectors): A new vector of the elements of the vectors in the list, in order.
    (define (vector-concatenate vs)
      (if (not (list? vs)) (%arg-error 'vector-concatenate 1 "list of vectors" vs))
      (for-each (lambda (v) (if (not (vector? v)) (%arg-error 'vector-concatenate 1 "list of vectors" vs))) vs)
      (apply vector-append vs))

    ;; (vector-append-subvectors [vec start end] ...): A new vector of the elements of each vec[start, end), in order.
    (define (vector-append-subvectors . args)
      (let lp ((args args) (n 1) (parts '()))
        (cond ((null? args) (apply vector-append (reverse parts)))
              ((not (and (pair? (cdr args)) (pair? (cddr args))))
               (%arg-error 'vector-append-subvectors n "vector, start and end" (car args)))
              (else
               (let ((v (car args)) (start (cadr args)) (end (caddr args)))
                 (check-vector 'vector-append-subvectors n v)
                 (call-with-values (lambda () (range 'vector-append-subvectors v (+ n 1) start end))
                   (lambda (s e) (lp (cdddr args) (+ n 3) (cons (vector-copy v s e) parts)))))))))

    ;;; ---- predicates ----

    ;; (vector-empty? vec): True when vec has no element.
    (define (vector-empty? v)
      (check-vector 'vector-empty? 1 v)
      (= (vector-length v) 0))

    ;; (vector= elt=? vec ...): True when each vector has the length of the next and their elements are pairwise elt=?
    ;; (called with two elements); true with fewer than two vectors.
    (define (vector= elt=? . vs)
      (check-procedure 'vector= 1 elt=?)
      (check-vectors 'vector= 2 vs)
      (let outer ((vs vs))
        (or (null? vs) (null? (cdr vs))
            (let ((a (car vs)) (b (cadr vs)))
              (and (= (vector-length a) (vector-length b))
                   (let inner ((i 0))
                     (or (= i (vector-length a))
                         (and (elt=? (vector-ref a i) (vector-ref b i)) (inner (+ i 1)))))
                   (outer (cdr vs)))))))

    ;;; ---- iteration ----

    ;; (vector-fold kons knil vec1 vec2 ...): Calls (kons state elt1 elt2 ...) on the elements of the vectors index by
    ;; index, left to right, state starting as knil and then the last result; up to the end of the shortest vector.
    (define vector-fold
      (case-lambda
        ((kons knil v)
         (check-procedure 'vector-fold 1 kons)
         (check-vector 'vector-fold 3 v)
         (let ((n (vector-length v)))
           (let lp ((i 0) (acc knil)) (if (< i n) (lp (+ i 1) (kons acc (vector-ref v i))) acc))))
        ((kons knil v . vs)
         (check-procedure 'vector-fold 1 kons)
         (check-vectors 'vector-fold 3 (cons v vs))
         (let* ((all (cons v vs)) (n (shortest all)))
           (let lp ((i 0) (acc knil)) (if (< i n) (lp (+ i 1) (apply kons acc (elements-at all i))) acc))))))

    ;; (vector-fold-right kons knil vec1 vec2 ...): vector-fold from right to left, from the last index of the shortest
    ;; vector.
    (define vector-fold-right
      (case-lambda
        ((kons knil v)
         (check-procedure 'vector-fold-right 1 kons)
         (check-vector 'vector-fold-right 3 v)
         (let lp ((i (- (vector-length v) 1)) (acc knil)) (if (>= i 0) (lp (- i 1) (kons acc (vector-ref v i))) acc)))
        ((kons knil v . vs)
         (check-procedure 'vector-fold-right 1 kons)
         (check-vectors 'vector-fold-right 3 (cons v vs))
         (let ((all (cons v vs)))
           (let lp ((i (- (shortest all) 1)) (acc knil)) (if (>= i 0) (lp (- i 1) (apply kons acc (elements-at all i))) acc))))))

    ;; (vector-map! f vec1 vec2 ...): Replaces each element of vec1 by (f elt1 elt2 ...) of the vectors at its index; the
    ;; other vectors must be at least as long as vec1.
    (define (vector-map! f v . vs)
      (check-procedure 'vector-map! 1 f)
      (check-vectors 'vector-map! 2 (cons v vs))
      (let ((n (vector-length v)))
        (if (and (pair? vs) (< (shortest vs) n)) (%range-error 'vector-map! 3 "a vector shorter than the first" vs))
        (if (null? vs)
            (let lp ((i 0)) (if (< i n) (begin (vector-set! v i (f (vector-ref v i))) (lp (+ i 1)))))
            (let ((all (cons v vs)))
              (let lp ((i 0)) (if (< i n) (begin (vector-set! v i (apply f (elements-at all i))) (lp (+ i 1)))))))))

    ;; (vector-count pred? vec1 vec2 ...): How many indexes of the shortest vector pred? is true of (on the elements of all
    ;; the vectors there).
    (define (vector-count pred? v . vs)
      (check-procedure 'vector-count 1 pred?)
      (check-vectors 'vector-count 2 (cons v vs))
      (let* ((all (cons v vs)) (n (shortest all)))
        (let lp ((i 0) (c 0))
          (if (< i n)
              (lp (+ i 1) (if (if (null? vs) (pred? (vector-ref v i)) (apply pred? (elements-at all i))) (+ c 1) c))
              c))))

    ;; (vector-cumulate f knil vec): A new vector whose element i is (f previous (vector-ref vec i)), previous being knil
    ;; for the first: (vector-cumulate + 0 #(3 1 4)) is #(3 4 8).
    (define (vector-cumulate f knil v)
      (check-procedure 'vector-cumulate 1 f)
      (check-vector 'vector-cumulate 3 v)
      (let* ((n (vector-length v)) (out (make-vector n)))
        (let lp ((i 0) (acc knil))
          (if (< i n)
              (let ((x (f acc (vector-ref v i)))) (vector-set! out i x) (lp (+ i 1) x))
              out))))

    ;;; ---- searching ----

    ;; The first index from start (going by step) where (test (pred? elt ...)) holds, or #f.
    (define (search who pred? vs right? want)
      (check-procedure who 1 pred?)
      (check-vectors who 2 vs)
      (if (and right? (pair? (cdr vs)) (not (apply = (map vector-length vs))))
          (%range-error who 3 "vectors of different lengths (searching from the right needs one length)" vs))
      (let ((n (shortest vs)) (one (null? (cdr vs))))
        (let lp ((i (if right? (- n 1) 0)))
          (and (if right? (>= i 0) (< i n))
               (let ((r (if one (pred? (vector-ref (car vs) i)) (apply pred? (elements-at vs i)))))
                 (if (if want r (not r)) i (lp (if right? (- i 1) (+ i 1)))))))))

    ;; (vector-index pred? vec1 vec2 ...): The first index where pred? is true of the vectors' elements, or #f.
    (define (vector-index pred? v . vs) (search 'vector-index pred? (cons v vs) #f #t))
    ;; (vector-index-right pred? vec1 vec2 ...): The last index where pred? is true of the vectors' elements, or #f; the
    ;; vectors must have one length.
    (define (vector-index-right pred? v . vs) (search 'vector-index-right pred? (cons v vs) #t #t))
    ;; (vector-skip pred? vec1 vec2 ...): The first index where pred? is false of the vectors' elements, or #f.
    (define (vector-skip pred? v . vs) (search 'vector-skip pred? (cons v vs) #f #f))
    ;; (vector-skip-right pred? vec1 vec2 ...): The last index where pred? is false of the vectors' elements, or #f; the
    ;; vectors must have one length.
    (define (vector-skip-right pred? v . vs) (search 'vector-skip-right pred? (cons v vs) #t #f))

    ;; (vector-binary-search vec value cmp [start] [end]): An index of vec[start, end), sorted by cmp, whose element e
    ;; has (cmp e value) zero, or #f; cmp returns a negative, zero or positive integer as e is less than, equal to or
    ;; greater than value.
    (define (vector-binary-search v value cmp . rest)
      (check-vector 'vector-binary-search 1 v)
      (check-procedure 'vector-binary-search 3 cmp)
      (with-range (s e) (vector-binary-search v 4 rest)
        (let lp ((lo s) (hi e))
          (and (< lo hi)
               (let* ((mid (quotient (+ lo hi) 2))
                      (c (cmp (vector-ref v mid) value)))
                 (if (not (exact-integer? c)) (%arg-error 'vector-binary-search 3 "procedure returning an exact integer" cmp))
                 (cond ((= c 0) mid)
                       ((> c 0) (lp lo mid))
                       (else (lp (+ mid 1) hi))))))))

    ;; (vector-any pred? vec1 vec2 ...): The first true value of pred? on the vectors' elements, left to right, or #f.
    (define (vector-any pred? v . vs)
      (check-procedure 'vector-any 1 pred?)
      (check-vectors 'vector-any 2 (cons v vs))
      (let* ((all (cons v vs)) (n (shortest all)))
        (let lp ((i 0))
          (and (< i n)
               (or (if (null? vs) (pred? (vector-ref v i)) (apply pred? (elements-at all i))) (lp (+ i 1)))))))

    ;; (vector-every pred? vec1 vec2 ...): #f as soon as pred? is false on the vectors' elements, left to right; else its
    ;; value on the last ones (#t for none).
    (define (vector-every pred? v . vs)
      (check-procedure 'vector-every 1 pred?)
      (check-vectors 'vector-every 2 (cons v vs))
      (let* ((all (cons v vs)) (n (shortest all)))
        (let lp ((i 0) (last #t))
          (if (< i n)
              (let ((r (if (null? vs) (pred? (vector-ref v i)) (apply pred? (elements-at all i)))))
                (and r (lp (+ i 1) r)))
              last))))

    ;; (vector-partition pred? vec): Two values: a new vector of the elements of vec pred? is true of, in order, followed
    ;; by those it is false of, in order; and the number of the first.
    (define (vector-partition pred? v)
      (check-procedure 'vector-partition 1 pred?)
      (check-vector 'vector-partition 2 v)
      (let* ((n (vector-length v))
             (flags (make-vector n #f))
             (yes (let lp ((i 0) (c 0))
                    (if (< i n)
                        (if (pred? (vector-ref v i)) (begin (vector-set! flags i #t) (lp (+ i 1) (+ c 1))) (lp (+ i 1) c))
                        c)))
             (out (make-vector n)))
        (let lp ((i 0) (y 0) (no yes))
          (if (< i n)
              (if (vector-ref flags i)
                  (begin (vector-set! out y (vector-ref v i)) (lp (+ i 1) (+ y 1) no))
                  (begin (vector-set! out no (vector-ref v i)) (lp (+ i 1) y (+ no 1))))
              (values out yes)))))

    ;;; ---- mutators ----

    ;; (vector-swap! vec i j): Exchanges the elements of vec at i and j.
    (define (vector-swap! v i j)
      (check-vector 'vector-swap! 1 v)
      (let ((x (vector-ref v i)))
        (vector-set! v i (vector-ref v j))
        (vector-set! v j x)))

    ;; (vector-reverse! vec [start] [end]): Reverses the elements of vec[start, end) in place.
    (define (vector-reverse! v . rest)
      (check-vector 'vector-reverse! 1 v)
      (with-range (s e) (vector-reverse! v 2 rest)
        (let lp ((i s) (j (- e 1)))
          (if (< i j)
              (let ((x (vector-ref v i))) (vector-set! v i (vector-ref v j)) (vector-set! v j x) (lp (+ i 1) (- j 1)))))))

    ;; (vector-reverse-copy! to at from [start] [end]): Copies the elements of from[start, end) into to from index at, in
    ;; reverse order (correct when to and from are the same vector).
    (define (vector-reverse-copy! to at from . rest)
      (check-vector 'vector-reverse-copy! 1 to)
      (check-index 'vector-reverse-copy! 2 at)
      (check-vector 'vector-reverse-copy! 3 from)
      (with-range (s e) (vector-reverse-copy! from 4 rest)
        (if (> (+ at (- e s)) (vector-length to))
            (%range-error 'vector-reverse-copy! 2 "no room in the destination" at))
        ;; Copied first, so that overlapping ranges come out right.
        (let ((tmp (vector-copy from s e)))
          (let lp ((i 0))
            (if (< i (- e s))
                (begin (vector-set! to (+ at i) (vector-ref tmp (- e s i 1))) (lp (+ i 1))))))))

    ;; (vector-unfold! f vec start end initial-seed ...): vector-unfold into vec[start, end): element i is the first value
    ;; of (f i seed ...).
    (define (vector-unfold! f v start end . seeds)
      (check-procedure 'vector-unfold! 1 f)
      (check-vector 'vector-unfold! 2 v)
      (call-with-values (lambda () (range 'vector-unfold! v 3 start end))
        (lambda (s e) (unfold-into 'vector-unfold! f v s e #f seeds))))

    ;; (vector-unfold-right! f vec start end initial-seed ...): vector-unfold! from index end - 1 down to start.
    (define (vector-unfold-right! f v start end . seeds)
      (check-procedure 'vector-unfold-right! 1 f)
      (check-vector 'vector-unfold-right! 2 v)
      (call-with-values (lambda () (range 'vector-unfold-right! v 3 start end))
        (lambda (s e) (unfold-into 'vector-unfold-right! f v s e #t seeds))))

    ;;; ---- conversion ----

    ;; (reverse-vector->list vec [start] [end]): A new list of the elements of vec[start, end) in reverse order.
    (define (reverse-vector->list v . rest)
      (check-vector 'reverse-vector->list 1 v)
      (with-range (s e) (reverse-vector->list v 2 rest)
        (let lp ((i s) (acc '())) (if (< i e) (lp (+ i 1) (cons (vector-ref v i) acc)) acc))))

    ;; (reverse-list->vector proper-list): A new vector of the elements of the list in reverse order.
    (define (reverse-list->vector l)
      (if (not (list? l)) (%arg-error 'reverse-list->vector 1 "proper list" l))
      (let* ((n (length l)) (v (make-vector n)))
        (let lp ((l l) (i (- n 1))) (if (pair? l) (begin (vector-set! v i (car l)) (lp (cdr l) (- i 1))) v))))))
