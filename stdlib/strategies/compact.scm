;;; compact.scm: nodwyn's default strategy: shell.scm's turn loop, and compaction of a long conversation
;;; into a handover note the model writes (docs/guides/strategies.md, "compact.scm").
;;;
;;; A compaction happens when the window reaches compact-threshold (estimated tokens: just under the
;;; window's high water), when the person sends /compact [focus] in nodwyn chat, or when the model asks
;;; for it with its compact tool. The model is asked for a handover note (the prompt is below: read it,
;;; change it); the window then narrows to the note (context.narrow), in this turn and later ones, and
;;; record-compaction records context.compact. The log keeps everything: recall-log and recall read
;;; the detail back by the seqs the note cites. A note that fails, comes back empty or is no smaller
;;; than the history it would replace is given up: the window stays as it was.
(import (scheme base) (scheme char) (nodwyn strategy) (nodwyn system-text))

;; The threshold in the window's estimated tokens: a number here wins; else [control] compact_threshold
;; in config.toml; else 90% of what a request may take (the context window less the reply's reserve).
(define compact-threshold #f)

(define (threshold)
  (or compact-threshold
      (field (session-info) 'compact-threshold)
      (quotient (* 9 (field (window-info) 'budget 0)) 10)))

;; The tool through which the model asks for a compaction.
(offer-tool "compact"
            (string-append
             "Compact this conversation: you will be asked to write a handover note (the task, what was done, what "
             "is left, decisions and why, the files and commands that matter, each fact with its seq), and the "
             "conversation goes on from that note; the log keeps everything. Use it when the history is long and "
             "mostly done with.")
            "{\"type\":\"object\",\"properties\":{\"focus\":{\"type\":\"string\",\"description\":\"What the note must keep in view, e.g. the failing test.\"}},\"additionalProperties\":false}")

(set-system-text!
 (make-system-text
  (session-info)
  "- compact asks for a compaction: you write a handover note and the conversation goes on from it (the "
  "person can also send /compact, and a long window compacts by itself).\n"))

;; ---- the handover note ----------------------------------------------------------------------------

(define (join-numbers ns)
  (let loop ((ns ns) (acc ""))
    (cond ((null? ns) acc)
          ((string=? acc "") (loop (cdr ns) (number->string (car ns))))
          (else (loop (cdr ns) (string-append acc ", " (number->string (car ns))))))))

;; Where the conversation's events are, by seq, from the window's units: what the note cites.
(define (event-index)
  (let loop ((units (vector->list (window-units))) (lines '()))
    (if (null? units)
        (apply string-append (reverse lines))
        (let* ((u (car units))
               (rounds (map (lambda (r) (string-append (number->string (field r 'from)) "-" (number->string (field r 'through))))
                            (vector->list (field u 'rounds (vector)))))
               (line (string-append
                      "- " (if (> (field u 'user 0) 0)
                               (string-append "the person's message at seq " (number->string (field u 'user)))
                               "the conversation's start")
                      (if (null? rounds)
                          ""
                          (string-append "; its rounds at seq "
                                         (let join ((rs rounds) (acc ""))
                                           (cond ((null? rs) acc)
                                                 ((string=? acc "") (join (cdr rs) (car rs)))
                                                 (else (join (cdr rs) (string-append acc ", " (car rs))))))))
                      (if (field u 'finished #f) "" " (running)")
                      "\n")))
          (loop (cdr units) (cons line lines))))))

;; The prompt that asks for the note. focus: what the person or the model asked to keep in view ("" for none).
(define (handover-prompt focus)
  (string-append
   "The conversation is about to be compacted: from now on you will see only the note you write now, "
   "then what follows it. The session log keeps every event whole under its seq, and (recall seq) or "
   "(recall-log :match \"text\" :before N) read them back.\n\n"
   "Write a handover note for yourself, as text, without calling any tool:\n"
   "1. The task: what the person asked for, in their words where it matters.\n"
   "2. What was done, and how each thing ended.\n"
   "3. What is left to do, next step first.\n"
   "4. The decisions made and the reasons for them.\n"
   "5. The files and commands that matter, with what they showed.\n"
   "After each fact, write the seq of the event it comes from, as (seq N).\n"
   (if (string=? focus "") "" (string-append "\nKeep this in view above all: " focus "\n"))
   "\nThe conversation's events:\n"
   (event-index)))

(define (blank? s)
  (let loop ((i 0))
    (cond ((= i (string-length s)) #t)
          ((char-whitespace? (string-ref s i)) (loop (+ i 1)))
          (else #f))))

;; The history a note replaces: the turns of the window's current context, as shown whole.
(define (history-tokens)
  (let loop ((units (vector->list (window-units))) (n 0))
    (if (null? units) n (loop (cdr units) (+ n (field (car units) 'tokens 0))))))

;; One compaction: trigger is 'auto, 'command or 'requested; focus a string ("" for none); thr the
;; threshold an automatic one passed (#f otherwise). Returns #t when the window now starts from a note.
(define (compact! trigger focus thr)
  (let* ((w (window))
         (before (request-tokens w))
         (replaced (history-tokens))
         (options (append (list :before before)
                          (if thr (list :threshold thr) '())
                          (if (string=? focus "") '() (list :focus focus))))
         (reply (guard (e (#t #f)) (send (request-append w 'user (handover-prompt focus))))))
    (cond
     ((not (pair? reply))
      ;; The note failed (the model's error is recorded in its llm.resp): nothing changes.
      (apply record-compaction trigger #f options)
      #f)
     (else
      ;; A note takes no tools: any call it made is answered as not run.
      (for-each (lambda (c) (skip-tool c "not run: a handover note is text; write the note without calling tools"))
                (response-tool-calls reply))
      (let* ((note (response-text reply))
             (ok (and (not (blank? note)) (< (estimate-tokens note) replaced))))
        (apply record-compaction trigger ok (append options (list :note (response-seq reply))))
        ok)))))

;; ---- the turn ---------------------------------------------------------------------------------------

;; Whether the last request of this turn was followed by a compaction that gave up (then no automatic
;; one is tried again in the same turn: the window would not shrink).
(define gave-up #f)
;; The window's size right after the last compaction: an automatic one needs the window to have grown since.
(define after-last 0)

(define (compact-and-note! trigger focus thr)
  (if (compact! trigger focus thr)
      (set! after-last (request-tokens (window)))
      (set! gave-up #t)))

;; The next request: the window, compacted first when it has reached the threshold.
(define (next-request)
  (let* ((w (window))
         (thr (threshold)))
    (if (and (not gave-up) (>= (request-tokens w) thr) (> (request-tokens w) after-last))
        (begin (compact-and-note! 'auto "" thr) (window))
        w)))

;; The model's compact calls are answered here; the others run.
(define (answer-calls calls)
  (let loop ((calls calls) (asked #f))
    (cond ((null? calls) asked)
          ((string=? (call-name (car calls)) "compact")
           (answer-tool (car calls) "Compacting: write the handover note you are asked for next.")
           (loop (cdr calls) (or asked (let ((f (call-argument (car calls) 'focus)))
                                         (if (string? f) f "")))))
          (else (run-tool (car calls)) (loop (cdr calls) asked)))))

(define (run-turn message)
  (set! gave-up #f)
  (let loop ((reply (send (next-request))))
    (let ((calls (response-tool-calls reply)))
      (unless (null? calls)
        (let ((asked (answer-calls calls)))
          (when asked (compact-and-note! 'requested asked #f)))
        (loop (send (next-request)))))))

;; /compact [focus] from nodwyn chat, between turns.
(define (on-command name args)
  (cond ((string=? name "compact")
         (set! gave-up #f)
         (compact-and-note! 'command args #f)
         #t)
        (else #f)))

(register-strategy! 'compact run-turn on-command)
