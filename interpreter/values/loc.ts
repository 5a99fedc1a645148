// Source locations: where a datum, a form or a failing call came from.

export interface SourceLoc {
  readonly file: string;
  /** 1-based line. */
  readonly line: number;
  /** 1-based column, in code points. */
  readonly col: number;
}

export function formatLoc(loc: SourceLoc | undefined | null): string {
  return loc ? `${loc.file}:${loc.line}:${loc.col}` : "";
}
