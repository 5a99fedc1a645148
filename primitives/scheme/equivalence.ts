// The equivalence predicates (R7RS §6.1): eqv?, eq? and equal?.

import { type ProcSpec, eq, eqv, equal } from "../../interpreter/api.js";

/** eqv?, eq? and equal?. */
export const equivalencePrimitives: ProcSpec[] = [
  {
    name: "eqv?",
    params: ["obj1", "obj2"],
    doc:
      "True when obj1 and obj2 are the same object, or numbers of the same exactness and value " +
      "(0.0 and -0.0 differ, a NaN is eqv? to a NaN), or characters of the same code point.",
    impl: eqv,
  },
  {
    name: "eq?",
    params: ["obj1", "obj2"],
    doc:
      "True when obj1 and obj2 are the same object. Exact integers and characters that are equal " +
      "are always eq?; inexact and non-integer numbers may not be: compare numbers with eqv? or =.",
    impl: eq,
  },
  {
    name: "equal?",
    params: ["obj1", "obj2"],
    doc:
      "True when obj1 and obj2 have the same structure: pairs and vectors with equal? elements, strings " +
      "with the same characters, bytevectors with the same bytes, other objects eqv?. " +
      "Terminates on circular structures (compared by their infinite unfolding).",
    impl: equal,
  },
];
