// `nodwyn replay SESSION [--window SEQ]`: a transcript, or one exact request rebuilt and verified (the work is in host/cli/replay-command.ts).

import { positiveInteger, type Command } from "../command.js";

/** The command's declaration; its code is loaded when it runs. */
export const replayCommand: Command = {
  name: "replay",
  summary: "a session's transcript, or the exact request of one llm.req rebuilt from the log",
  usage: "nodwyn replay [--window SEQ [--canonical]] [--json] SESSION",
  description:
    "Without --window: the transcript, every record of the log as a person reads it, in order. Summaries,\n" +
    "drops, narrowings and folds are shown as the records they are, not applied. It is made from the file\n" +
    "alone, so the same log always prints the same bytes.\n\n" +
    "With --window SEQ: the request the model was sent at the llm.req SEQ, rebuilt from the records before\n" +
    "it and the recipe that llm.req recorded — no current tool definition, model or tool is used — and\n" +
    "checked against the recorded digest; printed as JSON. An unknown recipe, a digest that does not\n" +
    "match and a SEQ that is not an llm.req are errors (exit 1) that say which. A log from before\n" +
    "requests recorded their recipe replays as a transcript only. The digest proves that this log gives\n" +
    "this request; it is not an authenticated seal (whoever can write the log can write a digest).\n\n" +
    "SESSION is a session id, `last`, or a path to a .jsonl log.",
  options: [
    { name: "--window", value: "SEQ", help: "rebuild and verify the request of the llm.req at SEQ", check: positiveInteger },
    { name: "--canonical", help: "with --window: print the canonical JSON text whose SHA-256 is the digest" },
    { name: "--json", help: "the transcript as JSON lines; with --window, the request with its seq, recipe and digest" },
  ],
  args: { min: 1, max: 1, names: "SESSION" },
  examples: ["nodwyn replay last", "nodwyn replay 20261201T230514Z-3f118940 --window 12", "nodwyn replay last --window 12 --canonical | sha256sum"],
  async run(inv) {
    const { runReplay } = await import("../replay-command.js");
    return runReplay(inv);
  },
};

