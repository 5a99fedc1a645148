// empty: twin of empty.scm — no work; its run time is node's start-up.
