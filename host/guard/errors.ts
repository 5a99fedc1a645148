// The guard's typed failures: a denial (a rule said no) and a file failure (the file could not be read as asked).
//
// Callers outside host/ (the primitive adapters) may only import host types, so
// every error carries `domain` and a stable `code` that can be tested without
// `instanceof`.

/** The rule that decided; stable strings, logged in guard.decision and shown in messages. */
export type GuardRule =
  | "root-pin" // outside the root, `..`, a symbolic link on the way, or the file changed between check and open
  | "special-file" // a FIFO, socket or device
  | "hard-link" // a regular file with more than one hard link (it may be a file outside the root under another name)
  | "denylist" // a secret-file pattern
  | "write-protected" // a write into .git/ or .nodwyn/ (write.ts)
  | "turn-limit" // the per-turn read caps
  | "checker" // a project checker allowed or denied (or failed, which denies)
  | "ask" // a person answered a checker's ask
  | "ask-unanswered" // a checker asked and no one can answer: left out, never read
  | "default"; // no rule objected and no checker had a say

/** Base of every guard failure. */
export class GuardError extends Error {
  readonly domain = "guard" as const;
  /** Stable, machine-readable. */
  readonly code: string;
  /** The path as the caller gave it (or relative to the root when known). */
  readonly path: string;
  constructor(code: string, path: string, message: string) {
    super(message);
    this.name = "GuardError";
    this.code = code;
    this.path = path;
  }
}

/** A read the guard refused. Never turned into an empty file by any caller. */
export class GuardDeniedError extends GuardError {
  readonly rule: GuardRule;
  readonly reason: string;
  /** The checker that decided, for rule "checker", "ask" and "ask-unanswered". */
  readonly checker: string | undefined;
  constructor(path: string, rule: GuardRule, reason: string, checker?: string) {
    // The checker that decided is named, so that the person knows which rule of .nodwyn/checks.scm to look at.
    super("guard-denied", path, `access to ${JSON.stringify(path)} denied (${rule}${checker !== undefined ? `, checker ${checker}` : ""}): ${reason}`);
    this.name = "GuardDeniedError";
    this.rule = rule;
    this.reason = reason;
    this.checker = checker;
  }
}

/** Why a permitted file still could not be read as asked. */
export type GuardFileErrorCode =
  | "not-found" // no such file or directory (or a component is not a directory)
  | "is-directory" // a file read named a directory
  | "not-directory" // a listing named a file
  | "file-too-large" // larger than the caller's maxBytes; nothing was read
  | "not-utf8" // readText of bytes that are not UTF-8
  | "bad-path" // empty, or containing NUL
  | "io"; // any other operating-system failure (its errno code is in `errno`)

/** A failure that is not a denial: the caller may report it or skip the file. */
export class GuardFileError extends GuardError {
  declare readonly code: GuardFileErrorCode;
  /** The operating system's code (ENOENT, EACCES, …) when there was one. */
  readonly errno: string | undefined;
  constructor(code: GuardFileErrorCode, path: string, message: string, errno?: string) {
    super(code, path, message);
    this.name = "GuardFileError";
    this.errno = errno;
  }
}
