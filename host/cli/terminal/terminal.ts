// The terminal a person types at: raw mode, keys, the line editor, Ctrl-C, and console reads while a command runs.
//
// Shared by `nodwyn repl` and `nodwyn chat` (docs/guides/terminal.md). The
// terminal stays in raw mode from start() to close(): every key comes here,
// also while an evaluation (or a model's turn) runs — a Ctrl-C then calls the
// busy handler (the REPL interrupts the evaluation through its AbortSignal),
// and other keys wait as type-ahead for the next prompt. A program that reads
// the console (`read-line`) gets a line typed and echoed here (readLineSync),
// from the same queue, so nothing typed is lost or read twice.

import { readSync } from "node:fs";
import { KeyDecoder, type Key } from "./keys.js";
import { LineEditor, type EntryOptions, type EntryResult } from "./editor.js";
import { stringWidth } from "./width.js";

/** Thrown by readLineSync when Ctrl-C is pressed while a program waits for a line. */
export class ConsoleInterrupt extends Error {
  constructor() {
    super("interrupted while reading the console");
    this.name = "ConsoleInterrupt";
  }
}

export interface TerminalOptions {
  /** A TTY (process.stdin). */
  readonly input: NodeJS.ReadStream;
  /** A TTY (process.stdout). */
  readonly output: NodeJS.WriteStream;
  /** The file descriptor of `input`, for the synchronous reads of readLineSync (default 0). */
  readonly fd?: number;
}

// Made on first use: a start-up snapshot is built where SharedArrayBuffer does not exist.
let sleeper: Int32Array | null = null;
/** Blocks the thread for `ms` (a synchronous read waiting for a key). */
function sleepSync(ms: number): void {
  Atomics.wait((sleeper ??= new Int32Array(new SharedArrayBuffer(4))), 0, 0, ms);
}

export class Terminal {
  readonly editor: LineEditor;
  private readonly input: NodeJS.ReadStream;
  private readonly output: NodeJS.WriteStream;
  private readonly fd: number;
  private readonly decoder = new KeyDecoder();
  /** Keys typed while no entry is being edited (type-ahead), in order. */
  private readonly pending: Key[] = [];
  private busyHandler: (() => void) | null = null;
  private started = false;
  private closed = false;
  private inputEnded = false;
  /** Said before a prompt: a newline when output left the cursor mid-line (set by the REPL). */
  freshLine: () => string = () => "";

  constructor(o: TerminalOptions) {
    this.input = o.input;
    this.output = o.output;
    this.fd = o.fd ?? 0;
    this.editor = new LineEditor({ write: (s) => this.write(s), columns: () => this.columns() });
  }

  /** The terminal's width in columns (80 when it cannot say). */
  columns(): number {
    const c = this.output.columns;
    return typeof c === "number" && c > 0 ? c : 80;
  }

  write(s: string): void {
    if (!this.closed) this.output.write(s);
  }

  /** Raw mode on, bracketed paste on, keys flowing; restored by close() and at exit. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.input.setRawMode(true);
    this.input.on("data", this.onData);
    this.input.on("end", this.onEnd);
    this.input.resume();
    this.write("\x1b[?2004h");
    this.output.on("resize", this.onResize);
    process.on("exit", this.restore);
    process.on("SIGCONT", this.onContinue);
  }

  /** Leaves raw mode and bracketed paste; the process may go on writing. */
  close(): void {
    if (!this.started || this.closed) return;
    this.restore();
    this.closed = true;
    this.input.off("data", this.onData);
    this.input.off("end", this.onEnd);
    this.output.off("resize", this.onResize);
    process.off("exit", this.restore);
    process.off("SIGCONT", this.onContinue);
    this.input.pause();
  }

  private readonly restore = (): void => {
    if (this.closed) return;
    try {
      this.output.write("\x1b[?2004l");
      this.input.setRawMode(false);
    } catch {
      // the terminal is gone
    }
  };

  private readonly onResize = (): void => this.editor.redraw();

  private readonly onContinue = (): void => {
    // Back from Ctrl-Z: raw mode again, and the entry drawn anew.
    if (this.closed) return;
    this.input.setRawMode(true);
    this.write("\x1b[?2004h");
    this.editor.redraw();
  };

  private readonly onEnd = (): void => {
    this.inputEnded = true;
    if (this.editor.active) this.editor.handle({ name: "d", ctrl: true });
  };

  private readonly onData = (chunk: Buffer): void => {
    for (const k of this.decoder.feed(chunk)) this.pending.push(k);
    this.drain();
  };

