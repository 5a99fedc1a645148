// The `nodwyn` command: run programs, evaluate forms, the REPL, and the log tools.

import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { resolve } from "node:path";
import {
  Condition,
  EOF,
  UNSPECIFIED,
  MultipleValues,
  EvalError,
  Interpreter,
  formatRaised,
  backtraceOf,
  formatLoc,
  writeToString,
  type Outcome,
  type Limits,
} from "../../interpreter/api.js";
import { createNodeInterpreter, nodeFileAccess, nodeProcessAccess, consoleSinks } from "../session/node-interpreter.js";

const USAGE = `usage:
  nodwyn run [options] FILE [ARGS...]   run an R7RS program
  nodwyn -e 'FORMS' [options]           evaluate forms, print the last value
  nodwyn repl [options]                 read-eval-print loop (Ctrl-D exits)
  nodwyn log list|show|verify|tail ...  inspect session logs

options:
  -I DIR          add a library directory (also $NODWYN_PATH, colon-separated)
  --steps N       step budget per evaluation
  --timeout MS    wall-clock limit per evaluation
  --trace         show JS stacks of internal errors and the generated code (to stderr)
`;

interface Options {
  libs: string[];
  limits: Limits;
  trace: boolean;
}

/** Splits the global options off argv; returns the options and the remaining words. */
function parseOptions(argv: string[]): { opts: Options; rest: string[]; error?: string } {
  const opts: Options = { libs: [], limits: {}, trace: false };
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (rest.length > 0 && rest[0] === "run" && rest.length >= 2) {
      rest.push(a); // after the program file, everything belongs to the program
      continue;
    }
    if (a === "-I") {
      const d = argv[++i];
      if (d === undefined) return { opts, rest, error: "-I needs a directory" };
      opts.libs.push(d);
    } else if (a.startsWith("-I") && a.length > 2) opts.libs.push(a.slice(2));
    else if (a === "--steps" || a === "--timeout") {
      const v = Number(argv[++i]);
      if (!Number.isFinite(v) || v <= 0) return { opts, rest, error: `${a} needs a positive number` };
      if (a === "--steps") opts.limits.steps = v;
      else opts.limits.timeoutMs = v;
    } else if (a === "--trace") opts.trace = true;
    else rest.push(a);
  }
  return { opts, rest };
}

function makeInterpreter(opts: Options, commandLine: string[]): Interpreter {
  return createNodeInterpreter({
    libraryPaths: opts.libs,
    files: nodeFileAccess,
    process: nodeProcessAccess(commandLine),
    stdout: consoleSinks.stdout,
    stderr: consoleSinks.stderr,
    stdin: consoleSinks.stdin,
    limits: opts.limits,
    ...(opts.trace ? { trace: (js: string) => process.stderr.write(`/* generated */\n${js}\n`) } : {}),
  });
}

/** The report of an evaluation that failed: `file:line:col: message: irritants` and the backtrace. */
export function formatFailure(out: Outcome & { ok: false }, trace: boolean): string {
  const lines = [formatRaised(out.error)];
  const c = out.condition;
  if (c instanceof Condition) {
    const bt = c.backtrace ?? backtraceOf(c);
    for (const e of bt) lines.push(`  ${e.tail ? "tail call: " : "in "}${e.name}${e.loc ? ` (${formatLoc(e.loc)})` : ""}`);
    if (trace && c.payload instanceof Error && c.payload.stack) lines.push(c.payload.stack);
  }
  return lines.join("\n") + "\n";
}

/** The text `write` prints for the values of an evaluation ("" for none or unspecified). */
function showValue(v: any): string {
  if (v === UNSPECIFIED) return "";
  if (v instanceof MultipleValues) return v.vals.map((x) => writeToString(x, "write")).join("\n");
  return writeToString(v, "write");
}

async function runFile(opts: Options, file: string, args: string[]): Promise<number> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e: any) {
    process.stderr.write(`nodwyn: cannot read ${file}: ${e?.code ?? e}\n`);
    return 2;
  }
  const interp = makeInterpreter(opts, [file, ...args]);
  const out = await interp.runProgram(text, resolve(file));
  if (!out.ok) {
    process.stderr.write(formatFailure(out, opts.trace));
    return 1;
  }
  return 0;
}

async function evalForms(opts: Options, forms: string): Promise<number> {
  const interp = makeInterpreter(opts, ["-e"]);
  const out = await interp.evaluateOutcome(forms, { file: "<-e>" });
  if (!out.ok) {
    process.stderr.write(formatFailure(out, opts.trace));
    return 1;
  }
  const s = showValue(out.value);
  if (s) process.stdout.write(s + "\n");
  return 0;
}

async function repl(opts: Options): Promise<number> {
  const interp = makeInterpreter(opts, ["repl"]);
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY === true });
  let buffer = "";
  const prompt = () => {
    rl.setPrompt(buffer ? "... " : "> ");
    rl.prompt();
  };
  prompt();
  for await (const line of rl) {
    buffer += line + "\n";
    // Read until the forms are complete: an "incomplete" read error asks for more lines.
    try {
      interp.read(buffer, "<repl>");
    } catch (e: any) {
      if (e?.condition?.code === "incomplete") {
        prompt();
        continue;
      }
    }
    const src = buffer;
    buffer = "";
    if (src.trim()) {
      const out = await interp.evaluateOutcome(src, { file: "<repl>" });
      if (!out.ok) process.stdout.write(formatFailure(out, opts.trace));
      else {
        const s = showValue(out.value);
        if (s) process.stdout.write(s + "\n");
      }
    }
    prompt();
  }
  process.stdout.write("\n");
  return 0;
}

export async function main(argv: string[]): Promise<number> {
  // Loaded only when used: the log tools bring the redactor (RE2) and file locking with them.
  if (argv[0] === "log") return (await import("./log-command.js")).logCommand(argv.slice(1), { stdout: process.stdout, stderr: process.stderr });
  const { opts, rest, error } = parseOptions(argv);
  if (error) {
    process.stderr.write(`nodwyn: ${error}\n${USAGE}`);
    return 2;
  }
  const cmd = rest[0];
  if (cmd === undefined || cmd === "--help" || cmd === "-h" || cmd === "help") {
    process.stdout.write(USAGE);
    return cmd === undefined ? 2 : 0;
  }
  if (cmd === "--version") {
    const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8"));
    process.stdout.write(`nodwyn ${pkg.version}\n`);
    return 0;
  }
  if (cmd === "run") {
    if (rest[1] === undefined) {
      process.stderr.write(`nodwyn run: missing FILE\n${USAGE}`);
      return 2;
    }
    return runFile(opts, rest[1], rest.slice(2));
  }
  if (cmd === "-e") {
    if (rest[1] === undefined) {
      process.stderr.write(`nodwyn -e: missing FORMS\n${USAGE}`);
      return 2;
    }
    return evalForms(opts, rest.slice(1).join(" "));
  }
  if (cmd === "repl") return repl(opts);
  process.stderr.write(`nodwyn: unknown command '${cmd}'\n${USAGE}`);
  return 2;
}

export { EvalError, EOF };
