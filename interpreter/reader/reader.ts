// Reader: source text → datums with source locations, built with an explicit stack.
//
// chevrotain lexes (lexer.ts); the datum structure is built here by a loop over
// the tokens with a stack of open frames (a list, a vector, a bytevector, a
// quote-like prefix, a datum comment, a datum label), never by JS recursion, so
// 10^6 nested parentheses read like any other input. Why not a chevrotain
// parser: docs/decisions/0001-reader-chevrotain-lexer-iterative-parser.md.
//
// Text is lexed in windows that grow as reading proceeds, so reading the first
// datum of a long text (what a string port's `read` does) costs about the size of
// that datum, not of the whole text.
//
// Every malformed input raises a Scheme condition of kind "read" located at the
// offending text (1-based line, column in code points); one caused by the input
// ending inside a datum also has `code` "incomplete", which lets a REPL ask for
// more lines instead of reporting an error.

import type { IToken } from "chevrotain";
import { tokenize, tokenKind, type TokenKind } from "./lexer.js";
import { Pair, LiteralPair, NIL, markLiteral } from "../values/pair.js";
import { Sym, type SymbolTable } from "../values/symbol.js";
import { char, isScalarValue } from "../values/char.js";
import { MString } from "../values/string.js";
import { EOF } from "../values/misc.js";
import type { SourceLoc } from "../values/loc.js";
import { parseNumber } from "../values/numbers/parse.js";
import { SchemeError, makeCondition } from "../errors.js";
import { allocate, spend, LimitStop } from "../budget.js";

/** Rough nanoseconds and bytes of the datum per token read, charged to the running evaluation (budget.ts). */
const TOKEN_NS = 60;
const TOKEN_BYTES = 96;

/** How a Reader reads. */
export interface ReadOptions {
  /** File name recorded in locations and errors (default "<string>"). */
  file?: string;
  /** The interpreter's symbol table: identifiers and keywords are interned here. */
  symbols: SymbolTable;
  /** Record source locations of lists and vectors (for code); default true. */
  locations?: boolean;
  /** Start in `#!fold-case` mode (a port carries the mode from one read to the next). */
  foldCase?: boolean;
  /**
   * UTF-16 offset in `text` where reading starts (default 0). Lines and columns
   * still count from the start of `text`, so a port can keep one text and move on.
   */
  start?: number;
  /**
   * Program text (default): the strings, pairs, vectors and bytevectors read
   * are literal constants, which the Scheme mutators refuse. Data read by
   * `read` are not program text, so the port asks for mutable data
   * (docs/decisions/0044-immutable-literals.md). Mutable data carry no
   * locations: a located pair is always program text.
   */
  mutable?: boolean;
}

/**
 * Where a list (its first pair) was read from, when it was read from source
 * with locations on; undefined for anything else (vectors are not forms and
 * carry no place).
 */
export function locationOf(x: unknown): SourceLoc | undefined {
  return x instanceof LiteralPair ? x.loc : undefined;
}

/** R7RS character names (§6.6). */
const CHAR_NAMES: ReadonlyMap<string, number> = new Map([
  ["alarm", 7],
  ["backspace", 8],
  ["delete", 127],
  ["escape", 27],
  ["newline", 10],
  ["null", 0],
  ["return", 13],
  ["space", 32],
  ["tab", 9],
]);

/** Mnemonic escapes shared by strings and |symbols| (§6.7, §2.1). */
const MNEMONIC: Readonly<Record<string, string>> = { a: "\x07", b: "\b", t: "\t", n: "\n", r: "\r", '"': '"', "\\": "\\", "|": "|" };

/**
 * Case folding for `#!fold-case`. JS has no foldcase; lower∘upper∘lower gets
 * the full folding of every cased letter we know of (ß ⇒ ss, ẞ ⇒ ss, ﬁ ⇒ fi, ſ ⇒ s),
 * and final sigma is mapped back to σ as folding does. Known difference:
 * Cherokee folds to its uppercase letters in Unicode but to lowercase here, which
 * is consistent within a program (both spellings fold to the same identifier).
 */
export function foldIdentifier(s: string): string {
  // ASCII fast path: no character outside ASCII, nothing but toLowerCase to do.
  let ascii = true;
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) > 127) {
      ascii = false;
      break;
    }
  }
  if (ascii) return s.toLowerCase();
  return s.toLowerCase().toUpperCase().toLowerCase().replace(/ς/g, "σ");
}

