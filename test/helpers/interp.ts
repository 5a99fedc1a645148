// Test helpers: an interpreter with the standard library whose console output is captured.
import { createNodeInterpreter, type NodeInterpreterOptions } from "../../host/session/node-interpreter.js";
import { writeToString, type Interpreter } from "../../interpreter/api.js";

export interface TestInterp {
  interp: Interpreter;
  /** Everything written to the console ports so far. */
  out(): string;
  err(): string;
  /** Evaluates and returns the `write` text of the value (throws EvalError on failure). */
  run(src: string): Promise<string>;
}

export function makeInterp(o: NodeInterpreterOptions = {}): TestInterp {
  let out = "";
  let err = "";
  const interp = createNodeInterpreter({
    stdout: { write: (c) => void (out += typeof c === "string" ? c : Buffer.from(c).toString("utf8")) },
    stderr: { write: (c) => void (err += typeof c === "string" ? c : Buffer.from(c).toString("utf8")) },
    ...o,
  });
  return {
    interp,
    out: () => out,
    err: () => err,
    run: async (src) => writeToString(await interp.evaluate(src), "write"),
  };
}
