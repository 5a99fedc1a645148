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

/** The C family's definitions: a type and a name, then `(`, in column 1 (`int main(`, `static void *f(`). */
const C_DEFINITION = /^[A-Za-z_][\w:<>,*& \t]*?[\s*&]([A-Za-z_~][\w:~]*)\s*\(/;
/** Lisp family: (define …), (defun …), (defmacro …), (def …), (deftype …), (module …), (library …). */
const LISP_DEFINITION = /^\((?:def[\w-]*|define[\w-]*|module|library|struct|class)\b/;

/** Whether a line begins a declaration or a heading in its first column. */
export function isBoundary(line: string, kind: TextKind, next?: string): boolean {
  const c = line.charCodeAt(0);
  if (Number.isNaN(c)) return false;
  if (kind === "markdown") {
    if (c === 0x23) return /^#{1,6}(?:\s|$)/.test(line); // # heading
    // Setext heading: a text line underlined by === or ---.
    if (next !== undefined && c !== 0x20 && c !== 0x09 && /^(?:=+|-+)\s*$/.test(next) && line.trim() !== "") return true;
    return false;
  }
  if (c === 0x28) return LISP_DEFINITION.test(line); // (
  if (c === 0x40) return /^@[A-Za-z_]/.test(line); // a decorator or annotation begins what it decorates
  if (c === 0x23) return /^#\s*define\s/.test(line) || line.startsWith("#["); // C macro, Rust attribute
  if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 0x5f)) return false;
  // The first words, up to the declaration word.
  const words = /^[A-Za-z_][\w!]*(?:\([\w:]*\))?/;
  let rest = line;
  for (let k = 0; k < 6; k++) {
    const m = words.exec(rest);
    if (m === null) break;
    const w = m[0].replace(/\(.*$/, "").replace(/!$/, "").toLowerCase();
    if (DECLARATION_WORDS.has(w)) {
      // `let`, `const`, `var`, `val` at column 1 are top-level bindings; `type x = …` too.
      const after = rest.slice(m[0].length);
      return after === "" || /^[\s<(:{*]/.test(after);
    }
    if (w === "macro_rules") return true;
    if (!MODIFIER_WORDS.has(w)) break;
    rest = rest.slice(m[0].length).replace(/^\s+/, "");
  }
  // A shell function: `name() {`.
  if (/^[A-Za-z_][\w-]*\s*\(\)\s*(?:\{|$)/.test(line)) return true;
  // C, C++, Java without a declaration word: `int main(int argc…)`, `static void f(void)`, `Foo::Foo()`.
  if (C_DEFINITION.test(line) && !/;\s*$/.test(line) && !/^(?:return|if|while|for|switch|else|do|goto|case)\b/.test(line)) return true;
  return false;
}

/**
 * The chunks of a text given as its lines (without their newlines): spans in
 * order, covering every line once.
 */
export function chunkLines(lines: readonly string[], kind: TextKind): ChunkSpan[] {
  const n = lines.length;
  const out: ChunkSpan[] = [];
  if (n === 0) return out;
  let start = 1;
  for (let k = 2; k <= n; k++) {
    const have = k - start; // lines in the current chunk before line k
    if (have >= MAX_LINES || (have >= MIN_LINES && isBoundary(lines[k - 1] as string, kind, lines[k]))) {
      out.push({ start, end: k - 1 });
      start = k;
    }
  }
  out.push({ start, end: n });
  return out;
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