/**
 * Stands for a datum label referenced inside its own datum. Each slot it is
 * stored in (a pair's car or cdr, a vector index) is recorded, and those slots
 * are filled when the labelled datum is complete: no walk over the datum.
 */
class LabelPlaceholder {
  readonly key: string;
  readonly objs: any[] = [];
  readonly slots: (string | number)[] = [];
  constructor(key: string) {
    this.key = key;
  }
  /** Records that obj[slot] holds this placeholder. */
  storedIn(obj: any, slot: string | number): void {
    this.objs.push(obj);
    this.slots.push(slot);
  }
}

const PENDING = Symbol("pending label");

type FrameKind = "list" | "vector" | "bytevector" | "prefix" | "comment" | "label";

/** An open construct waiting for more datums. */
class Frame {
  kind: FrameKind;
  /** Offset of the opening token (for messages). */
  start: number;
  /** The opening token's text: "(", "[", "#(", "'", "#;", "#3=" … */
  open: string;
  loc: SourceLoc | undefined;
  // list
  head: any = NIL;
  tail: Pair | null = null;
  /** 0: elements; 1: after `.`, waiting for the tail; 2: tail read, waiting for `)`. */
  dot: 0 | 1 | 2 = 0;
  // vector / bytevector
  items: any[] | null = null;
  // prefix: the symbol to wrap with; label: its key
  sym: Sym | null = null;
  key = "";
  constructor(kind: FrameKind, start: number, open: string, loc: SourceLoc | undefined) {
    this.kind = kind;
    this.start = start;
    this.open = open;
    this.loc = loc;
  }
}

/**
 * The last line/column position computed, by text. A port that starts a new
 * Reader at a later offset of the same text for each `read` would otherwise
 * count lines from the start of the text every time (quadratic in the text).
 * A pure memo of a function of the text (it holds on to one text at most):
 * sharing it between interpreters changes no result, and a miss only costs the count.
 */
const positionMemo = { text: "", off: 0, line: 1, col: 1 };

const FIRST_WINDOW = 256;
const MAX_WINDOW = 1 << 16;

/** Reads datums one at a time from a text. */
export class Reader {
  private readonly text: string;
  private readonly file: string;
  private readonly symbols: SymbolTable;
  private readonly locations: boolean;
  private readonly mutable: boolean;
  private fold: boolean;
  private readonly end: number;

  // Tokens of the current lexing window; offsets are relative to `base`.
  private toks: IToken[] = [];
  private ti = 0;
  private base = 0;
  private lexPos: number;
  private window = FIRST_WINDOW;

  private _offset: number;

  // Position cursor for locations: moves forward with the tokens.
  private posOff = 0;
  private posLine = 1;
  private posCol = 1;

  private labels: Map<string, any> | null = null;
  private placeholders: Map<string, LabelPlaceholder> | null = null;
  private abbrevs: Record<string, Sym> | null = null;

  constructor(text: string, opts: ReadOptions) {
    this.text = text;
    this.file = opts.file ?? "<string>";
    this.symbols = opts.symbols;
    this.mutable = opts.mutable ?? false;
    this.locations = (opts.locations ?? true) && !this.mutable;
    this.fold = opts.foldCase ?? false;
    this.end = text.length;
    let start = Math.max(0, Math.min(opts.start ?? 0, text.length));
    // A script's `#!/usr/bin/env …` first line is not Scheme.
    if (start === 0 && text.startsWith("#!") && (text[2] === "/" || text[2] === " ")) {
      const nl = text.search(/[\n\r]/);
      start = nl < 0 ? text.length : nl;
    }
    this.lexPos = start;
    this._offset = start;
    if (positionMemo.text === text && positionMemo.off <= start) {
      this.posOff = positionMemo.off;
      this.posLine = positionMemo.line;
      this.posCol = positionMemo.col;
    }
  }

  /** UTF-16 offset in the text just after the last datum read (or the error's text). */
  get offset(): number {
    return this._offset;
  }

  /** Whether `#!fold-case` is in effect (to carry into a Reader for the rest of a port). */
  get foldCase(): boolean {
    return this.fold;
  }

