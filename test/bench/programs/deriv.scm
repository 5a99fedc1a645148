;; deriv: symbolic differentiation — walks and builds list structure with
;; symbols as operators (eq? dispatch, cons/list allocation, map with a
;; closure). The second derivative is taken without simplification; the
;; answer is its number of pairs, of x's and of *'s.
;; answer: 586 67 92
(import (scheme base) (scheme write))

;; Expressions: numbers, symbols, and lists (+ e ...), (* e ...), (- e e),
;; (/ e e), (expt e n) with an integer n, (exp e), (log e).
(define (d e x)
  (cond ((number? e) 0)
        ((symbol? e) (if (eq? e x) 1 0))
        (else
         (let ((op (car e)) (args (cdr e)))
           (cond ((eq? op '+) (cons '+ (map (lambda (a) (d a x)) args)))
                 ((eq? op '-) (list '- (d (car args) x) (d (cadr args) x)))
                 ((eq? op '*) (cons '+ (product-rule args x)))
                 ((eq? op '/)
                  (let ((u (car args)) (v (cadr args)))
                    (list '/
                          (list '- (list '* (d u x) v) (list '* u (d v x)))
                          (list 'expt v 2))))
                 ((eq? op 'expt)
                  (let ((u (car args)) (n (cadr args)))
                    (list '* n (list 'expt u (- n 1)) (d u x))))
                 ((eq? op 'exp) (list '* e (d (car args) x)))
                 ((eq? op 'log) (list '/ (d (car args) x) (car args)))
                 (else (error "unknown operator" op)))))))

;; d(a b c) = (a' b c) + (a b' c) + (a b c'), one term per factor.
(define (product-rule factors x)
  (let loop ((before '()) (after factors) (terms '()))
    (if (null? after)
        (reverse terms)
        (loop (cons (car after) before)
              (cdr after)
              (cons (cons '* (append (reverse before)
                                     (cons (d (car after) x) (cdr after))))
                    terms)))))

(define (count-pairs e)
  (if (pair? e)
      (+ 1 (count-pairs (car e)) (count-pairs (cdr e)))
      0))

(define (count-symbol e s)
  (cond ((pair? e) (+ (count-symbol (car e) s) (count-symbol (cdr e) s)))
        ((eq? e s) 1)
        (else 0)))

(define expression
  '(+ (* 3 x x x) (* a x x) (* b x) 5
      (* (expt (+ x 1) 4) (exp (* 2 x)))
      (log (+ (* x x) 1))
      (- (* x y z) (* (expt y 3) x))))

(define bench-repeat 3000)

(define (repeat-work thunk)
  (let loop ((i 1) (result (thunk)))
    (if (< i bench-repeat)
        (loop (+ i 1) (thunk))
        result)))

(define (run)
  (let ((second (d (d expression 'x) 'x)))
    (list (count-pairs second) (count-symbol second 'x) (count-symbol second '*))))

(let ((result (repeat-work run)))
  (display (car result))
  (for-each (lambda (n) (display " ") (display n)) (cdr result))
  (newline))
