;;; (srfi 158): generators and accumulators (SRFI 158).
;;;
;;; Generators are procedures of no argument that return the end-of-file
;;; object when they are exhausted; accumulators are procedures of one argument
;;; that return their result when given the end-of-file object. No disjoint
;;; type: any procedure of the right arity serves.
(define-library (srfi 158)
  (import (scheme base) (scheme case-lambda)
          (prefix (nodwyn primitives srfi support) %))
  (export
    ;; Generator constructors
    generator circular-generator make-iota-generator make-range-generator make-coroutine-generator
    list->generator vector->generator reverse-vector->generator string->generator bytevector->generator
    make-for-each-generator make-unfold-generator
    ;; Generator operations
    gcons* gappend gflatten ggroup gmerge gmap gcombine gfilter gremove gstate-filter
    gtake gdrop gtake-while gdrop-while gdelete gdelete-neighbor-dups gindex gselect
    ;; Consuming generated values
    generator->list generator->reverse-list generator->vector generator->vector! generator->string
    generator-fold generator-for-each generator-map->list generator-find generator-count
    generator-any generator-every generator-unfold
    ;; Accumulator constructors
    make-accumulator count-accumulator list-accumulator reverse-list-accumulator vector-accumulator
    reverse-vector-accumulator vector-accumulator! string-accumulator bytevector-accumulator
    bytevector-accumulator! sum-accumulator product-accumulator)
  (begin

    (define (check-procedure who n x) (if (not (procedure? x)) (%arg-error who n "procedure" x)))
    (define (check-count who n x) (if (not (and (exact-integer? x) (>= x 0))) (%arg-error who n "exact non-negative integer" x)))

    (define (opt rest k) (let lp ((r rest) (k k)) (cond ((not (pair? r)) #f) ((= k 0) (car r)) (else (lp (cdr r) (- k 1))))))

    ;; The checked start and end (#f: 0 and len) of a sequence of length len, for who with start as argument n.
    (define (range who len n start end)
      (let ((s (or start 0)) (e (or end len)))
        (check-count who n s)
        (check-count who (+ n 1) e)
        (if (> s len) (%range-error who n "start past the end" s))
        (if (or (> e len) (< e s)) (%range-error who (+ n 1) "end out of range" e))
        (values s e)))

    ;;; ---- constructors ----

    ;; (generator arg ...): A generator of the arguments, in order.
    (define (generator . args) (list->generator args))

    ;; (circular-generator arg1 arg2 ...): An infinite generator of the arguments, in order, again and again.
    (define (circular-generator arg . args)
      (let* ((all (cons arg args)) (l all))
        (lambda ()
          (if (null? l) (set! l all))
          (let ((x (car l))) (set! l (cdr l)) x))))

    ;; (make-iota-generator count [start] [step]): A generator of count numbers from start (0) by step (1); inexact
    ;; unless start and step are exact.
    (define make-iota-generator
      (case-lambda
        ((count) (make-iota-generator count 0 1))
        ((count start) (make-iota-generator count start 1))
        ((count start step)
         (check-count 'make-iota-generator 1 count)
         (if (not (number? start)) (%arg-error 'make-iota-generator 2 "number" start))
         (if (not (number? step)) (%arg-error 'make-iota-generator 3 "number" step))
         (let ((i 0) (exact? (and (exact? start) (exact? step))))
           (lambda ()
             (if (>= i count)
                 (eof-object)
                 (let ((x (+ start (* i step))))
                   (set! i (+ i 1))
                   (if exact? x (inexact x)))))))))

    ;; (make-range-generator start [end] [step]): A generator of the numbers from start by step (1) while less than end
    ;; (forever without end).
    (define make-range-generator
      (case-lambda
        ((start) (make-range-generator start +inf.0 1))
        ((start end) (make-range-generator start end 1))
        ((start end step)
         (if (not (real? start)) (%arg-error 'make-range-generator 1 "real number" start))
         (if (not (real? end)) (%arg-error 'make-range-generator 2 "real number" end))
         (if (not (real? step)) (%arg-error 'make-range-generator 3 "real number" step))
         (let ((i 0) (exact? (and (exact? start) (exact? step))))
           (lambda ()
             (let ((x (+ start (* i step))))
               (if (>= x end)
                   (eof-object)
                   (begin (set! i (+ i 1)) (if exact? x (inexact x))))))))))

    ;; (make-coroutine-generator proc): A generator of the values proc passes to the procedure it is called with
    ;; (yield), proc running until each yield; exhausted when proc returns.
    (define (make-coroutine-generator proc)
      (define return #f)
      (define resume #f)
      (define done #f)
      (define (yield v) (call/cc (lambda (k) (set! resume k) (return v))))
      (check-procedure 'make-coroutine-generator 1 proc)
      (lambda ()
        (if done
            (eof-object)
            (call/cc
              (lambda (r)
                (set! return r)
                (if resume
                    (resume #f)
                    (begin
                      (proc yield)
                      (set! done #t)
                      (return (eof-object)))))))))

    ;; (list->generator list): A generator of the elements of list.
    (define (list->generator l)
      (lambda ()
        (if (pair? l)
            (let ((x (car l))) (set! l (cdr l)) x)
            (eof-object))))

    (define (indexed->generator who ref len obj rest reverse?)
      (call-with-values (lambda () (range who (len obj) 2 (opt rest 0) (opt rest 1)))
        (lambda (s e)
          (if reverse?
              (let ((i e)) (lambda () (if (> i s) (begin (set! i (- i 1)) (ref obj i)) (eof-object))))
              (let ((i s)) (lambda () (if (< i e) (let ((x (ref obj i))) (set! i (+ i 1)) x) (eof-object))))))))

    ;; (vector->generator vec [start] [end]): A generator of the elements of vec[start, end).
    (define (vector->generator v . rest)
      (if (not (vector? v)) (%arg-error 'vector->generator 1 "vector" v))
      (indexed->generator 'vector->generator vector-ref vector-length v rest #f))

    ;; (reverse-vector->generator vec [start] [end]): A generator of the elements of vec[start, end), the last first.
    (define (reverse-vector->generator v . rest)
      (if (not (vector? v)) (%arg-error 'reverse-vector->generator 1 "vector" v))
      (indexed->generator 'reverse-vector->generator vector-ref vector-length v rest #t))

    ;; (string->generator str [start] [end]): A generator of the characters of str[start, end).
    (define (string->generator s . rest)
      (if (not (string? s)) (%arg-error 'string->generator 1 "string" s))
      (indexed->generator 'string->generator string-ref string-length s rest #f))

    ;; (bytevector->generator bytevector [start] [end]): A generator of the bytes of bytevector[start, end).
    (define (bytevector->generator b . rest)
      (if (not (bytevector? b)) (%arg-error 'bytevector->generator 1 "bytevector" b))
      (indexed->generator 'bytevector->generator bytevector-u8-ref bytevector-length b rest #f))

    ;; (make-for-each-generator for-each obj): A generator of the elements (for-each proc obj) calls proc on.
    (define (make-for-each-generator for-each obj)
      (check-procedure 'make-for-each-generator 1 for-each)
      (make-coroutine-generator (lambda (yield) (for-each yield obj))))

    ;; (make-unfold-generator stop? mapper successor seed): A generator of (mapper seed), (mapper (successor seed)) … up
    ;; to the first seed stop? is true of.
    (define (make-unfold-generator stop? mapper successor seed)
      (check-procedure 'make-unfold-generator 1 stop?)
      (check-procedure 'make-unfold-generator 2 mapper)
      (check-procedure 'make-unfold-generator 3 successor)
      (lambda ()
        (if (stop? seed)
            (eof-object)
            (let ((x (mapper seed))) (set! seed (successor seed)) x))))

    ;;; ---- operations ----

    ;; (gcons* item ... gen): A generator of the items, then of gen's values (a tail call of gen).
    (define (gcons* . args)
      (if (null? args) (%arg-error 'gcons* 1 "generator" args))
      (let lp ((items '()) (rest args))
        (if (null? (cdr rest))
            (let ((gen (car rest)) (items (reverse items)))
              (check-procedure 'gcons* (length args) gen)
              (lambda ()
                (if (pair? items)
                    (let ((x (car items))) (set! items (cdr items)) x)
                    (gen))))
            (lp (cons (car rest) items) (cdr rest)))))

    ;; (gappend gen ...): A generator of the values of the first generator, then the second's, and so on.
    (define (gappend . gens)
      (lambda ()
        (let lp ()
          (if (null? gens)
              (eof-object)
              (let ((x ((car gens))))
                (if (eof-object? x) (begin (set! gens (cdr gens)) (lp)) x))))))

    ;; (gflatten gen): A generator of the elements of the lists gen produces.
    (define (gflatten gen)
      (let ((l '()))
        (lambda ()
          (let lp ()
            (if (pair? l)
                (let ((x (car l))) (set! l (cdr l)) x)
                (let ((next (gen)))
                  (if (eof-object? next) next (begin (set! l next) (lp)))))))))

    ;; (ggroup gen k [padding]): A generator of lists of k values of gen; the last one shorter, or padded to k with
    ;; padding when it is given.
    (define (ggroup gen k . padding)
      (check-count 'ggroup 2 k)
      (lambda ()
        (let lp ((n 0) (acc '()))
          (if (= n k)
              (reverse acc)
              (let ((x (gen)))
                (cond ((not (eof-object? x)) (lp (+ n 1) (cons x acc)))
                      ((= n 0) x)
                      ((pair? padding) (append (reverse acc) (make-list (- k n) (car padding))))
                      (else (reverse acc))))))))

    ;; (gmerge less-than gen1 gen2 ...): A generator of the values of the generators in the order less-than says, the
    ;; leftmost first among equal ones.
    (define (gmerge less-than gen . gens)
      (check-procedure 'gmerge 1 less-than)
      (if (null? gens)
          gen
          (let* ((all (list->vector (cons gen gens)))
                 (n (vector-length all))
                 (heads (make-vector n #f))
                 (filled (make-vector n #f)))
            (lambda ()
              (let lp ((i 0) (best #f))
                (if (< i n)
                    (begin
                      (if (not (vector-ref filled i))
                          (begin (vector-set! heads i ((vector-ref all i))) (vector-set! filled i #t)))
                      (let ((x (vector-ref heads i)))
                        (lp (+ i 1)
                            (if (and (not (eof-object? x))
                                     (or (not best) (less-than x (vector-ref heads best))))
                                i
                                best))))
                    (if best
                        (let ((x (vector-ref heads best))) (vector-set! filled best #f) x)
                        (eof-object))))))))

    ;; The next values of the generators as a list, or #f when one is exhausted.
    (define (next-values gens)
      (let lp ((gs gens) (acc '()))
        (if (null? gs)
            (reverse acc)
            (let ((x ((car gs)))) (if (eof-object? x) #f (lp (cdr gs) (cons x acc)))))))

    ;; (gmap proc gen1 gen2 ...): A generator of proc applied to the values of the generators, until one is exhausted.
    (define (gmap proc gen . gens)
      (check-procedure 'gmap 1 proc)
      (if (null? gens)
          (lambda () (let ((x (gen))) (if (eof-object? x) x (proc x))))
          (let ((all (cons gen gens)))
            (lambda () (let ((xs (next-values all))) (if xs (apply proc xs) (eof-object)))))))

    ;; (gcombine proc seed gen gen2 ...): A generator of the first values of (proc v1 v2 ... seed) on the generators'
    ;; values, whose second value is the next seed.
    (define (gcombine proc seed gen . gens)
      (check-procedure 'gcombine 1 proc)
      (let ((all (cons gen gens)))
        (lambda ()
          (let ((xs (next-values all)))
            (if xs
                (call-with-values (lambda () (apply proc (append xs (list seed))))
                  (lambda (v next) (set! seed next) v))
                (eof-object))))))

    ;; (gfilter pred gen): A generator of the values of gen pred is true of.
    (define (gfilter pred gen)
      (check-procedure 'gfilter 1 pred)
      (lambda () (let lp () (let ((x (gen))) (if (or (eof-object? x) (pred x)) x (lp))))))

    ;; (gremove pred gen): A generator of the values of gen pred is false of.
    (define (gremove pred gen)
      (check-procedure 'gremove 1 pred)
      (gfilter (lambda (x) (not (pred x))) gen))

    ;; (gstate-filter proc seed gen): A generator of the values v of gen for which (proc v state) returns true, its second
    ;; value being the next state (seed at first).
    (define (gstate-filter proc seed gen)
      (check-procedure 'gstate-filter 1 proc)
      (lambda ()
        (let lp ()
          (let ((x (gen)))
            (if (eof-object? x)
                x
                (call-with-values (lambda () (proc x seed))
                  (lambda (keep next) (set! seed next) (if keep x (lp)))))))))

    ;; (gtake gen k [padding]): A generator of the first k values of gen (fewer when it ends first, unless padding is
    ;; given, which fills up to k).
    (define (gtake gen k . padding)
      (check-count 'gtake 2 k)
      (let ((n 0))
        (lambda ()
          (if (>= n k)
              (eof-object)
              (let ((x (gen)))
                (set! n (+ n 1))
                (if (and (eof-object? x) (pair? padding)) (car padding) x))))))

    ;; (gdrop gen k): A generator of the values of gen after its first k.
    (define (gdrop gen k)
      (check-count 'gdrop 2 k)
      (lambda ()
        (let lp () (if (> k 0) (begin (set! k (- k 1)) (if (eof-object? (gen)) (set! k 0)) (lp))))
        (gen)))

    ;; (gtake-while pred gen): A generator of the values of gen as long as pred is true of them.
    (define (gtake-while pred gen)
      (check-procedure 'gtake-while 1 pred)
      (let ((done #f))
        (lambda ()
          (if done
              (eof-object)
              (let ((x (gen)))
                (if (or (eof-object? x) (pred x)) x (begin (set! done #t) (eof-object))))))))

    ;; (gdrop-while pred gen): A generator of the values of gen from the first one pred is false of.
    (define (gdrop-while pred gen)
      (check-procedure 'gdrop-while 1 pred)
      (let ((dropping #t))
        (lambda ()
          (if dropping
              (let lp ()
                (let ((x (gen)))
                  (if (and (not (eof-object? x)) (pred x)) (lp) (begin (set! dropping #f) x))))
              (gen)))))

    ;; (gdelete item gen [=]): A generator of the values v of gen but those with (= item v) (= is equal? by default).
    (define (gdelete item gen . eq)
      (let ((= (if (pair? eq) (car eq) equal?)))
        (check-procedure 'gdelete 3 =)
        (lambda () (let lp () (let ((x (gen))) (if (and (not (eof-object? x)) (= item x)) (lp) x))))))

    ;; (gdelete-neighbor-dups gen [=]): A generator of the values of gen but those = (equal? by default) to the one before,
    ;; called as (= previous next).
    (define (gdelete-neighbor-dups gen . eq)
      (let ((= (if (pair? eq) (car eq) equal?)) (first #t) (prev #f))
        (check-procedure 'gdelete-neighbor-dups 2 =)
        (lambda ()
          (let lp ()
            (let ((x (gen)))
              (cond ((eof-object? x) x)
                    ((and (not first) (= prev x)) (lp))
                    (else (set! first #f) (set! prev x) x)))))))

    ;; (gindex value-gen index-gen): A generator of the values of value-gen at the indexes index-gen produces (strictly
    ;; increasing).
    (define (gindex value-gen index-gen)
      (let ((pos 0) (last -1))
        (lambda ()
          (let ((i (index-gen)))
            (if (eof-object? i)
                i
                (begin
                  (if (not (and (exact-integer? i) (> i last)))
                      (%range-error 'gindex 2 "indexes must be strictly increasing exact integers" i))
                  (set! last i)
                  (let lp ()
                    (let ((x (value-gen)))
                      (cond ((eof-object? x) x)
                            ((= pos i) (set! pos (+ pos 1)) x)
                            (else (set! pos (+ pos 1)) (lp)))))))))))

    ;; (gselect value-gen truth-gen): A generator of the values of value-gen whose matching value of truth-gen is true.
    (define (gselect value-gen truth-gen)
      (lambda ()
        (let lp ()
          (let ((x (value-gen)) (t (truth-gen)))
            (cond ((eof-object? x) x)
                  ((eof-object? t) t)
                  (t x)
                  (else (lp)))))))

    ;;; ---- consuming ----

    ;; The values of gen, at most k of them (all without k), in reverse order.
    (define (read-reverse who gen k)
      (if k (check-count who 2 k))
      (let lp ((n 0) (acc '()))
        (if (and k (>= n k))
            acc
            (let ((x (gen))) (if (eof-object? x) acc (lp (+ n 1) (cons x acc)))))))

    ;; (generator->list generator [k]): A new list of the values of generator, at most k of them.
    (define (generator->list gen . k) (reverse (read-reverse 'generator->list gen (opt k 0))))

    ;; (generator->reverse-list generator [k]): A new list of the values of generator, at most k, the last first.
    (define (generator->reverse-list gen . k) (read-reverse 'generator->reverse-list gen (opt k 0)))

    ;; (generator->vector generator [k]): A new vector of the values of generator, at most k of them.
    (define (generator->vector gen . k) (list->vector (reverse (read-reverse 'generator->vector gen (opt k 0)))))

    ;; (generator->vector! vector at generator): Stores values of generator in vector from index at until it is full or
    ;; generator is exhausted; returns how many.
    (define (generator->vector! v at gen)
      (if (not (vector? v)) (%arg-error 'generator->vector! 1 "vector" v))
      (check-count 'generator->vector! 2 at)
      (let lp ((i at))
        (if (>= i (vector-length v))
            (- i at)
            (let ((x (gen))) (if (eof-object? x) (- i at) (begin (vector-set! v i x) (lp (+ i 1))))))))

    ;; (generator->string generator [k]): A new string of the characters generator produces, at most k of them.
    (define (generator->string gen . k) (list->string (reverse (read-reverse 'generator->string gen (opt k 0)))))

    ;; (generator-fold proc seed gen1 gen2 ...): Calls (proc v1 v2 ... acc) on the generators' values, acc starting as
    ;; seed and then the last result, until one is exhausted.
    (define (generator-fold proc seed gen . gens)
      (check-procedure 'generator-fold 1 proc)
      (if (null? gens)
          (let lp ((acc seed)) (let ((x (gen))) (if (eof-object? x) acc (lp (proc x acc)))))
          (let ((all (cons gen gens)))
            (let lp ((acc seed)) (let ((xs (next-values all))) (if xs (lp (apply proc (append xs (list acc)))) acc))))))

    ;; (generator-for-each proc gen gen2 ...): Calls proc on the generators' values, for its effects, until one is
    ;; exhausted.
    (define (generator-for-each proc gen . gens)
      (check-procedure 'generator-for-each 1 proc)
      (let ((all (cons gen gens)))
        (let lp () (let ((xs (next-values all))) (if xs (begin (apply proc xs) (lp))))))
      (if #f #f))

    ;; (generator-map->list proc gen gen2 ...): The list of proc applied to the generators' values, until one is
    ;; exhausted.
    (define (generator-map->list proc gen . gens)
      (check-procedure 'generator-map->list 1 proc)
      (let ((all (cons gen gens)))
        (let lp ((acc '())) (let ((xs (next-values all))) (if xs (lp (cons (apply proc xs) acc)) (reverse acc))))))

    ;; (generator-find pred gen): The first value of gen pred is true of, or #f; the rest of gen is not read.
    (define (generator-find pred gen)
      (check-procedure 'generator-find 1 pred)
      (let lp () (let ((x (gen))) (cond ((eof-object? x) #f) ((pred x) x) (else (lp))))))

    ;; (generator-count pred gen): How many values of gen pred is true of.
    (define (generator-count pred gen)
      (check-procedure 'generator-count 1 pred)
      (let lp ((n 0)) (let ((x (gen))) (if (eof-object? x) n (lp (if (pred x) (+ n 1) n))))))

    ;; (generator-any pred gen): The first true value of pred on the values of gen, or #f.
    (define (generator-any pred gen)
      (check-procedure 'generator-any 1 pred)
      (let lp () (let ((x (gen))) (if (eof-object? x) #f (or (pred x) (lp))))))

    ;; (generator-every pred gen): #f at the first value pred is false of; else pred's last value (#t for none).
    (define (generator-every pred gen)
      (check-procedure 'generator-every 1 pred)
      (let lp ((last #t)) (let ((x (gen))) (if (eof-object? x) last (let ((r (pred x))) (if r (lp r) #f))))))

    ;; (generator-unfold gen unfold arg ...): (unfold eof-object? (lambda (x) x) (lambda (x) (gen)) (gen) arg ...): the
    ;; values of gen as the collection unfold makes.
    (define (generator-unfold gen unfold . args)
      (check-procedure 'generator-unfold 2 unfold)
      (apply unfold eof-object? (lambda (x) x) (lambda (x) (gen)) (gen) args))

    ;;; ---- accumulators ----

    ;; (make-accumulator kons knil finalizer): An accumulator: given a value v it makes its state (kons v state), knil at
    ;; first; given the end-of-file object it returns (finalizer state), a tail call.
    (define (make-accumulator kons knil finalizer)
      (check-procedure 'make-accumulator 1 kons)
      (check-procedure 'make-accumulator 3 finalizer)
      (let ((state knil))
        (lambda (x) (if (eof-object? x) (finalizer state) (set! state (kons x state))))))

    ;; (count-accumulator): An accumulator of the number of values it is given.
    (define (count-accumulator) (make-accumulator (lambda (x n) (+ n 1)) 0 (lambda (n) n)))

    ;; (list-accumulator): An accumulator of the list of values it is given, in order.
    (define (list-accumulator) (make-accumulator cons '() reverse))

    ;; (reverse-list-accumulator): An accumulator of the list of values it is given, the last first.
    (define (reverse-list-accumulator) (make-accumulator cons '() (lambda (l) l)))

    ;; (vector-accumulator): An accumulator of the vector of values it is given, in order.
    (define (vector-accumulator) (make-accumulator cons '() (lambda (l) (list->vector (reverse l)))))

    ;; (reverse-vector-accumulator): An accumulator of the vector of values it is given, the last first.
    (define (reverse-vector-accumulator) (make-accumulator cons '() list->vector))

    ;; (vector-accumulator! vector at): An accumulator that stores the values it is given in vector from index at, and
    ;; returns vector.
    (define (vector-accumulator! v at)
      (if (not (vector? v)) (%arg-error 'vector-accumulator! 1 "vector" v))
      (check-count 'vector-accumulator! 2 at)
      (lambda (x)
        (if (eof-object? x)
            v
            (begin
              (if (>= at (vector-length v)) (%range-error 'vector-accumulator! 2 "more values than the vector holds" at))
              (vector-set! v at x)
              (set! at (+ at 1))))))

    ;; (string-accumulator): An accumulator of the string of the characters it is given, in order.
    (define (string-accumulator)
      (make-accumulator (lambda (c l) (if (char? c) (cons c l) (%arg-error 'string-accumulator 1 "character" c)))
                        '()
                        (lambda (l) (list->string (reverse l)))))

    ;; (bytevector-accumulator): An accumulator of the bytevector of the bytes it is given, in order.
    (define (bytevector-accumulator)
      (make-accumulator cons '() (lambda (l) (apply bytevector (reverse l)))))

    ;; (bytevector-accumulator! bytevector at): An accumulator that stores the bytes it is given in bytevector from
    ;; index at, and returns bytevector.
    (define (bytevector-accumulator! b at)
      (if (not (bytevector? b)) (%arg-error 'bytevector-accumulator! 1 "bytevector" b))
      (check-count 'bytevector-accumulator! 2 at)
      (lambda (x)
        (if (eof-object? x)
            b
            (begin
              (if (>= at (bytevector-length b)) (%range-error 'bytevector-accumulator! 2 "more bytes than the bytevector holds" at))
              (bytevector-u8-set! b at x)
              (set! at (+ at 1))))))

    ;; (sum-accumulator): An accumulator of the sum of the numbers it is given.
    (define (sum-accumulator) (make-accumulator + 0 (lambda (s) s)))

    ;; (product-accumulator): An accumulator of the product of the numbers it is given.
    (define (product-accumulator) (make-accumulator * 1 (lambda (p) p)))))
