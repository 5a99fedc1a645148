// Singleton values and small value kinds: unspecified, eof, default, multiple values, boxes.

export class Unspecified {
  toString(): string {
    return "#<unspecified>";
  }
}
/** The value of expressions whose value R7RS leaves unspecified. */
export const UNSPECIFIED: Unspecified = new Unspecified();

export class Eof {
  toString(): string {
    return "#<eof>";
  }
}
export const EOF: Eof = new Eof();

/** Marks an optional argument that was not passed (never visible to Scheme code). */
export class DefaultObject {
  toString(): string {
    return "#<default>";
  }
}
export const DEFAULT: DefaultObject = new DefaultObject();

/** The value of a letrec variable before its initialisation has run. */
export class Uninitialized {
  toString(): string {
    return "#<uninitialized>";
  }
}
export const UNINIT: Uninitialized = new Uninitialized();

/** Zero or several values from `values`; exactly one value is never wrapped. */
export class MultipleValues {
  readonly vals: any[];
  constructor(vals: any[]) {
    this.vals = vals;
  }
}

/** `(values v ...)`: one value stays itself, any other count is wrapped. */
export function makeValues(vals: any[]): any {
  return vals.length === 1 ? vals[0] : new MultipleValues(vals);
}

/** The values carried by `v` as an array (one element unless `v` is MultipleValues). */
export function valuesToArray(v: any): any[] {
  return v instanceof MultipleValues ? v.vals : [v];
}

/** A mutable cell: assigned variables captured by closures live in one. */
export class Box {
  v: any;
  constructor(v: any) {
    this.v = v;
  }
}
