// SRFI 180's JSON in TypeScript: a streaming event parser over a port or fed characters, json-read's builder, the writer.
//
// json-read first tries a fast path (JsonParser.fastRead): a value wholly in
// a port's buffer, parsed by recursive descent straight from the text; it
// gives everything else, errors included, to the state machine below.
// The parser is a state machine (no recursion, so nesting is bounded only by
// json-nesting-depth-limit and memory). It reads a port's buffered text in
// place (Port.text from Port.pos) and asks the port for more at the end of its
// buffer; a generator of characters is fed to it one character at a time by
// stdlib/srfi/180.sld, and it answers NEED when it has no complete token yet.
// A token is consumed only when it is complete, and the scan of an unfinished
// string or number resumes where it stopped, so feeding is linear. The
// mapping is primitives/agent/json-value.ts's: objects are alists with symbol
// keys, arrays vectors, null the symbol null, integers exact, numbers with a
// fraction or exponent flonums. Every malformed input is a condition of kind
// read with code "json-error" (json-error?), naming where it is.

import {
  type Ctx,
  type ProcSpec,
  type ArgType,
  T,
  NIL,
  Pair,
  MString,
  Sym,
  Char,
  Flonum,
  flo,
  Ratnum,
  Port,
  EOF,
  Eof,
  SchemeError,
  Condition,
  makeCondition,
  arrayToList,
  normBig,
  allocate,
  spend,
  COST,
  writeShort,
} from "../../interpreter/api.js";

/** The condition code of every error of SRFI 180 (json-error? tests it). */
export const JSON_ERROR_CODE = "json-error";

/** Raises a json-error of kind `kind` saying `reason`. */
export function jsonError(who: string, reason: string, irritants: readonly any[] = [], kind: "read" | "type" | "limit" = "read"): never {
  const c = makeCondition(kind === "limit" ? "read" : kind, `${who}: ${reason}`, irritants, who);
  c.code = JSON_ERROR_CODE;
  throw new SchemeError(c);
}

/** True of the conditions SRFI 180 raises. */
export function isJsonError(x: unknown): boolean {
  return x instanceof Condition && x.code === JSON_ERROR_CODE;
}

// Events (Parser.next's results); the scalar, or a key's text, is in Parser.value.
const EV_VALUE = 0;
const EV_ARRAY_START = 1;
const EV_ARRAY_END = 2;
const EV_OBJECT_START = 3;
const EV_OBJECT_END = 4;
const EV_KEY = 5;
const EV_EOF = 6;
const EV_NEED = 7;

// States: what the next token may be.
const S_TOP = 0; // a value, or the end of input (nothing there)
const S_DONE = 1; // one top-level value was read
const S_VALUE = 2; // a value (after ':' or an array's ',')
const S_ARRAY_FIRST = 3; // a value or ']'
const S_OBJECT_FIRST = 4; // a key or '}'
const S_KEY = 5; // a key (after an object's ',')
const S_COLON = 6; // ':'
const S_AFTER = 7; // ',' or the closing bracket of the innermost structure

const NUMBER_RE = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
const PLAIN_STRING_RE = /[\u0000-\u001f\\]/;

/** Where a parser's characters come from. */
interface Source {
  text: string;
  pos: number;
  /** 1: more text was appended; 0: end of input; 2: none yet (a fed parser waits for its next character). */
  more(): number;
}

class PortSource implements Source {
  constructor(readonly port: Port) {}
  get text(): string {
    return this.port.text;
  }
  get pos(): number {
    return this.port.pos;
  }
  set pos(p: number) {
    this.port.pos = p;
  }
  more(): number {
    return this.port.more() ? 1 : 0;
  }
}

class FedSource implements Source {
  text = "";
  pos = 0;
  ended = false;
  more(): number {
    return this.ended ? 0 : 2;
  }
  feed(s: string): void {
    // Drop what was consumed now and then, never at every character (that would copy the pending token each time).
    if (this.pos > 4096 && this.pos * 2 > this.text.length) {
      this.text = this.text.slice(this.pos);
      this.pos = 0;
    }
    this.text += s;
  }
}

/** A JSON parser: one per json-generator, json-read of a generator, json-lines-read. A Scheme value (opaque). */
export class JsonParser {
  readonly src: Source;
  readonly who: string;
  private state = S_TOP;
  /** 0 array, 1 object, innermost last. */
  private readonly stack: number[] = [];
  private readonly depthLimit: number;
  private readonly charLimit: number;
  /** Characters consumed (for the character limit and messages). */
  private consumed = 0;
  /** How far the unfinished token at src.pos was scanned (a resumed scan starts there). */
  private scanned = 0;
  value: any = undefined;
  /** json-read's partial structures: vectors, and objects. */
  private readonly building: any[] = [];

  constructor(
    readonly ctx: Ctx,
    who: string,
    source: Port | null,
    depthLimit: number,
    charLimit: number,
  ) {
    this.who = who;
    this.src = source === null ? new FedSource() : new PortSource(source);
    this.depthLimit = depthLimit;
    this.charLimit = charLimit;
  }

  toString(): string {
    return "#<json-parser>";
  }

  /** Gives a fed parser its next character, or tells it the input ended (eof). */
  feed(c: Char | Eof): void {
    const s = this.src as FedSource;
    if (c instanceof Eof) s.ended = true;
    else s.feed(String.fromCodePoint(c.code));
  }

  get fed(): boolean {
    return this.src instanceof FedSource;
  }

  /** Ready for the next top-level value (json-lines-read), keeping what was read ahead. */
  reset(): void {
    this.state = S_TOP;
    this.stack.length = 0;
    this.building.length = 0;
    this.consumed = 0;
  }

  private fail(reason: string): never {
    const s = this.src;
    let where = `at character ${this.consumed + 1}`;
    if (s instanceof PortSource && s.port.source === null) {
      // The whole text is in the port: say line and column.
      const t = s.port.text;
      let line = 1;
      let col = 1;
      for (let i = 0; i < s.port.pos && i < t.length; i++) {
        if (t.charCodeAt(i) === 10) {
          line++;
          col = 1;
        } else col++;
      }
      where = `${s.port.name}:${line}:${col}`;
    }
    return jsonError(this.who, `${where}: ${reason}`);
  }

