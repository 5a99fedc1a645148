;;; (srfi 143): fixnums (SRFI 143), the exact integers from -2^52 to 2^52 - 1 (fx-width 53).
;;;
;;; The operations are TypeScript (primitives/srfi/fixnums.ts); the fixnum rule
;;; is always signalled: an argument or a result that is not a fixnum is an error.
(define-library (srfi 143)
  (import (scheme base) (nodwyn primitives srfi 143))
  (export
    fx-width fx-greatest fx-least
    fixnum? fx=? fx<? fx>? fx<=? fx>=? fxzero? fxpositive? fxnegative? fxodd? fxeven? fxmax fxmin
    fx+ fx- fxneg fx* fxquotient fxremainder fxabs fxsquare fxsqrt
    fx+/carry fx-/carry fx*/carry
    fxnot fxand fxior fxxor fxarithmetic-shift fxarithmetic-shift-left fxarithmetic-shift-right
    fxbit-count fxlength fxif fxbit-set? fxcopy-bit fxfirst-set-bit fxbit-field
    fxbit-field-rotate fxbit-field-reverse)
  (begin
    ;; fx-width: 53, the w of the fixnum range [-2^(w-1), 2^(w-1) - 1].
    (define fx-width 53)
    ;; fx-greatest: The largest fixnum, 2^52 - 1.
    (define fx-greatest 4503599627370495)
    ;; fx-least: The smallest fixnum, -2^52.
    (define fx-least -4503599627370496)))
