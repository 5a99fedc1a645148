// The standard procedure tables: everything R7RS-small defines in TypeScript, in one list.
import type { ProcSpec } from "../interpreter/api.js";
import { equivalencePrimitives } from "./scheme/equivalence.js";
import { booleanPrimitives } from "./scheme/booleans.js";
import { numberPrimitives } from "./scheme/numbers.js";
import { listPrimitives } from "./scheme/lists.js";
import { symbolPrimitives } from "./scheme/symbols.js";
import { charPrimitives } from "./scheme/chars.js";
import { stringPrimitives } from "./scheme/strings.js";
import { vectorPrimitives } from "./scheme/vectors.js";
import { bytevectorPrimitives } from "./scheme/bytevectors.js";
import { ioPrimitives } from "./scheme/io.js";
import { systemPrimitives } from "./scheme/system.js";

/** Every table of R7RS procedures implemented in TypeScript, grouped by report chapter. */
export const schemeTables: ReadonlyArray<{ readonly chapter: string; readonly specs: readonly ProcSpec[] }> = [
  { chapter: "6.1 Equivalence predicates", specs: equivalencePrimitives },
  { chapter: "6.2 Numbers", specs: numberPrimitives },
  { chapter: "6.3 Booleans", specs: booleanPrimitives },
  { chapter: "6.4 Pairs and lists", specs: listPrimitives },
  { chapter: "6.5 Symbols", specs: symbolPrimitives },
  { chapter: "6.6 Characters", specs: charPrimitives },
  { chapter: "6.7 Strings", specs: stringPrimitives },
  { chapter: "6.8 Vectors", specs: vectorPrimitives },
  { chapter: "6.9 Bytevectors", specs: bytevectorPrimitives },
  { chapter: "6.13 Input and output", specs: ioPrimitives },
  { chapter: "6.14 System interface", specs: systemPrimitives },
];

/** All of them as one list, for an interpreter's `primitives` option. */
export const schemePrimitives: readonly ProcSpec[] = schemeTables.flatMap((t) => t.specs);
