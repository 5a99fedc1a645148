;;; (srfi 130): the cursor-based string library (SRFI 130).
;;;
;;; Cursors are exact integers, the character indexes themselves, as the document
;;; allows ("identical to indexes"): every procedure takes either, and string-cursor?
;;; is true of both. What SRFI 130 shares with SRFI 13 is SRFI 13's binding, what it
;;; shares with SRFI 152 is SRFI 152's; only the searches differ, returning a cursor
;;; (the end, or the start searching right) where SRFI 13 returns #f.
(define-library (srfi 130)
  (import (scheme base) (scheme case-lambda)
          (prefix (srfi 13) s13:)
          (only (srfi 13)
                string-null? string-every string-any string-tabulate string-unfold string-unfold-right
                reverse-list->string string-join string-take string-take-right string-drop string-drop-right
                string-pad string-pad-right string-trim string-trim-right string-trim-both
                string-prefix-length string-suffix-length string-prefix? string-suffix? string-contains
                string-reverse string-concatenate string-concatenate-reverse string-fold string-fold-right
                string-count string-replace string-filter string-delete)
          (only (nodwyn primitives srfi 152) string-contains-right string-replicate string-split)
          (only (prefix (nodwyn primitives srfi 13) %) %string-range)
          (prefix (nodwyn primitives srfi support) %))
  (export
    ;; Cursor operations
    string-cursor? string-cursor-start string-cursor-end string-cursor-next string-cursor-prev
    string-cursor-forward string-cursor-back
    string-cursor=? string-cursor<? string-cursor>? string-cursor<=? string-cursor>=?
    string-cursor-diff string-cursor->index string-index->cursor
    ;; Predicates
    string-null? string-every string-any
    ;; Constructors
    string-tabulate string-unfold string-unfold-right
    ;; Conversion
    string->list/cursors string->vector/cursors reverse-list->string string-join
    ;; Selection
    string-ref/cursor substring/cursors string-copy/cursors
    string-take string-take-right string-drop string-drop-right
    string-pad string-pad-right string-trim string-trim-right string-trim-both
    ;; Prefixes and suffixes
    string-prefix-length string-suffix-length string-prefix? string-suffix?
    ;; Searching
    string-index string-index-right string-skip string-skip-right string-contains string-contains-right
    ;; The whole string
    string-reverse string-concatenate string-concatenate-reverse string-fold string-fold-right
    string-for-each-cursor string-replicate string-count string-replace string-split
    string-filter (rename string-delete string-remove))
  (begin

    ;; The checked start and end of s (#f: the defaults), as two values, for who.
    (define-syntax with-range
      (syntax-rules ()
        ((_ (a b) (who s n start end) body ...)
         (call-with-values (lambda () (%string-range 'who s n start end)) (lambda (a b) body ...)))))

    (define (opt rest k) (let lp ((r rest) (k k)) (cond ((not (pair? r)) #f) ((= k 0) (car r)) (else (lp (cdr r) (- k 1))))))

    ;; A cursor of s: an exact integer from 0 to (string-length s).
    (define (check-cursor who n s c)
      (if (not (string? s)) (%arg-error who 1 "string" s))
      (if (not (and (exact-integer? c) (<= 0 c (string-length s))))
          (%range-error who n (string-append (if (exact-integer? c) (number->string c) "it") " is not a cursor of a string of length "
                                             (number->string (string-length s)))
                        c)))

    ;;; ---- cursors ----

    ;; (string-cursor? obj): True when obj can be a cursor: an exact non-negative integer (cursors are indexes here).
    (define (string-cursor? obj) (and (exact-integer? obj) (>= obj 0)))

    ;; (string-cursor-start s): The start cursor of s, 0.
    (define (string-cursor-start s)
      (if (not (string? s)) (%arg-error 'string-cursor-start 1 "string" s))
      0)

    ;; (string-cursor-end s): The post-end cursor of s, its length.
    (define (string-cursor-end s)
      (if (not (string? s)) (%arg-error 'string-cursor-end 1 "string" s))
      (string-length s))

    ;; (string-cursor-next s cursor): The cursor after cursor; an error at the post-end cursor.
    (define (string-cursor-next s c)
      (check-cursor 'string-cursor-next 2 s c)
      (if (= c (string-length s)) (%range-error 'string-cursor-next 2 "the post-end cursor has no next" c))
      (+ c 1))

    ;; (string-cursor-prev s cursor): The cursor before cursor; an error at the start cursor.
    (define (string-cursor-prev s c)
      (check-cursor 'string-cursor-prev 2 s c)
      (if (= c 0) (%range-error 'string-cursor-prev 2 "the start cursor has no previous" c))
      (- c 1))

    ;; (string-cursor-forward s cursor nchars): The cursor nchars characters after cursor; an error past the end.
    (define (string-cursor-forward s c n)
      (check-cursor 'string-cursor-forward 2 s c)
      (if (not (and (exact-integer? n) (>= n 0))) (%arg-error 'string-cursor-forward 3 "exact non-negative integer" n))
      (if (> (+ c n) (string-length s)) (%range-error 'string-cursor-forward 3 "past the end of the string" n))
      (+ c n))

    ;; (string-cursor-back s cursor nchars): The cursor nchars characters before cursor; an error before the start.
    (define (string-cursor-back s c n)
      (check-cursor 'string-cursor-back 2 s c)
      (if (not (and (exact-integer? n) (>= n 0))) (%arg-error 'string-cursor-back 3 "exact non-negative integer" n))
      (if (< (- c n) 0) (%range-error 'string-cursor-back 3 "before the start of the string" n))
      (- c n))

    (define-syntax define-cursor-comparison
      (syntax-rules ()
        ((_ name op)
         (define (name c1 c2)
           (if (not (string-cursor? c1)) (%arg-error 'name 1 "string cursor" c1))
           (if (not (string-cursor? c2)) (%arg-error 'name 2 "string cursor" c2))
           (op c1 c2)))))

    ;; (string-cursor=? cursor1 cursor2): True when the two cursors of one string are the same.
    (define-cursor-comparison string-cursor=? =)
    ;; (string-cursor<? cursor1 cursor2): True when cursor1 comes before cursor2.
    (define-cursor-comparison string-cursor<? <)
    ;; (string-cursor>? cursor1 cursor2): True when cursor1 comes after cursor2.
    (define-cursor-comparison string-cursor>? >)
    ;; (string-cursor<=? cursor1 cursor2): True when cursor1 does not come after cursor2.
    (define-cursor-comparison string-cursor<=? <=)
    ;; (string-cursor>=? cursor1 cursor2): True when cursor1 does not come before cursor2.
    (define-cursor-comparison string-cursor>=? >=)

    ;; (string-cursor-diff s start end): The number of characters of s between the cursors start and end.
    (define (string-cursor-diff s start end)
      (check-cursor 'string-cursor-diff 2 s start)
      (check-cursor 'string-cursor-diff 3 s end)
      (- end start))

    ;; (string-cursor->index s cursor): The index of cursor in s: the cursor itself. #f (a failed string-contains)
    ;; is returned as it is.
    (define (string-cursor->index s c) (if c (check-cursor 'string-cursor->index 2 s c)) c)

    ;; (string-index->cursor s index): The cursor of index in s: the index itself. #f is returned as it is.
    (define (string-index->cursor s i) (if i (check-cursor 'string-index->cursor 2 s i)) i)

    ;;; ---- the R7RS procedures under cursor names ----

    ;; (string->list/cursors s [start] [end]): string->list, with cursors or indexes.
    (define string->list/cursors string->list)
    ;; (string->vector/cursors s [start] [end]): string->vector, with cursors or indexes.
    (define string->vector/cursors string->vector)
    ;; (string-ref/cursor s cursor): string-ref, with a cursor or an index.
    (define string-ref/cursor string-ref)
    ;; (substring/cursors s start end): substring, with cursors or indexes.
    (define substring/cursors substring)
    ;; (string-copy/cursors s [start] [end]): string-copy (always a new string), with cursors or indexes.
    (define string-copy/cursors string-copy)

    ;;; ---- searches returning cursors ----

    (define-syntax define-search
      (syntax-rules ()
        ((_ name s13 right?)
         (define (name s pred . range)
           (with-range (a b) (name s 3 (opt range 0) (opt range 1))
             (let ((i (s13 s pred a b)))
               (if right? (if i (+ i 1) a) (or i b))))))))

    ;; (string-index s pred [start] [end]): The cursor of the first character of s[start, end) satisfying pred, or end.
    (define-search string-index s13:string-index #f)
    ;; (string-index-right s pred [start] [end]): The cursor after the last character of s[start, end) satisfying pred,
    ;; or start.
    (define-search string-index-right s13:string-index-right #t)
    ;; (string-skip s pred [start] [end]): The cursor of the first character of s[start, end) failing pred, or end.
    (define-search string-skip s13:string-skip #f)
    ;; (string-skip-right s pred [start] [end]): The cursor after the last character of s[start, end) failing pred, or
    ;; start.
    (define-search string-skip-right s13:string-skip-right #t)

    ;; (string-for-each-cursor proc s [start] [end]): Calls proc on each cursor of s[start, end) but the post-end one, in
    ;; order.
    (define (string-for-each-cursor proc s . range)
      (if (not (procedure? proc)) (%arg-error 'string-for-each-cursor 1 "procedure" proc))
      (with-range (a b) (string-for-each-cursor s 3 (opt range 0) (opt range 1))
        (let lp ((i a)) (if (< i b) (begin (proc i) (lp (+ i 1)))))))))