  /** Every remaining datum. */
  readAll(): any[] {
    const out: any[] = [];
    for (;;) {
      const d = this.read();
      if (d === EOF) return out;
      out.push(d);
    }
  }

  /**
   * The next datum, or EOF when only whitespace and comments remain. Throws a
   * SchemeError with a "read" condition on malformed text, and nothing else.
   */
  read(): any {
    try {
      return this.readDatum();
    } catch (e) {
      if (e instanceof SchemeError || e instanceof LimitStop) throw e;
      // A bug here, or the engine running out of memory on a giant datum, must
      // still reach Scheme as a condition, not as a JS exception.
      const msg = e instanceof Error ? e.message : String(e);
      throw new SchemeError(makeCondition("read", `internal reader error: ${msg}`, [], undefined, this.locAt(this._offset)));
    }
  }

  private readDatum(): any {
    this.labels = null;
    this.placeholders = null;
    const stack: Frame[] = [];
    for (;;) {
      const t = this.nextToken();
      if (t === null) {
        if (stack.length === 0) {
          this._offset = this.end;
          return EOF;
        }
        this.failAtEnd(stack[stack.length - 1] as Frame);
      }
      const kind = tokenKind(t);
      const img = t.image;
      const start = this.base + t.startOffset;
      const end = start + img.length;
      let value: any;

      switch (kind) {
        case "open":
        case "open-bracket":
        case "vector":
        case "bytevector": {
          this.checkDatumStart(stack, start, img, kind);
          const fk: FrameKind = kind === "vector" ? "vector" : kind === "bytevector" ? "bytevector" : "list";
          const f = new Frame(fk, start, img, this.locations && fk === "list" ? this.locAt(start) : undefined);
          if (fk !== "list") f.items = [];
          stack.push(f);
          continue;
        }
        case "close":
        case "close-bracket": {
          const f = stack[stack.length - 1];
          if (f === undefined) this.fail(`unexpected '${img}'`, start, end);
          if (f.kind === "prefix" || f.kind === "comment" || f.kind === "label")
            this.fail(`expected a datum after ${prefixName(f.open)}, found '${img}'`, start, end);
          if (f.kind === "list") {
            const want = f.open === "[" ? "]" : ")";
            if (img !== want) this.fail(`expected '${want}' to close the list opened at ${this.lineCol(f.start)}, found '${img}'`, start, end);
            if (f.dot === 1) this.fail(`expected a datum after '.', found '${img}'`, start, end);
            value = f.head;
          } else {
            const what = f.kind === "vector" ? "vector" : "bytevector";
            if (img !== ")") this.fail(`expected ')' to close the ${what} opened at ${this.lineCol(f.start)}, found '${img}'`, start, end);
            const items = f.items as any[];
            if (f.kind === "vector") {
              value = this.mutable ? items : markLiteral(items);
            } else {
              value = this.mutable ? Uint8Array.from(items) : markLiteral(Uint8Array.from(items));
            }
          }
          stack.pop();
          break;
        }
        case "quote":
        case "quasiquote":
        case "unquote":
        case "unquote-splicing": {
          this.checkDatumStart(stack, start, img, kind);
          const f = new Frame("prefix", start, img, this.locations ? this.locAt(start) : undefined);
          f.sym = this.abbrev(kind);
          stack.push(f);
          continue;
        }
        case "datum-comment":
          stack.push(new Frame("comment", start, img, undefined));
          continue;
        case "directive": {
          const d = img.slice(2).toLowerCase();
          if (d === "fold-case") this.fold = true;
          else if (d === "no-fold-case") this.fold = false;
          else this.fail(`unknown directive '${img}' (expected #!fold-case or #!no-fold-case)`, start, end);
          continue;
        }
        case "label-def": {
          this.checkDatumStart(stack, start, img, kind);
          const key = labelKey(img);
          const labels = (this.labels ??= new Map());
          if (labels.has(key)) this.fail(`datum label #${key}= defined twice`, start, end);
          labels.set(key, PENDING);
          const f = new Frame("label", start, img, undefined);
          f.key = key;
          stack.push(f);
          continue;
        }
        case "label-ref": {
          this.checkDatumStart(stack, start, img, kind);
          const key = labelKey(img);
          value = this.labelValue(key);
          if (value === undefined) this.fail(`reference to undefined datum label #${key}#`, start, end);
          break;
        }
        case "atom": {
          if (img === ".") {
            this.dot(stack, start, end);
            continue;
          }
          this.checkDatumStart(stack, start, img, kind);
          value = this.atomValue(img);
          break;
        }
        case "hash":
          this.checkDatumStart(stack, start, img, kind);
          value = this.hashValue(img, start, end);
          break;
        case "char":
          this.checkDatumStart(stack, start, img, kind);
          value = this.charValue(img, start, end);
          break;
        case "string":
          this.checkDatumStart(stack, start, img, kind);
          value = new MString(this.unescape(img, start, true), !this.mutable);
          break;
        case "bar-symbol":
          this.checkDatumStart(stack, start, img, kind);
          value = this.symbols.intern(this.unescape(img, start, false));
          break;
        case "keyword": {
          this.checkDatumStart(stack, start, img, kind);
          const name = img.slice(2);
          if (name === "") this.fail("expected a keyword name after '#:'", start, end);
          value = this.symbols.keyword(this.fold ? foldIdentifier(name) : name);
          break;
        }
        case "brace":
          this.fail(`'${img}' is reserved: use '(' and ')' for lists`, start, end);
        case "unterminated-string":
          this.fail(`unterminated string: expected '"' before the end of input`, start, this.end, true);
        case "unterminated-bar-symbol":
          this.fail(`unterminated |symbol|: expected '|' before the end of input`, start, this.end, true);
        case "unterminated-comment":
          this.fail(`unterminated block comment: expected '|#' before the end of input`, start, this.end, true);
        case "invalid":
          this.fail(`unexpected character '${img}'`, start, end);
        default:
          assertNever(kind);
      }

      // A datum is complete: hand it to the enclosing frames until one keeps it.
      for (;;) {
        const f = stack[stack.length - 1];
        if (f === undefined) {
          this._offset = end;
          return value;
        }
        if (f.kind === "list") {
          if (f.dot === 0) {
            const p = f.tail === null && f.loc !== undefined ? new LiteralPair(value, NIL, f.loc) : this.pair(value, NIL);
            if (f.tail === null) f.head = p;
            else f.tail.cdr = p;
            f.tail = p;
            if (value instanceof LabelPlaceholder) value.storedIn(p, "car");
          } else {
            (f.tail as Pair).cdr = value;
            f.dot = 2;
            if (value instanceof LabelPlaceholder) value.storedIn(f.tail, "cdr");
          }
          break;
        }
        if (f.kind === "vector") {
          const items = f.items as any[];
          if (value instanceof LabelPlaceholder) value.storedIn(items, items.length);
          items.push(value);
          break;
        }
        if (f.kind === "bytevector") {
          if (!(typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 255))
            this.fail(`expected an exact integer from 0 to 255 in the bytevector opened at ${this.lineCol(f.start)}, found '${clip(img)}'`, start, end);
          (f.items as any[]).push(value);
          break;
        }
        stack.pop();
        if (f.kind === "comment") break; // the datum is dropped
        if (f.kind === "prefix") {
          const inner = this.pair(value, NIL);
          if (value instanceof LabelPlaceholder) value.storedIn(inner, "car");
          const p = f.loc !== undefined ? new LiteralPair(f.sym, inner, f.loc) : this.pair(f.sym, inner);
          value = p;
          continue;
        }
        // A label: its datum is now known.
        const phs = this.pendingPlaceholders();
        const ph = phs?.get(f.key);
        if (ph !== undefined && value === ph) this.fail(`datum label #${f.key}= refers only to itself`, f.start, end);
        (this.labels as Map<string, any>).set(f.key, value);
        if (ph !== undefined) {
          // Fill every slot that referred to the label. When the datum is itself a
          // reference to a label still pending (`#1=#0#` inside #0's datum), the
          // slots now wait for that label instead.
          for (let i = 0; i < ph.objs.length; i++) {
            const obj = ph.objs[i];
            const slot = ph.slots[i] as string | number;
            obj[slot] = value;
            if (value instanceof LabelPlaceholder) value.storedIn(obj, slot);
          }
          phs?.delete(f.key);
        }
      }
    }
  }

