;; symbolic: list-heavy symbolic code — random expression trees over + * -,
;; simplified bottom-up to a fixpoint (map with closures, member and equal? on
;; subterms, constant folding by apply), evaluated in association-list
;; environments (assq for variables and operators, apply of variadic
;; procedures), their distinct subterms counted with member, their variables
;; collected with append, and identical results counted in an assoc table.
;; answer: 3474419 1026 256 46
(import (scheme base) (scheme write))

(define (next-random x) (modulo (* x 48271) 2147483647))

(define symbols '(a b c d e f g h))

;; A random expression of at most `depth` levels, and the generator state.
(define (generate depth seed)
  (let ((seed (next-random seed)))
    (if (or (= depth 0) (< (modulo seed 10) 3))
        (let ((seed (next-random seed)))
          (values (if (even? seed)
                      (list-ref symbols (modulo (quotient seed 2) 8))
                      (modulo (quotient seed 2) 4))
                  seed))
        (let ((op (list-ref '(+ * -) (modulo (quotient seed 10) 3)))
              (arity (+ 2 (modulo (quotient seed 30) 2))))
          (let loop ((k 0) (seed seed) (args '()))
            (if (= k arity)
                (values (cons op (reverse args)) seed)
                (call-with-values
                    (lambda () (generate (- depth 1) seed))
                  (lambda (e seed) (loop (+ k 1) seed (cons e args))))))))))

(define modulus 65521)

(define operators
  (list (cons '+ (lambda args (modulo (apply + args) modulus)))
        (cons '* (lambda args (modulo (apply * args) modulus)))
        (cons '- (lambda args (modulo (apply - args) modulus)))))

(define (remove-all x lst)
  (cond ((null? lst) '())
        ((equal? x (car lst)) (remove-all x (cdr lst)))
        (else (cons (car lst) (remove-all x (cdr lst))))))

;; One bottom-up pass of the rules: constant folding, (+ ... 0 ...) and
;; (* ... 1 ...) drop the unit, (* ... 0 ...) is 0, (- x x) is 0, and a sum or
;; product of one term is that term.
(define (simplify e)
  (if (pair? e)
      (let ((op (car e)) (args (map simplify (cdr e))))
        (cond ((null? (remove-all #t (map number? args)))
               (apply (cdr (assq op operators)) args))
              ((eq? op '+)
               (let ((rest (remove-all 0 args)))
                 (cond ((null? rest) 0)
                       ((null? (cdr rest)) (car rest))
                       (else (cons '+ rest)))))
              ((eq? op '*)
               (if (member 0 args)
                   0
                   (let ((rest (remove-all 1 args)))
                     (cond ((null? rest) 1)
                           ((null? (cdr rest)) (car rest))
                           (else (cons '* rest))))))
              ((and (null? (cddr args)) (equal? (car args) (cadr args))) 0)
              (else (cons '- args))))
      e))

(define (simplify* e)
  (let ((next (simplify e)))
    (if (equal? next e) e (simplify* next))))

(define (evaluate e env)
  (cond ((number? e) e)
        ((symbol? e) (cdr (assq e env)))
        (else (apply (cdr (assq (car e) operators))
                     (map (lambda (a) (evaluate a env)) (cdr e))))))

;; The distinct compound subterms of e added to seen (compared with equal?).
(define (subterms e seen)
  (if (pair? e)
      (let loop ((args (cdr e)) (seen (if (member e seen) seen (cons e seen))))
        (if (null? args) seen (loop (cdr args) (subterms (car args) seen))))
      seen))

(define (variables e)
  (cond ((symbol? e) (list e))
        ((pair? e)
         (let loop ((args (cdr e)) (acc '()))
           (if (null? args)
               acc
               (loop (cdr args)
                     (let add ((vs (variables (car args))) (acc acc))
                       (cond ((null? vs) acc)
                             ((member (car vs) acc) (add (cdr vs) acc))
                             (else (add (cdr vs) (append acc (list (car vs)))))))))))
        (else '())))

(define environments
  (map (lambda (k)
         (map (lambda (s i) (cons s (+ 1 (modulo (* (+ i 3) (+ k 5)) 9))))
              symbols '(0 1 2 3 4 5 6 7)))
       '(0 1 2)))

(define (run count)
  (let loop ((i 0) (seed 4242) (total 0) (distinct 0) (vars 0) (table '()))
    (if (= i count)
        (list total distinct vars (length table))
        (call-with-values
            (lambda () (generate 6 seed))
          (lambda (e seed)
            (let* ((s (simplify* e))
                   (results (map (lambda (env) (evaluate s env)) environments))
                   (entry (assoc results table)))
              (if entry (set-cdr! entry (+ (cdr entry) 1)))
              (loop (+ i 1)
                    seed
                    (+ total (apply + results))
                    (+ distinct (length (subterms s '())))
                    (+ vars (length (variables s)))
                    (if entry table (cons (cons results 1) table)))))))))

(define bench-repeat 20)

(define (repeat-work thunk)
  (let loop ((i 1) (result (thunk)))
    (if (< i bench-repeat)
        (loop (+ i 1) (thunk))
        result)))

(let ((result (repeat-work (lambda () (run 60)))))
  (display (car result))
  (for-each (lambda (n) (display " ") (display n)) (cdr result))
  (newline))
