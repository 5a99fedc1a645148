// Input and output: string, bytevector, console-like and real file ports through the §6.13 table.
//
// Expected values follow R7RS §6.13 (and UTF-8, RFC 3629, for file contents),
// worked out by hand, not taken from the code's output.
import test from "ava";
import { raised } from "../../helpers/raised.js";
import { mkdtempSync, mkdirSync, rmSync, readFileSync, writeFileSync, appendFileSync, existsSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  SymbolTable,
  Port,
  MString,
  Char,
  char,
  EOF,
  Flonum,
  NIL,
  Pair,
  UNSPECIFIED,
  FileAccessError,
  arrayToList,
  equal,
  specArity,
  argError,
  type Ctx,
  type FileAccess,
  type PortSource,
} from "../../../interpreter/api.js";
import { ioPrimitives, flushFilePorts } from "../../../primitives/scheme/io.js";

/** The real file system, as the CLI grants it: FileAccessError with the system's code on failure. */
const realFiles: FileAccess = {
  readFile(path) {
    try {
      return readFileSync(path);
    } catch (e: any) {
      throw new FileAccessError(e.code ?? "EIO", path, e.message);
    }
  },
  writeFile(path, data, append) {
    try {
      if (append) appendFileSync(path, data);
      else writeFileSync(path, data);
    } catch (e: any) {
      throw new FileAccessError(e.code ?? "EIO", path, e.message);
    }
  },
  exists: (path) => existsSync(path),
  deleteFile(path) {
    try {
      unlinkSync(path);
    } catch (e: any) {
      throw new FileAccessError(e.code ?? "EIO", path, e.message);
    }
  },
};

interface TestCtx extends Ctx {
  stdin: Port;
  stdout: Port;
  stderr: Port;
  /** What would be the value of (current-input-port) / (current-output-port) after a parameterize. */
  input: Port | any;
  output: Port | any;
}

/** A context whose current ports are real ports: stdin over `input` (or a source), stdout/stderr collecting text. */
function makeCtx(o: { input?: string; source?: PortSource; files?: FileAccess | null } = {}): TestCtx {
  const stdin = new Port("textual", "in", "stdin", o.source ? { source: o.source } : { text: o.input ?? "" });
  const stdout = new Port("textual", "out", "stdout");
  const stderr = new Port("textual", "out", "stderr");
  const ctx: TestCtx = {
    symbols: new SymbolTable(),
    files: o.files === undefined ? realFiles : o.files,
    process: null,
    stdin,
    stdout,
    stderr,
    input: stdin,
    output: stdout,
    currentInputPort: () => ctx.input,
    currentOutputPort: () => ctx.output,
    currentErrorPort: () => ctx.stderr,
  };
  return ctx;
}

/** Calls a table entry in ctx as the registration layer does: count and types checked, optionals padded. */
function callIn(ctx: Ctx, name: string, ...args: any[]): any {
  const spec = ioPrimitives.find((s) => s.name === name);
  if (!spec) throw new Error(`no primitive ${name}`);
  const { min, max, rest } = specArity(spec.params);
  if (rest) throw new Error(`${name}: no primitive here takes rest arguments`);
  if (args.length < min || args.length > max) throw new Error(`${name}: ${args.length} arguments`);
  args.forEach((a, i) => {
    const ty = spec.types?.[i];
    if (ty && !ty.test(a)) argError(name, i + 1, ty.name, a);
  });
  const a = args.slice();
  while (a.length < max) a.push(undefined);
  const r = spec.impl.apply(ctx, a);
  if (r === undefined || r === null) throw new Error(`${name} returned ${r}`);
  return r;
}

const shared = makeCtx();
const call = (name: string, ...args: any[]) => callIn(shared, name, ...args);


