;;; (nodwyn strategy): what a strategy drives a turn with (docs/guides/strategies.md).
;;;
;;; The procedures the host gives a strategy (host/session/strategy-api.ts:
;;; window, send, run-tool, …), and a few accessors written here in Scheme for
;;; the alists they return. Only a strategy's interpreter defines the host's
;;; procedures: the model's eval cannot import this library.
(define-library (nodwyn strategy)
  (import (nodwyn builtins))
  (export
    register-strategy! set-system-text! system-text
    window request? request-append request-tokens request-messages
    send run-tool skip-tool record-note end-turn turn-budget session-info
    context-narrow context-fold window-info window-units
    checkpoints undo redo rewind-to fork
    offer-tool answer-tool call-argument estimate-tokens record-compaction
    eviction-state eviction-stub record-eviction
    field response-text response-tool-calls response-stop response-seq
    call-id call-name call-arguments result-ok? result-output result-error)
  (begin
    ;; The value of key in the alist al, or default (#f when not given) when al has no key.
    (define (field al key . default)
      (let ((p (assq key al)))
        (cond (p (cdr p))
              ((pair? default) (car default))
              (else #f))))

    ;; The text of a reply from send ("" when it had none).
    (define (response-text reply) (field reply 'text ""))

    ;; The tool calls of a reply from send, as a list (empty when it made none).
    (define (response-tool-calls reply) (vector->list (field reply 'tool-calls (vector))))

    ;; Why the model stopped: "end", "tool_calls", "max_tokens" or "other".
    (define (response-stop reply) (field reply 'stop "other"))

    ;; The seq of a reply's llm.resp record.
    (define (response-seq reply) (field reply 'seq))

    ;; A tool call's id, which run-tool and skip-tool answer.
    (define (call-id call) (field call 'id))

    ;; A tool call's tool name.
    (define (call-name call) (field call 'name))

    ;; A tool call's arguments: JSON text as the model wrote it (it may be malformed).
    (define (call-arguments call) (field call 'arguments "{}"))

    ;; True when run-tool's result succeeded.
    (define (result-ok? result) (field result 'ok))

    ;; The text run-tool's result gave the model ("" when none).
    (define (result-output result) (field result 'output ""))

    ;; The error of run-tool's result, #f when it succeeded.
    (define (result-error result) (field result 'error))))
