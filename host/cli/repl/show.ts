// How the REPL prints a value: `write` syntax laid out to the terminal's width, shortened or whole, coloured or not.
//
// Shortened (a value printed at the prompt on a terminal): at most `length`
// elements of a list or vector, then "… N more"; strings cut at `string`
// characters with "[… N more characters]" after them; nesting deeper than
// `depth` shown as (…); at most `lines` lines in all. Whole (`,pp`, and any
// output that is not a terminal): everything, laid out the same way. Circular
// structure gets datum labels (#0= … #0#) as `write` gives it, so printing
// always ends. The text without colour is valid `write` output when whole.

import { Char, Keyword, MString, NIL, Pair, Procedure, Sym, Flonum, Ratnum, Compnum, writeToString } from "../../../interpreter/api.js";
import type { Style } from "../terminal/style.js";
import { styleFor } from "../terminal/style.js";

/** The limits of a shortened value; null fields mean no limit. */
export interface ShowLimits {
  readonly depth: number;
  readonly length: number;
  readonly string: number;
  readonly lines: number;
}

/** What a value printed at the prompt of a terminal is cut to. */
export const TERMINAL_LIMITS: ShowLimits = { depth: 12, length: 100, string: 1000, lines: 60 };

const NO_LIMITS: ShowLimits = { depth: Infinity, length: Infinity, string: Infinity, lines: Infinity };

export interface ShowOptions {
  /** null or undefined: the whole value. */
  readonly limits?: ShowLimits | null;
  /** Columns to lay out to (default 80). */
  readonly width?: number;
  readonly style?: Style;
  /** Said after the value when something was left out (e.g. ",pp shows it whole"). */
  readonly moreHint?: string;
}

type Kind = "number" | "string" | "symbol" | "keyword" | "boolean" | "special" | "more" | "plain";

interface Atom {
  readonly t: "atom";
  readonly text: string;
  readonly kind: Kind;
}
interface Seq {
  readonly t: "seq";
  readonly open: string;
  readonly close: string;
  readonly items: Doc[];
  /** After a dot: the improper tail. */
  tail: Doc | null;
  /** Symbol at the head of a list, for code layout. */
  readonly head: string | null;
  /** Datum labels: index of the element whose pair is referred to (0: the list itself) → label, -1 until numbered. */
  labels: Map<number, number> | null;
}
interface Ref {
  readonly t: "ref";
  readonly target: Seq;
  readonly index: number;
}
type Doc = Atom | Seq | Ref;

class TooDeep extends Error {}

/** Where a container sits on the walk's path: its document and, for a list's later pairs, their index. */
interface PathEntry {
  readonly seq: Seq;
  readonly index: number;
}

function atomKind(x: unknown): Kind {
  if (typeof x === "number" || typeof x === "bigint" || x instanceof Flonum || x instanceof Ratnum || x instanceof Compnum) return "number";
  if (typeof x === "boolean") return "boolean";
  if (x instanceof MString || x instanceof Char) return "string";
  if (x instanceof Sym) return "symbol";
  if (x instanceof Keyword) return "keyword";
  return "special";
}

