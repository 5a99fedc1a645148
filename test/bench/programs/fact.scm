;; fact: exact integers far past 2^53 — 1000! by repeated bignum-by-fixnum
;; multiplication, its digit sum by bignum quotient/remainder in chunks of
;; 10^6, and its length in digits via number->string. Also checks an exact
;; identity: 1000! / 998! = 1000 * 999.
;; answer: 10539 2568 exact
(import (scheme base) (scheme write))

(define (factorial n)
  (let loop ((i 2) (acc 1))
    (if (> i n)
        acc
        (loop (+ i 1) (* acc i)))))

(define (digit-sum-of-fixnum n)
  (let loop ((n n) (sum 0))
    (if (= n 0)
        sum
        (loop (quotient n 10) (+ sum (remainder n 10))))))

;; Peel off six decimal digits at a time with a bignum division.
(define (digit-sum n)
  (let loop ((n n) (sum 0))
    (if (= n 0)
        sum
        (loop (quotient n 1000000)
              (+ sum (digit-sum-of-fixnum (remainder n 1000000)))))))

(define bench-repeat 100)

(define (repeat-work thunk)
  (let loop ((i 1) (result (thunk)))
    (if (< i bench-repeat)
        (loop (+ i 1) (thunk))
        result)))

;; Without exact bignums 1000! is not an exact integer (an implementation
;; with only flonums gets +inf.0, and digit-sum would never reach 0).
(define (run)
  (let ((f (factorial 1000)))
    (if (exact-integer? f)
        (list (digit-sum f)
              (string-length (number->string f))
              (= (quotient f (factorial 998)) (* 1000 999)))
        (list 'not-exact f #f))))

(let ((result (repeat-work run)))
  (display (car result))
  (display " ")
  (display (cadr result))
  (display " ")
  (display (if (list-ref result 2) "exact" "inexact"))
  (newline))
