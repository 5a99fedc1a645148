;;; (scheme char): exactly the bindings R7RS-small lists for this library.
(define-library (scheme char)
  (import (nodwyn builtins))
  (export
    char-alphabetic? char-ci<=? char-ci<? char-ci=? char-ci>=? char-ci>? char-downcase
    char-foldcase char-lower-case? char-numeric? char-upcase char-upper-case? char-whitespace?
    digit-value string-ci<=? string-ci<? string-ci=? string-ci>=? string-ci>? string-downcase
    string-foldcase string-upcase))
