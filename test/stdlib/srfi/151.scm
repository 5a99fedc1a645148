;;; SRFI 151: bitwise operations on exact integers of any size. The document's examples, and the large cases.
(import (scheme base) (srfi 151) (srfi 158))

;;; Basic operations
(list (bitwise-not 10) (bitwise-not -37) (bitwise-not 0) (bitwise-not (expt 2 70))) ; expect: (-11 36 -1 -1180591620717411303425)
(list (bitwise-ior 3 10) (bitwise-and 11 26) (bitwise-xor 3 10) (bitwise-eqv 37 12) (bitwise-and 37 12)) ; expect: (11 10 9 -42 4)
(list (bitwise-and) (bitwise-ior) (bitwise-xor) (bitwise-eqv)) ; expect: (-1 0 0 -1)
(list (bitwise-eqv 1 2 3) (bitwise-eqv 1 (bitwise-eqv 2 3))) ; expect: (0 0)
(list (bitwise-nand 11 26) (bitwise-nor 11 26) (bitwise-andc1 11 26) (bitwise-andc2 11 26) (bitwise-orc1 11 26) (bitwise-orc2 11 26)) ; expect: (-11 -28 16 1 -2 -17)
(bitwise-and (- (expt 2 100) 1) (expt 2 64))      ; expect: 18446744073709551616
(bitwise-ior (expt 2 80) 1 (- (expt 2 40)))       ; expect: -1099511627775
(bitwise-xor -1 (expt 2 62))                      ; expect: -4611686018427387905
(bitwise-and 1.0 1)                               ; expect error: type: bad argument #1 to 'bitwise-and' (exact integer expected, got 1.0)

