;; records: define-record-type field access — particles in a box, each a
;; record whose fields are read and written by accessors and modifiers in the
;; inner loop, bouncing off the walls, next to a second record type (a
;; counter) in the same vector so each step dispatches on the type predicates.
;; Fixnum arithmetic only. The answer is the total of wall hits, a checksum of
;; the final positions, and the ticks of the counters.
;; answer: 1183 672225 4000
(import (scheme base) (scheme write))

(define-record-type particle
  (make-particle x y vx vy hits)
  particle?
  (x particle-x set-particle-x!)
  (y particle-y set-particle-y!)
  (vx particle-vx set-particle-vx!)
  (vy particle-vy set-particle-vy!)
  (hits particle-hits set-particle-hits!))

(define-record-type counter
  (make-counter ticks)
  counter?
  (ticks counter-ticks set-counter-ticks!))

(define size 250)

(define (next-random x) (modulo (* x 48271) 2147483647))

;; Every eleventh slot a counter, the others particles at pseudo-random
;; positions with velocities from -7 to 7 on each axis.
(define (make-things n seed)
  (let ((things (make-vector n #f)))
    (let loop ((i 0) (seed seed))
      (if (= i n)
          things
          (let* ((s1 (next-random seed))
                 (s2 (next-random s1))
                 (s3 (next-random s2))
                 (s4 (next-random s3)))
            (vector-set! things i
                         (if (= (modulo i 11) 0)
                             (make-counter 0)
                             (make-particle (modulo s1 size) (modulo s2 size)
                                            (- (modulo s3 15) 7) (- (modulo s4 15) 7) 0)))
            (loop (+ i 1) s4))))))

;; Moves a particle one step; past a wall it is reflected back inside and its
;; velocity on that axis reversed.
(define (move! p)
  (let ((x (+ (particle-x p) (particle-vx p)))
        (y (+ (particle-y p) (particle-vy p))))
    (cond ((< x 0)
           (set-particle-x! p (- x))
           (set-particle-vx! p (- (particle-vx p)))
           (set-particle-hits! p (+ (particle-hits p) 1)))
          ((>= x size)
           (set-particle-x! p (- (* 2 (- size 1)) x))
           (set-particle-vx! p (- (particle-vx p)))
           (set-particle-hits! p (+ (particle-hits p) 1)))
          (else (set-particle-x! p x)))
    (cond ((< y 0)
           (set-particle-y! p (- y))
           (set-particle-vy! p (- (particle-vy p)))
           (set-particle-hits! p (+ (particle-hits p) 1)))
          ((>= y size)
           (set-particle-y! p (- (* 2 (- size 1)) y))
           (set-particle-vy! p (- (particle-vy p)))
           (set-particle-hits! p (+ (particle-hits p) 1)))
          (else (set-particle-y! p y)))))

(define (step! things)
  (let loop ((i 0))
    (when (< i (vector-length things))
      (let ((t (vector-ref things i)))
        (cond ((particle? t) (move! t))
              ((counter? t) (set-counter-ticks! t (+ (counter-ticks t) 1)))))
      (loop (+ i 1)))))

(define (summary things)
  (let loop ((i 0) (hits 0) (checksum 0) (ticks 0))
    (if (= i (vector-length things))
        (list hits checksum ticks)
        (let ((t (vector-ref things i)))
          (if (particle? t)
              (loop (+ i 1)
                    (+ hits (particle-hits t))
                    (modulo (+ (* checksum 31) (particle-x t) (* 7 (particle-y t))) 1000003)
                    ticks)
              (loop (+ i 1) hits checksum (+ ticks (counter-ticks t))))))))

(define (simulate n steps)
  (let ((things (make-things n 12345)))
    (do ((s 0 (+ s 1))) ((= s steps)) (step! things))
    (summary things)))

(define bench-repeat 20)

(define (repeat-work thunk)
  (let loop ((i 1) (result (thunk)))
    (if (< i bench-repeat)
        (loop (+ i 1) (thunk))
        result)))

(let ((result (repeat-work (lambda () (simulate 220 200)))))
  (display (car result))
  (for-each (lambda (n) (display " ") (display n)) (cdr result))
  (newline))
