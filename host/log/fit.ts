// Cutting what is too large for the log: a string to a size, a payload to a record's limit, each cut marked with how much went.
//
// Cuts are made after redaction (the writer redacts first, the session
// redacts captured output before cutting it), so no cut can leave part of a
// secret: a secret is whole or already a placeholder. A cut never splits a
// placeholder `[REDACTED:rule]` or a surrogate pair.

/** The marker appended where a string was cut. */
export function cutMarker(chars: number, why: string): string {
  return `…[nodwyn: ${chars} more characters not logged: ${why}]`;
}

/** Bytes a string takes inside a JSON string literal (without the quotes), and how many chars fit in `budget` of them. */
function jsonPrefix(s: string, budget: number): { chars: number; bytes: number } {
  let bytes = 0;
  let i = 0;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let n: number;
    if (c === 0x22 || c === 0x5c) n = 2;
    else if (c < 0x20) n = c === 8 || c === 9 || c === 10 || c === 12 || c === 13 ? 2 : 6;
    else if (c < 0x80) n = 1;
    else if (c < 0x800) n = 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      if (bytes + 4 > budget) break;
      bytes += 4;
      i++;
      continue;
    } else if (c >= 0xd800 && c <= 0xdfff) n = 6; // a lone surrogate is escaped
    else n = 3;
    if (bytes + n > budget) break;
    bytes += n;
  }
  return { chars: i, bytes };
}

/** Where a cut at `k` must move back to so that it splits no placeholder. */
function safeCut(s: string, k: number): number {
  const open = s.lastIndexOf("[REDACTED:", k - 1);
  if (open !== -1 && s.indexOf("]", open) >= k) return open;
  return k;
}

/** `s` cut to at most `maxChars` characters with a marker; unchanged when it fits. */
export function cutText(s: string, maxChars: number, why: string, alreadyCut = 0): string {
  if (s.length <= maxChars && alreadyCut === 0) return s;
  if (s.length <= maxChars) return s + cutMarker(alreadyCut, why);
  let k = Math.max(0, maxChars);
  if (k > 0 && (s.charCodeAt(k - 1) & 0xfc00) === 0xd800) k--;
  k = safeCut(s, k);
  return s.slice(0, k) + cutMarker(s.length - k + alreadyCut, why);
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

interface Leaf {
  readonly path: (string | number)[];
  readonly value: string;
  readonly bytes: number;
}

function leaves(v: Json, path: (string | number)[], out: Leaf[]): void {
  if (typeof v === "string") out.push({ path, value: v, bytes: jsonPrefix(v, Infinity).bytes });
  else if (Array.isArray(v)) v.forEach((e, i) => leaves(e, [...path, i], out));
  else if (v !== null && typeof v === "object") for (const k of Object.keys(v)) leaves(v[k] as Json, [...path, k], out);
}

function replaceAt(v: Json, path: readonly (string | number)[], value: string): Json {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(v)) {
    const copy = v.slice();
    copy[head as number] = replaceAt(copy[head as number] as Json, rest, value);
    return copy;
  }
  const o = v as { [k: string]: Json };
  return { ...o, [head as string]: replaceAt(o[head as string] as Json, rest, value) };
}

/**
 * A payload whose JSON fits in `maxBytes`: its longest strings cut, each with
 * a marker saying how many characters went. Null when cutting strings cannot
 * make it fit (a payload of numbers, or of thousands of short strings).
 */
export function fitPayload<T extends object>(payload: T, maxBytes: number, why: string): { value: T; cutChars: number } | null {
  let value = payload as unknown as Json;
  let size = Buffer.byteLength(JSON.stringify(value));
  let cutChars = 0;
  for (let round = 0; size > maxBytes && round < 64; round++) {
    const all: Leaf[] = [];
    leaves(value, [], all);
    all.sort((a, b) => b.bytes - a.bytes);
    const leaf = all[0];
    if (leaf === undefined || leaf.bytes < 256) return null;
    const marker = Buffer.byteLength(cutMarker(leaf.value.length, why)) + 16;
    const budget = Math.max(0, leaf.bytes - (size - maxBytes) - marker);
    const k = safeCut(leaf.value, jsonPrefix(leaf.value, budget).chars);
    const cut = leaf.value.length - k;
    cutChars += cut;
    value = replaceAt(value, leaf.path, leaf.value.slice(0, k) + cutMarker(cut, why));
    size = Buffer.byteLength(JSON.stringify(value));
  }
  return size <= maxBytes ? { value: value as unknown as T, cutChars } : null;
}
