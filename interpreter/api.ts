// The embedding API: the one entry of interpreter/ that primitives/, host/ and embedders import.
export * from "./values/index.js";
export * from "./errors.js";
export * from "./procspec.js";
export * from "./ctx.js";
export { writeToString, writeShort, type WriteMode } from "./printer/printer.js";
export { Reader, locationOf, type ReadOptions } from "./reader/reader.js";
export {
  Interpreter,
  EvalError,
  Environment,
  formatRaised,
  backtraceOf,
  BASE_FEATURES,
  type InterpreterOptions,
  type EvalOptions,
} from "./interpreter.js";
export type { Limits, Outcome } from "./machine/runtime.js";
export { DEFAULT_MEMORY_BYTES, jsStackRoom } from "./machine/runtime.js";
export type { HeapProbe } from "./machine/heap.js";
export { spend, allocate, COST, STEP_NS, LimitStop, type Budget } from "./budget.js";
export type { LibraryLoader, Library } from "./expander/library.js";
export { TAIL } from "./machine/runtime.js";
