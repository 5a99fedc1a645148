// A multi-line line editor for a terminal in raw mode: editing keys, history, Ctrl-R search, Tab completion.
//
// An entry may span several lines (a Scheme form typed over a few lines): Enter
// submits it when `isComplete` says it is whole, else it starts a new line with
// the continuation prompt (Alt-Enter always does). Up and Down move between its
// lines and, from its first or last line, through the history, where a
// multi-line entry comes back whole. The editor only draws: it owns the rows
// from the prompt down, redraws them after every key (go up to the first row,
// clear to the end of the screen, write, put the cursor back) and leaves the
// cursor below them when the entry is done, so that output never overwrites it.

import type { History } from "./history.js";
import type { Key } from "./keys.js";
import { stringWidth } from "./width.js";

/** Where the editor writes, and the terminal's width. */
export interface EditorOutput {
  write(s: string): void;
  columns(): number;
}

/** What Tab offers: candidates replacing text[start, cursor). */
export interface Completion {
  readonly start: number;
  readonly candidates: readonly string[];
}

export interface EntryOptions {
  /** The first line's prompt (may hold colour escapes). */
  readonly prompt: string;
  /** The prompt of the lines after the first. */
  readonly continuation?: string;
  /** Whether Enter submits the text (default: always). */
  readonly isComplete?: (text: string) => boolean;
  /** Candidates for Tab at `cursor`, or null. */
  readonly complete?: (text: string, cursor: number) => Completion | null;
  /** The indentation of a new line, from the text before it. */
  readonly indent?: (before: string) => string;
  /** Up, Down and Ctrl-R go through it; the submitted entry is added to it. */
  readonly history?: History | null;
  /** Text to start with (a draft). */
  readonly initial?: string;
}

/** How an entry ended: submitted, dropped by Ctrl-C (with what was typed), or Ctrl-D on an empty line. */
export type EntryResult = { readonly kind: "entry"; readonly text: string } | { readonly kind: "interrupt"; readonly text: string } | { readonly kind: "eof" };

interface Search {
  query: string;
  /** Index of the matching history entry, or -1. */
  index: number;
  failed: boolean;
  /** The text and cursor before the search, put back by Ctrl-G. */
  readonly text: string;
  readonly cursor: number;
}

/** Characters that are part of a word for Alt-B, Alt-F, Ctrl-W. */
const WORD = /[^\s()[\]{}"';`,]/;

/** Control characters shown as ^X (two columns). */
function visible(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\x00-\x08\x0b-\x1f\x7f]|\t/g, (c) => (c === "\t" ? "^I" : c === "\x7f" ? "^?" : "^" + String.fromCharCode(c.charCodeAt(0) + 64)));
}

function lineCol(text: string, cursor: number): { line: number; col: number } {
  const before = text.slice(0, cursor);
  const nl = before.lastIndexOf("\n");
  let line = 0;
  for (let i = before.indexOf("\n"); i !== -1; i = before.indexOf("\n", i + 1)) line++;
  return { line, col: cursor - (nl + 1) };
}

function lineStart(text: string, cursor: number): number {
  return text.lastIndexOf("\n", cursor - 1) + 1;
}

function lineEnd(text: string, cursor: number): number {
  const i = text.indexOf("\n", cursor);
  return i < 0 ? text.length : i;
}

/** Length of the code point before / at an index (surrogate pairs are one character). */
function prevLen(text: string, i: number): number {
  if (i <= 0) return 0;
  const c = text.charCodeAt(i - 1);
  return i >= 2 && c >= 0xdc00 && c <= 0xdfff ? 2 : 1;
}
function nextLen(text: string, i: number): number {
  if (i >= text.length) return 0;
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? 2 : 1;
}

/** The longest common prefix of some strings. */
export function commonPrefix(xs: readonly string[]): string {
  if (xs.length === 0) return "";
  let p = xs[0] as string;
  for (const x of xs) while (!x.startsWith(p)) p = p.slice(0, -1);
  return p;
}

