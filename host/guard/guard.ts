// The read guard: the one function through which nodwyn reads a file, deciding, logging and opening safely.
//
// Rules, in order (each denial names its rule):
//   1. root pin — the path resolves inside the repository root, has no `..`,
//      and no component (directories on the way and the file itself) is a
//      symbolic link, checked with lstat; FIFOs, sockets and devices are
//      refused ("special-file");
//   2. the denylist of secret files (denylist.ts);
//   3. per-turn caps on reads and bytes ("turn-limit");
//   4. the project's checkers (checkers.ts), which can only narrow: a deny or a
//      failure denies, an ask goes to the person, or without one the file is
//      left out ("ask-unanswered").
// The open then confirms what was decided: O_NOFOLLOW | O_NONBLOCK (a FIFO
// swapped in never blocks), fstat's dev+ino must equal the lstat'ed ones and
// name a regular file, and on Linux /proc/self/fd/N must name the very path
// checked, which catches a directory on the way swapped for a link after the
// check. Every decision goes to the injected `log` as a guard.decision payload.
//
// A scan (fs-find, index-grep) reads thousands of files, so it holds the
// directories from the root to the current one open and opens each entry
// through its directory's descriptor (/proc/self/fd/D/name with O_NOFOLLOW, in
// effect openat): no path is resolved again from the root, so a directory
// swapped for a link after it was opened cannot redirect a read, and one
// swapped before is refused when opened. A directory met twice must keep its
// dev+ino. The final component's lstat is the guard's own listing of the
// directory (d_type), confirmed by fstat after the open; the checkers then see
// the opened file's own metadata. Without /proc a scan falls back to the
// single-read path.

import {
  closeSync,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  type Dirent,
  type Stats,
} from "node:fs";
import { basename, dirname, isAbsolute, join, normalize, resolve as resolvePath } from "node:path";
import { compileDenylist, type Denylist, type DenylistConfig } from "./denylist.js";
import { CheckerRegistry, consultCheckers, consultCheckersSync, type CheckerInfo, type CheckersOutcome } from "./checkers.js";
import { GuardDeniedError, GuardFileError, type GuardRule } from "./errors.js";
import { errnoOf, examineOpenFile, OPEN_DIR, OPEN_FILE, readable, readOpenFile, specialKind, tooLarge, type Found, type HeadCheck } from "./read.js";

/** One decision, as the session logs it (kind guard.decision). */
export interface GuardDecision {
  /** Relative to the root with `/` separators ("." for the root), or as given when it is outside. */
  readonly path: string;
  readonly decision: "allow" | "deny";
  readonly rule: GuardRule;
  readonly reason?: string;
  /** Who asked: "model", "strategy", "index", … */
  readonly actor: string;
  /** The checker(s) that decided, when any did. */
  readonly checker?: string;
  /** What the path names, when the guard got that far. */
  readonly kind?: "file" | "directory";
}

/** A question to the person, when a checker asks. */
export interface AskRequest {
  readonly path: string;
  readonly actor: string;
  readonly checker: string;
  readonly reason: string;
}

/** How the session asks its person; absent when no one can answer. */
export type AskFn = (req: AskRequest) => Promise<"allow" | "deny"> | "allow" | "deny";

/** Caps the guard enforces. */
export interface GuardLimits {
  /** File reads allowed between two startTurn() calls (default: no cap). */
  readonly maxReadsPerTurn?: number;
  /** Bytes read between two startTurn() calls (default: no cap). */
  readonly maxBytesPerTurn?: number;
  /** How long one checker may take before it denies (default 2000 ms). */
  readonly checkerTimeoutMs?: number;
  /** Directory descriptors one scan keeps open for its reads (default 1024; past it, all but the root's close). */
  readonly maxScanDirs?: number;
}

/** Test hooks: the race between check and open, simulated deterministically. */
export interface GuardHooks {
  /** Called after the checks of a file and before it is opened. */
  readonly beforeOpen?: (absPath: string, relPath: string) => void;
}

/** What the guard does with a regular file that has more than one hard link. */
export type HardLinkPolicy = "refuse" | "allow";

export interface GuardOptions {
  /** The session's repository root (see findRepoRoot). Must be an existing directory. */
  readonly root: string;
  readonly denylist?: DenylistConfig;
  /**
   * A regular file with more than one hard link may be a file outside the root
   * under a second name (a link inside the root to /etc/passwd), which no path
   * check can see: "refuse" (the default) denies it with rule "hard-link".
   */
  readonly hardLinks?: HardLinkPolicy;
  /**
   * Whether the root's file system ignores case (then a project's own denylist
   * entries match whatever the case; the defaults always do). Default: found
   * out by looking at the root's entries.
   */
  readonly caseInsensitive?: boolean;
  readonly checkers?: CheckerRegistry;
  /** Receives every decision (the session writes it to the log). Must not throw. */
  readonly log?: (decision: GuardDecision) => void;
  /** Receives, in order, decisions a scan made about several files at once (GuardScan.flushLog); without it each goes to `log`. */
  readonly logBatch?: (decisions: readonly GuardDecision[]) => void;
  /** The default actor of calls that name none (default "agent"). */
  readonly actor?: string;
  readonly ask?: AskFn | null;
  readonly limits?: GuardLimits;
  readonly hooks?: GuardHooks;
}

export interface CheckOptions {
  readonly actor?: string;
  /** Do not ask the person: a checker's ask leaves the file out (the seed's WithoutAsking). */
  readonly withoutAsking?: boolean;
}

export interface ReadOptions extends CheckOptions {
  /** Larger files are refused with GuardFileError "file-too-large" before any byte is read or any checker asked. */
  readonly maxBytes?: number;
  /**
   * A buffer to read into when the file fits: the result is then a view of it,
   * valid until the next read into the same scratch (a search's hot loop).
   */
  readonly scratch?: Buffer;
}

