;;; SRFI 6, 9, 11, 16, 34 and 87: what R7RS already has, under their SRFI names.
(import (scheme base) (srfi 6) (srfi 9) (srfi 11) (srfi 16) (srfi 34) (srfi 87)
        (srfi 6 basic-string-ports) (srfi 9 records) (srfi 11 let-values) (srfi 16 case-lambda)
        (srfi 34 exception-handling) (srfi 87 case))

(let ((p (open-output-string))) (write-char #\a p) (get-output-string p)) ; expect: "a"
(read-char (open-input-string "xy"))              ; expect: #\x
(define-record-type point (make-point x y) point? (x point-x) (y point-y set-point-y!))
(let ((p (make-point 1 2))) (set-point-y! p 3) (list (point? p) (point-x p) (point-y p))) ; expect: (#t 1 3)
(let-values (((a b) (values 1 2)) ((c) (values 3))) (list a b c)) ; expect: (1 2 3)
(let*-values (((a) (values 1)) ((b) (values (+ a 1)))) (list a b)) ; expect: (1 2)
((case-lambda ((x) (list 'one x)) ((x y) (list 'two x y)) ((x . r) (list 'many x r))) 1 2 3) ; expect: (many 1 (2 3))
(guard (e ((symbol? e) (list 'caught e))) (raise 'boom)) ; expect: (caught boom)
(guard (e ((string? e) e) (else 'other)) (raise 1)) ; expect: other
(with-exception-handler (lambda (e) 42) (lambda () (+ 1 (raise-continuable 'c)))) ; expect: 43
(case 5 ((1 2) 'low) ((5) => (lambda (x) (* x 10))) (else 'other)) ; expect: 50
(case 7 ((1) 'one) (else => (lambda (x) (list x)))) ; expect: (7)