/** Candidates laid out in columns, each row at most `width` wide. */
export function formatColumns(items: readonly string[], width: number): string {
  const w = Math.max(...items.map((s) => stringWidth(s))) + 2;
  const perRow = Math.max(1, Math.floor(width / w));
  const rows = Math.ceil(items.length / perRow);
  const out: string[] = [];
  for (let r = 0; r < rows; r++) {
    let line = "";
    for (let c = 0; c < perRow; c++) {
      const item = items[c * rows + r];
      if (item === undefined) continue;
      line += item + " ".repeat(Math.max(0, w - stringWidth(item)));
    }
    out.push(line.trimEnd());
  }
  return out.join("\n");
}

export class LineEditor {
  private opts: EntryOptions | null = null;
  private resolve: ((r: EntryResult) => void) | null = null;
  private text = "";
  private cursor = 0;
  /** The row of the drawn area the terminal's cursor is on (0: the prompt's row). */
  private cursorRow = 0;
  /** The history entry shown (entries.length: the draft being typed). */
  private histIndex = 0;
  private draft = "";
  private kill = "";
  private search: Search | null = null;
  private lastKey = "";

  constructor(private readonly out: EditorOutput) {}

  /** True while an entry is being edited. */
  get active(): boolean {
    return this.opts !== null;
  }

  /** Starts an entry: draws the prompt; resolves when it is submitted, dropped or ended. */
  read(opts: EntryOptions): Promise<EntryResult> {
    if (this.opts !== null) throw new Error("LineEditor.read: an entry is already being edited");
    this.opts = opts;
    this.text = opts.initial ?? "";
    this.cursor = this.text.length;
    this.cursorRow = 0;
    this.histIndex = opts.history?.entries.length ?? 0;
    this.draft = "";
    this.search = null;
    this.lastKey = "";
    this.render();
    return new Promise((resolve) => (this.resolve = resolve));
  }

  /** Prints text above the entry being edited (output that arrives while the person types), then redraws it. */
  printAbove(text: string): void {
    if (this.opts === null) {
      this.out.write(text);
      return;
    }
    this.out.write(this.toTop() + "\x1b[J" + text.replace(/\r?\n/g, "\r\n") + (text.endsWith("\n") ? "" : "\r\n"));
    this.cursorRow = 0;
    this.render();
  }

  /** Draws the entry again (after the terminal was resized or cleared). */
  redraw(): void {
    if (this.opts !== null) this.render();
  }

