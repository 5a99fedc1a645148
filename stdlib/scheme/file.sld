;;; (scheme file): exactly the bindings R7RS-small lists for this library.
(define-library (scheme file)
  (import (nodwyn builtins))
  (export
    call-with-input-file call-with-output-file delete-file file-exists? open-binary-input-file
    open-binary-output-file open-input-file open-output-file with-input-from-file
    with-output-to-file))
