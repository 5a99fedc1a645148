// Canonical JSON (RFC 8785's rules for the values nodwyn sends) and the SHA-256 digest llm.req records.
//
// Members sorted by their names' UTF-16 code units, no whitespace, numbers as
// ECMAScript prints them, strings as JSON.stringify escapes them, members whose
// value is undefined left out. Two requests that mean the same have the same
// bytes, so the digest of what was sent can be checked by rebuilding it.

import { createHash } from "node:crypto";

/** The canonical JSON text of a JSON value (plain objects, arrays, strings, finite numbers, booleans, null). */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  write(value, out, 0);
  return out.join("");
}

const MAX_DEPTH = 512;

function write(v: unknown, out: string[], depth: number): void {
  switch (typeof v) {
    case "string":
      out.push(JSON.stringify(v));
      return;
    case "number":
      if (!Number.isFinite(v)) throw new TypeError(`canonicalJson: ${v} is not a JSON number`);
      out.push(JSON.stringify(v));
      return;
    case "boolean":
      out.push(v ? "true" : "false");
      return;
    case "object": {
      if (v === null) {
        out.push("null");
        return;
      }
      if (depth >= MAX_DEPTH) throw new TypeError(`canonicalJson: nested deeper than ${MAX_DEPTH}`);
      if (Array.isArray(v)) {
        out.push("[");
        for (let i = 0; i < v.length; i++) {
          if (i > 0) out.push(",");
          // JSON.stringify writes an undefined element as null; so does this.
          write(v[i] === undefined ? null : v[i], out, depth + 1);
        }
        out.push("]");
        return;
      }
      const obj = v as Record<string, unknown>;
      const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort();
      out.push("{");
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i] as string;
        if (i > 0) out.push(",");
        out.push(JSON.stringify(k), ":");
        write(obj[k], out, depth + 1);
      }
      out.push("}");
      return;
    }
    default:
      throw new TypeError(`canonicalJson: a ${typeof v} is not JSON`);
  }
}

/** The digest llm.req records: "sha256:" and the lowercase hex SHA-256 of the UTF-8 text. */
export function digestOf(canonical: string): string {
  return "sha256:" + createHash("sha256").update(canonical, "utf8").digest("hex");
}

/** canonicalJson, then digestOf. */
export function digestJson(value: unknown): string {
  return digestOf(canonicalJson(value));
}