const s = (x: string) => new MString(x);
const ch = (x: string) => char(x.codePointAt(0) as number);
const bv = (...b: number[]) => Uint8Array.from(b);
const str = (x: any): string => {
  if (!(x instanceof MString)) throw new Error(`not a string: ${String(x)}`);
  return x.toString();
};
const bytes = (x: any): number[] => {
  if (!(x instanceof Uint8Array)) throw new Error(`not a bytevector: ${String(x)}`);
  return Array.from(x);
};
const inStr = (text: string) => call("open-input-string", s(text)) as Port;
const inBytes = (...b: number[]) => call("open-input-bytevector", bv(...b)) as Port;

/** A console-like source handing out the chunks one by one, then end of input. */
function chunks(...parts: (string | Uint8Array)[]): PortSource & { calls: number } {
  const src = {
    calls: 0,
    read(): string | Uint8Array | null {
      src.calls++;
      return parts.length ? (parts.shift() as string | Uint8Array) : null;
    },
  };
  return src;
}

/** A fresh temp folder, removed when the test ends. */
function tempDir(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), "nodwyn-io-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test("port predicates tell direction and kind, and are false for non-ports", (t) => {
  const dir = tempDir(t);
  const ports: [string, Port, boolean, boolean, boolean][] = [
    ["input string", inStr("x"), true, false, true],
    ["output string", call("open-output-string"), false, true, true],
    ["input bytevector", inBytes(1), true, false, false],
    ["output bytevector", call("open-output-bytevector"), false, true, false],
    ["output file", call("open-output-file", s(join(dir, "a.txt"))), false, true, true],
    ["binary output file", call("open-binary-output-file", s(join(dir, "b.bin"))), false, true, false],
  ];
  for (const [what, p, isIn, isOut, textual] of ports) {
    t.true(call("port?", p), what);
    t.is(call("input-port?", p), isIn, what);
    t.is(call("output-port?", p), isOut, what);
    t.is(call("textual-port?", p), textual, what);
    t.is(call("binary-port?", p), !textual, what);
  }
  for (const x of [5, s("str"), NIL, false, EOF, bv(1)]) {
    for (const pred of ["port?", "input-port?", "output-port?", "textual-port?", "binary-port?"]) t.false(call(pred, x));
  }
});

test("read-char and peek-char step by code point, astral characters included, and stay at eof", (t) => {
  const p = inStr("aλ😀");
  t.is(call("peek-char", p), ch("a"));
  t.is(call("read-char", p), ch("a"));
  t.is(call("read-char", p), ch("λ"));
  const smile = call("peek-char", p) as Char;
  t.is(smile.code, 0x1f600);
  t.is(call("read-char", p), smile);
  t.is(call("peek-char", p), EOF);
  t.is(call("read-char", p), EOF);
  t.is(call("read-char", p), EOF);
  t.is(call("read-char", inStr("")), EOF);
});

test("read-line ends lines at LF, CR and CR LF, keeps empty lines, and needs no end on the last line", (t) => {
  const p = inStr("one\ntwo\r\nthree\rfour\n\n\r\nlast");
  const lines: string[] = [];
  for (let l = call("read-line", p); l !== EOF; l = call("read-line", p)) lines.push(str(l));
  t.deepEqual(lines, ["one", "two", "three", "four", "", "", "last"]);
  t.is(call("read-line", inStr("")), EOF);
  const q = inStr("\n");
  t.is(str(call("read-line", q)), "");
  t.is(call("read-line", q), EOF);
  // A CR then LF is one end of line; LF then CR is two.
  const r = inStr("a\n\rb");
  t.deepEqual([str(call("read-line", r)), str(call("read-line", r)), str(call("read-line", r))], ["a", "", "b"]);
});

test("read-line from a source: a line and its CR LF may span chunks", (t) => {
  const ctx = makeCtx({ source: chunks("ab", "c\r", "\nde", "f\n", "g") });
  const lines: string[] = [];
  for (let l = callIn(ctx, "read-line"); l !== EOF; l = callIn(ctx, "read-line")) lines.push(str(l));
  t.deepEqual(lines, ["abc", "def", "g"]);
});

