// The history file: entries appended as accepted, multi-line entries whole, two writers, the size bound, where it lives.
import test from "ava";
import { readFileSync, writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { History, decodeEntry, encodeEntry, historyFile } from "../../../../host/cli/terminal/history.js";
import { tempDir } from "../../../helpers/cli.js";

test("an entry with newlines and backslashes round-trips through one line", (t) => {
  for (const e of ["(a)", "(define (f)\n  1)", 'x "\\\\n" y', "\\n literally", "a\\\nb"]) {
    t.false(encodeEntry(e).includes("\n"));
    t.is(decodeEntry(encodeEntry(e)), e);
  }
});

test("two histories on one file keep both's entries, in order; blank and repeated entries are not kept", (t) => {
  const f = join(tempDir(), "h");
  const a = new History({ file: f });
  const b = new History({ file: f });
  a.add("(one)");
  b.add("(two)\n  more");
  a.add("(three)");
  a.add("(three)");
  a.add("   ");
  t.deepEqual(new History({ file: f }).entries, ["(one)", "(two)\n  more", "(three)"]);
  t.deepEqual(a.entries, ["(one)", "(three)"], "each keeps its own in memory");
});

test("the file is rewritten with its last entries when it grows past twice the limit", (t) => {
  const f = join(tempDir(), "h");
  const h = new History({ file: f, max: 5 });
  for (let i = 0; i < 11; i++) h.add(`(e ${i})`);
  const lines = readFileSync(f, "utf8").trim().split("\n");
  t.true(lines.length <= 10, `${lines.length} lines`);
  t.is(lines.at(-1), "(e 10)");
  t.deepEqual(new History({ file: f, max: 5 }).entries, ["(e 6)", "(e 7)", "(e 8)", "(e 9)", "(e 10)"]);
});

test("a history file that cannot be written says so once and keeps the entries in memory", (t) => {
  const dir = tempDir();
  const f = join(dir, "h");
  writeFileSync(f, "(old)\n");
  chmodSync(f, 0o400);
  const said: string[] = [];
  const h = new History({ file: f, onError: (m) => said.push(m) });
  h.add("(a)");
  h.add("(b)");
  if (process.getuid?.() === 0) {
    t.pass("root writes a read-only file anyway");
    return;
  }
  t.is(said.length, 1);
  t.regex(said[0]!, /cannot write the history file/);
  t.deepEqual(h.entries, ["(old)", "(a)", "(b)"]);
});

test("where it lives: NODWYN_REPL_HISTORY, empty for none, else ~/.nodwyn_history", (t) => {
  t.is(historyFile({ NODWYN_REPL_HISTORY: "/x/y", HOME: "/h" }), "/x/y");
  t.is(historyFile({ NODWYN_REPL_HISTORY: "", HOME: "/h" }), null);
  t.is(historyFile({ HOME: "/h" }), "/h/.nodwyn_history");
});