  /** Handles one key. */
  handle(key: Key): void {
    if (this.opts === null) return;
    const id = `${key.ctrl ? "C-" : ""}${key.meta ? "M-" : ""}${key.name}`;
    const last = this.lastKey;
    this.lastKey = id;
    if (this.search !== null && this.searchKey(key, id)) return;
    switch (id) {
      case "text":
        this.insert(key.text ?? "");
        break;
      case "paste":
        this.paste(key.text ?? "");
        return;
      case "return":
        this.enter(false);
        return;
      case "M-return":
      case "C-j":
        this.newline();
        break;
      case "tab":
        this.tab(last === "tab");
        return;
      case "backspace":
      case "C-h":
        this.deleteBack();
        break;
      case "delete":
        this.deleteForward();
        break;
      case "C-d":
        if (this.text === "") return this.finish({ kind: "eof" }, "");
        this.deleteForward();
        break;
      case "C-c":
        return this.finish({ kind: "interrupt", text: this.text }, "^C");
      case "left":
      case "C-b":
        this.cursor -= prevLen(this.text, this.cursor);
        break;
      case "right":
      case "C-f":
        this.cursor += nextLen(this.text, this.cursor);
        break;
      case "home":
      case "C-a":
        this.cursor = lineStart(this.text, this.cursor);
        break;
      case "end":
      case "C-e":
        this.cursor = lineEnd(this.text, this.cursor);
        break;
      case "M-b":
      case "C-left":
        this.cursor = this.wordLeft(this.cursor);
        break;
      case "M-f":
      case "C-right":
        this.cursor = this.wordRight(this.cursor);
        break;
      case "up":
        this.up(false);
        break;
      case "down":
        this.down(false);
        break;
      case "C-p":
        this.up(true);
        break;
      case "C-n":
        this.down(true);
        break;
      case "pageup":
      case "M-<":
        this.showHistory(0);
        break;
      case "pagedown":
      case "M->":
        this.showHistory(this.opts.history?.entries.length ?? 0);
        break;
      case "C-k": {
        const end = lineEnd(this.text, this.cursor);
        // At the end of a line, Ctrl-K joins the next one.
        const to = end === this.cursor && end < this.text.length ? end + 1 : end;
        this.kill = this.text.slice(this.cursor, to);
        this.text = this.text.slice(0, this.cursor) + this.text.slice(to);
        break;
      }
      case "C-u": {
        const start = lineStart(this.text, this.cursor);
        this.kill = this.text.slice(start, this.cursor);
        this.text = this.text.slice(0, start) + this.text.slice(this.cursor);
        this.cursor = start;
        break;
      }
      case "C-w":
      case "M-backspace": {
        const start = this.wordLeft(this.cursor);
        this.kill = this.text.slice(start, this.cursor);
        this.text = this.text.slice(0, start) + this.text.slice(this.cursor);
        this.cursor = start;
        break;
      }
      case "M-d": {
        const end = this.wordRight(this.cursor);
        this.kill = this.text.slice(this.cursor, end);
        this.text = this.text.slice(0, this.cursor) + this.text.slice(end);
        break;
      }
      case "C-y":
        this.insert(this.kill);
        break;
      case "C-t": {
        // Swap the two characters before the cursor (at the end) or around it.
        let i = this.cursor;
        if (i === lineEnd(this.text, i) && i > lineStart(this.text, i)) i -= prevLen(this.text, i);
        const a = i - prevLen(this.text, i);
        const b = i + nextLen(this.text, i);
        if (a >= lineStart(this.text, i) && b <= lineEnd(this.text, i) && a < i) {
          this.text = this.text.slice(0, a) + this.text.slice(i, b) + this.text.slice(a, i) + this.text.slice(b);
          this.cursor = b;
        }
        break;
      }
      case "C-l":
        this.out.write("\x1b[H\x1b[2J");
        this.cursorRow = 0;
        break;
      case "C-r":
        this.startSearch();
        break;
      case "C-g":
      case "escape":
        break;
      default:
        return; // a key with no meaning here: nothing changes
    }
    this.render();
  }

  // ---- editing ---------------------------------------------------------------------------------------

  private insert(s: string): void {
    if (s === "") return;
    this.text = this.text.slice(0, this.cursor) + s + this.text.slice(this.cursor);
    this.cursor += s.length;
  }

  private newline(): void {
    const indent = this.opts?.indent?.(this.text.slice(0, this.cursor)) ?? "";
    this.insert("\n" + indent);
  }

  private deleteBack(): void {
    const n = prevLen(this.text, this.cursor);
    if (n === 0) return;
    // Backspace over a new line's indentation removes the indentation and the line break.
    this.text = this.text.slice(0, this.cursor - n) + this.text.slice(this.cursor);
    this.cursor -= n;
  }

  private deleteForward(): void {
    const n = nextLen(this.text, this.cursor);
    this.text = this.text.slice(0, this.cursor) + this.text.slice(this.cursor + n);
  }

  private wordLeft(i: number): number {
    while (i > 0 && !WORD.test(this.text[i - 1] as string)) i--;
    while (i > 0 && WORD.test(this.text[i - 1] as string)) i--;
    return i;
  }

  private wordRight(i: number): number {
    const n = this.text.length;
    while (i < n && !WORD.test(this.text[i] as string)) i++;
    while (i < n && WORD.test(this.text[i] as string)) i++;
    return i;
  }

  private enter(fromPaste: boolean): void {
    const complete = this.opts?.isComplete?.(this.text) ?? true;
    if (complete) {
      this.opts?.history?.add(this.text);
      this.finish({ kind: "entry", text: this.text }, "");
      return;
    }
    void fromPaste;
    this.newline();
    this.render();
  }

  /** A pasted text is inserted as it is; a paste that ends with a newline submits a complete entry. */
  private paste(s: string): void {
    const submit = s.endsWith("\n");
    this.insert(submit ? s.slice(0, -1) : s);
    if (submit && this.cursor === this.text.length) this.enter(true);
    else this.render();
  }

  // ---- history ---------------------------------------------------------------------------------------