  private consume(n: number): void {
    const s = this.src;
    if (this.charLimit !== Infinity) {
      let k = 0;
      for (let i = s.pos; i < s.pos + n; i++) {
        const c = s.text.charCodeAt(i);
        if (c < 0xdc00 || c > 0xdfff) k++;
      }
      if (this.consumed + k > this.charLimit) {
        s.pos += n;
        this.consumed += k;
        jsonError(this.who, `more than ${this.charLimit} characters (json-number-of-character-limit)`, [], "limit");
      }
      this.consumed += k;
    } else this.consumed += n;
    s.pos += n;
  }

  /** Skips whitespace; the code of the next character, -1 at the end of input, -2 when a fed parser needs more. */
  private peek(): number {
    const s = this.src;
    for (;;) {
      const t = s.text;
      let i = s.pos;
      while (i < t.length) {
        const c = t.charCodeAt(i);
        if (c === 32 || c === 10 || c === 13 || c === 9) i++;
        else {
          if (i > s.pos) this.consume(i - s.pos);
          return c;
        }
      }
      if (i > s.pos) this.consume(i - s.pos);
      const m = s.more();
      if (m === 0) return -1;
      if (m === 2) return -2;
    }
  }

  private open(kind: number): void {
    if (this.stack.length >= this.depthLimit)
      jsonError(this.who, `nesting deeper than ${this.depthLimit} (json-nesting-depth-limit)`, [], "limit");
    this.stack.push(kind);
    this.consume(1);
  }

  /** After a complete value: the next state. */
  private closed(): void {
    this.state = this.stack.length === 0 ? S_DONE : S_AFTER;
  }

  /** The next event. */
  next(): number {
    for (;;) {
      const st = this.state;
      if (st === S_DONE) return EV_EOF;
      const c = this.peek();
      if (c === -2) return EV_NEED;
      if (c === -1) {
        if (st === S_TOP) {
          this.state = S_DONE;
          return EV_EOF;
        }
        this.fail(this.stack.length ? `unexpected end of input inside ${this.stack[this.stack.length - 1] ? "an object" : "an array"}` : "unexpected end of input");
      }
      switch (st) {
        case S_TOP:
        case S_VALUE:
        case S_ARRAY_FIRST:
          if (c === 93 /* ] */ && st === S_ARRAY_FIRST) {
            this.stack.pop();
            this.consume(1);
            this.closed();
            return EV_ARRAY_END;
          }
          return this.scalarOrStart(c);
        case S_OBJECT_FIRST:
        case S_KEY:
          if (c === 125 /* } */ && st === S_OBJECT_FIRST) {
            this.stack.pop();
            this.consume(1);
            this.closed();
            return EV_OBJECT_END;
          }
          if (c !== 34) this.fail(`${this.describe(c)} where a key (a string) was expected`);
          {
            const r = this.string();
            if (r === EV_NEED) return EV_NEED;
          }
          this.state = S_COLON;
          return EV_KEY;
        case S_COLON:
          if (c !== 58) this.fail(`${this.describe(c)} where ':' was expected`);
          this.consume(1);
          this.state = S_VALUE;
          continue;
        case S_AFTER: {
          const inObject = this.stack[this.stack.length - 1] === 1;
          if (c === 44) {
            this.consume(1);
            this.state = inObject ? S_KEY : S_VALUE;
            continue;
          }
          if (c === (inObject ? 125 : 93)) {
            this.stack.pop();
            this.consume(1);
            this.closed();
            return inObject ? EV_OBJECT_END : EV_ARRAY_END;
          }
          this.fail(`${this.describe(c)} where ',' or '${inObject ? "}" : "]"}' was expected`);
        }
      }
    }
  }

  private describe(c: number): string {
    if (c < 32 || c === 127) return `the control character U+${c.toString(16).toUpperCase().padStart(4, "0")}`;
    const t = this.src.text;
    const ch = String.fromCodePoint(t.codePointAt(this.src.pos) ?? c);
    return `unexpected '${ch}'`;
  }

  private scalarOrStart(c: number): number {
    if (c === 91) {
      this.open(0);
      this.state = S_ARRAY_FIRST;
      return EV_ARRAY_START;
    }
    if (c === 123) {
      this.open(1);
      this.state = S_OBJECT_FIRST;
      return EV_OBJECT_START;
    }
    let r: number;
    if (c === 34) r = this.string();
    else if (c === 45 || (c >= 48 && c <= 57)) r = this.number();
    else if (c >= 97 && c <= 122) r = this.word();
    else this.fail(`${this.describe(c)} where a value was expected`);
    if (r === EV_NEED) return EV_NEED;
    this.closed();
    return EV_VALUE;
  }

  /** Scans a token of characters that `more` accepts from src.pos (resuming); its end, or -2 when a fed parser needs more. */
  private scanRun(more: (c: number) => boolean): number {
    const s = this.src;
    for (;;) {
      const t = s.text;
      let i = s.pos + this.scanned;
      while (i < t.length && more(t.charCodeAt(i))) i++;
      if (i < t.length) {
        this.scanned = 0;
        return i;
      }
      this.scanned = i - s.pos;
      const m = s.more();
      if (m === 0) {
        this.scanned = 0;
        return s.pos + (i - s.pos);
      }
      if (m === 2) return -2;
    }
  }

  /** A number or literal must end where a value may end: at whitespace, ',', ']', '}' or the end of input. */
  private delimited(end: number, tok: string): void {
    if (end >= this.src.text.length) return;
    const c = this.src.text.charCodeAt(end);
    if (c === 32 || c === 10 || c === 13 || c === 9 || c === 44 || c === 93 || c === 125) return;
    this.src.pos = end;
    this.fail(`${this.describe(c)} right after ${tok.length > 20 ? tok.slice(0, 20) + "…" : tok}`);
  }

