;;; SRFI 69: basic hash tables, the document's procedures in its own forms (the same tables as SRFI 125's).
(import (scheme base) (scheme char) (srfi 69))

(define t (make-hash-table))
(hash-table? t)                                   ; expect: #t
(hash-table-set! t '(1 2) 'a)
(hash-table-set! t "s" 'b)
(list (hash-table-ref t (list 1 2)) (hash-table-ref t "s") (hash-table-size t)) ; expect: (a b 2)
(hash-table-ref t 'missing)                       ; expect error: user: no such key
(hash-table-ref t 'missing (lambda () 'thunk))    ; expect: thunk
(hash-table-ref/default t 'missing 0)             ; expect: 0
(hash-table-exists? t "s")                        ; expect: #t
(hash-table-delete! t "s")
(hash-table-exists? t "s")                        ; expect: #f
(hash-table-update! t 'count (lambda (n) (+ n 1)) (lambda () 0))
(hash-table-update!/default t 'count (lambda (n) (+ n 1)) 0)
(hash-table-ref t 'count)                         ; expect: 2
(hash-table-update! t 'nothing (lambda (n) n))    ; expect error: user: no such key
(define ts (make-hash-table string-ci=?))
(hash-table-set! ts "Key" 1)
(hash-table-ref ts "KEY")                         ; expect: 1
(define tm (make-hash-table (lambda (a b) (= (modulo a 10) (modulo b 10))) (lambda (x . bound) (modulo x 10))))
(hash-table-set! tm 13 'thirteen)
(hash-table-ref tm 23)                            ; expect: thirteen
(eq? (hash-table-equivalence-function ts) string-ci=?) ; expect: #t
(procedure? (hash-table-hash-function tm))        ; expect: #t
(define ta (alist->hash-table '((a . 1) (b . 2) (a . 3)) eq?))
(list (hash-table-ref ta 'a) (hash-table-size ta)) ; expect: (1 2)
(let ((keys (hash-table-keys ta)) (vals (hash-table-values ta))) (list (length keys) (apply + vals))) ; expect: (2 3)
(let ((acc 0)) (hash-table-walk ta (lambda (k v) (set! acc (+ acc v)))) acc) ; expect: 3
(hash-table-fold ta (lambda (k v acc) (+ v acc)) 100) ; expect: 103
(length (hash-table->alist ta))                   ; expect: 2
(define tc (hash-table-copy ta))
(hash-table-set! tc 'c 3)
(list (hash-table-size tc) (hash-table-size ta)) ; expect: (3 2)
(hash-table-ref (hash-table-merge! (hash-table-copy ta) tc) 'c) ; expect: 3
(list (< (hash "abc" 7) 7) (< (string-hash "abc" 7) 7) (< (string-ci-hash "ABC" 7) 7) (= (string-ci-hash "ABC") (string-ci-hash "abc")) (< (hash-by-identity 'x 5) 5)) ; expect: (#t #t #t #t #t)
(= (hash (list 1 "a")) (hash (list 1 "a")))       ; expect: #t
(list (= (hash "abc" 7.5) (hash "abc")) (exact-integer? (string-hash "abc" 2.5)))   ; expect: (#t #t)
(hash-table-copy 5)                               ; expect error: type: bad argument #1 to 'hash-table-copy'
