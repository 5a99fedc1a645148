// The eviction strategy's stub (seed 001, "Stub"): what the evicted history defined, watched and noted, in the seed's exact text.
//
// The facts come from the session's own log, read as it grows: each cell the
// model evaluated (eval.req of origin "model") with its outcome (eval.result).
// A cell "opened with a ;; note" when its first non-blank line is a `;;`
// comment; a cell whose note is `;; watch NAME …` is watched under NAME, and
// the stub shows the value of the newest cell watched under each name. The
// definitions are the top-level define forms of the cells that succeeded.

import { EOF, Pair, Reader, SchemeError, Sym, SymbolTable } from "../../interpreter/api.js";
import type { LogRecord } from "../log/index.js";
import type { LogFollower } from "./log-follower.js";

/** Names shown in defined: and watching:, then `+N more`. */
export const STUB_NAMES = 24;
/** Note lines shown, the newest, then `+N earlier`. */
export const STUB_NOTES = 100;
/** The longest note line (` seq N · NOTE` after its leading space). */
export const STUB_NOTE_CHARS = 320;
/** The longest value a watching: entry shows. */
export const STUB_VALUE_CHARS = 60;

/** The header of a notes block. */
export const NOTES_HEADER = "[the evicted cells noted and judged, oldest first; (recall-entry seq) reads one whole";

/** One cell the model evaluated. */
export interface Cell {
  /** Its eval.req's seq. */
  readonly seq: number;
  readonly source: string;
  /** The text of its opening `;;` lines, or undefined. */
  readonly note?: string;
  /** The name it is watched under (`;; watch NAME`). */
  readonly watch?: string;
  ok?: boolean;
  value?: string;
  error?: string;
  /** Its definitions, read once when a stub first needs them. */
  defined?: readonly string[];
}

/** The text of the `;;` lines a cell opens with (joined by a space), or undefined. */
export function cellNote(source: string): string | undefined {
  const lines = source.split(/\r?\n/);
  let i = 0;
  while (i < lines.length && (lines[i] as string).trim() === "") i++;
  const parts: string[] = [];
  for (; i < lines.length; i++) {
    const m = /^\s*;;+ ?(.*)$/.exec(lines[i] as string);
    if (m === null) break;
    const text = (m[1] as string).trim();
    if (text !== "") parts.push(text);
  }
  return parts.length > 0 ? parts.join(" ") : undefined;
}

/** The name a note watches: `watch NAME`, NAME up to a space or a colon. */
export function watchName(note: string | undefined): string | undefined {
  if (note === undefined) return undefined;
  const m = /^watch\s+([^\s:]+)/i.exec(note);
  return m === null ? undefined : (m[1] as string);
}

function symName(x: unknown): string | undefined {
  return x instanceof Sym ? x.name : undefined;
}

/** The names a top-level form defines (define, define-values, define-record-type, define-syntax, inside begin). */
export function definedNames(form: unknown, out: string[] = []): string[] {
  if (!(form instanceof Pair)) return out;
  const head = symName(form.car);
  const rest = form.cdr;
  if (head === "begin") {
    for (let p = rest; p instanceof Pair; p = p.cdr) definedNames(p.car, out);
    return out;
  }
  if (!(rest instanceof Pair)) return out;
  if (head === "define" || head === "define-syntax" || head === "define-library" || head === "define-macro") {
    // (define name …), (define (name . args) …), (define ((curried a) b) …)
    let target: unknown = rest.car;
    while (target instanceof Pair) target = target.car;
    const n = symName(target);
    if (n !== undefined) out.push(n);
  } else if (head === "define-values") {
    for (let p: unknown = rest.car; ; p = (p as Pair).cdr) {
      if (p instanceof Pair) {
        const n = symName(p.car);
        if (n !== undefined) out.push(n);
      } else {
        const n = symName(p);
        if (n !== undefined) out.push(n);
        break;
      }
    }
  } else if (head === "define-record-type") {
    // (define-record-type name (ctor field …) pred (field accessor [modifier]) …)
    let p: unknown = rest;
    const type = p instanceof Pair ? p.car : undefined;
    const tn = symName(type instanceof Pair ? type.car : type);
    if (tn !== undefined) out.push(tn);
    p = (p as Pair).cdr;
    if (p instanceof Pair) {
      const ctor = p.car;
      const cn = symName(ctor instanceof Pair ? ctor.car : ctor);
      if (cn !== undefined) out.push(cn);
      p = p.cdr;
    }
    if (p instanceof Pair) {
      const pn = symName(p.car);
      if (pn !== undefined) out.push(pn);
      p = p.cdr;
    }
    for (; p instanceof Pair; p = p.cdr) {
      const spec = p.car;
      if (!(spec instanceof Pair)) continue;
      for (let q = spec.cdr; q instanceof Pair; q = q.cdr) {
        const n = symName(q.car);
        if (n !== undefined) out.push(n);
      }
    }
  }
  return out;
}

