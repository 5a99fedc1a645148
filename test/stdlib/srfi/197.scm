;;; SRFI 197: pipeline operators.
(import (scheme base) (scheme write) (srfi 197))

;;; chain
(chain "" (string-append "foo" _) (string-append "bar" _) (string-append "baz" _)) ; expect: "bazbarfoo"
(chain "" (string-append _ "foo") (string-append "bar" _) (string-append _ "baz")) ; expect: "barfoobaz"
(chain + (_ 1 2))                                 ; expect: 3
(chain 'ignored (list 1) (length _))              ; expect: 1
(chain (values 1 2) (+ _ _) (list _))             ; expect: (3)
(chain (values 1 2 3) (list 'x _ 'y _ ...))       ; expect: (x 1 y 2 3)
(chain (values 1 2 3) (list _ ...))               ; expect: (1 2 3)
(chain (values 1 2) (values _ _) (list _ _))      ; expect: (1 2)
(chain 5)                                         ; expect: 5
(chain '(1 2) <> (cons 0 <>))                     ; expect: (0 1 2)
(chain (values 1 2 3) - --- (list 'x - ---))      ; expect: (x 1 2 3)
(chain 1 (+ _ 1) (values _ 10))                   ; expect: 2 10
;; Steps run in order, left to right.
(let ((trace '())) (chain 1 (begin (set! trace (cons 'a trace)) _) (begin (set! trace (cons 'b trace)) _)) (reverse trace)) ; expect: (a b)
;; The count of placeholders must be the count of values.
(chain (values 1 2) (list _))                     ; expect error: arity
(chain 1 (list _ _))                              ; expect error: arity
;; The ellipsis only after the last placeholder.
(chain 1 (list _ ... 2))                          ; expect error: syntax: the ellipsis may only follow the last placeholder
(chain 1 (list ... _))                            ; expect error: syntax: the ellipsis may only follow the last placeholder

;;; chain-and
(chain-and 1 (+ _ 1) (* _ 10))                    ; expect: 20
(chain-and 1 (memv _ '(2 3)) (car _))             ; expect: #f
(chain-and #f (car _))                            ; expect: #f
(chain-and '(a b) (memq 'c _) (car _))            ; expect: #f
(chain-and 5 (not 'ignored))                      ; expect: #f
(chain-and 5 <> (+ <> 1))                         ; expect: 6
(chain-and 1 (list _ _))                          ; expect error: syntax: at most one placeholder

;;; chain-when
(define (describe-number n)
  (chain-when '() ((odd? n) (cons "odd" _)) ((even? n) (cons "even" _)) ((zero? n) (cons "zero" _)) ((positive? n) (cons "positive" _))))
(describe-number 3)                               ; expect: ("positive" "odd")
(describe-number 4)                               ; expect: ("positive" "even")
(describe-number 0)                               ; expect: ("zero" "even")
(chain-when 1 (#f (+ _ 100)) (#t (* _ 2)))        ; expect: 2
(chain-when 1 ((+ _ 100)))                        ; expect: 101
(chain-when 1 <> (#t (+ <> 1)))                   ; expect: 2
(chain-when 1)                                    ; expect: 1

;;; chain-lambda
((chain-lambda (+ _ 1) (* _ 2)) 5)                ; expect: 12
((chain-lambda (list _ _) (length _)) 'a 'b)      ; expect: 2
((chain-lambda (list _ ...) (length _)) 'a 'b 'c) ; expect: 3
((chain-lambda (list 'start) (cons 0 _)))         ; expect: (0 start)
((chain-lambda <> (- <>)) 4)                      ; expect: -4
((chain-lambda <> --- (list <> ---)) 1 2)         ; expect: (1 2)
((chain-lambda (+ _ 1)) 1 2)                      ; expect error: arity

;;; nest and nest-reverse
(nest (list 1 _) (list 2 _) 3)                    ; expect: (1 (2 3))
(nest '_ (1 2 _) (3 _ 5) (_) 4)                   ; expect: (1 2 (3 (4) 5))
(nest (nest _2 '_2 (1 2 3 _2) _ 6) (_ 5 _2) 4)    ; expect: (1 2 3 (4 5 6))
(nest 7)                                          ; expect: 7
(let ((x 1)) (nest (let ((x 2)) _) (+ x 10)))     ; expect: 12
(nest-reverse 3 (list 2 _) (list 1 _))            ; expect: (1 (2 3))
(nest-reverse 4 (_) (3 _ 5) (1 2 _) '_)           ; expect: (1 2 (3 (4) 5))
(nest-reverse 1 <> (+ <> 1) (* <> 10))            ; expect: 20
(nest (list 1) 2)                                 ; expect error: syntax: each step needs a placeholder
(nest (list _ _) 2)                               ; expect error: syntax: only one placeholder
