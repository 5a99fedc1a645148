// Running one shell command for the model: bash -c in its own process group, a timeout and cancellation that kill the group.
//
// The command's stdin is /dev/null; stdout and stderr are kept up to a cap
// each (the rest is counted, not kept). On timeout or cancellation the whole
// process group gets SIGTERM, then SIGKILL after a grace period, and the
// result is returned only when no process of the group is left (a process
// that left the group with setsid is beyond reach, as in any shell). Pipes a
// straggler keeps open are not waited for past a short drain.

import { spawn } from "node:child_process";
import { constants as OS } from "node:os";

/** Options of one command. */
export interface ShellRunOptions {
  /** Working directory: the repository root. */
  readonly cwd: string;
  /** The whole environment of the command (already scrubbed of credentials). */
  readonly env: Readonly<Record<string, string>>;
  /** Wall-clock limit in milliseconds. */
  readonly timeoutMs: number;
  /** Cancels the command (Ctrl-C): the group is killed as on timeout. */
  readonly signal?: AbortSignal;
  /** Bytes kept of stdout and of stderr, each (default 1 MiB). */
  readonly maxBytes?: number;
  /** Between SIGTERM and SIGKILL, in milliseconds (default 2000). */
  readonly graceMs?: number;
}

/** How a command ended. */
export interface ShellOutcome {
  /** The exit status as a shell reports it: the code, or 128 + the signal's number when a signal ended it; null when it never ran. */
  readonly exit: number | null;
  /** The signal that ended bash, if one did. */
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Bytes written to each stream, kept or not. */
  readonly stdoutBytes: number;
  readonly stderrBytes: number;
  /** Some output was over the cap and not kept. */
  readonly truncated: boolean;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  readonly durationMs: number;
  /** Why the command could not be started (bash missing, bad cwd). */
  readonly spawnError?: string;
}

export const DEFAULT_SHELL_TIMEOUT_MS = 120_000;
export const DEFAULT_SHELL_MAX_BYTES = 1024 * 1024;

class Capture {
  private readonly parts: Buffer[] = [];
  kept = 0;
  total = 0;
  constructor(private readonly max: number) {}
  push(b: Buffer): void {
    this.total += b.length;
    const room = this.max - this.kept;
    if (room <= 0) return;
    const part = b.length <= room ? b : b.subarray(0, room);
    this.parts.push(part);
    this.kept += part.length;
  }
  text(): string {
    return Buffer.concat(this.parts).toString("utf8");
  }
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function killGroup(pgid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pgid, sig);
  } catch {
    // gone already
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** How long the output of a finished command is read after its process group is gone. */
const DRAIN_BOUND_MS = 15_000;

/** The process groups of the commands running now (so that a host ending early can take them with it). */
const running = new Set<number>();

/** Sends SIGKILL to the process group of every command still running: for a host about to exit (SIGTERM). */
export function killRunningShells(): number {
  let n = 0;
  for (const pgid of running) {
    killGroup(pgid, "SIGKILL");
    n++;
  }
  running.clear();
  return n;
}

/** Runs `command` with `bash -c` and resolves when it and its process group are done. Never rejects. */
export function runShell(command: string, o: ShellRunOptions): Promise<ShellOutcome> {
  const t0 = performance.now();
  const max = o.maxBytes ?? DEFAULT_SHELL_MAX_BYTES;
  const out = new Capture(max);
  const err = new Capture(max);
  return new Promise<ShellOutcome>((resolve) => {
    let timedOut = false;
    let cancelled = false;
    let settled = false;
    const finish = (exit: number | null, signal: string | null, spawnError?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      o.signal?.removeEventListener("abort", onAbort);
      resolve({
        exit,
        signal,
        stdout: out.text(),
        stderr: err.text(),
        stdoutBytes: out.total,
        stderrBytes: err.total,
        truncated: out.total > out.kept || err.total > err.kept,
        timedOut,
        cancelled,
        durationMs: Math.round(performance.now() - t0),
        ...(spawnError !== undefined ? { spawnError } : {}),
      });
    };
    if (o.signal?.aborted) {
      cancelled = true;
      finish(null, null, "cancelled before it started");
      return;
    }
    let child;
    try {
      child = spawn("bash", ["-c", command], { cwd: o.cwd, env: { ...o.env }, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    } catch (e) {
      finish(null, null, (e as Error).message);
      return;
    }
    const pgid = child.pid;
    if (pgid !== undefined) running.add(pgid);
    let killing: Promise<void> | null = null;
    // SIGTERM the group, SIGKILL what is left after the grace period, then wait until none is left.
    const stopGroup = (): Promise<void> => {
      if (pgid === undefined) return Promise.resolve();
      return (killing ??= (async () => {
        killGroup(pgid, "SIGTERM");
        const grace = o.graceMs ?? 2000;
        for (let waited = 0; waited < grace && groupAlive(pgid); waited += 20) await sleep(20);
        if (groupAlive(pgid)) killGroup(pgid, "SIGKILL");
        for (let waited = 0; waited < 5000 && groupAlive(pgid); waited += 20) await sleep(20);
      })());
    };
    const onAbort = () => {
      cancelled = true;
      void stopGroup();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      void stopGroup();
    }, o.timeoutMs);
    o.signal?.addEventListener("abort", onAbort, { once: true });
    const closed = new Promise<void>((r) => child.once("close", () => r()));
    child.stdout!.on("data", (b: Buffer) => out.push(b));
    child.stderr!.on("data", (b: Buffer) => err.push(b));
    child.on("error", (e) => finish(null, null, e.message));
    child.on("exit", (code, sig) => {
      const exit = code ?? (sig ? 128 + ((OS.signals as Record<string, number>)[sig] ?? 0) : null);
      // The group may outlive bash (a background child): it is killed when the command was stopped,
      // and while it lives its pipes are drained for a moment, not waited for. Once no process of the
      // group is left, what the pipes still hold is read to the end (a loaded machine may take seconds
      // to deliver it; cutting it off would hand the model part of the output as if it were all), up to
      // a bound for a descendant that left the group and kept them open.
      void (async () => {
        if (timedOut || cancelled) await stopGroup();
        let drained = await Promise.race([closed.then(() => true), sleep(500).then(() => false)]);
        for (let waited = 500; !drained && waited < DRAIN_BOUND_MS && !(pgid !== undefined && groupAlive(pgid)); waited += 250)
          drained = await Promise.race([closed.then(() => true), sleep(250).then(() => false)]);
        child.stdout?.destroy();
        child.stderr?.destroy();
        if (pgid !== undefined) running.delete(pgid);
        finish(exit, sig);
      })();
    });
  });
}
