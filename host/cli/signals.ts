// Signals for a person's session (repl, run, -e): SIGINT interrupts the evaluation, SIGTERM and SIGHUP end the session with its log closed.
//
// (The agent's commands have their own, in agent-command.ts: they also stop the model's shell commands.)

import type { Session } from "../session/session.js";
import { EXIT } from "./command.js";

export interface SignalOptions {
  /** Handle SIGINT (run, -e): the first interrupts the evaluation, a second one, or one with none running, ends the command. The REPL handles its own. */
  readonly interrupt: boolean;
}

/** Installs the handlers; returns what removes them. */
export function handleSignals(session: Session, o: SignalOptions): () => void {
  let interrupts = 0;
  const end = (reason: string, code: number): void => {
    session.close(reason, code);
    process.exit(code);
  };
  const onInt = () => {
    if (session.busy && interrupts++ === 0) session.interrupt();
    else end("interrupted", EXIT.interrupted);
  };
  // SIGTERM ends the session as Ctrl-C does when nothing is running: reason "interrupted" (issue 11, finding 13).
  const onTerm = () => end("interrupted", 143);
  const onHup = () => end("signal SIGHUP", 129);
  if (o.interrupt) process.on("SIGINT", onInt);
  process.on("SIGTERM", onTerm);
  process.on("SIGHUP", onHup);
  return () => {
    process.off("SIGINT", onInt);
    process.off("SIGTERM", onTerm);
    process.off("SIGHUP", onHup);
  };
}
