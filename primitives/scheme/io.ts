// Input and output (R7RS §6.13): port predicates, string/bytevector/file ports, reading and writing.

import {
  type ArgType,
  type Ctx,
  type FileAccess,
  type PortKind,
  type ProcSpec,
  type WriteMode,
  T,
  Port,
  MString,
  Char,
  char,
  EOF,
  Eof,
  UNSPECIFIED,
  Reader,
  SchemeError,
  FileAccessError,
  argError,
  raiseError,
  hostError,
  fileError,
  writeToString,
  allocate,
  spend,
  COST,
  LimitStop,
  mutableVector,
} from "../../interpreter/api.js";
import { checkRange } from "./vectors.js";

// Text files are UTF-8. Invalid sequences become U+FFFD (as in utf8->string and
// load) rather than failing the open; a leading byte-order mark is an encoding
// artefact of the file, not a character, so it is dropped (as load does).
const decoder = new TextDecoder("utf-8", { fatal: false });
const encoder = new TextEncoder();

type Dir = "input" | "output";

function portType(name: string, test: (p: Port) => boolean): ArgType {
  return { name, test: (x: any) => x instanceof Port && test(x) };
}

/** Argument types of ports (what messages call them). */
const P = {
  port: portType("port", () => true),
  input: portType("input port", (p) => p.input),
  output: portType("output port", (p) => p.output),
  textualInput: portType("textual input port", (p) => p.input && p.kind === "textual"),
  binaryInput: portType("binary input port", (p) => p.input && p.kind === "binary"),
  textualOutput: portType("textual output port", (p) => p.output && p.kind === "textual"),
  binaryOutput: portType("binary output port", (p) => p.output && p.kind === "binary"),
} as const;

/**
 * The port argument `p` of `who` (argument number `argNo`), or the current
 * input/output port when it was not passed: checked for direction, kind (null:
 * either) and, unless `closedOk`, for being open. A parameterized current port
 * can hold anything, so the default is checked like an argument.
 */
function portArg(ctx: Ctx, who: string, argNo: number, p: any, dir: Dir, kind: PortKind | null, closedOk = false): Port {
  const port = p !== undefined ? p : dir === "input" ? ctx.currentInputPort() : ctx.currentOutputPort();
  const want = `${kind === null ? "" : kind + " "}${dir} port`;
  const fits = port instanceof Port && (dir === "input" ? port.input : port.output) && (kind === null || port.kind === kind);
  if (!fits || !(closedOk || port.open)) {
    const expected = fits ? `open ${want}` : want;
    if (p === undefined) raiseError("type", `${who}: the current ${dir} port is not ${/^[aeiou]/.test(expected) ? "an" : "a"} ${expected}`, [port], who);
    argError(who, argNo, expected, port);
  }
  return port;
}

// ---- file access ----

function filesOf(ctx: Ctx, who: string, path: string): FileAccess {
  if (ctx.files === null) hostError("no-file-access", `${who}: no file access was granted to this interpreter`, [new MString(path)], who);
  return ctx.files;
}

/** Turns a failure of FileAccess (or of a file port's sink) into a `file-error?` condition; Scheme errors pass. */
function fileFailure(who: string, what: string, path: string, e: unknown): never {
  if (e instanceof SchemeError || e instanceof LimitStop) throw e;
  const code = e instanceof FileAccessError ? e.code : typeof (e as any)?.code === "string" ? (e as any).code : "EIO";
  const msg = e instanceof Error ? e.message : String(e);
  return fileError(who, `${who}: cannot ${what} ${path}: ${msg}`, new MString(path), code);
}

/**
 * File output ports still open, per interpreter context, so that the host can
 * flush them when a program ends without closing them (file ports are
 * block-buffered). Keyed by the context: interpreters never see each other's.
 */
const openFilePorts = new WeakMap<Ctx, Set<Port>>();

/**
 * Flushes every file output port of `ctx` that is still open: what the host
 * calls when an evaluation or the process ends, so that an unclosed port
 * loses no data. Throws a SchemeError (a file condition) when a write fails.
 */
