// `nodwyn summary …`: reviewed, revocable summaries of a closed session (the work is in host/cli/summary-command.ts).

import { positiveInteger, type Command } from "../command.js";

/** The command's declaration; its code is loaded when it runs. */
export const summaryCommand: Command = {
  name: "summary",
  summary: "add, list or revoke reviewed summaries of a closed session's conversation",
  usage: "nodwyn summary --from A --through B --text FILE SESSION\n       nodwyn summary SESSION\n       nodwyn summary --drop SUMMARY_SEQ SESSION",
  description:
    "A summary is text a person wrote and reviewed that later windows show in place of a span of the\n" +
    "conversation: one assistant message labelled as a revocable summary, never a system instruction. The\n" +
    "span begins at a user.msg (A) and ends at a completed llm.resp without pending tool calls (B); the text\n" +
    "is a UTF-8 file of at most 16 KiB, redacted as every record is. Creating one prints the new summary\n" +
    "record's seq; --drop with that seq revokes it. Without options, every summary is listed with its\n" +
    "status: active (the window shows it), recent (it reaches into the latest two user turns, which are\n" +
    "never replaced), dropped, stale (its source is missing or changed: the originals are shown), or\n" +
    "superseded (a newer overlapping summary replaced it; revoking the newer does not bring it back).\n\n" +
    "Nothing is rewritten: each operation appends a summary or summary.drop record. The session must be\n" +
    "closed (a session another process has open is refused) and whole (one that crashed is recovered by\n" +
    "nodwyn resume first). The flags come before SESSION, a session id or `last`.",
  options: [
    { name: "--from", value: "A", help: "the span's first seq: a user.msg", check: positiveInteger },
    { name: "--through", value: "B", help: "the span's last seq: a completed llm.resp", check: positiveInteger },
    { name: "--text", value: "FILE", help: "the summary's text (UTF-8, at most 16 KiB)" },
    { name: "--drop", value: "SUMMARY_SEQ", help: "revoke the summary recorded at SUMMARY_SEQ", check: positiveInteger },
    { name: "--reason", value: "TEXT", help: "with --drop: why (recorded in summary.drop)" },
    { name: "--json", help: "JSON: the new record's seq, or one object per summary" },
  ],
  args: { min: 1, max: 1, names: "SESSION" },
  examples: [
    "nodwyn summary --from 12 --through 41 --text summary.txt 20261201T230514Z-3f118940",
    "nodwyn summary 20261201T230514Z-3f118940",
    "nodwyn summary --drop 57 20261201T230514Z-3f118940",
  ],
  async run(inv) {
    const { runSummary } = await import("../summary-command.js");
    return runSummary(inv);
  },
};

