// The line editor driven key by key, in process: editing, multi-line entries, history, Ctrl-R, Tab, Ctrl-C and Ctrl-D.
import test from "ava";
import { LineEditor, commonPrefix, formatColumns, type EntryOptions, type EntryResult } from "../../../../host/cli/terminal/editor.js";
import { History } from "../../../../host/cli/terminal/history.js";
import { KeyDecoder } from "../../../../host/cli/terminal/keys.js";

function editor(cols = 80) {
  let out = "";
  const ed = new LineEditor({ write: (s) => void (out += s), columns: () => cols });
  const dec = new KeyDecoder();
  return {
    ed,
    read(o: Partial<EntryOptions> = {}): Promise<EntryResult> {
      return ed.read({ prompt: "> ", continuation: ". ", ...o });
    },
    type(s: string) {
      for (const k of dec.feed(s)) ed.handle(k);
    },
    get out() {
      return out;
    },
  };
}

const balanced = (s: string) => [...s].filter((c) => c === "(").length <= [...s].filter((c) => c === ")").length;

test("typing, moving and deleting; Enter submits", async (t) => {
  const e = editor();
  const r = e.read();
  e.type("(+ 1 22)\x1b[D\x1b[D\x7f\x01x\x7f\x05\r");
  t.deepEqual(await r, { kind: "entry", text: "(+ 1 2)" });
});

test("Enter on an incomplete entry starts a new line, indented; Alt-Enter always does", async (t) => {
  const e = editor();
  const r = e.read({ isComplete: balanced, indent: () => "  " });
  e.type("(define (f x)\r(* x x))\r");
  t.deepEqual(await r, { kind: "entry", text: "(define (f x)\n  (* x x))" });
  const r2 = e.read();
  e.type("a\x1b\rb\r");
  t.deepEqual(await r2, { kind: "entry", text: "a\nb" });
});

test("Ctrl-C gives back what was typed; Ctrl-D ends only an empty entry", async (t) => {
  const e = editor();
  const r = e.read();
  e.type("(half\x03");
  t.deepEqual(await r, { kind: "interrupt", text: "(half" });
  t.regex(e.out, /\^C\r\n$/);
  const r2 = e.read();
  e.type("ab\x1b[D\x04\r");
  t.deepEqual(await r2, { kind: "entry", text: "a" });
  const r3 = e.read();
  e.type("\x04");
  t.deepEqual(await r3, { kind: "eof" });
});

test("kill and yank, words, transpose", async (t) => {
  const e = editor();
  const r = e.read();
  e.type("one two three\x17\x17\x19\x19\r");
  // Each Ctrl-W kills the word before the cursor ("three", then "two "); Ctrl-Y yanks the last kill.
  t.deepEqual(await r, { kind: "entry", text: "one two two " });
  const r2 = e.read();
  e.type("abc\x14\r");
  t.deepEqual(await r2, { kind: "entry", text: "acb" });
  const r3 = e.read();
  e.type("(aaa bbb)\x1bb\x1bd\x19\x19\r");
  t.deepEqual(await r3, { kind: "entry", text: "(aaa bbbbbb)" });
});

test("history: Up and Down, a multi-line entry whole, Up inside an entry moves between its lines", async (t) => {
  const e = editor();
  const h = new History({ file: null });
  h.add("(first)");
  h.add("(define (g)\n  2)");
  let r = e.read({ history: h });
  e.type("\x1b[A\r");
  t.deepEqual(await r, { kind: "entry", text: "(define (g)\n  2)" });
  r = e.read({ history: h });
  e.type("draft\x1b[A\x1b[A\x1b[A\x1b[B\x1b[B\x1b[B\r");
  t.deepEqual(await r, { kind: "entry", text: "draft" }, "Down comes back to the draft");
  t.deepEqual(h.entries, ["(first)", "(define (g)\n  2)", "draft"]);
  r = e.read({ history: h });
  // Up over a two-line entry: once to it (its last line), once to its first line, once to the entry before it.
  e.type("\x1b[A\x1b[A\x1b[A\x1b[A\r");
  t.deepEqual(await r, { kind: "entry", text: "(first)" });
});

test("Ctrl-R finds the newest entry holding the text, again finds an older one, Ctrl-G puts the line back", async (t) => {
  const e = editor();
  const h = new History({ file: null });
  for (const x of ["(alpha 1)", "(beta 2)", "(alpha 3)"]) h.add(x);
  let r = e.read({ history: h });
  e.type("\x12alp");
  t.regex(e.out, /\(reverse-i-search\)'alp': \(alpha 3\)/);
  e.type("\x12\r");
  t.deepEqual(await r, { kind: "entry", text: "(alpha 1)" });
  r = e.read({ history: h });
  e.type("typed\x12zzz");
  t.regex(e.out, /failed reverse-i-search\)'zzz'/);
  e.type("\x07\r");
  t.deepEqual(await r, { kind: "entry", text: "typed" });
  r = e.read({ history: h });
  e.type("\x12beta\x1b[F!\r");
  t.deepEqual(await r, { kind: "entry", text: "(beta 2)!" }, "a key other than the search's takes the match and does its work (End)");
});

test("Tab: one candidate completes, several complete their common prefix, then list", async (t) => {
  const e = editor(40);
  const names = ["string-append", "string-length", "string-upcase", "car"];
  const complete = (text: string, cursor: number) => {
    const m = /[^\s(]*$/.exec(text.slice(0, cursor))!;
    return { start: cursor - m[0].length, candidates: names.filter((n) => n.startsWith(m[0])) };
  };
  let r = e.read({ complete });
  e.type("(ca\t 1)\r");
  t.deepEqual(await r, { kind: "entry", text: "(car 1)" });
  r = e.read({ complete });
  e.type("(st\t");
  t.regex(e.out, /\(string-$/m);
  e.type("\t");
  t.regex(e.out, /string-append +string-upcase\r\nstring-length/);
  e.type("u\t\r");
  t.deepEqual(await r, { kind: "entry", text: "(string-upcase" });
});

test("a paste is inserted whole and submitted when it ends with a newline", async (t) => {
  const e = editor();
  const r = e.read({ isComplete: balanced });
  e.type("\x1b[200~(a\n b)\n\x1b[201~");
  t.deepEqual(await r, { kind: "entry", text: "(a\n b)" });
});

test("drawing: the cursor row is tracked across wrapped and multi-line entries, and printAbove redraws", async (t) => {
  const e = editor(20);
  const r = e.read({ isComplete: balanced });
  e.type("(" + "x".repeat(30));
  // The entry wraps onto a second row: the next redraw goes up one row first.
  e.type("\x01");
  t.regex(e.out, /\x1b\[1A\r\x1b\[J> \(x{30}\x1b\[1A\r\x1b\[2C$/, "up from the second row to the first, cleared, drawn, the cursor back after the prompt");
  e.ed.printAbove("news\n");
  t.regex(e.out, /\x1b\[J?news\r\n/);
  e.type("\x05)\r");
  t.deepEqual(await r, { kind: "entry", text: "(" + "x".repeat(30) + ")" });
});

test("helpers: common prefix and columns", (t) => {
  t.is(commonPrefix(["string-a", "string-b"]), "string-");
  t.is(commonPrefix([]), "");
  t.is(formatColumns(["a", "bb", "ccc", "d"], 10), "a    ccc\nbb   d");
});
