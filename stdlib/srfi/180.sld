;;; (srfi 180): JSON (SRFI 180), reading and writing, streaming and whole.
;;;
;;; The parser and the writer are TypeScript (primitives/srfi/json.ts): it
;;; reads a port's text in place; a generator of characters is fed to it here,
;;; one character at a time. json-fold, the accumulator and the JSON lines and
;;; text sequence readers are here. The mapping is the agent primitives' own:
;;; null is the symbol null, arrays vectors, objects alists with symbol keys.
(define-library (srfi 180)
  (import (scheme base) (scheme case-lambda) (scheme inexact) (scheme write) (nodwyn primitives srfi 180)
          (prefix (nodwyn primitives srfi support) %))
  (export json-error? json-error-reason json-null?
          json-nesting-depth-limit json-number-of-character-limit
          json-generator json-fold json-read json-lines-read json-sequence-read
          json-accumulator json-write)
  (begin

    (define (check-limit x)
      (if (and (real? x) (not (nan? x)) (>= x 0)) x (%arg-error 'json-nesting-depth-limit 1 "non-negative real number" x)))

    ;; (json-nesting-depth-limit): A parameter, the deepest nesting of arrays and objects json-read, json-fold and json-generator
    ;; accept (a deeper one is a json-error); +inf.0 by default.
    (define json-nesting-depth-limit (make-parameter +inf.0 check-limit))

    ;; (json-number-of-character-limit): A parameter, the most characters json-read, json-fold and json-generator read for one
    ;; value (more is a json-error); +inf.0 by default.
    (define json-number-of-character-limit (make-parameter +inf.0 check-limit))

    ;; (json-null? obj): True when obj is the symbol null, JSON's null.
    (define (json-null? obj) (eq? obj 'null))

    ;; A parser over a textual input port or a generator of characters (a procedure).
    (define (parser who source)
      (let ((p (%json-parser who (if (procedure? source) #f source)
                             (json-nesting-depth-limit) (json-number-of-character-limit))))
        (cons p (if (procedure? source) source #f))))

    ;; Calls step on the parser until it does not need a character, feeding it from the generator.
    (define (run step p+g)
      (let ((p (car p+g)) (g (cdr p+g)))
        (let loop ()
          (let ((r (step p)))
            (if (eq? r p)
                (begin (%json-feed! p (g)) (loop))
                r)))))

    (define (source-of o) (if (pair? o) (car o) (current-input-port)))

    ;; (json-generator [port-or-generator]): A generator of the events of the next JSON value: the symbols
    ;; array-start, array-end, object-start and object-end, and the values (null, booleans, numbers, strings; an
    ;; object's keys are strings, each followed by its value); then the eof object.
    (define (json-generator . o)
      (let ((p+g (parser 'json-generator (source-of o))))
        (lambda () (run %json-event p+g))))

    ;; (json-fold proc array-start array-end object-start object-end seed [port-or-generator]): Folds over the events
    ;; of the next JSON value: (proc obj seed) for each value and each complete structure (the result of array-end or
    ;; object-end), (array-start seed) and (object-start seed) give the seed inside a structure, (array-end seed)
    ;; and (object-end seed) its result. Returns the seed when the value is read.
    (define (json-fold proc array-start array-end object-start object-end seed . o)
      (let ((g (apply json-generator o)))
        (let loop ((seed seed) (stack '()))
          (let ((e (g)))
            (cond ((eof-object? e) seed)
                  ((eq? e 'array-start) (loop (array-start seed) (cons seed stack)))
                  ((eq? e 'object-start) (loop (object-start seed) (cons seed stack)))
                  ((eq? e 'array-end) (loop (proc (array-end seed) (car stack)) (cdr stack)))
                  ((eq? e 'object-end) (loop (proc (object-end seed) (car stack)) (cdr stack)))
                  (else (loop (proc e seed) stack)))))))

    ;; (json-read [port-or-generator]): The next JSON value, in this mapping: null → the symbol null, true → #t,
    ;; false → #f, numbers → exact integers or (with a fraction or an exponent) flonums, strings → strings, arrays →
    ;; vectors, objects → association lists with symbol keys. The eof object when there is none.
    (define (json-read . o)
      (run %json-read (parser 'json-read (source-of o))))

    ;; (json-lines-read [port-or-generator]): A generator of the values of JSON lines (ndjson), as json-read reads them.
    (define (json-lines-read . o)
      (let ((p+g (parser 'json-lines-read (source-of o))))
        (lambda ()
          (%json-reset! (car p+g))
          (run %json-read p+g))))

    ;; (json-sequence-read [port-or-generator]): A generator of the values of a JSON text sequence (RFC 7464: each
    ;; text after a record separator, U+001E); a record that is not JSON is skipped, as the RFC says.
    (define (json-sequence-read . o)
      (let* ((source (source-of o))
             (next-char (if (procedure? source)
                            source
                            (begin (if (not (and (input-port? source) (textual-port? source)))
                                       (%arg-error 'json-sequence-read 1 "textual input port or generator" source))
                                   (lambda () (read-char source))))))
        (define (record)
          ;; The characters up to the next separator, or #f at the end.
          (let loop ((cs '()) (any #f))
            (let ((c (next-char)))
              (cond ((eof-object? c) (and any (list->string (reverse cs))))
                    ((char=? c #\x1e) (if any (list->string (reverse cs)) (loop '() #t)))
                    (else (loop (cons c cs) #t))))))
        (lambda ()
          (let loop ()
            (let ((r (record)))
              (if (not r)
                  (eof-object)
                  ;; A record is one JSON text: an error, nothing, or more than one value skips it.
                  (let ((v (guard (e ((json-error? e) (eof-object)))
                             (let* ((port (open-input-string r)) (v (json-read port)))
                               (if (eof-object? (json-read port)) v (eof-object))))))
                    (if (eof-object? v) (loop) v))))))))

    ;; (json-accumulator port-or-accumulator): An accumulator of the events json-generator yields, writing their JSON
    ;; text to the port (or giving it, in strings, to the accumulator). Events out of order — a value where a key
    ;; must be, an end that closes nothing or the other kind of structure, a second top-level value — are a json-error.
    (define (json-accumulator sink)
      (let ((emit (cond ((procedure? sink) sink)
                        ((and (output-port? sink) (textual-port? sink)) (lambda (s) (write-string s sink)))
                        (else (%arg-error 'json-accumulator 1 "textual output port or accumulator" sink))))
            ;; Each open structure: (kind . items so far); for an object, keys and values both count.
            (stack '())
            (done #f))
        (define (before-item key? obj)
          ;; Writes the separator this item needs, checks it is allowed.
          (cond (done (protocol-error "a second top-level value" obj))
                ((null? stack) #t)
                (else
                 (let* ((top (car stack)) (n (cdr top)))
                   (if (eq? (car top) 'object)
                       (cond ((and (even? n) (not key?)) (protocol-error "a value where an object's key (a string) must be" obj))
                             ((even? n) (if (> n 0) (emit ",")))
                             (else (emit ":")))
                       (if (> n 0) (emit ",")))
                   (set-cdr! top (+ n 1))))))
        (define (after-value)
          (if (null? stack) (set! done #t)))
        (define (close kind text)
          (if (or (null? stack) (not (eq? (car (car stack)) kind)))
              (protocol-error (string-append "an end of " (symbol->string kind) " that closes none") kind))
          (if (and (eq? kind 'object) (odd? (cdr (car stack))))
              (protocol-error "an object's end where its last key's value must be" kind))
          (set! stack (cdr stack))
          (emit text)
          (after-value))
        (lambda (obj)
          (cond ((eq? obj 'array-start) (before-item #f obj) (emit "[") (set! stack (cons (cons 'array 0) stack)))
                ((eq? obj 'object-start) (before-item #f obj) (emit "{") (set! stack (cons (cons 'object 0) stack)))
                ((eq? obj 'array-end) (close 'array "]"))
                ((eq? obj 'object-end) (close 'object "}"))
                ((and (string? obj) (pair? stack) (eq? (car (car stack)) 'object) (even? (cdr (car stack))))
                 (before-item #t obj) (emit (%json->string 'json-accumulator obj)))
                ((or (eq? obj 'null) (boolean? obj) (number? obj) (string? obj))
                 (let ((text (%json->string 'json-accumulator obj)))
                   (before-item #f obj) (emit text) (after-value)))
                (else (protocol-error "not a JSON event (a structure's start or end, null, a boolean, a number or a string)" obj))))))

    (define (protocol-error why obj) (%json-protocol-error 'json-accumulator why obj))

    ;; (json-write obj [port-or-accumulator]): Writes obj as JSON text to the port (default: the current output
    ;; port) or gives it to the accumulator as a string. A value that is not JSON (another symbol, a non-integer
    ;; exact rational, an infinity or NaN, an improper alist, a key that is not a symbol …) is a json-error, and then
    ;; nothing is written.
    (define json-write
      (case-lambda
        ((obj) (json-write obj (current-output-port)))
        ((obj sink)
         (cond ((procedure? sink) (sink (%json->string 'json-write obj)))
               ((and (output-port? sink) (textual-port? sink)) (%json-write-port obj sink))
               (else (%arg-error 'json-write 2 "textual output port or accumulator" sink))))))))
