;; fringe: same-fringe with generators built on call/cc — a tree walker is
;; suspended at every leaf by capturing its continuation and resumed by
;; re-entering it, so each leaf costs two captures and two re-entries. Compares
;; trees of the same leaves in different shapes (equal fringes) and a tree with
;; one leaf changed (unequal, found part-way).
;; answer: 1000 -700 1000
(import (scheme base) (scheme write))

;; A binary tree of pairs whose leaves are lo .. hi-1 in order; the split point
;; is a fraction num/den of the range, so different fractions give different
;; shapes with the same fringe.
(define (build-tree lo hi num den)
  (if (= (- hi lo) 1)
      lo
      (let ((mid (+ lo (max 1 (quotient (* (- hi lo) num) den)))))
        (cons (build-tree lo mid num den) (build-tree mid hi num den)))))

;; Replace leaf n by the symbol changed.
(define (change-leaf tree n)
  (cond ((pair? tree) (cons (change-leaf (car tree) n) (change-leaf (cdr tree) n)))
        ((eqv? tree n) 'changed)
        (else tree)))

;; A generator of the leaves of tree: each call returns the next leaf, then
;; the symbol done forever.
(define (make-leaf-generator tree)
  (define return #f)
  (define (walk t)
    (if (pair? t)
        (begin (walk (car t)) (walk (cdr t)))
        (call-with-current-continuation
         (lambda (resume-walk)
           (set! resume (lambda () (resume-walk #f)))
           (return t)))))
  (define (resume)
    (walk tree)
    (set! resume (lambda () (return 'done)))
    (return 'done))
  (lambda ()
    (call-with-current-continuation
     (lambda (k)
       (set! return k)
       (resume)))))

;; The number of equal leaves seen, negated if the fringes differ.
(define (same-fringe a b)
  (let ((next-a (make-leaf-generator a))
        (next-b (make-leaf-generator b)))
    (let loop ((count 0))
      (let ((x (next-a)) (y (next-b)))
        (cond ((not (eqv? x y)) (- count))
              ((eq? x 'done) count)
              (else (loop (+ count 1))))))))

(define tree-a (build-tree 0 1000 1 2))
(define tree-b (build-tree 0 1000 1 3))
(define tree-c (change-leaf (build-tree 0 1000 3 4) 700))

(define bench-repeat 75)

(define (repeat-work thunk)
  (let loop ((i 1) (result (thunk)))
    (if (< i bench-repeat)
        (loop (+ i 1) (thunk))
        result)))

(define (run)
  (list (same-fringe tree-a tree-b)
        (same-fringe tree-b tree-c)
        (same-fringe tree-c tree-c)))

(let ((result (repeat-work run)))
  (display (car result))
  (for-each (lambda (n) (display " ") (display n)) (cdr result))
  (newline))