test("read-string takes k characters (code points) or what is left, eof when nothing is", (t) => {
  t.is(str(call("read-string", 3, inStr("abcdef"))), "abc");
  const p = inStr("😀λx");
  t.is(str(call("read-string", 2, p)), "😀λ");
  t.is(str(call("read-string", 5, p)), "x");
  t.is(call("read-string", 1, p), EOF);
  t.is(str(call("read-string", 0, p)), "");
  const q = inStr("hello world");
  t.is(str(call("read-string", 5, q)), "hello");
  t.is(call("read-char", q), ch(" "));
  t.is(str(call("read-line", q)), "world");
  const ctx = makeCtx({ source: chunks("ab", "cd", "e") });
  t.is(str(callIn(ctx, "read-string", 4)), "abcd");
  t.is(str(callIn(ctx, "read-string", 4)), "e");
});

test("read returns each datum of the port, then eof; the delimiter after a datum stays unread", (t) => {
  const ctx = makeCtx();
  const sym = (n: string) => ctx.symbols.intern(n);
  const p = callIn(ctx, "open-input-string", s('1 foo "bar" #\\z (x . y) #(1 #u8(2)) \'q -12.5e1 |a b| ; done\n'));
  const want = [
    1,
    sym("foo"),
    s("bar"),
    ch("z"),
    new Pair(sym("x"), sym("y")),
    [1, bv(2)],
    arrayToList([sym("quote"), sym("q")]),
    new Flonum(-125),
    sym("a b"),
  ];
  for (const w of want) {
    const got = callIn(ctx, "read", p);
    t.true(equal(got, w), `expected ${String(w)}`);
  }
  t.is(callIn(ctx, "read", p), EOF);
  t.is(callIn(ctx, "read", p), EOF);
  t.is(callIn(ctx, "read", callIn(ctx, "open-input-string", s("   ; only a comment\n #| and a block |#"))), EOF);
  const q = callIn(ctx, "open-input-string", s("1 2"));
  t.is(callIn(ctx, "read", q), 1);
  t.is(callIn(ctx, "read-char", q), ch(" "));
  t.is(callIn(ctx, "read", q), 2);
});

test("read and read-char interleave on one port", (t) => {
  const ctx = makeCtx();
  const p = callIn(ctx, "open-input-string", s("(a) bc d"));
  t.true(equal(callIn(ctx, "read", p), arrayToList([ctx.symbols.intern("a")])));
  t.is(callIn(ctx, "read-char", p), ch(" "));
  t.is(callIn(ctx, "read-char", p), ch("b"));
  t.is(callIn(ctx, "read", p), ctx.symbols.intern("c"));
  t.is(str(callIn(ctx, "read-line", p)), " d");
  t.is(callIn(ctx, "read", p), EOF);
});

test("#!fold-case read from a port holds for the port's later reads, not for other ports", (t) => {
  const ctx = makeCtx();
  const p = callIn(ctx, "open-input-string", s("#!fold-case ABC Def"));
  t.is(callIn(ctx, "read", p), ctx.symbols.intern("abc"));
  t.is(callIn(ctx, "read-char", p), ch(" "));
  t.is(callIn(ctx, "read", p), ctx.symbols.intern("def"));
  t.is(callIn(ctx, "read", callIn(ctx, "open-input-string", s("XY"))), ctx.symbols.intern("XY"));
});

test("malformed input raises a read condition and is skipped, so reading goes on", (t) => {
  const ctx = makeCtx();
  const p = callIn(ctx, "open-input-string", s(") 42"));
  t.is(raised(() => callIn(ctx, "read", p)).kind, "read");
  t.is(callIn(ctx, "read", p), 42);
  const c = raised(() => callIn(ctx, "read", callIn(ctx, "open-input-string", s("(a b"))));
  t.is(c.kind, "read");
  t.is(c.code, "incomplete");
});

