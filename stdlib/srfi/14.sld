;;; (srfi 14): character sets over the whole of Unicode (SRFI 14).
;;;
;;; The sets and their algebra are TypeScript (primitives/srfi/char-sets.ts):
;;; inversion lists of code point ranges. What calls a procedure argument is
;;; here, walking a set's ranges in code point order.
(define-library (srfi 14)
  (import (scheme base)
          (except (nodwyn primitives srfi 14) char-set-standard char-set-ranges)
          (only (prefix (nodwyn primitives srfi 14) %) %char-set-standard %char-set-ranges)
          (prefix (nodwyn primitives srfi support) %))
  (export
    ;; Predicates and comparison
    char-set? char-set= char-set<= char-set-hash
    ;; Iterating over character sets
    char-set-cursor char-set-ref char-set-cursor-next end-of-char-set?
    char-set-fold char-set-unfold char-set-unfold! char-set-for-each char-set-map
    ;; Creating character sets
    char-set-copy char-set list->char-set string->char-set list->char-set! string->char-set!
    char-set-filter ucs-range->char-set char-set-filter! ucs-range->char-set! ->char-set
    ;; Querying character sets
    char-set->list char-set->string char-set-size char-set-count char-set-contains?
    char-set-every char-set-any
    ;; Character-set algebra
    char-set-adjoin char-set-delete char-set-adjoin! char-set-delete!
    char-set-complement char-set-union char-set-intersection
    char-set-complement! char-set-union! char-set-intersection!
    char-set-difference char-set-xor char-set-diff+intersection
    char-set-difference! char-set-xor! char-set-diff+intersection!
    ;; Standard character sets
    char-set:lower-case char-set:upper-case char-set:title-case
    char-set:letter char-set:digit char-set:letter+digit
    char-set:graphic char-set:printing char-set:whitespace
    char-set:iso-control char-set:punctuation char-set:symbol
    char-set:hex-digit char-set:blank char-set:ascii
    char-set:empty char-set:full)
  (begin

    (define-syntax check-procedure
      (syntax-rules ()
        ((_ who n x) (if (not (procedure? x)) (%arg-error 'who n "procedure" x)))))

    (define (check-proc who n x) (if (not (procedure? x)) (%arg-error who n "procedure" x)))

    (define-syntax check-char-set
      (syntax-rules ()
        ((_ who n x) (if (not (char-set? x)) (%arg-error 'who n "char-set" x)))))

    ;; Calls (visit char acc) on the members of cs in code point order, threading acc from init.
    (define (fold-members visit init cs)
      (let ((v (%char-set-ranges cs)))
        (let lp ((i 0) (acc init))
          (if (< i (vector-length v))
              (let ((end (vector-ref v (+ i 1))))
                (let inner ((c (vector-ref v i)) (acc acc))
                  (if (< c end)
                      (inner (+ c 1) (visit (integer->char c) acc))
                      (lp (+ i 2) acc))))
              acc))))

    ;;; ---- iterating ----

    ;; (char-set-fold kons knil cs): Calls (kons char acc) on each member of cs (in code point order), acc starting as
    ;; knil and then the last result.
    (define (char-set-fold kons knil cs)
      (check-procedure char-set-fold 1 kons)
      (check-char-set char-set-fold 3 cs)
      (fold-members kons knil cs))

    ;; The characters (f seed), (f (g seed)), … up to the first seed p is true of, as a list.
    (define (unfold-chars who p f g seed)
      (check-proc who 1 p)
      (check-proc who 2 f)
      (check-proc who 3 g)
      (let lp ((seed seed) (acc '()))
        (if (p seed) acc (lp (g seed) (cons (f seed) acc)))))

    ;; (char-set-unfold p f g seed [base-cs]): A new set of the characters (f seed), (f (g seed)), … up to the first
    ;; seed p is true of, and the members of base-cs (none by default).
    (define (char-set-unfold p f g seed . base)
      (let ((chars (unfold-chars 'char-set-unfold p f g seed)))
        (if (pair? base) (list->char-set chars (car base)) (list->char-set chars))))

    ;; (char-set-unfold! p f g seed base-cs): base-cs with the characters of char-set-unfold added (a linear update).
    (define (char-set-unfold! p f g seed base-cs)
      (list->char-set! (unfold-chars 'char-set-unfold! p f g seed) base-cs))

    ;; (char-set-for-each proc cs): Calls proc on each member of cs, in code point order, for its effects.
    (define (char-set-for-each proc cs)
      (check-procedure char-set-for-each 1 proc)
      (check-char-set char-set-for-each 2 cs)
      (fold-members (lambda (c acc) (proc c) acc) #f cs)
      (if #f #f))

    ;; (char-set-map proc cs): A new set of the characters proc returns for the members of cs: (char-set-map
    ;; char-downcase cs).
    (define (char-set-map proc cs)
      (check-procedure char-set-map 1 proc)
      (check-char-set char-set-map 2 cs)
      (let ((chars (fold-members (lambda (c acc) (cons (proc c) acc)) '() cs)))
        (if (not (every-char? chars)) (%arg-error 'char-set-map 1 "procedure returning characters" proc))
        (list->char-set chars)))

    (define (every-char? l) (or (null? l) (and (char? (car l)) (every-char? (cdr l)))))

    ;;; ---- creating ----

    ;; The members of cs that pred is true of, as a list.
    (define (filter-chars who pred cs)
      (check-proc who 1 pred)
      (if (not (char-set? cs)) (%arg-error who 2 "char-set" cs))
      (fold-members (lambda (c acc) (if (pred c) (cons c acc) acc)) '() cs))

    ;; (char-set-filter pred cs [base-cs]): A new set of the members of cs that pred is true of, and the members of base-cs
    ;; (none by default).
    (define (char-set-filter pred cs . base)
      (let ((chars (filter-chars 'char-set-filter pred cs)))
        (if (pair? base) (list->char-set chars (car base)) (list->char-set chars))))

    ;; (char-set-filter! pred cs base-cs): base-cs with the members of cs that pred is true of added (a linear update).
    (define (char-set-filter! pred cs base-cs)
      (list->char-set! (filter-chars 'char-set-filter! pred cs) base-cs))

    ;;; ---- querying ----

    ;; (char-set-count pred cs): How many members of cs pred is true of.
    (define (char-set-count pred cs)
      (check-procedure char-set-count 1 pred)
      (check-char-set char-set-count 2 cs)
      (fold-members (lambda (c n) (if (pred c) (+ n 1) n)) 0 cs))

    ;; (char-set-every pred cs): True (pred's last value) when pred is true of every member of cs; #t for the empty set.
    (define (char-set-every pred cs)
      (check-procedure char-set-every 1 pred)
      (check-char-set char-set-every 2 cs)
      (call/cc
        (lambda (return)
          (fold-members (lambda (c last) (or (pred c) (return #f))) #t cs))))

    ;; (char-set-any pred cs): The first true value of pred on the members of cs (in code point order), or #f.
    (define (char-set-any pred cs)
      (check-procedure char-set-any 1 pred)
      (check-char-set char-set-any 2 cs)
      (call/cc
        (lambda (return)
          (fold-members (lambda (c acc) (let ((v (pred c))) (if v (return v) acc))) #f cs))))

    ;;; ---- the standard sets ----

    ;; char-set:lower-case: The characters with the Unicode property Lowercase (char-lower-case? agrees).
    (define char-set:lower-case (%char-set-standard 'lower-case))
    ;; char-set:upper-case: The characters with the Unicode property Uppercase (char-upper-case? agrees).
    (define char-set:upper-case (%char-set-standard 'upper-case))
    ;; char-set:title-case: The characters of general category Lt (ǅ, ǈ …).
    (define char-set:title-case (%char-set-standard 'title-case))
    ;; char-set:letter: The characters with the Unicode property Alphabetic (char-alphabetic? agrees).
    (define char-set:letter (%char-set-standard 'letter))
    ;; char-set:digit: The decimal digits of every script, general category Nd (char-numeric? agrees).
    (define char-set:digit (%char-set-standard 'digit))
    ;; char-set:letter+digit: char-set:letter and char-set:digit.
    (define char-set:letter+digit (%char-set-standard 'letter+digit))
    ;; char-set:graphic: The characters that put ink on paper: general categories L, N, M, S and P.
    (define char-set:graphic (%char-set-standard 'graphic))
    ;; char-set:printing: char-set:graphic and char-set:whitespace.
    (define char-set:printing (%char-set-standard 'printing))
    ;; char-set:whitespace: The characters with the Unicode property White_Space (char-whitespace? agrees).
    (define char-set:whitespace (%char-set-standard 'whitespace))
    ;; char-set:iso-control: U+0000–U+001F and U+007F–U+009F.
    (define char-set:iso-control (%char-set-standard 'iso-control))
    ;; char-set:punctuation: The characters of general category P (Pc, Pd, Ps, Pe, Pi, Pf, Po).
    (define char-set:punctuation (%char-set-standard 'punctuation))
    ;; char-set:symbol: The characters of general category S (Sm, Sc, Sk, So).
    (define char-set:symbol (%char-set-standard 'symbol))
    ;; char-set:hex-digit: 0–9, A–F and a–f.
    (define char-set:hex-digit (%char-set-standard 'hex-digit))
    ;; char-set:blank: Horizontal whitespace: general category Zs, and tab.
    (define char-set:blank (%char-set-standard 'blank))
    ;; char-set:ascii: U+0000–U+007F.
    (define char-set:ascii (%char-set-standard 'ascii))
    ;; char-set:empty: No character.
    (define char-set:empty (%char-set-standard 'empty))
    ;; char-set:full: Every character (every Unicode scalar value).
    (define char-set:full (%char-set-standard 'full))))