  /** Placeholders of labels referenced while pending (a method, so TS does not narrow the field to null). */
  private pendingPlaceholders(): Map<string, LabelPlaceholder> | null {
    return this.placeholders;
  }

  /**
   * The datum label `key` stands for: its datum when complete, a placeholder
   * while it is pending (a reference inside its own datum), undefined when not
   * defined. A label whose datum was a reference to another label follows it.
   */
  private labelValue(key: string): any {
    let v = this.labels?.get(key);
    for (;;) {
      if (v === PENDING) {
        const phs = (this.placeholders ??= new Map());
        let ph = phs.get(key);
        if (ph === undefined) phs.set(key, (ph = new LabelPlaceholder(key)));
        return ph;
      }
      if (!(v instanceof LabelPlaceholder)) return v;
      key = v.key;
      v = this.labels?.get(key);
    }
  }

  /** A datum of token kind `kind` is starting at `start`: is one allowed here? */
  private checkDatumStart(stack: Frame[], start: number, img: string, kind: TokenKind): void {
    const f = stack[stack.length - 1];
    if (f === undefined) return;
    if (f.kind === "list" && f.dot === 2)
      this.fail(`expected '${f.open === "[" ? "]" : ")"}' after the datum that follows '.' in the list opened at ${this.lineCol(f.start)}`, start, start + img.length);
    // Only numbers may go in a bytevector; the value itself is checked when complete.
    if (f.kind === "bytevector" && kind !== "atom" && kind !== "hash")
      this.fail(`expected an exact integer from 0 to 255 in the bytevector opened at ${this.lineCol(f.start)}, found '${clip(img)}'`, start, start + img.length);
  }

