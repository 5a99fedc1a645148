// Checkpoints of a working tree as git commit objects that no branch, index, stash or HEAD of the person's ever sees.
//
// In a git repository (docs/decisions/0027): the tree is captured with git's
// plumbing and a temporary index of nodwyn's own (GIT_INDEX_FILE, seeded from
// a copy of the person's index so that only changed files are hashed): `add
// -A`, `write-tree`, `commit-tree` with the previous checkpoint as parent,
// and the commit kept under refs/nodwyn/checkpoints/SESSION, so that git's
// garbage collection keeps it. The person's index, HEAD, branches and stash
// are never written; ignored files are not captured (as `git stash -u`).
// Outside git: the same, in a private bare repository of nodwyn's under the
// data directory (checkpoints/ROOT-HASH.git) whose work tree is the root: a
// copy of each file the turns change, content-addressed, deduplicated.
//
// Restoring writes the chosen paths from a checkpoint's tree (blobs read with
// `git cat-file --batch`), atomically, and removes the paths it does not hold;
// it never goes through the person's index either.

import { execFileSync, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmdirSync, symlinkSync, unlinkSync, writeFileSync, chmodSync } from "node:fs";
import { dirname, join } from "node:path";

/** A checkpoint store failure, said plainly. */
export class CheckpointError extends Error {
  readonly domain = "checkpoint" as const;
  constructor(
    readonly code: "no-git" | "git-failed" | "bad-path",
    message: string,
  ) {
    super(message);
    this.name = "CheckpointError";
  }
}

/** One path of a checkpoint's tree: its mode and blob, or absent. */
export interface TreeEntry {
  readonly mode: string;
  readonly oid: string;
}

/** The ref that keeps a session's checkpoints. */
export function checkpointRef(session: string): string {
  return `refs/nodwyn/checkpoints/${session}`;
}

const IDENTITY = {
  GIT_AUTHOR_NAME: "nodwyn",
  GIT_AUTHOR_EMAIL: "nodwyn@localhost",
  GIT_COMMITTER_NAME: "nodwyn",
  GIT_COMMITTER_EMAIL: "nodwyn@localhost",
};

/** The store of one session's checkpoints over a root. */
export class CheckpointStore {
  /** "git": the person's repository; "private": nodwyn's own under the data directory. */
  readonly kind: "git" | "private";
  readonly ref: string;
  /** The git directory the checkpoints are in (the repository's, or the private one). */
  readonly gitDir: string;
  private readonly index: string;
  private readonly env: NodeJS.ProcessEnv;
  private seeded = false;
  private last: string | null = null;

  private constructor(
    readonly root: string,
    kind: "git" | "private",
    gitDir: string,
    index: string,
    session: string,
    private readonly personIndex: string | null,
  ) {
    this.kind = kind;
    this.gitDir = gitDir;
    this.index = index;
    this.ref = checkpointRef(session);
    const base: NodeJS.ProcessEnv = {};
    for (const k of ["PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT"]) if (process.env[k] !== undefined) base[k] = process.env[k];
    this.env = {
      ...base,
      ...IDENTITY,
      GIT_DIR: gitDir,
      GIT_WORK_TREE: root,
      GIT_INDEX_FILE: index,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_OPTIONAL_LOCKS: "0",
      GIT_TERMINAL_PROMPT: "0",
    };
    try {
      this.last = this.git(["rev-parse", "--verify", "--quiet", this.ref]).trim() || null;
    } catch {
      this.last = null;
    }
  }

  /**
   * The store for a session over `root`: the repository's own when root is in
   * one, else a private one under `dataDir/checkpoints`. The temporary index
   * lives under `dataDir/checkpoints` too. Throws CheckpointError no-git when
   * git cannot be run.
   */
  static open(root: string, o: { readonly dataDir: string; readonly session: string }): CheckpointStore {
    const dir = join(o.dataDir, "checkpoints");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const index = join(dir, `${o.session}.index`);
    let gitDir: string | null = null;
    const probe = spawnSync("git", ["rev-parse", "--absolute-git-dir", "--show-toplevel"], { cwd: root, encoding: "utf8", env: { PATH: process.env.PATH ?? "", GIT_CONFIG_NOSYSTEM: "1" } });
    if (probe.error) throw new CheckpointError("no-git", `checkpoints need git, which could not be run (${(probe.error as NodeJS.ErrnoException).code ?? probe.error.message}): install git`);
    if (probe.status === 0) {
      const [g, top] = probe.stdout.trim().split("\n");
      if (g && top && top === root) gitDir = g;
    }
    if (gitDir !== null) {
      const personIndex = join(gitDir, "index");
      return new CheckpointStore(root, "git", gitDir, index, o.session, existsSync(personIndex) ? personIndex : null);
    }
    const key = createHash("sha256").update(root).digest("hex").slice(0, 16);
    const priv = join(dir, `${key}.git`);
    if (!existsSync(join(priv, "HEAD"))) {
      execFileSync("git", ["init", "-q", "--bare", priv], { env: { PATH: process.env.PATH ?? "", GIT_CONFIG_NOSYSTEM: "1" } });
      writeFileSync(join(priv, "info", "exclude"), ".nodwyn/\nnode_modules/\n");
      writeFileSync(join(priv, "root"), root + "\n");
    }
    return new CheckpointStore(root, "private", priv, index, o.session, null);
  }

