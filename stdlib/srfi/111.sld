;;; (srfi 111): boxes, single mutable cells (SRFI 111).
(define-library (srfi 111)
  (import (scheme base))
  (export box box? unbox set-box!)
  (begin
    ;; (box value): a new box holding value. (box? obj) is true of boxes only; (unbox box) returns what the box holds,
    ;; (set-box! box value) makes it hold value. Boxes are records: eq?, eqv? and equal? only when they are the same box.
    (define-record-type <box>
      (box value)
      box?
      (value unbox set-box!))))