/** A path the guard admitted (no checker is consulted for a directory). */
export interface GuardedEntry {
  readonly relPath: string;
  readonly absPath: string;
  readonly kind: "file" | "directory";
  readonly size: number;
  readonly mtimeMs: number;
}

export interface ScanReadOptions {
  readonly maxBytes?: number;
  readonly scratch?: Buffer;
  readonly head?: HeadCheck;
}

/** A file a scan opened, or will have opened by its reader: to be read (by any thread) and then released. */
export interface OpenedFile {
  readonly relPath: string;
  /**
   * The open descriptor; or -1 when the open was deferred (openFile's
   * `defer`): the reader opens `at` with openDeferred, examines and reads the
   * file, closes it, and the guard decides when it is told what was found
   * (settle).
   */
  readonly fd: number;
  /**
   * With fd -1: the file through its directory's descriptor, which the scan
   * keeps open until release; null when the guard refused the file by its
   * name: nothing is to be opened, and settle logs and throws the refusal.
   */
  readonly at: string | null;
  /** fstat's size at the open, the guard having allowed the file; null when deferred. */
  readonly size: number | null;
}

/** Many listings and reads below the root by one actor: what fs-find and index-grep use. Close it. */
export interface GuardScan {
  /** Lists a directory (root-relative, as locate or a listing gave it). A denial is logged and thrown. */
  list(relDir: string): Dirent[];
  /**
   * Reads a file (root-relative) under every rule, checkers included. A denial
   * throws GuardDeniedError. Synchronous when no checker is registered (a
   * search's hot loop then awaits nothing); a Promise otherwise. Null only
   * when `head` refused the file's first block (the rest was not read).
   */
  readFile(relPath: string, opts?: ScanReadOptions): Buffer | null | Promise<Buffer | null>;
  /**
   * The first half of readFile: opens safely, confirms a regular file no
   * larger than maxBytes and decides (the decision is logged now), without
   * reading. The caller reads the descriptor with readOpenFile (read.ts) and
   * must then call release. Throws as readFile.
   * With `defer`, when the scan `defers` (nothing but a file's kind and size
   * could change the decision), the rules by name are applied and the rest is
   * left to the reader, in this thread or another: it opens the file
   * (openDeferred), examines it (examineOpenFile) and reads it only if
   * `readable`; settle then logs the decision.
   */
  openFile(relPath: string, opts?: { readonly maxBytes?: number; readonly defer?: boolean }): OpenedFile | Promise<OpenedFile>;
  /**
   * Whether openFile can defer: no checker and no turn cap (fixed when the
   * scan starts), and a system where a file can be opened through its
   * directory's descriptor.
   */
  readonly defers: boolean;
  /**
   * The guard's decision about a file whose open was deferred, given what its
   * reader found: logged, and thrown as openFile would have thrown it (a link
   * swapped in or a special file is a denial; a directory, a missing file, a
   * file over maxBytes a GuardFileError). Call it in search order.
   */
  settle(file: OpenedFile, found: Found, maxBytes: number): void;
  /** Counts the bytes read from a file against the turn's cap and closes it (a deferred one its reader closed). */
  release(file: OpenedFile, bytesRead: number): void;
  /**
   * Logs the decisions settle made and has not logged yet (together, through
   * the guard's logBatch). Call it before a result that depends on them is
   * returned; close and any other decision of the guard log them too.
   */
  flushLog(): void;
  /**
   * Whether files may be opened ahead of the reads of earlier ones: true
   * unless a per-turn cap applies, whose decisions depend on the bytes each
   * earlier read took.
   */
  readonly canOpenAhead: boolean;
  /** Releases the directory descriptors. */
  close(): void;
}

/** The guard of one session. */
export interface Guard {
  /** The real path of the repository root. */
  readonly root: string;
  readonly denylist: Denylist;
  readonly checkers: CheckerRegistry;
  /** Decides about a path (checkers included for a file) and logs the decision; throws GuardFileError when it does not exist. */
  check(path: string, opts?: CheckOptions): Promise<GuardDecision>;
  /** check(), throwing GuardDeniedError on a denial. */
  admit(path: string, opts?: CheckOptions): Promise<GuardedEntry>;
  /**
   * The static rules only (root pin, special files, denylist), synchronously:
   * what a listing or a search needs to know about the path it starts from.
   * Nothing is read, so no checker is consulted and only a denial is logged.
   */
  locate(path: string, opts?: CheckOptions): GuardedEntry;
  /** Decides, opens safely and reads a whole file. A denial throws GuardDeniedError, never returns empty bytes. */
  readFile(path: string, opts?: ReadOptions): Promise<Buffer>;
  /** readFile decoded as UTF-8 (a BOM is dropped); bytes that are not UTF-8 throw GuardFileError "not-utf8". */
  readText(path: string, opts?: ReadOptions): Promise<string>;
  /**
   * readFile for a synchronous caller (the interpreter's FileAccess: file
   * ports, `load`). The same rules, except that nothing asynchronous can be
   * waited for: a checker answering with a Promise denies, and an ask is
   * never put to the person (the file is left out, "ask-unanswered").
   */
  readFileSync(path: string, opts?: ReadOptions): Buffer;
  /**
   * The entries of a directory, listed through the same pin and the denylist.
   * Not a file read: checkers are not consulted and only a denial is logged.
   */
  listDir(path: string, opts?: CheckOptions): Dirent[];
  /** Starts a scan (see GuardScan). */
  scan(opts?: CheckOptions): GuardScan;
  /** The denylist entry that protects a root-relative path, or null (pure, not logged). */
  isProtected(relPath: string, isDir: boolean): string | null;
  /** Starts a new turn: resets the per-turn caps. */
  startTurn(): void;
}

const HAVE_PROC_FD = process.platform === "linux" && existsSync("/proc/self/fd");

interface Resolved {
  readonly rel: string;
  readonly abs: string;
}