  private number(): number {
    const end = this.scanRun(isNumberChar);
    if (end === -2) return EV_NEED;
    const s = this.src;
    const tok = s.text.slice(s.pos, end);
    this.delimited(end, tok);
    if (!NUMBER_RE.test(tok)) this.fail(`malformed number ${tok}`);
    let v: any;
    if (tok.indexOf(".") < 0 && tok.indexOf("e") < 0 && tok.indexOf("E") < 0) {
      v = tok.length < 16 ? Number(tok) || 0 : normBig(BigInt(tok));
      if (typeof v === "bigint") allocate(tok.length);
    } else {
      const f = Number(tok);
      if (!Number.isFinite(f)) this.fail(`the number ${tok.length > 40 ? tok.slice(0, 40) + "…" : tok} is out of the range of a flonum`);
      v = flo(f);
    }
    spend(tok.length * COST.charNs);
    this.consume(end - s.pos);
    this.value = v;
    return EV_VALUE;
  }

  private word(): number {
    const end = this.scanRun(isLetter);
    if (end === -2) return EV_NEED;
    const s = this.src;
    const w = s.text.slice(s.pos, end);
    this.delimited(end, w);
    if (w === "true") this.value = true;
    else if (w === "false") this.value = false;
    else if (w === "null") this.value = this.ctx.symbols.intern("null");
    else this.fail(`unexpected '${w.length > 20 ? w.slice(0, 20) + "…" : w}' where a value was expected`);
    this.consume(end - s.pos);
    return EV_VALUE;
  }

  /** A string token at src.pos (its opening quote): value is its JS text. */
  private string(): number {
    const s = this.src;
    let end: number;
    for (;;) {
      const t = s.text;
      let i = s.pos + 1 + this.scanned;
      let found = -1;
      for (;;) {
        const q = t.indexOf('"', i);
        if (q < 0) break;
        let b = q - 1;
        while (b > s.pos && t.charCodeAt(b) === 92) b--;
        if ((q - 1 - b) % 2 === 0) {
          found = q;
          break;
        }
        i = q + 1;
      }
      if (found >= 0) {
        end = found;
        this.scanned = 0;
        break;
      }
      // Resume after the last character, less one: a backslash there may escape a quote still to come.
      this.scanned = Math.max(0, t.length - s.pos - 2);
      const m = s.more();
      if (m === 0) {
        this.scanned = 0;
        this.fail("unterminated string");
      }
      if (m === 2) return EV_NEED;
    }
    const raw = s.text.slice(s.pos + 1, end);
    spend(raw.length * COST.charNs);
    allocate(raw.length * 2 + 32);
    this.value = PLAIN_STRING_RE.test(raw) ? this.unescape(raw) : raw;
    this.consume(end + 1 - s.pos);
    return EV_VALUE;
  }

  private unescape(raw: string): string {
    let out = "";
    let from = 0;
    for (let i = 0; i < raw.length; i++) {
      const c = raw.charCodeAt(i);
      if (c < 32) this.fail(`the control character U+${c.toString(16).toUpperCase().padStart(4, "0")} unescaped in a string`);
      if (c !== 92) continue;
      out += raw.slice(from, i);
      const e = raw.charCodeAt(i + 1);
      i++;
      switch (e) {
        case 34: out += '"'; break;
        case 92: out += "\\"; break;
        case 47: out += "/"; break;
        case 98: out += "\b"; break;
        case 102: out += "\f"; break;
        case 110: out += "\n"; break;
        case 114: out += "\r"; break;
        case 116: out += "\t"; break;
        case 117: {
          const u = this.hex4(raw, i + 1);
          i += 4;
          if (u >= 0xd800 && u <= 0xdbff) {
            const lo = raw.charCodeAt(i + 1) === 92 && raw.charCodeAt(i + 2) === 117 ? this.hex4(raw, i + 3) : -1;
            if (lo < 0xdc00 || lo > 0xdfff) this.fail(`the escape \\u${u.toString(16)} is a lone surrogate (not a character)`);
            out += String.fromCharCode(u, lo);
            i += 6;
          } else if (u >= 0xdc00 && u <= 0xdfff) this.fail(`the escape \\u${u.toString(16)} is a lone surrogate (not a character)`);
          else out += String.fromCharCode(u);
          break;
        }
        default:
          this.fail(`the escape \\${Number.isNaN(e) ? "" : String.fromCharCode(e)} in a string is not JSON's`);
      }
      from = i + 1;
    }
    return out + raw.slice(from);
  }

  private hex4(raw: string, at: number): number {
    const h = raw.slice(at, at + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(h)) this.fail(`the escape \\u${h} needs four hexadecimal digits`);
    return parseInt(h, 16);
  }

  /** The next event as json-generator yields it (keys and strings as strings), this parser itself when it needs a character. */
  event(): any {
    const e = this.next();
    switch (e) {
      case EV_VALUE:
        return typeof this.value === "string" ? new MString(this.value) : this.value;
      case EV_KEY:
        return new MString(this.value);
      case EV_ARRAY_START:
        return this.ctx.symbols.intern("array-start");
      case EV_ARRAY_END:
        return this.ctx.symbols.intern("array-end");
      case EV_OBJECT_START:
        return this.ctx.symbols.intern("object-start");
      case EV_OBJECT_END:
        return this.ctx.symbols.intern("object-end");
      case EV_EOF:
        return EOF;
      case EV_NEED:
        return this;
    }
    throw new Error(`unknown JSON event ${e}`);
  }

