// T13: every file-system call of the log failed in turn (EIO, ENOSPC, EDQUOT, a short write; once or from then on): nothing acknowledged is lost, a failed append never returns, a failed fsync poisons.
import test from "ava";
import { appendFileSync } from "node:fs";
import { createSessionLog, nodeLogFs, openForAppend, readLog, sessionLogPath, LogError, LogPoisonedError, type FlockOp, type LogFs, type LogWriter } from "../../../host/log/index.js";
import { tempDataDir } from "./helpers.js";

type Op = "open" | "flock" | "read" | "write" | "fdatasync" | "fsync" | "ftruncate" | "close" | "mkdir" | "unlink";
type Fault = "EIO" | "ENOSPC" | "EDQUOT" | "short";
type Mode = "transient" | "persistent";

const OPS: readonly Op[] = ["open", "flock", "read", "write", "fdatasync", "fsync", "ftruncate", "close", "mkdir", "unlink"];

/**
 * The real file system, failing the k-th call of one operation (transient) or the k-th and every later one
 * (persistent). A failed close still closes (as close(2) does); a short write writes all but the last byte and
 * returns that count, and in persistent mode every later write fails with ENOSPC.
 */
class FaultFs implements LogFs {
  private n = 0;
  /** How many calls were failed or cut short. */
  injected = 0;
  /** fdatasync calls on each log fd after that fd's fdatasync failed (must stay 0: never retried). */
  retriedSyncs = 0;
  private readonly failedSync = new Set<number>();
  constructor(
    private readonly op: Op,
    private readonly k: number,
    private readonly fault: Fault,
    private readonly mode: Mode,
  ) {}
  private hit(op: Op): boolean {
    if (op !== this.op) return false;
    this.n++;
    const fire = this.mode === "transient" ? this.n === this.k : this.n >= this.k;
    if (fire) this.injected++;
    return fire;
  }
  private error(op: string): NodeJS.ErrnoException {
    const code = this.fault === "short" ? "ENOSPC" : this.fault;
    const e = new Error(`${code}: injected, ${op}`) as NodeJS.ErrnoException;
    e.code = code;
    return e;
  }
  openSync(path: string, flags: number, mode?: number): number {
    if (this.hit("open")) throw this.error("open");
    return nodeLogFs.openSync(path, flags, mode);
  }
  closeSync(fd: number): void {
    const fail = this.hit("close");
    this.failedSync.delete(fd); // its number may be reused by another file
    nodeLogFs.closeSync(fd);
    if (fail) throw this.error("close");
  }
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number | null): number {
    if (this.hit("write")) {
      if (this.fault === "short" && (this.mode === "transient" || this.n === this.k)) {
        if (length > 1) return nodeLogFs.writeSync(fd, buffer, offset, length - 1, position);
      }
      throw this.error("write");
    }
    return nodeLogFs.writeSync(fd, buffer, offset, length, position);
  }
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number {
    if (this.hit("read")) throw this.error("read");
    return nodeLogFs.readSync(fd, buffer, offset, length, position);
  }
  fsyncSync(fd: number): void {
    if (this.hit("fsync")) throw this.error("fsync");
    nodeLogFs.fsyncSync(fd);
  }
  fdatasyncSync(fd: number): void {
    if (this.failedSync.has(fd)) this.retriedSyncs++;
    if (this.hit("fdatasync")) {
      this.failedSync.add(fd);
      throw this.error("fdatasync");
    }
    nodeLogFs.fdatasyncSync(fd);
  }
  ftruncateSync(fd: number, length: number): void {
    if (this.hit("ftruncate")) throw this.error("ftruncate");
    nodeLogFs.ftruncateSync(fd, length);
  }
  unlinkSync(path: string): void {
    if (this.hit("unlink")) throw this.error("unlink");
    nodeLogFs.unlinkSync(path);
  }
  mkdirSync(path: string, options: { recursive: true; mode: number }): void {
    if (this.hit("mkdir")) throw this.error("mkdir");
    nodeLogFs.mkdirSync(path, options);
  }
  flockSync(fd: number, op: FlockOp): void {
    if (this.hit("flock")) throw this.error("flock");
    nodeLogFs.flockSync(fd, op);
  }
}

const START = { version: "0.0.0", origin: "t13" };

interface Outcome {
  /** seq → the text of every record whose append returned. */
  readonly acked: Map<number, string>;
  /** What went wrong in the scenario's own expectations (empty when all held). */
  readonly problems: string[];
}

/**
 * The scenario under faults: create a log, four appends and a group of three, close; a torn line left by a
 * crash; resume (repairing it), two appends, close. Every append that returns is acknowledged; after an append
 * fails, every later append of that writer must fail too (poisoned).
 */
