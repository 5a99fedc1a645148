;;; SRFI 152: the R7RS-compatible string library.
(import (scheme base) (scheme char) (scheme write) (srfi 152))

;;; Predicates and constructors
(list (string? "a") (string-null? "") (string-null? "a"))     ; expect: (#t #t #f)
(string-every char-alphabetic? "abc")             ; expect: #t
(string-every (lambda (c) (char->integer c)) "aA") ; expect: 65
(string-every (lambda (c) (error "never called")) "") ; expect: #t
(string-any char-numeric? "ab1")                  ; expect: #t
(string-any char-numeric? "ab1" 0 2)              ; expect: #f
(string-tabulate (lambda (i) (integer->char (+ i 97))) 3) ; expect: "abc"
(string-unfold null? car cdr '(#\a #\b))          ; expect: "ab"
;; SRFI 152's mapper and make-final may return strings, and base may be a character.
(string-unfold null? (lambda (x) (string (car x) (car x))) cdr '(#\a #\b) #\[ (lambda (x) "]")) ; expect: "[aabb]"
(string-unfold-right (lambda (n) (< n (char->integer #\A))) (lambda (n) (char-downcase (integer->char n))) (lambda (n) (- n 1))
                     (char->integer #\Z) #\space (lambda (n) " The English alphabet: ")) ; expect: " The English alphabet: abcdefghijklmnopqrstuvwxyz "
(string-unfold-right null? (lambda (x) (string #\[ (car x) #\])) cdr '(#\a #\b #\c)) ; expect: "[c][b][a]"
(string-unfold null? (lambda (x) 5) cdr '(1))     ; expect error: type: bad argument #2 to 'string-unfold'

;;; Conversion
(string->vector "abc" 1)                          ; expect: #(#\b #\c)
(string->list "abc" 1 2)                          ; expect: (#\b)
(vector->string #(#\a #\b) 1)                     ; expect: "b"
(list->string '(#\a))                             ; expect: "a"
(reverse-list->string '(#\a #\B #\c))             ; expect: "cBa"

;;; Selection
(list (string-length "abc") (string-ref "abc" 1)) ; expect: (3 #\b)
(substring "abcde" 2 4)                           ; expect: "cd"
(string-copy "abcde" 2)                           ; expect: "cde"
(list (string-take "Pete Szilagyi" 6) (string-drop "Pete Szilagyi" 6) (string-take-right "Beta rules" 5) (string-drop-right "Beta rules" 5)) ; expect: ("Pete S" "zilagyi" "rules" "Beta ")
(string-take "foo" 37)                            ; expect error: range
(list (string-pad "325" 5) (string-pad "71325" 5) (string-pad "8871325" 5) (string-pad-right "325" 5 #\*)) ; expect: ("  325" "71325" "71325" "325**")
(string-trim-both "  The outlook wasn't brilliant,  \n\r") ; expect: "The outlook wasn't brilliant,"
(list (string-trim "xxaxx" (lambda (c) (char=? c #\x))) (string-trim-right "xxaxx" (lambda (c) (char=? c #\x)))) ; expect: ("axx" "xxa")

;;; Replacement
(string-replace "The TCL programmer endured daily ridicule." "another miserable perl drone" 4 7 8 22) ; expect: "The miserable perl programmer endured daily ridicule."
(let ((string-set (lambda (s i c) (string-replace s (string c) i (+ i 1))))) (string-set "String-ref runs in O(n) time." 21 #\1)) ; expect: "String-ref runs in O(1) time."

;;; Comparison: R7RS's, also for fewer than two strings
(list (string=? "foo" "foo") (string<? "fol" "foo") (string>? "foo" "fol") (string<=? "foo" "foo") (string>=? "fol" "foo")) ; expect: (#t #t #t #t #f)
(list (string-ci=? "FOO" "foo") (string-ci<? "FOL" "foo") (string-ci>? "b" "A") (string-ci<=? "a" "A") (string-ci>=? "a" "B")) ; expect: (#t #t #t #t #f)
(map (lambda (f) (and (f) (f "foo"))) (list string=? string<? string>? string<=? string>=? string-ci=? string-ci<? string-ci>? string-ci<=? string-ci>=?)) ; expect: (#t #t #t #t #t #t #t #t #t #t)
(string=? "a" 'b)                                 ; expect error: type: bad argument #2 to 'string=?'

;;; Prefixes and suffixes
(list (string-prefix-length "prefix" "preface") (string-suffix-length "suffix" "infix")) ; expect: (4 3)
(list (string-prefix? "pre" "prefix") (string-suffix? "fix" "prefix") (string-prefix? "abc" "ab")) ; expect: (#t #t #f)

;;; Searching
(list (string-index "hello" char-upper-case?) (string-index "heLlo" char-upper-case?)) ; expect: (#f 2)
(string-index-right "hello" (lambda (c) (char=? c #\l)))   ; expect: 3
(let ((s "   ab")) (substring s (or (string-skip s char-whitespace?) (string-length s)) (string-length s))) ; expect: "ab"
(string-skip-right "ab  " char-whitespace?)       ; expect: 1
(string-contains "eek -- what a geek." "ee" 12 18) ; expect: 15
(list (string-contains "abcabc" "bc") (string-contains-right "abcabc" "bc") (string-contains-right "abcabc" "x")) ; expect: (1 4 #f)
(list (string-contains "abc" "") (string-contains-right "abc" "") (string-contains-right "abc" "" 0 2)) ; expect: (0 3 2)
(string-contains-right "abcabc" "bc" 0 4)         ; expect: 1
(string-contains-right "x😀y😀" "😀")             ; expect: 3
(string-take-while "aaabc" (lambda (c) (char=? c #\a))) ; expect: "aaa"
(string-take-while-right "abccc" (lambda (c) (char=? c #\c))) ; expect: "ccc"
(string-drop-while "aaabc" (lambda (c) (char=? c #\a))) ; expect: "bc"
(string-drop-while-right "abccc" (lambda (c) (char=? c #\c))) ; expect: "ab"
(string-take-while "xaaab" (lambda (c) (char=? c #\a)) 1 3) ; expect: "aa"
(string-drop-while-right "abccc" (lambda (c) #t)) ; expect: ""
(string-span "aaabc" (lambda (c) (char=? c #\a))) ; expect: "aaa" "bc"
(string-break "aaabc" (lambda (c) (char=? c #\b))) ; expect: "aaa" "bc"
(string-break "abc" char-numeric?)                ; expect: "abc" ""
(string-take-while "abc" char-alphabetic? 2 1)    ; expect error: range: bad argument #4 to 'string-take-while'

;;; Concatenation
(list (string-append "a" "b") (string-concatenate '("a" "b" "c"))) ; expect: ("ab" "abc")
(string-concatenate-reverse '(" must be" "Hello, I") " going.XXXX" 7) ; expect: "Hello, I must be going."
(list (string-join '("foo" "bar" "baz")) (string-join '("foo" "bar" "baz") "") (string-join '("foo" "bar" "baz") ":" 'suffix)) ; expect: ("foo bar baz" "foobarbaz" "foo:bar:baz:")
(string-join '() ":" 'strict-infix)               ; expect error: range

;;; Fold and map
(string-fold cons '() "abc")                      ; expect: (#\c #\b #\a)
(string-fold-right cons '() "abc")                ; expect: (#\a #\b #\c)
(string-fold (lambda (c count) (if (char-lower-case? c) (+ count 1) count)) 0 "aBc") ; expect: 2
(string-map (lambda (c0 c1 c2) (case c0 ((#\1) c1) ((#\2) (string c2)) ((#\-) (string #\- c1)))) "1222-1111-2222" "Hi There!" "Dear John") ; expect: "Hear-here!"
(string-map char-upcase "abc")                    ; expect: "ABC"
(string-map (lambda (c) 1) "a")                   ; expect error: type
(string-for-each (lambda (a b) (display (list a b))) "ab" "xyz") ; expect output: (a x)(b y)
(string-count "banana" (lambda (c) (char=? c #\a))) ; expect: 3
(string-filter char-alphabetic? "a1b2")           ; expect: "ab"
(string-remove char-alphabetic? "a1b2")           ; expect: "12"
(string-filter char-alphabetic? "a1b2" 1)         ; expect: "b"

;;; Replication and splitting
(list (string-replicate "abcdef" 2 8) (string-replicate "abcdef" -2 4) (string-replicate "abc" 0 7) (string-replicate "abcdefg" 0 7 3 6)) ; expect: ("cdefab" "efabcd" "abcabca" "defdefd")
(string-replicate "abc" 1 1 1 1)                  ; expect: ""
(string-replicate "abc" 0 2 1 1)                  ; expect error: range: bad argument #4 to 'string-replicate'
(string-replicate "abc" 3 1)                      ; expect error: range: bad argument #3 to 'string-replicate'
(string-segment "abcdefg" 3)                      ; expect: ("abc" "def" "g")
(string-segment "" 3)                             ; expect: ()
(string-segment "ab" 0)                           ; expect error: range: bad argument #2 to 'string-segment'
(string-split "a:b::c" ":")                       ; expect: ("a" "b" "" "c")
(string-split "a\r\nb" "\r\n")                    ; expect: ("a" "b")
(string-split "abc" "")                           ; expect: ("a" "b" "c")
(string-split "" ":")                             ; expect: ()
(string-split "" ":" 'strict-infix)               ; expect error: range: bad argument #1 to 'string-split'
(string-split ":a:b" ":" 'prefix)                 ; expect: ("a" "b")
(string-split "a:b:" ":" 'suffix)                 ; expect: ("a" "b")
(string-split "a:b:" ":")                         ; expect: ("a" "b" "")
(string-split "a:b:c:d" ":" 'infix 2)             ; expect: ("a" "b" "c:d")
(string-split "a:b" ":" 'infix #f)                ; expect: ("a" "b")
(string-split "x:a:b:y" ":" 'infix #f 2 5)        ; expect: ("a" "b")
(string-split "a:b" ":" 'infix -1)                ; expect error: type: bad argument #4 to 'string-split'
(string-split "a" ":" 'sideways)                  ; expect error: type: bad argument #3 to 'string-split'

;;; Input and output
(read-string 3 (open-input-string "abcdef"))      ; expect: "abc"
(let ((p (open-output-string))) (write-string "abcdef" p 1 3) (get-output-string p)) ; expect: "bc"

;;; Mutation
(let ((s (make-string 3 #\a))) (string-set! s 1 #\b) (string-fill! s #\z 2) (string-copy! s 0 "xy") s) ; expect: "xyz"
