// Ports: textual and binary, input and output, over strings, bytes, files and the console.
//
// A port never touches the file system itself: file ports are made from bytes
// the FileAccess interface read, and write back through a sink it provides.
// Console ports get their sink (stdout/stderr) or source (stdin) from the host.

import { allocate, spend, COST } from "../budget.js";

export type PortKind = "textual" | "binary";

/**
 * Writes a string or bytevector output port keeps as they came before joining
 * them into one block, and blocks before joining those: a loop of small writes
 * makes a few long strings, not an array of millions, and copies each
 * character about twice.
 */
const MAX_CHUNKS = 4096;

/** Where an output port's data goes when flushed (console, file). */
export interface PortSink {
  write(chunk: string | Uint8Array): void;
  close?(): void;
}

/** Where an input port's data comes from when it is not all in memory (the console). */
export interface PortSource {
  /** More text (or bytes), or null at end of input. Called when the buffer is exhausted. */
  read(): string | Uint8Array | null;
}

export class Port {
  readonly kind: PortKind;
  readonly input: boolean;
  readonly output: boolean;
  /** For messages: "string", "stdout", a file name. */
  readonly name: string;
  open = true;

  // Textual input: text[pos...] is unread.
  text = "";
  pos = 0;
  // Binary input.
  bytes: Uint8Array = new Uint8Array(0);
  bpos = 0;
  /** Settable: a host attaches the console to an interpreter made before it knew it (a start-up snapshot). */
  source: PortSource | null;
  private eofSeen = false;

  // Output: chunks not yet flushed (or the whole content of a string/bytevector port,
  // with the earlier chunks joined in blocks).
  readonly chunks: string[] = [];
  readonly byteChunks: Uint8Array[] = [];
  private blocks: string[] = [];
  private byteBlocks: Uint8Array[] = [];
  sink: PortSink | null;
  /** Column after the last character written (for fresh-line and the REPL). */
  column = 0;

  /** Flush to the sink at every newline (the console); false: only when the buffer is large, on flush and close (files). */
  private readonly lineBuffered: boolean;

  constructor(
    kind: PortKind,
    dir: "in" | "out",
    name: string,
    opts: { text?: string; bytes?: Uint8Array; sink?: PortSink; source?: PortSource; lineBuffered?: boolean } = {},
  ) {
    this.kind = kind;
    this.input = dir === "in";
    this.output = dir === "out";
    this.name = name;
    if (opts.text !== undefined) this.text = opts.text;
    if (opts.bytes !== undefined) this.bytes = opts.bytes;
    this.sink = opts.sink ?? null;
    this.source = opts.source ?? null;
    this.lineBuffered = opts.lineBuffered ?? true;
  }

  /** `#<textual input port stdin>`: how messages and the printer show a port. */
  toString(): string {
    return `#<${this.kind} ${this.input ? "input" : "output"} port ${this.name}>`;
  }

  /** Makes sure unread text is buffered; false at end of input. */
  fill(): boolean {
    if (this.kind === "textual") {
      if (this.pos < this.text.length) return true;
    } else if (this.bpos < this.bytes.length) return true;
    return this.more();
  }

  /**
   * Appends the source's next chunk to the unread data even when some remains
   * (a datum, a line or a surrogate pair may continue in it); false at end of input.
   */
  more(): boolean {
    if (this.source === null || this.eofSeen) return false;
    const more = this.source.read();
    if (more === null) {
      this.eofSeen = true;
      return false;
    }
    if (typeof more === "string") {
      this.text = this.text.slice(this.pos) + more;
      this.pos = 0;
    } else {
      const rest = this.bytes.subarray(this.bpos);
      const b = new Uint8Array(rest.length + more.length);
      b.set(rest);
      b.set(more, rest.length);
      this.bytes = b;
      this.bpos = 0;
    }
    return true;
  }

  /** True when reading cannot wait on the source: data is buffered, or the end of input is known. */
  ready(): boolean {
    if (this.kind === "textual" ? this.pos < this.text.length : this.bpos < this.bytes.length) return true;
    return this.source === null || this.eofSeen;
  }

  writeText(s: string): void {
    if (s.length === 0) return;
    if (this.sink === null) {
      // A string port keeps all it is given: that memory is the evaluation's.
      allocate(s.length * 2 + 16);
      if (this.chunks.length >= MAX_CHUNKS) {
        this.blocks.push(this.joined(this.chunks));
        this.chunks.length = 0;
        if (this.blocks.length >= MAX_CHUNKS) this.blocks = [this.joined(this.blocks)];
      }
    }
    this.chunks.push(s);
    const nl = s.lastIndexOf("\n");
    this.column = nl < 0 ? this.column + s.length : s.length - nl - 1;
    if (this.sink !== null && ((nl >= 0 && this.lineBuffered) || this.chunks.length > 256)) this.flush();
  }

  writeBytes(b: Uint8Array): void {
    if (this.sink === null) {
      allocate(b.length + 16);
      if (this.byteChunks.length >= MAX_CHUNKS) {
        this.byteBlocks.push(this.joinedBytes(this.byteChunks));
        this.byteChunks.length = 0;
        if (this.byteBlocks.length >= MAX_CHUNKS) this.byteBlocks = [this.joinedBytes(this.byteBlocks)];
      }
    }
    this.byteChunks.push(b);
    if (this.sink !== null && this.byteChunks.length > 256) this.flush();
  }

  flush(): void {
    if (this.sink === null) return;
    if (this.chunks.length) {
      const s = this.chunks.join("");
      this.chunks.length = 0;
      this.sink.write(s);
    }
    if (this.byteChunks.length) {
      for (const b of this.byteChunks) this.sink.write(b);
      this.byteChunks.length = 0;
    }
  }

  /** Strings joined into one, the copy announced to the budget. */
  private joined(parts: string[]): string {
    if (parts.length === 1) return parts[0] as string;
    let n = 0;
    for (const c of parts) n += c.length;
    allocate(n * 2);
    spend(n * COST.charNs);
    return parts.join("");
  }

  /** Byte arrays joined into one, the copy announced to the budget. */
  private joinedBytes(parts: Uint8Array[]): Uint8Array {
    if (parts.length === 1) return parts[0] as Uint8Array;
    let n = 0;
    for (const b of parts) n += b.length;
    allocate(n);
    spend(n * COST.charNs);
    const out = new Uint8Array(n);
    let i = 0;
    for (const b of parts) {
      out.set(b, i);
      i += b.length;
    }
    return out;
  }

  /** The accumulated text of a string output port. */
  contents(): string {
    if (this.blocks.length > 0) {
      this.blocks.push(this.joined(this.chunks));
      this.chunks.length = 0;
      this.chunks.push(this.joined(this.blocks));
      this.blocks = [];
    }
    const s = this.chunks.length === 0 ? "" : this.joined(this.chunks);
    this.chunks.length = 0;
    if (s.length) this.chunks.push(s);
    return s;
  }

  /** The accumulated bytes of a bytevector output port. */
  byteContents(): Uint8Array {
    if (this.byteBlocks.length > 0) {
      this.byteBlocks.push(this.joinedBytes(this.byteChunks));
      this.byteChunks.length = 0;
      this.byteChunks.push(this.joinedBytes(this.byteBlocks));
      this.byteBlocks = [];
    }
    const out = this.byteChunks.length === 0 ? new Uint8Array(0) : this.joinedBytes(this.byteChunks);
    this.byteChunks.length = 0;
    this.byteChunks.push(out);
    return out;
  }

  close(): void {
    if (!this.open) return;
    if (this.output) this.flush();
    this.open = false;
    this.sink?.close?.();
  }
}