  /** A `.` token. */
  private dot(stack: Frame[], start: number, end: number): void {
    const f = stack[stack.length - 1];
    if (f === undefined) this.fail("unexpected '.' outside a list", start, end);
    if (f.kind === "prefix" || f.kind === "comment" || f.kind === "label")
      this.fail(`expected a datum after ${prefixName(f.open)}, found '.'`, start, end);
    if (f.kind !== "list") this.fail(`'.' is not allowed in a ${f.kind}`, start, end);
    if (f.dot !== 0) this.fail("unexpected second '.' in a list", start, end);
    if (f.tail === null) this.fail("expected a datum before '.'", start, end);
    f.dot = 1;
  }

  private abbrev(kind: TokenKind): Sym {
    const a = (this.abbrevs ??= {
      quote: this.symbols.intern("quote"),
      quasiquote: this.symbols.intern("quasiquote"),
      unquote: this.symbols.intern("unquote"),
      "unquote-splicing": this.symbols.intern("unquote-splicing"),
    });
    return a[kind] as Sym;
  }

  /** An atom: a number or an identifier (`:name` included). */
  private atomValue(img: string): any {
    const c0 = img.charCodeAt(0);
    // Only text starting like a number can be one; identifiers skip the parse.
    if ((c0 >= 48 && c0 <= 57) || ((c0 === 43 || c0 === 45 || c0 === 46) && img.length > 1)) {
      const n = parseNumber(img, 10);
      if (n !== false) return n;
    }
    // `:name` is an identifier, as R7RS says (ADR 0033): where nothing binds it, the expander
    // compiles a reference to it as the keyword `#:name`.
    return this.symbols.intern(this.fold ? foldIdentifier(img) : img);
  }

  /** `#t`, `#false`, `#x1F`, … or an error for an unknown `#` form. */
  private hashValue(img: string, start: number, end: number): any {
    const lower = img.length <= 6 ? img.toLowerCase() : "";
    if (lower === "#t" || lower === "#true") return true;
    if (lower === "#f" || lower === "#false") return false;
    const c1 = img.charCodeAt(1) | 0x20;
    if (c1 === 120 || c1 === 98 || c1 === 111 || c1 === 100 || c1 === 101 || c1 === 105 /* x b o d e i */) {
      const n = parseNumber(img, 10);
      if (n !== false) return n;
      this.fail(`bad number syntax '${clip(img)}'`, start, end);
    }
    if (img === "#") this.fail("unexpected '#'", start, end);
    if (img.startsWith("#<")) this.fail(`cannot read '${clip(img)}': an object written as #<...> has no readable form`, start, end);
    if (img.startsWith("#u8")) this.fail("expected '(' right after '#u8'", start, end);
    this.fail(`unknown syntax '${clip(img)}'`, start, end);
  }

