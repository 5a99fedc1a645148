;;; shell.scm: the plain turn loop. For each message of the person it asks
;;; for the window, sends it, runs the reply's tool calls, and repeats until the
;;; model answers without a call (or a budget or Ctrl-C ends the turn).
;;; compact.scm, nodwyn's default strategy, is this loop with compaction.
;;;
;;; It is an ordinary Scheme program, run in its own interpreter under the same
;;; guard and limits as the model's evaluations: read it, copy it, change it,
;;; and run yours with `nodwyn chat --strategy FILE` (docs/guides/strategies.md).
(import (scheme base) (nodwyn strategy) (nodwyn system-text))

;; The system text (where the model works, its tools, the project's instructions) is made by
;; (nodwyn system-text), shared with compact.scm.
(set-system-text! (make-system-text (session-info)))

;; One turn: send the window; while the reply calls tools, run them and send again.
(define (run-turn message)
  (let loop ((reply (send (window))))
    (let ((calls (response-tool-calls reply)))
      (unless (null? calls)
        (for-each run-tool calls)
        (loop (send (window)))))))

(register-strategy! 'shell run-turn)