;;; Integer operations
(list (arithmetic-shift 8 2) (arithmetic-shift 4 0) (arithmetic-shift 8 -1) (arithmetic-shift -1 -100)) ; expect: (32 4 4 -1)
(arithmetic-shift -100000000000000000000000000000000 -100) ; expect: -79
(arithmetic-shift 1 100)                          ; expect: 1267650600228229401496703205376
(arithmetic-shift (expt 2 100) -99)               ; expect: 2
(arithmetic-shift -5 -1)                          ; expect: -3
(arithmetic-shift 3 (expt 2 80))                  ; expect error: range: bad argument #2 to 'arithmetic-shift'
(arithmetic-shift 3 (- (expt 2 80)))              ; expect: 0
(list (bit-count 0) (bit-count -1) (bit-count 7) (bit-count 13) (bit-count -13) (bit-count 30) (bit-count -30)) ; expect: (0 0 3 3 2 4 4)
(list (bit-count (expt 2 100)) (bit-count (- (expt 2 100))) (bit-count (- (+ 1 (expt 2 100))))) ; expect: (1 100 1)
(list (integer-length 0) (integer-length 1) (integer-length -1) (integer-length 7) (integer-length -7) (integer-length 8) (integer-length -8)) ; expect: (0 1 0 3 3 4 3)
(integer-length (expt 2 100))                     ; expect: 101
(list (bitwise-if 3 1 8) (bitwise-if 3 8 1) (bitwise-if 1 1 2) (bitwise-if #b00111100 #b11110000 #b00001111)) ; expect: (9 0 3 51)

;;; Single bits
(list (bit-set? 1 1) (bit-set? 0 1) (bit-set? 3 10) (bit-set? 1000000 -1) (bit-set? 2 6) (bit-set? 0 6)) ; expect: (#f #t #t #t #t #f)
(bit-set? 100 (expt 2 100))                       ; expect: #t
(bit-set? -1 5)                                   ; expect error: type: bad argument #1 to 'bit-set?'
(list (copy-bit 0 0 #t) (copy-bit 2 0 #t) (copy-bit 2 #b1111 #f) (copy-bit 70 0 #t)) ; expect: (1 4 11 1180591620717411303424)
(bit-swap 0 2 4)                                  ; expect: 1
(list (any-bit-set? 3 6) (any-bit-set? 3 12) (every-bit-set? 4 6) (every-bit-set? 7 6)) ; expect: (#t #f #t #f)
(list (first-set-bit 1) (first-set-bit 2) (first-set-bit 0) (first-set-bit 40) (first-set-bit -28) (first-set-bit (expt 2 99)) (first-set-bit (expt -2 99))) ; expect: (0 1 -1 3 2 99 99)

;;; Bit fields
(list (bit-field #b1101101010 0 4) (bit-field #b1101101010 3 9) (bit-field #b1101101010 4 9) (bit-field #b1101101010 4 10)) ; expect: (10 45 22 54)
(list (bit-field 6 0 1) (bit-field 6 1 3) (bit-field 6 2 999) (bit-field #x100000000000000000000000000000000 128 129)) ; expect: (0 3 1 1)
(bit-field -1 0 70)                               ; expect: 1180591620717411303423
(bit-field 6 3 2)                                 ; expect error: range: bad argument #3 to 'bit-field'
(list (bit-field-any? #b1001001 1 6) (bit-field-any? #b1000001 1 6)) ; expect: (#t #f)
(list (bit-field-every? #b1011110 1 5) (bit-field-every? #b1011010 1 5)) ; expect: (#t #f)
(list (bit-field-clear #b101010 1 4) (bit-field-set #b101010 1 4)) ; expect: (32 46)
(list (bit-field-replace #b101010 #b010 1 4) (bit-field-replace #b110 1 0 1) (bit-field-replace #b110 1 1 2)) ; expect: (36 7 6)
(bit-field-replace-same #b1111 #b0000 1 3)        ; expect: 9
(list (bit-field-rotate #b110 0 0 10) (bit-field-rotate #b110 0 0 256) (bit-field-rotate #x100000000000000000000000000000000 1 0 129)) ; expect: (6 6 1)
(list (bit-field-rotate #b110 1 1 2) (bit-field-rotate #b110 1 2 4) (bit-field-rotate #b0111 -1 1 4)) ; expect: (6 10 11)
(list (bit-field-reverse 6 1 3) (bit-field-reverse 6 1 4) (bit-field-reverse 1 0 32) (bit-field-reverse 1 0 31) (bit-field-reverse 1 0 30)) ; expect: (6 12 2147483648 1073741824 536870912)
(bit-field-reverse #x140000000000000000000000000000000 0 129) ; expect: 5

;;; Bits conversion
(list (bits->list #b1110101) (bits->list 3 5) (bits->list 6 4)) ; expect: ((#t #f #t #f #t #t #t) (#t #t #f #f #f) (#f #t #t #f))
(bits->vector #b1110101)                          ; expect: #(#t #f #t #f #t #t #t)
(bits->list -1)                                   ; expect error: type: bad argument #1 to 'bits->list'
(list (list->bits '(#t #f #t #f #t #t #t)) (list->bits '(#f #f #t #f #t #f #t #t #t)) (list->bits '(#f #t #t)) (list->bits '(#f #t #t #f)) (list->bits '(#f #f #t #t))) ; expect: (117 468 6 6 12)
(list (vector->bits '#(#t #f #t #f #t #t #t)) (vector->bits '#(#f #f #t #t))) ; expect: (117 12)
(list (bits #t #f #t #f #t #t #t) (bits #f #f #t #f #t #f #t #t #t) (bits)) ; expect: (117 468 0)
(list->bits '(#t 1))                              ; expect error: type: bad argument #1 to 'list->bits' (list of booleans expected
(list->bits (bits->list (expt 3 50)))             ; expect: 717897987691852588770249

;;; Fold, unfold, generate
(bitwise-fold cons '() #b1010111)                 ; expect: (#t #f #t #f #t #t #t)
(let ((count 0)) (bitwise-for-each (lambda (b) (if b (set! count (+ count 1)))) #b1010111) count) ; expect: 5
(bitwise-unfold (lambda (i) (= i 10)) even? (lambda (i) (+ i 1)) 0) ; expect: 341
(let ((g (make-bitwise-generator #b110))) (list (g) (g) (g) (g) (g))) ; expect: (#f #t #t #f #f)
(generator->list (make-bitwise-generator 5) 4)    ; expect: (#t #f #t #f)
(let ((g (make-bitwise-generator -2))) (list (g) (g) (g))) ; expect: (#f #t #t)
(bitwise-fold 5 0 1)                              ; expect error: type: bad argument #1 to 'bitwise-fold'
