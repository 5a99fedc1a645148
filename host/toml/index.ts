// TOML read with places: smol-toml parses, the scanner finds where each key is, the checker holds a document to a schema.

import { parse, TomlError } from "smol-toml";
import { tomlPlaces, type Places } from "./places.js";

export { tomlPlaces, formatKeyPath, Places, type Place, type KeyPath } from "./places.js";
export { checkTable, typeName, isTable, type Field, type Schema, type Problem } from "./check.js";

/** A document that is not TOML: where, and what the parser said (its first line, without the code excerpt). */
export class TomlSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly col: number,
    readonly detail: string,
  ) {
    super(`${line}:${col}: ${detail}`);
    this.name = "TomlSyntaxError";
  }
}

/** A parsed document and the places of its keys. */
export interface TomlDocument {
  readonly value: Record<string, unknown>;
  readonly places: Places;
}

/** Parses TOML text; throws TomlSyntaxError with the line and column of the first error. */
export function parseToml(text: string): TomlDocument {
  let value: Record<string, unknown>;
  try {
    value = parse(text) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof TomlError) {
      const first = e.message.split("\n")[0] ?? "";
      const detail = first.replace(/^Invalid TOML document:\s*/, "") || "invalid TOML";
      throw new TomlSyntaxError(e.line, e.column, detail);
    }
    throw e;
  }
  return { value, places: tomlPlaces(text) };
}
