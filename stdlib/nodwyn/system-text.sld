;;; (nodwyn system-text): the system text of nodwyn's strategies (shell.scm, compact.scm): where the model
;;; works, its tools, the project's own instructions (AGENTS.md, else .nodwyn/notes.md, read through the guard).
;;;
;;; (make-system-text (session-info) line ...) : the text, with each line (a string ending in a newline) added
;;; after the tools' own lines, where a strategy says what it adds (compact.scm: its compact tool).
(define-library (nodwyn system-text)
  (import (scheme base) (nodwyn agent) (nodwyn strategy))
  (export make-system-text project-instructions base-name join)
  (begin
    ;; The project's own instructions, read through the guard: AGENTS.md, else
    ;; .nodwyn/notes.md; #f when neither is there (or the guard refuses them).
    (define (project-instructions)
      (let loop ((paths '("AGENTS.md" ".nodwyn/notes.md")))
        (if (null? paths)
            #f
            (let ((text (guard (e (#t #f)) (field (fs-read (car paths)) 'text))))
              (if (and text (> (string-length text) 0))
                  (cons (car paths) text)
                  (loop (cdr paths)))))))

    ;; The last component of a path: the repository's name, without where it is on this machine.
    (define (base-name path)
      (let loop ((i (- (string-length path) 1)))
        (cond ((< i 0) path)
              ((char=? (string-ref path i) #\/) (substring path (+ i 1) (string-length path)))
              (else (loop (- i 1))))))

    (define (join strings separator)
      (if (null? strings)
          ""
          (let loop ((acc (car strings)) (rest (cdr strings)))
            (if (null? rest) acc (loop (string-append acc separator (car rest)) (cdr rest))))))

    ;; What the model works in and with.
    (define (make-system-text info . more)
      (let ((tools (vector->list (field info 'tools (vector))))
            (notes (project-instructions)))
        (string-append
         "You are nodwyn, a coding agent working in the repository " (base-name (field info 'root ""))
         ". Every path you give a tool is relative to the repository's root.\n\n"
         "Your tools: " (join tools ", ") ".\n"
         "- eval is a Scheme (R7RS) REPL in this session: definitions persist from call to call, and the agent "
         "procedures are in scope, so you can combine them in one call, e.g. "
         "(map (lambda (m) (cdr (assq 'path m))) (vector->list (cdr (assq 'matches (index-grep \"src\" \"TODO\"))))).\n"
         "- fs-read reads a file or a range of its lines; fs-find lists files; index-grep searches files with an RE2 "
         "regular expression. They read through nodwyn's guard: secret files are refused, and a refusal is not an empty file.\n"
         (if (member "index-search" tools)
             (string-append
              "- index-search ranks the repository's chunks of text by the words of a query (BM25, words split as code "
              "names them), from an index nodwyn keeps; index-grep reads the files themselves.\n")
             "")
         "- shell-exec runs a command with bash -c in the repository root; the person approves each command, and one "
         "they refuse is not run. You read `exit N`, the output, then [stderr]; long output keeps its first 1,500 and last "
         "6,000 characters.\n"
         (if (member "fs-edit" tools)
             (string-append
              "- fs-edit replaces an exact piece of a file (it must occur once: include enough context), fs-write writes a "
              "whole file; the person approves each write, and files in .git/, .nodwyn/ or secret files are never written. "
              "Every turn is a checkpoint: the person can undo your changes.\n")
             "")
         "- In a long session, old replies and results may show as [elided seq=N], and a summary a person wrote may "
         "stand for old turns: the session log keeps every event whole under its seq.\n"
         (if (member "recall" tools)
             (string-append
              "- recall reads one event back whole by its seq (or a range of its lines); index-search with scope "
              "\"conversation\" finds this session's events by words, and \"earlier\" the project's other tasks' when the person allows it.\n")
             "")
         (if (member "recall-log" tools)
             (string-append
              "- recall-log reads this session's log back verbatim by a SQL LIKE pattern over each event's raw payload, "
              "(recall-log :match \"deploy%\" :before N) in eval; recall-entry one record whole by its seq; recall-search "
              "every session of the repository by words.\n")
             "")
         (apply string-append more)
         "\n"
         "Look before you answer: read the code you talk about. Keep answers short and say what you did.\n"
         (if notes
             (string-append "\nThe project's instructions (" (car notes) "):\n\n" (cdr notes))
             ""))))))
