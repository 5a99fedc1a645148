;;; evict.scm: nodecode's strategy. The window is a span on the log: when it
;;; fills (0.85 of what a request may take), the oldest turns leave it, whole,
;;; until it is at 0.50; then, if that is not enough, the running turn sheds its
;;; oldest rounds (its message and its newest round stay). Nothing is
;;; summarised: a stub stands where the history was, and the model reads it
;;; back word for word from the log (recall-log, recall-entry). The boundary
;;; only moves forward. /evict [percent] (and /compact, its alias here) evicts
;;; on demand. docs/guides/strategies.md, "Eviction", says it all.
;;;
;;; Run it with `nodwyn chat --strategy evict` (or the path of your copy).
(import (scheme base) (scheme cxr) (scheme write) (nodwyn agent) (nodwyn strategy))

;; Eviction starts above this share of the budget and evicts down to the other.
(define start-percent 85)
(define target-percent 50)

(define (join strings separator)
  (if (null? strings)
      ""
      (let loop ((acc (car strings)) (rest (cdr strings)))
        (if (null? rest) acc (loop (string-append acc separator (car rest)) (cdr rest))))))

(define (base-name path)
  (let loop ((i (- (string-length path) 1)))
    (cond ((< i 0) path)
          ((char=? (string-ref path i) #\/) (substring path (+ i 1) (string-length path)))
          (else (loop (- i 1))))))

(define (make-system-text info)
  (let ((tools (vector->list (field info 'tools (vector)))))
    (string-append
     "You are nodwyn, a coding agent working in the repository " (base-name (field info 'root ""))
     ". Every path you give a tool is relative to the repository's root.\n\n"
     "Your tools: " (join tools ", ") ".\n"
     "- eval is a Scheme (R7RS) REPL in this session: definitions persist from call to call, and the agent "
     "procedures are in scope.\n"
     "- fs-read, fs-find and index-grep read through nodwyn's guard: a refusal is not an empty file.\n"
     "- shell-exec runs a command with bash -c in the repository root; the person approves each command.\n\n"
     "This session evicts: when the window fills, the oldest turns leave it whole, and a stub says which "
     "([history evicted: seq A–B · …]). Nothing is summarised: the session log keeps every event word for word, "
     "and (recall-log :match \"text\" :before N) and (recall-entry seq) in eval read them back.\n"
     "Begin an eval cell with a ;; line saying what it does and what you concluded: that line is what the stub keeps "
     "of an evicted cell. Begin it with ;; watch NAME to watch it: the stub then shows NAME=its last value.\n\n"
     "Look before you answer: read the code you talk about. Keep answers short and say what you did.\n")))

(set-system-text! (make-system-text (session-info)))

;; ---- the budget -------------------------------------------------------------------------------

(define said-unknown #f)

;; True when a source knows the model's context window; the first time it is not, say so.
(define (window-known?)
  (or (field (session-info) 'context-known #t)
      (begin
        (unless said-unknown
          (set! said-unknown #t)
          (let ((text "the model's context window is unknown (no source knows it: /context says which there are), so nothing is evicted; the window is sized at a guess meanwhile"))
            (record-note text "evict")
            (display (string-append "evict: " text))
            (newline)))
        #f)))

;; The window's tokens now and what a request may take: (tokens . budget). A window
;; that does not fit counts as over its budget.
(define (usage)
  (let* ((info (window-info))
         (budget (field info 'budget)))
    (cons (field info 'tokens (+ budget 1)) budget)))

;; ---- choosing what to evict -------------------------------------------------------------------

(define (sum-tokens units) (apply + (map (lambda (u) (field u 'tokens 0)) units)))

(define (positive-min . xs)
  (let ((ps (filter-positive xs)))
    (if (null? ps) 0 (apply min ps))))

(define (filter-positive xs)
  (cond ((null? xs) '())
        ((and (number? (car xs)) (> (car xs) 0)) (cons (car xs) (filter-positive (cdr xs))))
        (else (filter-positive (cdr xs)))))

(define (last-of xs) (if (null? (cdr xs)) (car xs) (last-of (cdr xs))))

;; The oldest finished turns whose eviction takes `tokens` to `target`, never the
;; newest turn: (evicted . kept), each a list of units. `share` instead (a number
;; of tokens) evicts the oldest turns whose sum stays within it (/evict).
(define (choose-turns units tokens target share)
  (let loop ((us units) (freed 0) (out '()))
    (if (or (null? us) (null? (cdr us)) (not (field (car us) 'finished)))
        (cons (reverse out) us)
        (let ((size (field (car us) 'tokens 0)))
          (cond ((and share (> (+ freed size) share)) (cons (reverse out) us))
                ((and (not share) (<= (- tokens freed) target)) (cons (reverse out) us))
                (else (loop (cdr us) (+ freed size) (cons (car us) out))))))))

;; The oldest rounds of the running turn to shed, keeping its newest: (shed . kept).
(define (choose-rounds unit tokens target)
  (let loop ((rs (vector->list (field unit 'rounds (vector)))) (freed 0) (out '()))
    (if (or (null? rs) (null? (cdr rs)) (<= (- tokens freed) target))
        (cons (reverse out) rs)
        (loop (cdr rs) (+ freed (field (car rs) 'tokens 0)) (cons (car rs) out)))))

;; Records one eviction of `gone` whole turns and `shed` rounds of the running
;; turn `running` (#f when none), the window then starting at `from`; merges the
;; spans with what the eviction in force covers. Returns the record's seq.
(define (record gone shed running from)
  (let* ((st (eviction-state))
         (old-turns (field st 'turns))
         (old-rounds (field st 'rounds))
         ;; The remainder of a turn whose rounds were shed is a unit without its user message (it is in the head).
         (absorbs (and (pair? gone) (= (field (car gone) 'user) 0) (> old-rounds 0)))
         (turns (+ old-turns (length gone)))
         (turns-from (if (null? gone)
                         (field st 'turns-from)
                         (positive-min (field st 'turns-from)
                                       (if absorbs (field st 'rounds-user) 0)
                                       (if absorbs (field st 'rounds-from) 0)
                                       (field (car gone) 'from))))
         (turns-through (if (null? gone) (field st 'turns-through) (field (last-of gone) 'through)))
         (continuing (and running (= (field running 'user) 0) (> old-rounds 0) (not absorbs)))
         (rounds-part
          (cond ((pair? shed)
                 (list (if continuing (field st 'rounds-from) (field (car shed) 'from))
                       (field (last-of shed) 'through)
                       (+ (length shed) (if continuing old-rounds 0))
                       (if continuing (field st 'rounds-user) (field running 'user))))
                ((and (> old-rounds 0) (not absorbs))
                 (list (field st 'rounds-from) (field st 'rounds-through) old-rounds (field st 'rounds-user)))
                (else (list 0 0 0 0)))))
    (record-eviction :from from
                     :turns-from turns-from :turns-through turns-through :turns turns
                     :rounds-from (car rounds-part) :rounds-through (cadr rounds-part)
                     :rounds (caddr rounds-part) :rounds-user (cadddr rounds-part))))

;; One eviction step towards `target` tokens; #f when nothing could be evicted.
(define (evict-step tokens target share)
  (let* ((units (vector->list (window-units)))
         (choice (choose-turns units tokens target share))
         (gone (car choice))
         (kept (cdr choice))
         (left (- tokens (sum-tokens gone)))
         (running (and (not share) (pair? kept) (null? (cdr kept)) (not (field (car kept) 'finished)) (car kept)))
         (rounds (if (and running (> left target)) (choose-rounds running left target) (cons '() '())))
         (shed (car rounds)))
    (cond ((and (null? gone) (null? shed)) #f)
          ((pair? shed) (record gone shed running (field (cadr rounds) 'from)))
          (else (record gone '() #f (field (car kept) 'from))))))

;; Evicts until the window is at `target` tokens or nothing more can go (a few
;; steps at most: an estimate that fell short is followed by another).
(define (evict-down-to target)
  (let loop ((steps 0) (did #f))
    (let ((tokens (car (usage))))
      (if (or (<= tokens target) (>= steps 6))
          did
          (if (evict-step tokens target #f)
              (loop (+ steps 1) #t)
              did)))))

;; Before each request: above 0.85 of the budget, evict down to 0.50.
(define (maybe-evict)
  (when (window-known?)
    (let* ((u (usage)) (tokens (car u)) (budget (cdr u)))
      (when (> (* tokens 100) (* budget start-percent))
        (evict-down-to (quotient (* budget target-percent) 100))))))

;; ---- the turn -----------------------------------------------------------------------------------

(define (send-window)
  (maybe-evict)
  (send (window)))

(define (run-turn message)
  (let loop ((reply (send-window)))
    (let ((calls (response-tool-calls reply)))
      (unless (null? calls)
        (for-each run-tool calls)
        (loop (send-window))))))

;; ---- /evict [percent] and /compact ----------------------------------------------------------------

;; "40", "40%" → 40; "" → 50; anything else → #f.
(define (parse-percent text)
  (let* ((s (let trim ((s text))
              (cond ((and (> (string-length s) 0) (char=? (string-ref s 0) #\space)) (trim (substring s 1 (string-length s))))
                    ((and (> (string-length s) 0) (char=? (string-ref s (- (string-length s) 1)) #\space)) (trim (substring s 0 (- (string-length s) 1))))
                    (else s))))
         (digits (if (and (> (string-length s) 0) (char=? (string-ref s (- (string-length s) 1)) #\%))
                     (substring s 0 (- (string-length s) 1))
                     s))
         (n (if (string=? s "") 50 (string->number digits))))
    (and n (exact-integer? n) (<= 1 n 100) n)))

(define (say . parts)
  (display (apply string-append parts))
  (newline))

;; Drops the oldest whole turns up to percent of the retained history, always keeping the newest turn.
(define (evict-command name args)
  (let ((percent (parse-percent args)))
    (if (not percent)
        (say "/" name " takes a percent of the retained history from 1 to 100 (40 or 40%; default 50), not " args)
        (let* ((units (vector->list (window-units)))
               (total (sum-tokens units))
               (before (car (usage)))
               (share (quotient (* total percent) 100))
               (choice (choose-turns units before 0 share))
               (gone (car choice)))
          (if (null? gone)
              (say "/" name " " (number->string percent) "%: nothing evicted (the newest turn always stays, and the oldest is larger than "
                   (number->string percent) "% of the " (number->string total) " tokens retained)")
              (begin
                (record gone '() #f (field (car (cdr choice)) 'from))
                (say "evicted " (number->string (length gone)) " turns (seq " (number->string (field (car gone) 'from)) "–"
                     (number->string (field (last-of gone) 'through)) "): the window went from " (number->string before)
                     " to " (number->string (car (usage))) " tokens; recall-log reads them back")))))
    #t))

(define (on-command name args)
  (cond ((or (string=? name "evict") (string=? name "compact")) (evict-command name args))
        (else #f)))

(register-strategy! 'evict run-turn on-command)
