;;; SRFI 14: character sets.
(import (scheme base) (scheme char) (scheme write) (srfi 14))

(define (vowel? c) (memv c '(#\a #\e #\i #\o #\u)))

;;; Predicates and comparison
(char-set? (char-set #\a))                        ; expect: #t
(char-set? 5)                                     ; expect: #f
(char-set? "abc")                                 ; expect: #f
(char-set=)                                       ; expect: #t
(char-set= (char-set))                            ; expect: #t
(char-set= (char-set #\a #\e #\i #\o #\u) (string->char-set "ioeauaiii")) ; expect: #t
(char-set= (char-set #\e #\i #\o #\u) (string->char-set "ioeauaiii"))     ; expect: #f
(char-set= char-set:empty (char-set) (string->char-set ""))               ; expect: #t
(char-set<=)                                      ; expect: #t
(char-set<= (char-set))                           ; expect: #t
(char-set<= (char-set #\e #\i) (string->char-set "ioeauaiii") char-set:letter) ; expect: #t
(char-set<= (string->char-set "ioeauaiii") (char-set #\e #\i))            ; expect: #f
(char-set= 'a)                                    ; expect error: type: bad argument #1 to 'char-set=' (char-set expected, got a)
(<= 0 (char-set-hash char-set:graphic 100) 99)    ; expect: #t
(= (char-set-hash (char-set #\a #\b)) (char-set-hash (string->char-set "ba"))) ; expect: #t
(= (char-set-hash (char-set #\a #\b) 7) (char-set-hash (string->char-set "ba") 7)) ; expect: #t
(exact-integer? (char-set-hash char-set:letter 0)) ; expect: #t
(char-set-hash (char-set) -1)                     ; expect error: type: bad argument #2 to 'char-set-hash'

;;; Iterating
(define cs (char-set #\G #\a #\T #\e #\c #\h))
(let lp ((cur (char-set-cursor cs)) (ans '()))
  (if (end-of-char-set? cur) ans
      (lp (char-set-cursor-next cs cur) (cons (char-set-ref cs cur) ans)))) ; expect: (#\h #\e #\c #\a #\T #\G)
(end-of-char-set? (char-set-cursor (char-set)))   ; expect: #t
(char-set-ref (char-set #\x) (char-set-cursor (char-set #\x))) ; expect: #\x
(char-set-ref (char-set) (char-set-cursor (char-set))) ; expect error: range: bad argument #2 to 'char-set-ref'
(char-set-fold (lambda (c i) (+ i 1)) 0 (char-set #\e #\i #\o #\u #\e #\e)) ; expect: 4
(char-set-fold cons '() (string->char-set "cab")) ; expect: (#\c #\b #\a)
(char-set-fold (lambda (c i) (if (vowel? c) (+ i 1) i)) 0 char-set:ascii) ; expect: 5
(char-set= (string->char-set "eiaou2468013579999")
           (char-set-unfold null? car cdr '(#\a #\e #\i #\o #\u #\u #\u) (char-set-intersection char-set:digit char-set:ascii))) ; expect: #t
;; char-set:digit is every script's decimal digits, not only ASCII's.
(char-set= (string->char-set "eiaou0123456789") (char-set-unfold null? car cdr '(#\a #\e #\i #\o #\u) char-set:digit)) ; expect: #f
(char-set= (char-set-unfold null? car cdr '(#\a #\b)) (char-set #\a #\b)) ; expect: #t
(char-set= (string->char-set "eiaou246801357999")
           (char-set-unfold! null? car cdr '(#\a #\e #\i #\o #\u) (string->char-set "0123456789"))) ; expect: #t
(let ((cs (string->char-set "0123456789")))
  (char-set-for-each (lambda (c) (set! cs (char-set-delete cs c))) (string->char-set "02468000"))
  (char-set= cs (string->char-set "97531")))      ; expect: #t
(char-set= (char-set-map char-upcase (string->char-set "aeiou")) (string->char-set "IOUAEEEE")) ; expect: #t
(char-set-map (lambda (c) 1) (char-set #\a))      ; expect error: type: bad argument #1 to 'char-set-map'
(char-set-fold 'x 0 (char-set))                   ; expect error: type: bad argument #1 to 'char-set-fold' (procedure expected
(char-set-for-each display "abc")                 ; expect error: type: bad argument #2 to 'char-set-for-each' (char-set expected
(char-set-unfold 1 car cdr '())                   ; expect error: type: bad argument #1 to 'char-set-unfold' (procedure expected
(char-set-filter char? 'cs)                       ; expect error: type: bad argument #2 to 'char-set-filter' (char-set expected

;;; Creating
(char-set= (char-set-copy (string->char-set "aeiou")) (string->char-set "aeiou")) ; expect: #t
(let* ((a (char-set #\a)) (b (char-set-copy a))) (char-set-adjoin! b #\b) (char-set-size a)) ; expect: 1
(char-set= (char-set #\x #\y) (string->char-set "xy"))      ; expect: #t
(char-set= (string->char-set "xy") (list->char-set '(#\x #\y))) ; expect: #t
(char-set= (string->char-set "xy12345") (list->char-set '(#\x #\y) (string->char-set "12345"))) ; expect: #t
(char-set= (string->char-set "xy12345") (list->char-set! '(#\x #\y) (string->char-set "12345"))) ; expect: #t
(char-set= (string->char-set "xy12345") (string->char-set "xy" (string->char-set "12345")))     ; expect: #t
(char-set= (string->char-set "xy12345") (string->char-set! "xy" (string->char-set "12345")))    ; expect: #t
(list->char-set '(#\a 1))                         ; expect error: type: bad argument #1 to 'list->char-set' (list of characters expected
(char-set= (string->char-set "aeiou12345") (char-set-filter vowel? char-set:ascii (string->char-set "12345"))) ; expect: #t
(char-set= (string->char-set "aeiou") (char-set-filter vowel? char-set:ascii)) ; expect: #t
(char-set= (string->char-set "aeiou12345") (char-set-filter! vowel? char-set:ascii (string->char-set "12345"))) ; expect: #t
(char-set= (string->char-set "abcdef12345") (ucs-range->char-set 97 103 #t (string->char-set "12345"))) ; expect: #t
(char-set= (string->char-set "abcdef12345") (ucs-range->char-set! 97 103 #t (string->char-set "12345"))) ; expect: #t
(char-set= (string->char-set "abc") (ucs-range->char-set 97 100))            ; expect: #t
(char-set-size (ucs-range->char-set 0 #x110000))  ; expect: 1112064
(char-set-size (ucs-range->char-set #xD7FF #xE001)) ; expect: 2
(char-set-size (ucs-range->char-set 5 5))         ; expect: 0
(ucs-range->char-set 10 5)                        ; expect error: range: bad argument #2 to 'ucs-range->char-set'
(ucs-range->char-set -1 5)                        ; expect error: type: bad argument #1 to 'ucs-range->char-set'
(char-set= (->char-set #\x) (->char-set "x") (->char-set (char-set #\x))) ; expect: #t
(let ((c (char-set #\q))) (eq? c (->char-set c))) ; expect: #t
(->char-set 5)                                    ; expect error: type: bad argument #1 to '->char-set' (string, character or char-set expected, got 5)

;;; Querying
(char-set-size (char-set-intersection char-set:ascii char-set:digit)) ; expect: 10
(char-set-size (char-set))                        ; expect: 0
(char-set-count vowel? char-set:ascii)            ; expect: 5
(char-set->list (char-set #\x))                   ; expect: (#\x)
(char-set->list (string->char-set "cba"))         ; expect: (#\a #\b #\c)
(char-set->string (char-set #\x))                 ; expect: "x"
(char-set->string (string->char-set "λα😀"))      ; expect: "αλ😀"
(char-set-contains? (->char-set "xyz") #\x)       ; expect: #t
(char-set-contains? (->char-set "xyz") #\a)       ; expect: #f
(char-set-contains? char-set:full #\x10FFFF)      ; expect: #t
(char-set-contains? (->char-set "xyz") "x")       ; expect error: type: bad argument #2 to 'char-set-contains?' (character expected
(char-set-every char-lower-case? (->char-set "abcd"))  ; expect: #t
(char-set-every char-lower-case? (->char-set "abcD"))  ; expect: #f
(char-set-every char-lower-case? char-set:empty)       ; expect: #t
(char-set-every (lambda (c) (and (char-lower-case? c) c)) (->char-set "ab")) ; expect: #\b
(char-set-any char-lower-case? (->char-set "abcd"))    ; expect: #t
(char-set-any char-lower-case? (->char-set "ABCD"))    ; expect: #f
(char-set-any (lambda (c) (and (char-upper-case? c) c)) (->char-set "aBcD")) ; expect: #\B

;;; Algebra
(char-set= (char-set-adjoin (->char-set "123") #\x #\a) (->char-set "123xa"))  ; expect: #t
(char-set= (char-set-adjoin! (->char-set "123") #\x #\a) (->char-set "123xa")) ; expect: #t
(char-set= (char-set-delete (->char-set "123") #\2 #\a #\2) (->char-set "13")) ; expect: #t
(char-set= (char-set-delete! (->char-set "123") #\2 #\a #\2) (->char-set "13")) ; expect: #t
(let ((c (->char-set "ab"))) (eq? c (char-set-adjoin! c #\z)))                 ; expect: #t
(let ((c (->char-set "ab"))) (eq? c (char-set-adjoin c)))                      ; expect: #f
(char-set= (char-set-intersection char-set:hex-digit (char-set-complement char-set:digit)) (->char-set "abcdefABCDEF")) ; expect: #t
(char-set= (char-set-intersection! (char-set-complement! (->char-set "0123456789")) char-set:hex-digit) (->char-set "abcdefABCDEF")) ; expect: #t
(char-set= (char-set-union char-set:hex-digit (->char-set "abcdefghijkl")) (->char-set "abcdefABCDEFghijkl0123456789")) ; expect: #t
(char-set= (char-set-union! (->char-set "abcdefghijkl") char-set:hex-digit) (->char-set "abcdefABCDEFghijkl0123456789")) ; expect: #t
(char-set= (char-set-difference (->char-set "abcdefghijklmn") char-set:hex-digit) (->char-set "ghijklmn")) ; expect: #t
(char-set= (char-set-difference! (->char-set "abcdefghijklmn") char-set:hex-digit) (->char-set "ghijklmn")) ; expect: #t
(char-set= (char-set-xor (->char-set "0123456789") char-set:hex-digit) (->char-set "abcdefABCDEF")) ; expect: #t
(char-set= (char-set-xor! (->char-set "0123456789") char-set:hex-digit) (->char-set "abcdefABCDEF")) ; expect: #t
(call-with-values (lambda () (char-set-diff+intersection char-set:hex-digit char-set:letter))
  (lambda (d i) (list (char-set= d (->char-set "0123456789")) (char-set= i (->char-set "abcdefABCDEF"))))) ; expect: (#t #t)
(call-with-values (lambda () (char-set-diff+intersection! (char-set-copy char-set:hex-digit) (char-set-copy char-set:letter)))
  (lambda (d i) (list (char-set= d (->char-set "0123456789")) (char-set= i (->char-set "abcdefABCDEF"))))) ; expect: (#t #t)
(char-set= (char-set-union) char-set:empty)       ; expect: #t
(char-set= (char-set-intersection) char-set:full) ; expect: #t
(char-set= (char-set-xor) char-set:empty)         ; expect: #t
(let ((c (->char-set "ab"))) (char-set= (char-set-difference c) c)) ; expect: #t
(char-set= (char-set-xor (->char-set "ab") (->char-set "bc") (->char-set "cd")) (->char-set "ad")) ; expect: #t
(char-set-difference)                             ; expect error: arity
(char-set-union! )                                ; expect error: arity
(char-set-size (char-set-complement char-set:full)) ; expect: 0
(char-set-size (char-set-complement (char-set #\a))) ; expect: 1112063
;; Linear updates never change a standard set.
(begin (char-set-adjoin! char-set:digit #\x) (char-set-contains? char-set:digit #\x)) ; expect: #f
(begin (char-set-complement! char-set:empty) (char-set-size char-set:empty)) ; expect: 0

;;; The standard sets: Unicode-aware, and in agreement with R7RS's predicates.
(map (lambda (c) (char-set-contains? char-set:lower-case c)) '(#\a #\A #\ß #\σ #\1 #\ª)) ; expect: (#t #f #t #t #f #t)
(map (lambda (c) (char-set-contains? char-set:upper-case c)) '(#\A #\a #\Σ #\Ⅰ))        ; expect: (#t #f #t #t)
(char-set->list (char-set-intersection char-set:title-case (ucs-range->char-set 0 #x200))) ; expect: (#\ǅ #\ǈ #\ǋ #\ǲ)
(map (lambda (c) (char-set-contains? char-set:letter c)) '(#\a #\λ #\中 #\1 #\_))           ; expect: (#t #t #t #f #f)
(map (lambda (c) (char-set-contains? char-set:digit c)) '(#\0 #\٣ #\a #\½))                ; expect: (#t #t #f #f)
(char-set-size (char-set-intersection char-set:digit char-set:ascii)) ; expect: 10
(char-set= (char-set-intersection char-set:letter+digit char-set:ascii) (char-set-union (ucs-range->char-set 48 58) (ucs-range->char-set 65 91) (ucs-range->char-set 97 123))) ; expect: #t
(char-set->string (char-set-intersection char-set:punctuation char-set:ascii)) ; expect: "!\"#%&'()*,-./:;?@[\\]_{}"
(char-set->string (char-set-intersection char-set:symbol char-set:ascii))      ; expect: "$+<=>^`|~"
(char-set= (char-set-intersection char-set:graphic char-set:ascii) (ucs-range->char-set 33 127)) ; expect: #t
(char-set= (char-set-intersection char-set:printing char-set:ascii) (char-set-union (ucs-range->char-set 32 127) (ucs-range->char-set 9 14))) ; expect: #t
(char-set->list (char-set-intersection char-set:whitespace (ucs-range->char-set 0 256))) ; expect: (#\tab #\newline #\xb #\xc #\return #\space #\x85 #\xa0)
(map (lambda (c) (char-set-contains? char-set:whitespace c)) '(#\x2028 #\x3000 #\x200B)) ; expect: (#t #t #f)
(char-set-size char-set:iso-control)              ; expect: 65
(char-set->string char-set:hex-digit)             ; expect: "0123456789ABCDEFabcdef"
(char-set->list (char-set-intersection char-set:blank (ucs-range->char-set 0 256))) ; expect: (#\tab #\space #\xa0)
(char-set-size char-set:ascii)                    ; expect: 128
(char-set-size char-set:empty)                    ; expect: 0
(char-set-size char-set:full)                     ; expect: 1112064
(char-set-every char-alphabetic? char-set:letter) ; expect: #t
(char-set-every char-whitespace? char-set:whitespace) ; expect: #t
(char-set-every char-numeric? char-set:digit)     ; expect: #t
(char-set-count (lambda (c) (not (char-set-contains? char-set:letter c))) (char-set-filter char-alphabetic? (ucs-range->char-set 0 #x10000))) ; expect: 0
char-set:letter                                   ; expect: #<char-set 147421 characters>
(char-set #\a #\b)                                ; expect: #<char-set "ab">
