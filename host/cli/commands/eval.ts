// `nodwyn -e FORMS`: evaluate forms in a session's REPL environment and print the last value.

import { EXIT, UsageError, optionValues, type Command } from "../command.js";
import { Capture, JSON_OPTIONS, openBatchSession, outcomeJson, printOutcome, resultFormat, sandboxExit } from "../batch.js";
import { exitCodeOf } from "../report.js";
import { SESSION_OPTIONS } from "../session-options.js";
import { splitForms } from "../source-forms.js";

export const evalCommand: Command = {
  name: "eval",
  summary: "evaluate forms and print the last value (also: nodwyn -e FORMS)",
  usage: "nodwyn -e FORMS [options]\nnodwyn eval [options] FORMS...",
  description:
    "The forms are evaluated in the REPL's environment (the agent primitives are there without an import);\n" +
    "the value of the last one is printed with `write`. Several -e are evaluated in order, as one text.",
  options: [{ name: "--eval", short: "-e", value: "FORMS", repeatable: true, help: "Scheme forms to evaluate (quote them for the shell)" }, ...JSON_OPTIONS, ...SESSION_OPTIONS],
  args: { min: 0, max: Infinity, names: "[FORMS...]" },
  examples: ["nodwyn -e '(map (lambda (x) (* x x)) (list 1 2 3))'", "nodwyn -e '(fs-read \"README.md\" 1 5)' --json"],
  async run(inv) {
    const parts = [...optionValues(inv, "--eval"), ...inv.args];
    if (parts.length === 0) throw new UsageError("no forms to evaluate", "give them after -e, quoted: nodwyn -e '(+ 1 2)'");
    const source = parts.join("\n");
    const format = resultFormat(inv);
    const capture = new Capture();
    const { session, flags } = await openBatchSession(inv, "-e", ["-e"], format, capture);
    let code = 0;
    if (format === "jsonl") {
      // One object per form, as each one ends; the first failure ends the run.
      const split = splitForms(source, "<-e>");
      if (!split.ok) {
        const out = { ok: false as const, error: split.condition, condition: split.condition };
        inv.io.stdout.write(JSON.stringify(outcomeJson(out)) + "\n");
        code = exitCodeOf(out);
      }
      for (const form of split.ok ? split.forms : []) {
        const out = await session.evaluate(form.padded, { file: "<-e>", origin: "-e" });
        const exited = sandboxExit(inv, session, format, capture);
        if (exited !== null) return exited;
        inv.io.stdout.write(JSON.stringify(outcomeJson(out, { form: form.index, line: form.line, column: form.col, output: capture.take() }, session, false)) + "\n");
        code = exitCodeOf(out);
        if (!out.ok) break;
      }
    } else {
      const out = await session.evaluate(source, { file: "<-e>", origin: "-e" });
      const exited = sandboxExit(inv, session, format, capture);
      if (exited !== null) return exited;
      code = exitCodeOf(out);
      if (format === "json") inv.io.stdout.write(JSON.stringify(outcomeJson(out, { output: capture.take() }, session, false)) + "\n");
      else printOutcome(inv, session, out, flags, true);
    }
    // Ctrl-C stopped it (status 130): the log says so (issue 11, finding 13).
    session.close(code === 0 ? "done" : code === EXIT.interrupted ? "interrupted" : "error", code);
    return code;
  },
};