  private git(args: string[], input?: string | Buffer): string {
    const r = spawnSync("git", args, { cwd: this.root, env: this.env, ...(input !== undefined ? { input: typeof input === "string" ? Buffer.from(input) : input } : {}), maxBuffer: 1 << 30 });
    if (r.error) throw new CheckpointError("no-git", `git could not be run: ${r.error.message}`);
    if (r.status !== 0) throw new CheckpointError("git-failed", `git ${args[0]} failed (${r.status}): ${r.stderr.toString("utf8").trim().split("\n").slice(-3).join(" ")}`);
    return r.stdout.toString("utf8");
  }

  private gitBuf(args: string[], input?: string | Buffer): Buffer {
    const r = spawnSync("git", args, { cwd: this.root, env: this.env, ...(input !== undefined ? { input: typeof input === "string" ? Buffer.from(input) : input } : {}), maxBuffer: 1 << 30 });
    if (r.error) throw new CheckpointError("no-git", `git could not be run: ${r.error.message}`);
    if (r.status !== 0) throw new CheckpointError("git-failed", `git ${args[0]} failed (${r.status}): ${r.stderr.toString("utf8").trim()}`);
    return r.stdout;
  }

  /** Captures the working tree as a checkpoint commit (kept under the session's ref) and returns its id. */
  capture(message = "nodwyn checkpoint"): string {
    if (!this.seeded) {
      // The person's index as the starting point: its stat data lets add skip every unchanged file.
      if (!existsSync(this.index) && this.personIndex !== null) {
        try {
          copyFileSync(this.personIndex, this.index);
        } catch {
          // an index that cannot be copied: everything is hashed once
        }
      }
      this.seeded = true;
    }
    this.git(["add", "-A", "--ignore-errors", "--", "."]);
    const tree = this.git(["write-tree"]).trim();
    const args = ["commit-tree", tree, "-m", message];
    if (this.last !== null) args.splice(2, 0, "-p", this.last);
    const commit = this.git(args).trim();
    this.git(["update-ref", "-m", "nodwyn checkpoint", this.ref, commit, ...(this.last !== null ? [this.last] : [])]);
    this.last = commit;
    return commit;
  }

  /** Keeps this session's checkpoints under another session's ref too (a fork's copied turns restore from them). */
  shareWith(session: string): void {
    if (this.last === null) return;
    this.git(["update-ref", "-m", "nodwyn fork", checkpointRef(session), this.last]);
  }

  /** The paths whose content or mode differ between two checkpoints. */
  changed(a: string, b: string): string[] {
    if (a === b) return [];
    const out = this.git(["diff-tree", "-r", "-z", "--no-renames", "--name-only", a, b]);
    return out.split("\0").filter(Boolean);
  }

  /** The entries of the given paths in a checkpoint (absent paths are left out). */
  entries(commit: string, paths: readonly string[]): Map<string, TreeEntry> {
    const m = new Map<string, TreeEntry>();
    if (paths.length === 0) return m;
    const want = new Set(paths);
    // ls-tree by pathspec, in bounded groups (an argument list has a limit).
    for (let i = 0; i < paths.length; i += 500) {
      const out = this.git(["ls-tree", "-r", "-z", "--full-tree", commit, "--", ...paths.slice(i, i + 500)]);
      for (const line of out.split("\0")) {
        if (!line) continue;
        const tab = line.indexOf("\t");
        const [mode, , oid] = line.slice(0, tab).split(" ");
        const path = line.slice(tab + 1);
        if (want.has(path) && mode && oid) m.set(path, { mode, oid });
      }
    }
    return m;
  }

  /** Whether two checkpoints hold the same entry at a path. */
  static same(a: TreeEntry | undefined, b: TreeEntry | undefined): boolean {
    return a === undefined ? b === undefined : b !== undefined && a.mode === b.mode && a.oid === b.oid;
  }

