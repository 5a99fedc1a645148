// A parsed TOML document checked against a table-driven schema: unknown keys, wrong types and missing keys, each with its place.

import { TomlDate } from "smol-toml";
import { formatKeyPath, type KeyPath, type Place, type Places } from "./places.js";

interface Common {
  /** One line saying what the key is for (shown in docs and in "known keys" lists). */
  readonly doc: string;
  readonly required?: boolean;
}

/** What a key may hold. */
export type Field =
  | (Common & { readonly type: "string"; readonly enum?: readonly string[]; readonly pattern?: RegExp; readonly patternDoc?: string })
  | (Common & { readonly type: "integer"; readonly min?: number; readonly max?: number })
  | (Common & { readonly type: "number"; readonly min?: number; readonly max?: number })
  | (Common & { readonly type: "boolean" })
  /** An array of strings. */
  | (Common & { readonly type: "strings" })
  /** A table whose values are all strings (names are free). */
  | (Common & { readonly type: "string-table" })
  /** A table with these keys. */
  | (Common & { readonly type: "table"; readonly fields: Schema })
  /** A table of named tables, each with these keys ([servers.NAME]). */
  | (Common & { readonly type: "named-tables"; readonly each: Schema })
  /** An array of tables, each with these keys ([[reply]]). */
  | (Common & { readonly type: "table-array"; readonly each: Schema })
  /** A table checked by someone else (e.g. [guard], by the guard's own parser). */
  | (Common & { readonly type: "foreign-table" })
  /** Any TOML value that is also JSON (no dates): a table, array, string, number or boolean. */
  | (Common & { readonly type: "json" });

/** The keys of a table. */
export type Schema = Readonly<Record<string, Field>>;

/** What is wrong with a document, at one key. */
export interface Problem {
  readonly code: "unknown-key" | "type" | "missing" | "value";
  readonly path: KeyPath;
  readonly message: string;
  readonly place: Place;
}

/** The TOML type of a value, as an error message names it ("an integer", "a table"). */
export function typeName(v: unknown): string {
  if (typeof v === "string") return "a string";
  if (typeof v === "boolean") return "a boolean";
  if (typeof v === "number") return Number.isInteger(v) ? "an integer" : "a float";
  if (typeof v === "bigint") return "an integer";
  if (v instanceof TomlDate) return "a date";
  if (Array.isArray(v)) return "an array";
  if (v !== null && typeof v === "object") return "a table";
  return "nothing";
}

/** True for a TOML table (smol-toml's null-prototype objects included), not an array or date. */
export function isTable(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof TomlDate);
}

function show(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? v.slice(0, 40) + "…" : v);
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") return String(v);
  return "";
}

const WANT: Record<Field["type"], string> = {
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "a boolean",
  strings: "an array of strings",
  "string-table": "a table of strings",
  table: "a table",
  "named-tables": "a table",
  "table-array": "an array of tables",
  "foreign-table": "a table",
  json: "a table, array, string, number or boolean",
};

/** Checks table against schema; returns every problem found, in the document's order. */
export function checkTable(table: Record<string, unknown>, schema: Schema, places: Places, at: KeyPath = []): Problem[] {
  const out: Problem[] = [];
  walkTable(table, schema, places, at, out);
  return out.sort((a, b) => a.place.line - b.place.line || a.place.col - b.place.col);
}

function walkTable(table: Record<string, unknown>, schema: Schema, places: Places, at: KeyPath, out: Problem[]): void {
  const known = Object.keys(schema);
  for (const key of Object.keys(table)) {
    const path = [...at, key];
    const field = schema[key];
    if (!field) {
      const where = at.length ? ` in [${formatKeyPath(at)}]` : "";
      out.push({
        code: "unknown-key",
        path,
        place: places.of(path),
        message: `unknown key ${formatKeyPath([key])}${where} (known keys: ${known.join(", ")})`,
      });
      continue;
    }
    walkValue(table[key], field, places, path, out);
  }
  for (const key of known) {
    if (schema[key]?.required && !(key in table)) {
      const where = at.length ? `[${formatKeyPath(at)}]` : "the file";
      out.push({
        code: "missing",
        path: [...at, key],
        place: places.of(at),
        message: `${where} needs ${formatKeyPath([key])}: ${schema[key]?.doc}`,
      });
    }
  }
}