  /** Builds the next top-level value (json-read): the value, the eof object, or this parser itself when it needs a character. */
  read(): any {
    const b = this.building;
    if (this.state === S_TOP && b.length === 0 && this.charLimit === Infinity && this.src instanceof PortSource) {
      const v = this.fastRead(this.src.port);
      if (v !== BAIL) return v;
    }
    const symbols = this.ctx.symbols;
    for (;;) {
      const e = this.next();
      let v: any;
      switch (e) {
        case EV_NEED:
          return this;
        case EV_EOF:
          return EOF;
        case EV_VALUE:
          v = typeof this.value === "string" ? new MString(this.value) : this.value;
          break;
        case EV_KEY:
          // An object's frame is [pairs, key]: the key waits for its value.
          (b[b.length - 1] as ObjectFrame).key = symbols.intern(this.value);
          continue;
        case EV_ARRAY_START:
          b.push([]);
          continue;
        case EV_OBJECT_START:
          b.push(new ObjectFrame());
          continue;
        case EV_ARRAY_END:
          v = b.pop();
          allocate(v.length * COST.slotBytes + 16);
          break;
        case EV_OBJECT_END: {
          const pairs = (b.pop() as ObjectFrame).pairs;
          allocate(pairs.length * 2 * COST.pairBytes);
          v = arrayToList(pairs);
          break;
        }
        default:
          throw new Error(`unknown JSON event ${e}`);
      }
      if (b.length === 0) return v;
      const top = b[b.length - 1];
      if (top instanceof ObjectFrame) top.pairs.push(new Pair(top.key, v));
      else top.push(v);
    }
  }

  /**
   * json-read's fast path: the next value parsed by recursion straight from
   * the port's buffered text, the Scheme values built as it goes. It gives up
   * (BAIL, the port untouched) on anything but a well-formed value wholly in
   * the buffer and no deeper than FAST_DEPTH: malformed input (the state
   * machine then reads it again and says what and where), a value the buffer
   * of a port still reading (stdin, a socket) may not hold yet, the end of
   * input. On success the port is past the value and nothing more.
   */
  private fastRead(port: Port): any {
    const t = port.text;
    let i = port.pos;
    for (; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if (c !== 32 && c !== 10 && c !== 13 && c !== 9) break;
    }
    if (i >= t.length) return BAIL;
    const r = new FastReader(t, i, port.source === null, Math.min(this.depthLimit, FAST_DEPTH), this.ctx, this);
    let v: any;
    try {
      v = r.value(0);
    } catch (e) {
      if (e === BAIL || e instanceof SchemeError) return BAIL;
      throw e;
    }
    r.charge();
    this.consumed += r.i - port.pos;
    port.pos = r.i;
    this.state = S_DONE;
    return v;
  }

  /** A string's escapes replaced (the fast path's: a malformed escape raises, and the fast path gives up). */
  unescaped(raw: string): string {
    return this.unescape(raw);
  }
}

/** What FastReader throws, and fastRead returns, when it gives the value to the state machine. */
const BAIL = { bail: true };
/** The fast path's deepest nesting (it recurses); deeper values go to the state machine. */
const FAST_DEPTH = 1000;
/** 10^0 … 10^22, each exact as a flonum. */
const POW10 = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));
/** Characters and bytes the fast path charges to the budget at once. */
const FAST_CHARGE = 1 << 16;

/** json-read's fast path over a text in memory (JsonParser.fastRead): recursive descent with charCodeAt. */
class FastReader {
  /** Keys seen lately, by a hash of their text: an object's keys are interned once, not sliced and looked up each time. */
  private readonly keys: (Sym | undefined)[] = new Array(512);
  private readonly keyHashes = new Int32Array(512);
  /** Short string values seen lately, the same way. */
  private readonly texts: (string | undefined)[] = new Array(512);
  private readonly textHashes = new Int32Array(512);
  /** The elements of the arrays being read, innermost last (value() copies each array's out when it closes). */
  private readonly stack: any[] = [];
  private top = 0;
  private readonly symbols: Ctx["symbols"];
  private readonly nullSym: Sym;
  /** Where characters were last charged, and bytes not yet announced. */
  private charged: number;
  private bytes = 0;

  constructor(
    readonly t: string,
    public i: number,
    /** The text is all the input there is (its end ends the value). */
    readonly final: boolean,
    readonly depthMax: number,
    ctx: Ctx,
    readonly parser: JsonParser,
  ) {
    this.symbols = ctx.symbols;
    this.nullSym = ctx.symbols.intern("null");
    this.charged = i;
  }

  charge(): void {
    spend((this.i - this.charged) * COST.charNs);
    this.charged = this.i;
    allocate(this.bytes);
    this.bytes = 0;
  }

  private ws(): number {
    const t = this.t;
    let i = this.i;
    for (;;) {
      const c = t.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else {
        this.i = i;
        return c; // NaN at the end
      }
    }
  }

  value(depth: number): any {
    if (this.i - this.charged > FAST_CHARGE || this.bytes > FAST_CHARGE * 16) this.charge();
    const t = this.t;
    const c = t.charCodeAt(this.i);
    if (c === 34) return new MString(this.string());
    if (c === 123) {
      if (depth >= this.depthMax) throw BAIL;
      this.i++;
      let k = this.ws();
      if (k === 125) {
        this.i++;
        return NIL;
      }
      let head: Pair | null = null;
      let tail: Pair | null = null;
      for (;;) {
        if (k !== 34) throw BAIL;
        const key = this.key();
        if (this.ws() !== 58) throw BAIL;
        this.i++;
        this.ws();
        const cell = new Pair(new Pair(key, this.value(depth + 1)), NIL);
        if (tail === null) head = cell;
        else tail.cdr = cell;
        tail = cell;
        this.bytes += 2 * COST.pairBytes;
        k = this.ws();
        if (k === 44) {
          this.i++;
          k = this.ws();
        } else if (k === 125) {
          this.i++;
          return head;
        } else throw BAIL;
      }
    }
    if (c === 91) {
      if (depth >= this.depthMax) throw BAIL;
      this.i++;
      let k = this.ws();
      if (k === 93) {
        this.i++;
        this.bytes += 16;
        return [];
      }
      // The elements go on one stack shared by every level and are copied out at the
      // end into an array of their exact length (a pushed array grows by copies and
      // keeps up to half again its length, plus 16 slots, as garbage or slack).
      const stack = this.stack;
      const base = this.top;
      for (;;) {
        const v = this.value(depth + 1);
        stack[this.top++] = v;
        k = this.ws();
        if (k === 44) {
          this.i++;
          this.ws();
        } else if (k === 93) {
          this.i++;
          const out = stack.slice(base, this.top);
          stack.length = base;
          this.top = base;
          this.bytes += out.length * COST.slotBytes + 16;
          return out;
        } else throw BAIL;
      }
    }
    if (c === 45 || (c >= 48 && c <= 57)) return this.number();
    if (c === 116 && t.startsWith("true", this.i)) return this.word(4, true);
    if (c === 102 && t.startsWith("false", this.i)) return this.word(5, false);
    if (c === 110 && t.startsWith("null", this.i)) return this.word(4, this.nullSym);
    throw BAIL;
  }