export function flushFilePorts(ctx: Ctx): void {
  const ports = openFilePorts.get(ctx);
  if (ports === undefined) return;
  // One failing file must not keep the others from being written: report the first failure after trying all.
  let failure: unknown = null;
  for (const p of ports) {
    if (!p.open) ports.delete(p);
    else {
      try {
        withFile("flush-output-port", p, () => p.flush());
      } catch (e) {
        failure ??= e;
      }
    }
  }
  if (failure !== null) throw failure;
}

/** Runs a write/flush/close of port `p`, whose sink may be a file: its failures become file errors. */
function withFile(who: string, p: Port, fn: () => void): void {
  try {
    fn();
  } catch (e) {
    fileFailure(who, "write to", p.name, e);
  }
}

function openOutputFile(ctx: Ctx, who: string, name: MString, kind: PortKind): Port {
  const path = name.toString();
  const files = filesOf(ctx, who, path);
  // Create or truncate now: an unwritable path fails at the open, as R7RS
  // wants, and a port closed without output leaves an empty file.
  try {
    files.writeFile(path, new Uint8Array(0), false);
  } catch (e) {
    fileFailure(who, "open", path, e);
  }
  const sink = {
    write(chunk: string | Uint8Array): void {
      files.writeFile(path, typeof chunk === "string" ? encoder.encode(chunk) : chunk, true);
    },
  };
  // Block-buffered: one append per 256 writes, flush or close, not one per line.
  const port = new Port(kind, "out", path, { sink, lineBuffered: false });
  let set = openFilePorts.get(ctx);
  if (set === undefined) openFilePorts.set(ctx, (set = new Set()));
  set.add(port);
  return port;
}

function readWholeFile(ctx: Ctx, who: string, path: string): Uint8Array {
  const files = filesOf(ctx, who, path);
  try {
    return files.readFile(path);
  } catch (e) {
    return fileFailure(who, "open", path, e);
  }
}

function closePort(ctx: Ctx, who: string, p: Port): typeof UNSPECIFIED {
  if (p.open) withFile(who, p, () => p.close());
  openFilePorts.get(ctx)?.delete(p);
  return UNSPECIFIED;
}

// ---- textual input ----

/** The code point at the port's position, or -1 at the end of input (reads more from a source if needed). */
function peekCode(p: Port): number {
  if (!p.fill()) return -1;
  const c = p.text.codePointAt(p.pos) as number;
  // A lone surrogate cannot be a Scheme character; only malformed host text has one.
  return c >= 0xd800 && c <= 0xdfff ? 0xfffd : c;
}