/** The names a cell's source defines at its top level; a source the reader refuses defines nothing it could not read. */
export function cellDefinitions(source: string): string[] {
  const out: string[] = [];
  const reader = new Reader(source, { file: "<eval>", symbols: new SymbolTable(), locations: false });
  for (let i = 0; i < 10_000; i++) {
    let d: unknown;
    try {
      d = reader.read();
    } catch (e) {
      if (e instanceof SchemeError) break;
      throw e;
    }
    if (d === EOF) break;
    definedNames(d, out);
  }
  return out;
}

/** The model's cells of one session, kept up to date from its log. */
export class CellBook {
  private readonly cells: Cell[] = [];
  private readonly bySeq = new Map<number, Cell>();

  constructor(private readonly follower: LogFollower | null = null) {}

  /** Folds one record in (records in seq order). */
  add(r: LogRecord): void {
    const p = r.payload as Record<string, unknown>;
    if (r.kind === "eval.req" && p.origin === "model" && typeof p.source === "string") {
      const note = cellNote(p.source);
      const watch = watchName(note);
      const c: Cell = { seq: r.seq, source: p.source, ...(note !== undefined ? { note } : {}), ...(watch !== undefined ? { watch } : {}) };
      this.cells.push(c);
      this.bySeq.set(r.seq, c);
    } else if (r.kind === "eval.result" && typeof p.req_seq === "number") {
      const c = this.bySeq.get(p.req_seq);
      if (c === undefined) return;
      c.ok = p.ok === true;
      if (typeof p.value === "string") c.value = p.value;
      if (typeof p.error === "string") c.error = p.error;
    }
  }

  /** Reads what the log gained since the last call. */
  sync(): void {
    this.follower?.read((r) => this.add(r));
  }

  /** The cells whose eval.req is in [from, through], oldest first. */
  range(from: number, through: number): Cell[] {
    let lo = 0;
    let hi = this.cells.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.cells[mid] as Cell).seq < from) lo = mid + 1;
      else hi = mid;
    }
    const out: Cell[] = [];
    for (let i = lo; i < this.cells.length && (this.cells[i] as Cell).seq <= through; i++) out.push(this.cells[i] as Cell);
    return out;
  }
}

/** What one part of a stub says: the evicted seqs, how many turns (or rounds), and the cells in them. */
export interface StubPart {
  readonly from: number;
  readonly through: number;
  readonly count: number;
}