  private showHistory(i: number): void {
    const h = this.opts?.history;
    if (!h) return;
    if (this.histIndex === h.entries.length) this.draft = this.text;
    this.histIndex = Math.max(0, Math.min(i, h.entries.length));
    this.text = this.histIndex === h.entries.length ? this.draft : (h.entries[this.histIndex] as string);
  }

  private up(always: boolean): void {
    const { line, col } = lineCol(this.text, this.cursor);
    if (line > 0 && !always) {
      const prevEnd = lineStart(this.text, this.cursor) - 1;
      const prevStart = lineStart(this.text, prevEnd);
      this.cursor = Math.min(prevStart + col, prevEnd);
      return;
    }
    if (this.histIndex === 0) return;
    this.showHistory(this.histIndex - 1);
    // An entry from above comes with the cursor on its last line.
    this.cursor = this.text.length;
  }

  private down(always: boolean): void {
    const { col } = lineCol(this.text, this.cursor);
    const end = lineEnd(this.text, this.cursor);
    if (end < this.text.length && !always) {
      const nextStart = end + 1;
      this.cursor = Math.min(nextStart + col, lineEnd(this.text, nextStart));
      return;
    }
    const h = this.opts?.history;
    if (!h || this.histIndex >= h.entries.length) return;
    this.showHistory(this.histIndex + 1);
    // From below, the cursor goes to the end of its first line.
    this.cursor = lineEnd(this.text, 0);
  }

  // ---- Ctrl-R ----------------------------------------------------------------------------------------

  private startSearch(): void {
    this.search = { query: "", index: -1, failed: false, text: this.text, cursor: this.cursor };
  }

  /** The newest entry at or before `from` that contains the query, or -1. */
  private findBack(from: number, query: string): number {
    const entries = this.opts?.history?.entries ?? [];
    for (let i = Math.min(from, entries.length - 1); i >= 0; i--) if ((entries[i] as string).includes(query)) return i;
    return -1;
  }

  private applySearch(): void {
    const s = this.search as Search;
    const entries = this.opts?.history?.entries ?? [];
    if (s.index >= 0) {
      const e = entries[s.index] as string;
      this.text = e;
      this.cursor = s.query === "" ? e.length : e.lastIndexOf(s.query);
    }
  }

  /** A key during Ctrl-R; false when the search ends and the key is handled as usual. */
  private searchKey(key: Key, id: string): boolean {
    const s = this.search as Search;
    const entries = this.opts?.history?.entries ?? [];
    switch (id) {
      case "text":
      case "paste": {
        s.query += key.text ?? "";
        const i = this.findBack(s.index >= 0 ? s.index : entries.length - 1, s.query);
        s.failed = i < 0;
        if (i >= 0) s.index = i;
        this.applySearch();
        this.render();
        return true;
      }
      case "C-r": {
        const i = s.query === "" ? -1 : this.findBack((s.index >= 0 ? s.index : entries.length) - 1, s.query);
        s.failed = s.query !== "" && i < 0;
        if (i >= 0) s.index = i;
        this.applySearch();
        this.render();
        return true;
      }
      case "backspace":
      case "C-h": {
        s.query = s.query.slice(0, -1);
        const i = s.query === "" ? -1 : this.findBack(entries.length - 1, s.query);
        s.index = i;
        s.failed = s.query !== "" && i < 0;
        if (i >= 0) this.applySearch();
        else {
          this.text = s.text;
          this.cursor = s.cursor;
        }
        this.render();
        return true;
      }
      case "C-g":
      case "C-c":
        this.text = s.text;
        this.cursor = s.cursor;
        this.search = null;
        this.render();
        return true;
      case "escape":
        this.search = null;
        if (this.histIndex === entries.length) this.draft = s.text;
        this.render();
        return true;
      default:
        // Any other key takes the match into the line and does what it does there.
        this.search = null;
        if (s.index >= 0) this.histIndex = s.index;
        return false;
    }
  }

  // ---- Tab ----------------------------------------------------------------------------------------------

