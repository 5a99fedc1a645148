// The `nodwyn` command: run programs, evaluate forms, the REPL, and the log tools.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Condition, formatRaised, backtraceOf, formatLoc, type Outcome, type Limits } from "../../interpreter/api.js";
import { Session, SessionError, showValue } from "../session/session.js";
import { VERSION } from "../session/node-interpreter.js";

const USAGE = `usage:
  nodwyn run [options] FILE [ARGS...]   run an R7RS program
  nodwyn -e 'FORMS' [options]           evaluate forms, print the last value
  nodwyn repl [options]                 read-eval-print loop (Ctrl-D exits)
  nodwyn log list|show|verify|tail ...  inspect session logs

options:
  -I DIR          add a library directory (also $NODWYN_PATH, colon-separated)
  --root DIR      the repository root the file primitives see (default: the git top level)
  --sandbox       Scheme's own file ports and load read through the guard as well
  --no-log        do not record a session log (default: <data dir>/sessions/<id>.jsonl)
  --steps N       step budget per evaluation
  --timeout MS    wall-clock limit per evaluation
  --trace         show JS stacks of internal errors and the generated code (to stderr)

The data dir is $NODWYN_DATA_DIR, else $XDG_DATA_HOME/nodwyn, else ~/.local/share/nodwyn.
`;

interface Options {
  libs: string[];
  limits: Limits;
  trace: boolean;
  log: boolean;
  sandbox: boolean;
  root: string | undefined;
}

/** Splits the global options off argv; returns the options and the remaining words. */
function parseOptions(argv: string[]): { opts: Options; rest: string[]; error?: string } {
  const opts: Options = { libs: [], limits: {}, trace: false, log: true, sandbox: false, root: undefined };
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
    else if (a === "--no-log") opts.log = false;
    else if (a === "--sandbox") opts.sandbox = true;
    else if (a === "--root") {
      const d = argv[++i];
      if (d === undefined) return { opts, rest, error: "--root needs a directory" };
      opts.root = d;
    } else rest.push(a);
  }
  return { opts, rest };
}

function openSession(opts: Options, origin: string, commandLine: string[], argv: string[]): Promise<Session> {
  return Session.open({
    origin,
    libraryPaths: opts.libs,
    limits: opts.limits,
    log: opts.log,
    sandbox: opts.sandbox,
    commandLine,
    argv,
    ...(opts.root ? { root: opts.root } : {}),
    ...(opts.trace ? { trace: (js: string) => void process.stderr.write(`/* generated */\n${js}\n`) } : {}),
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

/** A newline when the program's output left the cursor mid-line, so the value starts a line. */
function freshLine(session: Session): string {
  const col = session.interp.stdout.column;
  session.interp.stdout.column = 0;
  return col > 0 ? "\n" : "";
}

/** (exit) in a --sandbox session ended the evaluation: the command ends the session with that status, the log closed first. */
function sandboxExit(session: Session): number {
  const code = session.exitRequested ?? 0;
  session.close("exit", code);
  return code;
}

async function runFile(opts: Options, file: string, args: string[], argv: string[]): Promise<number> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e: any) {
    process.stderr.write(`nodwyn: cannot read ${file}: ${e?.code ?? e}\n`);
    return 2;
  }
  const session = await openSession(opts, "run", [file, ...args], argv);
  const out = await session.runProgram(text, resolve(file));
  if (session.exitRequested !== null) return sandboxExit(session);
  const code = out.ok ? 0 : 1;
  if (!out.ok) process.stderr.write(formatFailure(out, opts.trace));
  session.close(out.ok ? "done" : "error", code);
  return code;
}

async function evalForms(opts: Options, forms: string, argv: string[]): Promise<number> {
  const session = await openSession(opts, "-e", ["-e"], argv);
  const out = await session.evaluate(forms, { file: "<-e>", origin: "-e" });
  if (session.exitRequested !== null) return sandboxExit(session);
  let code = 0;
  if (!out.ok) {
    process.stderr.write(formatFailure(out, opts.trace));
    code = 1;
  } else {
    const s = showValue(out.value);
    if (s) process.stdout.write(freshLine(session) + s + "\n");
  }
  session.close(code === 0 ? "done" : "error", code);
  return code;
}

async function repl(opts: Options, argv: string[]): Promise<number> {
  const session = await openSession(opts, "repl", ["repl"], argv);
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
    // Read until the forms are complete: an "incomplete" read error asks for more lines.
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
        return sandboxExit(session);
      }
      if (!out.ok) process.stdout.write(formatFailure(out, opts.trace));
      else {
        const s = showValue(out.value);
        if (s) process.stdout.write(freshLine(session) + s + "\n");
      }
    }
    prompt();
  }
  process.stdout.write("\n");
  session.close("eof", 0);
  return 0;
}

// Whether the command made process.stdout or process.stderr: Node builds each
// on first use (2-4 ms: a pipe loads the net module), so finish() looks only at
// the ones that exist.
const made = { stdout: false, stderr: false };
function watchStream(name: "stdout" | "stderr"): void {
  const d = Object.getOwnPropertyDescriptor(process, name);
  const get = d?.get;
  if (d === undefined || get === undefined || d.configurable !== true) {
    made[name] = true;
    return;
  }
  Object.defineProperty(process, name, {
    ...d,
    get() {
      made[name] = true;
      return get.call(process);
    },
  });
}

/**
 * Ends the process with the command's exit code. When stdout and stderr hold
 * nothing unwritten it exits at once: a natural exit first tears down the heap
 * and the environment, which costs milliseconds of every short command. Output
 * still queued (a pipe whose reader is slow) is left to the natural exit, which
 * writes it all; so are the REPL's and the log's handles, closed by then.
 */
export function finish(code: number): void {
  process.exitCode = code;
  const queued = (name: "stdout" | "stderr"): boolean => made[name] && process[name].writableLength > 0;
  if (!queued("stdout") && !queued("stderr")) process.exit(code);
}

export async function main(argv: string[]): Promise<number> {
  watchStream("stdout");
  watchStream("stderr");
  try {
    return await dispatch(argv);
  } catch (e: any) {
    // Failures to open a session (its checkers, its log) are reported plainly, not as a JS stack.
    if (e instanceof SessionError || e?.name === "LogError" || typeof e?.code === "string") {
      process.stderr.write(`nodwyn: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}

async function dispatch(argv: string[]): Promise<number> {
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
    process.stdout.write(`nodwyn ${VERSION}\n`);
    return 0;
  }
  if (cmd === "run") {
    if (rest[1] === undefined) {
      process.stderr.write(`nodwyn run: missing FILE\n${USAGE}`);
      return 2;
    }
    return runFile(opts, rest[1], rest.slice(2), argv);
  }
  if (cmd === "-e") {
    if (rest[1] === undefined) {
      process.stderr.write(`nodwyn -e: missing FORMS\n${USAGE}`);
      return 2;
    }
    return evalForms(opts, rest.slice(1).join(" "), argv);
  }
  if (cmd === "repl") return repl(opts, argv);
  process.stderr.write(`nodwyn: unknown command '${cmd}'\n${USAGE}`);
  return 2;
}