/** At most `max` names, then `+N more`; "" when there are none. */
export function nameList(names: readonly string[], max = STUB_NAMES): string {
  const shown = names.slice(0, max).join(", ");
  return names.length > max ? `${shown}, +${names.length - max} more` : shown;
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

function clip(s: string, max: number): string {
  return s.length <= max ? s : s.slice(0, max - 1) + "…";
}

/** The defined: names of cells (each once, in the order first defined), from the cells that succeeded. */
export function definitionsOf(cells: readonly Cell[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const c of cells) {
    if (c.ok !== true) continue;
    if (c.defined === undefined) c.defined = cellDefinitions(c.source);
    for (const n of c.defined)
      if (!seen.has(n)) {
        seen.add(n);
        out.push(n);
      }
  }
  return out;
}

/** The watching: entries: NAME=VALUE of the newest cell watched under each name, in the order the names were first watched. */
export function watchesOf(cells: readonly Cell[]): string[] {
  const last = new Map<string, Cell>();
  for (const c of cells) if (c.watch !== undefined && c.ok !== undefined) last.set(c.watch, c);
  return [...last.entries()].map(([name, c]) => `${name}=${clip(oneLine(c.ok ? (c.value ?? "") : `error: ${c.error ?? "failed"}`), STUB_VALUE_CHARS)}`);
}

/** The notes block of cells: the newest STUB_NOTES lines, then `+N earlier` first; "" when no cell has a note. */
export function notesBlock(cells: readonly Cell[]): string {
  const noted = cells.filter((c) => c.note !== undefined);
  if (noted.length === 0) return "";
  const shown = noted.slice(-STUB_NOTES);
  const lines = [NOTES_HEADER];
  if (noted.length > shown.length) lines.push(` +${noted.length - shown.length} earlier`);
  for (const c of shown) lines.push(` ${clip(`seq ${c.seq} · ${oneLine(c.note as string)}`, STUB_NOTE_CHARS)}`);
  return lines.join("\n") + "]";
}

function facts(cells: readonly Cell[]): string {
  const defined = definitionsOf(cells);
  const watching = watchesOf(cells);
  return (defined.length > 0 ? ` · defined: ${nameList(defined)}` : "") + (watching.length > 0 ? ` · watching: ${nameList(watching)}` : "");
}

/** The whole-turns stub line: `[history evicted: seq A–B · N turns · defined: … · watching: … · recall: …]`. */
export function turnsStubLine(p: StubPart, cells: readonly Cell[]): string {
  return `[history evicted: seq ${p.from}–${p.through} · ${p.count} turns${facts(cells)} · recall: (recall-log :match "text" :before ${p.through + 1})]`;
}

/** The running turn's stub line: `[turn history evicted: N rounds · seq A–B · … · recall: (recall-log :match "text" :after A-1 :before B+1)]`. */
export function roundsStubLine(p: StubPart, cells: readonly Cell[]): string {
  return `[turn history evicted: ${p.count} rounds · seq ${p.from}–${p.through}${facts(cells)} · recall: (recall-log :match "text" :after ${p.from - 1} :before ${p.through + 1})]`;
}

/** The whole stub: the turns part and the running turn's part, each followed by its notes block when any. */
export function stubText(book: CellBook, parts: { readonly turns?: StubPart; readonly rounds?: StubPart }): string {
  const out: string[] = [];
  if (parts.turns !== undefined && parts.turns.count > 0) {
    const cells = book.range(parts.turns.from, parts.turns.through);
    out.push(turnsStubLine(parts.turns, cells));
    const notes = notesBlock(cells);
    if (notes !== "") out.push(notes);
  }
  if (parts.rounds !== undefined && parts.rounds.count > 0) {
    const cells = book.range(parts.rounds.from, parts.rounds.through);
    out.push(roundsStubLine(parts.rounds, cells));
    const notes = notesBlock(cells);
    if (notes !== "") out.push(notes);
  }
  return out.join("\n");
}

/** What an eviction narrowing records in its label, so the next eviction (and a resume) knows what the stub covers. */
export interface EvictionState {
  readonly turns: StubPart | null;
  /** The running turn's shed rounds, and the seq of that turn's user message. */
  readonly rounds: (StubPart & { readonly user: number }) | null;
}

/** The label of an eviction's context.narrow: `evicted turns A-B xN; rounds C-D xM of U`. */
export function stateLabel(s: EvictionState): string {
  const parts: string[] = [];
  if (s.turns !== null) parts.push(`turns ${s.turns.from}-${s.turns.through} x${s.turns.count}`);
  if (s.rounds !== null) parts.push(`rounds ${s.rounds.from}-${s.rounds.through} x${s.rounds.count} of ${s.rounds.user}`);
  return `evicted ${parts.join("; ")}`;
}

/** The state a label says; null for a label that is not an eviction's. */
export function parseStateLabel(label: string | undefined): EvictionState | null {
  if (label === undefined || !label.startsWith("evicted ")) return null;
  const t = /turns (\d+)-(\d+) x(\d+)/.exec(label);
  const r = /rounds (\d+)-(\d+) x(\d+) of (\d+)/.exec(label);
  return {
    turns: t === null ? null : { from: Number(t[1]), through: Number(t[2]), count: Number(t[3]) },
    rounds: r === null ? null : { from: Number(r[1]), through: Number(r[2]), count: Number(r[3]), user: Number(r[4]) },
  };
}
