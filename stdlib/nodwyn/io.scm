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

;; Opens the file for textual input, calls proc with the port and returns its values;
;; the port is closed when proc returns.
(define (call-with-input-file filename proc)
  (call-with-port (open-input-file filename) proc))

;; Opens the file for textual output, calls proc with the port and returns its values;
;; the port is closed when proc returns.
(define (call-with-output-file filename proc)
  (call-with-port (open-output-file filename) proc))

;; Calls thunk with the current input port bound to the file opened for input, and
;; closes the port when thunk returns.
(define (with-input-from-file filename thunk)
  (let* ((port (open-input-file filename))
         ;; parameterize restores the previous current port on every exit, escapes included.
         (results (parameterize ((current-input-port port)) (thunk))))
    (close-port port)
    results))

;; Calls thunk with the current output port bound to the file opened for output, and
;; closes the port when thunk returns.
(define (with-output-to-file filename thunk)
  (let* ((port (open-output-file filename))
         ;; parameterize restores the previous current port on every exit, escapes included.
         (results (parameterize ((current-output-port port)) (thunk))))
    (close-port port)
    results))