  /** After a number or literal ending at i: a delimiter, or the end of the whole input. */
  private delimited(i: number): void {
    const c = this.t.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9 || c === 44 || c === 93 || c === 125) return;
    if (i >= this.t.length && this.final) return;
    throw BAIL;
  }

  private word(n: number, v: any): any {
    this.delimited(this.i + n);
    this.i += n;
    return v;
  }

  private number(): any {
    const t = this.t;
    const start = this.i;
    let i = start;
    let c = t.charCodeAt(i);
    const neg = c === 45;
    if (neg) c = t.charCodeAt(++i);
    let n = 0;
    const d0 = i;
    if (c === 48) c = t.charCodeAt(++i);
    else if (c >= 49 && c <= 57) {
      do {
        n = n * 10 + (c - 48);
        c = t.charCodeAt(++i);
      } while (c >= 48 && c <= 57);
    } else throw BAIL;
    const digits = i - d0;
    let real = false;
    // The significant digits (the integer's, then the fraction's) and the power of ten that scales them.
    let sig = digits;
    let scale = 0;
    if (c === 46) {
      real = true;
      c = t.charCodeAt(++i);
      if (!(c >= 48 && c <= 57)) throw BAIL;
      do {
        n = n * 10 + (c - 48);
        scale--;
        sig++;
        c = t.charCodeAt(++i);
      } while (c >= 48 && c <= 57);
    }
    if (c === 101 || c === 69) {
      real = true;
      c = t.charCodeAt(++i);
      let eneg = false;
      if (c === 43 || c === 45) {
        eneg = c === 45;
        c = t.charCodeAt(++i);
      }
      if (!(c >= 48 && c <= 57)) throw BAIL;
      let e = 0;
      do {
        if (e < 100000) e = e * 10 + (c - 48);
        c = t.charCodeAt(++i);
      } while (c >= 48 && c <= 57);
      scale += eneg ? -e : e;
    }
    this.delimited(i);
    this.i = i;
    if (!real) {
      if (digits <= 15) return neg && n !== 0 ? -n : n;
      this.bytes += i - start;
      return normBig(BigInt(t.slice(start, i)));
    }
    // At most 15 significant digits (n exact) scaled by an exact power of ten: one
    // correctly rounded operation gives the nearest flonum (Clinger's fast path).
    let f: number;
    if (sig <= 15 && scale >= -22 && scale <= 22) {
      f = scale < 0 ? n / POW10[-scale]! : n * POW10[scale]!;
      if (neg) f = -f;
    } else {
      f = Number(t.slice(start, i));
      if (!Number.isFinite(f)) throw BAIL;
    }
    return flo(f);
  }

  /** A string's text; i at its opening quote, then past its closing one. */
  private string(): string {
    const t = this.t;
    const start = this.i + 1;
    let i = start;
    let h = 0;
    for (;;) {
      const c = t.charCodeAt(i);
      if (c === 34) break;
      if (c === 92) return this.escaped(start);
      if (c < 32 || c !== c) throw BAIL; // a control character, or the end (NaN)
      h = (Math.imul(h, 31) + c) | 0;
      i++;
    }
    this.i = i + 1;
    const len = i - start;
    this.bytes += len * 2 + 32;
    if (len > 24) return t.slice(start, i);
    // A short text seen lately is shared (JS strings are immutable; each value still
    // gets its own MString), so a repeated word costs no new string.
    const slot = (h ^ len) & 511;
    const s = this.texts[slot];
    if (s !== undefined && this.textHashes[slot] === h && s.length === len && t.startsWith(s, start)) return s;
    const fresh = t.slice(start, i);
    this.texts[slot] = fresh;
    this.textHashes[slot] = h;
    return fresh;
  }

  /** A string with escapes from start (after its quote): found whole, then unescaped. */
  private escaped(start: number): string {
    const t = this.t;
    let i = start;
    for (;;) {
      const c = t.charCodeAt(i);
      if (c === 34) break;
      if (c !== c) throw BAIL;
      i += c === 92 ? 2 : 1;
    }
    if (i >= t.length) throw BAIL;
    this.i = i + 1;
    this.bytes += (i - start) * 2 + 32;
    return this.parser.unescaped(t.slice(start, i));
  }

  /** An object's key as a symbol; i at its opening quote, then past its closing one. */
  private key(): Sym {
    const t = this.t;
    const start = this.i + 1;
    let i = start;
    let h = 0;
    for (;;) {
      const c = t.charCodeAt(i);
      if (c === 34) break;
      if (c === 92) return this.symbols.intern(this.escaped(start));
      if (c < 32 || c !== c) throw BAIL;
      h = (Math.imul(h, 31) + c) | 0;
      i++;
    }
    const len = i - start;
    this.i = i + 1;
    const slot = (h ^ len) & 511;
    const s = this.keys[slot];
    if (s !== undefined && this.keyHashes[slot] === h && s.name.length === len && t.startsWith(s.name, start)) return s;
    const sym = this.symbols.intern(t.slice(start, i));
    this.keys[slot] = sym;
    this.keyHashes[slot] = h;
    return sym;
  }
}

