// Source text split into its top-level forms, each evaluable on its own with its locations unchanged.

import { Condition, EOF, Reader, SchemeError, SymbolTable, locationOf } from "../../interpreter/api.js";

/** One top-level form of a text. */
export interface SourceForm {
  /** 1-based, in order. */
  readonly index: number;
  readonly line: number;
  readonly col: number;
  /** The form's own text (from the end of the previous form). */
  readonly text: string;
  /**
   * The text before it blanked (newlines kept, everything else a space) and
   * the form: read from the start, its locations are those it has in the whole.
   */
  readonly padded: string;
}

/** Splits `text` into forms; a malformed or incomplete text gives the reader's condition. */
export function splitForms(text: string, file: string): { ok: true; forms: SourceForm[] } | { ok: false; condition: Condition } {
  const reader = new Reader(text, { file, symbols: new SymbolTable(), locations: true });
  const forms: SourceForm[] = [];
  let prev = 0;
  for (;;) {
    let d: unknown;
    try {
      d = reader.read();
    } catch (e) {
      if (e instanceof SchemeError) return { ok: false, condition: e.condition };
      throw e;
    }
    if (d === EOF) break;
    const end = reader.offset;
    const own = text.slice(prev, end);
    const loc = locationOf(d);
    const pos = loc ?? positionOf(text, prev + (own.length - own.trimStart().length));
    forms.push({ index: forms.length + 1, line: pos.line, col: pos.col, text: own, padded: text.slice(0, prev).replace(/[^\n]/g, " ") + own });
    prev = end;
  }
  return { ok: true, forms };
}

/** 1-based line and column (in code points) of a UTF-16 offset. */
export function positionOf(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, col: [...text.slice(start, offset)].length + 1 };
}
