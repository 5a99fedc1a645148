// The chunking rule on sources in several languages and on Markdown.
import test from "ava";
import { MAX_LINES, MIN_LINES, chunkLines, isBoundary, textKindOf, textLines, type ChunkSpan } from "../../../host/index/index.js";

/** `n` filler lines that begin nothing (indented code or prose). */
function filler(n: number, s = "  x = x + 1;"): string[] {
  return Array(n).fill(s);
}

function spans(lines: string[], path: string): string {
  return chunkLines(lines, textKindOf(path))
    .map((c: ChunkSpan) => `${c.start}-${c.end}`)
    .join(" ");
}

test("a chunk begins at a declaration in column 1 only once the one before has 20 lines", (t) => {
  const lines = ["export function a() {", ...filler(9), "}", "export function b() {", ...filler(12), "}", "export function c() {", ...filler(3), "}"];
  // b starts at line 12: the chunk before has 11 lines, too few; c starts at line 26, after 25 lines: a boundary.
  t.is(spans(lines, "x.ts"), "1-25 26-30");
});

test("a chunk has at most 80 lines: a long declaration is cut every 80 lines", (t) => {
  const lines = ["function long() {", ...filler(200), "}"];
  t.is(spans(lines, "x.js"), "1-80 81-160 161-202");
  t.is(MAX_LINES, 80);
  t.is(MIN_LINES, 20);
});

test("indented declarations and calls do not begin a chunk", (t) => {
  const lines = ["class A {", ...filler(25), "  method() {", ...filler(25), "  }", "}"];
  t.is(spans(lines, "a.ts"), "1-54");
});

const LANGS: [string, string, boolean][] = [
  // TypeScript / JavaScript
  ["a.ts", "export function f() {", true],
  ["a.ts", "export default class X {", true],
  ["a.ts", "export async function* g() {", true],
  ["a.ts", "const x = 1;", true],
  ["a.ts", "interface Foo<T> {", true],
  ["a.ts", "type Id = string;", true],
  ["a.ts", "describe(\"thing\", () => {", true],
  ["a.ts", "foo(1);", false],
  ["a.ts", "}", false],
  ["a.ts", "// a comment", false],
  ["a.ts", "import { a } from \"b\";", false],
  // Python
  ["a.py", "def main():", true],
  ["a.py", "async def fetch(url):", true],
  ["a.py", "class Config:", true],
  ["a.py", "@dataclass", true],
  ["a.py", "if __name__ == \"__main__\":", false],
  ["a.py", "# a comment", false],
  // Go
  ["a.go", "func (s *Server) Serve() error {", true],
  ["a.go", "type Server struct {", true],
  ["a.go", "var ErrClosed = errors.New(\"closed\")", true],
  ["a.go", "package main", true],
  // Rust
  ["a.rs", "pub fn parse(s: &str) -> Result<()> {", true],
  ["a.rs", "pub(crate) struct Reader {", true],
  ["a.rs", "impl Display for Error {", true],
  ["a.rs", "#[derive(Debug)]", true],
  ["a.rs", "macro_rules! hello {", true],
  ["a.rs", "mod tests {", true],
  // C and C++
  ["a.c", "int main(int argc, char **argv)", true],
  ["a.c", "static void *worker(void *arg) {", true],
  ["a.c", "#define MAX 10", true],
  ["a.c", "#include <stdio.h>", false],
  ["a.c", "int x = compute(1);", false],
  ["a.cc", "void Foo::run() {", true],
  ["a.cc", "template <typename T>", true],
  // Java, Kotlin, C#
  ["A.java", "public final class A {", true],
  ["A.kt", "data class Point(val x: Int)", true],
  ["A.kt", "fun main() {", true],
  // Ruby, shell, Lua, SQL, Scheme
  ["a.rb", "module Foo", true],
  ["a.sh", "deploy() {", true],
  ["a.sh", "function deploy {", true],
  ["a.sh", "echo hi", false],
  ["a.lua", "local function f()", true],
  ["a.sql", "CREATE TABLE doc (", true],
  ["a.scm", "(define (greet name)", true],
  ["a.scm", "(define-syntax swap!", true],
  ["a.scm", "(display 1)", false],
  // Markdown: headings, not code words
  ["a.md", "# Title", true],
  ["a.md", "### Deep heading", true],
  ["a.md", "#hashtag", false],
  ["a.md", "function is a word here", false],
];

for (const [path, line, want] of LANGS) {
  test(`${path}: ${JSON.stringify(line)} ${want ? "begins" : "does not begin"} a chunk`, (t) => {
    t.is(isBoundary(line, textKindOf(path)), want);
  });
}

test("Markdown is cut at its headings, setext ones too", (t) => {
  const md = ["# Guide", ...filler(22, "Some prose."), "## Install", ...filler(22, "More prose."), "Usage", "=====", ...filler(3, "text")];
  t.is(spans(md, "docs/guide.md"), "1-23 24-46 47-51");
});

test("a Python module and a Go file are cut at their top-level definitions", (t) => {
  const py = ["import os", "", "def a():", ...filler(20, "    pass"), "", "@decorator", "def b():", ...filler(5, "    pass")];
  t.is(spans(py, "m.py"), "1-24 25-31");
  const go = ["package main", "", "func a() {", ...filler(20, "\tx++"), "}", "", "func b() {", "}"];
  t.is(spans(go, "m.go"), "1-25 26-27");
});

test("textLines numbers lines as an editor does", (t) => {
  t.deepEqual(textLines(""), []);
  t.deepEqual(textLines("a"), ["a"]);
  t.deepEqual(textLines("a\n"), ["a"]);
  t.deepEqual(textLines("a\n\n"), ["a", ""]);
  t.deepEqual(textLines("a\r\nb\r\n"), ["a", "b"]);
  t.deepEqual(chunkLines([], "code"), []);
});
