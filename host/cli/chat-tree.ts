// `nodwyn chat`'s commands of the session tree and the lifecycle: /tree (/checkpoints), /undo, /redo, /fork, /model, /title.

import type { AgentSession } from "../session/agent.js";
import type { ConflictAnswer, MoveResult } from "../session/tree-control.js";
import type { ChatInput } from "./chat-input.js";

/** What the commands need from the chat around them. */
export interface TreeChat {
  agent: AgentSession;
  readonly input: ChatInput;
  readonly write: (text: string) => void;
  /** Switches the chat to another session (a fork), closing the current one; absent: the fork is only made. */
  readonly switchTo?: (session: string) => Promise<AgentSession>;
  /** Moves the conversation to the configured model NAME (a [models.NAME] entry or scripted:FILE). */
  readonly switchModel?: (name: string) => Promise<string>;
}

/** The first words of a message, on one line. */
export function firstWords(text: string, max = 48): string {
  const s = text.replace(/\s+/g, " ").trim();
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}

function clock(ts: string): string {
  const d = new Date(ts);
  return Number.isNaN(d.getTime()) ? ts : d.toISOString().slice(11, 19);
}

/** The session tree as text: each turn indented under its parent, its time, first words, files changed; the head marked. */
export function renderTree(t: ReturnType<AgentSession["checkpoints"]>): string {
  if (t.turns.length === 0) return "The session has no turns yet.\n";
  const by = new Map(t.turns.map((x) => [x.turn, x]));
  const lines: string[] = [];
  const walk = (turn: number, depth: number) => {
    const x = by.get(turn);
    if (x === undefined) return;
    const files = x.files.length === 0 ? "no files" : x.files.length === 1 ? `1 file (${x.files[0]})` : `${x.files.length} files`;
    const mark = x.turn === t.head ? "● " : x.onBranch ? "│ " : "  ";
    lines.push(`${mark}${"  ".repeat(depth)}${String(x.turn).padStart(3)}  ${clock(x.ts)}  ${JSON.stringify(firstWords(x.text))}  ${files}${x.outcome && x.outcome !== "done" ? ` · ${x.outcome}` : ""}${x.turn === t.head ? "  ← head" : ""}`);
    for (const c of x.children) walk(c, x.children.length > 1 ? depth + 1 : depth);
  };
  for (const x of t.turns) if (x.parent === 0) walk(x.turn, t.turns.filter((y) => y.parent === 0).length > 1 ? 1 : 0);
  const head = t.head === 0 ? "the start (before turn 1)" : `turn ${t.head}`;
  return (
    `Session tree — head at ${head}${t.redo !== null ? `; /redo returns to turn ${t.redo}` : ""}:\n` +
    lines.join("\n") +
    "\n/tree N continues from turn N (its files as they were after it; /tree 0 is the start), /undo rewinds the last turn, --keep-files leaves the files.\n"
  );
}

function describe(m: MoveResult): string {
  if (m.seq === 0) return "cancelled: nothing was changed.";
  const where = m.to === 0 ? "the start" : `turn ${m.to}`;
  const parts = [`${m.reason === "redo" ? "redone" : m.reason === "undo" ? "undone" : "moved"}: the head is at ${where}`];
  if (m.files === "restored") parts.push(`restored ${m.restored.length === 1 ? m.restored[0] : `${m.restored.length} files (${m.restored.join(", ")})`}`);
  if (m.kept.length > 0) parts.push(`left as they are: ${m.kept.join(", ")}`);
  if (m.files === "none") parts.push("no file to restore");
  return parts.join("; ") + ".";
}

/** Asks about files changed since nodwyn last saw them, on the chat's input. */
function askConflict(c: TreeChat): (files: readonly string[]) => Promise<ConflictAnswer> {
  return async (files) => {
    c.write(`These files changed since the turn (not by it): ${files.join(", ")}`);
    for (;;) {
      const a = await c.input.question("[o]verwrite them, [k]eep yours and restore the rest, [c]ancel: ");
      const k = (a ?? "c").trim().toLowerCase();
      if (k === "o" || k === "overwrite") return "overwrite";
      if (k === "k" || k === "keep") return "keep";
      if (k === "c" || k === "cancel" || a === null) return "cancel";
    }
  };
}

/** Handles one of the tree's and lifecycle's commands; false when `name` is none of them. */
export async function treeCommand(c: TreeChat, name: string, args: string): Promise<boolean> {
  const words = args.split(/\s+/).filter(Boolean);
  const keepFiles = words.includes("--keep-files");
  const rest = words.filter((w) => w !== "--keep-files");
  const opts = { keepFiles, ask: askConflict(c) };
  switch (name) {
    case "tree":
    case "checkpoints": {
      if (rest.length === 0) {
        c.write(renderTree(c.agent.checkpoints()));
        return true;
      }
      const n = Number(rest[0]);
      if (!Number.isSafeInteger(n) || n < 0 || rest.length > 1) {
        c.write(`/${name}: give a turn's number (/${name} 2), or nothing to see the tree`);
        return true;
      }
      c.write(describe(await c.agent.moveTo(n, opts)));
      return true;
    }
    case "undo":
      if (rest.length > 0) {
        c.write(`/undo takes no argument but --keep-files (/tree N rewinds to a turn)`);
        return true;
      }
      c.write(describe(await c.agent.undo(opts)));
      return true;
    case "redo":
      c.write(describe(await c.agent.redo(opts)));
      return true;
    case "fork": {
      const f = c.agent.fork();
      if (c.switchTo === undefined) {
        c.write(`forked into session ${f.session} at turn ${f.turn}: nodwyn resume ${f.session} continues it`);
        return true;
      }
      const from = c.agent.id;
      c.agent = await c.switchTo(f.session);
      c.write(`forked ${from} at turn ${f.turn}: this chat is now session ${f.session} (nodwyn resume ${from} returns to the original)`);
      return true;
    }
    case "title": {
      const title = args.trim();
      c.agent.setTitle(title);
      c.write(title === "" ? "the session's title is taken back" : `the session is titled ${JSON.stringify(title)}`);
      return true;
    }
    case "model": {
      const m = args.trim();
      if (m === "") {
        c.write(`the session talks to ${c.agent.model.id} on ${c.agent.model.server}${c.agent.model.name ? ` (${c.agent.model.name})` : ""}; /model NAME moves it to another configured model`);
        return true;
      }
      if (c.switchModel === undefined) {
        c.write("/model: this chat cannot change its model");
        return true;
      }
      c.write(await c.switchModel(m));
      return true;
    }
    default:
      return false;
  }
}
