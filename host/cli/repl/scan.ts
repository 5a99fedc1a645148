// A light lexical view of Scheme text for the REPL: the identifier at the cursor, the indentation of a new line, blank entries.
//
// Not a reader (the interpreter's reader decides what a form is): the tokens
// (host/session/diagnose.ts) tell strings, comments, characters and
// identifiers apart, which is all that completion and indentation need.

import { isIdentifierChar, schemeTokens, type Token } from "../../session/diagnose.js";

/** The identifier (or part of one) ending at `cursor`: its start and text. */
export function wordBefore(text: string, cursor: number): { start: number; word: string } {
  let i = cursor;
  while (i > 0 && isIdentifierChar(text[i - 1] as string)) i--;
  return { start: i, word: text.slice(i, cursor) };
}

/** 0-based column (in code points) of an offset. */
function columnOf(text: string, offset: number): number {
  const before = text.slice(0, offset);
  return [...before.slice(before.lastIndexOf("\n") + 1)].length;
}

/**
 * The indentation of a new line after `before`: two columns in from the
 * innermost parenthesis still open (where a body goes), nothing at the top level.
 */
export function indentAfter(before: string): string {
  const stack: Token[] = [];
  for (const t of schemeTokens(before)) {
    if (t.kind === "open") stack.push(t);
    else if (t.kind === "close") stack.pop();
  }
  const inner = stack[stack.length - 1];
  if (inner === undefined) return "";
  return " ".repeat(columnOf(before, inner.end) + 1);
}

/** Whether the text holds nothing but whitespace and comments. */
export function isBlank(text: string): boolean {
  return schemeTokens(text).every((t) => t.kind === "comment");
}
