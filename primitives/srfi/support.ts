// What the SRFI libraries written in Scheme need from TypeScript: errors that read like the primitives' own.
//
// A Scheme procedure of an SRFI checks its arguments and raises through these,
// so that `(fold 5 0 '(1))` reads `bad argument #1 to 'fold' (procedure
// expected, got 5)`, as a TypeScript primitive's error would.

import { type ProcSpec, T, MString, Sym, Record, RecordType, UNSPECIFIED, argError, rangeError } from "../../interpreter/api.js";

const rtdT = { name: "record type", test: (x: any) => x instanceof RecordType };

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
  // For (nodwyn match)'s $ patterns: a record's fields by position, checked against its type.
  {
    name: "record-of?",
    params: ["rtd", "obj"],
    types: [rtdT, null],
    doc: "Whether obj is a record of the record type rtd.",
    impl: (rtd: RecordType, x: any) => x instanceof Record && x.rtd === rtd,
  },
  {
    name: "record-field",
    params: ["rtd", "obj", "k"],
    types: [rtdT, null, T.index],
    doc: "Field k (from 0, in define-record-type's order) of obj, a record of type rtd.",
    impl: (rtd: RecordType, x: any, k: number) => {
      if (!(x instanceof Record && x.rtd === rtd)) return argError("record-field", 2, rtd.name, x);
      if (k >= rtd.fields.length) return rangeError("record-field", 3, `record type ${rtd.name} has ${rtd.fields.length} fields`, k);
      return x.f[k];
    },
  },
  {
    name: "record-field-set!",
    params: ["rtd", "obj", "k", "value"],
    types: [rtdT, null, T.index, null],
    doc: "Stores value in field k (from 0) of obj, a record of type rtd.",
    impl: (rtd: RecordType, x: any, k: number, v: any) => {
      if (!(x instanceof Record && x.rtd === rtd)) return argError("record-field-set!", 2, rtd.name, x);
      if (k >= rtd.fields.length) return rangeError("record-field-set!", 3, `record type ${rtd.name} has ${rtd.fields.length} fields`, k);
      x.f[k] = v;
      return UNSPECIFIED;
    },
  },
];
