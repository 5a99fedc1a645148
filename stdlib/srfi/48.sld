;;; (srfi 48): intermediate format strings (SRFI 48), written in Scheme.
;;;
;;; Output is Unicode text (nodwyn strings are Unicode). ~y pretty-prints as
;;; write does (one line), which the document permits.
(define-library (srfi 48)
  (import (scheme base) (scheme char) (scheme write) (prefix (nodwyn primitives srfi support) %))
  (export format)
  (begin

    (define help-text
      "(format [<port>] <format-string> [<arg>...]) -- <port> is #t, #f or an output-port
OPTION	[MNEMONIC]	DESCRIPTION	-- This implementation uses Unicode text
~H	[Help]		output this text
~A	[Any]		(display arg) for humans
~S	[Slashified]	(write arg) for parsers
~W	[WriteCircular]	like ~s, but handles recursive structures
~~	[tilde]		output a tilde
~T	[Tab]		output a tab character
~%	[Newline]	output a newline character
~&	[Freshline]	output a newline character if the previous output was not a newline
~D	[Decimal]	the arg is a number which is output in decimal radix
~X	[heXadecimal]	the arg is a number which is output in hexdecimal radix
~O	[Octal]		the arg is a number which is output in octal radix
~B	[Binary]	the arg is a number which is output in binary radix
~w,dF	[Fixed]		the arg is a string or number which has width w and d digits after the decimal
~C	[Character]	charater arg is output by write-char
~_	[Space]		a single space character is output
~Y	[Yuppify]	the list arg is pretty-printed to the output
~?	[Indirection]	recursive format: next arg is a format-string and the following arg a list of arguments
~K	[Indirection]	same as ~?
")

    (define (pad-left s w) (if (< (string-length s) w) (string-append (make-string (- w (string-length s)) #\space) s) s))

    ;; number->string of x with d digits after the point (x made inexact first).
    (define (fixed x d)
      (let* ((x (inexact x))
             (neg (or (< x 0) (eqv? x -0.0)))
             (scaled (round (* (abs x) (expt 10 d))))
             (digits (number->string (exact scaled)))
             (digits (if (<= (string-length digits) d) (string-append (make-string (- (+ d 1) (string-length digits)) #\0) digits) digits))
             (k (- (string-length digits) d)))
        (string-append (if (and neg (not (zero? scaled))) "-" "")
                       (substring digits 0 k)
                       (if (> d 0) (string-append "." (substring digits k (string-length digits))) ""))))

    (define (check-number who x) (if (not (number? x)) (error (string-append "format: " who " needs a number") x)))

    ;; Formats fmt with args to out; at-line-start? tells whether the output so far ends a line. Returns it.
    (define (run out fmt args at-line-start?)
      (let ((n (string-length fmt)))
        (define (next args d) (if (null? args) (error "format: too few arguments for the directives" fmt (string #\~ d)) args))
        (let loop ((i 0) (args args) (fresh at-line-start?))
          (cond
           ((= i n)
            (if (pair? args) (error "format: more arguments than directives" args))
            fresh)
           ((not (char=? (string-ref fmt i) #\~))
            (write-char (string-ref fmt i) out)
            (loop (+ i 1) args (char=? (string-ref fmt i) #\newline)))
           ((= (+ i 1) n) (error "format: a ~ at the end of the format string" fmt))
           (else
            ;; ~w,dF: digits and a comma before the directive.
            (let scan ((j (+ i 1)) (w #f) (d #f) (in-d #f))
              (let ((c (string-ref fmt j)))
                (cond
                 ((char-numeric? c)
                  (let ((v (digit-value c)))
                    (if in-d (scan (+ j 1) w (+ (* 10 (or d 0)) v) #t) (scan (+ j 1) (+ (* 10 (or w 0)) v) d #f)))
                  )
                 ((and (char=? c #\,) (not in-d) (< (+ j 1) n)) (scan (+ j 1) w d #t))
                 ((and (or w in-d) (not (memv (char-downcase c) '(#\f)))) (error "format: a width is only for ~F" fmt))
                 (else
                  (let ((k (+ j 1)))
                    (case (char-downcase c)
                      ((#\a) (let ((a (next args c))) (display (car a) out) (loop k (cdr a) #f)))
                      ((#\s #\w #\y) (let ((a (next args c))) (write (car a) out) (loop k (cdr a) #f)))
                      ((#\d #\x #\o #\b)
                       (let ((a (next args c)))
                         (check-number (string #\~ c) (car a))
                         (write-string (number->string (car a) (case (char-downcase c) ((#\d) 10) ((#\x) 16) ((#\o) 8) (else 2))) out)
                         (loop k (cdr a) #f)))
                      ((#\c) (let ((a (next args c)))
                               (if (not (char? (car a))) (error "format: ~C needs a character" (car a)))
                               (write-char (car a) out) (loop k (cdr a) (char=? (car a) #\newline))))
                      ((#\f)
                       (let* ((a (next args c)) (x (car a)))
                         (let ((s (cond ((and (number? x) d) (fixed x d))
                                        ((number? x) (number->string x))
                                        ((string? x) x)
                                        (else (error "format: ~F needs a number or a string" x)))))
                           (write-string (pad-left s (or w 0)) out)
                           (loop k (cdr a) #f))))
                      ((#\? #\k)
                       (let* ((a (next args c)) (f (car a)) (b (next (cdr a) c)) (l (car b)))
                         (if (not (string? f)) (error "format: ~? needs a format string" f))
                         (if (not (list? l)) (error "format: ~? needs a list of arguments" l))
                         (loop k (cdr b) (run out f l fresh))))
                      ((#\~) (write-char #\~ out) (loop k args #f))
                      ((#\t) (write-char #\tab out) (loop k args #f))
                      ((#\%) (newline out) (loop k args #t))
                      ((#\&) (if (not fresh) (newline out)) (loop k args #t))
                      ((#\_) (write-char #\space out) (loop k args #f))
                      ((#\h) (write-string help-text out) (loop k args #t))
                      (else (error "format: unknown directive" (string #\~ c))))))))))))))

    ;; (format [port] format-string [obj ...]): Formats the objects by the directives of format-string (~a ~s ~w
    ;; ~d ~x ~o ~b ~c ~y ~? ~k ~w,dF ~~ ~t ~% ~& ~_ ~h, case-independent): to the port, to the current output port
    ;; when port is #t, else (#f or no port) into a new string, which is returned.
    (define (format . all)
      (cond ((null? all) (%arg-error 'format 1 "format string" 'nothing))
            ((string? (car all))
             (let ((out (open-output-string))) (run out (car all) (cdr all) #f) (get-output-string out)))
            ((null? (cdr all)) (%arg-error 'format 2 "format string" 'nothing))
            ((not (string? (cadr all))) (%arg-error 'format 2 "format string" (cadr all)))
            ((eq? (car all) #f)
             (let ((out (open-output-string))) (run out (cadr all) (cddr all) #f) (get-output-string out)))
            ((eq? (car all) #t) (run (current-output-port) (cadr all) (cddr all) #f) (if #f #f))
            ((output-port? (car all)) (run (car all) (cadr all) (cddr all) #f) (if #f #f))
            (else (%arg-error 'format 1 "output port, #t or #f" (car all)))))))
