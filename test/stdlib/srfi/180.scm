;;; SRFI 180: JSON. The document's examples, its mapping, every procedure, its limits and its error conditions.
(import (scheme base) (scheme write) (srfi 180) (srfi 158))

(define (read-string* s) (call-with-port (open-input-string s) json-read))
(define (write-string* obj) (let ((p (open-output-string))) (json-write obj p) (get-output-string p)))
(define (reason thunk) (guard (e ((json-error? e) (list 'json-error (json-error-reason e)))) (thunk)))

;;; The mapping: null, booleans, numbers, strings, arrays as vectors, objects as alists with symbol keys
(read-string* "null")                             ; expect: null
(json-null? (read-string* "null"))                ; expect: #t
(list (json-null? 'nil) (json-null? '()) (json-null? #f)) ; expect: (#f #f #f)
(list (read-string* "true") (read-string* "false")) ; expect: (#t #f)
(read-string* "[1, -2, 0, -0, 3.5, 1e2, 2E-1, -0.0]") ; expect: #(1 -2 0 0 3.5 100.0 0.2 -0.0)
(exact? (read-string* "42"))                      ; expect: #t
(inexact? (read-string* "42.0"))                  ; expect: #t
(read-string* "12345678901234567890123")          ; expect: 12345678901234567890123
(read-string* "\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u0041\\u00e9\\ud834\\udd1e\"") ; expect: "a\"b\\c/d\b\xc;\n\r\tAé𝄞"
(read-string* "{\"a\": 1, \"b\": [true, {}], \"c\": {\"d\": null}}") ; expect: ((a . 1) (b . #(#t ())) (c (d . null)))
(read-string* "{}")                               ; expect: ()
(read-string* "[]")                               ; expect: #()
(read-string* "{\"a\": 1, \"a\": 2}")             ; expect: ((a . 1) (a . 2))
(read-string* "  \t\r\n [ 1 ] ")                  ; expect: #(1)
(read-string* "")                                 ; expect: #<eof>
(read-string* "   ")                              ; expect: #<eof>

;;; json-read reads one value: the rest stays in the port (JSON lines)
(call-with-port (open-input-string "1\n[2]\n{\"x\": 3} \"four\"")
  (lambda (p) (let loop ((acc '())) (let ((v (json-read p))) (if (eof-object? v) (reverse acc) (loop (cons v acc))))))) ; expect: (1 #(2) ((x . 3)) "four")
(json-read (string->generator "[1, {\"a\": \"b\"}]")) ; expect: #(1 ((a . "b")))
(parameterize ((current-input-port (open-input-string "[7]"))) (json-read)) ; expect: #(7)

;;; Malformed JSON is a json-error, of kind read, saying where
(reason (lambda () (read-string* "[1,]")))        ; expect: (json-error "json-read: string:1:4: unexpected ']' where a value was expected")
(reason (lambda () (read-string* "[1 2]")))       ; expect: (json-error "json-read: string:1:4: unexpected '2' where ',' or ']' was expected")
(reason (lambda () (read-string* "{\"a\" 1}")))   ; expect: (json-error "json-read: string:1:6: unexpected '1' where ':' was expected")
(reason (lambda () (read-string* "{1: 2}")))      ; expect: (json-error "json-read: string:1:2: unexpected '1' where a key (a string) was expected")
(reason (lambda () (read-string* "[1,\n 2")))     ; expect: (json-error "json-read: string:2:3: unexpected end of input inside an array")
(reason (lambda () (read-string* "\"abc")))       ; expect: (json-error "json-read: string:1:1: unterminated string")
(reason (lambda () (read-string* "[01]")))        ; expect: (json-error "json-read: string:1:2: malformed number 01")
(reason (lambda () (read-string* "[tru]")))       ; expect: (json-error "json-read: string:1:2: unexpected 'tru' where a value was expected")
(reason (lambda () (read-string* "\"\\x\"")))     ; expect: (json-error "json-read: string:1:1: the escape \\x in a string is not JSON's")
(reason (lambda () (read-string* "\"\\ud800\""))) ; expect: (json-error "json-read: string:1:1: the escape \\ud800 is a lone surrogate (not a character)")
(reason (lambda () (read-string* "[1e999]")))     ; expect: (json-error "json-read: string:1:2: the number 1e999 is out of the range of a flonum")
(reason (lambda () (read-string* "'a'")))         ; expect: (json-error "json-read: string:1:1: unexpected ''' where a value was expected")
(read-string* "[1,]")                             ; expect error: read: where a value was expected
(json-read 42)                                    ; expect error: type: json-read: a textual input port or a generator of characters expected
(json-read (list->generator '(#\[ 1 #\])))        ; expect error: type: json-read: the generator gave something that is not a character

;;; The limits
(reason (lambda () (parameterize ((json-nesting-depth-limit 1)) (read-string* "[[3.14159]]")))) ; expect: (json-error "json-read: nesting deeper than 1 (json-nesting-depth-limit)")
(parameterize ((json-nesting-depth-limit 2)) (read-string* "[[3.14159]]")) ; expect: #(#(3.14159))
(reason (lambda () (parameterize ((json-number-of-character-limit 1)) (read-string* "3.14159")))) ; expect: (json-error "json-read: more than 1 characters (json-number-of-character-limit)")
(parameterize ((json-number-of-character-limit 7)) (read-string* "3.14159")) ; expect: 3.14159
(list (json-nesting-depth-limit) (json-number-of-character-limit)) ; expect: (+inf.0 +inf.0)
(json-nesting-depth-limit -1)                     ; expect error: type

;;; json-generator: one value or one top-level structure, then the eof object
(call-with-port (open-input-string "42 101 1337") (lambda (port) (generator->list (json-generator port)))) ; expect: (42)
(call-with-port (open-input-string "[42] 101 1337") (lambda (port) (generator->list (json-generator port)))) ; expect: (array-start 42 array-end)
(generator->list (json-generator (open-input-string "{\"a\": [1, \"s\", null], \"b\": {}}"))) ; expect: (object-start "a" array-start 1 "s" null array-end "b" object-start object-end object-end)
(generator->list (json-generator (string->generator "{\"k\": [true]}"))) ; expect: (object-start "k" array-start #t array-end object-end)
(generator->list (json-generator (open-input-string ""))) ; expect: ()
(let ((g (json-generator (open-input-string "[1 2]")))) (list (g) (g) (reason g))) ; expect: (array-start 1 (json-error "json-generator: string:1:4: unexpected '2' where ',' or ']' was expected"))

;;; json-fold: the document's json-read written with it, and records
(define (fold-read port)
  (define root '(root))
  (define (plist->alist plist)
    (let loop ((plist plist) (out '()))
      (if (null? plist) out (loop (cddr plist) (cons (cons (string->symbol (cadr plist)) (car plist)) out)))))
  (let ((out (json-fold (lambda (obj seed) (if (eq? seed root) obj (cons obj seed)))
                        (lambda (seed) '()) (lambda (items) (list->vector (reverse items)))
                        (lambda (seed) '()) plist->alist
                        root port)))
    (if (eq? out root) (eof-object) out)))
(fold-read (open-input-string "{\"a\": [1, 2, {\"b\": null}], \"c\": \"d\"}")) ; expect: ((a . #(1 2 ((b . null)))) (c . "d"))
(fold-read (open-input-string "7"))               ; expect: 7
(fold-read (open-input-string ""))                ; expect: #<eof>
(json-fold cons (lambda (s) '()) reverse (lambda (s) '()) reverse 'seed (string->generator "[1, [2]]")) ; expect: ((1 (2)) . seed)

;;; json-lines-read and json-sequence-read
(generator->list (json-lines-read (open-input-string "{\"a\": 1}\r\n{\"b\": 2}\n"))) ; expect: (((a . 1)) ((b . 2)))
(generator->list (json-lines-read (string->generator "1\n2\n3"))) ; expect: (1 2 3)
(generator->list (json-sequence-read (open-input-string "\x1e;{\"d\": 0}\n\x1e;{\"d\": \n\x1e;[1]\n\x1e;2 3\n\x1e;null\n"))) ; expect: (((d . 0)) #(1) null)
(generator->list (json-sequence-read (string->generator "\x1e;1\n\x1e;\"two\"\n"))) ; expect: (1 "two")

;;; json-write
(write-string* '((a . #(1 2.5 "x\"y" #t #f null)) (b . ()) (c . #()))) ; expect: "{\"a\":[1,2.5,\"x\\\"y\",true,false,null],\"b\":{},\"c\":[]}"
(write-string* 100000000000000000000)             ; expect: "100000000000000000000"
(write-string* 2.0)                               ; expect: "2.0"
(write-string* "\x0;\n\x1f;é")                    ; expect: "\"\\u0000\\n\\u001fé\""
(read-string* (write-string* '((k . #(1.5 -0.0 1e300 "\t"))))) ; expect: ((k . #(1.5 -0.0 1.0e+300 "\t")))
(json-write '((a . 1)))                           ; expect output: {"a":1}
(let ((acc (string-accumulator))) (json-write #(1 "a") (lambda (x) (if (string? x) (for-each acc (string->list x)) (acc x)))) (acc (eof-object))) ; expect: "[1,\"a\"]"
(reason (lambda () (write-string* +inf.0)))       ; expect: (json-error "json-write: +inf.0 has no JSON form")
(reason (lambda () (write-string* -inf.0)))       ; expect: (json-error "json-write: -inf.0 has no JSON form")
(reason (lambda () (write-string* +nan.0)))       ; expect: (json-error "json-write: +nan.0 has no JSON form")
(reason (lambda () (write-string* 314/100)))      ; expect: (json-error "json-write: an exact rational that is not an integer has no JSON form")
(reason (lambda () (write-string* 'foo)))         ; expect: (json-error "json-write: the symbol foo is not JSON (only null is)")
(reason (lambda () (write-string* '(("a" . 1))))) ; expect: (json-error "json-write: an object (association list) has an element that is not a (symbol . value) pair")
(reason (lambda () (write-string* '((a . 1) . 2)))) ; expect: (json-error "json-write: an object (association list) is an improper list")
(reason (lambda () (write-string* #\a)))          ; expect: (json-error "json-write: cannot write this as JSON (null, booleans, numbers, strings, vectors and association lists with symbol keys can be)")
(let ((p (open-output-string))) (guard (e (#t #f)) (json-write #(1 2 foo) p)) (get-output-string p)) ; expect: ""
(json-write 'foo (open-output-string))            ; expect error: type: the symbol foo is not JSON
(json-write 1 42)                                 ; expect error: type: bad argument #2 to 'json-write'

;;; json-accumulator: the generator's protocol, checked
(define (accumulate events) (let ((p (open-output-string))) (let ((acc (json-accumulator p))) (for-each acc events)) (get-output-string p)))
(accumulate '(object-start "a" array-start 1 "s" null array-end "b" #t "c" object-start object-end object-end)) ; expect: "{\"a\":[1,\"s\",null],\"b\":true,\"c\":{}}"
(accumulate '(42))                                ; expect: "42"
(accumulate (generator->list (json-generator (open-input-string "[1, {\"x\": [2.5]}]")))) ; expect: "[1,{\"x\":[2.5]}]"
(let ((acc (string-accumulator))) ((json-accumulator (lambda (s) (for-each acc (string->list s)))) 'array-start) (acc (eof-object))) ; expect: "["
(reason (lambda () (accumulate '(array-start object-end)))) ; expect: (json-error "json-accumulator: an end of object that closes none: object")
(reason (lambda () (accumulate '(array-end))))    ; expect: (json-error "json-accumulator: an end of array that closes none: array")
(reason (lambda () (accumulate '(object-start 1)))) ; expect: (json-error "json-accumulator: a value where an object's key (a string) must be: 1")
(reason (lambda () (accumulate '(object-start "a" object-end)))) ; expect: (json-error "json-accumulator: an object's end where its last key's value must be: object")
(reason (lambda () (accumulate '(1 2))))          ; expect: (json-error "json-accumulator: a second top-level value: 2")
(reason (lambda () (accumulate '(array-start foo)))) ; expect: (json-error "json-accumulator: not a JSON event (a structure's start or end, null, a boolean, a number or a string): foo")
(reason (lambda () (accumulate '(array-start +inf.0)))) ; expect: (json-error "json-accumulator: +inf.0 has no JSON form")
(json-accumulator 5)                              ; expect error: type: bad argument #1 to 'json-accumulator'
(json-error-reason 5)                             ; expect error: type: bad argument #1 to 'json-error-reason'
(json-error? (make-parameter 1))                  ; expect: #f

;;; json-read's fast path (a port whose text is all there) and the state machine agree at their edges
(define (read-both s) (list (read-string* s) (json-read (string->generator s))))
(call-with-port (open-input-string "{\"a\":[1,2]}xyz") (lambda (p) (list (json-read p) (read-char p)))) ; expect: (((a . #(1 2))) #\x)
(call-with-port (open-input-string "12 abc") (lambda (p) (list (json-read p) (read-char p)))) ; expect: (12 #\space)
(call-with-port (open-input-string "\"s\"tail") (lambda (p) (list (json-read p) (read-string 4 p)))) ; expect: ("s" "tail")
(call-with-port (open-input-string "true,false") (lambda (p) (list (json-read p) (read-char p) (json-read p)))) ; expect: (#t #\, #f)
(read-both "\"\\ud83d\\ude00\"")                  ; expect: ("😀" "😀")
(string-length (read-string* "\"\\ud83d\\ude00x😀\"")) ; expect: 3
(read-both "{\"a\\u0062\": 1, \"ab\": 2}")          ; expect: (((ab . 1) (ab . 2)) ((ab . 1) (ab . 2)))
(let ((v (read-string* "[{\"ab\": 1}, {\"a\\u0062\": 2}]"))) (eq? (car (car (vector-ref v 0))) (car (car (vector-ref v 1))))) ; expect: #t
(read-both "[\"\\\\\", \"\\\"\", \"a\\/b\"]")        ; expect: (#("\\" "\"" "a/b") #("\\" "\"" "a/b"))
(read-both "[999999999999999, -999999999999999, 9007199254740993, -12345678901234567890, -0, 0]") ; expect: (#(999999999999999 -999999999999999 9007199254740993 -12345678901234567890 0 0) #(999999999999999 -999999999999999 9007199254740993 -12345678901234567890 0 0))
(read-both "[0.1, -1.5e3, 1E22, 1e23, 5e-324, 1e-400, 123456789012345678.5, 0.000001, 2.5E+2]") ; expect: (#(0.1 -1500.0 1.0e+22 1.0e+23 5.0e-324 0.0 123456789012345680.0 0.000001 250.0) #(0.1 -1500.0 1.0e+22 1.0e+23 5.0e-324 0.0 123456789012345680.0 0.000001 250.0))
(reason (lambda () (read-string* "{\"a\": [1, 2, {\"b\": tru}]}"))) ; expect: (json-error "json-read: string:1:20: unexpected 'tru' where a value was expected")
(reason (lambda () (read-string* "[1,\n  2,\n  x]"))) ; expect: (json-error "json-read: string:3:3: unexpected 'x' where a value was expected")
(reason (lambda () (read-string* "[1.5.3]")))       ; expect: (json-error "json-read: string:1:2: malformed number 1.5.3")
(reason (lambda () (read-string* "[\"a\tb\"]")))     ; expect: (json-error "json-read: string:1:2: the control character U+0009 unescaped in a string")
(reason (lambda () (read-string* "{\"a\": 1")))     ; expect: (json-error "json-read: string:1:8: unexpected end of input inside an object")
(reason (lambda () (read-string* "[true")))         ; expect: (json-error "json-read: string:1:6: unexpected end of input inside an array")
(define (nested n) (string-append (make-string n #\[) (make-string n #\])))
(vector? (parameterize ((json-nesting-depth-limit 1500)) (read-string* (nested 1500)))) ; expect: #t
(reason (lambda () (parameterize ((json-nesting-depth-limit 1500)) (read-string* (nested 1501))))) ; expect: (json-error "json-read: nesting deeper than 1500 (json-nesting-depth-limit)")
(reason (lambda () (parameterize ((json-nesting-depth-limit 3)) (read-string* "{\"a\": [[[1]]]}")))) ; expect: (json-error "json-read: nesting deeper than 3 (json-nesting-depth-limit)")
(parameterize ((json-nesting-depth-limit 3)) (read-string* "[{\"a\": [{}]}] ")) ; expect error: read: nesting deeper than 3
(parameterize ((json-nesting-depth-limit 3)) (read-string* "{\"a\": [[1]]}")) ; expect: ((a . #(#(1))))