interface Target extends GuardedEntry {
  readonly dev: number;
  readonly ino: number;
}

type Static = { readonly deny: GuardDecision } | { readonly target: Target };

/** The longest path the guard considers (Linux's PATH_MAX). */
const MAX_PATH_BYTES = 4096;

/** Directory descriptors a scan keeps open by default (Node raises the soft descriptor limit to the hard one). */
const MAX_SCAN_DIRS = 1024;

/** Creates the guard of a session. Throws when the root is not a directory or a denylist entry is invalid. */
export function createGuard(options: GuardOptions): Guard {
  const rootGiven = resolvePath(options.root);
  const rootReal = realpathSync(rootGiven);
  const rootStat = lstatSync(rootReal);
  if (!rootStat.isDirectory()) throw new Error(`guard root ${options.root} is not a directory`);
  // "/" + rel, or root + "/" + rel: the absolute path exactly as the kernel names it (readlink compares it).
  const rootPrefix = rootReal === "/" ? "/" : `${rootReal}/`;
  const givenPrefix = rootGiven === "/" ? "/" : `${rootGiven}/`;
  const hardLinks: HardLinkPolicy = options.hardLinks ?? "refuse";
  const denylist = compileDenylist(options.denylist, undefined, { caseInsensitive: options.caseInsensitive ?? caseInsensitiveAt(rootReal) });
  const checkers = options.checkers ?? new CheckerRegistry();
  const log = options.log ?? (() => {});
  const logBatch = options.logBatch ?? null;
  const defaultActor = options.actor ?? "agent";
  const ask = options.ask ?? null;
  const limits = options.limits ?? {};
  const maxReads = limits.maxReadsPerTurn ?? Infinity;
  const maxBytesTurn = limits.maxBytesPerTurn ?? Infinity;
  const checkerTimeoutMs = limits.checkerTimeoutMs ?? 2000;
  const maxScanDirs = Math.max(1, limits.maxScanDirs ?? MAX_SCAN_DIRS);
  const hooks = options.hooks ?? {};
  let turnReads = 0;
  let turnBytes = 0;

  // Decisions a scan's settle made, not yet logged: a search logs the decisions
  // of a batch of files together (logBatch: one durable write), in order. Any
  // other decision is logged at once, after them.
  const held: GuardDecision[] = [];
  let holding = 0;
  const flushHeld = (): void => {
    if (held.length === 0) return;
    const ds = held.splice(0);
    if (logBatch !== null) logBatch(ds);
    else for (const d of ds) log(d);
  };
  const emit = (d: GuardDecision): GuardDecision => {
    if (holding > 0) {
      held.push(d);
      return d;
    }
    flushHeld();
    log(d);
    return d;
  };
  const denial = (path: string, rule: GuardRule, reason: string, actor: string, extra: { checker?: string; kind?: "file" | "directory" } = {}): GuardDecision => ({
    path,
    decision: "deny",
    rule,
    reason,
    actor,
    ...extra,
  });
  const hardLinkDenial = (path: string, nlink: number, actor: string): GuardDecision =>
    denial(path, "hard-link", `has ${nlink} hard links: it may be a file outside the repository under another name`, actor, { kind: "file" });
  const toError = (d: GuardDecision): GuardDeniedError => new GuardDeniedError(d.path, d.rule, d.reason ?? "", d.checker);
  /** Logs a denial and returns the error to throw. */
  const refuse = (d: GuardDecision): GuardDeniedError => toError(emit(d));

  /** Lexical resolution: inside the root, no `..`; or a root-pin denial. */
  const resolveLexical = (input: string, actor: string): Resolved | GuardDecision => {
    if (typeof input !== "string" || input === "" || input.includes("\0")) {
      throw new GuardFileError("bad-path", String(input), `bad path ${JSON.stringify(input)}`);
    }
    // PATH_MAX: the kernel would refuse it anyway, and the decision names a shortened path.
    if (input.length > MAX_PATH_BYTES / 4 && Buffer.byteLength(input) > MAX_PATH_BYTES)
      return denial(`${input.slice(0, 120)}…`, "root-pin", `a path longer than ${MAX_PATH_BYTES} bytes`, actor);
    if (input.split("/").includes("..")) return denial(input, "root-pin", "'..' is not allowed in a path", actor);
    let rest: string;
    if (isAbsolute(input)) {
      const n = normalize(input).replace(/\/+$/, "") || "/";
      if (n === rootReal || n === rootGiven) rest = "";
      else if (n.startsWith(rootPrefix)) rest = n.slice(rootPrefix.length);
      else if (n.startsWith(givenPrefix)) rest = n.slice(givenPrefix.length);
      else return denial(input, "root-pin", "outside the repository root", actor);
    } else {
      rest = input;
    }
    const parts = rest.split("/").filter((p) => p !== "" && p !== ".");
    const rel = parts.length === 0 ? "." : parts.join("/");
    return { rel, abs: rel === "." ? rootReal : rootPrefix + rel };
  };

  const lstatOrThrow = (abs: string, rel: string): Stats => {
    try {
      return lstatSync(abs);
    } catch (e) {
      const code = errnoOf(e);
      if (code === "ENOENT" || code === "ENOTDIR") throw new GuardFileError("not-found", rel, `no such file or directory: ${rel}`, code);
      throw new GuardFileError("io", rel, `cannot examine ${rel}: ${code ?? String(e)}`, code);
    }
  };

  /** Rules 1 and 2: what lstat and the denylist say, without checkers. */
  const decideStatic = (input: string, actor: string): Static => {
    const r = resolveLexical(input, actor);
    if (!("abs" in r)) return { deny: r };
    const { rel, abs } = r;
    // Directories on the way: each must be a real directory, not a link to one.
    if (rel !== ".") {
      let i = rel.indexOf("/");
      while (i !== -1) {
        const dir = rel.slice(0, i);
        const st = lstatOrThrow(rootPrefix + dir, rel);
        if (st.isSymbolicLink()) return { deny: denial(rel, "root-pin", `symbolic link on the way: ${dir}`, actor) };
        if (!st.isDirectory()) throw new GuardFileError("not-found", rel, `no such file or directory: ${rel} (${dir} is not a directory)`, "ENOTDIR");
        const hit = denylist.matchPrefix(dir, true);
        if (hit !== null) return { deny: denial(rel, "denylist", `protected by the denylist entry ${hit}`, actor) };
        i = rel.indexOf("/", i + 1);
      }
    }
    const st = lstatOrThrow(abs, rel);
    if (st.isSymbolicLink()) return { deny: denial(rel, "root-pin", "is a symbolic link", actor) };
    let kind: "file" | "directory";
    if (st.isFile()) kind = "file";
    else if (st.isDirectory()) kind = "directory";
    else return { deny: denial(rel, "special-file", `is a ${specialKind(st)}`, actor) };
    if (kind === "file" && st.nlink > 1 && hardLinks === "refuse") return { deny: hardLinkDenial(rel, st.nlink, actor) };
    if (rel !== ".") {
      const hit = denylist.matchPrefix(rel, kind === "directory");
      if (hit !== null) return { deny: denial(rel, "denylist", `protected by the denylist entry ${hit}`, actor, { kind }) };
    }
    return { target: { relPath: rel, absPath: abs, kind, size: st.size, mtimeMs: st.mtimeMs, dev: st.dev, ino: st.ino } };
  };

  /** Rules 3 and 4 for a file. Synchronous unless a checker is registered. */
  const decideFile = (t: Target, actor: string, forRead: boolean, withoutAsking: boolean): GuardDecision | Promise<GuardDecision> => {
    const capped = forRead ? turnLimit(t, actor) : null;
    if (capped !== null) return capped;
    if (checkers.size === 0) return { path: t.relPath, decision: "allow", rule: "default", actor, kind: t.kind };
    return consultAll(t, actor, withoutAsking);
  };

  /** Rule 3: the denial when one more read would pass the turn's caps, else null. */
  const turnLimit = (t: Target, actor: string): GuardDecision | null => {
    if (turnReads + 1 <= maxReads && turnBytes < maxBytesTurn) return null;
    const why = turnReads + 1 > maxReads ? `more than ${maxReads} file reads this turn` : `more than ${maxBytesTurn} bytes read this turn`;
    return denial(t.relPath, "turn-limit", why, actor, { kind: t.kind });
  };

  const checkerInfo = (t: Target, actor: string): CheckerInfo => ({ size: t.size, mtimeMs: t.mtimeMs, kind: "file", relPath: t.relPath, absPath: t.absPath, actor });

  /** The decision for the checkers' outcome, when no person is asked. Null for an ask that can be put to someone. */
  const outcomeDecision = (t: Target, actor: string, out: CheckersOutcome, canAsk: boolean): GuardDecision | null => {
    const kind = t.kind;
    switch (out.verdict) {
      case "none":
        return { path: t.relPath, decision: "allow", rule: "default", actor, kind };
      case "allow":
        return { path: t.relPath, decision: "allow", rule: "checker", actor, checker: out.checker, kind };
      case "deny":
        return denial(t.relPath, "checker", out.reason, actor, { checker: out.checker, kind });
      case "ask":
        if (canAsk) return null;
        return denial(t.relPath, "ask-unanswered", `${out.reason}; no one to ask, so it is left out`, actor, { checker: out.checker, kind });
      default: {
        const never: never = out;
        throw new Error(`unknown checker outcome ${String(never)}`);
      }
    }
  };

  const consultAll = async (t: Target, actor: string, withoutAsking: boolean): Promise<GuardDecision> => {
    const out = await consultCheckers(checkers.list(), t.relPath, checkerInfo(t, actor), checkerTimeoutMs);
    const d = outcomeDecision(t, actor, out, !withoutAsking && ask !== null);
    if (d !== null) return d;
    if (out.verdict !== "ask" || ask === null) throw new Error("only an ask is put to the person");
    const kind = t.kind;
    let answer: unknown;
    try {
      answer = await ask({ path: t.relPath, actor, checker: out.checker, reason: out.reason });
    } catch (e) {
      return denial(t.relPath, "ask", `asking failed: ${e instanceof Error ? e.message : String(e)}`, actor, { checker: out.checker, kind });
    }
    if (answer === "allow") return { path: t.relPath, decision: "allow", rule: "ask", reason: out.reason, actor, checker: out.checker, kind };
    return denial(t.relPath, "ask", `the person said no (${out.reason})`, actor, { checker: out.checker, kind });
  };

  /** Rules 3 and 4, synchronously (readFileSync). */
  const decideFileSync = (t: Target, actor: string): GuardDecision => {
    const capped = turnLimit(t, actor);
    if (capped !== null) return capped;
    const out = consultCheckersSync(checkers.list(), t.relPath, checkerInfo(t, actor));
    return outcomeDecision(t, actor, out, false) as GuardDecision;
  };

  /** The whole decision about a path, logged. `sizeCap` refuses a larger file before the checkers run. */
  const decide = async (input: string, opts: CheckOptions, forRead: boolean, sizeCap?: number): Promise<{ d: GuardDecision; t?: Target }> => {
    const actor = opts.actor ?? defaultActor;
    checkers.refresh();
    const s = decideStatic(input, actor);
    if ("deny" in s) return { d: emit(s.deny) };
    const t = s.target;
    if (t.kind === "directory") {
      if (forRead) throw new GuardFileError("is-directory", t.relPath, `${t.relPath} is a directory`, "EISDIR");
      return { d: emit({ path: t.relPath, decision: "allow", rule: "default", actor, kind: t.kind }), t };
    }
    // Nothing of an oversized file is read, so no checker needs to be asked about it.
    if (sizeCap !== undefined && t.size > sizeCap) throw tooLarge(t.relPath, t.size, sizeCap);
    const d = emit(await decideFile(t, actor, forRead, opts.withoutAsking === true));
    return { d, t };
  };

  /** Confirms the open fd is the file or directory that was checked (by path): its fstat, or the denial. */
  const verifyOpened = (fd: number, t: Target, actor: string): { bad: GuardDecision } | { st: Stats } => {
    const st = fstatSync(fd);
    const wantDir = t.kind === "directory";
    if (wantDir ? !st.isDirectory() : !st.isFile()) {
      return {
        bad: wantDir
          ? denial(t.relPath, "root-pin", "changed between check and open", actor)
          : denial(t.relPath, "special-file", `became a ${specialKind(st)} between check and open`, actor),
      };
    }
    if (st.dev !== t.dev || st.ino !== t.ino) return { bad: denial(t.relPath, "root-pin", "changed between check and open", actor) };
    if (!wantDir && st.nlink > 1 && hardLinks === "refuse") return { bad: hardLinkDenial(t.relPath, st.nlink, actor) };
    if (HAVE_PROC_FD) {
      let real: string;
      try {
        real = readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        real = "";
      }
      if (real !== t.absPath) return { bad: denial(t.relPath, "root-pin", "a directory on the way changed between check and open", actor) };
    } else {
      // Without /proc, re-check the directories on the way (narrower than the Linux check).
      let i = t.relPath.indexOf("/");
      while (i !== -1) {
        const st2 = lstatSync(rootPrefix + t.relPath.slice(0, i), { throwIfNoEntry: false });
        if (st2 === undefined || !st2.isDirectory()) return { bad: denial(t.relPath, "root-pin", "a directory on the way changed between check and open", actor) };
        i = t.relPath.indexOf("/", i + 1);
      }
    }
    return { st };
  };

  /** Opens a checked path; throws a logged denial when what opens is not what was checked. */
  const openChecked = (t: Target, actor: string): { fd: number; st: Stats } => {
    if (t.kind === "file") hooks.beforeOpen?.(t.absPath, t.relPath);
    let fd: number;
    try {
      fd = openSync(t.absPath, t.kind === "file" ? OPEN_FILE : OPEN_DIR);
    } catch (e) {
      throw openError(e, t.relPath, actor);
    }
    try {
      const v = verifyOpened(fd, t, actor);
      if ("bad" in v) throw refuse(v.bad);
      return { fd, st: v.st };
    } catch (e) {
      closeSync(fd);
      throw e;
    }
  };

  /** The error for a failed open of a file or directory that was checked. */
  const openError = (e: unknown, rel: string, actor: string): Error => {
    const code = errnoOf(e);
    if (code === "ELOOP" || code === "EMLINK") return refuse(denial(rel, "root-pin", "is a symbolic link (it changed after the check)", actor));
    if (code === "ENOENT") return new GuardFileError("not-found", rel, `no such file or directory: ${rel}`, code);
    if (code === "ENOTDIR") return new GuardFileError("not-found", rel, `no such file or directory: ${rel} (not a directory)`, code);
    if (code === "ENXIO") return refuse(denial(rel, "special-file", "is a special file (it changed after the check)", actor));
    return new GuardFileError("io", rel, `cannot open ${rel}: ${code ?? String(e)}`, code);
  };

  const readFile = async (path: string, opts: ReadOptions = {}): Promise<Buffer> => {
    const maxBytes = opts.maxBytes ?? Infinity;
    const { d, t } = await decide(path, opts, true, maxBytes);
    if (d.decision === "deny" || t === undefined) throw toError(d);
    const { fd, st } = openChecked(t, d.actor);
    try {
      turnReads++;
      const bytes = readOpenFile(fd, t.relPath, st.size, maxBytes, opts.scratch) as Buffer;
      turnBytes += bytes.length;
      return bytes;
    } finally {
      closeSync(fd);
    }
  };

  const readFileSync = (path: string, opts: ReadOptions = {}): Buffer => {
    const maxBytes = opts.maxBytes ?? Infinity;
    checkers.refresh();
    const actor = opts.actor ?? defaultActor;
    const s = decideStatic(path, actor);
    if ("deny" in s) throw refuse(s.deny);
    const t = s.target;
    if (t.kind === "directory") throw new GuardFileError("is-directory", t.relPath, `${t.relPath} is a directory`, "EISDIR");
    if (t.size > maxBytes) throw tooLarge(t.relPath, t.size, maxBytes);
    const d = emit(decideFileSync(t, actor));
    if (d.decision === "deny") throw toError(d);
    const { fd, st } = openChecked(t, actor);
    try {
      turnReads++;
      const bytes = readOpenFile(fd, t.relPath, st.size, maxBytes, opts.scratch) as Buffer;
      turnBytes += bytes.length;
      return bytes;
    } finally {
      closeSync(fd);
    }
  };

  const locate = (path: string, opts: CheckOptions = {}): GuardedEntry => {
    const s = decideStatic(path, opts.actor ?? defaultActor);
    if ("deny" in s) throw refuse(s.deny);
    const t = s.target;
    return { relPath: t.relPath, absPath: t.absPath, kind: t.kind, size: t.size, mtimeMs: t.mtimeMs };
  };

  /** Logs the decision about an open file; a denial is thrown, an allow counts as a read of the turn. */
  const admitOpened = (d: GuardDecision): void => {
    emit(d);
    if (d.decision === "deny") throw toError(d);
    turnReads++;
  };

  /**
   * After the open of a file through a scan: fstat confirms a regular file
   * within the size cap, then the guard decides (checkers included). Closes
   * the descriptor on any failure; on success it belongs to the caller.
   */
  const decideOpened = (fd: number, rel: string, abs: string, actor: string, withoutAsking: boolean, maxBytes: number): OpenedFile | Promise<OpenedFile> => {
    let handedOver = false;
    try {
      const st = examineOpenFile(fd, rel);
      refuseUnreadable(rel, st, maxBytes, actor);
      if (st.kind !== "file") throw new Error("unreachable: refuseUnreadable passed a non-file");
      const t: Target = { relPath: rel, absPath: abs, kind: "file", size: st.size, mtimeMs: st.mtimeMs, dev: st.dev, ino: st.ino };
      const opened: OpenedFile = { relPath: rel, fd, at: null, size: st.size };
      const d = decideFile(t, actor, true, withoutAsking);
      if (!(d instanceof Promise)) {
        admitOpened(d);
        handedOver = true;
        return opened;
      }
      // A checker is consulted: the descriptor stays open until it answers.
      handedOver = true;
      return d.then(
        (dd) => {
          try {
            admitOpened(dd);
          } catch (e) {
            closeSync(fd);
            throw e;
          }
          return opened;
        },
        (e: unknown) => {
          closeSync(fd);
          throw e;
        },
      );
    } finally {
      if (!handedOver) closeSync(fd);
    }
  };

  /** What an examination that does not allow a read means: a logged denial (special file) or a GuardFileError. */
  const refuseUnreadable = (rel: string, x: Found, maxBytes: number, actor: string): void => {
    if (x.kind === "file" && x.nlink > 1) {
      if (hardLinks === "refuse") throw refuse(hardLinkDenial(rel, x.nlink, actor));
      if (x.size <= maxBytes) return;
    }
    if (readable(x, maxBytes)) return;
    if (x.kind === "not-opened") throw new Error(`${rel}: a refusal by name is settled by the scan`);
    if (x.kind === "open-failed") throw openError(Object.assign(new Error(x.errno ?? "open failed"), { code: x.errno }), rel, actor);
    if (x.kind === "directory") throw new GuardFileError("is-directory", rel, `${rel} is a directory`, "EISDIR");
    if (x.kind === "special") throw refuse(denial(rel, "special-file", `is a ${x.what}`, actor));
    throw tooLarge(rel, x.size, maxBytes);
  };

  const releaseOpened = (f: OpenedFile, bytesRead: number): void => {
    turnBytes += bytesRead;
    if (f.fd !== -1) closeSync(f.fd);
  };

  /** readFile of a scan over its openFile: open, read the descriptor here, release. */
  const readThrough = (open: (rel: string, opts: { maxBytes: number }) => OpenedFile | Promise<OpenedFile>) => {
    const finish = (f: OpenedFile & { size: number }, maxBytes: number, opts: ScanReadOptions): Buffer | null => {
      let bytes: Buffer | null = null;
      try {
        bytes = readOpenFile(f.fd, f.relPath, f.size, maxBytes, opts.scratch, opts.head);
      } finally {
        releaseOpened(f, bytes === null ? Math.min(f.size, opts.head?.bytes ?? 0) : bytes.length);
      }
      return bytes;
    };
    return (relPath: string, opts: ScanReadOptions = {}): Buffer | null | Promise<Buffer | null> => {
      const maxBytes = opts.maxBytes ?? Infinity;
      const f = open(relPath, { maxBytes }) as (OpenedFile & { size: number }) | Promise<OpenedFile & { size: number }>;
      return f instanceof Promise ? f.then((g) => finish(g, maxBytes, opts)) : finish(f, maxBytes, opts);
    };
  };

  const canOpenAhead = maxReads === Infinity && maxBytesTurn === Infinity;

  /** settle for a scan by `actor`: the decision about a file opened with `defer` (`refused`: refusals by name, not yet logged). */
  const settleFor =
    (actor: string, refused: WeakMap<OpenedFile, GuardDecision>) =>
    (f: OpenedFile, found: Found, maxBytes: number): void => {
      if (f.fd !== -1) throw new Error(`${f.relPath} was opened and decided about by openFile: nothing to settle`);
      holding++;
      try {
        const r = refused.get(f);
        if (r !== undefined) throw refuse(r);
        refuseUnreadable(f.relPath, found, maxBytes, actor);
        // Deferred only when nothing but the file's kind and size could matter: the default allow.
        admitOpened({ path: f.relPath, decision: "allow", rule: "default", actor, kind: "file" });
      } finally {
        holding--;
      }
    };

  /** A scan through directory descriptors (Linux); see the header. */
  const procScan = (actor: string, withoutAsking: boolean): GuardScan => {
    // Every directory this scan opened, by root-relative path, kept open for
    // its reads (a search lists first, then reads): none is opened twice
    // unless more than maxScanDirs are open, when all but the root close; a
    // directory opened again must still be the one first opened.
    const dirs = new Map<string, number>();
    const seen = new Map<string, { dev: number; ino: number }>();
    const listedFiles = new Map<string, Set<string>>();
    // Deferred files not yet released, by their directory's descriptor: such a directory stays open.
    const pins = new Map<number, number>();
    // Deferred files refused by name: the refusal is logged when settled, in the search's order.
    const refused = new WeakMap<OpenedFile, GuardDecision>();
    // This process's descriptors (the pid, not "self": one link less to resolve per open, and the same path
    // from every thread). Taken now, not when the module loads: a start-up snapshot is built by another process.
    const procFd = `/proc/${process.pid}/fd/`;

    const openRoot = (): number => {
      const fd = openSync(rootReal, OPEN_DIR);
      const st = fstatSync(fd);
      if (st.dev !== rootStat.dev || st.ino !== rootStat.ino) {
        closeSync(fd);
        throw refuse(denial(".", "root-pin", "the repository root was replaced", actor));
      }
      dirs.set(".", fd);
      return fd;
    };

    const flush = (): void => {
      for (const [rel, fd] of dirs) {
        if (rel === "." || pins.has(fd)) continue;
        closeSync(fd);
        dirs.delete(rel);
      }
    };

    /** The open directory `relDir`, opening what is missing from its nearest open ancestor, one component at a time. */
    const enter = (relDir: string): number => {
      const have = dirs.get(relDir);
      if (have !== undefined) return have;
      if (dirs.size > maxScanDirs) flush();
      let base = relDir;
      let fd: number | undefined;
      while (fd === undefined) {
        const i = base.lastIndexOf("/");
        base = i === -1 ? "." : base.slice(0, i);
        fd = base === "." ? (dirs.get(".") ?? openRoot()) : dirs.get(base);
      }
      if (relDir === ".") return fd;
      const rest = (base === "." ? relDir : relDir.slice(base.length + 1)).split("/");
      let rel = base;
      for (const name of rest) {
        rel = rel === "." ? name : `${rel}/${name}`;
        const hit = denylist.matchPrefix(rel, true);
        if (hit !== null) throw refuse(denial(rel, "denylist", `protected by the denylist entry ${hit}`, actor, { kind: "directory" }));
        const at = `${procFd}${fd}/${name}`;
        let sub: number;
        try {
          sub = openSync(at, OPEN_DIR);
        } catch (e) {
          // O_DIRECTORY | O_NOFOLLOW on a link fails with ELOOP or ENOTDIR, depending on the system: look.
          const code = errnoOf(e);
          const isLink = (code === "ELOOP" || code === "EMLINK" || code === "ENOTDIR") && lstatSync(at, { throwIfNoEntry: false })?.isSymbolicLink() === true;
          if (isLink) throw refuse(denial(rel, "root-pin", `symbolic link on the way: ${rel}`, actor));
          throw openError(e, rel, actor);
        }
        const st = fstatSync(sub);
        const before = seen.get(rel);
        if (before !== undefined && (before.dev !== st.dev || before.ino !== st.ino)) {
          closeSync(sub);
          throw refuse(denial(rel, "root-pin", "the directory changed during the scan", actor, { kind: "directory" }));
        }
        if (before === undefined) seen.set(rel, { dev: st.dev, ino: st.ino });
        dirs.set(rel, sub);
        fd = sub;
      }
      return fd;
    };

    // Decided at the scan's start: a checker registered later is consulted by the next scan.
    // A reader reads only files of one link (read.ts readable): allowing more leaves every read to the guard.
    const defers = canOpenAhead && checkers.size === 0 && hardLinks === "refuse";

    const openFile = (relPath: string, opts: { readonly maxBytes?: number; readonly defer?: boolean } = {}): OpenedFile | Promise<OpenedFile> => {
      const maxBytes = opts.maxBytes ?? Infinity;
      let rel = relPath;
      let slash = rel.lastIndexOf("/");
      let dirRel = slash === -1 ? "." : rel.slice(0, slash);
      let name = rel.slice(slash + 1);
      // A regular file in this scan's own listing of a directory has a canonical path (list() takes
      // canonical paths only, and a listed name is one component); anything else takes the full lexical check.
      let listed = listedFiles.get(dirRel)?.has(name) === true;
      if (!listed && !isCanonical(relPath)) {
        const r = resolveLexical(relPath, actor);
        if (!("abs" in r)) throw refuse(r);
        rel = r.rel;
        slash = rel.lastIndexOf("/");
        dirRel = slash === -1 ? "." : rel.slice(0, slash);
        name = rel.slice(slash + 1);
        listed = listedFiles.get(dirRel)?.has(name) === true;
      }
      if (rel === ".") throw new GuardFileError("is-directory", rel, ". is a directory", "EISDIR");
      // The name is judged before anything is opened: a secret file is never opened.
      const hit = denylist.matchPrefix(rel, false);
      if (hit !== null) {
        const d = denial(rel, "denylist", `protected by the denylist entry ${hit}`, actor, { kind: "file" });
        if (opts.defer !== true || !defers) throw refuse(d);
        const ticket: OpenedFile = { relPath: rel, fd: -1, at: null, size: null };
        refused.set(ticket, d);
        return ticket;
      }
      const dirFd = enter(dirRel);
      const at = `${procFd}${dirFd}/${name}`;
      if (!listed) {
        // Not seen as a regular file in this scan's own listing: lstat it first, so no device is ever opened.
        const st = lstatOrThrow(at, rel);
        if (st.isSymbolicLink()) throw refuse(denial(rel, "root-pin", "is a symbolic link", actor));
        if (st.isDirectory()) throw new GuardFileError("is-directory", rel, `${rel} is a directory`, "EISDIR");
        if (!st.isFile()) throw refuse(denial(rel, "special-file", `is a ${specialKind(st)}`, actor));
      }
      const abs = rootPrefix + rel;
      hooks.beforeOpen?.(abs, rel);
      if (opts.defer === true && defers) {
        pins.set(dirFd, (pins.get(dirFd) ?? 0) + 1);
        return { relPath: rel, fd: -1, at, size: null };
      }
      let fd: number;
      try {
        fd = openSync(at, OPEN_FILE);
      } catch (e) {
        throw openError(e, rel, actor);
      }
      return decideOpened(fd, rel, abs, actor, withoutAsking, maxBytes);
    };

    const release = (f: OpenedFile, bytesRead: number): void => {
      releaseOpened(f, bytesRead);
      if (f.at === null) return;
      const dirFd = Number(f.at.slice(procFd.length, f.at.indexOf("/", procFd.length)));
      const n = (pins.get(dirFd) ?? 0) - 1;
      if (n > 0) pins.set(dirFd, n);
      else pins.delete(dirFd);
    };

    return {
      list(relDir: string): Dirent[] {
        if (relDir !== "." && !isCanonical(relDir)) throw new GuardFileError("bad-path", relDir, `a scan lists root-relative paths as listings give them, not ${JSON.stringify(relDir)}`);
        // Listing through the descriptor lists exactly the directory that was opened.
        const entries = readdirSync(`${procFd}${enter(relDir)}`, { withFileTypes: true });
        const files = new Set<string>();
        for (const e of entries) if (e.isFile()) files.add(e.name);
        listedFiles.set(relDir, files);
        return entries;
      },
      openFile,
      defers,
      settle: settleFor(actor, refused),
      release,
      readFile: readThrough(openFile),
      canOpenAhead,
      flushLog: flushHeld,
      close() {
        for (const fd of dirs.values()) closeSync(fd);
        dirs.clear();
        pins.clear();
        flushHeld();
      },
    };
  };

  /** Without /proc: every file takes the single-read path's checks; listings are lstat-checked. */
  const pathScan = (actor: string, withoutAsking: boolean): GuardScan => {
    const openFile = (relPath: string, opts: { readonly maxBytes?: number } = {}): OpenedFile | Promise<OpenedFile> => {
      const maxBytes = opts.maxBytes ?? Infinity;
      const s = decideStatic(relPath, actor);
      if ("deny" in s) throw refuse(s.deny);
      const t = s.target;
      if (t.kind === "directory") throw new GuardFileError("is-directory", t.relPath, `${t.relPath} is a directory`, "EISDIR");
      if (t.size > maxBytes) throw tooLarge(t.relPath, t.size, maxBytes);
      const { fd } = openChecked(t, actor);
      // openChecked confirmed the very file lstat'ed; the decision follows as in a /proc scan.
      return decideOpened(fd, t.relPath, t.absPath, actor, withoutAsking, maxBytes);
    };
    return {
      list(relDir: string): Dirent[] {
        const s = decideStatic(relDir, actor);
        if ("deny" in s) throw refuse(s.deny);
        if (s.target.kind !== "directory") throw new GuardFileError("not-directory", s.target.relPath, `${s.target.relPath} is not a directory`, "ENOTDIR");
        const { fd } = openChecked(s.target, actor);
        try {
          return readdirSync(s.target.absPath, { withFileTypes: true });
        } finally {
          closeSync(fd);
        }
      },
      openFile,
      defers: false,
      settle: settleFor(actor, new WeakMap()),
      release: releaseOpened,
      readFile: readThrough(openFile),
      canOpenAhead,
      flushLog: flushHeld,
      close: flushHeld,
    };
  };

  const scan = (opts: CheckOptions = {}): GuardScan => {
    const actor = opts.actor ?? defaultActor;
    // The checkers a scan consults are those in effect when it starts.
    checkers.refresh();
    const withoutAsking = opts.withoutAsking === true;
    return HAVE_PROC_FD ? procScan(actor, withoutAsking) : pathScan(actor, withoutAsking);
  };

  const decoder = new TextDecoder("utf-8", { fatal: true });

  return {
    root: rootReal,
    denylist,
    checkers,
    async check(path, opts = {}) {
      return (await decide(path, opts, false)).d;
    },
    async admit(path, opts = {}) {
      const { d, t } = await decide(path, opts, false);
      if (d.decision === "deny" || t === undefined) throw toError(d);
      return { relPath: t.relPath, absPath: t.absPath, kind: t.kind, size: t.size, mtimeMs: t.mtimeMs };
    },
    locate,
    readFile,
    readFileSync,
    async readText(path, opts = {}) {
      const bytes = await readFile(path, { ...opts, scratch: undefined });
      try {
        return decoder.decode(bytes);
      } catch {
        throw new GuardFileError("not-utf8", path, `${path} is not UTF-8 text`);
      }
    },
    listDir(path, opts = {}) {
      const e = locate(path, opts);
      if (e.kind !== "directory") throw new GuardFileError("not-directory", e.relPath, `${e.relPath} is not a directory`, "ENOTDIR");
      const s = scan(opts);
      try {
        return s.list(e.relPath);
      } finally {
        s.close();
      }
    },
    scan,
    isProtected(relPath, isDir) {
      return denylist.match(relPath, isDir);
    },
    startTurn() {
      turnReads = 0;
      turnBytes = 0;
    },
  };
}

