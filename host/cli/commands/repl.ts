// `nodwyn repl`: the read-eval-print loop (host/cli/repl/), also what a bare `nodwyn` starts.

import type { Command } from "../command.js";
import { SESSION_OPTIONS } from "../session-options.js";

export const replCommand: Command = {
  name: "repl",
  summary: "the Scheme read-eval-print loop (the default command)",
  usage: "nodwyn repl [options]",
  description:
    "On a terminal: line editing, Tab completion, history (~/.nodwyn_history; NODWYN_REPL_HISTORY moves it,\n" +
    "empty turns it off), Ctrl-R to search it, Ctrl-C to drop a line or interrupt an evaluation, Ctrl-D to leave.\n" +
    "Type ,help for the REPL's commands. Not on a terminal (a pipe or a file): no prompts, values on stdout,\n" +
    "errors on stderr, every form runs even after one failed, and the exit status is 1 if any form failed\n" +
    "(3 if the last failure was a limit).",
  options: SESSION_OPTIONS,
  args: { min: 0, max: 0, names: "" },
  examples: ["nodwyn repl", "echo '(+ 1 2)' | nodwyn repl", "nodwyn repl --sandbox --steps 10000000"],
  async run(inv) {
    const { runRepl } = await import("../repl/repl.js");
    return runRepl(inv);
  },
};
