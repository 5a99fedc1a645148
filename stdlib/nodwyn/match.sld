;;; (nodwyn match): pattern matching in the Wright–Cartwright–Shinn style of Guile's (ice-9 match) and chibi's (chibi match).
;;;
;;; Written from those libraries' documentation (docs/guides/match.md), in
;;; syntax-rules: every macro here is in continuation-passing style. A
;;; matcher is (%match-one v pat g+s (k arg ...) fk ids): v is a variable
;;; holding the value, g+s the getter and setter expressions of its place
;;; (for get! and set!), (k arg ...) the success continuation, a macro call
;;; to which the identifiers bound so far are appended, fk the failure
;;; expression (always a small call, so repeating it costs nothing), and ids
;;; the pattern variables already bound. A pattern variable seen a second
;;; time is compared with equal? against its first value, as chibi does.
(define-library (nodwyn match)
  (import (scheme base)
          (prefix (nodwyn primitives srfi support) %))
  (export match match-lambda match-lambda* match-let match-let* match-letrec)
  (begin

    ;; The error when no clause matches: `match: no pattern matched: <value>`, kind user.
    (define (match-failure v) (error "match: no pattern matched" v))

    ;; The length of a proper list, or -1 for anything else (an improper or circular list).
    (define (proper-length x)
      (let loop ((slow x) (fast x) (n 0))
        (cond ((null? fast) n)
              ((not (pair? fast)) -1)
              ((null? (cdr fast)) (+ n 1))
              ((not (pair? (cdr fast))) -1)
              (else (let ((fast (cddr fast)) (slow (cdr slow)))
                      (if (eq? fast slow) -1 (loop slow fast (+ n 2))))))))

    ;; The number of pairs in the chain from x (an improper list's length without its tail); -1 if it is circular.
    (define (pair-count x)
      (let loop ((slow x) (fast x) (n 0))
        (cond ((not (pair? fast)) n)
              ((not (pair? (cdr fast))) (+ n 1))
              (else (let ((fast (cddr fast)) (slow (cdr slow)))
                      (if (eq? fast slow) -1 (loop slow fast (+ n 2))))))))

    (define (no-setter v) (error "match: set! pattern on a value that has no place" v))

    ;; (match expr (pattern body ...) ...), (match expr (pattern (=> fail) body ...) ...): the body of the first
    ;; clause whose pattern matches expr's value, with its pattern variables bound; no match is an error.
    (define-syntax match
      (syntax-rules ()
        ((match) (syntax-error "match: expected (match expression clause ...)"))
        ((match expr clause ...)
         (let ((v expr)) (%match-clauses v (clause ...))))))

    (define-syntax %match-clauses
      (syntax-rules (=>)
        ((m v ()) (match-failure v))
        ((m v ((pat (=> fail) body0 body ...) . rest))
         (let ((next (lambda () (%match-clauses v rest))))
           (%match-one v pat ((lambda () v) (lambda (y) (set! v y)))
                       (%match-drop-ids (let ((fail next)) body0 body ...)) (next) ())))
        ((m v ((pat body0 body ...) . rest))
         (let ((next (lambda () (%match-clauses v rest))))
           (%match-one v pat ((lambda () v) (lambda (y) (set! v y)))
                       (%match-drop-ids (let () body0 body ...)) (next) ())))
        ((m v (clause . rest)) (syntax-error "match: a clause must be (pattern body ...)" clause))))

    ;; A success continuation that ignores the identifiers bound.
    (define-syntax %match-drop-ids
      (syntax-rules ()
        ((m expr ids) expr)))

    ;; Matching one pattern (see the header for the protocol).
    (define-syntax %match-one
      (syntax-rules (_ quote quasiquote ? = and or not $ set! get!)
        ((m v _ g+s (k ...) fk i) (k ... i))
        ((m v () g+s (k ...) fk i) (if (null? v) (k ... i) fk))
        ((m v (quote d) g+s (k ...) fk i) (if (equal? v (quote d)) (k ... i) fk))
        ((m v (quasiquote qp) g+s k fk i) (%match-qq qp (%match-one-qq v g+s k fk i)))
        ((m v (and) g+s (k ...) fk i) (k ... i))
        ((m v (and p) g+s k fk i) (%match-one v p g+s k fk i))
        ((m v (and p . ps) g+s k fk i) (%match-one v p g+s (%match-one v (and . ps) g+s k fk) fk i))
        ((m v (or) g+s k fk i) fk)
        ((m v (or p) g+s k fk i) (%match-one v p g+s k fk i))
        ((m v (or p ...) g+s k fk i) (%match-vars (or p ...) (%match-or v (p ...) g+s k fk i) i ()))
        ((m v (not p) g+s (k ...) fk i)
         (let ((ok (lambda () (k ... i))))
           (%match-one v p g+s (%match-drop-ids fk) (ok) i)))
        ((m v (not p ...) g+s k fk i) (%match-one v (not (or p ...)) g+s k fk i))
        ((m v (? pred . ps) g+s k fk i) (if (pred v) (%match-one v (and . ps) g+s k fk i) fk))
        ((m v (= field p) g+s k fk i)
         (let ((w (field v))) (%match-one w p ((lambda () w) (lambda (y) (set! w y))) k fk i)))
        ((m v ($ rtd . ps) g+s k fk i)
         (if (%record-of? rtd v)
             (%match-fields v rtd (0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31) ps k fk i)
             fk))
        ((m v (set! x) (g s) (k ...) fk (id ...)) (let ((x s)) (k ... (id ... x))))
        ((m v (get! x) (g s) (k ...) fk (id ...)) (let ((x g)) (k ... (id ... x))))
        ((m v (p x . r) g+s k fk i)
         (%match-ooo x (%match-ellipsis v p r g+s k fk i) (%match-pair v p (x . r) g+s k fk i)))
        ((m v (p . q) g+s k fk i) (%match-pair v p q g+s k fk i))
        ((m v #(p ...) g+s k fk i)
         (if (vector? v)
             (let ((l (vector->list v))) (%match-one l (p ...) ((lambda () l) no-setter) k fk i))
             fk))
        ((m v x g+s k fk i) (%match-ident? x (%match-var v x k fk i) (%match-literal v x k fk i)))))

    (define-syntax %match-literal
      (syntax-rules ()
        ((m v x (k ...) fk i) (if (equal? v x) (k ... i) fk))))

    ;; A pattern variable: bound to v the first time, compared with equal? after.
    (define-syntax %match-var
      (syntax-rules ()
        ((m v x (k ...) fk (id ...))
         (%match-member? x (id ...)
                         (if (equal? v x) (k ... (id ...)) fk)
                         (let ((x v)) (k ... (id ... x)))))))

    (define-syntax %match-pair
      (syntax-rules ()
        ((m v p q g+s k fk i)
         (if (pair? v)
             (let ((a (car v)) (d (cdr v)))
               (%match-one a p ((lambda () (car v)) (lambda (y) (set-car! v y)))
                           (%match-one d q ((lambda () (cdr v)) (lambda (y) (set-cdr! v y))) k fk)
                           fk i))
             fk))))

    ;; (%match-ooo x (k ...) fk): (k ... min) when x is an ellipsis (... and ___ zero or more, ..k k or more), else fk.
    (define-syntax %match-ooo
      (syntax-rules etc (... ___ ..1 ..2 ..3 ..4 ..5 ..6 ..7 ..8 ..9)
        ((m ... (k etc) fk) (k etc 0))
        ((m ___ (k etc) fk) (k etc 0))
        ((m ..1 (k etc) fk) (k etc 1))
        ((m ..2 (k etc) fk) (k etc 2))
        ((m ..3 (k etc) fk) (k etc 3))
        ((m ..4 (k etc) fk) (k etc 4))
        ((m ..5 (k etc) fk) (k etc 5))
        ((m ..6 (k etc) fk) (k etc 6))
        ((m ..7 (k etc) fk) (k etc 7))
        ((m ..8 (k etc) fk) (k etc 8))
        ((m ..9 (k etc) fk) (k etc 9))
        ((m x k fk) fk)))
    ;; The literal list above names `...`; templates below that need an ellipsis use `etc`.

    ;; (p ooo . r): the first n-k elements match p, where k is the number of patterns in r, and the rest match r.
    (define-syntax %match-ellipsis
      (syntax-rules ()
        ((m v p r g+s k fk i min) (%match-vars p (%match-ellipsis-vars v p r g+s k fk i min) i ()))))

    (define-syntax %match-ellipsis-vars
      (syntax-rules ()
        ((m v p r g+s k fk i min xs) (%match-temps xs (%match-ellipsis-loop v p r g+s k fk i min) ()))))

    (define-syntax %match-ellipsis-loop
      (syntax-rules etc ()
        ((m v p r g+s (k etc) fk (id etc) min ((x acc) etc))
         (let ((n (- (%match-if-proper r (proper-length v) (pair-count v)) (%match-spine-length r))))
           (if (>= n min)
               (let loop ((ls v) (j n) (acc '()) etc)
                 (if (= j 0)
                     (let ((x (reverse acc)) etc)
                       (%match-one ls r ((lambda () ls) no-setter) (k etc) fk (id etc x etc)))
                     (let ((w (car ls)))
                       (%match-one w p ((lambda () (car ls)) (lambda (y) (set-car! ls y)))
                                   (%match-drop-ids (loop (cdr ls) (- j 1) (cons x acc) etc))
                                   fk (id etc)))))
               fk)))))

    ;; (%match-if-proper r t f): t when the pattern list r ends in (), else f.
    (define-syntax %match-if-proper
      (syntax-rules ()
        ((m () t f) t)
        ((m (a . d) t f) (%match-if-proper d t f))
        ((m x t f) f)))

    ;; The number of patterns in the pattern list r, as an expression.
    (define-syntax %match-spine-length
      (syntax-rules ()
        ((m (a . d)) (+ 1 (%match-spine-length d)))
        ((m x) 0)))

    ;; ($ rtd p ...): field j of the record matches the j-th pattern.
    (define-syntax %match-fields
      (syntax-rules etc ()
        ((m v rtd js () (k etc) fk i) (k etc i))
        ((m v rtd (j . js) (p . ps) k fk i)
         (let ((w (%record-field rtd v j)))
           (%match-one w p ((lambda () (%record-field rtd v j)) (lambda (y) (%record-field-set! rtd v j y)))
                       (%match-fields v rtd js ps k fk) fk i)))
        ((m v rtd () ps k fk i) (syntax-error "match: too many field patterns in a $ pattern" ps))))

    ;; (or p ...): the alternatives in turn; each calls one procedure of every variable of the or, those it does
    ;; not bind being #f.
    (define-syntax %match-or
      (syntax-rules etc ()
        ((m v ps g+s (k etc) fk (id etc) (x etc))
         (let ((succeed (lambda (x etc) (k etc (id etc x etc)))))
           (%match-or-alts v ps g+s succeed (x etc) fk (id etc))))))

    (define-syntax %match-or-alts
      (syntax-rules ()
        ((m v (p) g+s succeed xs fk i) (%match-vars p (%match-or-alt v p g+s succeed xs fk i) i ()))
        ((m v (p . ps) g+s succeed xs fk i)
         (let ((next (lambda () (%match-or-alts v ps g+s succeed xs fk i))))
           (%match-vars p (%match-or-alt v p g+s succeed xs (next) i) i ())))))

    (define-syntax %match-or-alt
      (syntax-rules etc ()
        ((m v p g+s succeed (x etc) fk i ys)
         (%match-one v p g+s (%match-drop-ids (succeed (%match-member? x ys x #f) etc)) fk i))))

    ;; Quasi-patterns: (%match-qq qp (k ...)) is (k ... pat), pat the ordinary pattern qp stands for.
    (define-syntax %match-qq
      (syntax-rules etc (unquote unquote-splicing quasiquote)
        ((m (unquote p) (k etc)) (k etc p))
        ((m ((unquote-splicing p)) (k etc)) (k etc p))
        ((m (quasiquote qp) (k etc)) (k etc (quote (quasiquote qp))))
        ((m (a . d) k) (%match-ooo a (%match-qq-keep (a . d) k) (%match-qq a (%match-qq-car d k))))
        ((m #(q etc) k) (%match-qq (q etc) (%match-qq-vector k)))
        ((m x (k etc)) (%match-ident? x (k etc (quote x)) (k etc x)))))

    ;; An ellipsis inside a quasi-pattern stays an ellipsis.
    (define-syntax %match-qq-keep
      (syntax-rules ()
        ((m (a . d) k min) (%match-qq d (%match-qq-cons a k)))))
    (define-syntax %match-qq-car
      (syntax-rules ()
        ((m d k pa) (%match-qq d (%match-qq-cons pa k)))))
    (define-syntax %match-qq-cons
      (syntax-rules etc ()
        ((m pa (k etc) pd) (k etc (pa . pd)))))
    (define-syntax %match-qq-vector
      (syntax-rules etc ()
        ((m (k etc) (p etc)) (k etc #(p etc)))))
    (define-syntax %match-one-qq
      (syntax-rules ()
        ((m v g+s k fk i pat) (%match-one v pat g+s k fk i))))

    ;; (%match-vars pat (k ...) ids acc): (k ... vars), the pattern variables pat binds that are not in ids, in order.
    (define-syntax %match-vars
      (syntax-rules etc (_ quote quasiquote ? = and or not $ set! get!)
        ((m _ (k etc) i acc) (k etc acc))
        ((m (quote d) (k etc) i acc) (k etc acc))
        ((m (quasiquote qp) k i acc) (%match-qq qp (%match-vars-of k i acc)))
        ((m (and . ps) k i acc) (%match-vars ps k i acc))
        ((m (or . ps) k i acc) (%match-vars ps k i acc))
        ((m (not . ps) (k etc) i acc) (k etc acc))
        ((m (? pred . ps) k i acc) (%match-vars ps k i acc))
        ((m (= field p) k i acc) (%match-vars p k i acc))
        ((m ($ rtd . ps) k i acc) (%match-vars ps k i acc))
        ((m (set! x) k i acc) (%match-vars-add x k i acc))
        ((m (get! x) k i acc) (%match-vars-add x k i acc))
        ((m (p . q) k i acc) (%match-vars p (%match-vars-then q k i) i acc))
        ((m #(p etc) k i acc) (%match-vars (p etc) k i acc))
        ((m x (k etc) i acc)
         (%match-ooo x (%match-drop-ids (k etc acc)) (%match-ident? x (%match-vars-add x (k etc) i acc) (k etc acc))))))

    (define-syntax %match-vars-of
      (syntax-rules ()
        ((m k i acc pat) (%match-vars pat k i acc))))
    (define-syntax %match-vars-then
      (syntax-rules ()
        ((m q k i acc) (%match-vars q k i acc))))
    (define-syntax %match-vars-add
      (syntax-rules etc ()
        ((m x (k etc) (id etc) (a etc))
         (%match-member? x (id etc a etc) (k etc (a etc)) (k etc (a etc x))))))

    ;; (%match-ident? x sk fk): sk when x is an identifier, else fk.
    (define-syntax %match-ident?
      (syntax-rules etc ()
        ((m (a . b) sk fk) fk)
        ((m #(a etc) sk fk) fk)
        ((m x sk fk)
         (let-syntax ((test (syntax-rules () ((test x s f) s) ((test y s f) f))))
           (test %not-a-pattern-datum sk fk)))))

    ;; (%match-member? x (id ...) in out): in when the identifier x is one of the ids, else out.
    (define-syntax %match-member?
      (syntax-rules etc ()
        ((m x (id etc) in out)
         (let-syntax ((test (syntax-rules (id etc) ((test x s f) f) ((test y s f) s))))
           (test %not-a-pattern-variable in out)))))

    ;; (%match-temps (x ...) (k ...) ()): (k ... ((x t) ...)), a fresh temporary t for each x.
    (define-syntax %match-temps
      (syntax-rules etc ()
        ((m () (k etc) acc) (k etc acc))
        ((m (x . xs) k (acc etc)) (%match-temps xs k (acc etc (x t))))))

    ;; (match-lambda clause ...): a procedure of one argument matched against the clauses.
    (define-syntax match-lambda
      (syntax-rules ()
        ((match-lambda clause ...) (lambda (arg) (match arg clause ...)))))

    ;; (match-lambda* clause ...): a procedure of any number of arguments, their list matched against the clauses.
    (define-syntax match-lambda*
      (syntax-rules ()
        ((match-lambda* clause ...) (lambda args (match args clause ...)))))

    ;; (match-let ((pattern expr) ...) body ...): every expr evaluated, then matched against its pattern, the
    ;; body run with all the variables bound. (match-let name ((pattern expr) ...) body ...) is a named let
    ;; whose arguments are matched in every iteration.
    (define-syntax match-let
      (syntax-rules ()
        ((match-let () body0 body ...) (let () body0 body ...))
        ((match-let ((pat expr) ...) body0 body ...)
         (match (list expr ...) ((pat ...) body0 body ...)))
        ((match-let name ((pat expr) ...) body0 body ...)
         ((letrec ((name (match-lambda* ((pat ...) body0 body ...)))) name) expr ...))))

    ;; (match-let* ((pattern expr) ...) body ...): as match-let, each expr seeing the variables before it.
    (define-syntax match-let*
      (syntax-rules ()
        ((match-let* () body0 body ...) (let () body0 body ...))
        ((match-let* ((pat expr) . rest) body0 body ...)
         (match expr (pat (match-let* rest body0 body ...))))))

    ;; (match-letrec ((pattern expr) ...) body ...): the pattern variables are bound (as letrec binds) in the
    ;; exprs and the body.
    (define-syntax match-letrec
      (syntax-rules ()
        ((match-letrec ((pat expr) ...) body0 body ...)
         (%match-vars (pat ...) (%match-letrec-vars ((pat expr) ...) (body0 body ...)) () ()))))

    (define-syntax %match-letrec-vars
      (syntax-rules ()
        ((m bindings body xs) (%match-temps xs (%match-letrec-temps bindings body) ()))))

    (define-syntax %match-letrec-temps
      (syntax-rules etc ()
        ((m ((pat expr) etc) (body etc) ((x t) etc))
         (let ((x #f) etc)
           (let-values (((t etc) (match (list expr etc) ((pat etc) (values x etc)))))
             (set! x t) etc
             (let () body etc))))))))
