// The session tree's host side: each turn's checkpoint, and head moves (/undo, /redo, /tree) that restore files and are recorded.
//
// The tree itself is folded from the log (host/checkpoint/tree.ts) and is the
// window's branch filter; this module captures the working tree before a turn
// first changes it (a write, a command) and after the turn, records
// `checkpoint`, and moves the head: it works out which files the move
// restores, asks the person about every one they changed since nodwyn last saw
// it, restores the rest, and records `head.move`. Nothing is deleted: the
// tree as it was left is captured first (head.move's `left`).

import type { LogWriter } from "../log/index.js";
import { CheckpointError, CheckpointStore, SessionTree } from "../checkpoint/index.js";

/** The person's answer about files they changed since the turn: overwrite them, keep theirs (restore the rest), or cancel the move. */
export type ConflictAnswer = "overwrite" | "keep" | "cancel";

/** Asks the person about files a move would overwrite; absent: their files are kept. */
export type AskConflict = (files: readonly string[], move: { readonly from: number; readonly to: number; readonly reason: string }) => Promise<ConflictAnswer>;

/** What a head move did. */
export interface MoveResult {
  readonly from: number;
  readonly to: number;
  readonly reason: "undo" | "redo" | "tree";
  readonly files: "restored" | "kept" | "none";
  readonly restored: readonly string[];
  readonly kept: readonly string[];
  /** The head.move's seq; 0 when the person cancelled (nothing recorded, nothing changed). */
  readonly seq: number;
}

/** A move that cannot be made, said to the person or the strategy. */
export class TreeError extends Error {
  constructor(
    readonly code: "nothing-to-undo" | "nothing-to-redo" | "no-such-turn" | "turn-running" | "no-checkpoints",
    message: string,
  ) {
    super(message);
    this.name = "TreeError";
  }
}

export class TreeControl {
  readonly tree = new SessionTree();
  private store: CheckpointStore | null | undefined = undefined;
  private before: string | null = null;

  constructor(
    private readonly o: {
      readonly root: string;
      readonly dataDir: string;
      readonly session: string;
      readonly writer: LogWriter;
      /** Folds what the log gained into the window (and so into the tree). */
      readonly sync: () => void;
    },
  ) {}

  /** The store, opened on first use; null (with a note) when checkpoints cannot be kept here. */
  private storeOrNull(): CheckpointStore | null {
    if (this.store !== undefined) return this.store;
    try {
      this.store = CheckpointStore.open(this.o.root, { dataDir: this.o.dataDir, session: this.o.session });
    } catch (e) {
      this.store = null;
      this.o.writer.append("note", { text: `checkpoints are off: ${(e as Error).message}`, topic: "checkpoint" });
    }
    return this.store;
  }

  /** Before the running turn first changes the tree: captures it (once per turn). */
  beforeChange(turn: number): void {
    if (this.before !== null) return;
    const s = this.storeOrNull();
    if (s === null) return;
    try {
      this.before = s.capture(`nodwyn: before turn ${turn} of ${this.o.session}`);
    } catch (e) {
      this.o.writer.append("note", { text: `the checkpoint before turn ${turn} failed: ${(e as Error).message}`, topic: "checkpoint" });
    }
  }

  /** After a turn: when it captured a checkpoint, captures the tree again and records `checkpoint` (before turn.end). */
  endTurn(turn: number): readonly string[] {
    const before = this.before;
    this.before = null;
    if (before === null || this.store == null) return [];
    try {
      const after = this.store.capture(`nodwyn: after turn ${turn} of ${this.o.session}`);
      const files = this.store.changed(before, after);
      this.o.writer.append("checkpoint", { turn, before, after, files, store: this.store.kind, ref: this.store.ref });
      return files;
    } catch (e) {
      this.o.writer.append("note", { text: `the checkpoint after turn ${turn} failed: ${(e as Error).message}`, topic: "checkpoint" });
      return [];
    }
  }

  /** A fork's ref keeps the checkpoints its copied turns name (when this session has any). */
  shareWith(session: string): void {
    const s = this.storeOrNull();
    if (s === null) return;
    try {
      s.shareWith(session);
    } catch (e) {
      this.o.writer.append("note", { text: `the fork ${session} could not keep this session's checkpoints: ${(e as Error).message}`, topic: "checkpoint" });
    }
  }