test("read from a source: a datum may span chunks", (t) => {
  const ctx = makeCtx({ source: chunks("(a b", " c) 12", "3 x", "yz\n") });
  const sym = (n: string) => ctx.symbols.intern(n);
  t.true(equal(callIn(ctx, "read"), arrayToList([sym("a"), sym("b"), sym("c")])));
  t.is(callIn(ctx, "read"), 123);
  t.is(callIn(ctx, "read"), sym("xyz"));
  t.is(callIn(ctx, "read"), EOF);
});

test("reading 100,000 data one by one from one string port takes time proportional to the text", (t) => {
  // Reading the rest of the port on every read would lex about 3·10^10
  // characters here and hit the test timeout; per-datum reading takes well under a second.
  const n = 100_000;
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(`(${i} "s")`);
  const ctx = makeCtx();
  const p = callIn(ctx, "open-input-string", s(parts.join("\n")));
  let last: any = null;
  let count = 0;
  for (let d = callIn(ctx, "read", p); d !== EOF; d = callIn(ctx, "read", p)) {
    last = d;
    count++;
  }
  t.is(count, n);
  t.true(equal(last, arrayToList([n - 1, s("s")])));
});

test("char-ready? and u8-ready? are true for in-memory ports (at eof too); a source is ready only when data is buffered", (t) => {
  t.true(call("char-ready?", inStr("x")));
  t.true(call("char-ready?", inStr("")));
  t.true(call("u8-ready?", inBytes(1)));
  t.true(call("u8-ready?", inBytes()));
  const src = chunks("ab");
  const ctx = makeCtx({ source: src });
  t.false(callIn(ctx, "char-ready?"));
  t.is(src.calls, 0, "char-ready? must not wait on the source");
  t.is(callIn(ctx, "read-char"), ch("a"));
  t.true(callIn(ctx, "char-ready?"));
  t.is(callIn(ctx, "read-char"), ch("b"));
  t.false(callIn(ctx, "char-ready?"));
  t.is(callIn(ctx, "read-char"), EOF);
  t.true(callIn(ctx, "char-ready?"), "at the known end of input a read does not wait");
});

test("write, display, write-shared and write-simple go to the given port", (t) => {
  const ctx = makeCtx();
  const out = () => callIn(ctx, "open-output-string") as Port;
  const text = (p: Port) => str(callIn(ctx, "get-output-string", p));
  const p = out();
  callIn(ctx, "write", ctx.symbols.intern("abc"), p);
  callIn(ctx, "display", s(" "), p);
  callIn(ctx, "write", s('x"y'), p);
  callIn(ctx, "display", ch("!"), p);
  callIn(ctx, "write", ch("a"), p);
  t.is(text(p), 'abc "x\\"y"!#\\a');
  const x = arrayToList([1, 2]);
  const both = arrayToList([x, x]);
  const q = out();
  callIn(ctx, "write", both, q);
  t.is(text(q), "((1 2) (1 2))");
  const r = out();
  callIn(ctx, "write-shared", both, r);
  t.is(text(r), "(#0=(1 2) #0#)");
  const u = out();
  callIn(ctx, "write-simple", both, u);
  t.is(text(u), "((1 2) (1 2))");
  // A cycle gets a label from write, not only from write-shared.
  const cyc = new Pair(1, NIL);
  cyc.cdr = cyc;
  const v = out();
  callIn(ctx, "write", cyc, v);
  t.is(text(v), "#0=(1 . #0#)");
});

