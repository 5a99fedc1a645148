// The write guard: a file written below the root for the agent, through the root pin and a denylist for writes, atomically.
//
// The rules (docs/security.md, "Writes"):
//   - the path resolves below the root lexically (no `..`, nothing outside);
//   - no component is `.git` or `.nodwyn` (the repository's own data, the
//     project's checkers), whatever the case; the read denylist's secret
//     files (`.env`, keys …) are refused too;
//   - no directory on the way and not the file itself is a symbolic link, a
//     special file or a hard-linked file;
//   - the write cannot escape through a directory swapped for a link between
//     the check and the write: the directories are opened one by one from the
//     root's descriptor without following links (openat through
//     /proc/self/fd/D/NAME, O_NOFOLLOW | O_DIRECTORY, as the read guard opens
//     files), and the file is made in the last one's descriptor;
//   - atomic: a temporary file beside it (O_EXCL, O_NOFOLLOW), written,
//     fsync'd, renamed over the name, the directory fsync'd. A reader sees the
//     old bytes or the new ones, never a torn file; a failure leaves the old.
// Missing directories on the way are made (0o755) through the same descriptors.
// checkWrite applies the rules without writing (a refused path is never put
// to the person for approval); writeGuarded applies them again and writes.

import { closeSync, constants as C, existsSync, fsyncSync, lstatSync, mkdirSync, openSync, readlinkSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { isAbsolute, normalize } from "node:path";
import { GuardDeniedError, GuardFileError, type GuardRule } from "./errors.js";
import { errnoOf, OPEN_DIR, specialKind } from "./read.js";
import type { Guard } from "./guard.js";

/** Path components no write may name (compared without case). */
export const WRITE_PROTECTED_NAMES: readonly string[] = [".git", ".nodwyn"];

const HAVE_PROC_FD = process.platform === "linux" && existsSync("/proc/self/fd");

/** The longest path considered (PATH_MAX). */
const MAX_PATH_BYTES = 4096;

/** A write decision, as the session logs it (guard.decision with op "write"). */
export interface WriteDecision {
  readonly path: string;
  readonly decision: "allow" | "deny";
  readonly rule: GuardRule;
  readonly reason?: string;
  readonly actor: string;
}

/** A write the guard admitted, before it happens. */
export interface WriteTarget {
  /** Relative to the root, `/` separators. */
  readonly rel: string;
  readonly abs: string;
  /** Whether the file exists now. */
  readonly exists: boolean;
}

/** What a write did. */
export interface WriteOutcome extends WriteTarget {
  readonly bytes: number;
  /** The file did not exist before. */
  readonly created: boolean;
}

export interface WriteOptions {
  readonly actor: string;
  /** Test hook: runs after the checks by path and before the descriptors are opened (a race simulated). */
  readonly beforeWrite?: (abs: string, rel: string) => void;
}

/** A refused write: a GuardDeniedError whose rule may be "write-protected". */
export class WriteDeniedError extends GuardDeniedError {
  constructor(path: string, rule: GuardRule, reason: string) {
    super(path, rule, reason);
    this.message = `writing ${JSON.stringify(path)} denied (${rule}): ${reason}`;
    this.name = "WriteDeniedError";
  }
}

function deny(path: string, rule: GuardRule, reason: string): never {
  throw new WriteDeniedError(path, rule, reason);
}

/** Lexical resolution below the root: the relative path, or a denial. */
function resolveRel(guard: Guard, input: string): string {
  if (typeof input !== "string" || input === "" || input.includes("\0")) throw new GuardFileError("bad-path", String(input), `bad path ${JSON.stringify(input)}`);
  if (Buffer.byteLength(input) > MAX_PATH_BYTES) deny(`${input.slice(0, 120)}…`, "root-pin", `a path longer than ${MAX_PATH_BYTES} bytes`);
  if (input.split("/").includes("..")) deny(input, "root-pin", "'..' is not allowed in a path");
  const root = guard.root;
  const prefix = root === "/" ? "/" : `${root}/`;
  let rest = input;
  if (isAbsolute(input)) {
    const n = normalize(input).replace(/\/+$/, "");
    if (n === root || n === "") deny(input, "root-pin", "the repository root is a directory, not a file");
    if (!n.startsWith(prefix)) deny(input, "root-pin", "outside the repository root");
    rest = n.slice(prefix.length);
  }
  const parts = rest.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.length === 0) deny(input, "root-pin", "names the repository root, not a file");
  if (input.endsWith("/")) throw new GuardFileError("is-directory", parts.join("/"), `${parts.join("/")}/ names a directory, not a file`, "EISDIR");
  return parts.join("/");
}