/** A relative path with no empty, "." or ".." component and no NUL: what listings produce. */
function isCanonical(p: string): boolean {
  if (p.length > MAX_PATH_BYTES / 4) return false; // the full check measures it
  if (p === "" || p.charCodeAt(0) === 0x2f || p.charCodeAt(p.length - 1) === 0x2f || p.includes("\0") || p.includes("//")) return false;
  if (p === "." || p === ".." || p.startsWith("./") || p.startsWith("../") || p.endsWith("/.") || p.endsWith("/..")) return false;
  return !p.includes("/./") && !p.includes("/../");
}


/**
 * Whether the file system holding `dir` ignores case: an entry of `dir` whose
 * name has letters is looked up with their case swapped, and is the same file.
 * Without such an entry, `dir` itself is tried in its parent. False when
 * nothing can tell (a case-sensitive answer only narrows what the denylist's
 * own entries already match whatever the case).
 */
export function caseInsensitiveAt(dir: string): boolean {
  const swap = (name: string): string => {
    let out = "";
    for (const ch of name) {
      const up = ch.toUpperCase();
      out += up === ch ? ch.toLowerCase() : up;
    }
    return out;
  };
  const same = (a: string, b: string): boolean | null => {
    const x = lstatSync(a, { throwIfNoEntry: false });
    if (x === undefined) return null;
    const y = lstatSync(b, { throwIfNoEntry: false });
    return y !== undefined && x.dev === y.dev && x.ino === y.ino;
  };
  try {
    for (const name of readdirSync(dir).slice(0, 64)) {
      const other = swap(name);
      if (other === name) continue;
      const r = same(join(dir, name), join(dir, other));
      if (r !== null) return r;
    }
    const base = basename(dir);
    const other = swap(base);
    if (other !== base) return same(dir, join(dirname(dir), other)) === true;
  } catch {
    // unreadable: say case-sensitive
  }
  return false;
}
