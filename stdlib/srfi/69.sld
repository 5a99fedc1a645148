;;; (srfi 69): basic hash tables (SRFI 69), the same tables as (srfi 125)'s.
;;;
;;; Every procedure is (srfi 125)'s, which accepts SRFI 69's forms too
;;; (make-hash-table with an equality predicate and hash function, the
;;; hash-table-fold argument order, hash functions with a bound), except
;;; hash-table-copy: SRFI 69 has no immutable tables, so its copy is mutable.
(define-library (srfi 69)
  (import (scheme base) (except (srfi 125) hash-table-copy) (only (nodwyn primitives srfi 125) %ht-copy)
          (prefix (nodwyn primitives srfi support) %))
  (export make-hash-table hash-table? alist->hash-table
          hash-table-equivalence-function hash-table-hash-function
          hash-table-ref hash-table-ref/default hash-table-set! hash-table-delete! hash-table-exists?
          hash-table-update! hash-table-update!/default
          hash-table-size hash-table-keys hash-table-values hash-table-walk hash-table-fold hash-table->alist
          hash-table-copy hash-table-merge!
          hash string-hash string-ci-hash hash-by-identity)
  (begin
    ;; (hash-table-copy hash-table): A new mutable table with the same equivalence, hash function and associations.
    (define (hash-table-copy t)
      (if (not (hash-table? t)) (%arg-error 'hash-table-copy 1 "hash table" t))
      (%ht-copy t #t #f))))
