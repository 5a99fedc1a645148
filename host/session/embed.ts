// The package entry for embedders on Node: the interpreter's API plus the Node composition of it.
//
// `interpreter/api.ts` is the portable core (no Node services); this entry adds
// what a Node program needs to run nodwyn with its standard library. Nothing
// else belongs here: an embedder that needs more asks for it to be exported.

export * from "../../interpreter/api.js";

/**
 * Creates an interpreter with the R7RS procedures, the stdlib (prelude and the
 * `(scheme …)` libraries) and, unless granted in the options, no file and no
 * process access. Options: `stdout`/`stderr`/`stdin` sinks, default `limits`,
 * `files`/`process` access, `libraryPaths`, `extraPrimitives`.
 */
export { createNodeInterpreter, type NodeInterpreterOptions } from "./node-interpreter.js";

/**
 * A session: an interpreter wired to the session log, the read guard over a
 * repository root, the agent primitives (fs-read, fs-find, index-grep,
 * register-check) and the project's checkers. `Session.open(options)` opens one.
 */
export { Session, type SessionOptions } from "./session.js";

/** The standard procedure tables of R7RS-small implemented in TypeScript, as one list of ProcSpec entries. */
export { schemePrimitives } from "../../primitives/index.js";