function walkValue(v: unknown, f: Field, places: Places, path: KeyPath, out: Problem[]): void {
  const wrong = (): void => {
    const shown = show(v);
    out.push({
      code: "type",
      path,
      place: places.of(path),
      message: `${formatKeyPath(path)} must be ${WANT[f.type]}, got ${typeName(v)}${shown ? ` (${shown})` : ""}`,
    });
  };
  const bad = (why: string): void => {
    out.push({ code: "value", path, place: places.of(path), message: `${formatKeyPath(path)} ${why}` });
  };
  switch (f.type) {
    case "string":
      if (typeof v !== "string") return wrong();
      if (f.enum && !f.enum.includes(v)) return bad(`must be one of ${f.enum.map((e) => JSON.stringify(e)).join(", ")}, got ${show(v)}`);
      if (f.pattern && !f.pattern.test(v)) return bad(`must be ${f.patternDoc ?? `like ${f.pattern}`}, got ${show(v)}`);
      return;
    case "integer":
    case "number":
      if (typeof v !== "number" || (f.type === "integer" && !Number.isInteger(v))) return wrong();
      if (!Number.isFinite(v)) return bad(`must be finite, got ${v}`);
      if (f.min !== undefined && v < f.min) return bad(`must be at least ${f.min}, got ${v}`);
      if (f.max !== undefined && v > f.max) return bad(`must be at most ${f.max}, got ${v}`);
      return;
    case "boolean":
      if (typeof v !== "boolean") return wrong();
      return;
    case "strings":
      if (!Array.isArray(v)) return wrong();
      v.forEach((e, n) => {
        if (typeof e !== "string")
          out.push({
            code: "type",
            path: [...path, n],
            place: places.of([...path, n]),
            message: `${formatKeyPath([...path, n])} must be a string, got ${typeName(e)}`,
          });
      });
      return;
    case "string-table":
      if (!isTable(v)) return wrong();
      for (const [k, e] of Object.entries(v))
        if (typeof e !== "string")
          out.push({
            code: "type",
            path: [...path, k],
            place: places.of([...path, k]),
            message: `${formatKeyPath([...path, k])} must be a string, got ${typeName(e)}`,
          });
      return;
    case "table":
      if (!isTable(v)) return wrong();
      walkTable(v, f.fields, places, path, out);
      return;
    case "named-tables":
      if (!isTable(v)) return wrong();
      for (const [name, t] of Object.entries(v)) {
        if (!isTable(t)) {
          out.push({
            code: "type",
            path: [...path, name],
            place: places.of([...path, name]),
            message: `${formatKeyPath([...path, name])} must be a table ([${formatKeyPath([...path, name])}]), got ${typeName(t)}`,
          });
          continue;
        }
        walkTable(t, f.each, places, [...path, name], out);
      }
      return;
    case "table-array":
      if (!Array.isArray(v)) return wrong();
      v.forEach((t, n) => {
        if (!isTable(t)) {
          out.push({
            code: "type",
            path: [...path, n],
            place: places.of([...path, n]),
            message: `${formatKeyPath([...path, n])} must be a table, got ${typeName(t)}`,
          });
          return;
        }
        walkTable(t, f.each, places, [...path, n], out);
      });
      return;
    case "foreign-table":
      if (!isTable(v)) return wrong();
      return;
    case "json":
      if (!isJson(v)) return wrong();
      return;
    default: {
      const never: never = f;
      throw new Error(`unknown field type ${String(never)}`);
    }
  }
}

function isJson(v: unknown): boolean {
  if (typeof v === "string" || typeof v === "boolean") return true;
  if (typeof v === "number") return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(isJson);
  if (isTable(v)) return Object.values(v).every(isJson);
  return false;
}
