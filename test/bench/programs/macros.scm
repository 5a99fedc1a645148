;; macros: syntax-rules-heavy code — a while loop, counters, swap!, recursive
;; and/or/let*/case macros, a for loop with literal keywords, and a
;; macro-defining macro, all used in the hot loop (collatz step counts, a gcd
;; by swapping, and case classification). After expansion this is plain loops
;; and set!, so it measures both the expander's output and, for interpreters
;; that expand as they run, the expansion itself.
;; answer: 133988 181 993 5426
(import (scheme base) (scheme write))

(define-syntax while
  (syntax-rules ()
    ((_ test body ...)
     (let loop ()
       (when test
         body ...
         (loop))))))

(define-syntax inc!
  (syntax-rules ()
    ((_ v) (set! v (+ v 1)))
    ((_ v n) (set! v (+ v n)))))

(define-syntax swap!
  (syntax-rules ()
    ((_ a b) (let ((tmp a)) (set! a b) (set! b tmp)))))

(define-syntax my-or
  (syntax-rules ()
    ((_) #f)
    ((_ e) e)
    ((_ e rest ...) (let ((t e)) (if t t (my-or rest ...))))))

(define-syntax my-and
  (syntax-rules ()
    ((_) #t)
    ((_ e) e)
    ((_ e rest ...) (if e (my-and rest ...) #f))))

(define-syntax my-let*
  (syntax-rules ()
    ((_ () body ...) (let () body ...))
    ((_ ((name value) more ...) body ...)
     (let ((name value)) (my-let* (more ...) body ...)))))

(define-syntax my-case
  (syntax-rules (else)
    ((_ key (else result ...)) (begin result ...))
    ((_ key ((datum ...) result ...) clause ...)
     (let ((k key))
       (if (memv k '(datum ...))
           (begin result ...)
           (my-case k clause ...))))))

(define-syntax for
  (syntax-rules (from to by)
    ((_ (v from lo to hi) body ...)
     (for (v from lo to hi by 1) body ...))
    ((_ (v from lo to hi by step) body ...)
     (let ((limit hi))
       (let loop ((v lo))
         (when (< v limit)
           body ...
           (loop (+ v step))))))))

;; A macro that defines an updating macro for a binary operator.
(define-syntax define-updater
  (syntax-rules ()
    ((_ name op)
     (define-syntax name
       (syntax-rules ()
         ((_ var x) (set! var (op var x))))))))

(define-updater add-to! +)
(define-updater max-to! max)

(define (collatz-steps n)
  (let ((steps 0))
    (while (> n 1)
      (if (even? n)
          (set! n (quotient n 2))
          (set! n (+ (* 3 n) 1)))
      (inc! steps))
    steps))

(define (gcd-by-swapping a b)
  (while (> b 0)
    (set! a (remainder a b))
    (swap! a b))
  a)

(define (run n)
  (let ((total 0) (longest 0) (coprime 0) (classes 0))
    (for (i from 1 to n)
      (my-let* ((steps (collatz-steps i))
                (g (gcd-by-swapping i (+ steps 1))))
        (add-to! total steps)
        (max-to! longest steps)
        (when (my-and (= g 1) (my-or (odd? i) (> steps 50)))
          (inc! coprime))
        (inc! classes (my-case (remainder i 6)
                        ((0) 1)
                        ((1 5) 2)
                        ((2 4) 3)
                        (else 4)))))
    (for (i from 0 to n by 7)
      (inc! classes (my-or (my-and (even? i) 1) 2)))
    (list total longest coprime classes)))

(define bench-repeat 100)

(define (repeat-work thunk)
  (let loop ((i 1) (result (thunk)))
    (if (< i bench-repeat)
        (loop (+ i 1) (thunk))
        result)))

(let ((result (repeat-work (lambda () (run 2000)))))
  (display (car result))
  (for-each (lambda (n) (display " ") (display n)) (cdr result))
  (newline))
