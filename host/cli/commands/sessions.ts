// `nodwyn sessions` and `nodwyn session …`: list a repository's sessions; title, archive or delete one (the work is in host/cli/sessions-command.ts).

import type { Command } from "../command.js";

/** `nodwyn sessions`. */
export const sessionsCommand: Command = {
  name: "sessions",
  summary: "list this repository's sessions: title or first message, when, turns, cost, forked from, archived",
  usage: "nodwyn sessions [--all] [--every-repo] [--root DIR] [--json]",
  description:
    "The sessions whose repository is this one (the git top-level of the current directory, or --root),\n" +
    "newest first: each with its title (the latest session.title; else its first message's first words),\n" +
    "when it started, its turns, what its priced replies cost, the session it was forked from, and whether\n" +
    "it is archived or open in a process now. Archived sessions are left out unless --all; --json prints\n" +
    "one object per session (session, title, first, started, updated, turns, cost, forked_from, archived,\n" +
    "open, repo, model).",
  options: [
    { name: "--all", help: "include archived sessions" },
    { name: "--every-repo", help: "the sessions of every repository, not only this one" },
    { name: "--root", value: "DIR", help: "the repository whose sessions are listed (default: the current directory's)" },
    { name: "--json", help: "one JSON object per session" },
  ],
  args: { min: 0, max: 0, names: "" },
  examples: ["nodwyn sessions", "nodwyn sessions --all --json"],
  async run(inv) {
    const { runSessions } = await import("../sessions-command.js");
    return runSessions(inv);
  },
};

const SESSION_HELP = "SESSION is a session id or `last`. The session must be closed: one another process has open is refused.";

/** `nodwyn session title|archive|delete`. */
export const sessionCommand: Command = {
  name: "session",
  summary: "title, archive (or --restore) or delete one session",
  usage: "nodwyn session title SESSION TEXT...\n       nodwyn session archive [--restore] SESSION\n       nodwyn session delete SESSION",
  description:
    "Each change of a closed session is a record appended to its log under the log's lock and through the\n" +
    "same redaction as every record (session.title, session.archive); delete takes the lock first too, so a\n" +
    "session another process has open is refused, not removed.",
  subcommands: [
    {
      name: "title",
      summary: "name a session (an empty TEXT takes the name back)",
      usage: "nodwyn session title [--json] SESSION TEXT...",
      description: `Appends session.title: the latest one is the session's title, shown by nodwyn sessions. ${SESSION_HELP}`,
      options: [{ name: "--json", help: "the record's seq and the title as JSON" }],
      args: { min: 1, max: 1000, names: "SESSION TEXT..." },
      examples: ['nodwyn session title last "the parser rewrite"'],
      async run(inv) {
        const { runTitle } = await import("../sessions-command.js");
        return runTitle(inv);
      },
    },
    {
      name: "archive",
      summary: "archive a session (nodwyn sessions leaves it out), or --restore it",
      usage: "nodwyn session archive [--restore] [--json] SESSION",
      description: `Appends session.archive: the latest one counts, and resuming an archived session brings it back. ${SESSION_HELP}`,
      options: [
        { name: "--restore", help: "bring an archived session back" },
        { name: "--json", help: "the record's seq and the state as JSON" },
      ],
      args: { min: 1, max: 1, names: "SESSION" },
      examples: ["nodwyn session archive 20261201T230514Z-3f118940", "nodwyn session archive --restore 20261201T230514Z-3f118940"],
      async run(inv) {
        const { runArchive } = await import("../sessions-command.js");
        return runArchive(inv);
      },
    },
    {
      name: "delete",
      summary: "delete a session: its log, its .mem and torn-tail backups, its checkpoints",
      usage: "nodwyn session delete [--json] SESSION",
      description:
        "Removes the whole log (which nothing else ever does), what lives beside it (its .mem, torn-tail backups)\n" +
        "and its checkpoints (refs/nodwyn/checkpoints/SESSION in its repository, its temporary index). The\n" +
        `writer's lock is taken first. ${SESSION_HELP}`,
      options: [{ name: "--json", help: "what was removed, as JSON" }],
      args: { min: 1, max: 1, names: "SESSION" },
      examples: ["nodwyn session delete 20261201T230514Z-3f118940"],
      async run(inv) {
        const { runDelete } = await import("../sessions-command.js");
        return runDelete(inv);
      },
    },
  ],
};