  /** The parent of the head: where /undo goes. */
  undoTarget(): number {
    this.o.sync();
    const h = this.tree.head;
    if (h === 0) throw new TreeError("nothing-to-undo", "there is no turn to undo: the session is at its start");
    return this.tree.turns.get(h)?.parent ?? 0;
  }

  /** Where /redo goes: the turn the last rewind left. */
  redoTarget(): number {
    this.o.sync();
    const r = this.tree.redoTarget;
    if (r === null) throw new TreeError("nothing-to-redo", "there is nothing to redo: no rewind since the last turn");
    return r;
  }

  /**
   * Moves the head to `to` (a turn, or 0 for the start), restoring the files
   * the turns between change unless keepFiles; a file whose content is not
   * what nodwyn last saw there is put to `ask` (kept without one).
   */
  async move(to: number, reason: "undo" | "redo" | "tree", o: { readonly keepFiles?: boolean; readonly ask?: AskConflict; readonly actor?: string } = {}): Promise<MoveResult> {
    this.o.sync();
    const from = this.tree.head;
    if (to !== 0 && !this.tree.turns.has(to)) throw new TreeError("no-such-turn", `there is no turn ${to} in this session (it has ${this.tree.size}; /tree shows them)`);
    const plan = this.tree.fileMoves(from, to);
    let restored: string[] = [];
    let kept: string[] = [];
    let left: string | undefined;
    let files: MoveResult["files"] = "none";
    if (plan.size > 0 && o.keepFiles) {
      files = "kept";
      kept = [...plan.keys()].sort();
    } else if (plan.size > 0) {
      const store = this.storeOrNull();
      if (store === null) throw new TreeError("no-checkpoints", "the files cannot be restored: checkpoints are off in this session (use --keep-files to move without them)");
      left = store.capture(`nodwyn: the tree as ${reason} left it (turn ${from})`);
      const paths = [...plan.keys()].sort();
      const now = store.entries(left, paths);
      const changedSince: string[] = [];
      const bases = new Map<string, string[]>();
      for (const p of paths) {
        const b = plan.get(p)!.base;
        bases.set(b, [...(bases.get(b) ?? []), p]);
      }
      for (const [b, ps] of bases) {
        const be = store.entries(b, ps);
        for (const p of ps) if (!CheckpointStore.same(now.get(p), be.get(p))) changedSince.push(p);
      }
      changedSince.sort();
      let skip = new Set<string>();
      if (changedSince.length > 0) {
        const answer = o.ask ? await o.ask(changedSince, { from, to, reason }) : "keep";
        if (answer === "cancel") return { from, to: from, reason, files: "none", restored: [], kept: [], seq: 0 };
        if (answer === "keep") skip = new Set(changedSince);
      }
      const todo = new Map<string, string>();
      for (const p of paths) if (!skip.has(p)) todo.set(p, plan.get(p)!.target);
      // Only what differs from its target is written.
      const differ = new Map<string, string>();
      const targets = new Map<string, string[]>();
      for (const [p, c] of todo) targets.set(c, [...(targets.get(c) ?? []), p]);
      for (const [c, ps] of targets) {
        const te = store.entries(c, ps);
        for (const p of ps) if (!CheckpointStore.same(now.get(p), te.get(p))) differ.set(p, c);
      }
      store.restore(differ);
      // What the move changed on disk (a path already as its target needed nothing).
      restored = [...differ.keys()].sort();
      kept = [...skip].sort();
      files = restored.length > 0 ? "restored" : kept.length > 0 ? "kept" : "none";
    }
    const rec = this.o.writer.append("head.move", {
      from,
      to,
      reason,
      files,
      ...(restored.length > 0 ? { restored } : {}),
      ...(kept.length > 0 ? { kept } : {}),
      ...(left !== undefined ? { left } : {}),
      actor: o.actor ?? "person",
    });
    this.o.sync();
    return { from, to, reason, files, restored, kept, seq: rec.seq };
  }
}

export { CheckpointError };