  private tab(again: boolean): void {
    const c = this.opts?.complete?.(this.text, this.cursor) ?? null;
    if (c === null || c.candidates.length === 0) {
      // Nothing to complete at the start of a line: Tab indents.
      const before = this.text.slice(lineStart(this.text, this.cursor), this.cursor);
      if (before.trim() === "") {
        this.insert("  ");
        this.render();
      } else this.out.write("\x07");
      return;
    }
    const typed = this.text.slice(c.start, this.cursor);
    if (c.candidates.length === 1) {
      this.text = this.text.slice(0, c.start) + c.candidates[0] + this.text.slice(this.cursor);
      this.cursor = c.start + (c.candidates[0] as string).length;
      this.render();
      return;
    }
    const prefix = commonPrefix(c.candidates);
    if (prefix.length > typed.length) {
      this.text = this.text.slice(0, c.start) + prefix + this.text.slice(this.cursor);
      this.cursor = c.start + prefix.length;
      this.render();
      return;
    }
    // Several, no longer common prefix: list them below and draw the entry again under the list.
    void again;
    const list = c.candidates.length > 200 ? [...c.candidates.slice(0, 200), `… ${c.candidates.length - 200} more`] : c.candidates;
    this.out.write(this.toEnd() + "\r\n" + formatColumns(list, this.out.columns()).replace(/\n/g, "\r\n") + "\r\n");
    this.cursorRow = 0;
    this.render();
  }

  // ---- drawing --------------------------------------------------------------------------------------------

  private promptOf(i: number): string {
    const o = this.opts as EntryOptions;
    if (i === 0 && this.search !== null) return `(${this.search.failed ? "failed " : ""}reverse-i-search)'${this.search.query}': `;
    return i === 0 ? o.prompt : (o.continuation ?? "");
  }

  /** Rows and the end position of the current text as drawn. */
  private layout(): { starts: number[]; endRow: number; endCol: number; lines: string[]; widths: number[] } {
    const cols = Math.max(10, this.out.columns());
    const lines = this.text.split("\n");
    const starts: number[] = [];
    const widths: number[] = [];
    let row = 0;
    lines.forEach((l, i) => {
      starts.push(row);
      const w = stringWidth(this.promptOf(i)) + stringWidth(visible(l));
      widths.push(w);
      row += w === 0 ? 1 : Math.ceil(w / cols);
    });
    const lastW = widths[widths.length - 1] as number;
    const lastStart = starts[starts.length - 1] as number;
    return { starts, endRow: lastStart + Math.floor(lastW / cols), endCol: lastW % cols, lines, widths };
  }

  private toTop(): string {
    const up = this.cursorRow;
    return (up > 0 ? `\x1b[${up}A` : "") + "\r";
  }

  /** Moves the terminal's cursor to the end of the drawn entry. */
  private toEnd(): string {
    const { endRow, endCol } = this.layout();
    const down = endRow - this.cursorRow;
    this.cursorRow = endRow;
    return (down > 0 ? `\x1b[${down}B` : down < 0 ? `\x1b[${-down}A` : "") + "\r" + (endCol > 0 ? `\x1b[${endCol}C` : "");
  }

  private render(): void {
    const cols = Math.max(10, this.out.columns());
    const { starts, endRow, lines, widths } = this.layout();
    let s = this.toTop() + "\x1b[J";
    lines.forEach((l, i) => {
      if (i > 0) s += "\r\n";
      s += this.promptOf(i) + visible(l);
    });
    const lastW = widths[widths.length - 1] as number;
    // A last line that fills its row exactly leaves the cursor in the margin: go to the next row.
    if (lastW > 0 && lastW % cols === 0) s += "\r\n";
    const { line, col } = lineCol(this.text, this.cursor);
    const l = lines[line] as string;
    const w = stringWidth(this.promptOf(line)) + stringWidth(visible(l.slice(0, col)));
    const row = (starts[line] as number) + Math.floor(w / cols);
    const up = endRow - row;
    s += (up > 0 ? `\x1b[${up}A` : "") + "\r" + (w % cols > 0 ? `\x1b[${w % cols}C` : "");
    this.cursorRow = row;
    this.out.write(s);
  }

  /** Ends the entry: the cursor goes below it, with `mark` (^C) after it. */
  private finish(r: EntryResult, mark: string): void {
    this.search = null;
    this.out.write(this.toEnd() + mark + "\r\n");
    this.cursorRow = 0;
    this.opts = null;
    const resolve = this.resolve;
    this.resolve = null;
    resolve?.(r);
  }
}
