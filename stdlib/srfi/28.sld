;;; (srfi 28): basic format strings (SRFI 28): ~a, ~s, ~% and ~~. (srfi 48)'s format is its extension.
(define-library (srfi 28)
  (import (scheme base) (scheme write) (prefix (nodwyn primitives srfi support) %))
  (export format)
  (begin
    ;; (format format-string obj ...): The string with ~a replaced by (display obj), ~s by (write obj) of the next
    ;; object, ~% by a newline and ~~ by a tilde. Too few objects, or another directive, is an error.
    (define (format fmt . objs)
      (if (not (string? fmt)) (%arg-error 'format 1 "string" fmt))
      (let ((out (open-output-string)) (n (string-length fmt)))
        (let loop ((i 0) (objs objs))
          (cond ((= i n)
                 (if (pair? objs) (error "format: more objects than directives" objs))
                 (get-output-string out))
                ((and (char=? (string-ref fmt i) #\~) (< (+ i 1) n))
                 (let ((d (string-ref fmt (+ i 1))))
                   (case d
                     ((#\a #\A #\s #\S)
                      (if (null? objs) (error "format: too few objects for the directives" fmt))
                      ((if (memv d '(#\a #\A)) display write) (car objs) out)
                      (loop (+ i 2) (cdr objs)))
                     ((#\%) (newline out) (loop (+ i 2) objs))
                     ((#\~) (write-char #\~ out) (loop (+ i 2) objs))
                     (else (error "format: unknown directive" (string #\~ d))))))
                ((char=? (string-ref fmt i) #\~) (error "format: a ~ at the end of the format string" fmt))
                (else (write-char (string-ref fmt i) out) (loop (+ i 1) objs))))))))