test("write-char, write-string with a code-point range, newline; get-output-string accumulates into fresh strings", (t) => {
  const p = call("open-output-string") as Port;
  call("write-char", ch("a"), p);
  call("write-char", ch("😀"), p);
  call("newline", p);
  const first = call("get-output-string", p) as MString;
  t.is(str(first), "a😀\n");
  call("write-string", s("xλ😀yz"), p, 1, 4);
  call("write-string", s("abc"), p, 2);
  call("write-string", s("!"), p);
  t.is(str(call("get-output-string", p)), "a😀\nλ😀yc!");
  t.is(str(first), "a😀\n", "an earlier result does not change");
  const got = call("get-output-string", p) as MString;
  got.set(0, 0x5a);
  t.is(str(call("get-output-string", p)), "a😀\nλ😀yc!", "changing a result does not change the port");
  const c = raised(() => call("write-string", s("abc"), p, 2, 4));
  t.is(c.kind, "range");
  t.is(c.message, "bad argument #4 to 'write-string' (end 4 out of range [2, 3])");
});

test("without a port argument, procedures use the current input and output ports", (t) => {
  const ctx = makeCtx({ input: "hi (1)\nrest" });
  t.is(callIn(ctx, "peek-char"), ch("h"));
  t.is(callIn(ctx, "read-char"), ch("h"));
  t.is(str(callIn(ctx, "read-string", 1)), "i");
  t.true(equal(callIn(ctx, "read"), arrayToList([1])));
  t.is(str(callIn(ctx, "read-line")), "");
  t.is(str(callIn(ctx, "read-line")), "rest");
  t.true(callIn(ctx, "char-ready?"));
  callIn(ctx, "write", s("w"));
  callIn(ctx, "display", s("d"));
  callIn(ctx, "write-char", ch("c"));
  callIn(ctx, "write-string", s("str"));
  callIn(ctx, "newline");
  callIn(ctx, "flush-output-port");
  t.is(ctx.stdout.contents(), '"w"dcstr\n');
  // After (parameterize ((current-output-port p)) ...), the same calls go to p.
  const p = callIn(ctx, "open-output-string");
  ctx.output = p;
  callIn(ctx, "display", s("redirected"));
  t.is(str(callIn(ctx, "get-output-string", p)), "redirected");
  t.is(ctx.stdout.contents(), '"w"dcstr\n');
});

test("a current port of the wrong kind or closed is reported as such", (t) => {
  const ctx = makeCtx();
  ctx.input = callIn(ctx, "open-input-bytevector", bv(1));
  const c = raised(() => callIn(ctx, "read-char"));
  t.is(c.kind, "type");
  t.is(c.message, "read-char: the current input port is not a textual input port");
  ctx.output = 42;
  t.is(raised(() => callIn(ctx, "newline")).message, "newline: the current output port is not a textual output port");
  ctx.output = callIn(ctx, "open-output-string");
  callIn(ctx, "close-port", ctx.output);
  t.is(raised(() => callIn(ctx, "write-char", ch("x"))).message, "write-char: the current output port is not an open textual output port");
});

test("ports of the wrong direction or kind, and closed ports, are bad arguments", (t) => {
  const bin = inBytes(1);
  const txt = inStr("a");
  const out = call("open-output-string");
  t.is(raised(() => call("read-char", bin)).message, "bad argument #1 to 'read-char' (textual input port expected, got #<binary input port bytevector>)");
  t.is(raised(() => call("read-u8", txt)).message, "bad argument #1 to 'read-u8' (binary input port expected, got #<textual input port string>)");
  t.is(raised(() => call("read-line", out)).message, "bad argument #1 to 'read-line' (textual input port expected, got #<textual output port string>)");
  t.is(raised(() => call("write", 1, txt)).message, "bad argument #2 to 'write' (textual output port expected, got #<textual input port string>)");
  t.is(raised(() => call("write-u8", 1, out)).kind, "type");
  t.is(raised(() => call("read-string", 2, 5)).message, "bad argument #2 to 'read-string' (textual input port expected, got 5)");
  t.is(raised(() => call("get-output-string", txt)).kind, "type");
  t.is(raised(() => call("get-output-bytevector", out)).kind, "type");
  call("close-port", txt);
  t.is(raised(() => call("read-char", txt)).message, "bad argument #1 to 'read-char' (open textual input port expected, got #<textual input port string>)");
  call("close-output-port", out);
  t.is(raised(() => call("display", 1, out)).message, "bad argument #2 to 'display' (open textual output port expected, got #<textual output port string>)");
});

