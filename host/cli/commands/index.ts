// The command table of `nodwyn`: one line per subcommand (each in a file of its own; docs/guides/cli.md).

import type { Command } from "../command.js";
import { askCommand } from "./ask.js";
import { chatCommand } from "./chat.js";
import { evalCommand } from "./eval.js";
import { resumeCommand } from "./resume.js";
import { helpCommand } from "./help.js";
import { logCommand } from "./log.js";
import { indexCommand } from "./index-command.js";
import { memoryCommand } from "./memory.js";
import { replCommand } from "./repl.js";
import { runCommand } from "./run.js";
import { replayCommand } from "./replay.js";
import { summaryCommand } from "./summary.js";
import { sessionCommand, sessionsCommand } from "./sessions.js";

/** Every subcommand, in the order `nodwyn --help` lists them. */
export const COMMANDS: readonly Command[] = [
  replCommand,
  runCommand,
  evalCommand,
  logCommand,
  indexCommand,
  memoryCommand,
  chatCommand,
  askCommand,
  resumeCommand,
  replayCommand,
  summaryCommand,
  sessionsCommand,
  sessionCommand,
  helpCommand,
];
