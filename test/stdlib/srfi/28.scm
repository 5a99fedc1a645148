;;; SRFI 28: basic format strings. The document's examples and its directives' errors.
(import (scheme base) (srfi 28))

(format "Hello, ~a" "World!")                     ; expect: "Hello, World!"
(format "Error, list is too short: ~s~%" '(one "two" 3)) ; expect: "Error, list is too short: (one \"two\" 3)\n"
(format "~a ~s ~~ ~A ~S" "a" "b" #\c #\d)         ; expect: "a \"b\" ~ c #\\d"
(format "plain")                                  ; expect: "plain"
(format "~a")                                     ; expect error: user: too few objects
(format "~a" 1 2)                                 ; expect error: user: more objects than directives
(format "~q" 1)                                   ; expect error: user: unknown directive
(format "a~")                                     ; expect error: user: a ~ at the end
(format 5)                                        ; expect error: type: bad argument #1 to 'format'
