// The chunking rule: where a file's chunks begin, from the lines that begin a declaration or a heading.
//
// Seed, "The repository index": a chunk starts at a line beginning a
// declaration or a heading in its first column, once the chunk before has 20
// lines, and has at most 80. So a chunk begins at line k when
//   - the chunk before has at least MIN_LINES lines and line k begins a
//     declaration or a heading in column 1 (isBoundary), or
//   - the chunk before has MAX_LINES lines (a hard cut).
// Lines are numbered from 1 as an editor numbers them: a final newline ends the
// last line and begins none; a file with no text has no chunk.

/** A chunk's first and last line, one-based and inclusive. */
export interface ChunkSpan {
  readonly start: number;
  readonly end: number;
}

/** Lines a chunk has before a declaration or heading may begin the next one. */
export const MIN_LINES = 20;
/** Lines a chunk has at most. */
export const MAX_LINES = 80;

/** Whether headings are Markdown's `#` lines (elsewhere a `#` in column 1 is a comment or a preprocessor line). */
export type TextKind = "markdown" | "code";

const MARKDOWN_EXT = /\.(?:md|markdown|mdx|mkd|mdown|rmd|qmd)$/i;
const RST_EXT = /\.(?:rst|adoc|asciidoc|txt|org)$/i;

/** How a path's text is read for boundaries: Markdown and other prose files by headings, the rest as code. */
export function textKindOf(path: string): TextKind {
  return MARKDOWN_EXT.test(path) || RST_EXT.test(path) ? "markdown" : "code";
}

// Words that, first on a line (after modifiers), begin a declaration in the
// languages a repository commonly holds: TypeScript/JavaScript, Python, Go,
// Rust, Java/Kotlin/C#/Swift/Scala, C/C++, Ruby, PHP, shell, SQL, Lua, Elixir…
const DECLARATION_WORDS = new Set([
  "function", "class", "interface", "type", "enum", "struct", "trait", "impl", "union",
  "def", "defp", "defmodule", "defmacro", "fn", "func", "fun", "sub", "proc", "method",
  "module", "namespace", "package", "object", "record", "typedef", "template", "concept",
  "const", "let", "var", "val", "macro", "mod", "protocol", "extension", "actor",
  "create", "alter", "declare", "local", "library", "contract", "test", "describe", "it",
]);

// Words that may stand before the declaration word itself.
const MODIFIER_WORDS = new Set([
  "export", "default", "pub", "async", "static", "public", "private", "protected", "internal",
  "abstract", "final", "sealed", "open", "override", "extern", "inline", "unsafe", "declare",
  "data", "case", "inner", "lazy", "suspend", "partial", "virtual", "constexpr", "mutable",
  "or", "replace", "unique", "temporary", "temp", "global", "readonly", "opaque", "indirect",
  "fileprivate", "dynamic", "infix", "prefix", "postfix", "operator", "tailrec", "external",
  "signed", "unsigned", "volatile", "noinline", "crossinline", "reified", "value", "enum",
]);

/** The C family's definitions: a type and a name, then `(`, in column 1 (`int main(`, `static void *f(`, `void Foo::run(`). */
const C_DEFINITION = /^[A-Za-z_][\w:<>,*& \t]*?[\s*&]([A-Za-z_~][\w:~]*)\s*\(/;
/** Lisp family: (define …), (defun …), (defmacro …), (def …), (deftype …), (module …), (library …). */
const LISP_DEFINITION = /^\((?:def[\w-]*|define[\w-]*|module|library|struct|class)\b/;

/** Whether a character code may start an identifier (ASCII letter or `_`). */
function isIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 0x5f;
}

function isIdentChar(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57);
}