  /**
   * Makes each path of `plan` hold what its checkpoint holds: the blob written
   * (atomically, with its mode; a link as a link), or the file removed when the
   * checkpoint has none (and directories left empty by that, up to the root).
   */
  restore(plan: ReadonlyMap<string, string>): { written: string[]; removed: string[] } {
    const byCommit = new Map<string, string[]>();
    for (const [p, c] of plan) {
      if (p.split("/").some((x) => x === ".." || x === "" || x === ".git")) throw new CheckpointError("bad-path", `a checkpoint path ${JSON.stringify(p)} cannot be restored`);
      byCommit.set(c, [...(byCommit.get(c) ?? []), p]);
    }
    const put = new Map<string, TreeEntry>();
    const remove: string[] = [];
    for (const [c, ps] of byCommit) {
      const es = this.entries(c, ps);
      for (const p of ps) {
        const e = es.get(p);
        if (e === undefined) remove.push(p);
        else put.set(p, e);
      }
    }
    // Every directory on the way checked before anything is written: a link there (a command may have made one) refuses the whole restore.
    for (const p of [...put.keys(), ...remove]) this.checkParents(p);
    const blobs = this.blobs([...new Set([...put.values()].map((e) => e.oid))]);
    const written: string[] = [];
    for (const [p, e] of [...put].sort()) {
      const abs = join(this.root, p);
      this.makeParents(p);
      const data = blobs.get(e.oid) as Buffer;
      const tmp = join(dirname(abs), `.${p.split("/").pop()!.slice(0, 100)}.nodwyn-${randomBytes(6).toString("hex")}.tmp`);
      if (e.mode === "120000") symlinkSync(data.toString("utf8"), tmp);
      else {
        writeFileSync(tmp, data, { flag: "wx", mode: e.mode === "100755" ? 0o755 : 0o644 });
        chmodSync(tmp, e.mode === "100755" ? 0o755 : 0o644);
      }
      const st = lstatSync(abs, { throwIfNoEntry: false });
      if (st?.isDirectory()) {
        unlinkSync(tmp);
        continue; // a directory where the file was: left as the person has it
      }
      renameSync(tmp, abs);
      written.push(p);
    }
    const removed: string[] = [];
    for (const p of remove.sort()) {
      const abs = join(this.root, p);
      const st = lstatSync(abs, { throwIfNoEntry: false });
      if (st === undefined || st.isDirectory()) continue;
      unlinkSync(abs);
      removed.push(p);
      for (let d = dirname(p); d !== "." && d !== ""; d = dirname(d)) {
        try {
          if (readdirSync(join(this.root, d)).length > 0) break;
          rmdirSync(join(this.root, d));
        } catch {
          break;
        }
      }
    }
    return { written, removed };
  }

  /** Refuses a path whose existing directories on the way are not all real directories. */
  private checkParents(p: string): void {
    let dir = this.root;
    for (const c of p.split("/").slice(0, -1)) {
      dir = join(dir, c);
      const st = lstatSync(dir, { throwIfNoEntry: false });
      if (st === undefined) return;
      if (st.isSymbolicLink() || !st.isDirectory()) throw new CheckpointError("bad-path", `cannot restore ${p}: ${dir.slice(this.root.length + 1)} is not a directory (it is a link or a file now); nothing was restored`);
    }
  }

  /** Directories on the way, made when missing; a link on the way is refused. */
  private makeParents(p: string): void {
    const parts = p.split("/").slice(0, -1);
    let dir = this.root;
    for (const c of parts) {
      dir = join(dir, c);
      const st = lstatSync(dir, { throwIfNoEntry: false });
      if (st === undefined) mkdirSync(dir);
      else if (st.isSymbolicLink() || !st.isDirectory()) throw new CheckpointError("bad-path", `cannot restore ${p}: ${dir.slice(this.root.length + 1)} is not a directory (it is a link or a file now)`);
    }
  }

  /** The contents of blobs by id (git cat-file --batch). */
  private blobs(oids: readonly string[]): Map<string, Buffer> {
    const m = new Map<string, Buffer>();
    if (oids.length === 0) return m;
    const out = this.gitBuf(["cat-file", "--batch"], oids.join("\n") + "\n");
    let off = 0;
    for (const oid of oids) {
      const nl = out.indexOf(10, off);
      const head = out.subarray(off, nl).toString("utf8").split(" ");
      const size = Number(head[2]);
      if (head[1] !== "blob" || !Number.isSafeInteger(size)) throw new CheckpointError("git-failed", `the checkpoint object ${oid} is missing or not a file (${head.join(" ")})`);
      m.set(oid, out.subarray(nl + 1, nl + 1 + size));
      off = nl + 1 + size + 1;
    }
    return m;
  }
}
