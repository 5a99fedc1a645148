;; strings: strings and characters — words built from characters
;; (list->string), taken apart (string->list), transformed with (scheme char)
;; case operations and a rot13, joined with string-append, written to an output
;; string port, and read back character by character through an input string
;; port while counting words, capitals, vowels and a checksum; consecutive words
;; are compared with string<? and palindromes found by reversing.
;; answer: 7508 506 24 2 13 1 137239 1000 1000 1061 608915
(import (scheme base) (scheme write) (scheme char))

(define (next-random x) (modulo (* x 48271) 2147483647))

;; A word of 2 to 7 lower-case letters drawn from a small alphabet (so that
;; palindromes occur), and the generator state after it.
(define (random-word seed)
  (let* ((seed (next-random seed))
         (len (+ 2 (modulo seed 6))))
    (let loop ((i 0) (seed seed) (chars '()))
      (if (= i len)
          (values (list->string chars) seed)
          (let ((seed (next-random seed)))
            (loop (+ i 1)
                  seed
                  (cons (string-ref "abcdeilmnorst" (modulo seed 13)) chars)))))))

(define (rot13 c)
  (if (char-alphabetic? c)
      (let ((base (if (char-upper-case? c) 65 97)))
        (integer->char (+ base (modulo (+ (- (char->integer c) base) 13) 26))))
      c))

(define (capitalize word)
  (let ((chars (string->list word)))
    (list->string (cons (char-upcase (car chars)) (cdr chars)))))

(define (palindrome? word)
  (let ((chars (string->list word)))
    (equal? chars (reverse chars))))

;; Build the text: each word capitalized, rot13-encoded, tagged with its length.
(define (make-text count seed)
  (let ((out (open-output-string)))
    (let loop ((i 0) (seed seed) (previous "") (ordered 0) (palindromes 0))
      (if (= i count)
          (values (get-output-string out) ordered palindromes)
          (call-with-values
              (lambda () (random-word seed))
            (lambda (word seed)
              (let ((encoded (list->string (map rot13 (string->list (capitalize word))))))
                (write-string (string-append encoded "-" (number->string (string-length word))) out)
                (write-char #\space out)
                (loop (+ i 1)
                      seed
                      word
                      (if (string<? previous word) (+ ordered 1) ordered)
                      (if (palindrome? word) (+ palindromes 1) palindromes)))))))))

;; Read the text back through a port.
(define (scan text)
  (let ((in (open-input-string text)))
    (let loop ((words 0) (capitals 0) (vowels 0) (checksum 0))
      (let ((c (read-char in)))
        (cond ((eof-object? c) (list words capitals vowels checksum))
              ((char=? c #\space) (loop (+ words 1) capitals vowels checksum))
              (else
               (loop words
                     (if (char-upper-case? c) (+ capitals 1) capitals)
                     (if (memv (char-downcase c) '(#\a #\e #\i #\o #\u)) (+ vowels 1) vowels)
                     (modulo (+ (* checksum 31) (char->integer c)) 1000003))))))))

(define bench-repeat 100)

(define (repeat-work thunk)
  (let loop ((i 1) (result (thunk)))
    (if (< i bench-repeat)
        (loop (+ i 1) (thunk))
        result)))

(define (run)
  (call-with-values
      (lambda () (make-text 1000 2024))
    (lambda (text ordered palindromes)
      (append (list (string-length text) ordered palindromes)
              (scan (string-upcase (substring text 0 20)))
              (scan text)))))

(let ((result (repeat-work run)))
  (display (car result))
  (for-each (lambda (n) (display " ") (display n)) (cdr result))
  (newline))
