// SIGINT and SIGTERM end a logged session in order: session.end (reason "interrupted") is written before the process exits.
//
// Node's default for both signals is to die at once, which left a log
// without its session.end (red-team finding 13). A command that runs a
// session (`run`, `-e`, an agent's `ask`) installs this once; the REPL, which
// reads Ctrl-C itself to interrupt an evaluation, may leave SIGINT out. The
// handler runs when the event loop next gets control: a running evaluation
// yields to it every few milliseconds.

import { constants } from "node:os";

/** What the handler calls before the process exits: close the session's log with this reason and status. */
export type InterruptEnd = (reason: "interrupted", exitCode: number, signal: NodeJS.Signals) => void;

export interface InterruptOptions {
  /** The signals handled (default SIGINT and SIGTERM). */
  readonly signals?: readonly NodeJS.Signals[];
  /** How the process ends (default process.exit); tests pass their own. */
  readonly exit?: (code: number) => void;
}

/** The status a shell reports for a process ended by `signal`: 128 + its number (130 for SIGINT, 143 for SIGTERM). */
export function signalExitCode(signal: NodeJS.Signals): number {
  const n = (constants.signals as Record<string, number | undefined>)[signal];
  return 128 + (n ?? 0);
}

/**
 * Installs handlers that, on the first of `signals`, call `end` (which writes
 * session.end and closes the log) and then exit with 128 + the signal's
 * number. A second signal while `end` runs is ignored; `end` failing does not
 * keep the process alive. Returns a function that removes the handlers.
 */
export function closeOnInterrupt(end: InterruptEnd, o: InterruptOptions = {}): () => void {
  const signals = o.signals ?? (["SIGINT", "SIGTERM"] as const);
  const exit = o.exit ?? ((code: number) => process.exit(code));
  let ending = false;
  const handler = (signal: NodeJS.Signals): void => {
    if (ending) return;
    ending = true;
    const code = signalExitCode(signal);
    try {
      end("interrupted", code, signal);
    } catch {
      // the process is ending either way
    }
    exit(code);
  };
  for (const s of signals) process.on(s, handler);
  return () => {
    for (const s of signals) process.off(s, handler);
  };
}
