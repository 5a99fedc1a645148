// Test helper: a child process's (or a pseudo-terminal's) end, waited on with a time limit, so that a child that
// never exits fails its own test, by name and with what it printed, instead of stalling the worker until ava's
// no-progress timeout ends the whole file without saying which test it was.
import type { ChildProcess } from "node:child_process";
import type { IPty } from "node-pty";

/** Below ava's 120 s no-progress timeout, and generous: a loaded machine must not fail a healthy test. */
export const EXIT_TIMEOUT = 90_000;

export interface Exit {
  /** The exit code, or null when a signal ended it. */
  readonly code: number | null;
  /** The signal's name (a child process) or number (a pty), or null. */
  readonly signal: NodeJS.Signals | number | null;
}

export interface WaitExitOptions {
  /** How long to wait (EXIT_TIMEOUT by default). */
  readonly ms?: number;
  /** "exit" (the default) or "close" (also every stdio pipe closed: the last output read). Child processes only. */
  readonly on?: "exit" | "close";
  /** What the test collected of the child's output, shown in the error besides the helper's own tail of its piped stdout and stderr. */
  readonly output?: () => string;
  /** The test: at its teardown the child is killed if it still runs (a test that failed early leaves no process). */
  readonly t?: { teardown(f: () => void): void };
}

const TAIL = 4000;

function isPty(c: ChildProcess | IPty): c is IPty {
  return typeof (c as IPty).onExit === "function";
}

/**
 * Call it as soon as the child is spawned (an exit before the call would be missed), await it when the test
 * expects the end. Resolves with the code and signal; on timeout kills the child (SIGKILL) and rejects with an
 * error naming `what`, the time waited and the tail of the child's output. The promise's rejection is never
 * unhandled: a test that never awaits it (it failed earlier) is not also failed by an unhandled rejection.
 */
export function waitExit(child: ChildProcess | IPty, what: string, o: WaitExitOptions = {}): Promise<Exit> {
  const ms = o.ms ?? EXIT_TIMEOUT;
  let ended = false;
  let tail = "";
  const keep = (d: string | Buffer) => {
    tail = (tail + String(d)).slice(-TAIL);
  };
  const kill = () => {
    if (ended) return;
    try {
      if (isPty(child)) child.kill("SIGKILL");
      else child.kill("SIGKILL");
    } catch {
      // gone already
    }
  };
  if (isPty(child)) child.onData(keep);
  else {
    // Reading the pipes also keeps a chatty child from blocking on a full one.
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
  }
  o.t?.teardown(kill);
  const p = new Promise<Exit>((resolve, reject) => {
    const timer = setTimeout(() => {
      kill();
      const seen = o.output ? `\nthe test's record of its output (last ${TAIL} characters):\n${JSON.stringify(o.output().slice(-TAIL))}` : "";
      reject(new Error(`${what}: the child did not exit within ${ms / 1000} s, so it was killed; its output since it was spawned (last ${TAIL} characters):\n${JSON.stringify(tail)}${seen}`));
    }, ms);
    const done = (e: Exit) => {
      ended = true;
      clearTimeout(timer);
      resolve(e);
    };
    if (isPty(child)) child.onExit(({ exitCode, signal }) => done({ code: exitCode, signal: signal ? signal : null }));
    else {
      const on = o.on ?? "exit";
      if (on === "exit" && (child.exitCode !== null || child.signalCode !== null)) done({ code: child.exitCode, signal: child.signalCode });
      else child.on(on, (code: number | null, signal: NodeJS.Signals | null) => done({ code, signal }));
      child.on("error", (err) => {
        ended = true;
        clearTimeout(timer);
        reject(new Error(`${what}: the child could not be run: ${err.message}`));
      });
    }
  });
  p.catch(() => {});
  return p;
}
