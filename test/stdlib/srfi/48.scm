;;; SRFI 48: intermediate format strings. The document's examples, every directive, the ports, the errors.
(import (scheme base) (scheme write) (srfi 48))

(format "Hello, ~a" "World!")                     ; expect: "Hello, World!"
(format "Error, list is too short: ~s" '(one "two" 3)) ; expect: "Error, list is too short: (one \"two\" 3)"
(format "test me")                                ; expect: "test me"
(format "~a ~s ~a ~s" 'this 'is "a" "test")       ; expect: "this is a \"test\""
(format #t "#d~d #x~x #o~o #b~b~%" 32 32 32 32)   ; expect output: #d32 #x20 #o40 #b100000\n
(format "~a ~? ~a" 'a "~s" '(new) 'test)          ; expect: "a new test"
(format #f "~&1~&~&2~&~&~&3~%")                   ; expect: "\n1\n2\n3\n"
(format #f "~a ~? ~a ~%" 3 " ~s ~s " '(2 2) 3)    ; expect: "3  2 2  3 \n"
(format "~8,2F" 1/3)                              ; expect: "    0.33"
(format "~6F" 32)                                 ; expect: "    32"
(format "~8,2F" 32)                               ; expect: "   32.00"
(format "~1,2F" 4321)                             ; expect: "4321.00"
(format "~6F" "ab")                               ; expect: "    ab"
(format "~,3F" -2.5)                              ; expect: "-2.500"
(format "~c~t~_~~~K" #\x "~a" '(y))               ; expect: "x\t ~y"
(format "~W ~Y" '(1 "2") '(a b))                  ; expect: "(1 \"2\") (a b)"
(format "~D ~X" 255 255)                          ; expect: "255 ff"
(let ((p (open-output-string))) (format p "~a=~s" 'k "v") (get-output-string p)) ; expect: "k=\"v\""
(string? (format "~h"))                           ; expect: #t
(format "~a")                                     ; expect error: user: too few arguments
(format "~a" 1 2)                                 ; expect error: user: more arguments than directives
(format "~d" 'x)                                  ; expect error: user: ~d needs a number
(format "~c" "x")                                 ; expect error: user: ~C needs a character
(format "~q")                                     ; expect error: user: unknown directive
(format "~5a" 1)                                  ; expect error: user: a width is only for ~F
(format 'port "x")                                ; expect error: type: bad argument #1 to 'format'