test("closing: the open predicates, idempotent close, and the direction close-input-port and close-output-port require", (t) => {
  const i = inStr("x");
  const o = call("open-output-string") as Port;
  t.true(call("input-port-open?", i));
  t.false(call("output-port-open?", i));
  t.true(call("output-port-open?", o));
  t.false(call("input-port-open?", o));
  t.is(call("close-input-port", i), UNSPECIFIED);
  t.false(call("input-port-open?", i));
  t.is(call("close-port", i), UNSPECIFIED);
  call("display", s("kept"), o);
  call("close-output-port", o);
  t.false(call("output-port-open?", o));
  t.is(str(call("get-output-string", o)), "kept", "a closed string port still gives its contents");
  t.is(call("flush-output-port", o), UNSPECIFIED, "flushing a closed port does nothing");
  t.is(raised(() => call("close-input-port", call("open-output-string"))).message, "bad argument #1 to 'close-input-port' (input port expected, got #<textual output port string>)");
  t.is(raised(() => call("close-output-port", inStr(""))).kind, "type");
  t.is(raised(() => call("close-port", 1)).message, "bad argument #1 to 'close-port' (port expected, got 1)");
});

test("eof-object gives the eof object, which eof-object? alone recognises", (t) => {
  t.is(call("eof-object"), EOF);
  t.true(call("eof-object?", call("eof-object")));
  t.true(call("eof-object?", call("read-char", inStr(""))));
  for (const x of [s(""), ch("a"), false, NIL, 0]) t.false(call("eof-object?", x));
});

test("binary input: read-u8, peek-u8, read-bytevector and read-bytevector! with ranges and eof", (t) => {
  const p = inBytes(1, 2, 3);
  t.is(call("read-u8", p), 1);
  t.is(call("peek-u8", p), 2);
  t.is(call("read-u8", p), 2);
  t.is(call("read-u8", p), 3);
  t.is(call("peek-u8", p), EOF);
  t.is(call("read-u8", p), EOF);
  t.deepEqual(bytes(call("read-bytevector", 2, inBytes(1, 2, 3))), [1, 2]);
  const q = inBytes(1, 2, 3);
  t.deepEqual(bytes(call("read-bytevector", 5, q)), [1, 2, 3]);
  t.is(call("read-bytevector", 1, q), EOF);
  t.deepEqual(bytes(call("read-bytevector", 0, q)), []);
  const target = bv(0, 0, 0, 0, 0);
  const r = inBytes(9, 8, 7);
  t.is(call("read-bytevector!", target, r, 1, 3), 2);
  t.deepEqual(bytes(target), [0, 9, 8, 0, 0]);
  t.is(call("read-bytevector!", target, r, 3), 1);
  t.deepEqual(bytes(target), [0, 9, 8, 7, 0]);
  t.is(call("read-bytevector!", target, r), EOF);
  t.is(call("read-bytevector!", target, r, 2, 2), 0, "an empty range reads nothing, even at eof");
  t.is(raised(() => call("read-bytevector!", target, inBytes(1), 6)).kind, "range");
  // A binary source delivers bytes in chunks; read-bytevector gathers them.
  const ctx = makeCtx();
  ctx.input = new Port("binary", "in", "bytes", { source: chunks(bv(1, 2), bv(3), bv(4, 5)) });
  t.deepEqual(bytes(callIn(ctx, "read-bytevector", 4)), [1, 2, 3, 4]);
  t.deepEqual(bytes(callIn(ctx, "read-bytevector", 4)), [5]);
  t.is(callIn(ctx, "read-bytevector", 4), EOF);
});

