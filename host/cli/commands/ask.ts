// `nodwyn ask MESSAGE`: one turn of the agent loop, headless (host/cli/agent-command.ts).

import type { Command } from "../command.js";
import { AGENT_OPTIONS } from "../agent-options.js";

export const askCommand: Command = {
  name: "ask",
  summary: "one turn of the agent loop, headless: prints the answer",
  usage: "nodwyn ask [--json] [--model NAME] [options] [MESSAGE...]",
  description:
    "MESSAGE (its words joined by spaces), or standard input when none is given, is sent as in nodwyn chat; the\n" +
    "answer is printed on stdout (tool calls and the footer go to stderr when it is a terminal). No one can answer\n" +
    "a question here: a shell command runs only when config.toml's [shell] allow has its prefix; any other is\n" +
    "refused with an error the model reads. --json prints the turn's records (user.msg to turn.end), one JSON\n" +
    "object per line, instead of the answer.\n" +
    "exit status of ask: 0 done, 1 failed (or could not start), 2 usage, 3 a budget ended the turn (limit),\n" +
    "4 the spend budget did (spend_limit), 130 cancelled (Ctrl-C).",
  options: [{ name: "--json", help: "print the turn's records as JSON lines instead of the answer" }, ...AGENT_OPTIONS],
  args: { min: 0, max: Infinity, names: "[MESSAGE...]" },
  examples: [
    'nodwyn ask "where is the configuration read?"',
    "nodwyn ask --model scripted:examples/scripted/quick-start.jsonl 'What is in the README?'",
    "git diff | nodwyn ask --json --max-model-calls 5",
  ],
  async run(inv) {
    const { runAgentCommand } = await import("../agent-command.js");
    return runAgentCommand("ask", inv);
  },
};