/** The rules by name and by lstat, without writing: the target, or a WriteDeniedError / GuardFileError. */
export function checkWrite(guard: Guard, path: string): WriteTarget {
  const rel = resolveRel(guard, path);
  const parts = rel.split("/");
  for (const p of parts) {
    const low = p.normalize("NFC").toLowerCase();
    if (WRITE_PROTECTED_NAMES.includes(low)) deny(rel, "write-protected", `${p} is nodwyn's or the repository's own data: no tool writes there`);
  }
  for (let i = 1; i < parts.length; i++) {
    const dir = parts.slice(0, i).join("/");
    const hit = guard.isProtected(dir, true);
    if (hit !== null) deny(rel, "denylist", `protected by the denylist entry ${hit}`);
  }
  const hit = guard.isProtected(rel, false);
  if (hit !== null) deny(rel, "denylist", `protected by the denylist entry ${hit}`);
  const prefix = guard.root === "/" ? "/" : `${guard.root}/`;
  // Directories on the way: real directories (or missing: they will be made), never links.
  for (let i = 1; i < parts.length; i++) {
    const dir = parts.slice(0, i).join("/");
    const st = lstatSync(prefix + dir, { throwIfNoEntry: false });
    if (st === undefined) break;
    if (st.isSymbolicLink()) deny(rel, "root-pin", `symbolic link on the way: ${dir}`);
    if (!st.isDirectory()) throw new GuardFileError("not-found", rel, `cannot write ${rel}: ${dir} is not a directory`, "ENOTDIR");
  }
  const st = lstatSync(prefix + rel, { throwIfNoEntry: false });
  if (st !== undefined) {
    if (st.isSymbolicLink()) deny(rel, "root-pin", "is a symbolic link: a write would go where it points");
    if (st.isDirectory()) throw new GuardFileError("is-directory", rel, `${rel} is a directory`, "EISDIR");
    if (!st.isFile()) deny(rel, "special-file", `is a ${specialKind(st)}`);
    if (st.nlink > 1) deny(rel, "hard-link", `has ${st.nlink} hard links: it may be a file outside the repository under another name`);
  }
  return { rel, abs: prefix + rel, exists: st !== undefined };
}

/** A path through an open directory's descriptor. */
function at(dfd: number, name: string): string {
  return `/proc/self/fd/${dfd}/${name}`;
}

/**
 * Writes `data` to `path` (below the root) under every rule, atomically. Throws
 * WriteDeniedError for a refusal (nothing is written) and GuardFileError for a
 * failure of the file system (the old file is kept).
 */
