// `nodwyn resume SESSION`: reopen a session's log and go on in chat (host/cli/agent-command.ts).

import type { Command } from "../command.js";
import { AGENT_OPTIONS } from "../agent-options.js";

export const resumeCommand: Command = {
  name: "resume",
  summary: "reopen a session and go on in chat",
  usage: "nodwyn resume [options] SESSION",
  description:
    "Takes the session's log under its lock (a session another process has open is refused), appends\n" +
    "session.resume, answers every tool call a crash left without a result (a recovered tool.result each) and\n" +
    "ends the interrupted turn, then talks to the model the session last talked to — while config.toml still has\n" +
    "it; else to the default, and a note says so — and goes on as nodwyn chat does, the earlier conversation in\n" +
    "the window. SESSION is an id from nodwyn log list, or last (the latest session).",
  options: AGENT_OPTIONS,
  args: { min: 1, max: 1, names: "SESSION" },
  examples: ["nodwyn resume 20261201T230514Z-3f118940", "nodwyn resume last"],
  async run(inv) {
    const { runAgentCommand } = await import("../agent-command.js");
    return runAgentCommand("resume", inv);
  },
};
