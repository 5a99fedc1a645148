// `nodwyn chat`: a conversation with a model in this repository (host/cli/agent-command.ts, host/cli/chat.ts).

import type { Command } from "../command.js";
import { AGENT_OPTIONS } from "../agent-options.js";

export const chatCommand: Command = {
  name: "chat",
  summary: "talk to a model in this repository (the agent loop)",
  usage: "nodwyn chat [--model NAME] [--strategy FILE] [options]",
  description:
    "Each line you type is a turn: the strategy (stdlib/strategies/shell.scm by default) sends the window to the\n" +
    "model and runs its tool calls — eval (a Scheme REPL), fs-read, fs-find, index-grep, fs-write, fs-edit,\n" +
    "shell-exec — until it\n" +
    "answers. The reply streams as it arrives, each tool call is one line, a footer gives the model, tokens and\n" +
    "cost of the turn. A shell command runs only when you approve it (once, always for its prefix, never) or\n" +
    "config.toml's [shell] allow has its prefix; a file write when you approve it (once, always for its directory,\n" +
    "never); a checker of .nodwyn/checks.scm that answers (ask REASON) puts its question to you. Every turn is a checkpoint: /undo takes the last one back and restores the files it changed\n" +
    "(--keep-files leaves them; a file you changed since is not overwritten without asking), /redo returns,\n" +
    "/tree (/checkpoints) shows every turn and /tree N continues from one, /fork starts a new session at the\n" +
    "head; /model NAME moves to another model, /title TEXT names the session. Git's index, HEAD, branches and\n" +
    "stash are never touched. Ctrl-C cancels the running turn and keeps the session; Ctrl-D\n" +
    "ends it. Lines are edited as in the REPL; the history is ~/.nodwyn_chat_history (NODWYN_CHAT_HISTORY moves it,\n" +
    "empty keeps none). The model comes from config.toml (docs/guides/models.md); with none configured, chat says how to\n" +
    "write one. Every step is in the session's log (nodwyn log show last); nodwyn resume reopens it.",
  options: AGENT_OPTIONS,
  args: { min: 0, max: 0, names: "" },
  examples: ["nodwyn chat", "nodwyn chat --model small", "nodwyn chat --model scripted:replies.jsonl --strategy my-strategy.scm"],
  async run(inv) {
    const { runAgentCommand } = await import("../agent-command.js");
    return runAgentCommand("chat", inv);
  },
};