/** An object json-read is building: its pairs so far, and the key waiting for its value. */
class ObjectFrame {
  readonly pairs: Pair[] = [];
  key: Sym | null = null;
}

function isNumberChar(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46 || c === 101 || c === 69;
}
function isLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
}

/** Why a Scheme number has no JSON form (SRFI 180: integers and finite flonums have one), or null. Shared with json-value.ts. */
export function jsonNumberProblem(v: any): string | null {
  if (typeof v === "bigint") return null;
  if (typeof v === "number" || v instanceof Flonum) {
    const f: number = typeof v === "number" ? v : v.v;
    return Number.isFinite(f) ? null : `${f > 0 ? "+inf.0" : f < 0 ? "-inf.0" : "+nan.0"} has no JSON form`;
  }
  if (v instanceof Ratnum) return "an exact rational that is not an integer has no JSON form";
  return "not a JSON number";
}

/** The JSON text of a number, or a json-error: integers, and finite flonums (written so that they read back inexact). */
export function jsonNumberText(who: string, v: any): string {
  const problem = jsonNumberProblem(v);
  if (problem !== null) jsonError(who, problem, [v], "type");
  if (typeof v === "number" || typeof v === "bigint") return String(v);
  {
    const f = v.v as number;
    if (Object.is(f, -0)) return "-0.0";
    const s = String(f);
    return Number.isInteger(f) && s.indexOf("e") < 0 ? s + ".0" : s;
  }
}

/**
 * The JSON text of a Scheme value in SRFI 180's mapping, or a json-error
 * saying what cannot be written (nothing is written then). Iterative: any
 * nesting depth. The work stack holds values still to write and, between
 * them, JS strings to emit (a Scheme value is never a JS string).
 */
export function jsonText(who: string, v: any): string {
  const w = new RecursiveWriter(who);
  w.write(v, 0);
  return w.text();
}

/**
 * The JSON text of shallow values by recursion (faster than the work stack);
 * a subtree deeper than DEEP goes to jsonTextDeep. The text is written into
 * a buffer of code units, bytes while it is ASCII (then 16-bit ones), decoded
 * chunk by chunk (CHUNK) into strings joined at the end: no string is made
 * per token. A string with nothing to escape is copied as it is, between
 * quotes, exact integers and short decimals are written digit by digit.
 */
const DEEP = 400;
// Made on first use: a TextDecoder is a host object the start-up snapshot
// (scripts/bundle.mjs) cannot hold, so none may exist when the module loads.
let asciiDecoder: InstanceType<typeof TextDecoder> | null = null;
let utf16Decoder: InstanceType<typeof TextDecoder> | null = null;
/** The writer's chunk: past this, its buffer is decoded and reused instead of grown. */
const CHUNK = 1 << 16;
class RecursiveWriter {
  private buf: Uint8Array | Uint16Array = new Uint8Array(1024);
  /** The byte buffer, kept while a chunk is written in 16-bit units. */
  private narrow: Uint8Array = this.buf as Uint8Array;
  private wide = false;
  /** The text of the chunks written, and its length. */
  private readonly parts: string[] = [];
  private length = 0;
  private pos = 0;
  private n = 0;
  /** putKey's cache: the key last written at each of an object's first 64 places, and its text. */
  private readonly keySyms: (Sym | undefined)[] = new Array(64);
  private readonly keyTexts: (string | undefined)[] = new Array(64);
  constructor(readonly who: string) {}

  text(): string {
    if (this.pos > 0 || this.parts.length === 0) this.flushChunk();
    spend(this.length * COST.charNs);
    return this.parts.length === 1 ? (this.parts[0] as string) : this.parts.join("");
  }

  /** The buffer's text decoded and kept; the buffer (bytes again) is reused for what follows. */
  private flushChunk(): void {
    const b = this.buf.subarray(0, this.pos);
    allocate(this.pos * (this.wide ? 2 : 1));
    this.parts.push(this.wide ? (utf16Decoder ??= new TextDecoder("utf-16le", { ignoreBOM: true })).decode(b) : (asciiDecoder ??= new TextDecoder("utf-8", { ignoreBOM: true })).decode(b));
    this.length += this.pos;
    this.pos = 0;
    if (this.wide) {
      this.buf = this.narrow;
      this.wide = false;
    }
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    // A full chunk is decoded and the buffer reused: no copy as it grows, and each chunk is bytes while it is ASCII.
    if (this.pos > 0 && this.buf.length >= CHUNK) {
      this.flushChunk();
      if (n <= this.buf.length) return;
    }
    const size = Math.max(this.buf.length * 2, this.pos + n);
    allocate(size * (this.wide ? 2 : 1));
    const b = this.wide ? new Uint16Array(size) : new Uint8Array(size);
    b.set(this.buf.subarray(0, this.pos));
    if (b instanceof Uint8Array) this.narrow = b;
    this.buf = b;
  }

  /** From bytes to 16-bit code units: a character past ASCII is coming. */
  private widen(): void {
    const b = new Uint16Array(Math.max(this.buf.length, 16));
    allocate(b.length * 2);
    b.set(this.buf.subarray(0, this.pos));
    this.narrow = this.buf as Uint8Array;
    this.buf = b;
    this.wide = true;
  }