test("bytevector ports copy: changing the source or a result afterwards changes nothing", (t) => {
  const src = bv(1, 2);
  const p = call("open-input-bytevector", src);
  src[0] = 99;
  t.is(call("read-u8", p), 1);
  const o = call("open-output-bytevector");
  const chunk = bv(5, 6, 7);
  call("write-u8", 65, o);
  call("write-bytevector", chunk, o, 1);
  chunk[1] = 0;
  call("write-bytevector", bv(9), o);
  const got = call("get-output-bytevector", o) as Uint8Array;
  t.deepEqual(bytes(got), [65, 6, 7, 9]);
  got[0] = 0;
  t.deepEqual(bytes(call("get-output-bytevector", o)), [65, 6, 7, 9]);
  t.is(raised(() => call("write-bytevector", bv(1, 2), o, 1, 3)).kind, "range");
});

test("a textual file round-trips through open-output-file and open-input-file as UTF-8", (t) => {
  const dir = tempDir(t);
  const path = join(dir, "out.txt");
  const o = call("open-output-file", s(path)) as Port;
  t.true(existsSync(path), "the file exists as soon as it is opened");
  call("write", arrayToList([shared.symbols.intern("data"), s("in"), ch("λ")]), o);
  call("newline", o);
  call("display", s("second 😀 line"), o);
  call("close-port", o);
  // λ is CE BB and 😀 is F0 9F 98 80 in UTF-8.
  t.deepEqual(Array.from(readFileSync(path)), Array.from(Buffer.from('(data "in" #\\λ)\nsecond 😀 line', "utf8")));
  t.deepEqual([...readFileSync(path).subarray(13, 15)], [0xce, 0xbb]);
  const i = call("open-input-file", s(path)) as Port;
  t.true(equal(call("read", i), arrayToList([shared.symbols.intern("data"), s("in"), ch("λ")])));
  t.is(call("read-char", i), ch("\n"));
  t.is(str(call("read-line", i)), "second 😀 line");
  t.is(call("read-line", i), EOF);
  call("close-input-port", i);
});

test("open-output-file empties an existing file; output reaches it on flush-output-port", (t) => {
  const dir = tempDir(t);
  const path = join(dir, "f.txt");
  writeFileSync(path, "old contents that must go");
  const o = call("open-output-file", s(path)) as Port;
  t.is(readFileSync(path, "utf8"), "");
  call("write-string", s("line 1\n"), o);
  call("write-string", s("line 2"), o);
  call("flush-output-port", o);
  t.is(readFileSync(path, "utf8"), "line 1\nline 2");
  call("write-string", s("\nline 3"), o);
  call("close-port", o);
  t.is(readFileSync(path, "utf8"), "line 1\nline 2\nline 3");
});

test("flushFilePorts writes what unclosed file ports still buffer", (t) => {
  const dir = tempDir(t);
  const ctx = makeCtx();
  const a = callIn(ctx, "open-output-file", s(join(dir, "a.txt")));
  const b = callIn(ctx, "open-binary-output-file", s(join(dir, "b.bin")));
  callIn(ctx, "display", s("never closed"), a);
  callIn(ctx, "write-u8", 7, b);
  flushFilePorts(ctx);
  t.is(readFileSync(join(dir, "a.txt"), "utf8"), "never closed");
  t.deepEqual([...readFileSync(join(dir, "b.bin"))], [7]);
  // Each context flushes only its own ports.
  const other = makeCtx();
  const c = callIn(other, "open-output-file", s(join(dir, "c.txt")));
  callIn(other, "display", s("other"), c);
  flushFilePorts(ctx);
  t.is(readFileSync(join(dir, "c.txt"), "utf8"), "");
  flushFilePorts(other);
  t.is(readFileSync(join(dir, "c.txt"), "utf8"), "other");
});

