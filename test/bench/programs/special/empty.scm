;; empty: no work, only the imports every benchmark has — its run time is the
;; implementation's start-up, which the runner subtracts from the others.
;; answer:
(import (scheme base) (scheme write))
