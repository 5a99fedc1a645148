;;; (srfi 115): Scheme regular expressions (SRFI 115), compiled to RE2 so that every match is linear in the text.
;;;
;;; Compiling and matching are TypeScript (primitives/srfi/regexp.ts); the
;;; rx syntax and regexp-fold, which calls procedures, are here. Look-around
;;; and backreferences are compile-time errors (RE2 cannot run them in linear
;;; time); bow and eow are \b, and bol and eol see only line feeds.
(define-library (srfi 115)
  (import (scheme base) (nodwyn primitives srfi 115))
  (export regexp rx regexp->sre char-set->sre valid-sre? regexp?
          regexp-matches regexp-matches? regexp-search regexp-fold
          regexp-extract regexp-split regexp-partition regexp-replace regexp-replace-all
          regexp-match? regexp-match-count regexp-match-submatch
          regexp-match-submatch-start regexp-match-submatch-end regexp-match->list)
  (begin

    ;; (rx sre ...): (regexp `(: sre ...)).
    (define-syntax rx
      (syntax-rules ()
        ((_ sre ...) (regexp `(: sre ...)))))

    ;; (regexp-fold re kons knil string [finish [start [end]]]): Calls (kons i match string acc) on each match of re
    ;; in string[start, end), i the index where the last match ended (start at first), acc knil and then the last
    ;; result; then (finish i #f string acc), by default acc. An empty match moves the next search one character on.
    (define (regexp-fold re kons knil str . o)
      (let* ((finish (if (pair? o) (car o) (lambda (i m s acc) acc)))
             (o (if (pair? o) (cdr o) '()))
             (b (apply %regexp-bounds re str o))
             (rx (car b)) (start (cadr b)) (end (car (cddr b))))
        (let loop ((i start) (from start) (acc knil))
          (let ((m (%regexp-search-from rx str start end from)))
            (if (not m)
                (finish i #f str acc)
                (let ((s (regexp-match-submatch-start m 0)) (e (regexp-match-submatch-end m 0)))
                  (loop e (if (= s e) (+ e 1) e) (kons i m str acc))))))))))
