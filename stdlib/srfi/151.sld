;;; (srfi 151): bitwise operations on exact integers of any size (SRFI 151).
;;;
;;; The operations are TypeScript (primitives/srfi/bitwise.ts); what calls a
;;; procedure argument, and the generator, are here.
(define-library (srfi 151)
  (import (scheme base) (nodwyn primitives srfi 151) (prefix (nodwyn primitives srfi support) %))
  (export
    bitwise-not bitwise-and bitwise-ior bitwise-xor bitwise-eqv bitwise-nand bitwise-nor
    bitwise-andc1 bitwise-andc2 bitwise-orc1 bitwise-orc2
    arithmetic-shift bit-count integer-length bitwise-if
    bit-set? copy-bit bit-swap any-bit-set? every-bit-set? first-set-bit
    bit-field bit-field-any? bit-field-every? bit-field-clear bit-field-set
    bit-field-replace bit-field-replace-same bit-field-rotate bit-field-reverse
    bits->list list->bits bits->vector vector->bits bits
    bitwise-fold bitwise-for-each bitwise-unfold make-bitwise-generator)
  (begin

    (define (check-procedure who n x) (if (not (procedure? x)) (%arg-error who n "procedure" x)))
    (define (check-integer who n x) (if (not (exact-integer? x)) (%arg-error who n "exact integer" x)))

    ;; (bitwise-fold proc seed i): Calls (proc bit acc) on the bits of i as booleans, from bit 0 up to its integer
    ;; length, acc starting as seed and then the last result: (bitwise-fold cons '() #b1010111) is (#t #f #t #f #t #t #t).
    (define (bitwise-fold proc seed i)
      (check-procedure 'bitwise-fold 1 proc)
      (check-integer 'bitwise-fold 3 i)
      (let ((n (integer-length i)))
        (let lp ((k 0) (acc seed))
          (if (< k n) (lp (+ k 1) (proc (bit-set? k i) acc)) acc))))

    ;; (bitwise-for-each proc i): Calls proc on the bits of i as booleans, from bit 0 up to its integer length.
    (define (bitwise-for-each proc i)
      (check-procedure 'bitwise-for-each 1 proc)
      (check-integer 'bitwise-for-each 2 i)
      (let ((n (integer-length i)))
        (let lp ((k 0)) (if (< k n) (begin (proc (bit-set? k i)) (lp (+ k 1)))))))

    ;; (bitwise-unfold stop? mapper successor seed): The non-negative integer whose bit k is (mapper state) of the k-th
    ;; state (seed, (successor seed) …), up to the first state stop? is true of.
    (define (bitwise-unfold stop? mapper successor seed)
      (check-procedure 'bitwise-unfold 1 stop?)
      (check-procedure 'bitwise-unfold 2 mapper)
      (check-procedure 'bitwise-unfold 3 successor)
      (let lp ((state seed) (k 0) (acc 0))
        (if (stop? state)
            acc
            (lp (successor state) (+ k 1) (if (mapper state) (copy-bit k acc #t) acc)))))

    ;; (make-bitwise-generator i): A generator (SRFI 158) of the bits of i as booleans from bit 0, without end: after
    ;; the integer length of i, the sign bit again and again.
    (define (make-bitwise-generator i)
      (check-integer 'make-bitwise-generator 1 i)
      (let ((k 0))
        (lambda ()
          (let ((b (bit-set? k i)))
            (set! k (+ k 1))
            b))))))
