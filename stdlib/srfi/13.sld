;;; (srfi 13): the string library (SRFI 13).
;;;
;;; What calls no procedure argument is TypeScript (primitives/srfi/strings-13.ts):
;;; searching, padding, trimming, comparing, joining, case. A procedure taking a
;;; char/char-set/pred criterion tests a predicate here, in Scheme, and hands
;;; characters and char-sets to TypeScript. The names SRFI 13 shares with R7RS
;;; are R7RS's own bindings, extended with SRFI 13's optional start and end
;;; (string-map, string-for-each, string-upcase, string-downcase): where the two
;;; documents differ, as on "ß", R7RS's full case mappings win.
(define-library (srfi 13)
  (import (scheme base) (scheme char) (scheme case-lambda)
          (srfi 14)
          ;; What TypeScript does whole, exported as it is; the rest, prefixed, is wrapped below.
          (only (nodwyn primitives srfi 13)
                string-null? reverse-list->string string-join substring/shared string-take
                string-drop string-take-right string-drop-right string-pad string-pad-right string=
                string<> string< string> string<= string>= string-ci= string-ci<> string-ci<
                string-ci> string-ci<= string-ci>= string-hash string-hash-ci string-prefix-length
                string-suffix-length string-prefix-length-ci string-suffix-length-ci string-prefix?
                string-suffix? string-prefix-ci? string-suffix-ci? string-contains
                string-contains-ci string-titlecase string-titlecase! string-upcase!
                string-downcase! string-reverse string-reverse! string-concatenate
                string-concatenate/shared string-append/shared string-concatenate-reverse
                string-concatenate-reverse/shared xsubstring string-xcopy! string-replace
                string-tokenize string-parse-start+end string-parse-final-start+end
                check-substring-spec substring-spec-ok?)
          (prefix (nodwyn primitives srfi 13) %)
          (prefix (nodwyn primitives srfi support) %))
  (export
    ;; Predicates
    string? string-null? string-every string-any
    ;; Constructors
    make-string string string-tabulate
    ;; List and string conversion
    string->list list->string reverse-list->string string-join
    ;; Selection
    string-length string-ref string-copy substring/shared string-copy!
    string-take string-take-right string-drop string-drop-right
    string-pad string-pad-right string-trim string-trim-right string-trim-both
    ;; Modification
    string-set! string-fill!
    ;; Comparison
    string-compare string-compare-ci
    string<> string= string< string> string<= string>=
    string-ci<> string-ci= string-ci< string-ci> string-ci<= string-ci>=
    string-hash string-hash-ci
    ;; Prefixes and suffixes
    string-prefix-length string-suffix-length string-prefix-length-ci string-suffix-length-ci
    string-prefix? string-suffix? string-prefix-ci? string-suffix-ci?
    ;; Searching
    string-index string-index-right string-skip string-skip-right string-count
    string-contains string-contains-ci
    ;; Alphabetic case mapping
    string-titlecase string-upcase string-downcase string-titlecase! string-upcase! string-downcase!
    ;; Reverse and append
    string-reverse string-reverse! string-append string-concatenate
    string-concatenate/shared string-append/shared
    string-concatenate-reverse string-concatenate-reverse/shared
    ;; Fold, unfold and map
    string-map string-map! string-fold string-fold-right string-unfold string-unfold-right
    string-for-each string-for-each-index
    ;; Replicate and rotate
    xsubstring string-xcopy!
    ;; Insertion and parsing
    string-replace string-tokenize
    ;; Filtering and deleting
    string-filter string-delete
    ;; Low-level procedures
    string-parse-start+end string-parse-final-start+end let-string-start+end
    check-substring-spec substring-spec-ok?
    make-kmp-restart-vector kmp-step string-kmp-partial-search)
  (begin

    (define-syntax check-procedure
      (syntax-rules ()
        ((_ who n x) (if (not (procedure? x)) (%arg-error 'who n "procedure" x)))))

    ;; check-procedure for a who known only when running.
    (define (check-proc who n x) (if (not (procedure? x)) (%arg-error who n "procedure" x)))

    ;;; ---- criteria: a predicate here, a character or char-set in TypeScript ----

    ;; Start and end, checked for s (#f: the default), as two values.
    (define-syntax with-range
      (syntax-rules ()
        ((_ (a b) (who s n start end) body ...)
         (call-with-values (lambda () (%string-range 'who s n start end)) (lambda (a b) body ...)))))

    ;; (define-s-criterion name ts (s pred a b) body ...): name takes (s criterion [start end]); a predicate
    ;; criterion runs body with the checked range, anything else goes to the TypeScript procedure ts.
    (define-syntax define-s-criterion
      (syntax-rules ()
        ((_ name ts (s pred a b) body ...)
         (define name
           (let ((by-pred (lambda (s pred start end) (with-range (a b) (name s 3 start end) body ...))))
             (case-lambda
               ((s c) (if (procedure? c) (by-pred s c #f #f) (ts s c)))
               ((s c start) (if (procedure? c) (by-pred s c start #f) (ts s c start)))
               ((s c start end) (if (procedure? c) (by-pred s c start end) (ts s c start end)))))))))

    ;; (string-index s char/char-set/pred [start] [end]): The index of the first character of s[start, end) that is char,
    ;; is in char-set or satisfies pred, or #f.
    (define-s-criterion string-index %string-index (s pred a b)
      (let lp ((i a)) (cond ((>= i b) #f) ((pred (string-ref s i)) i) (else (lp (+ i 1))))))

    ;; (string-index-right s char/char-set/pred [start] [end]): The index of the last character of s[start, end) that is
    ;; char, is in char-set or satisfies pred, or #f.
    (define-s-criterion string-index-right %string-index-right (s pred a b)
      (let lp ((i (- b 1))) (cond ((< i a) #f) ((pred (string-ref s i)) i) (else (lp (- i 1))))))

    ;; (string-skip s char/char-set/pred [start] [end]): The index of the first character of s[start, end) that is not
    ;; char, is not in char-set or fails pred, or #f.
    (define-s-criterion string-skip %string-skip (s pred a b)
      (let lp ((i a)) (cond ((>= i b) #f) ((pred (string-ref s i)) (lp (+ i 1))) (else i))))

    ;; (string-skip-right s char/char-set/pred [start] [end]): The index of the last character of s[start, end) that is not
    ;; char, is not in char-set or fails pred, or #f.
    (define-s-criterion string-skip-right %string-skip-right (s pred a b)
      (let lp ((i (- b 1))) (cond ((< i a) #f) ((pred (string-ref s i)) (lp (- i 1))) (else i))))

    ;; (string-count s char/char-set/pred [start] [end]): How many characters of s[start, end) are char, are in char-set
    ;; or satisfy pred.
    (define-s-criterion string-count %string-count (s pred a b)
      (let lp ((i a) (n 0)) (if (>= i b) n (lp (+ i 1) (if (pred (string-ref s i)) (+ n 1) n)))))

    ;; (define-criterion-s name ts (pred s a b) body ...): the same for name taking (criterion s [start end]).
    (define-syntax define-criterion-s
      (syntax-rules ()
        ((_ name ts (pred s a b) body ...)
         (define name
           (let ((by-pred (lambda (pred s start end) (with-range (a b) (name s 3 start end) body ...))))
             (case-lambda
               ((c s) (if (procedure? c) (by-pred c s #f #f) (ts c s)))
               ((c s start) (if (procedure? c) (by-pred c s start #f) (ts c s start)))
               ((c s start end) (if (procedure? c) (by-pred c s start end) (ts c s start end)))))))))

    ;; (string-every char/char-set/pred s [start] [end]): True when every character of s[start, end) is char or in
    ;; char-set; for a predicate, its value on the last character (a tail call), or #t for none.
    (define-criterion-s string-every %string-every (pred s a b)
      (or (>= a b)
          (let lp ((i a))
            (if (= i (- b 1))
                (pred (string-ref s i))
                (and (pred (string-ref s i)) (lp (+ i 1)))))))

    ;; (string-any char/char-set/pred s [start] [end]): True when some character of s[start, end) is char or in
    ;; char-set; for a predicate, its first true value (the call on the last character is a tail call).
    (define-criterion-s string-any %string-any (pred s a b)
      (and (< a b)
           (let lp ((i a))
             (if (= i (- b 1))
                 (pred (string-ref s i))
                 (or (pred (string-ref s i)) (lp (+ i 1)))))))

    ;; The characters of s[a, b) that keep? says to keep, as a new string.
    (define (keep-chars keep? s a b)
      (let lp ((i (- b 1)) (acc '()))
        (if (< i a) (list->string acc) (lp (- i 1) (let ((c (string-ref s i))) (if (keep? c) (cons c acc) acc))))))

    ;; (string-filter char/char-set/pred s [start] [end]): A new string of the characters of s[start, end) that are char,
    ;; are in char-set or satisfy pred. The string may come first, as in older implementations.
    (define (string-filter x y . range)
      (cond ((procedure? x) (apply filter-by-pred 'string-filter #t x y range))
            ((and (string? x) (procedure? y)) (apply filter-by-pred 'string-filter #t y x range))
            (else (apply %string-filter x y range))))

    ;; (string-delete char/char-set/pred s [start] [end]): A new string of the characters of s[start, end) that are not
    ;; char, are not in char-set or fail pred. The string may come first, as in older implementations.
    (define (string-delete x y . range)
      (cond ((procedure? x) (apply filter-by-pred 'string-delete #f x y range))
            ((and (string? x) (procedure? y)) (apply filter-by-pred 'string-delete #f y x range))
            (else (apply %string-delete x y range))))

    (define (filter-by-pred who keep pred s . range)
      (if (not (string? s)) (%arg-error who 2 "string" s))
      (with-range (a b) (who s 3 (if (pair? range) (car range) #f) (if (and (pair? range) (pair? (cdr range))) (cadr range) #f))
        (keep-chars (if keep pred (lambda (c) (not (pred c)))) s a b)))

    ;; (define-trim name ts left right): name takes (s [criterion start end]).
    (define-syntax define-trim
      (syntax-rules ()
        ((_ name ts left? right?)
         (define name
           (let ((by-pred (lambda (s pred start end)
                            (with-range (a b) (name s 3 start end)
                              (let* ((i (if left? (let lp ((i a)) (if (and (< i b) (pred (string-ref s i))) (lp (+ i 1)) i)) a))
                                     (j (if right? (let lp ((j b)) (if (and (> j i) (pred (string-ref s (- j 1)))) (lp (- j 1)) j)) b)))
                                (substring s i j))))))
             (case-lambda
               ((s) (ts s))
               ((s c) (if (procedure? c) (by-pred s c #f #f) (ts s c)))
               ((s c start) (if (procedure? c) (by-pred s c start #f) (ts s c start)))
               ((s c start end) (if (procedure? c) (by-pred s c start end) (ts s c start end)))))))))

    ;; (string-trim s [char/char-set/pred] [start] [end]): A new string of s[start, end) without the characters on the
    ;; left that are char, are in char-set or satisfy pred (char-set:whitespace by default).
    (define-trim string-trim %string-trim #t #f)
    ;; (string-trim-right s [char/char-set/pred] [start] [end]): string-trim on the right.
    (define-trim string-trim-right %string-trim-right #f #t)
    ;; (string-trim-both s [char/char-set/pred] [start] [end]): string-trim on both sides.
    (define-trim string-trim-both %string-trim-both #t #t)

    ;;; ---- what takes procedures ----

    ;; (string-tabulate proc len): A new string of the characters (proc 0) … (proc (- len 1)).
    (define (string-tabulate proc len)
      (check-procedure string-tabulate 1 proc)
      (if (not (and (exact-integer? len) (>= len 0))) (%arg-error 'string-tabulate 2 "exact non-negative integer" len))
      (let lp ((i (- len 1)) (acc '()))
        (if (< i 0) (list->string acc) (lp (- i 1) (cons (proc i) acc)))))

    (define (compare who ci s1 s2 proc< proc= proc> ranges)
      (check-proc who 3 proc<)
      (check-proc who 4 proc=)
      (check-proc who 5 proc>)
      (call-with-values (lambda () (apply %string-mismatch s1 s2 ci ranges))
        (lambda (i order) (cond ((< order 0) (proc< i)) ((= order 0) (proc= i)) (else (proc> i))))))

    ;; (string-compare s1 s2 proc< proc= proc> [start1] [end1] [start2] [end2]): Calls proc<, proc= or proc> on the
    ;; mismatch index (the index in s1 of the first difference; end1 when they are equal) as s1's range is less than,
    ;; equal to or greater than s2's.
    (define (string-compare s1 s2 proc< proc= proc> . ranges) (compare 'string-compare #f s1 s2 proc< proc= proc> ranges))

    ;; (string-compare-ci s1 s2 proc< proc= proc> [start1] [end1] [start2] [end2]): string-compare, case-folded by the 1-1
    ;; mappings.
    (define (string-compare-ci s1 s2 proc< proc= proc> . ranges) (compare 'string-compare-ci #t s1 s2 proc< proc= proc> ranges))

    (define (opt rest k) (let lp ((r rest) (k k)) (cond ((not (pair? r)) #f) ((= k 0) (car r)) (else (lp (cdr r) (- k 1))))))

    ;; (string-map! proc s [start] [end]): Replaces each character c of s[start, end) by (proc c), in place.
    (define (string-map! proc s . range)
      (check-procedure string-map! 1 proc)
      (with-range (a b) (string-map! s 3 (opt range 0) (opt range 1))
        (let lp ((i a)) (if (< i b) (begin (string-set! s i (proc (string-ref s i))) (lp (+ i 1)))))))

    ;; (string-fold kons knil s [start] [end]): Calls (kons c acc) on the characters of s[start, end) left to right, acc
    ;; starting as knil and then the last result.
    (define (string-fold kons knil s . range)
      (check-procedure string-fold 1 kons)
      (with-range (a b) (string-fold s 4 (opt range 0) (opt range 1))
        (let lp ((i a) (acc knil)) (if (< i b) (lp (+ i 1) (kons (string-ref s i) acc)) acc))))

    ;; (string-fold-right kons knil s [start] [end]): string-fold right to left: (string-fold-right cons '() s) is the list
    ;; of the characters of s.
    (define (string-fold-right kons knil s . range)
      (check-procedure string-fold-right 1 kons)
      (with-range (a b) (string-fold-right s 4 (opt range 0) (opt range 1))
        (let lp ((i (- b 1)) (acc knil)) (if (>= i a) (lp (- i 1) (kons (string-ref s i) acc)) acc))))

    (define (unfold-pieces who p f g seed)
      (check-proc who 1 p)
      (check-proc who 2 f)
      (check-proc who 3 g)
      ;; (values pieces-in-reverse-order final-seed); a piece is a character or a string.
      (let lp ((seed seed) (acc '()))
        (if (p seed) (values acc seed) (lp (g seed) (cons (f seed) acc)))))

    ;; A piece of an unfolded string as a string: a character or a string (SRFI 152 allows both).
    (define (piece->string who x)
      (cond ((char? x) (string x))
            ((string? x) x)
            (else (%arg-error who 2 "procedure returning characters or strings" x))))

    (define (concatenate who pieces) (apply string-append (map (lambda (x) (piece->string who x)) pieces)))

    ;; (string-unfold p f g seed [base] [make-final]): A new string: base ("" by default), then the characters (f seed),
    ;; (f (g seed)) … up to the first seed p is true of, then (make-final seed) of that seed ("" by default). As SRFI 152
    ;; allows, f and make-final may return strings and base may be a character.
    (define (string-unfold p f g seed . opts)
      (let ((base (or (opt opts 0) ""))
            (make-final (or (opt opts 1) (lambda (x) ""))))
        (call-with-values (lambda () (unfold-pieces 'string-unfold p f g seed))
          (lambda (rev last) (concatenate 'string-unfold (cons base (reverse (cons (make-final last) rev))))))))

    ;; (string-unfold-right p f g seed [base] [make-final]): Like string-unfold, the pieces from right to left:
    ;; (make-final seed), then the pieces, the first one last, then base.
    (define (string-unfold-right p f g seed . opts)
      (let ((base (or (opt opts 0) ""))
            (make-final (or (opt opts 1) (lambda (x) ""))))
        (call-with-values (lambda () (unfold-pieces 'string-unfold-right p f g seed))
          (lambda (rev last) (concatenate 'string-unfold-right (cons (make-final last) (append rev (list base))))))))

    ;; (string-for-each-index proc s [start] [end]): Calls proc on each index of s[start, end), in increasing order.
    (define (string-for-each-index proc s . range)
      (check-procedure string-for-each-index 1 proc)
      (with-range (a b) (string-for-each-index s 3 (opt range 0) (opt range 1))
        (let lp ((i a)) (if (< i b) (begin (proc i) (lp (+ i 1)))))))

    ;; (let-string-start+end (start end [rest]) proc s args body ...): Binds start and end (and rest) as
    ;; string-parse-start+end (string-parse-final-start+end without rest) returns them, for the body.
    (define-syntax let-string-start+end
      (syntax-rules ()
        ((_ (start end rest) proc s args body ...)
         (call-with-values (lambda () (string-parse-start+end proc s args)) (lambda (rest start end) body ...)))
        ((_ (start end) proc s args body ...)
         (call-with-values (lambda () (string-parse-final-start+end proc s args)) (lambda (start end) body ...)))))

    ;;; ---- Knuth-Morris-Pratt ----

    ;; (make-kmp-restart-vector s [c=] [start] [end]): The Knuth-Morris-Pratt restart vector of s[start, end) under c=
    ;; (char=? by default): rv[i] is where to resume in the pattern when its character i fails to match, -1 to move on.
    (define make-kmp-restart-vector
      (case-lambda
        ((s) (%make-kmp-restart-vector s #f))
        ((s c=) (kmp-vector s c= #f #f))
        ((s c= start) (kmp-vector s c= start #f))
        ((s c= start end) (kmp-vector s c= start end))))

    (define (kmp-vector s c= start end)
      (check-procedure make-kmp-restart-vector 2 c=)
      (with-range (a b) (make-kmp-restart-vector s 3 start end)
        (cond ((eq? c= char=?) (%make-kmp-restart-vector s #f a b))
              ((eq? c= char-ci=?) (%make-kmp-restart-vector s #t a b))
              (else
               ;; pi[j]: the longest proper prefix of the pattern's first j+1 characters that is also their suffix.
               (let* ((m (- b a))
                      (pat (lambda (i) (string-ref s (+ a i))))
                      (pi (make-vector m 0))
                      (rv (make-vector m -1)))
                 (let lp ((j 1) (k 0))
                   (if (< j m)
                       (let back ((k k))
                         (if (and (> k 0) (not (c= (pat j) (pat k))))
                             (back (vector-ref pi (- k 1)))
                             (let ((k (if (c= (pat j) (pat k)) (+ k 1) k)))
                               (vector-set! pi j k)
                               (lp (+ j 1) k))))))
                 (let lp ((i 1))
                   (if (< i m)
                       (let ((f (vector-ref pi (- i 1))))
                         (vector-set! rv i (cond ((> f 0) f) ((c= (pat i) (pat 0)) -1) (else 0)))
                         (lp (+ i 1)))))
                 rv)))))

    ;; (kmp-step pat rv c i c= p-start): One step of a Knuth-Morris-Pratt search: with i characters of the pattern
    ;; pat[p-start, p-start + (vector-length rv)) matched, the number matched after character c.
    (define (kmp-step pat rv c i c= p-start)
      (let lp ((i i))
        (if (c= c (string-ref pat (+ i p-start)))
            (+ i 1)
            (let ((i (vector-ref rv i)))
              (if (= i -1) 0 (lp i))))))

    ;; (string-kmp-partial-search pat rv s i [c=] [p-start] [s-start] [s-end]): Runs kmp-step over s[s-start, s-end) from
    ;; i characters of the pattern matched: -j when the match ends at index j of s, else the characters matched at the
    ;; end of s (to continue in a next string).
    (define (string-kmp-partial-search pat rv s i . opts)
      (let ((c= (or (opt opts 0) char=?))
            (p-start (or (opt opts 1) 0)))
        (check-procedure string-kmp-partial-search 5 c=)
        (with-range (a b) (string-kmp-partial-search s 7 (opt opts 2) (opt opts 3))
          (let ((patlen (vector-length rv)))
            (let lp ((si a) (vi i))
              (cond ((= vi patlen) (- si))
                    ((= si b) vi)
                    (else (lp (+ si 1) (kmp-step pat rv (string-ref s si) vi c= p-start)))))))))))
