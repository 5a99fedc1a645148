// What the SRFI libraries written in Scheme need from TypeScript: errors that read like the primitives' own.
//
// A Scheme procedure of an SRFI checks its arguments and raises through these,
// so that `(fold 5 0 '(1))` reads `bad argument #1 to 'fold' (procedure
// expected, got 5)`, as a TypeScript primitive's error would.

import { type ProcSpec, T, MString, Sym, argError, rangeError } from "../../interpreter/api.js";

const whoName = (who: any): string => (who instanceof Sym ? who.name : who instanceof MString ? who.toString() : String(who));

/** The procedures of (nodwyn primitives srfi support). */
export const supportPrimitives: ProcSpec[] = [
  {
    name: "arg-error",
    params: ["who", "arg-no", "expected", "got"],
    types: [null, T.index, T.string, null],
    doc: "Raises a type error: `bad argument #arg-no to 'who' (expected expected, got got)`.",
    impl: (who: any, n: number, expected: MString, got: any) => argError(whoName(who), n, expected.toString(), got),
  },
  {
    name: "range-error",
    params: ["who", "arg-no", "detail", "got"],
    types: [null, T.index, T.string, null],
    doc: "Raises a range error: `bad argument #arg-no to 'who' (detail)`.",
    impl: (who: any, n: number, detail: MString, got: any) => rangeError(whoName(who), n, detail.toString(), got),
  },
];
