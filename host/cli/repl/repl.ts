// The REPL of `nodwyn repl`: reads forms, evaluates them in the session, prints values and errors.

import { showValue } from "../../session/session.js";
import type { Invocation } from "../command.js";
import { formatFailure } from "../report.js";
import { openSession, sessionFlags } from "../session-options.js";

export async function runRepl(inv: Invocation): Promise<number> {
  const flags = sessionFlags(inv);
  const session = await openSession(flags, "repl", inv, ["repl"]);
  inv.onExit((reason, code) => session.close(reason, code));
  // Loaded only for the REPL; getBuiltinModule also works when started from the snapshot (no import() there).
  const { createInterface } = process.getBuiltinModule("node:readline") as typeof import("node:readline");
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY === true });
  let buffer = "";
  const prompt = () => {
    rl.setPrompt(buffer ? "... " : "> ");
    rl.prompt();
  };
  prompt();
  for await (const line of rl) {
    buffer += line + "\n";
    try {
      session.interp.read(buffer, "<repl>");
    } catch (e: any) {
      if (e?.condition?.code === "incomplete") {
        prompt();
        continue;
      }
    }
    const src = buffer;
    buffer = "";
    if (src.trim()) {
      const out = await session.evaluate(src, { file: "<repl>", origin: "repl" });
      if (session.exitRequested !== null) {
        rl.close();
        const code = session.exitRequested;
        session.close("exit", code);
        return code;
      }
      if (!out.ok) process.stdout.write(formatFailure(out, flags.trace));
      else {
        const s = showValue(out.value);
        const col = session.interp.stdout.column;
        session.interp.stdout.column = 0;
        if (s) process.stdout.write((col > 0 ? "\n" : "") + s + "\n");
      }
    }
    prompt();
  }
  process.stdout.write("\n");
  session.close("eof", 0);
  return 0;
}