  /** `#\a`, `#\space`, `#\x41`. */
  private charValue(img: string, start: number, end: number): any {
    const rest = img.slice(2);
    if (rest === "") this.fail("expected a character after '#\\'", start, end, true);
    const cp = rest.codePointAt(0) as number;
    if (rest.length === (cp > 0xffff ? 2 : 1)) {
      if (!isScalarValue(cp)) this.fail(`character U+${cp.toString(16).toUpperCase()} is not a Unicode scalar value`, start, end);
      return char(cp);
    }
    const name = this.fold ? foldIdentifier(rest) : rest;
    const named = CHAR_NAMES.get(name);
    if (named !== undefined) return char(named);
    if (/^x[0-9a-fA-F]+$/.test(name)) {
      const code = name.length <= 9 ? parseInt(name.slice(1), 16) : -1;
      if (!isScalarValue(code)) this.fail(`'${clip(img)}' is not a Unicode scalar value`, start, end);
      return char(code);
    }
    this.fail(
      `unknown character name '${clip(img)}' (expected one character, #\\x<hex>, or one of alarm backspace delete escape newline null return space tab)`,
      start,
      end,
    );
  }

  /**
   * The contents of a string literal (`str`) or |symbol| with escapes applied.
   * Strings also allow `\` + line ending (with surrounding spaces/tabs) as nothing.
   */
  private unescape(img: string, start: number, str: boolean): string {
    const last = img.length - 1; // the closing quote or bar
    let i = img.indexOf("\\", 1);
    if (i < 0 || i >= last) return img.slice(1, last);
    let out = img.slice(1, i);
    while (i < last) {
      // img[i] is a backslash, and a character follows it before `last`.
      const e = img[i + 1] as string;
      const m = MNEMONIC[e];
      if (m !== undefined) {
        out += m;
        i += 2;
      } else if (e === "x" || e === "X") {
        const semi = img.indexOf(";", i + 2);
        const hex = semi < 0 ? "" : img.slice(i + 2, semi);
        if (semi < 0 || semi > last || !/^[0-9a-fA-F]+$/.test(hex))
          this.fail(`bad escape '${clip(img.slice(i, Math.min(last, i + 12)))}': expected \\x<hex digits>;`, start + i, start + i + 2);
        const code = hex.length <= 8 ? parseInt(hex, 16) : -1;
        if (!isScalarValue(code)) this.fail(`escape '\\x${clip(hex)};' is not a Unicode scalar value`, start + i, start + semi + 1);
        out += String.fromCodePoint(code);
        i = semi + 1;
      } else if (str && (e === " " || e === "\t" || e === "\n" || e === "\r")) {
        // Line continuation: \ <spaces/tabs> <line ending> <spaces/tabs>
        let j = i + 1;
        while (j < last && (img[j] === " " || img[j] === "\t")) j++;
        if (img[j] === "\r") j += img[j + 1] === "\n" ? 2 : 1;
        else if (img[j] === "\n") j++;
        else this.fail("bad escape: '\\' followed by spaces must end the line (a line continuation)", start + i, start + j);
        while (j < last && (img[j] === " " || img[j] === "\t")) j++;
        i = j;
      } else {
        const shown = e === "\n" ? "\\n" : e;
        this.fail(`unknown escape '\\${shown}' in ${str ? "string" : "|symbol|"}`, start + i, start + i + 2);
      }
      const next = img.indexOf("\\", i);
      const stop = next < 0 || next > last ? last : next;
      out += img.slice(i, stop);
      i = stop;
    }
    return out;
  }

  /** The next token, lexing another window of text when the current one is used up. */
  private nextToken(): IToken | null {
    if (this.ti < this.toks.length) return this.toks[this.ti++] as IToken;
    if (!this.refill()) return null;
    return this.toks[this.ti++] as IToken;
  }