function scenario(dir: string, fs: FaultFs): Outcome {
  const acked = new Map<number, string>();
  const problems: string[] = [];
  const appends = (w: LogWriter, phase: string, texts: (string | string[])[]): void => {
    let failed: string | null = null;
    for (const text of texts) {
      try {
        if (Array.isArray(text)) {
          const rs = w.appendAll(text.map((t) => ({ kind: "note" as const, payload: { text: t } })));
          if (failed !== null) problems.push(`${phase}: appendAll returned after ${failed} failed (not poisoned)`);
          rs.forEach((r, i) => acked.set(r.seq, text[i] as string));
        } else {
          const { seq } = w.append("note", { text });
          if (failed !== null) problems.push(`${phase}: append returned after ${failed} failed (not poisoned)`);
          acked.set(seq, text);
        }
      } catch (e) {
        if (!(e instanceof LogError)) problems.push(`${phase}: an append threw ${String(e)}, not a LogError`);
        if (failed !== null && !(e instanceof LogPoisonedError)) problems.push(`${phase}: after a failure, ${String(e)} instead of LogPoisonedError`);
        failed ??= JSON.stringify(text);
      }
    }
    try {
      w.close();
    } catch {
      // a failed close loses nothing acknowledged
    }
  };
  let w: LogWriter | null = null;
  try {
    w = createSessionLog("s", START, { dataDir: dir, fs });
    acked.set(1, "session.start");
  } catch (e) {
    if (!(e instanceof LogError)) problems.push(`create threw ${String(e)}, not a LogError`);
  }
  if (w !== null) appends(w, "first", ["a1", "a2", "a3", "a4", ["g1", "g2", "g3"]]);
  else return { acked, problems };
  // A crash of some other writer left half a record (real fs: the file as the next open finds it).
  appendFileSync(sessionLogPath("s", dir), '{"seq":99,"ts":"2026-');
  let r: LogWriter | null = null;
  try {
    r = openForAppend("s", { dataDir: dir, fs, resume: START }).writer;
  } catch (e) {
    if (!(e instanceof LogError)) problems.push(`resume threw ${String(e)}, not a LogError`);
  }
  if (r !== null) {
    // session.resume and the repair's note were appended by the open.
    for (const rec of readLog(sessionLogPath("s", dir), { fs: nodeLogFs })) if (!acked.has(rec.seq)) acked.set(rec.seq, rec.kind === "note" ? String(rec.payload.text) : rec.kind);
    appends(r, "resumed", ["b1", "b2"]);
  }
  return { acked, problems };
}

function faultsOf(op: Op): Fault[] {
  return op === "write" ? ["EIO", "ENOSPC", "EDQUOT", "short"] : ["EIO", "ENOSPC", "EDQUOT"];
}

for (const mode of ["transient", "persistent"] as const) {
  test(`${mode} faults: the k-th call of each file operation fails with EIO, ENOSPC, EDQUOT or a short write, k increased until the scenario runs clean: nothing acknowledged is lost, fsync is never retried`, async (t) => {
    t.timeout(900_000); // a loaded machine may need minutes; no assertion is about time
    let scenarios = 0;
    let injected = 0;
    for (const op of OPS)
      for (const fault of faultsOf(op)) {
        await new Promise((r) => setImmediate(r)); // lets the runner hear from this worker between operations
        for (let k = 1; ; k++) {
          const dir = tempDataDir(t);
          const fs = new FaultFs(op, k, fault, mode);
          const { acked, problems } = scenario(dir, fs);
          const where = `${op} #${k} ${fault} (${mode})`;
          scenarios++;
          for (const p of problems) t.fail(`${where}: ${p}`);
          t.is(fs.retriedSyncs, 0, `${where}: fdatasync was retried on a writer whose fsync failed`);
          // A fresh open with the real file system recovers every acknowledged record.
          if (acked.size > 0) {
            let reopened = false;
            try {
              openForAppend("s", { dataDir: dir, resume: START }).writer.close();
              reopened = true;
            } catch (e) {
              t.fail(`${where}: the log does not reopen after the faults: ${String(e)}`);
            }
            if (reopened) {
              const got = new Map<number, string>();
              for (const rec of readLog(sessionLogPath("s", dir))) got.set(rec.seq, rec.kind === "note" ? String(rec.payload.text) : rec.kind);
              for (const [seq, text] of acked) t.is(got.get(seq), text, `${where}: acknowledged seq ${seq} (${text}) is lost`);
            }
          }
          if (fs.injected === 0) break; // the operation was called fewer than k times: this fault is done
          injected += fs.injected;
          if (k > 200) {
            t.fail(`${where}: the scenario never ran clean`);
            break;
          }
        }
      }
    t.log(`${scenarios} scenarios, ${injected} injected faults`);
  });
}