/** Whether a line begins a declaration or a heading in its first column (`next`: the line after it, for setext headings). */
export function isBoundary(line: string, kind: TextKind, next?: string): boolean {
  const c = line.charCodeAt(0);
  if (Number.isNaN(c)) return false;
  if (kind === "markdown") {
    if (c === 0x23) return /^#{1,6}(?:\s|$)/.test(line); // # heading
    // Setext heading: a text line underlined by === or ---.
    if (next !== undefined && c !== 0x20 && c !== 0x09 && (next.charCodeAt(0) === 0x3d || next.charCodeAt(0) === 0x2d) && /^(?:=+|-+)\s*$/.test(next) && line.trim() !== "") return true;
    return false;
  }
  if (c === 0x28) return LISP_DEFINITION.test(line); // (
  if (c === 0x40) return isIdentStart(line.charCodeAt(1)); // @: a decorator or annotation begins what it decorates
  if (c === 0x23) return line.startsWith("#[") || /^#\s*define\s/.test(line); // Rust attribute, C macro
  if (!isIdentStart(c)) return false;
  // The first words, up to the declaration word (modifiers before it).
  let at = 0;
  for (let k = 0; k < 6; k++) {
    let j = at;
    while (j < line.length && isIdentChar(line.charCodeAt(j))) j++;
    if (j === at) break;
    const w = line.slice(at, j).toLowerCase();
    let after = j;
    if (line.charCodeAt(after) === 0x21 && w === "macro_rules") return true; // macro_rules!
    if (DECLARATION_WORDS.has(w)) {
      // `function`, `const`, `type` … followed by a space, `<`, `(`, `:`, `{`, `*` or the end.
      const d = line.charCodeAt(after);
      return Number.isNaN(d) || d === 0x20 || d === 0x09 || d === 0x3c || d === 0x28 || d === 0x3a || d === 0x7b || d === 0x2a;
    }
    if (!MODIFIER_WORDS.has(w)) break;
    // pub(crate), pub(super)
    if (line.charCodeAt(after) === 0x28) {
      const close = line.indexOf(")", after);
      if (close === -1) break;
      after = close + 1;
    }
    while (line.charCodeAt(after) === 0x20 || line.charCodeAt(after) === 0x09) after++;
    at = after;
  }
  const paren = line.indexOf("(");
  if (paren === -1) return false;
  // A shell function: `name() {`.
  if (/^[A-Za-z_][\w-]*\s*\(\)\s*(?:\{|$)/.test(line)) return true;
  // C, C++, Java without a declaration word: `int main(int argc…)`, `static void f(void)`, `void Foo::run()`.
  if (/;\s*$/.test(line) || /^(?:return|if|while|for|switch|else|do|goto|case|throw|delete|new|sizeof)\b/.test(line)) return false;
  return C_DEFINITION.test(line);
}

/**
 * The chunks of a text given as its lines (without their newlines): spans in
 * order, covering every line once.
 */
export function chunkLines(lines: readonly string[], kind: TextKind): ChunkSpan[] {
  return spansOf(chunkStarts(lines.length, (k) => lines[k - 1] as string, kind), lines.length);
}

/**
 * The first line of each chunk of a text of `n` lines, line k being `line(k)`
 * (asked only for the lines that could begin a chunk, and the one after it in
 * Markdown).
 */
export function chunkStarts(n: number, line: (k: number) => string, kind: TextKind): number[] {
  const starts: number[] = [];
  if (n === 0) return starts;
  starts.push(1);
  let start = 1;
  for (let k = 2; k <= n; k++) {
    const have = k - start; // lines in the current chunk before line k
    if (have >= MAX_LINES || (have >= MIN_LINES && isBoundary(line(k), kind, kind === "markdown" && k < n ? line(k + 1) : undefined))) {
      starts.push(k);
      start = k;
    }
  }
  return starts;
}

/** Chunk spans from their first lines and the text's line count. */
export function spansOf(starts: readonly number[], n: number): ChunkSpan[] {
  return starts.map((s, i) => ({ start: s, end: i + 1 < starts.length ? (starts[i + 1] as number) - 1 : n }));
}

/**
 * Where each line of a text begins (offsets), as textLines numbers them: a
 * final newline ends the last line and begins none. Line k (1-based) is
 * text.slice(at[k-1], at[k] - 1), less a "\r" before its newline.
 */
export function lineOffsets(text: string): number[] {
  const at: number[] = [];
  if (text.length === 0) return at;
  at.push(0);
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) if (i + 1 < text.length) at.push(i + 1);
  return at;
}

/** A text's lines as an editor numbers them: split at "\n" (a "\r" before it dropped), no line after a final newline. */
export function textLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as string;
    if (l.charCodeAt(l.length - 1) === 13) lines[i] = l.slice(0, -1);
  }
  return lines;
}
