// A working tree's manifest: what the index holds of each of its files (size, time, inode, hash), written whole and checked whole.
//
// One file per tree, trees/<tree key>.manifest, written as a temporary file
// renamed into place (under the tree's lock, manifest.lock beside it), so a
// reader sees the old manifest or the new one. Its last line is the CRC-32 of
// everything before it: a manifest that fails it, or names another generation
// of the store, is not used (the tree is read again). Never content: paths,
// stat fields, hashes and why a file is not held.

import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { crc32 } from "node:zlib";

/** What became of a file the index looked at. */
export type EntryState =
  | "held" // read, and its chunks are stored under `hash`
  | "binary"
  | "non-utf8"
  | "oversized"
  | "nonregular"
  | "protected" // the guard's denylist
  | "unreadable"
  | "refused"; // the guard refused it otherwise (a checker, an ask no one answered): named in index.update

/** One file of a tree as the index last saw it. */
export interface Entry {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
  readonly state: EntryState;
  /** The redacted text's hash, for a held file ("" otherwise). */
  readonly hash: string;
  /** Chunks stored, for a held file. */
  readonly chunks: number;
}

export interface Manifest {
  /** The tree's root (real path): a manifest whose root is gone belongs to a removed worktree. */
  readonly root: string;
  /** The store generation its hashes are stored in. */
  readonly generation: string;
  /** When it was last written (the index's clock, milliseconds). */
  readonly updated: number;
  /** Paths added with index-update PATH: indexed whole, git's ignores notwithstanding. */
  readonly added: readonly string[];
  /** The tree has more files or text than the index holds (its limits). */
  readonly over: boolean;
  /** Files found to read and not read yet when the last refresh ran out of time. */
  readonly left: number;
  readonly files: ReadonlyMap<string, Entry>;
}

const STATES: ReadonlySet<string> = new Set<EntryState>(["held", "binary", "non-utf8", "oversized", "nonregular", "protected", "unreadable", "refused"]);

const TRAILER = "\n#crc32 ";

/** A manifest of no file. */
export function emptyManifest(root: string, generation: string): Manifest {
  return { root, generation, updated: 0, added: [], over: false, left: 0, files: new Map() };
}

/** Reads a manifest; null when it is missing, and "damaged" when it fails its check or its shape. */
export function readManifest(path: string): Manifest | null | "damaged" {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOENT" ? null : "damaged";
  }
  const t = text.lastIndexOf(TRAILER);
  if (t === -1 || !text.endsWith("\n")) return "damaged";
  const body = text.slice(0, t);
  const want = Number.parseInt(text.slice(t + TRAILER.length, -1), 16);
  if (!Number.isFinite(want) || crc32(body) !== want) return "damaged";
  try {
    const o = JSON.parse(body) as { v?: unknown; root?: unknown; generation?: unknown; updated?: unknown; added?: unknown; over?: unknown; left?: unknown; files?: unknown };
    if (o.v !== 1 || typeof o.root !== "string" || typeof o.generation !== "string" || typeof o.updated !== "number") return "damaged";
    if (!Array.isArray(o.added) || !o.added.every((a) => typeof a === "string") || typeof o.over !== "boolean" || typeof o.left !== "number") return "damaged";
    if (!Array.isArray(o.files)) return "damaged";
    const files = new Map<string, Entry>();
    for (const f of o.files as unknown[]) {
      if (!Array.isArray(f) || f.length !== 7) return "damaged";
      const [p, size, mtimeMs, ino, state, hash, chunks] = f as unknown[];
      if (typeof p !== "string" || typeof size !== "number" || typeof mtimeMs !== "number" || typeof ino !== "number") return "damaged";
      if (typeof state !== "string" || !STATES.has(state) || typeof hash !== "string" || typeof chunks !== "number") return "damaged";
      files.set(p, { size, mtimeMs, ino, state: state as EntryState, hash, chunks });
    }
    return { root: o.root, generation: o.generation, updated: o.updated, added: o.added as string[], over: o.over, left: o.left, files };
  } catch {
    return "damaged";
  }
}

/** Writes a manifest whole: a temporary file beside it, renamed into place. Throws the file system's error. */
export function writeManifest(path: string, m: Manifest): void {
  const files: unknown[] = [];
  for (const [p, e] of m.files) files.push([p, e.size, e.mtimeMs, e.ino, e.state, e.hash, e.chunks]);
  const body = JSON.stringify({ v: 1, root: m.root, generation: m.generation, updated: m.updated, added: m.added, over: m.over, left: m.left, files });
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, `${body}${TRAILER}${crc32(body).toString(16)}\n`, { mode: 0o600 });
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