test("a binary file round-trips every byte value", (t) => {
  const dir = tempDir(t);
  const path = join(dir, "all.bin");
  const all = Uint8Array.from({ length: 256 }, (_, i) => i);
  const o = call("open-binary-output-file", s(path));
  call("write-bytevector", all, o, 0, 128);
  for (let i = 128; i < 256; i++) call("write-u8", i, o);
  call("close-port", o);
  t.deepEqual([...readFileSync(path)], [...all]);
  const i = call("open-binary-input-file", s(path));
  t.is(call("peek-u8", i), 0);
  t.deepEqual(bytes(call("read-bytevector", 1000, i)), [...all]);
  t.is(call("read-u8", i), EOF);
});

test("text files: a leading byte-order mark is dropped and invalid UTF-8 reads as U+FFFD", (t) => {
  const dir = tempDir(t);
  const path = join(dir, "odd.txt");
  // BOM, "a", a lone continuation byte, "b", a truncated 3-byte sequence at the end.
  writeFileSync(path, Uint8Array.from([0xef, 0xbb, 0xbf, 0x61, 0x80, 0x62, 0xe2, 0x82]));
  const p = call("open-input-file", s(path));
  t.is(str(call("read-string", 10, p)), "a\ufffdb\ufffd");
});

test("file-exists? and delete-file work on real files; failures are file conditions with the system's code", (t) => {
  const dir = tempDir(t);
  const path = join(dir, "x.txt");
  t.false(call("file-exists?", s(path)));
  writeFileSync(path, "x");
  t.true(call("file-exists?", s(path)));
  t.is(call("delete-file", s(path)), UNSPECIFIED);
  t.false(existsSync(path));
  const del = raised(() => call("delete-file", s(path)));
  t.is(del.kind, "file");
  t.is(del.code, "ENOENT");
  t.is(del.who, "delete-file");
  t.true(equal(del.irritants[0], s(path)));
  const open = raised(() => call("open-input-file", s(join(dir, "missing"))));
  t.is(open.kind, "file");
  t.is(open.code, "ENOENT");
  t.true(open.message.startsWith(`open-input-file: cannot open ${join(dir, "missing")}`));
  t.is(raised(() => call("open-binary-input-file", s(join(dir, "missing")))).kind, "file");
  const nodir = raised(() => call("open-output-file", s(join(dir, "no", "such", "dir.txt"))));
  t.is(nodir.kind, "file");
  t.is(nodir.code, "ENOENT");
  t.is(raised(() => call("open-binary-output-file", s(dir))).kind, "file", "a directory cannot be opened as a file");
});

test("a write that fails when the buffer reaches the file is a file condition", (t) => {
  const dir = tempDir(t);
  const sub = join(dir, "sub");
  const path = join(sub, "f.txt");
  mkdirSync(sub);
  const o = call("open-output-file", s(path));
  call("display", s("data"), o);
  // The directory goes away under the open port: the flush cannot append.
  rmSync(sub, { recursive: true, force: true });
  const c = raised(() => call("flush-output-port", o));
  t.is(c.kind, "file");
  t.is(c.who, "flush-output-port");
  t.is(c.code, "ENOENT");
});

test("without file access, the file procedures raise a host condition saying so", (t) => {
  const ctx = makeCtx({ files: null });
  for (const name of ["open-input-file", "open-binary-input-file", "open-output-file", "open-binary-output-file", "file-exists?", "delete-file"]) {
    const c = raised(() => callIn(ctx, name, s("/tmp/x")));
    t.is(c.kind, "host", name);
    t.is(c.code, "no-file-access", name);
    t.is(c.message, `${name}: no file access was granted to this interpreter`);
  }
});

test("every entry has a doc and a name of its own", (t) => {
  for (const spec of ioPrimitives) t.true(spec.doc.length > 10, spec.name);
  t.is(new Set(ioPrimitives.map((x) => x.name)).size, ioPrimitives.length, "no name twice");
});