  /** Gives waiting keys to the editor while it edits, or to the busy handler's Ctrl-C. */
  private drain(): void {
    while (this.pending.length > 0) {
      if (this.editor.active) {
        const k = this.pending.shift() as Key;
        if (k.ctrl && k.name === "z" && !k.meta) this.suspend();
        else this.editor.handle(k);
        continue;
      }
      if (this.busyHandler !== null) {
        const i = this.pending.findIndex((k) => k.ctrl === true && k.name === "c" && !k.meta);
        if (i >= 0) {
          // Ctrl-C while busy: what was typed ahead is dropped with it.
          this.pending.splice(0, this.pending.length);
          this.write("^C");
          this.busyHandler();
        }
      }
      return;
    }
  }

  /** Ctrl-Z: the shell's job control takes over until `fg`. */
  private suspend(): void {
    this.write("\r\n");
    this.input.setRawMode(false);
    this.write("\x1b[?2004l");
    process.kill(process.pid, "SIGTSTP");
  }

  /** Reads one entry with the line editor (type-ahead first). */
  async readEntry(opts: EntryOptions): Promise<EntryResult> {
    if (this.inputEnded && this.pending.length === 0) return { kind: "eof" };
    // Output that left the cursor mid-line gets its newline before the editor draws: the
    // editor clears the rows it draws on, and that row still shows the output.
    this.write(this.freshLine().replace(/\n/g, "\r\n"));
    const done = this.editor.read(opts);
    this.drain();
    return done;
  }

  /**
   * Runs `work` as busy: Ctrl-C calls `onInterrupt` (once per press) instead of
   * editing; other keys wait for the next prompt.
   */
  async busy<T>(onInterrupt: () => void, work: () => Promise<T>): Promise<T> {
    const prev = this.busyHandler;
    this.busyHandler = onInterrupt;
    try {
      // The work starts first, so that a Ctrl-C typed ahead of it interrupts it rather than nothing.
      const running = work();
      this.drain();
      return await running;
    } finally {
      this.busyHandler = prev;
    }
  }

  /**
   * Asks the person a question while something runs (a guard's ask, an
   * approval): one line edited with the editor, no history. Resolves to the
   * answer, or null for Ctrl-C or Ctrl-D (a Ctrl-C also calls the busy handler).
   */
  async question(prompt: string): Promise<string | null> {
    const r = await this.readEntry({ prompt });
    if (r.kind === "entry") return r.text;
    if (r.kind === "interrupt") this.busyHandler?.();
    return null;
  }

  /** The next key for readLineSync: type-ahead, else a blocking read of the terminal; null at its end. */
  private nextKeySync(): Key | null {
    for (;;) {
      const k = this.pending.shift();
      if (k !== undefined) return k;
      if (this.inputEnded) return null;
      const buf = Buffer.alloc(4096);
      let n: number;
      try {
        n = readSync(this.fd, buf, 0, buf.length, null);
      } catch (e: any) {
        if (e?.code === "EAGAIN" || e?.code === "EWOULDBLOCK") {
          // The terminal is non-blocking (libuv made it so): wait a little and look again.
          sleepSync(10);
          continue;
        }
        if (e?.code === "EINTR") continue;
        return null;
      }
      if (n === 0) return null;
      for (const key of this.decoder.feed(buf.subarray(0, n))) this.pending.push(key);
    }
  }

  /**
   * A line typed at the console for a program that reads it (`read-line`,
   * `read`): echoed as it is typed, with Backspace and Ctrl-U; the line with
   * its newline, or null at end of input (Ctrl-D on an empty line). Ctrl-C
   * calls the busy handler and throws ConsoleInterrupt.
   */
  readLineSync(): string | null {
    let line = "";
    for (;;) {
      const k = this.nextKeySync();
      if (k === null) return line === "" ? null : line;
      if (k.name === "text" || k.name === "paste") {
        const t = k.text ?? "";
        const nl = t.indexOf("\n");
        if (nl >= 0) {
          // A pasted newline ends the line; the rest waits for the next read.
          const rest = t.slice(nl + 1);
          if (rest) this.pending.unshift({ name: "text", text: rest });
          line += t.slice(0, nl);
          this.write(t.slice(0, nl).replace(/[\x00-\x1f]/g, "") + "\r\n");
          return line + "\n";
        }
        line += t;
        this.write(t.replace(/[\x00-\x1f]/g, ""));
        continue;
      }
      if (k.name === "return") {
        this.write("\r\n");
        return line + "\n";
      }
      if (k.ctrl && !k.meta && k.name === "c") {
        this.write("^C\r\n");
        this.pending.splice(0, this.pending.length);
        this.busyHandler?.();
        throw new ConsoleInterrupt();
      }
      if (k.ctrl && !k.meta && k.name === "d") {
        if (line === "") return null;
        continue;
      }
      if (k.name === "backspace" && line.length > 0) {
        const chars = [...line];
        const last = chars.pop() as string;
        line = chars.join("");
        const w = stringWidth(last);
        this.write("\b \b".repeat(Math.max(1, w)));
        continue;
      }
      if (k.ctrl && !k.meta && k.name === "u") {
        this.write("\b \b".repeat(stringWidth(line)));
        line = "";
      }
    }
  }
}