/** Length in UTF-16 units of the character at the port's position. */
function unitsAt(p: Port): number {
  const c = p.text.charCodeAt(p.pos);
  return c >= 0xd800 && c <= 0xdbff && p.pos + 1 < p.text.length && (p.text.charCodeAt(p.pos + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
}

const LINE_END = /[\r\n]/g;

/**
 * The next line without its end, or null at the end of input. LF, CR and CR LF
 * each end a line (a file from any platform reads the same); the last line
 * needs no end.
 */
function readLine(p: Port): string | null {
  if (!p.fill()) return null;
  let out = "";
  for (;;) {
    const t = p.text;
    LINE_END.lastIndex = p.pos;
    const m = LINE_END.exec(t);
    if (m === null) {
      // No line end buffered: the line may continue in the source's next chunk.
      out += t.slice(p.pos);
      p.pos = t.length;
      if (!p.more()) return out;
      continue;
    }
    out += t.slice(p.pos, m.index);
    p.pos = m.index + 1;
    // CR LF is one line end, even when the LF is in the next chunk.
    if (m[0] === "\r" && p.fill() && p.text.charCodeAt(p.pos) === 10) p.pos++;
    return out;
  }
}

/** Up to k characters (code points), or null when none is left. */
function readString(p: Port, k: number): string | null {
  if (k === 0) return "";
  if (!p.fill()) return null;
  let out = "";
  let n = 0;
  while (n < k && p.fill()) {
    const t = p.text;
    const start = p.pos;
    let i = start;
    while (i < t.length && n < k) {
      const c = t.charCodeAt(i);
      i += c >= 0xd800 && c <= 0xdbff && i + 1 < t.length && (t.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
      n++;
    }
    out += t.slice(start, i);
    p.pos = i;
  }
  return out;
}

interface ReadState {
  /** The Reader that stopped at `pos` of `text`, kept so that the next `read` goes on lexing where it stopped. */
  reader: Reader | null;
  text: string;
  pos: number;
  /** `#!fold-case` is a property of the port: it holds for later reads. */
  fold: boolean;
}

/**
 * What `read` remembers per port. A side table rather than fields of Port
 * because the Reader is a later stage than the values; each port belongs to
 * one interpreter, so nothing here is shared between interpreters.
 */
const readStates = new WeakMap<Port, ReadState>();

/**
 * The next datum of a textual input port, or EOF. A Reader starts at the
 * port's position and lexes in growing windows, so one `read` costs about the
 * size of its datum, not of the rest of the port; the Reader is reused while
 * nothing else moved the port. From a source (the console), a datum that the
 * buffered text ends inside of is read again with the source's next chunk.
 */
function readDatum(ctx: Ctx, p: Port): any {
  const prev = readStates.get(p);
  const fold = prev?.fold ?? false;
  p.fill();
  let reuse = prev !== undefined && prev.reader !== null && prev.text === p.text && prev.pos === p.pos;
  for (;;) {
    const r = reuse
      ? ((prev as ReadState).reader as Reader)
      : new Reader(p.text, { file: p.name, symbols: ctx.symbols, locations: false, foldCase: fold, start: p.pos, mutable: true });
    reuse = false;
    let d: any;
    try {
      d = r.read();
    } catch (e) {
      if (e instanceof SchemeError && e.condition.code === "incomplete" && p.more()) continue;
      // Skip the malformed text, so that reading on does not fail on it forever.
      p.pos = Math.min(Math.max(p.pos, r.offset), p.text.length);
      readStates.set(p, { reader: null, text: p.text, pos: p.pos, fold: r.foldCase });
      throw e;
    }
    // An identifier or number at the very end of the buffer may go on in the next chunk.
    if (p.source !== null && (d === EOF || r.offset >= p.text.length) && p.more()) continue;
    p.pos = r.offset;
    readStates.set(p, { reader: r, text: p.text, pos: p.pos, fold: r.foldCase });
    return d;
  }
}

// ---- binary input ----

/** Up to k bytes copied out of the port (fewer at the end of input; none: null). */
function readBytes(p: Port, k: number): Uint8Array | null {
  if (k === 0) return new Uint8Array(0);
  if (!p.fill()) return null;
  // Most reads are served by one buffer: copy once.
  const first = Math.min(k, p.bytes.length - p.bpos);
  if (first === k || p.source === null) {
    const out = new Uint8Array(p.bytes.subarray(p.bpos, p.bpos + first));
    p.bpos += first;
    return out;
  }
  allocate(k);
  const out = new Uint8Array(k);
  let n = 0;
  while (n < k && p.fill()) {
    const take = Math.min(k - n, p.bytes.length - p.bpos);
    out.set(p.bytes.subarray(p.bpos, p.bpos + take), n);
    p.bpos += take;
    n += take;
  }
  return n === k ? out : out.slice(0, n);
}

// ---- output ----

function emitText(who: string, p: Port, s: string): typeof UNSPECIFIED {
  withFile(who, p, () => p.writeText(s));
  return UNSPECIFIED;
}

function writer(name: string, mode: WriteMode, doc: string): ProcSpec {
  return {
    name,
    params: ["obj", "[port]"],
    types: [null, P.textualOutput],
    doc,
    impl(this: Ctx, x: any, port?: Port) {
      const p = portArg(this, name, 2, port, "output", "textual");
      return emitText(name, p, writeToString(x, mode));
    },
  };
}

/** The input and output primitives of R7RS §6.13, with the file ports of (scheme file). */
export const ioPrimitives: ProcSpec[] = [
  // §6.13.1 ports
  {
    name: "input-port?",
    params: ["obj"],
    doc: "True when obj is an input port (open or closed).",
    impl: (x: any) => x instanceof Port && x.input,
  },
  {
    name: "output-port?",
    params: ["obj"],
    doc: "True when obj is an output port (open or closed).",
    impl: (x: any) => x instanceof Port && x.output,
  },
  {
    name: "textual-port?",
    params: ["obj"],
    doc: "True when obj is a textual port (of characters).",
    impl: (x: any) => x instanceof Port && x.kind === "textual",
  },
  {
    name: "binary-port?",
    params: ["obj"],
    doc: "True when obj is a binary port (of bytes).",
    impl: (x: any) => x instanceof Port && x.kind === "binary",
  },
  {
    name: "port?",
    params: ["obj"],
    doc: "True when obj is a port.",
    impl: (x: any) => x instanceof Port,
  },
  {
    name: "input-port-open?",
    params: ["port"],
    types: [P.port],
    doc: "True when port is an input port that is still open.",
    impl: (p: Port) => p.input && p.open,
  },
  {
    name: "output-port-open?",
    params: ["port"],
    types: [P.port],
    doc: "True when port is an output port that is still open.",
    impl: (p: Port) => p.output && p.open,
  },
  {
    name: "close-port",
    params: ["port"],
    types: [P.port],
    doc: "Closes port, flushing its buffered output first. Closing a closed port does nothing.",
    impl(this: Ctx, p: Port) {
      return closePort(this, "close-port", p);
    },
  },
  {
    name: "close-input-port",
    params: ["port"],
    types: [P.input],
    doc: "Closes the input port port. Closing a closed port does nothing.",
    impl(this: Ctx, p: Port) {
      return closePort(this, "close-input-port", p);
    },
  },
  {
    name: "close-output-port",
    params: ["port"],
    types: [P.output],
    doc: "Closes the output port port, flushing its buffered output first. Closing a closed port does nothing.",
    impl(this: Ctx, p: Port) {
      return closePort(this, "close-output-port", p);
    },
  },
  {
    name: "open-input-string",
    params: ["string"],
    types: [T.string],
    doc: "A textual input port reading the characters of string (later changes to string do not affect it).",
    impl: (s: MString) => new Port("textual", "in", "string", { text: s.toString() }),
  },
  {
    name: "open-output-string",
    params: [],
    doc: "A textual output port accumulating what is written to it, for get-output-string.",
    impl: () => new Port("textual", "out", "string"),
  },
  {
    name: "get-output-string",
    params: ["port"],
    types: [portType("string output port", (p) => p.output && p.kind === "textual" && p.sink === null)],
    doc: "A new string of the characters written so far to port, a port made by open-output-string.",
    impl: (p: Port) => new MString(p.contents()),
  },
  {
    name: "open-input-bytevector",
    params: ["bytevector"],
    types: [T.bytevector],
    doc: "A binary input port reading the bytes of bytevector (later changes to bytevector do not affect it).",
    impl(bv: Uint8Array) {
      allocate(bv.length);
      spend(bv.length * COST.charNs);
      return new Port("binary", "in", "bytevector", { bytes: new Uint8Array(bv) });
    },
  },
  {
    name: "open-output-bytevector",
    params: [],
    doc: "A binary output port accumulating what is written to it, for get-output-bytevector.",
    impl: () => new Port("binary", "out", "bytevector"),
  },
  {
    name: "get-output-bytevector",
    params: ["port"],
    types: [portType("bytevector output port", (p) => p.output && p.kind === "binary" && p.sink === null)],
    doc: "A new bytevector of the bytes written so far to port, a port made by open-output-bytevector.",
    // A copy: the port keeps its buffer, which the caller could otherwise mutate.
    impl(p: Port) {
      const bytes = p.byteContents();
      allocate(bytes.length);
      return new Uint8Array(bytes);
    },
  },

  // §6.13.2 input
  {
    name: "read",
    params: ["[port]"],
    types: [P.textualInput],
    doc:
      "The next datum of the textual input port (default: the current input port), parsed as the reader parses " +
      "source, or an eof object when only whitespace and comments remain. Malformed text raises a read-error? " +
      "condition and is skipped. `#!fold-case` holds for the port's later reads.",
    impl(this: Ctx, port?: Port) {
      return readDatum(this, portArg(this, "read", 1, port, "input", "textual"));
    },
  },
  {
    name: "read-char",
    params: ["[port]"],
    types: [P.textualInput],
    doc: "The next character of the textual input port (default: the current input port), or an eof object.",
    impl(this: Ctx, port?: Port) {
      const p = portArg(this, "read-char", 1, port, "input", "textual");
      const c = peekCode(p);
      if (c < 0) return EOF;
      p.pos += unitsAt(p);
      return char(c);
    },
  },
  {
    name: "peek-char",
    params: ["[port]"],
    types: [P.textualInput],
    doc: "The next character of the textual input port (default: the current input port), without consuming it; or an eof object.",
    impl(this: Ctx, port?: Port) {
      const c = peekCode(portArg(this, "peek-char", 1, port, "input", "textual"));
      return c < 0 ? EOF : char(c);
    },
  },
  {
    name: "read-line",
    params: ["[port]"],
    types: [P.textualInput],
    doc:
      "The next line of the textual input port (default: the current input port) as a new string without its " +
      "end, or an eof object at the end of input. A line ends with a linefeed, a carriage return, or both (CR LF).",
    impl(this: Ctx, port?: Port) {
      const s = readLine(portArg(this, "read-line", 1, port, "input", "textual"));
      if (s === null) return EOF;
      spend(s.length * COST.charNs);
      return new MString(s);
    },
  },
  {
    name: "eof-object?",
    params: ["obj"],
    doc: "True when obj is an eof object.",
    impl: (x: any) => x instanceof Eof,
  },
  {
    name: "eof-object",
    params: [],
    doc: "The eof object (what reading at the end of input returns).",
    impl: () => EOF,
  },
  {
    name: "char-ready?",
    params: ["[port]"],
    types: [P.textualInput],
    doc:
      "True when a character can be read from the textual input port (default: the current input port) without " +
      "waiting, which includes being at the end of input. String and file ports are always ready; the console " +
      "is ready when input is already buffered.",
    impl(this: Ctx, port?: Port) {
      return portArg(this, "char-ready?", 1, port, "input", "textual").ready();
    },
  },
  {
    name: "read-string",
    params: ["k", "[port]"],
    types: [T.index, P.textualInput],
    doc:
      "A new string of the next k characters of the textual input port (default: the current input port), fewer " +
      "when the input ends first; an eof object when no character is left (and k is not 0).",
    impl(this: Ctx, k: number, port?: Port) {
      const s = readString(portArg(this, "read-string", 2, port, "input", "textual"), k);
      if (s === null) return EOF;
      spend(s.length * COST.charNs);
      return new MString(s);
    },
  },
  {
    name: "read-u8",
    params: ["[port]"],
    types: [P.binaryInput],
    doc: "The next byte of the binary input port (default: the current input port), or an eof object.",
    impl(this: Ctx, port?: Port) {
      const p = portArg(this, "read-u8", 1, port, "input", "binary");
      return p.fill() ? (p.bytes[p.bpos++] as number) : EOF;
    },
  },
  {
    name: "peek-u8",
    params: ["[port]"],
    types: [P.binaryInput],
    doc: "The next byte of the binary input port (default: the current input port), without consuming it; or an eof object.",
    impl(this: Ctx, port?: Port) {
      const p = portArg(this, "peek-u8", 1, port, "input", "binary");
      return p.fill() ? (p.bytes[p.bpos] as number) : EOF;
    },
  },
  {
    name: "u8-ready?",
    params: ["[port]"],
    types: [P.binaryInput],
    doc:
      "True when a byte can be read from the binary input port (default: the current input port) without waiting, " +
      "which includes being at the end of input.",
    impl(this: Ctx, port?: Port) {
      return portArg(this, "u8-ready?", 1, port, "input", "binary").ready();
    },
  },
  {
    name: "read-bytevector",
    params: ["k", "[port]"],
    types: [T.index, P.binaryInput],
    doc:
      "A new bytevector of the next k bytes of the binary input port (default: the current input port), fewer " +
      "when the input ends first; an eof object when no byte is left (and k is not 0).",
    impl(this: Ctx, k: number, port?: Port) {
      return readBytes(portArg(this, "read-bytevector", 2, port, "input", "binary"), k) ?? EOF;
    },
  },
  {
    name: "read-bytevector!",
    params: ["bytevector", "[port]", "[start]", "[end]"],
    types: [T.bytevector, P.binaryInput, T.index, T.index],
    doc:
      "Reads the next bytes of the binary input port (default: the current input port) into bytevector from " +
      "start (default 0) to at most end (default the length); returns how many were read, or an eof object when " +
      "no byte is left (and start < end).",
    impl(this: Ctx, bv: Uint8Array, port?: Port, start?: number, end?: number) {
      mutableVector("read-bytevector!", 1, bv);
      const p = portArg(this, "read-bytevector!", 2, port, "input", "binary");
      const [s, e] = checkRange("read-bytevector!", 3, start, end, bv.length);
      const got = readBytes(p, e - s);
      if (got === null) return EOF;
      bv.set(got, s);
      return got.length;
    },
  },

  // §6.13.3 output
  writer(
    "write",
    "write",
    "Writes obj to the textual output port (default: the current output port) in the syntax `read` reads back; " +
      "datum labels mark cycles only.",
  ),
  writer(
    "write-shared",
    "shared",
    "Like write, with datum labels for every pair, vector or string that occurs more than once in obj (not only cycles).",
  ),
  writer("write-simple", "simple", "Like write, without datum labels: never returns on cyclic data."),
  writer(
    "display",
    "display",
    "Writes obj to the textual output port (default: the current output port) for people: strings and " +
      "characters as their text, without quotes or escapes.",
  ),
  {
    name: "newline",
    params: ["[port]"],
    types: [P.textualOutput],
    doc: "Writes an end of line (a linefeed) to the textual output port (default: the current output port).",
    impl(this: Ctx, port?: Port) {
      return emitText("newline", portArg(this, "newline", 1, port, "output", "textual"), "\n");
    },
  },
  {
    name: "write-char",
    params: ["char", "[port]"],
    types: [T.char, P.textualOutput],
    doc: "Writes the character char to the textual output port (default: the current output port).",
    impl(this: Ctx, c: Char, port?: Port) {
      return emitText("write-char", portArg(this, "write-char", 2, port, "output", "textual"), String.fromCodePoint(c.code));
    },
  },
  {
    name: "write-string",
    params: ["string", "[port]", "[start]", "[end]"],
    types: [T.string, P.textualOutput, T.index, T.index],
    doc: "Writes the characters of string from start (default 0) to end (default the length) to the textual output port (default: the current output port).",
    impl(this: Ctx, s: MString, port?: Port, start?: number, end?: number) {
      const p = portArg(this, "write-string", 2, port, "output", "textual");
      if (start === undefined && end === undefined) return emitText("write-string", p, s.toString());
      const [a, b] = checkRange("write-string", 3, start, end, s.length);
      return emitText("write-string", p, s.substring(a, b).toString());
    },
  },
  {
    name: "write-u8",
    params: ["byte", "[port]"],
    types: [T.byte, P.binaryOutput],
    doc: "Writes byte to the binary output port (default: the current output port).",
    impl(this: Ctx, byte: number, port?: Port) {
      const p = portArg(this, "write-u8", 2, port, "output", "binary");
      withFile("write-u8", p, () => p.writeBytes(Uint8Array.of(byte)));
      return UNSPECIFIED;
    },
  },
  {
    name: "write-bytevector",
    params: ["bytevector", "[port]", "[start]", "[end]"],
    types: [T.bytevector, P.binaryOutput, T.index, T.index],
    doc: "Writes the bytes of bytevector from start (default 0) to end (default the length) to the binary output port (default: the current output port).",
    impl(this: Ctx, bv: Uint8Array, port?: Port, start?: number, end?: number) {
      const p = portArg(this, "write-bytevector", 2, port, "output", "binary");
      const [a, b] = checkRange("write-bytevector", 3, start, end, bv.length);
      // A copy: the port buffers it, and the caller may change bv afterwards.
      const bytes = new Uint8Array(bv.subarray(a, b));
      withFile("write-bytevector", p, () => p.writeBytes(bytes));
      return UNSPECIFIED;
    },
  },
  {
    name: "flush-output-port",
    params: ["[port]"],
    types: [P.output],
    doc:
      "Sends the buffered output of the output port (default: the current output port) to its destination (the " +
      "console, a file). Flushing a closed port does nothing.",
    impl(this: Ctx, port?: Port) {
      const p = portArg(this, "flush-output-port", 1, port, "output", null, true);
      if (p.open) withFile("flush-output-port", p, () => p.flush());
      return UNSPECIFIED;
    },
  },

  // (scheme file)
  {
    name: "open-input-file",
    params: ["filename"],
    types: [T.string],
    doc:
      "A textual input port reading the file filename, decoded from UTF-8 (invalid bytes read as U+FFFD, a leading " +
      "byte-order mark is dropped). Raises a file-error? condition when the file cannot be read.",
    impl(this: Ctx, name: MString) {
      const path = name.toString();
      const bytes = readWholeFile(this, "open-input-file", path);
      return new Port("textual", "in", path, { text: decoder.decode(bytes) });
    },
  },
  {
    name: "open-binary-input-file",
    params: ["filename"],
    types: [T.string],
    doc: "A binary input port reading the bytes of the file filename. Raises a file-error? condition when the file cannot be read.",
    impl(this: Ctx, name: MString) {
      const path = name.toString();
      // A plain Uint8Array copy: a host Buffer's slices would share memory with the port.
      const bytes = new Uint8Array(readWholeFile(this, "open-binary-input-file", path));
      return new Port("binary", "in", path, { bytes });
    },
  },
  {
    name: "open-output-file",
    params: ["filename"],
    types: [T.string],
    doc:
      "A textual output port writing the file filename in UTF-8, created or emptied now. Output is buffered: it " +
      "reaches the file on flush-output-port and close-port. Raises a file-error? condition when the file cannot be written.",
    impl(this: Ctx, name: MString) {
      return openOutputFile(this, "open-output-file", name, "textual");
    },
  },
  {
    name: "open-binary-output-file",
    params: ["filename"],
    types: [T.string],
    doc:
      "A binary output port writing the file filename, created or emptied now. Output is buffered: it reaches the " +
      "file on flush-output-port and close-port. Raises a file-error? condition when the file cannot be written.",
    impl(this: Ctx, name: MString) {
      return openOutputFile(this, "open-binary-output-file", name, "binary");
    },
  },
  {
    name: "file-exists?",
    params: ["filename"],
    types: [T.string],
    doc: "True when the file filename exists.",
    impl(this: Ctx, name: MString) {
      const path = name.toString();
      const files = filesOf(this, "file-exists?", path);
      try {
        return files.exists(path);
      } catch (e) {
        return fileFailure("file-exists?", "check", path, e);
      }
    },
  },
  {
    name: "delete-file",
    params: ["filename"],
    types: [T.string],
    doc: "Deletes the file filename. Raises a file-error? condition when it does not exist or cannot be deleted.",
    impl(this: Ctx, name: MString) {
      const path = name.toString();
      const files = filesOf(this, "delete-file", path);
      try {
        files.deleteFile(path);
      } catch (e) {
        fileFailure("delete-file", "delete", path, e);
      }
      return UNSPECIFIED;
    },
  },
];
