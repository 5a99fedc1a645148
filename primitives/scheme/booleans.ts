// Booleans (R7RS §6.3): not, boolean?, boolean=?.

import { type ProcSpec, T } from "../../interpreter/api.js";

/** not, boolean? and boolean=?. */
export const booleanPrimitives: ProcSpec[] = [
  {
    name: "not",
    params: ["obj"],
    doc: "#t when obj is #f, else #f (every other object, including '() and 0, counts as true).",
    impl: (x: any) => x === false,
  },
  {
    name: "boolean?",
    params: ["obj"],
    doc: "True when obj is #t or #f.",
    impl: (x: any) => typeof x === "boolean",
  },
  {
    name: "boolean=?",
    params: ["boolean1", "boolean2", "boolean ..."],
    types: [T.boolean, T.boolean, T.boolean],
    doc: "True when all the arguments, which must be booleans, are the same boolean.",
    impl(a: boolean, b: boolean, rest: boolean[]) {
      if (a !== b) return false;
      for (const x of rest) if (x !== a) return false;
      return true;
    },
  },
];
