;;; (srfi 197): pipeline operators (SRFI 197): chain, chain-and, chain-when, chain-lambda, nest, nest-reverse.
;;;
;;; syntax-rules in continuation-passing style: a helper macro hands its result
;;; to the macro call it is given, (k arg ... result). Whether a datum is the
;;; placeholder (or the ellipsis) is decided by a local syntax-rules that has it
;;; as its one literal, so a placeholder is any identifier the user chooses,
;;; compared as identifiers are: _ and ... by default.
(define-library (srfi 197)
  (import (scheme base))
  (export chain chain-and chain-when chain-lambda nest nest-reverse)
  (begin

    ;; (%if-same id x then else): expands to then when x is the identifier id, to else otherwise.
    (define-syntax %if-same
      (syntax-rules ()
        ((_ id x then else)
         (let-syntax ((test (syntax-rules %%ellipsis (id)
                              ((_ id t f) t)
                              ((_ other t f) f))))
           (test x then else)))))

    ;; (%step ph el (datum ...) k ...): walks a step, giving (k ... (var ...) rest (out ...)): the placeholders become
    ;; the fresh variables var, a final "ph el" the rest variable (or #f), the step with them substituted.
    (define-syntax %step
      (syntax-rules ()
        ((_ ph el datums k ...) (%step-walk ph el () () datums (k ...)))))

    (define-syntax %step-walk
      (syntax-rules ()
        ((_ ph el vars outs () (k ...))
         (k ... vars #f outs))
        ((_ ph el vars outs (x y) ks)
         (%if-same ph x
           (%if-same el y
             (%step-rest ph el vars outs ks)
             (%step-one ph el vars outs (x y) ks))
           (%step-one ph el vars outs (x y) ks)))
        ((_ ph el vars outs (x . more) ks)
         (%step-one ph el vars outs (x . more) ks))
        ((_ ph el vars outs improper ks)
         (syntax-error "chain: a step must be a list" improper))))

    (define-syntax %step-one
      (syntax-rules ()
        ((_ ph el (var ...) (out ...) (x . more) ks)
         (%if-same ph x
           (%step-walk ph el (var ... v) (out ... v) more ks)
           (%if-same el x
             (syntax-error "chain: the ellipsis may only follow the last placeholder of a step" x)
             (%step-walk ph el (var ...) (out ... x) more ks))))))

    (define-syntax %step-rest
      (syntax-rules ()
        ((_ ph el vars outs (k ...)) (k ... vars rest outs))))

    ;; The call a step makes of its substituted datums: with a rest variable, through apply.
    (define-syntax %call
      (syntax-rules ()
        ((_ #f (out ...)) (out ...))
        ((_ rest (out ...)) (apply out ... rest))))

    ;;; ---- chain ----

    ;; (chain initial-value [placeholder [ellipsis]] step ...): Evaluates each step in order with the values of the one
    ;; before in place of its placeholders (_ by default; a final "_ ..." takes all the remaining values), initial-value
    ;; feeding the first; the values of the last step are chain's. A step without placeholders ignores the values:
    ;; (chain x (a b _) (c _)) is (let* ((v (a b x)) (v (c v))) v).
    (define-syntax chain
      (syntax-rules ()
        ((_ init) init)
        ((_ init (d . ds) step ...) (%chain _ (... ...) init (d . ds) step ...))
        ((_ init ph) init)
        ((_ init ph (d . ds) step ...) (%chain ph (... ...) init (d . ds) step ...))
        ((_ init ph el step ...) (%chain ph el init step ...))))

    (define-syntax %chain
      (syntax-rules ()
        ((_ ph el prev) prev)
        ((_ ph el prev step more ...) (%step ph el step %chain-link ph el prev (more ...)))))

    (define-syntax %chain-link
      (syntax-rules ()
        ;; No placeholder: the values are ignored.
        ((_ ph el prev (more ...) () #f outs)
         (%chain ph el (call-with-values (lambda () prev) (lambda ignored (%call #f outs))) more ...))
        ((_ ph el prev (more ...) (var ...) #f outs)
         (%chain ph el (call-with-values (lambda () prev) (lambda (var ...) (%call #f outs))) more ...))
        ((_ ph el prev (more ...) (var ...) rest outs)
         (%chain ph el (call-with-values (lambda () prev) (lambda (var ... . rest) (%call rest outs))) more ...))))

    ;; (chain-lambda [placeholder [ellipsis]] step ...): A procedure that runs the steps as chain does, its arguments
    ;; feeding the first step: one parameter for each placeholder of the first step (and a rest parameter for a final
    ;; "_ ...").
    (define-syntax chain-lambda
      (syntax-rules ()
        ((_ (d . ds) step ...) (%step _ (... ...) (d . ds) %chain-lambda _ (... ...) (step ...)))
        ((_ ph (d . ds) step ...) (%step ph (... ...) (d . ds) %chain-lambda ph (... ...) (step ...)))
        ((_ ph el (d . ds) step ...) (%step ph el (d . ds) %chain-lambda ph el (step ...)))))

    (define-syntax %chain-lambda
      (syntax-rules ()
        ((_ ph el (step ...) (var ...) #f outs)
         (lambda (var ...) (%chain ph el (%call #f outs) step ...)))
        ((_ ph el (step ...) (var ...) rest outs)
         (lambda (var ... . rest) (%chain ph el (%call rest outs) step ...)))))

    ;;; ---- chain-and and chain-when ----

    ;; (chain-and initial-value [placeholder] step ...): chain with one value per step, stopping with #f at the first
    ;; step (or initial value) that is #f.
    (define-syntax chain-and
      (syntax-rules ()
        ((_ init) init)
        ((_ init (d . ds) step ...) (%chain-and _ init (d . ds) step ...))
        ((_ init ph) init)
        ((_ init ph step ...) (%chain-and ph init step ...))))

    (define-syntax %chain-and
      (syntax-rules ()
        ((_ ph prev) prev)
        ((_ ph prev step more ...) (%step ph %%no-ellipsis step %chain-and-link ph prev (more ...)))))

    (define-syntax %chain-and-link
      (syntax-rules ()
        ((_ ph prev (more ...) () #f outs)
         (%chain-and ph (and prev (%call #f outs)) more ...))
        ((_ ph prev (more ...) (var) #f outs)
         (%chain-and ph (let ((var prev)) (and var (%call #f outs))) more ...))
        ((_ ph prev more vars rest outs)
         (syntax-error "chain-and: a step may have at most one placeholder" outs))))

    ;; (chain-when initial-value [placeholder] ([guard] step) ...): chain with one value per step, a step whose guard is
    ;; #f being skipped (its value passed on as it is).
    (define-syntax chain-when
      (syntax-rules ()
        ((_ init) init)
        ((_ init (clause ...) more ...) (%chain-when _ init (clause ...) more ...))
        ((_ init ph) init)
        ((_ init ph more ...) (%chain-when ph init more ...))))

    (define-syntax %chain-when
      (syntax-rules ()
        ((_ ph prev) prev)
        ((_ ph prev (step) more ...) (%chain-when ph prev (#t step) more ...))
        ((_ ph prev (guard step) more ...) (%step ph %%no-ellipsis step %chain-when-link ph prev guard (more ...)))))

    (define-syntax %chain-when-link
      (syntax-rules ()
        ((_ ph prev guard (more ...) () #f outs)
         (%chain-when ph (let ((v prev)) (if guard (%call #f outs) v)) more ...))
        ((_ ph prev guard (more ...) (var) #f outs)
         (%chain-when ph (let ((var prev)) (if guard (%call #f outs) var)) more ...))
        ((_ ph prev guard more vars rest outs)
         (syntax-error "chain-when: a step may have at most one placeholder" outs))))

    ;;; ---- nest ----

    ;; (%put ph value (datum ...) k ...): (k ... step) with the one placeholder of the step replaced by value.
    (define-syntax %put
      (syntax-rules ()
        ((_ ph value datums k ...) (%put-walk ph value #f () datums (k ...)))))

    (define-syntax %put-walk
      (syntax-rules ()
        ((_ ph value #t outs () (k ...)) (k ... outs))
        ((_ ph value #f outs () ks) (syntax-error "nest: each step needs a placeholder" outs))
        ((_ ph value done (out ...) (x . more) ks)
         (%if-same ph x
           (%put-found ph value done (out ...) more ks)
           (%put-walk ph value done (out ... x) more ks)))))

    (define-syntax %put-found
      (syntax-rules ()
        ((_ ph value #f (out ...) more ks) (%put-walk ph value #t (out ... value) more ks))
        ((_ ph value #t outs more ks) (syntax-error "nest: a step may have only one placeholder" outs))))

    ;; (nest [placeholder] step ... initial-value): The steps nested into each other, from the last: initial-value in place
    ;; of the placeholder (_ by default) of the last step, that step in place of the placeholder of the one before …
    ;; (nest (a b _) (c d _) e) is (a b (c d e)). Any form may be built, quoted data and special forms included.
    (define-syntax nest
      (syntax-rules ()
        ((_ init) init)
        ((_ (d . ds) more ...) (%nest-reverse-of _ () (d . ds) more ...))
        ((_ ph init) init)
        ((_ ph step more ...) (%nest-reverse-of ph () step more ...))))

    ;; Reverses the arguments of nest, then nests as nest-reverse does.
    (define-syntax %nest-reverse-of
      (syntax-rules ()
        ((_ ph (rev ...) init) (%nest ph init rev ...))
        ((_ ph (rev ...) step more ...) (%nest-reverse-of ph (step rev ...) more ...))))

    ;; (nest-reverse initial-value [placeholder] step ...): nest in the order of chain: initial-value in place of the
    ;; placeholder of the first step, that in the second … (nest-reverse e (c d _) (a b _)) is (a b (c d e)).
    (define-syntax nest-reverse
      (syntax-rules ()
        ((_ init) init)
        ((_ init (d . ds) step ...) (%nest _ init (d . ds) step ...))
        ((_ init ph step ...) (%nest ph init step ...))))

    (define-syntax %nest
      (syntax-rules ()
        ((_ ph value) value)
        ((_ ph value step more ...) (%put ph value step %nest-with ph (more ...)))))

    (define-syntax %nest-with
      (syntax-rules ()
        ((_ ph (more ...) form) (%nest ph form more ...))))))