  private put(s: string): void {
    const n = s.length;
    this.room(n);
    let buf = this.buf;
    let pos = this.pos;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c > 127 && !this.wide) {
        this.pos = pos;
        this.widen();
        buf = this.buf;
      }
      buf[pos++] = c;
    }
    this.pos = pos;
  }

  private putc(c: number): void {
    if (this.pos >= this.buf.length) this.room(1);
    this.buf[this.pos++] = c;
  }

  /** A string between quotes: copied as it is in one pass, or (a character to escape found) JSON.stringify's text. */
  private putString(s: string): void {
    const n = s.length;
    this.room(n + 2); // may decode a full chunk: the string starts where room leaves pos
    const start = this.pos;
    let buf = this.buf;
    let pos = start;
    buf[pos++] = 34;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 32 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) {
        this.pos = start;
        this.put(JSON.stringify(s));
        return;
      }
      if (c > 127 && !this.wide) {
        this.pos = pos;
        this.widen();
        buf = this.buf;
      }
      buf[pos++] = c;
    }
    buf[pos++] = 34;
    this.pos = pos;
  }

  /** The decimal digits of a non-negative safe integer. */
  private putDigits(x: number): void {
    let len = 1;
    for (let q = x; q >= 10; q = (q - (q % 10)) / 10) len++;
    this.room(len);
    const buf = this.buf;
    let pos = this.pos + len;
    this.pos = pos;
    do {
      const r = x % 10;
      buf[--pos] = 48 + r;
      x = (x - r) / 10;
    } while (x > 0);
  }

  /** An exact integer held in a JS number (never -0): String(x)'s text. */
  private putInt(x: number): void {
    if (x < 0) {
      this.putc(45);
      x = -x;
    }
    this.putDigits(x);
  }

  /**
   * A finite flonum that is not an integer, as String(f) writes it, when it has
   * at most 4 digits after the point and |f| × 10^k < 10^15: the shortest
   * decimal that reads back as f, as JS's Number::toString chooses it. The
   * first k at which the k-digit decimal n/10^k (n = round(|f| × 10^k)) reads
   * back as |f| (the division is correctly rounded) gives it: a shorter one
   * would have been found at a smaller k, and below 10^15 the flonums are
   * closer together than 10^-k, so no other k-digit decimal reads as f. False
   * (nothing written) otherwise.
   */
  private putShortDecimal(f: number): boolean {
    const a = f < 0 ? -f : f;
    for (let k = 1, p = 10; k <= 4; k++, p *= 10) {
      const scaled = a * p;
      if (!(scaled < 1e15)) return false;
      const n = Math.round(scaled);
      if (n / p !== a) continue;
      const frac = n % p;
      if (frac % 10 === 0) return false; // not the shortest after all (cannot happen; String(f) decides)
      if (f < 0) this.putc(45);
      this.putDigits((n - frac) / p);
      this.room(k + 1);
      const buf = this.buf;
      let pos = this.pos + k + 1;
      this.pos = pos;
      let r = frac;
      for (let j = 0; j < k; j++) {
        const d = r % 10;
        buf[--pos] = 48 + d;
        r = (r - d) / 10;
      }
      buf[--pos] = 46;
      return true;
    }
    return false;
  }

  /** `"name":` of an object's key, by a cache of the last key seen at each place of an object (objects of one shape repeat their keys). */
  private putKey(k: Sym, at: number): void {
    let t: string;
    if (at < 64 && this.keySyms[at] === k) t = this.keyTexts[at] as string;
    else {
      t = keyText(k);
      if (at < 64) {
        this.keySyms[at] = k;
        this.keyTexts[at] = t;
      }
    }
    this.put(t);
  }

  write(x: any, depth: number): void {
    if (++this.n === 1024) {
      spend(1024 * COST.elementNs);
      this.n = 0;
    }
    // The most common kinds first: the checks that fail cost a walk up the prototypes each.
    if (typeof x === "number") {
      if (Number.isInteger(x)) this.putInt(x);
      // A non-integral flonum, bare (ADR 0046); NaN and the infinities have no JSON form (raises).
      else if (x - x === 0) {
        if (!this.putShortDecimal(x)) this.put(String(x));
      } else this.put(jsonNumberText(this.who, x));
    } else if (x instanceof MString) this.putString(x.toString());
    else if (x instanceof Pair) {
      if (depth > DEEP) {
        this.put(jsonTextDeep(this.who, x));
        return;
      }
      // Checked as it is written: a bad element or tail raises before anything reaches the port.
      let p: any = x;
      let sep = 123;
      let k = 0;
      while (p instanceof Pair) {
        const e = p.car;
        if (!(e instanceof Pair) || !(e.car instanceof Sym))
          jsonError(this.who, "an object (association list) has an element that is not a (symbol . value) pair", [e], "type");
        this.putc(sep);
        this.putKey(e.car, k);
        this.write(e.cdr, depth + 1);
        sep = 44;
        p = p.cdr;
        if (++k > 1e8) jsonError(this.who, "an association list too long or circular", [], "type");
      }
      if (p !== NIL) jsonError(this.who, "an object (association list) is an improper list", [x], "type");
      this.putc(125);
    } else if (x instanceof Flonum) this.put(jsonNumberText(this.who, x)); // boxed, so integral (-0.0, 1.0, 1e+21) (ADR 0046)
    else if (x === true) this.put("true");
    else if (x === false) this.put("false");
    else if (Array.isArray(x)) {
      if (depth > DEEP) {
        this.put(jsonTextDeep(this.who, x));
        return;
      }
      this.putc(91);
      for (let i = 0; i < x.length; i++) {
        if (i > 0) this.putc(44);
        this.write(x[i], depth + 1);
      }
      this.putc(93);
    } else if (x === NIL) this.put("{}");
    else if (x instanceof Sym && x.name === "null") this.put("null");
    else this.put(jsonTextDeep(this.who, x)); // big integers, and what is not JSON (raises)
  }
}

