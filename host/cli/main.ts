// The `nodwyn` command: the process around the command table (commands/index.ts) — streams, a closed pipe, exit.
//
// The subcommands themselves live in host/cli/commands/, one file each, and
// are found, checked and given their --help by run-command-line.ts; adding
// one is a file and a line (docs/guides/cli.md).

import { SessionError } from "../session/session.js";
import { VERSION } from "../session/node-interpreter.js";
import { EXIT, type CommandIO } from "./command.js";
import { COMMANDS } from "./commands/index.js";
import { runCommandLine, type ExitHook } from "./run-command-line.js";

export { formatFailure } from "./report.js";

// Whether the command made process.stdout or process.stderr: Node builds each
// on first use (2-4 ms: a pipe loads the net module), so finish() looks only at
// the ones that exist.
const made = { stdout: false, stderr: false };
function watchStream(name: "stdout" | "stderr", onMade: (s: NodeJS.WriteStream) => void): void {
  const d = Object.getOwnPropertyDescriptor(process, name);
  const get = d?.get;
  if (d === undefined || get === undefined || d.configurable !== true) {
    made[name] = true;
    onMade(process[name]);
    return;
  }
  Object.defineProperty(process, name, {
    ...d,
    get() {
      const s = get.call(process) as NodeJS.WriteStream;
      if (!made[name]) {
        made[name] = true;
        onMade(s);
      }
      return s;
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

const exitHooks: ExitHook[] = [];

/** Runs the hooks once (closing the session's log), then exits with `code`. */
function exitEarly(reason: string, code: number): never {
  for (const h of exitHooks.splice(0)) {
    try {
      h(reason, code);
    } catch {
      // the process is ending: a hook that fails must not stop the others
    }
  }
  process.exit(code);
}

/**
 * A closed pipe on stdout (`nodwyn log show last | head -1`) ends the command
 * quietly with status 0, as `cat` does; on stderr it is ignored.
 */
function onStreamMade(name: "stdout" | "stderr"): (s: NodeJS.WriteStream) => void {
  return (s) => {
    s.on("error", (e: NodeJS.ErrnoException) => {
      if (e?.code === "EPIPE" || e?.code === "ERR_STREAM_DESTROYED") {
        if (name === "stdout") exitEarly("stdout closed", EXIT.ok);
        return;
      }
      if (name === "stdout") {
        try {
          process.stderr.write(`nodwyn: cannot write to standard output: ${e?.message ?? e}\n`);
        } catch {
          // nowhere left to say it
        }
        exitEarly("stdout failed", EXIT.error);
      }
    });
  };
}

/** The command, from the words after `nodwyn`; resolves to the exit status. */
export async function main(argv: string[]): Promise<number> {
  watchStream("stdout", onStreamMade("stdout"));
  watchStream("stderr", onStreamMade("stderr"));
  const io: CommandIO = {
    get stdout() {
      return process.stdout;
    },
    get stderr() {
      return process.stderr;
    },
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    cwd: process.cwd(),
  };
  try {
    return await runCommandLine(argv, COMMANDS, io, VERSION, exitHooks);
  } catch (e: any) {
    // Failures to open a session (its checkers, its log) are reported plainly, not as a JS stack.
    if (e instanceof SessionError || e?.name === "LogError" || e?.domain === "log" || typeof e?.code === "string") {
      process.stderr.write(`nodwyn: ${e.message}\n`);
      return EXIT.error;
    }
    throw e;
  }
}
