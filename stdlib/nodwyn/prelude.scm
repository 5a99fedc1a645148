;;; nodwyn prelude: the control procedures written in Scheme.
;;;
;;; Evaluated into the builtins environment when an interpreter is created,
;;; before any library. Only core forms and built-in primitives are available
;;; here (no guard, no parameterize: they are defined in terms of this file).
;;; Primitives written in TypeScript never call Scheme procedures (a
;;; continuation could not resume them), so everything that takes a procedure
;;; argument and calls it lives here. (%guard-call is the one exception: it
;;; adds a heap frame of its own when the body unwinds, ADR 0045.)

;; Calls producer with no arguments and then consumer with the values it returned as
;; arguments. The call of consumer is a tail call.
(define (call-with-values producer consumer)
  (call-with-values producer consumer))

;;; Several values returned by a thunk travel as one object of the machine
;;; (MultipleValues) until something spreads them, so `(let ((r (thunk))) ... r)`
;;; passes any number of values through unchanged, without a list and apply.

;;; ---- dynamic-wind and continuations ----

;; Calls (before), then (thunk), then (after), and returns thunk's values. Leaving
;; the thunk through a continuation runs after; re-entering it runs before again.
(define (dynamic-wind before thunk after)
  (before)
  (let ((outer (%dyn)))
    (%set-dyn! (%dyn-push-winder outer before after))
    (let ((results (thunk)))
      (%set-dyn! outer)
      (after)
      results)))

;; Moves from the current dynamic environment to `target`: the after thunks of
;; the winders left (innermost first), then the before thunks of the winders
;; entered (outermost first), each in the dynamic environment of its
;; dynamic-wind call.
(define (%travel-to target)
  (let* ((from (%dyn-winders (%dyn)))
         (to (%dyn-winders target))
         (common (%winder-common from to)))
    (let unwind ((w from))
      (if (not (eq? w common))
          (begin
            (%set-dyn! (%winder-outer w))
            ((%winder-after w))
            (unwind (%winder-parent w)))))
    (let rewind ((ws (%winder-path to common)))
      (if (pair? ws)
          (begin
            (%set-dyn! (%winder-outer (car ws)))
            ((%winder-before (car ws)))
            (rewind (cdr ws)))))
    (%set-dyn! target)))

;; What calling a continuation does when dynamic-wind transitions are needed.
(define (%continue k vals)
  (%travel-to (%k-dyn k))
  (%reinstate k vals))

;;; ---- exceptions ----

;; Calls (thunk) with handler installed as the current exception handler.
(define (with-exception-handler handler thunk)
  (let ((outer (%dyn)))
    (%set-dyn! (%dyn-push-handler outer handler))
    (let ((results (thunk)))
      (%set-dyn! outer)
      results)))

;; (guard (var clause ...) body ...) expands to (%guard body-thunk handler),
;; where handler is (lambda (condition reraise) ...) and calls reraise when no
;; clause applies. As R7RS specifies: the clauses run in the dynamic
;; environment of the guard; re-raising happens in that of the raise.
(define (%guard body handler)
  ;; %guard-call installs the lambda below as the guard's handler, with a mark
  ;; (the clauses and this dynamic environment), and calls the body on the JS
  ;; stack. A raise with no dynamic-wind between it and the guard never calls
  ;; the lambda: it tests the clauses on top of the raise (%guard-raise) and
  ;; escapes through an `escape` Unwind, saving no frame (ADR 0045). With winders in between, the raise
  ;; reifies the stack and the lambda finds the guard's frame (the one holding
  ;; tag) in the raise's continuation and escapes to it through the winders
  ;; (ADR 0035).
  (let ((outer (%dyn))
        (tag (cons 'guard '())))
    (%guard-call
      body
      tag
      handler
      (lambda (condition)
        ((call/cc
           (lambda (handler-k)
             (let ((guard-k (%guard-continuation tag handler-k outer)))
               (if (eq? guard-k #f)
                   (raise-continuable condition)
                   (guard-k
                     (cons tag
                           (lambda ()
                             (handler condition
                                      (lambda ()
                                        (handler-k
                                          (lambda () (raise-continuable condition)))))))))))))))))

;; What a guard's reraise returns when %guard-raise tests the clauses: itself,
;; a value no clause can return.
(define (%guard-no-clause) %guard-no-clause)

