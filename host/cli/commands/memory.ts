// `nodwyn memory …`: search, recall and the turn cards of this repository's tasks (the work is in host/cli/memory-command.ts).

import type { Command } from "../command.js";

const WHERE =
  "Each task's memory is <id>.mem beside its log in <data dir>/sessions/: the turn cards, the compaction\n" +
  "notes and the words of its events, up to its last whole turn. It is derived from the log: deleting it\n" +
  "(or all of them) is always safe, and the next search makes it again.";

function limitCheck(v: string): string | undefined {
  return /^[1-9][0-9]*$/.test(v) && Number(v) <= 100 ? undefined : `a whole number from 1 to 100 is expected, got ${JSON.stringify(v)}`;
}

const JSON_OPT = { name: "--json", help: "print the result as JSON on stdout" } as const;
const ROOT_OPT = { name: "--root", value: "DIR", help: "the repository (default: the git top level of the current directory)" } as const;

/** The command's declaration; its code is loaded when it runs. */
export const memoryCommand: Command = {
  name: "memory",
  summary: "search, recall and show the turn cards of this repository's tasks",
  usage: "nodwyn memory search|recall|cards ...",
  description:
    "The person's own tool over the conversation memory: it searches every task of the repository you are\n" +
    "in (its worktrees' too), whatever workspaces.toml's earlier_tasks says (that switch is the model's).\n" +
    WHERE,
  subcommands: [
    {
      name: "search",
      summary: "the best events of every task of this repository for the words of QUERY (BM25), under their turns",
      usage: "nodwyn memory search QUERY... [--limit N] [--json]",
      options: [{ name: "--limit", value: "N", help: "events to show (default 8, at most 100)", check: limitCheck }, JSON_OPT, ROOT_OPT],
      args: { min: 1, max: Infinity, names: "QUERY..." },
      examples: ["nodwyn memory search why did the release fail", "nodwyn memory search ScrubEnv --limit 20 --json"],
      async run(inv) {
        const { memorySearch } = await import("../memory-command.js");
        return memorySearch(inv);
      },
    },
    {
      name: "recall",
      summary: "one event of a task whole (or lines START to START+COUNT-1), by its seq",
      usage: "nodwyn memory recall [TASK] SEQ [START COUNT] [--json]",
      description: "TASK is a task's id or `last` (the default: the repository's latest task).",
      options: [JSON_OPT, ROOT_OPT],
      args: { min: 1, max: 4, names: "[TASK] SEQ [START COUNT]" },
      examples: ["nodwyn memory recall 812", "nodwyn memory recall 20261009T034803Z-3981612f 812 200 50"],
      async run(inv) {
        const { memoryRecall } = await import("../memory-command.js");
        return memoryRecall(inv);
      },
    },
    {
      name: "cards",
      summary: "a task's turn cards and compaction notes, made from its log",
      usage: "nodwyn memory cards SESSION [--json]",
      description: `SESSION is a session id or \`last\`.\n${WHERE}`,
      options: [JSON_OPT],
      args: { min: 1, max: 1, names: "SESSION" },
      examples: ["nodwyn memory cards last"],
      async run(inv) {
        const { memoryCards } = await import("../memory-command.js");
        return memoryCards(inv);
      },
    },
  ],
};
