// Advisory locks between processes: flock(2) on a lock file, taken without blocking and waited for in small steps.
//
// flock belongs to the open file description, so closing another descriptor
// of the same file never drops it (fcntl locks would be dropped), and a child
// that inherited the descriptor would keep it: every lock is released with
// LOCK_UN before its descriptor is closed, and Node opens with O_CLOEXEC.

import { closeSync, openSync, constants as C } from "node:fs";
import fsExt from "fs-ext";
import { setTimeout as sleep } from "node:timers/promises";
import { errCode } from "./errors.js";

export type LockMode = "ex" | "sh";

/** A held lock; release it exactly once. */
export class FileLock {
  private fd: number;
  private constructor(
    fd: number,
    readonly path: string,
    readonly mode: LockMode,
  ) {
    this.fd = fd;
  }

  /** Takes the lock now, or returns null when another holder has it. Throws on any other failure. */
  static tryAcquire(path: string, mode: LockMode): FileLock | null {
    const fd = openSync(path, C.O_RDWR | C.O_CREAT, 0o600);
    try {
      fsExt.flockSync(fd, mode === "ex" ? "exnb" : "shnb");
    } catch (e) {
      closeSync(fd);
      const code = errCode(e);
      if (code === "EAGAIN" || code === "EWOULDBLOCK") return null;
      throw e;
    }
    return new FileLock(fd, path, mode);
  }

  /**
   * Takes the lock, waiting up to `waitMs` for its holder (in steps of 2 to 50
   * ms, so an event loop keeps turning); null when it did not come in time or
   * `signal` was aborted.
   */
  static async acquire(path: string, mode: LockMode, waitMs: number, signal?: AbortSignal): Promise<FileLock | null> {
    const until = performance.now() + waitMs;
    let step = 2;
    for (;;) {
      const l = FileLock.tryAcquire(path, mode);
      if (l !== null) return l;
      if (signal?.aborted || performance.now() >= until) return null;
      await sleep(Math.min(step, Math.max(1, until - performance.now())));
      step = Math.min(step * 2, 50);
    }
  }

  get held(): boolean {
    return this.fd !== -1;
  }

  release(): void {
    if (this.fd === -1) return;
    const fd = this.fd;
    this.fd = -1;
    try {
      fsExt.flockSync(fd, "un");
    } finally {
      closeSync(fd);
    }
  }
}