function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** Builds the document of a value within the limits. */
function build(root: unknown, lim: ShowLimits): Doc {
  const path = new Map<object, PathEntry>();
  // Nesting beyond what the JS stack allows is printed with plain `write` instead (the whole value only).
  const MAX_NEST = 3000;
  const walk = (x: unknown, depth: number): Doc => {
    if (depth > MAX_NEST) throw new TooDeep();
    if (x instanceof Pair || Array.isArray(x) || x instanceof Uint8Array) {
      const on = path.get(x as object);
      if (on !== undefined) {
        (on.seq.labels ??= new Map()).set(on.index, -1);
        return { t: "ref", target: on.seq, index: on.index };
      }
      if (depth >= lim.depth) return { t: "atom", text: x instanceof Pair ? "(…)" : x instanceof Uint8Array ? "#u8(…)" : "#(…)", kind: "more" };
    }
    if (x instanceof Pair) {
      const head = x.car instanceof Sym ? x.car.name : null;
      // 'x `x ,x ,@x as the reader writes them.
      if (head !== null && x.cdr instanceof Pair && x.cdr.cdr === NIL) {
        const prefix = head === "quote" ? "'" : head === "quasiquote" ? "`" : head === "unquote" ? "," : head === "unquote-splicing" ? ",@" : null;
        if (prefix !== null && !path.has(x.cdr)) {
          const seq: Seq = { t: "seq", open: prefix, close: "", items: [], tail: null, head: null, labels: null };
          path.set(x, { seq, index: 0 });
          seq.items.push(walk(x.cdr.car, depth + 1));
          path.delete(x);
          return seq;
        }
      }
      const seq: Seq = { t: "seq", open: "(", close: ")", items: [], tail: null, head, labels: null };
      const spine: object[] = [];
      let p: unknown = x;
      let i = 0;
      while (p instanceof Pair) {
        const on = path.get(p);
        if (on !== undefined) {
          // The list runs into a pair on the path: a cycle through its cdr.
          (on.seq.labels ??= new Map()).set(on.index, -1);
          seq.tail = { t: "ref", target: on.seq, index: on.index };
          break;
        }
        if (i >= lim.length) {
          let n = 0;
          for (let q: unknown = p; q instanceof Pair && n < 1e7; q = q.cdr) n++;
          seq.items.push({ t: "atom", text: `… ${count(n)}${n >= 1e7 ? "+" : ""} more`, kind: "more" });
          p = NIL;
          break;
        }
        path.set(p, { seq, index: i });
        spine.push(p);
        seq.items.push(walk(p.car, depth + 1));
        p = p.cdr;
        i++;
      }
      if (p !== NIL && !(p instanceof Pair) && seq.tail === null) seq.tail = walk(p, depth + 1);
      for (const s of spine) path.delete(s);
      return seq;
    }
    if (Array.isArray(x) || x instanceof Uint8Array) {
      const bytes = x instanceof Uint8Array;
      const seq: Seq = { t: "seq", open: bytes ? "#u8(" : "#(", close: ")", items: [], tail: null, head: null, labels: null };
      path.set(x, { seq, index: 0 });
      const n = x.length;
      for (let i = 0; i < Math.min(n, lim.length); i++) seq.items.push(bytes ? { t: "atom", text: String(x[i]), kind: "number" } : walk(x[i], depth + 1));
      if (n > lim.length) seq.items.push({ t: "atom", text: `… ${count(n - lim.length)} more`, kind: "more" });
      path.delete(x);
      return seq;
    }
    if (x instanceof MString && x.length > lim.string) {
      const s = x.toString();
      const cps = [...s];
      return { t: "atom", text: writeToString(new MString(cps.slice(0, lim.string).join("")), "write") + `[… ${count(cps.length - lim.string)} more characters]`, kind: "string" };
    }
    if (x instanceof Procedure) return { t: "atom", text: writeToString(x, "write"), kind: "special" };
    // Records, conditions and other objects print as `write` does, cut when shortening.
    const text = lim.length === Infinity ? writeToString(x, "write") : shortText(x, 400);
    return { t: "atom", text, kind: atomKind(x) };
  };
  return walk(root, 0);
}

function shortText(x: unknown, max: number): string {
  const s = writeToString(x, "write");
  return s.length > max ? s.slice(0, max) + "…" : s;
}

/** Special forms whose first operand stays on the first line, the body indented by two. */
const BODY_FORMS = new Set([
  "define", "define-values", "define-record-type", "define-syntax", "define-library", "lambda", "case-lambda", "let", "let*", "letrec", "letrec*",
  "let-values", "let*-values", "let-syntax", "letrec-syntax", "syntax-rules", "when", "unless", "do", "case", "guard", "parameterize",
  "dynamic-wind", "with-exception-handler", "call-with-current-continuation", "call/cc", "begin", "delay", "delay-force", "if", "cond", "and", "or",
]);

/** Numbers the labels in printing order. */
function numberLabels(d: Doc, next: { n: number }): void {
  if (d.t === "seq") {
    if (d.labels !== null) for (const k of [...d.labels.keys()].sort((a, b) => a - b)) if (d.labels.get(k) === -1) d.labels.set(k, next.n++);
    for (const i of d.items) numberLabels(i, next);
    if (d.tail) numberLabels(d.tail, next);
  }
}

/** Width of a document on one line, stopping once it passes `max`. */
function flatWidth(d: Doc, max: number): number {
  if (d.t === "atom") return d.text.length;
  if (d.t === "ref") return 4;
  let w = d.open.length + d.close.length + (d.labels?.has(0) ? 3 : 0);
  for (let i = 0; i < d.items.length; i++) {
    w += flatWidth(d.items[i] as Doc, max - w) + (i > 0 ? 1 : 0);
    if (d.labels !== null && i > 0 && d.labels.has(i)) w += 8;
    if (w > max) return w;
  }
  if (d.tail) w += 3 + flatWidth(d.tail, max - w);
  return w;
}

class Printer {
  out = "";
  col = 0;
  line = 0;
  cut = false;
  constructor(
    private readonly width: number,
    private readonly maxLines: number,
    private readonly st: Style,
  ) {}

