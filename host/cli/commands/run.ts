// `nodwyn run FILE`: run an R7RS program (it sees only what it imports).

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { EXIT, type Command } from "../command.js";
import { Capture, JSON_OPTIONS, openBatchSession, outcomeJson, printOutcome, resultFormat, sandboxExit } from "../batch.js";
import { exitCodeOf } from "../report.js";
import { SESSION_OPTIONS } from "../session-options.js";

export const runCommand: Command = {
  name: "run",
  summary: "run an R7RS program",
  usage: "nodwyn run [options] FILE [ARGS...] [-- ARGS...]",
  description:
    "FILE is a Scheme program (`-` reads it from standard input). It sees only what it imports:\n" +
    "(import (scheme base) (nodwyn agent)) for the agent primitives. (command-line) returns FILE and\n" +
    "the ARGS; an argument that starts with - goes after --, so that it is not taken for an option:\n" +
    "  nodwyn run prog.scm input.txt -- --verbose",
  options: [...JSON_OPTIONS, ...SESSION_OPTIONS],
  args: { min: 1, max: Infinity, names: "FILE [ARGS...]" },
  examples: ["nodwyn run examples/hello.scm", "nodwyn run -I my-libs prog.scm", "nodwyn run --json --steps 1000000 prog.scm"],
  async run(inv) {
    const [file, ...args] = inv.args as [string, ...string[]];
    const programArgs = [...args, ...inv.rest];
    let text: string;
    const path = file === "-" ? "<stdin>" : resolve(inv.io.cwd, file);
    try {
      text = file === "-" ? readFileSync(0, "utf8") : readFileSync(path, "utf8");
    } catch (e: any) {
      const why = e?.code === "ENOENT" ? "no such file" : e?.code === "EISDIR" ? "it is a directory" : (e?.code ?? String(e));
      inv.io.stderr.write(`nodwyn run: cannot read ${file}: ${why}\n`);
      return EXIT.error;
    }
    const format = resultFormat(inv);
    const capture = new Capture();
    const { session, flags } = await openBatchSession(inv, "run", [file, ...programArgs], format, capture);
    let code: number;
    if (format === "jsonl") {
      code = EXIT.ok;
      const out = await session.runProgramEach(text, path, (o, form) => {
        inv.io.stdout.write(JSON.stringify(outcomeJson(o, { form: form.index, line: form.line, column: form.col, output: capture.take() }, session, true)) + "\n");
      });
      const exited = sandboxExit(inv, session, format, capture);
      if (exited !== null) return exited;
      code = exitCodeOf(out);
    } else {
      const out = await session.runProgram(text, path);
      const exited = sandboxExit(inv, session, format, capture);
      if (exited !== null) return exited;
      code = exitCodeOf(out);
      if (format === "json") inv.io.stdout.write(JSON.stringify(outcomeJson(out, { output: capture.take() }, session, true)) + "\n");
      else printOutcome(inv, session, out, flags, false);
    }
    // Ctrl-C stopped it (status 130): the log says so (issue 11, finding 13).
    session.close(code === 0 ? "done" : code === EXIT.interrupted ? "interrupted" : "error", code);
    return code;
  },
};
