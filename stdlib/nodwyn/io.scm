;;; nodwyn io: the (scheme file) procedures that take a procedure, written in Scheme.
;;;
;;; Meant to follow prelude.scm: it uses call-with-port from there, and
;;; parameterize, which expands into the prelude's %parameterize. They are
;;; in Scheme because they call their procedure argument, which a TypeScript
;;; primitive must never do.
;;;
;;; As R7RS says, the port is closed when the procedure returns, not when it
;;; escapes: a continuation may come back into it. What an unclosed file
;;; port still buffers is written when the host ends the program
;;; (flushFilePorts in primitives/scheme/io.ts).

(define (call-with-input-file filename proc)
  (call-with-port (open-input-file filename) proc))

(define (call-with-output-file filename proc)
  (call-with-port (open-output-file filename) proc))

;; parameterize restores the previous current port on every exit, escapes included.
(define (with-input-from-file filename thunk)
  (let ((port (open-input-file filename)))
    (call-with-values
      (lambda () (parameterize ((current-input-port port)) (thunk)))
      (lambda results
        (close-port port)
        (apply values results)))))

(define (with-output-to-file filename thunk)
  (let ((port (open-output-file filename)))
    (call-with-values
      (lambda () (parameterize ((current-output-port port)) (thunk)))
      (lambda results
        (close-port port)
        (apply values results)))))
