// The value kinds, re-exported as one module for the rest of the interpreter.
export * from "./pair.js";
export * from "./symbol.js";
export * from "./char.js";
export * from "./string.js";
export * from "./misc.js";
export * from "./loc.js";
export * from "./procedure.js";
export * from "./record.js";
export * from "./condition.js";
export * from "./numbers/repr.js";
export * from "./numbers/arith.js";
export * from "./numbers/parse.js";
export * from "./numbers/format.js";
export * from "./equal.js";
export * from "./port.js";
/** Ordering of two real numbers for sorts outside the interpreter (SRFI 132): negative, zero, positive, NaN. */
export { compare as numCompare } from "./numbers/ops.js";
