// A light lexical view of Scheme text for the REPL: identifiers at the cursor, open parentheses, where a name occurs.
//
// Not a reader (the interpreter's reader decides what a form is): it only
// tells strings, comments, character literals and identifiers apart, which is
// all that completion, indentation and pointing at a name need.

/** Characters that end an identifier. */
const DELIMITER = /[\s()[\]{}"';`,|]/;

export function isIdentifierChar(c: string): boolean {
  return !DELIMITER.test(c);
}

/** The identifier (or part of one) ending at `cursor`: its start and text. */
export function wordBefore(text: string, cursor: number): { start: number; word: string } {
  let i = cursor;
  while (i > 0 && isIdentifierChar(text[i - 1] as string)) i--;
  return { start: i, word: text.slice(i, cursor) };
}

interface Token {
  readonly kind: "open" | "close" | "string" | "comment" | "atom" | "char";
  readonly start: number;
  readonly end: number;
}

/** The tokens of `text`, tolerant of anything unfinished (an open string runs to the end). */
export function tokens(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const start = i;
    if (c === "(" || c === "[") {
      out.push({ kind: "open", start, end: ++i });
      continue;
    }
    if (c === ")" || c === "]") {
      out.push({ kind: "close", start, end: ++i });
      continue;
    }
    if (c === ";") {
      while (i < n && text[i] !== "\n") i++;
      out.push({ kind: "comment", start, end: i });
      continue;
    }
    if (c === "#" && text[i + 1] === "|") {
      // Nested block comment.
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (text.startsWith("|#", i)) {
          depth--;
          i += 2;
        } else if (text.startsWith("#|", i)) {
          depth++;
          i += 2;
        } else i++;
      }
      out.push({ kind: "comment", start, end: i });
      continue;
    }
    if (c === '"' || c === "|") {
      i++;
      while (i < n && text[i] !== c) i += text[i] === "\\" ? 2 : 1;
      i = Math.min(n, i + 1);
      out.push({ kind: c === '"' ? "string" : "atom", start, end: i });
      continue;
    }
    if (c === "#" && text[i + 1] === "\\") {
      // #\( is a character, not a parenthesis: one character at least, then up to a delimiter.
      i += 3;
      while (i < n && isIdentifierChar(text[i] as string)) i++;
      out.push({ kind: "char", start, end: Math.min(i, n) });
      continue;
    }
    if (c === "#" && (text[i + 1] === "(" || (text[i + 1] === "u" && text.startsWith("#u8(", i)))) {
      i += text[i + 1] === "(" ? 2 : 4;
      out.push({ kind: "open", start, end: i });
      continue;
    }
    if (c === "'" || c === "`" || c === ",") {
      i += c === "," && text[i + 1] === "@" ? 2 : 1;
      continue;
    }
    while (i < n && isIdentifierChar(text[i] as string)) i++;
    if (i === start) i++;
    out.push({ kind: "atom", start, end: i });
  }
  return out;
}

/** 0-based line and column (in code points) of an offset. */
function position(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset);
  const nl = before.lastIndexOf("\n");
  let line = 0;
  for (let i = before.indexOf("\n"); i !== -1; i = before.indexOf("\n", i + 1)) line++;
  return { line, col: [...before.slice(nl + 1)].length };
}

/**
 * The indentation of a new line after `before`: two columns in from the
 * innermost parenthesis still open, or under its first operand for a call
 * whose first operand is on the same line; nothing at the top level.
 */
export function indentAfter(before: string): string {
  const stack: Token[][] = [];
  for (const t of tokens(before)) {
    if (t.kind === "open") stack.push([t]);
    else if (t.kind === "close") stack.pop();
    else if (t.kind !== "comment") stack[stack.length - 1]?.push(t);
  }
  const inner = stack[stack.length - 1];
  if (inner === undefined) return "";
  const open = inner[0] as Token;
  const col = position(before, open.end).col;
  return " ".repeat(col + 1);
}

/** Whether the text holds nothing but whitespace and comments. */
export function isBlank(text: string): boolean {
  return tokens(text).every((t) => t.kind === "comment");
}
