// The embedding API: the one entry of interpreter/ that primitives/, host/ and embedders import.
export * from "./values/index.js";
export * from "./errors.js";
export * from "./procspec.js";
export * from "./ctx.js";
export { writeToString, writeShort, type WriteMode } from "./printer/printer.js";
export { Reader, locationOf, type ReadOptions } from "./reader/reader.js";
