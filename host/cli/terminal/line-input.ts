// Standard input that is not a terminal (a pipe, a file), read line by line by the REPL and by Scheme's console port alike.
//
// One buffer serves both: the REPL takes its next line asynchronously
// (nextLine), a program's `read-line` takes the following one synchronously
// (readLineSync), so `(define x (read-line))` reads the line after it in the
// input, as it should, and the REPL then goes on with the line after that.
// A pipe is read through its stream (so that the process can still react to
// signals while it waits); a regular file synchronously (a stream of a file
// reads ahead on another thread, which a synchronous read would race).

import { fstatSync, readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";

// Made on first use: a start-up snapshot is built where SharedArrayBuffer does not exist.
let sleeper: Int32Array | null = null;

/** Pause the stream when this much is waiting unread. */
const HIGH_WATER = 1 << 20;

export class LineInput {
  private buffer = "";
  private ended = false;
  private readonly decoder = new StringDecoder("utf8");
  private waiter: (() => void) | null = null;
  private readonly stream: NodeJS.ReadStream | null;

  /** `stream` is process.stdin; `fd` its descriptor (default 0). */
  constructor(stream: NodeJS.ReadStream, private readonly fd = 0) {
    let regular = false;
    try {
      regular = fstatSync(fd).isFile();
    } catch {
      regular = false;
    }
    this.stream = regular ? null : stream;
    if (this.stream !== null) {
      this.stream.on("data", (d: Buffer | string) => {
        this.buffer += typeof d === "string" ? d : this.decoder.write(d);
        if (this.buffer.length > HIGH_WATER) this.stream?.pause();
        this.wake();
      });
      this.stream.on("end", () => {
        this.buffer += this.decoder.end();
        this.ended = true;
        this.wake();
      });
      this.stream.on("error", () => {
        this.ended = true;
        this.wake();
      });
    }
  }

  private wake(): void {
    const w = this.waiter;
    this.waiter = null;
    w?.();
  }

  /** The next whole line with its newline (the last may lack one), null at the end, undefined when none is there yet. */
  private take(): string | null | undefined {
    const nl = this.buffer.indexOf("\n");
    if (nl >= 0) {
      const line = this.buffer.slice(0, nl + 1);
      this.buffer = this.buffer.slice(nl + 1);
      if (this.buffer.length < HIGH_WATER / 2 && this.stream?.isPaused()) this.stream.resume();
      return line;
    }
    if (this.ended) {
      const rest = this.buffer;
      this.buffer = "";
      return rest === "" ? null : rest;
    }
    return undefined;
  }

  /** The REPL's next line (with its newline), or null at the end of input. */
  async nextLine(): Promise<string | null> {
    if (this.stream === null) return this.readLineSync();
    for (;;) {
      const l = this.take();
      if (l !== undefined) return l;
      this.stream.resume();
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
  }

  /** A line for a program reading the console, read synchronously; null at the end of input. */
  readLineSync(): string | null {
    for (;;) {
      const l = this.take();
      if (l !== undefined) return l;
      const buf = Buffer.alloc(65536);
      let n: number;
      try {
        n = readSync(this.fd, buf, 0, buf.length, null);
      } catch (e: any) {
        if (e?.code === "EAGAIN" || e?.code === "EWOULDBLOCK") {
          Atomics.wait((sleeper ??= new Int32Array(new SharedArrayBuffer(4))), 0, 0, 5);
          continue;
        }
        if (e?.code === "EINTR") continue;
        n = 0;
      }
      if (n === 0) {
        this.buffer += this.decoder.end();
        this.ended = true;
        continue;
      }
      this.buffer += this.decoder.write(buf.subarray(0, n));
    }
  }
}