export function writeGuarded(guard: Guard, path: string, data: Uint8Array, o: WriteOptions): WriteOutcome {
  const t = checkWrite(guard, path);
  o.beforeWrite?.(t.abs, t.rel);
  const parts = t.rel.split("/");
  const name = parts.pop() as string;
  const root = guard.root;
  if (!HAVE_PROC_FD) return writePlain(t, parts, name, data, root);
  let dfd = openSync(root, OPEN_DIR);
  const fds = [dfd];
  try {
    let walked = "";
    for (const comp of parts) {
      walked = walked === "" ? comp : `${walked}/${comp}`;
      let next: number;
      try {
        next = openSync(at(dfd, comp), OPEN_DIR);
      } catch (e) {
        const code = errnoOf(e);
        if (code === "ENOENT") {
          try {
            mkdirSync(at(dfd, comp), 0o755);
            next = openSync(at(dfd, comp), OPEN_DIR);
          } catch (e2) {
            throw ioError(t.rel, `make the directory ${walked}`, e2);
          }
        } else if (code === "ELOOP" || code === "ENOTDIR") {
          const st = lstatSync(at(dfd, comp), { throwIfNoEntry: false });
          if (st?.isSymbolicLink() || code === "ELOOP") deny(t.rel, "root-pin", `${walked} became a symbolic link between the check and the write`);
          throw new GuardFileError("not-found", t.rel, `cannot write ${t.rel}: ${walked} is not a directory`, code);
        } else throw ioError(t.rel, `open the directory ${walked}`, e);
      }
      fds.push(next);
      dfd = next;
    }
    // The directory opened is the one checked, where it was checked.
    const want = parts.length === 0 ? root : `${root === "/" ? "" : root}/${parts.join("/")}`;
    let real = "";
    try {
      real = readlinkSync(`/proc/self/fd/${dfd}`);
    } catch {
      // compared below
    }
    if (real !== want) deny(t.rel, "root-pin", "a directory on the way moved between the check and the write");
    const st = lstatSync(at(dfd, name), { throwIfNoEntry: false });
    let mode = 0o644;
    if (st !== undefined) {
      if (st.isSymbolicLink()) deny(t.rel, "root-pin", "became a symbolic link between the check and the write");
      if (st.isDirectory()) throw new GuardFileError("is-directory", t.rel, `${t.rel} is a directory`, "EISDIR");
      if (!st.isFile()) deny(t.rel, "special-file", `is a ${specialKind(st)}`);
      if (st.nlink > 1) deny(t.rel, "hard-link", `has ${st.nlink} hard links`);
      mode = st.mode & 0o7777;
    }
    const tmp = `.${name.slice(0, 100)}.nodwyn-${randomBytes(6).toString("hex")}.tmp`;
    writeTemp(at(dfd, tmp), data, mode, t.rel);
    try {
      renameSync(at(dfd, tmp), at(dfd, name));
    } catch (e) {
      try {
        unlinkSync(at(dfd, tmp));
      } catch {
        // reporting the rename's failure
      }
      throw ioError(t.rel, "rename the new file into place", e);
    }
    try {
      fsyncSync(dfd);
    } catch {
      // the rename happened; a directory that cannot be fsync'd (some file systems) keeps it in the page cache
    }
    return { ...t, bytes: data.length, created: st === undefined };
  } finally {
    for (const fd of fds) closeSync(fd);
  }
}

function writeTemp(path: string, data: Uint8Array, mode: number, rel: string): void {
  let fd: number;
  try {
    fd = openSync(path, C.O_WRONLY | C.O_CREAT | C.O_EXCL | (C.O_NOFOLLOW ?? 0), mode);
  } catch (e) {
    throw ioError(rel, "create the temporary file", e);
  }
  try {
    for (let off = 0; off < data.length; ) off += writeSync(fd, data, off, data.length - off);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    try {
      unlinkSync(path);
    } catch {
      // reporting the write's failure
    }
    throw ioError(rel, "write the temporary file", e);
  }
  closeSync(fd);
}

/** Without /proc (not Linux): the same steps by path, the directories re-checked just before. */
function writePlain(t: WriteTarget, parts: string[], name: string, data: Uint8Array, root: string): WriteOutcome {
  const prefix = root === "/" ? "/" : `${root}/`;
  let walked = "";
  for (const comp of parts) {
    walked = walked === "" ? comp : `${walked}/${comp}`;
    const st = lstatSync(prefix + walked, { throwIfNoEntry: false });
    if (st === undefined) mkdirSync(prefix + walked, 0o755);
    else if (st.isSymbolicLink()) deny(t.rel, "root-pin", `${walked} became a symbolic link between the check and the write`);
  }
  const dir = parts.length === 0 ? root : prefix + parts.join("/");
  const st = lstatSync(`${dir}/${name}`, { throwIfNoEntry: false });
  const tmp = `${dir}/.${name.slice(0, 100)}.nodwyn-${randomBytes(6).toString("hex")}.tmp`;
  writeTemp(tmp, data, st ? st.mode & 0o7777 : 0o644, t.rel);
  renameSync(tmp, `${dir}/${name}`);
  return { ...t, bytes: data.length, created: st === undefined };
}

function ioError(rel: string, what: string, e: unknown): GuardFileError {
  const code = errnoOf(e);
  return new GuardFileError("io", rel, `cannot write ${rel}: could not ${what} (${code ?? String(e)})`, code);
}