;; A raise whose handler is the guard of mark, with no dynamic-wind between
;; them (ADR 0045), tail-calls this in its continuation. The clauses run in the
;; guard's dynamic environment; a clause's value leaves for the guard. No
;; clause applying, the condition goes on with raise-continuable in the
;; raise's dynamic environment less the guard's handler, and what that
;; returns is what the guard's handler would have returned.
(define (%guard-raise obj continuable mark raise-dyn handler-dyn)
  (%set-dyn! (%guard-outer mark))
  (let ((r ((%guard-clauses mark) obj %guard-no-clause)))
    (if (eq? r %guard-no-clause)
        (begin
          (%set-dyn! handler-dyn)
          (let ((v (raise-continuable obj)))
            (if continuable
                (begin (%set-dyn! raise-dyn) v)
                (%handler-returned obj))))
        (%guard-escape mark r))))

;;; ---- parameters ----

;; A parameter object with the initial value (passed through the converter when one is
;; given); calling it returns its current value, parameterize rebinds it (converting
;; the new value).
(define (make-parameter value . converter)
  (if (pair? converter)
      (%make-parameter ((car converter) value) (car converter))
      (%make-parameter value #f)))

;; (p v) on a parameter with a converter: the converted value goes into its current binding (SRFI 39).
(define (%parameter-assign! p v)
  (%parameter-store! p ((%parameter-converter p) v)))

(define (%parameterize params vals body)
  (let loop ((ps params) (vs vals) (converted '()))
    (if (pair? ps)
        (let ((conv (%parameter-converter (car ps))))
          (loop (cdr ps) (cdr vs) (cons (if conv (conv (car vs)) (car vs)) converted)))
        (let ((outer (%dyn)))
          (%set-dyn! (%dyn-push-params outer params (reverse converted)))
          (let ((results (body)))
            (%set-dyn! outer)
            results)))))

;;; ---- promises (R7RS 4.2.5, iterative forcing) ----

(define-record-type promise
  (%make-promise box)
  promise?
  (box %promise-box %set-promise-box!))

(define (%make-lazy-promise thunk) (%make-promise (cons #f thunk)))

;; A promise already forced to obj; obj itself when it is already a promise.
(define (make-promise obj)
  (if (promise? obj) obj (%make-promise (cons #t obj))))

;; The value of promise, computing it on the first force and remembering it
;; (iteratively, so chains of delay-force run in constant space). Any other value is
;; returned as it is.
(define (force promise)
  (if (promise? promise)
      (let loop ()
        (let ((box (%promise-box promise)))
          (if (car box)
              (cdr box)
              (let ((next ((cdr box))))
                ;; The thunk may have forced this promise already.
                (if (not (car (%promise-box promise)))
                    (let ((nbox (%promise-box next)))
                      (set-car! (%promise-box promise) (car nbox))
                      (set-cdr! (%promise-box promise) (cdr nbox))
                      (%set-promise-box! next (%promise-box promise))))
                (loop)))))
      promise))

;;; ---- higher-order list, vector and string procedures ----

(define (%cars+cdrs lists)
  ;; (values cars cdrs), or (values #f #f) when any list is exhausted.
  (let loop ((ls lists) (cars '()) (cdrs '()))
    (if (pair? ls)
        (if (pair? (car ls))
            (loop (cdr ls) (cons (car (car ls)) cars) (cons (cdr (car ls)) cdrs))
            (values #f #f))
        (values (reverse cars) (reverse cdrs)))))

;; A list of the results of f applied to the elements of the lists in order, element by
;; element; it stops at the end of the shortest list.
(define (map f l . ls)
  (if (null? ls)
      (let loop ((l l) (acc '()))
        (if (pair? l)
            (loop (cdr l) (cons (f (car l)) acc))
            (reverse acc)))
      (let loop ((ls (cons l ls)) (acc '()))
        (call-with-values (lambda () (%cars+cdrs ls))
          (lambda (cars cdrs)
            (if cars
                (loop cdrs (cons (apply f cars) acc))
                (reverse acc)))))))

;; Calls f on the elements of the lists in order, element by element, for its effects,
;; until the shortest list ends.
(define (for-each f l . ls)
  (if (null? ls)
      (let loop ((l l))
        (if (pair? l)
            (begin (f (car l)) (loop (cdr l)))))
      (let loop ((ls (cons l ls)))
        (call-with-values (lambda () (%cars+cdrs ls))
          (lambda (cars cdrs)
            (if cars
                (begin (apply f cars) (loop cdrs)))))))
  (if #f #f))

(define (%min-length seqs len)
  (let loop ((s seqs) (n #f))
    (if (pair? s)
        (let ((k (len (car s))))
          (loop (cdr s) (if (or (not n) (< k n)) k n)))
        n)))

;; A new vector of the results of f applied to the elements of the vectors, index by
;; index, up to the shortest vector's length.
(define (vector-map f v . vs)
  (let* ((all (cons v vs))
         (n (%min-length all vector-length))
         (out (make-vector n)))
    (let loop ((i 0))
      (if (< i n)
          (begin
            (vector-set! out i (apply f (map (lambda (x) (vector-ref x i)) all)))
            (loop (+ i 1)))
          out))))

;; Calls f on the elements of the vectors, index by index, for its effects, up to the
;; shortest vector's length.
(define (vector-for-each f v . vs)
  (let* ((all (cons v vs))
         (n (%min-length all vector-length)))
    (let loop ((i 0))
      (if (< i n)
          (begin
            (apply f (map (lambda (x) (vector-ref x i)) all))
            (loop (+ i 1)))))))

;; A new string of the characters f returns for the characters of the strings, index by
;; index, up to the shortest string's length. As in SRFI 13, (string-map f s start [end])
;; maps the characters of s from start to end only; as in SRFI 152, f may return strings,
;; which are concatenated.
(define (string-map f s . ss)
  (if (and (pair? ss) (exact-integer? (car ss)))
      (string-map f (%string-range 'string-map s ss))
      (let* ((all (cons s ss))
             (n (%min-length all string-length)))
        (let loop ((i 0) (acc '()) (chars #t))
          (if (< i n)
              (let ((r (if (null? ss) (f (string-ref s i)) (apply f (map (lambda (x) (string-ref x i)) all)))))
                (loop (+ i 1) (cons r acc) (and chars (char? r))))
              (if chars
                  (list->string (reverse acc))
                  (apply string-append
                         (map (lambda (r) (if (char? r) (string r) r)) (reverse acc)))))))))

;; Calls f on the characters of the strings, index by index, for its effects, up to the
;; shortest string's length. As in SRFI 13, (string-for-each f s start [end]) visits the
;; characters of s from start to end only.
(define (string-for-each f s . ss)
  (if (and (pair? ss) (exact-integer? (car ss)))
      (string-for-each f (%string-range 'string-for-each s ss))
      (let* ((all (cons s ss))
             (n (%min-length all string-length)))
        (let loop ((i 0))
          (if (< i n)
              (begin
                (apply f (map (lambda (x) (string-ref x i)) all))
                (loop (+ i 1))))))))

;; The characters of s from (car range) to (cadr range), or to the end: the optional start
;; and end of the SRFI 13 forms.
(define (%string-range who s range)
  (let ((start (car range))
        (end (if (pair? (cdr range)) (cadr range) (string-length s))))
    (if (and (pair? (cdr range)) (pair? (cddr range)))
        (error (string-append (symbol->string who) ": expected (" (symbol->string who) " proc s [start end])") range))
    (substring s start end)))

;; The first pair of list whose car is x, compared with equal? or with the optional
;; compare procedure; #f when there is none.
(define (member x l . compare)
  (if (null? compare)
      (%member x l)
      (let ((same? (car compare)))
        (let loop ((l l))
          (cond ((pair? l) (if (same? x (car l)) l (loop (cdr l))))
                ((null? l) #f)
                (else (error "member: improper list" l)))))))

;; The first pair of the association list l whose car is x, compared with equal? or
;; with the optional compare procedure; #f when there is none.
(define (assoc x l . compare)
  (if (null? compare)
      (%assoc x l)
      (let ((same? (car compare)))
        (let loop ((l l))
          (cond ((pair? l)
                 (if (same? x (car (car l))) (car l) (loop (cdr l))))
                ((null? l) #f)
                (else (error "assoc: improper list" l)))))))

;;; ---- ports and the process ----

;; Calls (proc port), closes the port, and returns proc's values.
(define (call-with-port port proc)
  (let ((results (proc port)))
    (close-port port)
    results))

;; Runs the after thunks of every pending dynamic-wind, then ends the program with
;; status: #t or none for success, #f for failure, or an exact integer. Needs process
;; access granted by the embedder.
(define (exit . status)
  (%travel-to (%root-dyn))
  (apply %exit status))
