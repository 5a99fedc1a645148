// The session tree, folded from the log: every turn a node, its parent the head when it began, the head moved by head.move records.
//
// A pure function of the log (issue 17, docs/decisions/0027): nothing of the
// tree is kept anywhere else, so a resumed session, a reader and replay see
// the same tree. Turns are numbered as the loop numbers them (the n-th
// user.msg of an agent session is turn n); a turn's records are those from its
// user.msg to its turn.end. Turn 0 is the root: the session before any turn.
// A record outside every turn (session.start, session.model, a note between
// turns) is on every branch.
//
// It is the window's BranchFilter (host/window/window-v2.ts): a head.move
// changes which turns are on the branch, and the window shows the
// conversation events of those turns only.

import type { LogRecord } from "../log/index.js";

/** The checkpoint of one turn (a `checkpoint` record): the tree before it changed anything, after it, and what differs. */
export interface TurnCheckpoint {
  readonly seq: number;
  readonly before: string;
  readonly after: string;
  readonly files: readonly string[];
  readonly store: string;
}

/** One turn of the session tree. */
export interface TreeTurn {
  readonly turn: number;
  /** The turn the head was at when it began (0: the root). */
  readonly parent: number;
  /** Its user.msg. */
  readonly seq: number;
  readonly text: string;
  readonly ts: string;
  endSeq: number;
  outcome: string;
  checkpoint: TurnCheckpoint | null;
  readonly children: number[];
}

/** A head.move, as folded. */
export interface HeadMove {
  readonly seq: number;
  readonly from: number;
  readonly to: number;
  readonly reason: string;
}

/** The session tree of one log. Fold records in order with onRecord. */
export class SessionTree {
  readonly turns = new Map<number, TreeTurn>();
  private headTurn = 0;
  private open = 0;
  private count = 0;
  private lastSeq = 0;
  /** The turn each seq belongs to (0: none). */
  private readonly turnOf: number[] = [0];
  private onBranch = new Set<number>();
  /** The moves a redo can undo: each rewind pushes the turn it left; a redo pops; a new turn clears. */
  private redoStack: number[] = [];
  readonly moves: HeadMove[] = [];

  /** The turn the head is at (0: before any turn). */
  get head(): number {
    return this.headTurn;
  }

  /** The turn a redo returns to, or null. */
  get redoTarget(): number | null {
    return this.redoStack.at(-1) ?? null;
  }

  /** How many turns the log holds (on every branch). */
  get size(): number {
    return this.count;
  }

  /** Folds one record in (BranchFilter.onRecord): true when the turns on the branch changed. */
  onRecord(r: LogRecord): boolean {
    if (r.seq <= this.lastSeq) return false;
    this.lastSeq = r.seq;
    const p = r.payload as Record<string, any>;
    let changed = false;
    switch (r.kind) {
      case "user.msg": {
        const n = ++this.count;
        const t: TreeTurn = { turn: n, parent: this.headTurn, seq: r.seq, text: String(p.text ?? ""), ts: r.ts, endSeq: 0, outcome: "", checkpoint: null, children: [] };
        this.turns.get(this.headTurn)?.children.push(n);
        this.turns.set(n, t);
        this.headTurn = n;
        this.open = n;
        this.onBranch.add(n);
        this.redoStack = [];
        break;
      }
      case "head.move": {
        const to = Number(p.to);
        if (!Number.isSafeInteger(to) || (to !== 0 && !this.turns.has(to))) break;
        const from = this.headTurn;
        this.moves.push({ seq: r.seq, from, to, reason: String(p.reason ?? "") });
        if (p.reason === "redo") this.redoStack.pop();
        else if (from !== to) this.redoStack.push(from);
        this.headTurn = to;
        const next = new Set(this.path(to));
        changed = next.size !== this.onBranch.size || [...next].some((x) => !this.onBranch.has(x));
        this.onBranch = next;
        break;
      }
      default:
        break;
    }
    this.turnOf[r.seq] = this.open;
    if (r.kind === "checkpoint") {
      const t = this.turns.get(Number(p.turn));
      if (t) t.checkpoint = { seq: r.seq, before: String(p.before), after: String(p.after), files: Array.isArray(p.files) ? p.files.map(String) : [], store: String(p.store ?? "") };
    }
    if (r.kind === "turn.end" && this.open !== 0) {
      const t = this.turns.get(this.open);
      if (t) {
        t.endSeq = r.seq;
        t.outcome = String(p.outcome ?? "");
      }
      this.open = 0;
    }
    return changed;
  }

  /** BranchFilter.includes: the record at seq is outside every turn, or in a turn on the head's branch. */
  includes(seq: number): boolean {
    const t = this.turnOf[seq] ?? 0;
    return t === 0 || this.onBranch.has(t);
  }

  /** The turns from the first to `turn`, in order (the branch that ends at it). */
  path(turn: number): number[] {
    const out: number[] = [];
    for (let t = turn; t !== 0; ) {
      out.push(t);
      const n = this.turns.get(t);
      if (n === undefined) break;
      t = n.parent;
    }
    return out.reverse();
  }

  /** Whether the turn is on the head's branch. */
  onHeadBranch(turn: number): boolean {
    return this.onBranch.has(turn);
  }

  /** The turn the record at seq belongs to (0: none). */
  turnAt(seq: number): number {
    return this.turnOf[seq] ?? 0;
  }

  /**
   * What moving the head from `from` to `to` does to files: for each path a
   * turn changed on the way down from their common ancestor to either end,
   * the checkpoint whose tree holds the content it should have at `to`
   * (target) and the one it should have now (base). A path the `to` side
   * changed takes that side's latest after; else the `from` side's earliest
   * before. Turns without a checkpoint changed no file.
   */
  fileMoves(from: number, to: number): Map<string, { target: string; base: string }> {
    const a = this.path(from);
    const b = this.path(to);
    let k = 0;
    while (k < a.length && k < b.length && a[k] === b[k]) k++;
    const up = a.slice(k); // undone, oldest first
    const down = b.slice(k); // redone, oldest first
    const out = new Map<string, { target: string; base: string }>();
    const earliestBefore = new Map<string, string>();
    const latestAfterUp = new Map<string, string>();
    for (const t of up) {
      const c = this.turns.get(t)?.checkpoint;
      if (!c) continue;
      for (const f of c.files) {
        if (!earliestBefore.has(f)) earliestBefore.set(f, c.before);
        latestAfterUp.set(f, c.after);
      }
    }
    const latestAfterDown = new Map<string, string>();
    const earliestBeforeDown = new Map<string, string>();
    for (const t of down) {
      const c = this.turns.get(t)?.checkpoint;
      if (!c) continue;
      for (const f of c.files) {
        if (!earliestBeforeDown.has(f)) earliestBeforeDown.set(f, c.before);
        latestAfterDown.set(f, c.after);
      }
    }
    for (const f of new Set([...earliestBefore.keys(), ...latestAfterDown.keys()])) {
      const target = latestAfterDown.get(f) ?? (earliestBefore.get(f) as string);
      const base = latestAfterUp.get(f) ?? (earliestBeforeDown.get(f) as string);
      out.set(f, { target, base });
    }
    return out;
  }
}
