// The key decoder: text, control keys, escape sequences split across chunks, Alt-x, bracketed paste.
import test from "ava";
import { KeyDecoder } from "../../../../host/cli/terminal/keys.js";
import { stringWidth, stripAnsi } from "../../../../host/cli/terminal/width.js";

const names = (ks: { name: string; ctrl?: boolean; meta?: boolean; text?: string }[]) => ks.map((k) => `${k.ctrl ? "C-" : ""}${k.meta ? "M-" : ""}${k.name}${k.text !== undefined ? `:${k.text}` : ""}`);

test("text runs, Enter, Backspace, Tab and control letters", (t) => {
  const d = new KeyDecoder();
  t.deepEqual(names(d.feed("ab\r\x7f\t\x01\x03\x12")), ["text:ab", "return", "backspace", "tab", "C-a", "C-c", "C-r"]);
  t.deepEqual(names(d.feed("x\r\ny")), ["text:x", "return", "text:y"], "CR LF is one Enter");
});

test("arrows, Home/End, Delete, modifiers, Alt-x; a sequence cut between chunks waits for its end", (t) => {
  const d = new KeyDecoder();
  t.deepEqual(names(d.feed("\x1b[A\x1b[B\x1bOC\x1b[D\x1b[H\x1b[F\x1b[3~\x1b[1;5C\x1bb\x1b\x7f\x1b\r")), ["up", "down", "right", "left", "home", "end", "delete", "C-right", "M-b", "M-backspace", "M-return"]);
  t.deepEqual(names(d.feed("\x1b[")), []);
  t.deepEqual(names(d.feed("1;3D")), ["M-left"]);
  t.deepEqual(names(d.feed("\x1b")), ["escape"], "a lone ESC at the end of a chunk is Escape");
});

test("UTF-8 split across chunks, and a bracketed paste (newlines kept, its end marker split)", (t) => {
  const d = new KeyDecoder();
  const bytes = Buffer.from("é→λ", "utf8");
  t.deepEqual(names([...d.feed(bytes.subarray(0, 1)), ...d.feed(bytes.subarray(1, 4)), ...d.feed(bytes.subarray(4))]), ["text:é", "text:→λ"]);
  t.deepEqual(names(d.feed("\x1b[200~(a\r\n b)\x1b[20")), []);
  t.deepEqual(names(d.feed("1~z")), ["paste:(a\n b)", "text:z"]);
});

test("widths: wide characters two columns, combining marks none, escapes none", (t) => {
  t.is(stringWidth("abc"), 3);
  t.is(stringWidth("日本"), 4);
  t.is(stringWidth("e\u0301"), 1);
  t.is(stringWidth("\x1b[31mred\x1b[39m"), 3);
  t.is(stripAnsi("\x1b[1mb\x1b[22m"), "b");
});
