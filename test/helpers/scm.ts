// Test helpers: behaviour tests written as Scheme files with inline expectations, each run in a fresh interpreter.
//
// A file is an R7RS program (it starts with its import) whose top-level forms
// are evaluated one after the other in one program environment. A comment
// after a form says what the form must do:
//
//   (fold + 0 '(1 2 3))          ; expect: 6
//   (car '())                    ; expect error: type
//   (vector-ref (vector) 0)      ; expect error: range: out of range
//   (raise 'oops)                ; expect raise: oops
//   (display "hi")               ; expect output: hi
//
// `expect:` compares the `write` text of the value (several values are
// written separated by spaces); `expect error:` the kind of the condition
// raised, and then text its message must contain; `expect raise:` the write
// text of a raised object that is not a condition; `expect output:` what the
// form wrote to the current output port (`\n` for a newline). A form may have
// several expectations (output and value). A form without one must not fail.
// An expectation belongs to the last form that ends before it.

import { readFileSync } from "node:fs";
import { createNodeInterpreter } from "../../host/session/node-interpreter.js";
import { Condition, Reader, SymbolTable, EOF, formatRaised, writeToString } from "../../interpreter/api.js";

interface Expectation {
  readonly kind: "value" | "error" | "raise" | "output";
  readonly text: string;
  readonly line: number;
}

/** What running a file found: how many expectations it checked and a line for each that did not hold. */
export interface ScmResult {
  readonly checks: number;
  readonly failures: string[];
}

const EXPECT = /;+\s*expect( error| raise| output)?:\s?(.*)$/;

/** Runs the Scheme test file at `path` (in a fresh interpreter, with a temporary NODWYN_PATH-free search path). */
export async function runScmFile(path: string, libraryPaths: readonly string[] = []): Promise<ScmResult> {
  const text = readFileSync(path, "utf8");
  const name = path.split("/").slice(-3).join("/");
  // Where each top-level form ends, found with the interpreter's own reader.
  const reader = new Reader(text, { file: name, symbols: new SymbolTable(), locations: false });
  const ends: number[] = [];
  for (;;) {
    const d = reader.read();
    if (d === EOF) break;
    ends.push(reader.offset);
  }
  // The expectations, each given to the form that ends before it.
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const expectations = new Map<number, Expectation[]>();
  let checks = 0;
  const failures: string[] = [];
  lineStarts.forEach((start, i) => {
    const end = i + 1 < lineStarts.length ? (lineStarts[i + 1] as number) - 1 : text.length;
    const m = EXPECT.exec(text.slice(start, end));
    if (m === null) return;
    const at = start + m.index;
    let form = -1;
    for (let f = 0; f < ends.length && (ends[f] as number) <= at; f++) form = f;
    const e: Expectation = { kind: m[1] === undefined ? "value" : (m[1].trim() as Expectation["kind"]), text: (m[2] as string).trim(), line: i + 1 };
    if (form < 0) {
      failures.push(`${name}:${e.line}: an expectation before any form`);
      return;
    }
    const list = expectations.get(form) ?? [];
    list.push(e);
    expectations.set(form, list);
  });

  let out = "";
  const interp = createNodeInterpreter({
    libraryPaths,
    stdout: { write: (c) => void (out += typeof c === "string" ? c : Buffer.from(c).toString("utf8")) },
  });
  const env = interp.programEnvironment(name);
  let from = 0;
  for (let f = 0; f < ends.length; f++) {
    const to = ends[f] as number;
    // The form's text at its own line and column, so that error messages point into the file.
    const before = text.slice(0, from);
    const line = before.split("\n").length - 1;
    const col = from - (before.lastIndexOf("\n") + 1);
    const chunk = "\n".repeat(line) + " ".repeat(col) + text.slice(from, to);
    from = to;
    const outBefore = out.length;
    const outcome = await interp.evaluateOutcome(chunk, { file: name, env });
    const written = out.slice(outBefore);
    const list = expectations.get(f) ?? [];
    const formLine = text.slice(0, to).split("\n").length;
    if (list.length === 0) {
      if (!outcome.ok) failures.push(`${name}:${formLine}: unexpected failure: ${formatRaised(outcome.error)}`);
      continue;
    }
    for (const e of list) {
      checks++;
      const where = `${name}:${e.line}`;
      if (e.kind === "output") {
        const want = e.text.replace(/\\n/g, "\n");
        if (written !== want) failures.push(`${where}: output ${JSON.stringify(written)}, expected ${JSON.stringify(want)}`);
        continue;
      }
      if (e.kind === "value") {
        if (!outcome.ok) failures.push(`${where}: raised ${formatRaised(outcome.error)}, expected ${e.text}`);
        else {
          const got = writeToString(outcome.value, "write");
          if (got !== e.text) failures.push(`${where}: got ${got}, expected ${e.text}`);
        }
        continue;
      }
      if (outcome.ok) {
        failures.push(`${where}: returned ${writeToString(outcome.value, "write")}, expected ${e.kind} ${e.text}`);
        continue;
      }
      const raised = outcome.error;
      if (e.kind === "raise") {
        const got = raised instanceof Condition ? `a ${raised.kind} condition: ${formatRaised(raised)}` : writeToString(raised, "write");
        if (got !== e.text) failures.push(`${where}: raised ${got}, expected ${e.text}`);
        continue;
      }
      const sep = e.text.indexOf(":");
      const kind = (sep < 0 ? e.text : e.text.slice(0, sep)).trim();
      const part = sep < 0 ? "" : e.text.slice(sep + 1).trim();
      if (!(raised instanceof Condition)) failures.push(`${where}: raised ${writeToString(raised, "write")}, expected a ${kind} error`);
      else if (raised.kind !== kind) failures.push(`${where}: raised a ${raised.kind} error (${formatRaised(raised)}), expected ${kind}`);
      else if (part !== "" && !formatRaised(raised).includes(part)) failures.push(`${where}: message ${JSON.stringify(formatRaised(raised))} does not contain ${JSON.stringify(part)}`);
    }
  }
  return { checks, failures };
}