/** jsonText with a work stack instead of recursion: any depth. */
function jsonTextDeep(who: string, v: any): string {
  let out = "";
  const work: any[] = [v];
  let n = 0;
  while (work.length > 0) {
    const x = work.pop();
    if (typeof x === "string") {
      out += x;
      continue;
    }
    if (++n === 1024) {
      spend(1024 * COST.elementNs);
      n = 0;
    }
    if (x instanceof MString) {
      const s = JSON.stringify(x.toString());
      spend(s.length * COST.charNs);
      out += s;
    } else if (typeof x === "number" || typeof x === "bigint" || x instanceof Flonum || x instanceof Ratnum) out += jsonNumberText(who, x);
    else if (x === true) out += "true";
    else if (x === false) out += "false";
    else if (x instanceof Sym) {
      if (x.name !== "null") jsonError(who, `the symbol ${x.name} is not JSON (only null is)`, [x], "type");
      out += "null";
    } else if (Array.isArray(x)) {
      if (x.length === 0) out += "[]";
      else {
        out += "[";
        work.push("]");
        for (let i = x.length - 1; i > 0; i--) work.push(x[i], ",");
        work.push(x[0]);
      }
    } else if (x === NIL) out += "{}";
    else if (x instanceof Pair) {
      const items: Pair[] = [];
      let p: any = x;
      while (p instanceof Pair) {
        const e = p.car;
        if (!(e instanceof Pair) || !(e.car instanceof Sym))
          jsonError(who, "an object (association list) has an element that is not a (symbol . value) pair", [e], "type");
        items.push(e);
        p = p.cdr;
        if (items.length > 1e8) jsonError(who, "an association list too long or circular", [], "type");
      }
      if (p !== NIL) jsonError(who, "an object (association list) is an improper list", [x], "type");
      out += "{";
      work.push("}");
      for (let i = items.length - 1; i >= 0; i--) {
        const e = items[i] as Pair;
        work.push(e.cdr, keyText(e.car as Sym));
        if (i > 0) work.push(",");
      }
    } else jsonError(who, `cannot write this as JSON (null, booleans, numbers, strings, vectors and association lists with symbol keys can be)`, [x], "type");
  }
  return out;
}

/** `"name":` for a key; the last few are kept (objects of one shape repeat their keys). */
const keyCache = new Map<string, string>();
function keyText(k: Sym): string {
  let t = keyCache.get(k.name);
  if (t === undefined) {
    t = JSON.stringify(k.name) + ":";
    if (keyCache.size > 4096) keyCache.clear();
    keyCache.set(k.name, t);
  }
  return t;
}

const PARSER: ArgType = { name: "json parser", test: (x: any) => x instanceof JsonParser };
const TEXT_IN: ArgType = { name: "textual input port", test: (x: any) => x instanceof Port && x.input && x.kind === "textual" };
const TEXT_OUT: ArgType = { name: "textual output port", test: (x: any) => x instanceof Port && x.output && x.kind === "textual" };
const LIMIT: ArgType = { name: "real number", test: (x: any) => (typeof x === "number" && !Number.isNaN(x)) || (x instanceof Flonum && !Number.isNaN(x.v)) };
const limitOf = (x: any): number => (typeof x === "number" ? x : x.v);

/** The procedures of (nodwyn primitives srfi 180); stdlib/srfi/180.sld wraps them. */
export const jsonPrimitives: ProcSpec[] = [
  {
    name: "%json-parser",
    params: ["who", "port-or-false", "depth-limit", "char-limit"],
    types: [T.symbol, null, LIMIT, LIMIT],
    doc: "A parser reading the textual input port, or (given #f) characters fed to it with %json-feed!.",
    impl(this: Ctx, who: Sym, port: any, depth: any, chars: any) {
      if (port !== false && !TEXT_IN.test(port)) jsonError(who.name, "a textual input port or a generator of characters expected", [port], "type");
      if (port !== false && !port.open) jsonError(who.name, "the port is closed", [port], "type");
      return new JsonParser(this, who.name, port === false ? null : port, limitOf(depth), limitOf(chars));
    },
  },
  {
    name: "%json-fed?",
    params: ["parser"],
    types: [PARSER],
    doc: "True when the parser is fed characters (it reads no port).",
    impl: (p: JsonParser) => p.fed,
  },
  {
    name: "%json-feed!",
    params: ["parser", "char-or-eof"],
    types: [PARSER, null],
    doc: "Gives a fed parser its next character or the end of input.",
    impl(p: JsonParser, c: any) {
      if (!(c instanceof Char) && !(c instanceof Eof)) jsonError(p.who, "the generator gave something that is not a character", [c], "type");
      p.feed(c);
      return true;
    },
  },
  {
    name: "%json-event",
    params: ["parser"],
    types: [PARSER],
    doc: "The next event of json-generator, the eof object after one top-level value, or the parser itself when it needs a character.",
    impl: (p: JsonParser) => p.event(),
  },
  {
    name: "%json-read",
    params: ["parser"],
    types: [PARSER],
    doc: "The next top-level value in SRFI 180's mapping, the eof object, or the parser itself when it needs a character.",
    impl: (p: JsonParser) => p.read(),
  },
  {
    name: "%json-reset!",
    params: ["parser"],
    types: [PARSER],
    doc: "Readies the parser for the next top-level value (json-lines-read).",
    impl(p: JsonParser) {
      p.reset();
      return true;
    },
  },
  {
    name: "%json->string",
    params: ["who", "obj"],
    types: [T.symbol, null],
    doc: "The JSON text of obj, or a json-error saying what is not JSON.",
    impl: (who: Sym, obj: any) => new MString(jsonText(who.name, obj)),
  },
  {
    name: "%json-write-port",
    params: ["obj", "port"],
    types: [null, TEXT_OUT],
    doc: "Writes the JSON text of obj to the port (nothing is written when obj is not JSON).",
    impl(obj: any, port: Port) {
      port.writeText(jsonText("json-write", obj));
      return true;
    },
  },
  {
    name: "%json-protocol-error",
    params: ["who", "why", "obj"],
    types: [T.symbol, T.string, null],
    doc: "Raises the json-error of an event out of json-accumulator's protocol.",
    impl: (who: Sym, why: MString, obj: any) => jsonError(who.name, `${why.toString()}: ${writeShort(obj)}`, [obj], "type"),
  },
  {
    name: "json-error?",
    params: ["obj"],
    doc: "True when obj is an error raised by this library (malformed JSON, a limit, a value json-write cannot write).",
    impl: (x: any) => isJsonError(x),
  },
  {
    name: "json-error-reason",
    params: ["obj"],
    types: [{ name: "json error", test: isJsonError }],
    doc: "The reason of a json error, as a string.",
    impl: (c: Condition) => new MString(c.message),
  },
];
