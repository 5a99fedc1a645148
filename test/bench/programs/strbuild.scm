;; strbuild: building and taking apart strings — names grown one letter at a
;; time with string-append and substring, upper-cased through string->list,
;; char-upcase and list->string, joined with numbers (number->string) into a
;; comma- and semicolon-separated document by apply string-append, then parsed
;; back by a string-ref scan with substring and string->number; the fields are
;; checked (string=? after char-downcase, string<? between neighbours,
;; char-upper-case? and char-numeric? counts, a char->integer checksum).
;; answer: 2000 101378372 2000 1001 10934 9775 523625
(import (scheme base) (scheme write) (scheme char))

(define (next-random x) (modulo (* x 48271) 2147483647))

(define letters "abcdefghijklmnopqrstuvwxyz")

;; A name of 3 to 8 letters, and the generator state after it.
(define (random-name seed)
  (let* ((seed (next-random seed))
         (len (+ 3 (modulo seed 6))))
    (let loop ((i 0) (seed seed) (name ""))
      (if (= i len)
          (values name seed)
          (let* ((seed (next-random seed))
                 (k (modulo seed 26)))
            (loop (+ i 1) seed (string-append name (substring letters k (+ k 1)))))))))

(define (upcase s) (list->string (map char-upcase (string->list s))))
(define (downcase s) (list->string (map char-downcase (string->list s))))

;; `count` records "name,number,NAME;" in one string.
(define (make-document count seed)
  (let loop ((i 0) (seed seed) (lines '()))
    (if (= i count)
        (apply string-append (reverse lines))
        (call-with-values
            (lambda () (random-name seed))
          (lambda (name seed)
            (loop (+ i 1)
                  seed
                  (cons (string-append name "," (number->string (modulo seed 100000)) "," (upcase name) ";")
                        lines)))))))

;; Splits the document at commas and semicolons and checks every record.
(define (parse document)
  (let ((n (string-length document)))
    (let loop ((i 0) (start 0) (fields '()) (records 0) (sum 0) (matched 0) (ordered 0)
               (capitals 0) (digits 0) (checksum 0) (previous ""))
      (if (= i n)
          (list records sum matched ordered capitals digits checksum)
          (let ((c (string-ref document i)))
            (cond ((char=? c #\,)
                   (loop (+ i 1) (+ i 1) (cons (substring document start i) fields)
                         records sum matched ordered capitals digits checksum previous))
                  ((char=? c #\;)
                   (let* ((upper (substring document start i))
                          (number (car fields))
                          (name (cadr fields)))
                     (loop (+ i 1) (+ i 1) '() (+ records 1)
                           (+ sum (string->number number))
                           (if (string=? (downcase upper) name) (+ matched 1) matched)
                           (if (string<? previous name) (+ ordered 1) ordered)
                           capitals digits checksum name)))
                  (else
                   (loop (+ i 1) start fields records sum matched ordered
                         (if (char-upper-case? c) (+ capitals 1) capitals)
                         (if (char-numeric? c) (+ digits 1) digits)
                         (modulo (+ (* checksum 31) (char->integer c)) 1000003)
                         previous))))))))

(define (run) (parse (make-document 2000 777)))

(define bench-repeat 6)

(define (repeat-work thunk)
  (let loop ((i 1) (result (thunk)))
    (if (< i bench-repeat)
        (loop (+ i 1) (thunk))
        result)))

(let ((result (repeat-work run)))
  (display (car result))
  (for-each (lambda (n) (display " ") (display n)) (cdr result))
  (newline))
