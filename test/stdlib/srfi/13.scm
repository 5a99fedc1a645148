;;; SRFI 13: the string library. The document's examples, every procedure, ranges, criteria and errors.
(import (scheme base) (scheme char) (scheme write) (srfi 13) (srfi 14))

;;; Predicates
(string-null? "")                                 ; expect: #t
(string-null? "a")                                ; expect: #f
(string-null? 'a)                                 ; expect error: type: bad argument #1 to 'string-null?'
(string-every char-alphabetic? "abc")             ; expect: #t
(string-every char-alphabetic? "ab1")             ; expect: #f
(string-every (lambda (c) (and (char-alphabetic? c) c)) "abc") ; expect: #\c
(string-every char-alphabetic? "")                ; expect: #t
(string-every #\a "aaa")                          ; expect: #t
(string-every char-set:digit "123" 1)             ; expect: #t
(string-every char-upper-case? "aBCDe" 1 4)       ; expect: #t
(string-any char-upper-case? "abCde")             ; expect: #t
(string-any (lambda (c) (and (char-numeric? c) (digit-value c))) "ab7c9") ; expect: 7
(string-any #\z "abc")                            ; expect: #f
(string-any char-set:digit "a1" 0 1)              ; expect: #f
(string-any char-upper-case? "AbcdE" 1 4)         ; expect: #f
(string-any 5 "abc")                              ; expect error: type: bad argument #1 to 'string-any' (character, char-set or predicate expected, got 5)
(string-any char-upper-case? "abc" 2 1)           ; expect error: range: bad argument #4 to 'string-any' (end 1 out of range [2, 3])

;;; Constructors
(make-string 3 #\x)                               ; expect: "xxx"
(string #\a #\b)                                  ; expect: "ab"
(string-tabulate (lambda (i) (integer->char (+ i 65))) 4) ; expect: "ABCD"
(string-tabulate (lambda (i) #\!) 0)              ; expect: ""
(string-tabulate (lambda (i) 1) 2)                ; expect error: type
(string-tabulate 'f 2)                            ; expect error: type: bad argument #1 to 'string-tabulate'

;;; List and string conversion
(string->list "abc")                              ; expect: (#\a #\b #\c)
(string->list "abcde" 1 3)                        ; expect: (#\b #\c)
(list->string '(#\a #\b))                         ; expect: "ab"
(reverse-list->string '(#\a #\B #\c))             ; expect: "cBa"
(reverse-list->string '())                        ; expect: ""
(reverse-list->string '(#\a 1))                   ; expect error: type: bad argument #1 to 'reverse-list->string'
(string-join '("foo" "bar" "baz") ":")            ; expect: "foo:bar:baz"
(string-join '("foo" "bar" "baz") ":" 'suffix)    ; expect: "foo:bar:baz:"
(string-join '("foo" "bar" "baz") ":" 'prefix)    ; expect: ":foo:bar:baz"
(string-join '("foo" "bar" "baz"))                ; expect: "foo bar baz"
(string-join '() ":")                             ; expect: ""
(string-join '("") ":")                           ; expect: ""
(string-join '() ":" 'suffix)                     ; expect: ""
(string-join '("") ":" 'suffix)                   ; expect: ":"
(string-join '("a" "b") ", " 'strict-infix)       ; expect: "a, b"
(string-join '() ":" 'strict-infix)               ; expect error: range: bad argument #1 to 'string-join' (an empty list cannot be joined
(string-join '("a") ":" 'circumfix)               ; expect error: type: bad argument #3 to 'string-join'
(string-join '("a" 1))                            ; expect error: type: bad argument #1 to 'string-join' (list of strings expected

;;; Selection
(string-length "λx😀")                            ; expect: 3
(string-ref "λx😀" 2)                             ; expect: #\😀
(string-copy "Beta substitution")                 ; expect: "Beta substitution"
(string-copy "Beta substitution" 1 10)            ; expect: "eta subst"
(string-copy "Beta substitution" 5)               ; expect: "substitution"
(substring/shared "foo-bar" 0 3)                  ; expect: "foo"
(substring/shared "foo-bar" 4)                    ; expect: "bar"
(substring/shared "foo" 4)                        ; expect error: range: bad argument #2 to 'substring/shared'
(let ((t (make-string 5 #\-))) (string-copy! t 1 "abc" 1) t) ; expect: "-bc--"
(let ((s (string-copy "abcde"))) (string-copy! s 1 s 0 3) s) ; expect: "aabce"
(string-copy! (string-copy "Microsoft") 0 "Regional Microsoft Operating Companies") ; expect error: range
(string-take "Pete Szilagyi" 6)                   ; expect: "Pete S"
(string-drop "Pete Szilagyi" 6)                   ; expect: "zilagyi"
(string-take-right "Beta rules" 5)                ; expect: "rules"
(string-drop-right "Beta rules" 5)                ; expect: "Beta "
(string-take "foo" 37)                            ; expect error: range: bad argument #2 to 'string-take'
(string-drop-right "foo" 4)                       ; expect error: range: bad argument #2 to 'string-drop-right'
(string-pad "325" 5)                              ; expect: "  325"
(string-pad "71325" 5)                            ; expect: "71325"
(string-pad "8871325" 5)                          ; expect: "71325"
(string-pad "7" 3 #\0)                            ; expect: "007"
(string-pad "abcdef" 3 #\0 1 4)                   ; expect: "bcd"
(string-pad "abcdef" 5 #\* 1 3)                   ; expect: "***bc"
(string-pad-right "325" 5)                        ; expect: "325  "
(string-pad-right "8871325" 5)                    ; expect: "88713"
(string-pad-right "ab" 4 #\. 1)                   ; expect: "b..."
(string-pad "x" -1)                               ; expect error: type: bad argument #2 to 'string-pad'
(string-pad "x" 2 "0")                            ; expect error: type: bad argument #3 to 'string-pad' (character expected
(string-trim-both "  The outlook wasn't brilliant,  \n\r") ; expect: "The outlook wasn't brilliant,"
(string-trim "  a b  ")                           ; expect: "a b  "
(string-trim-right "  a b  ")                     ; expect: "  a b"
(string-trim "xxaxx" #\x)                         ; expect: "axx"
(string-trim-right "xxaxx" #\x)                   ; expect: "xxa"
(string-trim-both "123abc456" char-set:digit)     ; expect: "abc"
(string-trim-both "123abc456" char-numeric?)      ; expect: "abc"
(string-trim "  ab" char-whitespace? 1)           ; expect: "ab"
(string-trim-right "ab  cd  " char-whitespace? 0 4) ; expect: "ab"
(string-trim-both "  ab  " #\space 1 5)           ; expect: "ab"
(string-trim "\x3000;\x2003;x")                   ; expect: "x"
(string-trim "   ")                               ; expect: ""
(string-trim "ab" 'x)                             ; expect error: type: bad argument #2 to 'string-trim'

;;; Modification
(let ((s (make-string 3 #\*))) (string-set! s 0 #\?) s) ; expect: "?**"
(string-set! "***" 0 #\?)                         ; expect error: type: mutable string
(let ((s (make-string 5 #\a))) (string-fill! s #\b 1 3) s) ; expect: "abbaa"

;;; Comparison
(string-compare "The cat in the hat" "abcdefgh" values values values 4 6 2 4) ; expect: 5
(string-compare "abc" "abd" (lambda (i) (list '< i)) (lambda (i) (list '= i)) (lambda (i) (list '> i))) ; expect: (< 2)
(string-compare "abc" "abc" (lambda (i) (list '< i)) (lambda (i) (list '= i)) (lambda (i) (list '> i))) ; expect: (= 3)
(string-compare "abd" "ab" (lambda (i) (list '< i)) (lambda (i) (list '= i)) (lambda (i) (list '> i))) ; expect: (> 2)
(string-compare "ab" "abd" (lambda (i) (list '< i)) (lambda (i) (list '= i)) (lambda (i) (list '> i))) ; expect: (< 2)
(string-compare-ci "ABC" "abd" (lambda (i) (list '< i)) (lambda (i) (list '= i)) (lambda (i) (list '> i))) ; expect: (< 2)
(string-compare-ci "xABC" "abc" (lambda (i) (list '< i)) (lambda (i) (list '= i)) (lambda (i) (list '> i)) 1) ; expect: (= 4)
(string-compare "a" "b" 1 values values)          ; expect error: type: bad argument #3 to 'string-compare' (procedure expected
(list (string= "abc" "abc") (string= "abc" "abd") (string= "xabcx" "abc" 1 4)) ; expect: (#t #f #t)
(list (string<> "abc" "abd") (string<> "a" "a"))  ; expect: (#t #f)
(list (string< "abc" "abd") (string< "ab" "abc") (string< "abc" "ab") (string< "b" "a")) ; expect: (#t #t #f #f)
(list (string> "abd" "abc") (string> "ab" "ab"))  ; expect: (#t #f)
(list (string<= "ab" "ab") (string<= "ac" "ab"))  ; expect: (#t #f)
(list (string>= "ab" "ab") (string>= "aa" "ab"))  ; expect: (#t #f)
(string< "abcz" "abd" 0 3 0 2)                    ; expect: #f
(string< "x😀" "x\xFFFF;")                        ; expect: #f
(list (string-ci= "ABC" "abc") (string-ci<> "ABC" "abd") (string-ci< "ABC" "abd") (string-ci> "b" "A") (string-ci<= "A" "a") (string-ci>= "a" "B")) ; expect: (#t #t #t #t #t #f)
(string-ci= "Straße" "STRASSE")                   ; expect: #f
(string= "abc" "abc" 4)                           ; expect error: range: bad argument #3 to 'string='
(= (string-hash "abc") (string-hash "xabcx" 0 1 4)) ; expect: #t
(< -1 (string-hash "hello" 10) 10)                ; expect: #t
(= (string-hash-ci "HeLLo" 100) (string-hash-ci "hello" 100)) ; expect: #t
(exact-integer? (string-hash "" 0))               ; expect: #t
(string-hash "abc" -1)                            ; expect error: type: bad argument #2 to 'string-hash'

;;; Prefixes and suffixes
(string-prefix-length "prefix" "preface")         ; expect: 4
(string-suffix-length "suffix" "infix")           ; expect: 3
(string-prefix-length-ci "PREfix" "preface")      ; expect: 4
(string-suffix-length-ci "SUFFIX" "infix")        ; expect: 3
(string-prefix-length "abc" "abd" 1 3 1 3)        ; expect: 1
(list (string-prefix? "pre" "prefix") (string-prefix? "fix" "prefix") (string-prefix? "" "x")) ; expect: (#t #f #t)
(list (string-suffix? "fix" "prefix") (string-suffix? "pre" "prefix")) ; expect: (#t #f)
(list (string-prefix-ci? "PRE" "prefix") (string-suffix-ci? "FIX" "prefix")) ; expect: (#t #t)
(string-prefix? "abc" "xabc" 0 3 1)               ; expect: #t

;;; Searching
(string-index "hello world" #\o)                  ; expect: 4
(string-index "hello world" #\o 5)                ; expect: 7
(string-index "hello world" #\o 5 7)              ; expect: #f
(string-index "hello" char-set:vowels)            ; expect error: unbound
(string-index "hello" (char-set #\l #\o))         ; expect: 2
(string-index "hello" char-upper-case?)           ; expect: #f
(string-index "heLlo" char-upper-case?)           ; expect: 2
(string-index "a😀b😀c" #\😀 2)                   ; expect: 3
(string-index-right "hello world" #\o)            ; expect: 7
(string-index-right "hello world" #\o 0 7)        ; expect: 4
(string-index-right "hello" char-alphabetic? 1 3) ; expect: 2
(string-skip "   xy" char-set:whitespace)         ; expect: 3
(string-skip "aaab" #\a)                          ; expect: 3
(string-skip "aaa" #\a)                           ; expect: #f
(string-skip "ab12" char-alphabetic?)             ; expect: 2
(string-skip-right "xy   " char-set:whitespace)   ; expect: 1
(string-skip-right "12ab" char-alphabetic?)       ; expect: 1
(string-count "banana" #\a)                       ; expect: 3
(string-count "banana" (char-set #\a #\n) 2)      ; expect: 4
(string-count "banana" (lambda (c) (char=? c #\n)) 0 3) ; expect: 1
(string-index "abc" "b")                          ; expect error: type: bad argument #2 to 'string-index' (character, char-set or predicate expected
(string-index "abc" #\b 4)                        ; expect error: range: bad argument #3 to 'string-index' (start 4 out of range [0, 3])
(string-index "abc" char-alphabetic? 0 9)         ; expect error: range: bad argument #4 to 'string-index' (end 9 out of range [0, 3])
(string-contains "eek -- what a geek." "ee" 12 18) ; expect: 15
(string-contains "hello" "ll")                    ; expect: 2
(string-contains "hello" "lo" 0 4)                ; expect: #f
(string-contains "hello" "")                      ; expect: 0
(string-contains "hello" "xlox" 0 5 1 3)          ; expect: 3
(string-contains "😀a😀b" "😀b")                  ; expect: 2
(string-contains-ci "Hello WORLD" "world")        ; expect: 6
(string-contains-ci "aAaB" "AB")                  ; expect: 2
(string-contains-ci "abc" "x")                    ; expect: #f

;;; Case
(string-titlecase "--capitalize tHIS sentence.")  ; expect: "--Capitalize This Sentence."
(string-titlecase "see Spot run. see Nix run.")   ; expect: "See Spot Run. See Nix Run."
(string-titlecase "3com makes routers.")          ; expect: "3Com Makes Routers."
(string-titlecase "greasy fried chicken" 2)       ; expect: "Easy Fried Chicken"
(string-titlecase "ǆungla")                       ; expect: "ǅungla"
(let ((s (string-copy "hello world"))) (string-titlecase! s) s) ; expect: "Hello World"
(let ((s (string-copy "hello world"))) (string-titlecase! s 6) s) ; expect: "hello World"
(string-upcase "straße")                          ; expect: "STRASSE"
(string-upcase "hello" 1 3)                       ; expect: "EL"
(string-downcase "HELLO" 3)                       ; expect: "lo"
(let ((s (string-copy "straße"))) (string-upcase! s) s) ; expect: "STRAßE"
(let ((s (string-copy "abcd"))) (string-upcase! s 1 3) s) ; expect: "aBCd"
(let ((s (string-copy "ABCD"))) (string-downcase! s 2) s) ; expect: "ABcd"
(string-upcase! "abc")                            ; expect error: type: bad argument #1 to 'string-upcase!' (mutable string

;;; Reverse and append
(string-reverse "Able was I ere I saw elba.")     ; expect: ".able was I ere I saw elbA"
(string-reverse "abcdef" 1 4)                     ; expect: "dcb"
(string-reverse "a😀b")                           ; expect: "b😀a"
(let ((s (string-copy "abcdef"))) (string-reverse! s 1 4) s) ; expect: "adcbef"
(let ((rotate (lambda (s i) (let ((i (modulo i (string-length s)))) (string-reverse! s 0 i) (string-reverse! s i) (string-reverse! s) s))))
  (rotate (string-copy "abcdef") 2))              ; expect: "cdefab"
(string-append "a" "b" "c")                       ; expect: "abc"
(string-concatenate '("a" "b" "c"))               ; expect: "abc"
(string-concatenate '())                          ; expect: ""
(string-concatenate/shared '("x" "y"))            ; expect: "xy"
(string-append/shared "x" "y")                    ; expect: "xy"
(string-concatenate-reverse '(" must be" "Hello, I") " going.XXXX" 7) ; expect: "Hello, I must be going."
(string-concatenate-reverse '("b" "a"))           ; expect: "ab"
(string-concatenate-reverse '("b" "a") "c")       ; expect: "abc"
(string-concatenate-reverse/shared '("b" "a") "cd" 1) ; expect: "abc"
(string-concatenate-reverse '("a") "b" 2)         ; expect error: range: bad argument #3 to 'string-concatenate-reverse'
(string-concatenate '("a" b))                     ; expect error: type: bad argument #1 to 'string-concatenate' (list of strings expected

;;; Fold, unfold and map
(string-map char-upcase "abc")                    ; expect: "ABC"
(string-map char-upcase "abcde" 1 3)              ; expect: "BC"
(string-map char-upcase "abcde" 2)                ; expect: "CDE"
(let ((s (string-copy "abcde"))) (string-map! char-upcase s 1 3) s) ; expect: "aBCde"
(let ((s (string-copy "abc"))) (string-map! char-upcase s) s) ; expect: "ABC"
(string-fold cons '() "abc")                      ; expect: (#\c #\b #\a)
(string-fold-right cons '() "abc")                ; expect: (#\a #\b #\c)
(string-fold (lambda (c count) (if (char-lower-case? c) (+ count 1) count)) 0 "aBcD") ; expect: 2
(string-fold cons '() "abcde" 1 3)                ; expect: (#\c #\b)
(string-fold-right cons '() "abcde" 2)            ; expect: (#\c #\d #\e)
(let* ((s "a\\b") (ans-len (string-fold (lambda (c sum) (+ sum (if (char=? c #\\) 2 1))) 0 s)) (ans (make-string ans-len)))
  (string-fold (lambda (c i) (let ((i (if (char=? c #\\) (begin (string-set! ans i #\\) (+ i 1)) i))) (string-set! ans i c) (+ i 1))) 0 s)
  ans)                                            ; expect: "a\\\\b"
(string-unfold null? car cdr '(#\a #\b #\c))      ; expect: "abc"
(string-unfold (lambda (i) (= i 3)) (lambda (i) (integer->char (+ 65 i))) (lambda (i) (+ i 1)) 0 ">" (lambda (i) (number->string i))) ; expect: ">ABC3"
(string-unfold-right null? car cdr '(#\a #\b #\c)) ; expect: "cba"
(string-unfold-right (lambda (i) (= i 3)) (lambda (i) (integer->char (+ 65 i))) (lambda (i) (+ i 1)) 0 "<" (lambda (i) "!")) ; expect: "!CBA<"
(string-unfold null? 5 cdr '())                   ; expect error: type: bad argument #2 to 'string-unfold'
(string-for-each (lambda (c) (display (char-upcase c))) "abc") ; expect output: ABC
(string-for-each (lambda (c) (display c)) "abcde" 1 3) ; expect output: bc
(let ((acc '())) (string-for-each-index (lambda (i) (set! acc (cons i acc))) "abcd" 1) acc) ; expect: (3 2 1)
(let* ((s "abc") (len (string-length s)) (ans (make-string len)))
  (string-for-each-index (lambda (i) (string-set! ans (- len i 1) (string-ref s i))) s) ans) ; expect: "cba"

;;; Replicate and rotate
(xsubstring "abcdef" 2)                           ; expect: "cdefab"
(xsubstring "abcdef" -2)                          ; expect: "efabcd"
(xsubstring "abc" 0 7)                            ; expect: "abcabca"
(xsubstring "abcdefg" -9 -3 3 6)                  ; expect: "defdef"
(xsubstring "abc" 30000000000000000000000000000000 30000000000000000000000000000007) ; expect: "abcabca"
(xsubstring "abc" 1 1 1 1)                        ; expect: ""
(xsubstring "abc" 0 2 1 1)                        ; expect error: range: bad argument #4 to 'xsubstring' (an empty substring cannot be replicated
(xsubstring "abc" 5 2)                            ; expect error: range: bad argument #3 to 'xsubstring'
(let ((t (make-string 6 #\.))) (string-xcopy! t 1 "abc" 1 5) t) ; expect: ".bcab."
(let ((t (make-string 3 #\.))) (string-xcopy! t 1 "abc" 0 3) t) ; expect error: range: bad argument #2 to 'string-xcopy!'

;;; Insertion and parsing
(string-replace "The TCL programmer endured daily ridicule." "another miserable perl drone" 4 7 8 22) ; expect: "The miserable perl programmer endured daily ridicule."
(string-replace "It's easy to code it up in Scheme." "lots of fun" 5 9) ; expect: "It's lots of fun to code it up in Scheme."
(let ((string-insert (lambda (s i t) (string-replace s t i i)))) (string-insert "It's easy to code it up in Scheme." 5 "really ")) ; expect: "It's really easy to code it up in Scheme."
(string-replace "abc" "x" 2 1)                    ; expect error: range: bad argument #4 to 'string-replace'
(string-tokenize "Help make programs run, run, RUN!") ; expect: ("Help" "make" "programs" "run," "run," "RUN!")
(string-tokenize "a,b,,c" (char-set-complement (char-set #\,))) ; expect: ("a" "b" "c")
(string-tokenize "  hello   world  " char-set:letter 3) ; expect: ("ello" "world")
(string-tokenize "")                              ; expect: ()
(string-tokenize "abc" "abc")                     ; expect error: type: bad argument #2 to 'string-tokenize' (char-set expected

;;; Filtering and deleting
(string-filter char-alphabetic? "a1b2c3")         ; expect: "abc"
(string-filter #\. ".foo.bar.")                   ; expect: "..."
(string-filter char-set:punctuation ".foo.bar." 2) ; expect: ".."
(string-filter char-alphabetic? ".foo.bar." 2 4)  ; expect: "oo"
(string-delete char-alphabetic? "a1b2c3")         ; expect: "123"
(string-delete #\. ".foo.bar." 2 4)               ; expect: "oo"
(string-delete char-set:punctuation ".foo.bar.")  ; expect: "foobar"
;; Older implementations put the string first: both orders work.
(string-filter ".foo.bar." char-alphabetic? 2)    ; expect: "oobar"
(string-delete ".foo.bar." #\.)                   ; expect: "foobar"
(string-filter 1 "abc")                           ; expect error: type: bad argument #1 to 'string-filter'

;;; Low-level procedures
(call-with-values (lambda () (string-parse-start+end 'p "abcde" '(1 3 x y))) list) ; expect: ((x y) 1 3)
(call-with-values (lambda () (string-parse-start+end 'p "abcde" '(2))) list) ; expect: (() 2 5)
(call-with-values (lambda () (string-parse-start+end 'p "abcde" '())) list) ; expect: (() 0 5)
(string-parse-start+end 'my-proc "abc" '(4))      ; expect error: range: bad argument #2 to 'my-proc'
(string-parse-start+end 'my-proc "abc" '(2 1))    ; expect error: range: bad argument #3 to 'my-proc'
(call-with-values (lambda () (string-parse-final-start+end 'p "abcde" '(1))) list) ; expect: (1 5)
(string-parse-final-start+end 'my-proc "abcde" '(1 2 3)) ; expect error: type: bad argument #3 to 'my-proc'
(let ((f (lambda (s . args) (let-string-start+end (start end) 'f s args (substring s start end))))) (f "hello" 1 3)) ; expect: "el"
(let ((f (lambda (s . args) (let-string-start+end (start end rest) 'f s args (list start end rest))))) (f "hello" 1 3 'x)) ; expect: (1 3 (x))
(check-substring-spec 'p "abc" 0 3)               ; expect: #<unspecified>
(check-substring-spec 'my-proc "abc" 2 5)         ; expect error: range: bad argument #2 to 'my-proc'
(check-substring-spec string-pad 'x 0 0)          ; expect error: type: bad argument #1 to 'string-pad'
(list (substring-spec-ok? "abc" 0 3) (substring-spec-ok? "abc" 2 1) (substring-spec-ok? 'abc 0 0) (substring-spec-ok? "abc" 0 1.0)) ; expect: (#t #f #f #f)
(make-kmp-restart-vector "")                      ; expect: #()
(make-kmp-restart-vector "a")                     ; expect: #(-1)
(make-kmp-restart-vector "ab")                    ; expect: #(-1 0)
(make-kmp-restart-vector "abdabx")                ; expect: #(-1 0 0 -1 1 2)
(make-kmp-restart-vector "abab")                  ; expect: #(-1 0 -1 1)
(make-kmp-restart-vector "xabdabx" char=? 1)      ; expect: #(-1 0 0 -1 1 2)
(make-kmp-restart-vector "aBdAbX" char-ci=?)      ; expect: #(-1 0 0 -1 1 2)
(make-kmp-restart-vector "abdabx" (lambda (a b) (char=? a b))) ; expect: #(-1 0 0 -1 1 2)
(make-kmp-restart-vector "abab" eqv? 0 4)         ; expect: #(-1 0 -1 1)
(let* ((pat "abc") (rv (make-kmp-restart-vector pat)))
  (let lp ((i 0) (cs (string->list "xxabxabcx")) (n 0))
    (cond ((= i 3) n) ((null? cs) #f) (else (lp (kmp-step pat rv (car cs) i char=? 0) (cdr cs) (+ n 1)))))) ; expect: 8
(let* ((pat "abc") (rv (make-kmp-restart-vector pat))) (string-kmp-partial-search pat rv "xxabcx" 0)) ; expect: -5
(let* ((pat "abc") (rv (make-kmp-restart-vector pat))) (string-kmp-partial-search pat rv "xxab" 0)) ; expect: 2
(let* ((pat "abc") (rv (make-kmp-restart-vector pat))) (string-kmp-partial-search pat rv "cxx" 2)) ; expect: -1
(let* ((pat "ABC") (rv (make-kmp-restart-vector pat char-ci=?))) (string-kmp-partial-search pat rv "xabc" 0 char-ci=?)) ; expect: -4
(let* ((pat "zabc") (rv (make-kmp-restart-vector pat char=? 1))) (string-kmp-partial-search pat rv "abcab" 0 char=? 1 2)) ; expect: 2
