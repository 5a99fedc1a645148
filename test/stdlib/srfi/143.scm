;;; SRFI 143: fixnums, fx-width 53.
(import (scheme base) (srfi 143))

(list fx-width fx-greatest fx-least)              ; expect: (53 4503599627370495 -4503599627370496)
(= fx-greatest (- (expt 2 (- fx-width 1)) 1))     ; expect: #t
(= fx-least (- (expt 2 (- fx-width 1))))          ; expect: #t
(list (fixnum? 32767) (fixnum? 1.1) (fixnum? fx-greatest) (fixnum? (+ fx-greatest 1)) (fixnum? fx-least) (fixnum? (- fx-least 1)) (fixnum? 'a)) ; expect: (#t #f #t #f #t #f #f)
(list (fx=? 1 1 1) (fx=? 1 2 2) (fx<? 1 2 3) (fx<? 1 1 2) (fx>? 3 2 1) (fx<=? 1 1 2) (fx>=? 2 2 1) (fx>=? 1 2)) ; expect: (#t #f #t #f #t #t #t #f)
(list (fxzero? 0) (fxzero? 1) (fxpositive? 1) (fxpositive? 0) (fxnegative? -1) (fxodd? -3) (fxodd? 2) (fxeven? -2) (fxeven? 1)) ; expect: (#t #f #t #f #t #t #f #t #f)
(list (fxmax 1 5 3) (fxmin 1 5 -3) (fxmax 4))     ; expect: (5 -3 4)
(list (fx+ 3 4) (fx- 3 4) (fxneg 5) (fx* -3 4) (fxquotient 17 -5) (fxremainder -17 5) (fxabs -7) (fxsquare -9)) ; expect: (7 -1 -5 -12 -3 -2 7 81)
(fxsqrt 17)                                       ; expect: 4 1
(fxsqrt 16)                                       ; expect: 4 0
(fxsqrt fx-greatest)                              ; expect: 67108863 134217726
(fx+ fx-greatest 1)                               ; expect error: range: fx+: the result 4503599627370496 is not a fixnum (fx-width is 53)
(fx- fx-least 1)                                  ; expect error: range
(fxneg fx-least)                                  ; expect error: range
(fxabs fx-least)                                  ; expect error: range
(fx* 100000000 100000000)                         ; expect error: range
(fxsquare 100000000)                              ; expect error: range
(fxquotient 1 0)                                  ; expect error: range: division by zero
(fxsqrt -1)                                       ; expect error: range
(fx+ 1 1.5)                                       ; expect error: type: bad argument #2 to 'fx+' (fixnum expected, got 1.5)
(fx+ 1 (expt 2 60))                               ; expect error: type: bad argument #2 to 'fx+' (fixnum expected
(fx+ 1 2 3)                                       ; expect error: arity
(fx+/carry 1 2 3)                                 ; expect: 6 0
(fx+/carry fx-greatest 1 0)                       ; expect: -4503599627370496 1
(fx-/carry fx-least 1 0)                          ; expect: 4503599627370495 -1
(fx*/carry fx-greatest 2 1)                       ; expect: -1 1
(fx*/carry 3 4 5)                                 ; expect: 17 0
(list (fxnot 0) (fxnot -1) (fxnot 10))            ; expect: (-1 0 -11)
(list (fxand 11 26) (fxior 3 10) (fxxor 3 10) (fxand) (fxior) (fxxor)) ; expect: (10 11 9 -1 0 0)
(fxand fx-greatest (fxnot 1))                     ; expect: 4503599627370494
(list (fxarithmetic-shift 8 2) (fxarithmetic-shift 8 -1) (fxarithmetic-shift -9 -1)) ; expect: (32 4 -5)
(list (fxarithmetic-shift-left 1 51) (fxarithmetic-shift-right -1 10) (fxarithmetic-shift-right (expt 2 51) 51)) ; expect: (2251799813685248 -1 1)
(fxarithmetic-shift 1 52)                         ; expect error: range: fxarithmetic-shift: the result
(fxarithmetic-shift 1 53)                         ; expect error: range: bad argument #2 to 'fxarithmetic-shift'
(fxarithmetic-shift-left 1 -1)                    ; expect error: range: bad argument #2 to 'fxarithmetic-shift-left'
(fxarithmetic-shift-right 1 -1)                   ; expect error: range: bad argument #2 to 'fxarithmetic-shift-right'
(list (fxbit-count 7) (fxbit-count -13) (fxlength 8) (fxlength -8) (fxlength 0)) ; expect: (3 2 4 3 0)
(fxif 3 1 8)                                      ; expect: 9
(list (fxbit-set? 3 10) (fxbit-set? 1 1) (fxbit-set? 52 -1) (fxbit-set? 1000 -1) (fxbit-set? 1000 1)) ; expect: (#t #f #t #t #f)
(list (fxcopy-bit 2 0 #t) (fxcopy-bit 2 15 #f))   ; expect: (4 11)
(fxcopy-bit 53 0 #t)                              ; expect error: range: bad argument #1 to 'fxcopy-bit'
(list (fxfirst-set-bit 40) (fxfirst-set-bit 0) (fxfirst-set-bit -28) (fxfirst-set-bit (expt 2 50))) ; expect: (3 -1 2 50)
(list (fxbit-field 874 3 9) (fxbit-field 6 2 3))  ; expect: (45 1)
(fxbit-field 6 3 2)                               ; expect error: range: bad argument #3 to 'fxbit-field'
(fxbit-field 6 0 54)                              ; expect error: range
(list (fxbit-field-rotate 6 1 2 4) (fxbit-field-rotate 7 -1 1 4) (fxbit-field-rotate 6 0 0 10)) ; expect: (10 11 6)
(list (fxbit-field-reverse 6 1 3) (fxbit-field-reverse 6 1 4)) ; expect: (6 12)
