;; msort: merge sort of a pseudo-random list — list allocation (cons), car/cdr
;; traffic, and fixnum arithmetic in a Park–Miller generator (products stay
;; below 2^47). The answer is a checksum of the sorted list, so a wrong order
;; changes it.
;; answer: 2000 6084 2144502848 439766
(import (scheme base) (scheme write))

(define (random-list n seed)
  (let loop ((i 0) (x seed) (acc '()))
    (if (= i n)
        acc
        (let ((next (modulo (* x 48271) 2147483647)))
          (loop (+ i 1) next (cons next acc))))))

;; Split a list into two halves of alternating elements.
(define (split lst)
  (let loop ((lst lst) (left '()) (right '()))
    (cond ((null? lst) (values left right))
          ((null? (cdr lst)) (values (cons (car lst) left) right))
          (else (loop (cddr lst)
                      (cons (car lst) left)
                      (cons (cadr lst) right))))))

;; Merge two sorted lists; the result is built in reverse and reversed once,
;; so the merge runs in constant stack.
(define (merge a b)
  (let loop ((a a) (b b) (acc '()))
    (cond ((null? a) (append-reverse acc b))
          ((null? b) (append-reverse acc a))
          ((< (car b) (car a)) (loop a (cdr b) (cons (car b) acc)))
          (else (loop (cdr a) b (cons (car a) acc))))))

(define (append-reverse rev tail)
  (if (null? rev)
      tail
      (append-reverse (cdr rev) (cons (car rev) tail))))

(define (merge-sort lst)
  (if (or (null? lst) (null? (cdr lst)))
      lst
      (call-with-values
          (lambda () (split lst))
        (lambda (left right)
          (merge (merge-sort left) (merge-sort right))))))

;; Length, smallest element modulo 10^4, largest, and a position-weighted
;; checksum modulo 10^6 + 3.
(define (summary sorted)
  (let loop ((lst sorted) (i 0) (sum 0) (last 0))
    (if (null? lst)
        (list i (modulo (car sorted) 10000) last sum)
        (loop (cdr lst)
              (+ i 1)
              (modulo (+ (* sum 31) (modulo (car lst) 1000003)) 1000003)
              (car lst)))))

(define (sorted? lst)
  (cond ((null? lst) #t)
        ((null? (cdr lst)) #t)
        ((<= (car lst) (cadr lst)) (sorted? (cdr lst)))
        (else #f)))

(define bench-repeat 150)

(define (repeat-work thunk)
  (let loop ((i 1) (result (thunk)))
    (if (< i bench-repeat)
        (loop (+ i 1) (thunk))
        result)))

(define (run)
  (let ((sorted (merge-sort (random-list 2000 12345))))
    (if (sorted? sorted)
        (summary sorted)
        'not-sorted)))

(let ((result (repeat-work run)))
  (display (car result))
  (for-each (lambda (x) (display " ") (display x)) (cdr result))
  (newline))