  text(s: string, kind: Kind | null = null): void {
    if (this.cut) return;
    this.out += kind === null ? s : this.paint(s, kind);
    this.col += s.length;
  }

  private paint(s: string, kind: Kind): string {
    const st = this.st;
    switch (kind) {
      case "number":
        return st.number(s);
      case "string":
        return st.string(s);
      case "symbol":
        return st.symbol(s);
      case "keyword":
        return st.keyword(s);
      case "boolean":
        return st.boolean(s);
      case "special":
        return st.special(s);
      case "more":
        return st.dim(s);
      case "plain":
        return s;
      default: {
        const never: never = kind;
        return never;
      }
    }
  }

  newline(indent: number): void {
    if (this.cut) return;
    if (this.line + 1 >= this.maxLines) {
      this.out += " " + this.st.dim("…");
      this.cut = true;
      return;
    }
    this.out += "\n" + " ".repeat(indent);
    this.col = indent;
    this.line++;
  }

  label(n: number | undefined, ref: boolean): void {
    if (n === undefined) return;
    this.text(`#${n}${ref ? "#" : "="}`, "special");
  }

  doc(d: Doc): void {
    if (this.cut) return;
    if (d.t === "atom") return this.text(d.text, d.kind);
    if (d.t === "ref") return this.label(d.target.labels?.get(d.index), true);
    this.label(d.labels?.get(0), false);
    const start = this.col;
    const flat = flatWidth(d, this.width - start + 1) <= this.width - start;
    this.text(d.open);
    let extraClose = 0;
    const items = d.items;
    const sep = (i: number, indent: number, broken: boolean) => {
      // A later pair of this list that something refers to: its label, written in dotted form.
      const l = i > 0 ? d.labels?.get(i) : undefined;
      if (broken) this.newline(indent);
      else this.text(" ");
      if (l !== undefined) {
        this.text(". ");
        this.label(l, false);
        this.text("(");
        extraClose++;
      }
    };
    if (flat) {
      items.forEach((it, i) => {
        if (i > 0) sep(i, 0, false);
        this.doc(it);
      });
    } else if (d.head !== null && items.length >= 2 && (BODY_FORMS.has(d.head) || !items.every((it) => it.t === "atom"))) {
      const head = items[0] as Doc;
      this.doc(head);
      if (BODY_FORMS.has(d.head)) {
        // (define (f x)⏎  body …): the first operand on this line, the rest indented by two.
        const indent = start + d.open.length + 1;
        if (items.length > 1) {
          sep(1, 0, false);
          this.doc(items[1] as Doc);
        }
        for (let i = 2; i < items.length; i++) {
          sep(i, indent, true);
          this.doc(items[i] as Doc);
        }
      } else {
        // A call: the operands aligned under the first one, or under the operator when it is long.
        const short = this.col - start <= 16;
        const indent = short ? this.col + 1 : start + d.open.length + 1;
        for (let i = 1; i < items.length; i++) {
          sep(i, indent, !(short && i === 1));
          this.doc(items[i] as Doc);
        }
      }
    } else if (items.every((it) => it.t === "atom")) {
      // Atoms only (numbers, strings, symbols): as many on a line as fit.
      const indent = start + d.open.length;
      items.forEach((it, i) => {
        if (i > 0) sep(i, indent, this.col + 1 + (it as Atom).text.length > this.width);
        this.doc(it);
      });
    } else {
      const indent = start + d.open.length;
      items.forEach((it, i) => {
        if (i > 0) sep(i, indent, true);
        this.doc(it);
      });
    }
    if (d.tail) {
      this.text(" . ");
      this.doc(d.tail);
    }
    this.text(")".repeat(extraClose) + d.close);
  }
}

/** The text of a value as the REPL prints it (without a trailing newline). */
export function showValue(v: unknown, o: ShowOptions = {}): string {
  const lim = o.limits ?? NO_LIMITS;
  const st = o.style ?? styleFor(false);
  let d: Doc;
  try {
    d = build(v, lim);
  } catch (e) {
    if (e instanceof TooDeep) return writeToString(v, "write");
    throw e;
  }
  numberLabels(d, { n: 0 });
  const p = new Printer(Math.max(20, o.width ?? 80), lim.lines, st);
  p.doc(d);
  let out = p.out;
  const shortened = p.cut || (lim !== NO_LIMITS && hasMore(d));
  if (shortened && o.moreHint) out += "\n" + st.dim(o.moreHint);
  return out;
}

function hasMore(d: Doc): boolean {
  if (d.t === "atom") return d.kind === "more" || d.text.includes("[… ");
  if (d.t === "ref") return false;
  return d.items.some(hasMore) || (d.tail !== null && hasMore(d.tail));
}