  /**
   * Lexes the next window. The last token of a window that does not reach the
   * end of the text may be cut short by the window's end (a string, a comment,
   * an atom), so it is left for the next window, which starts at it; a window
   * holding a single such token is doubled until the token fits.
   */
  private refill(): boolean {
    while (this.lexPos < this.end) {
      let wEnd = Math.min(this.end, this.lexPos + this.window);
      if (wEnd < this.end) {
        const c = this.text.charCodeAt(wEnd - 1);
        if (c >= 0xd800 && c <= 0xdbff) wEnd++; // never split a surrogate pair
      }
      const toks = tokenize(this.text.slice(this.lexPos, wEnd));
      // What this window's tokens will cost to read (and hold): a long or deeply nested text is charged as it is read.
      allocate(toks.length * TOKEN_BYTES);
      spend(toks.length * TOKEN_NS);
      const base = this.lexPos;
      if (wEnd < this.end) {
        const last = toks.pop();
        if (last === undefined || last.startOffset === 0) {
          this.window *= 2;
          continue;
        }
        this.lexPos += last.startOffset;
        if (toks.length === 0) continue;
        if (this.window < MAX_WINDOW) this.window *= 4;
      } else {
        this.lexPos = this.end;
        if (toks.length === 0) return false;
      }
      this.toks = toks;
      this.ti = 0;
      this.base = base;
      return true;
    }
    return false;
  }

  /** A pair of the datum: a literal of the program unless the reader reads mutable data. */
  private pair(car: any, cdr: any): Pair {
    return this.mutable ? new Pair(car, cdr) : new LiteralPair(car, cdr, undefined);
  }

  /** Location of UTF-16 offset `off` (1-based line, column in code points). */
  private locAt(off: number): SourceLoc {
    const s = this.text;
    if (off < this.posOff) {
      this.posOff = 0;
      this.posLine = 1;
      this.posCol = 1;
    }
    let line = this.posLine;
    let col = this.posCol;
    for (let i = this.posOff; i < off; i++) {
      const c = s.charCodeAt(i);
      if (c === 10) {
        if (i === 0 || s.charCodeAt(i - 1) !== 13) {
          line++;
          col = 1;
        }
      } else if (c === 13) {
        line++;
        col = 1;
      } else if (!(c >= 0xdc00 && c <= 0xdfff && i > 0 && (s.charCodeAt(i - 1) & 0xfc00) === 0xd800)) {
        col++;
      }
    }
    this.posOff = off;
    this.posLine = line;
    this.posCol = col;
    positionMemo.text = s;
    positionMemo.off = off;
    positionMemo.line = line;
    positionMemo.col = col;
    return { file: this.file, line, col };
  }

  private lineCol(off: number): string {
    const l = this.locAt(off);
    return `${l.line}:${l.col}`;
  }

  /** The input ended inside the construct `f`. */
  private failAtEnd(f: Frame): never {
    const at = this.end;
    switch (f.kind) {
      case "list":
        this.fail(`expected '${f.open === "[" ? "]" : ")"}' to close the list opened at ${this.lineCol(f.start)}, found end of input`, at, at, true);
      case "vector":
      case "bytevector":
        this.fail(`expected ')' to close the ${f.kind} opened at ${this.lineCol(f.start)}, found end of input`, at, at, true);
      case "prefix":
      case "comment":
      case "label":
        this.fail(`expected a datum after ${prefixName(f.open)} at ${this.lineCol(f.start)}, found end of input`, at, at, true);
      default:
        assertNever(f.kind);
    }
  }

  /**
   * Raises a read error located at `at`; reading resumes after `resume`.
   * `incomplete` marks errors that more input could have avoided.
   */
  private fail(message: string, at: number, resume: number, incomplete = false): never {
    this._offset = Math.max(this._offset, resume);
    const c = makeCondition("read", message, [], undefined, this.locAt(at));
    if (incomplete) c.code = "incomplete";
    throw new SchemeError(c);
  }
}

/** `#007=` / `#7#` ⇒ "7": labels are numbers, so leading zeros do not make a new label. */
function labelKey(img: string): string {
  const digits = img.slice(1, -1).replace(/^0+(?=\d)/, "");
  return digits;
}

/** How a message names a prefix token: "the quote (')", "the datum comment (#;)", "the datum label #0=". */
function prefixName(open: string): string {
  switch (open) {
    case "'":
      return "the quote (')";
    case "`":
      return "the quasiquote (`)";
    case ",":
      return "the unquote (,)";
    case ",@":
      return "the unquote-splicing (,@)";
    case "#;":
      return "the datum comment (#;)";
    default:
      return `the datum label ${open}`;
  }
}

/** Text for a message, cut to a readable length. */
function clip(s: string): string {
  return s.length > 40 ? s.slice(0, 37) + "..." : s;
}

function assertNever(x: never): never {
  throw new Error(`unexpected ${String(x)}`);
}
