;;; SRFI 130: cursor-based strings (cursors are the character indexes).
(import (scheme base) (scheme char) (scheme write) (srfi 130))

;;; Cursors
(define s "abcde")
(list (string-cursor-start s) (string-cursor-end s))     ; expect: (0 5)
(list (string-cursor? 0) (string-cursor? 5) (string-cursor? -1) (string-cursor? 'a) (string-cursor? #f)) ; expect: (#t #t #f #f #f)
(string-cursor-next s 0)                          ; expect: 1
(string-cursor-prev s 5)                          ; expect: 4
(string-cursor-next s 5)                          ; expect error: range: bad argument #2 to 'string-cursor-next' (the post-end cursor has no next)
(string-cursor-prev s 0)                          ; expect error: range: bad argument #2 to 'string-cursor-prev'
(string-cursor-next s 6)                          ; expect error: range: bad argument #2 to 'string-cursor-next' (6 is not a cursor of a string of length 5)
(string-cursor-forward s 1 3)                     ; expect: 4
(string-cursor-back s 4 4)                        ; expect: 0
(string-cursor-forward s 3 3)                     ; expect error: range: bad argument #3 to 'string-cursor-forward'
(string-cursor-back s 1 2)                        ; expect error: range: bad argument #3 to 'string-cursor-back'
(list (string-cursor=? 1 1) (string-cursor<? 1 2) (string-cursor>? 1 2) (string-cursor<=? 2 2) (string-cursor>=? 1 2)) ; expect: (#t #t #f #t #f)
(string-cursor=? 1 'a)                            ; expect error: type: bad argument #2 to 'string-cursor=?'
(string-cursor-diff s 1 4)                        ; expect: 3
(list (string-cursor->index s 3) (string-index->cursor s 3) (string-cursor->index s #f)) ; expect: (3 3 #f)
(string-cursor->index s 9)                        ; expect error: range

;;; Predicates, constructors and conversion
(list (string-null? "") (string-every char-alphabetic? "ab") (string-any char-numeric? "a1")) ; expect: (#t #t #t)
(string-tabulate (lambda (i) #\x) 2)              ; expect: "xx"
(string-unfold null? car cdr '(#\a #\b))          ; expect: "ab"
(string-unfold-right null? car cdr '(#\a #\b))    ; expect: "ba"
(string->list/cursors "abc" 1)                    ; expect: (#\b #\c)
(string->vector/cursors "abc" 0 2)                ; expect: #(#\a #\b)
(reverse-list->string '(#\a #\b))                 ; expect: "ba"
(string-join '("a" "b") "-")                      ; expect: "a-b"

;;; Selection
(string-ref/cursor "abc" 1)                       ; expect: #\b
(substring/cursors "abcde" 1 3)                   ; expect: "bc"
(string-copy/cursors "abcde" 2)                   ; expect: "cde"
(substring/cursors "abcde" (string-skip "  abc" char-whitespace?) 5) ; expect: "cde"
(list (string-take "abc" 1) (string-drop "abc" 1) (string-take-right "abc" 1) (string-drop-right "abc" 1)) ; expect: ("a" "bc" "c" "ab")
(list (string-pad "ab" 4) (string-pad-right "ab" 4 #\.)) ; expect: ("  ab" "ab..")
(list (string-trim " a ") (string-trim-right " a ") (string-trim-both " a ")) ; expect: ("a " " a" "a")

;;; Prefixes and suffixes
(list (string-prefix-length "abc" "abd") (string-suffix-length "xbc" "abc") (string-prefix? "ab" "abc") (string-suffix? "bc" "abc")) ; expect: (2 2 #t #t)

;;; Searching: cursors, with end (left) or start (right) when nothing is found
(string-index "hello" (lambda (c) (char=? c #\l)))       ; expect: 2
(string-index "hello" (lambda (c) (char=? c #\z)))       ; expect: 5
(string-index "hello" (lambda (c) (char=? c #\z)) 1 3)   ; expect: 3
(string-index-right "hello" (lambda (c) (char=? c #\l))) ; expect: 4
(string-index-right "hello" (lambda (c) (char=? c #\z)) 1 3) ; expect: 1
(string-skip "aab" (lambda (c) (char=? c #\a)))          ; expect: 2
(string-skip "aaa" (lambda (c) (char=? c #\a)))          ; expect: 3
(string-skip-right "abb" (lambda (c) (char=? c #\b)))    ; expect: 1
(string-skip-right "bbb" (lambda (c) (char=? c #\b)))    ; expect: 0
(string-index "abc" char-alphabetic? 2 1)                ; expect error: range: bad argument #4 to 'string-index'
(string-contains "eek -- what a geek." "ee" 12 18)       ; expect: 15
(string-contains "abc" "x")                              ; expect: #f
(string-contains-right "abcabc" "abc")                   ; expect: 3

;;; The whole string
(string-reverse "Who stole the spoons?" 14 20)    ; expect: "snoops"
(string-concatenate '("a" "b"))                   ; expect: "ab"
(string-concatenate-reverse '("b" "a") "c")       ; expect: "abc"
(string-fold cons '() "ab")                       ; expect: (#\b #\a)
(string-fold-right cons '() "ab")                 ; expect: (#\a #\b)
(let ((s "abcde") (v '())) (string-for-each-cursor (lambda (cur) (set! v (cons (char->integer (string-ref/cursor s cur)) v))) s) v) ; expect: (101 100 99 98 97)
(let ((v '())) (string-for-each-cursor (lambda (cur) (set! v (cons cur v))) "abcde" 1 3) v) ; expect: (2 1)
(string-for-each-cursor 'x "a")                   ; expect error: type: bad argument #1 to 'string-for-each-cursor'
(list (string-replicate "abcdef" 2 8) (string-replicate "abc" 0 7)) ; expect: ("cdefab" "abcabca")
(string-count "banana" (lambda (c) (char=? c #\a))) ; expect: 3
(string-replace "It's easy to code it up in Scheme." "lots of fun" 5 9) ; expect: "It's lots of fun to code it up in Scheme."
(string-split "a b  c" " ")                       ; expect: ("a" "b" "" "c")
(list (string-filter char-numeric? "a1b2") (string-remove char-numeric? "a1b2")) ; expect: ("12" "ab")
