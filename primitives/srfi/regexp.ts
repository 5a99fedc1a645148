// SRFI 115's regular expressions: SREs compiled to RE2's syntax, so every match runs in time linear in the text.
//
// An SRE (a Scheme datum: strings, characters, SRFI 14 char-sets, symbols,
// lists) is translated to an RE2 pattern here; every character set is first
// evaluated to code point ranges with SRFI 14's operations (char-set.ts), so
// (- alpha ("aeiou")) and the named sets agree with char-alphabetic? and the
// char-set:… sets. What RE2 cannot run in linear time — look-around,
// backreferences — and what it has no form for (bog, eog) is a compile-time
// error saying so. Indexes are code points, as Scheme's string indexes are.

import RE2 from "re2";
import { type ProcSpec, type ArgType, T, NIL, Pair, MString, Sym, Char, arrayToList, listToArray, raiseError, argError, rangeError, spend, allocate, COST } from "../../interpreter/api.js";
import { CharSet, FULL, combine, complement, difference, fromCodePoints, fromRanges, intersection, standardRanges, union } from "./char-set.js";

/** A compiled regexp: a Scheme value (regexp? is true of it). */
export class Regexp {
  private anchored: any = null;
  constructor(
    readonly sre: any,
    readonly source: string,
    readonly re: any,
    /** Number of submatches. */
    readonly count: number,
    /** Submatch names → their numbers, in order. */
    readonly names: Map<string, number[]>,
  ) {}
  toString(): string {
    return "#<regexp>";
  }
  /** The same pattern anchored at both ends (regexp-matches). */
  whole(): any {
    if (this.anchored === null) this.anchored = new RE2(`^(?:${this.source})$`, "gud");
    return this.anchored;
  }
}

/** A successful match: a Scheme value (regexp-match? is true of it). Positions are code point indexes; -1 is no match. */
export class RegexpMatch {
  constructor(
    readonly rx: Regexp,
    readonly text: string,
    readonly starts: number[],
    readonly ends: number[],
  ) {}
  toString(): string {
    return "#<regexp-match>";
  }
}

interface Ctx {
  nocase: boolean;
  ascii: boolean;
  capture: boolean;
}

class Compiler {
  count = 0;
  readonly names = new Map<string, number[]>();
  constructor(readonly who: string) {}

  fail(why: string, sre: any): never {
    return raiseError("syntax", `${this.who}: ${why}`, [sre], this.who);
  }

  /** The RE2 text of sre (wrapped so that it can take a quantifier). */
  sre(x: any, c: Ctx): string {
    spend(COST.elementNs);
    if (x instanceof MString) return this.literal(x.toString(), c);
    if (x instanceof Char || x instanceof CharSet) return this.cset(this.csetRanges(x, c), c);
    if (x instanceof Sym) return this.symbol(x.name, x, c);
    if (x instanceof Pair) {
      const items = listToArray(x);
      if (items === null) this.fail("an SRE is a proper list", x);
      const head = items[0];
      if (head instanceof MString) {
        if (items.length !== 1) this.fail("a char-set SRE (\"...\") has exactly one string", x);
        return this.cset(this.csetRanges(x, c), c);
      }
      if (!(head instanceof Sym)) this.fail("an SRE list starts with an operator symbol", x);
      const args = items.slice(1);
      return this.form(head.name, args, x, c);
    }
    if (x === NIL) return "(?:)";
    return this.fail("not an SRE (strings, characters, char-sets, symbols and lists are)", x);
  }

  seq(args: any[], c: Ctx): string {
    return "(?:" + args.map((a) => this.sre(a, c)).join("") + ")";
  }

  count1(n: any, sre: any, what: string): number {
    if (typeof n !== "number" || !Number.isInteger(n) || n < 0) this.fail(`${what} must be an exact non-negative integer`, sre);
    if (n > 1000) this.fail(`${what} ${n} is more than RE2's limit of 1000 repetitions`, sre);
    return n;
  }

  form(op: string, args: any[], x: any, c: Ctx): string {
    switch (op) {
      case ":":
      case "seq":
        return this.seq(args, c);
      case "or":
      case "|":
        if (args.length === 0) return "[^\\x{0}-\\x{10FFFF}]";
        if (args.every((a) => this.isCset(a))) return this.cset(this.csetRanges(x, c), c);
        return "(?:" + args.map((a) => this.sre(a, c)).join("|") + ")";
      case "*":
      case "zero-or-more":
        return this.seq(args, c) + "*";
      case "+":
      case "one-or-more":
        return this.seq(args, c) + "+";
      case "?":
      case "optional":
        return this.seq(args, c) + "?";
      case "*?":
      case "non-greedy-zero-or-more":
        return this.seq(args, c) + "*?";
      case "??":
      case "non-greedy-optional":
        return this.seq(args, c) + "??";
      case "=":
      case "exactly": {
        const n = this.count1(args[0], x, "the count");
        return `${this.seq(args.slice(1), c)}{${n}}`;
      }
      case ">=":
      case "at-least": {
        const n = this.count1(args[0], x, "the count");
        return `${this.seq(args.slice(1), c)}{${n},}`;
      }
      case "**":
      case "repeated":
      case "**?":
      case "non-greedy-repeated": {
        const n = this.count1(args[0], x, "the lower bound");
        const m = args[1] === false ? -1 : this.count1(args[1], x, "the upper bound");
        if (m >= 0 && m < n) this.fail("the upper bound is less than the lower bound", x);
        const lazy = op === "**?" || op === "non-greedy-repeated" ? "?" : "";
        return `${this.seq(args.slice(2), c)}{${n},${m < 0 ? "" : m}}${lazy}`;
      }
      case "$":
      case "submatch":
        return this.group(null, args, c);
      case "->":
      case "submatch-named": {
        const name = args[0];
        if (!(name instanceof Sym)) this.fail("a named submatch's name is a symbol", x);
        return this.group(name.name, args.slice(1), c);
      }
      case "w/case":
        return this.seq(args, { ...c, nocase: false });
      case "w/nocase":
        return this.seq(args, { ...c, nocase: true });
      case "w/ascii":
        return this.seq(args, { ...c, ascii: true });
      case "w/unicode":
        return this.seq(args, { ...c, ascii: false });
      case "w/nocapture":
        return this.seq(args, { ...c, capture: false });
      case "word":
        return `(?:${this.boundary()}${this.seq(args, c)}${this.boundary()})`;
      case "word+": {
        const inner = args.length === 0 ? FULL : this.csetRanges(new Pair(intern("or"), arrayToList(args)), c);
        return `(?:${this.boundary()}${this.cset(intersectRanges(inner, wordRanges(c)), c)}+${this.boundary()})`;
      }
      case "look-ahead":
      case "look-behind":
      case "neg-look-ahead":
      case "neg-look-behind":
        return this.fail(`${op} cannot be compiled to RE2: matching stays linear only without look-around (rewrite the pattern, or test the condition in Scheme)`, x);
      case "backref":
        return this.fail("backref cannot be compiled to RE2: backreferences make matching NP-hard, and RE2 matches in linear time only (the regexp-backrefs feature is not provided)", x);
      default:
        if (this.isCset(x)) return this.cset(this.csetRanges(x, c), c);
        return this.fail(`unknown SRE operator ${op}`, x);
    }
  }

  group(name: string | null, args: any[], c: Ctx): string {
    if (!c.capture) return this.seq(args, c);
    const n = ++this.count;
    if (name !== null) {
      const l = this.names.get(name) ?? [];
      l.push(n);
      this.names.set(name, l);
    }
    return "(" + args.map((a) => this.sre(a, c)).join("") + ")";
  }

  boundary(): string {
    return "\\b";
  }

  symbol(name: string, x: any, c: Ctx): string {
    switch (name) {
      case "bos":
        return "\\A";
      case "eos":
        return "\\z";
      case "bol":
        return "(?m:^)";
      case "eol":
        return "(?m:$)";
      case "bow":
      case "eow":
        return "\\b";
      case "nwb":
        return "\\B";
      case "word":
        return `(?:\\b${this.cset(wordRanges(c), c)}+\\b)`;
      case "grapheme":
        // A base character and the combining marks after it (RE2 has no \X): the legacy grapheme cluster.
        return c.ascii ? "[\\x00-\\x7f]" : "(?:\\r\\n|\\P{M}\\p{M}*|\\p{M}+)";
      case "bog":
      case "eog":
        return this.fail(`${name} cannot be compiled to RE2 (it has no grapheme-boundary assertion)`, x);
      default:
        if (NAMED[name] !== undefined) return this.cset(this.csetRanges(x, c), c);
        return this.fail(`unknown SRE symbol ${name}`, x);
    }
  }

  literal(s: string, c: Ctx): string {
    let out = "";
    for (const ch of s) out += escapeChar(ch.codePointAt(0) as number);
    if (out === "") return "(?:)";
    return c.nocase ? `(?i:${out})` : `(?:${out})`;
  }

  /** A class of these ranges; case-insensitive contexts were applied at the terminals (csetRanges). */
  cset(ranges: readonly number[], c: Ctx): string {
    const rs = c.ascii ? intersectRanges(ranges, [0, 0x80]) : ranges;
    if (rs.length === 0) return "[^\\x{0}-\\x{10FFFF}]";
    let out = "[";
    for (let i = 0; i < rs.length; i += 2) {
      let lo = rs[i] as number;
      let hi = (rs[i + 1] as number) - 1;
      // RE2 works on UTF-8: surrogates are not characters.
      if (lo >= 0xd800 && hi <= 0xdfff) continue;
      if (lo < 0xd800 && hi >= 0xd800 && hi <= 0xdfff) hi = 0xd7ff;
      if (lo >= 0xd800 && lo <= 0xdfff) lo = 0xe000;
      if (lo < 0xd800 && hi > 0xdfff) {
        out += `\\x{${lo.toString(16)}}-\\x{d7ff}\\x{e000}-\\x{${hi.toString(16)}}`;
        continue;
      }
      out += lo === hi ? `\\x{${lo.toString(16)}}` : `\\x{${lo.toString(16)}}-\\x{${hi.toString(16)}}`;
    }
    return out === "[" ? "[^\\x{0}-\\x{10FFFF}]" : out + "]";
  }

  isCset(x: any): boolean {
    if (x instanceof Char || x instanceof CharSet) return true;
    if (x instanceof MString) return [...x.toString()].length === 1;
    if (x instanceof Sym) return NAMED[x.name] !== undefined;
    if (x instanceof Pair) {
      const items = listToArray(x);
      if (items === null || items.length === 0) return false;
      const h = items[0];
      if (h instanceof MString) return items.length === 1;
      if (!(h instanceof Sym)) return false;
      switch (h.name) {
        case "char-set":
        case "/":
        case "char-range":
          return true;
        case "or":
        case "|":
        case "and":
        case "&":
        case "-":
        case "difference":
        case "~":
        case "complement":
          return items.slice(1).every((a) => this.isCset(a));
        case "w/case":
        case "w/nocase":
        case "w/ascii":
        case "w/unicode":
          return items.length === 2 && this.isCset(items[1]);
      }
    }
    return false;
  }

  /** The code point ranges of a cset-sre. */
  csetRanges(x: any, c: Ctx): readonly number[] {
    spend(COST.elementNs);
    if (x instanceof Char) return this.caseClose(fromCodePoints([x.code]), c);
    if (x instanceof CharSet) return this.caseClose(x.ranges, c);
    if (x instanceof MString) {
      const cps = [...x.toString()].map((ch) => ch.codePointAt(0) as number);
      if (cps.length !== 1) this.fail("a string in a char-set SRE has one character (or use (\"...\") for a set)", x);
      return this.caseClose(fromCodePoints(cps), c);
    }
    if (x instanceof Sym) {
      const make = NAMED[x.name];
      if (make === undefined) this.fail(`unknown character set ${x.name}`, x);
      let rs = make(c.ascii);
      if (c.nocase && (x.name === "upper" || x.name === "upper-case" || x.name === "lower" || x.name === "lower-case"))
        rs = combine(combine(NAMED["upper"]!(c.ascii), NAMED["lower"]!(c.ascii), union), NAMED["title"]!(c.ascii), union);
      return c.ascii ? intersectRanges(rs, [0, 0x80]) : rs;
    }
    const items = x instanceof Pair ? listToArray(x) : null;
    if (items === null || items.length === 0) return this.fail("not a char-set SRE", x);
    const h = items[0];
    const args = items.slice(1);
    if (h instanceof MString) return this.caseClose(fromCodePoints([...h.toString()].map((ch) => ch.codePointAt(0) as number)), c);
    if (!(h instanceof Sym)) return this.fail("not a char-set SRE", x);
    switch (h.name) {
      case "char-set": {
        if (args.length !== 1 || !(args[0] instanceof MString)) this.fail("(char-set string) takes one string", x);
        return this.caseClose(fromCodePoints([...args[0].toString()].map((ch: string) => ch.codePointAt(0) as number)), c);
      }
      case "/":
      case "char-range": {
        const cps: number[] = [];
        for (const a of args) {
          if (a instanceof Char) cps.push(a.code);
          else if (a instanceof MString) for (const ch of a.toString()) cps.push(ch.codePointAt(0) as number);
          else this.fail("a range is given by strings and characters", x);
        }
        if (cps.length % 2 !== 0) this.fail("a range needs an even number of characters (pairs of ends)", x);
        const pairs: [number, number][] = [];
        for (let i = 0; i < cps.length; i += 2) {
          const lo = cps[i] as number;
          const hi = cps[i + 1] as number;
          if (hi < lo) this.fail(`the range ${String.fromCodePoint(lo)}-${String.fromCodePoint(hi)} is backwards`, x);
          pairs.push([lo, hi + 1]);
        }
        return this.caseClose(fromRanges(pairs), c);
      }
      case "or":
      case "|":
        return args.reduce((acc: readonly number[], a) => combine(acc, this.csetRanges(a, c), union), []);
      case "and":
      case "&":
        return args.reduce((acc: readonly number[], a) => combine(acc, this.csetRanges(a, c), intersection), FULL);
      case "-":
      case "difference":
        if (args.length === 0) this.fail("(- base cset ...) needs a base set", x);
        return args.slice(1).reduce((acc: readonly number[], a) => combine(acc, this.csetRanges(a, c), difference), this.csetRanges(args[0], c));
      case "~":
      case "complement": {
        const u = args.reduce((acc: readonly number[], a) => combine(acc, this.csetRanges(a, c), union), []);
        const all = c.ascii ? [0, 0x80] : FULL;
        return combine(all, u, difference);
      }
      case "w/case":
        return this.csetRanges(args[0], { ...c, nocase: false });
      case "w/nocase":
        return this.csetRanges(args[0], { ...c, nocase: true });
      case "w/ascii":
        return this.csetRanges(args[0], { ...c, ascii: true });
      case "w/unicode":
        return this.csetRanges(args[0], { ...c, ascii: false });
      default:
        return this.fail(`unknown char-set operator ${h.name}`, x);
    }
  }

  /** In a case-insensitive context, the set with every case variant of its characters (simple case mappings). */
  caseClose(rs: readonly number[], c: Ctx): readonly number[] {
    if (!c.nocase) return rs;
    const extra: number[] = [];
    let n = 0;
    for (let i = 0; i < rs.length; i += 2)
      for (let cp = rs[i] as number; cp < (rs[i + 1] as number); cp++) {
        if (++n > 200000) break;
        if (cp >= 0xd800 && cp <= 0xdfff) continue;
        const s = String.fromCodePoint(cp);
        for (const v of [s.toLowerCase(), s.toUpperCase()]) {
          const chars = [...v];
          if (chars.length === 1) extra.push(chars[0]!.codePointAt(0) as number);
        }
      }
    spend(n * COST.charNs);
    return combine(rs, fromCodePoints(extra), union);
  }
}

let internTable: ((name: string) => Sym) | null = null;
function intern(name: string): Sym {
  return internTable === null ? new Sym(name) : internTable(name);
}

function intersectRanges(a: readonly number[], b: readonly number[]): number[] {
  return combine(a, b, intersection);
}

function std(name: string): readonly number[] {
  return standardRanges(name) as readonly number[];
}

const A = (ascii: readonly number[]) => ascii;
/** The named sets: their Unicode definition, or (ascii) their ASCII one. */
const NAMED: Record<string, ((ascii: boolean) => readonly number[]) | undefined> = {
  any: (a) => (a ? [0, 0x80] : FULL),
  nonl: (a) => combine(a ? [0, 0x80] : FULL, [10, 11, 13, 14], difference),
  ascii: () => [0, 0x80],
  "lower-case": (a) => (a ? A([0x61, 0x7b]) : std("lower-case")),
  "upper-case": (a) => (a ? A([0x41, 0x5b]) : std("upper-case")),
  "title-case": (a) => (a ? [] : std("title-case")),
  alphabetic: (a) => (a ? A([0x41, 0x5b, 0x61, 0x7b]) : std("letter")),
  numeric: (a) => (a ? A([0x30, 0x3a]) : std("digit")),
  alphanumeric: (a) => (a ? A([0x30, 0x3a, 0x41, 0x5b, 0x61, 0x7b]) : std("letter+digit")),
  punctuation: (a) => (a ? fromCodePoints([..."!\"#%&'()*,-./:;?@[\\]_{}"].map((c) => c.codePointAt(0) as number)) : std("punctuation")),
  symbol: (a) => (a ? fromCodePoints([..."$+<=>^`|~"].map((c) => c.codePointAt(0) as number)) : std("symbol")),
  graphic: (a) => (a ? A([0x21, 0x7f]) : std("graphic")),
  whitespace: (a) => (a ? fromCodePoints([32, 9, 10, 12, 13, 11]) : std("whitespace")),
  printing: (a) => (a ? A([0x9, 0xe, 0x20, 0x7f]) : std("printing")),
  control: (a) => (a ? A([0, 0x20]) : complement(std("graphic"))),
  "hex-digit": () => std("hex-digit"),
};
NAMED["lower"] = NAMED["lower-case"];
NAMED["upper"] = NAMED["upper-case"];
NAMED["title"] = NAMED["title-case"];
NAMED["alpha"] = NAMED["alphabetic"];
NAMED["num"] = NAMED["numeric"];
// Not in the grammar, but the document's own examples use it (and chibi has it).
NAMED["digit"] = NAMED["numeric"];
NAMED["alphanum"] = NAMED["alphanumeric"];
NAMED["alnum"] = NAMED["alphanumeric"];
NAMED["punct"] = NAMED["punctuation"];
NAMED["graph"] = NAMED["graphic"];
NAMED["white"] = NAMED["whitespace"];
NAMED["space"] = NAMED["whitespace"];
NAMED["print"] = NAMED["printing"];
NAMED["cntrl"] = NAMED["control"];
NAMED["xdigit"] = NAMED["hex-digit"];

function wordRanges(c: Ctx): readonly number[] {
  return combine(NAMED["alphanumeric"]!(c.ascii), [0x5f, 0x60], union);
}

const META = new Set([..."\\^$.|?*+()[]{}"]);
function escapeChar(cp: number): string {
  const ch = String.fromCodePoint(cp);
  if (META.has(ch)) return "\\" + ch;
  if (cp < 0x20 || cp === 0x7f || (cp >= 0xd800 && cp <= 0xdfff)) return `\\x{${cp.toString(16)}}`;
  return ch;
}

/** Compiles an SRE (or returns a regexp as it is). */
export function compile(who: string, sre: any, symbols?: (name: string) => Sym): Regexp {
  if (sre instanceof Regexp) return sre;
  if (symbols !== undefined) internTable = symbols;
  const c = new Compiler(who);
  const source = c.sre(sre, { nocase: false, ascii: false, capture: true });
  allocate(source.length * 2 + 256);
  let re: any;
  try {
    re = new RE2(source, "gud");
  } catch (e) {
    return raiseError("syntax", `${who}: the pattern cannot be compiled to RE2: ${(e as Error).message}`, [sre], who);
  }
  return new Regexp(sre, source, re, c.count, c.names);
}

/** True when sre compiles. */
export function validSre(sre: any): boolean {
  try {
    compile("valid-sre?", sre);
    return true;
  } catch {
    return false;
  }
}

// Code point indexes ↔ UTF-16 offsets: the same when the text has no astral character.
const ASTRAL = /[\ud800-\udfff]/;
function cpToUnit(s: string, cp: number): number {
  if (!ASTRAL.test(s)) return cp;
  let u = 0;
  for (let i = 0; i < cp && u < s.length; i++) u += (s.charCodeAt(u) & 0xfc00) === 0xd800 ? 2 : 1;
  return u;
}

/**
 * The text RE2 searches, as UTF-8 bytes (RE2 converts a JS string on every call with lastIndex or indices; a
 * Buffer it searches in place). The last one is kept: a loop of searches over one text converts it once.
 */
let lastText: string | null = null;
let lastBuf: Buffer = Buffer.alloc(0);
function utf8(s: string): Buffer {
  if (s !== lastText) {
    allocate(s.length * 3);
    spend(s.length * COST.charNs);
    lastBuf = Buffer.from(s, "utf8");
    lastText = s;
  }
  return lastBuf;
}

/** The code point index of byte offset `off` of buf (ASCII: the same). */
function byteToCp(buf: Buffer, off: number, ascii: boolean): number {
  if (ascii) return off;
  let n = 0;
  for (let i = 0; i < off; i++) if ((buf[i]! & 0xc0) !== 0x80) n++;
  return n;
}
function cpToByte(buf: Buffer, cp: number, ascii: boolean): number {
  if (ascii) return cp;
  let i = 0;
  for (let n = 0; n < cp && i < buf.length; n++) {
    const b = buf[i]!;
    i += b < 0x80 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
  }
  return i;
}

/**
 * Searches text (code point range [start, end)) from code point `from`: the match, or null. The pattern sees only
 * text[start, end) (bos and eos are its ends, as the document says).
 */
export function search(rx: Regexp, text: string, start: number, end: number, from: number, whole = false): RegexpMatch | null {
  const whole0 = start === 0 && end === text.length && !ASTRAL.test(text);
  const sub = whole0 ? text : sliceCp(text, start, end);
  const buf = utf8(sub);
  const ascii = buf.length === sub.length;
  const re = whole ? rx.whole() : rx.re;
  const fromByte = cpToByte(buf, from - start, ascii);
  spend((buf.length - fromByte) * COST.charNs);
  re.lastIndex = fromByte;
  const m = re.exec(buf);
  if (m === null) return null;
  const starts: number[] = [];
  const ends: number[] = [];
  const indices = m.indices as ([number, number] | undefined)[];
  for (let g = 0; g <= rx.count; g++) {
    const ix = indices[g];
    if (ix === undefined) {
      starts.push(-1);
      ends.push(-1);
    } else {
      starts.push(byteToCp(buf, ix[0], ascii) + start);
      ends.push(byteToCp(buf, ix[1], ascii) + start);
    }
  }
  return new RegexpMatch(rx, text, starts, ends);
}

// The procedures.

const RX: ArgType = { name: "regexp", test: (x: any) => x instanceof Regexp };
const MATCH: ArgType = { name: "regexp match", test: (x: any) => x instanceof RegexpMatch };

/** SREs compiled once: the document allows a mutated SRE to give unspecified results. */
const cache = new WeakMap<object, Regexp>();
function rxOf(ctx: any, who: string, sre: any): Regexp {
  if (sre instanceof Regexp) return sre;
  if (typeof sre === "object" && sre !== null) {
    const hit = cache.get(sre);
    if (hit !== undefined) return hit;
    const rx = compile(who, sre, (n) => ctx.symbols.intern(n));
    cache.set(sre, rx);
    return rx;
  }
  return compile(who, sre, (n) => ctx.symbols.intern(n));
}

function bounds(who: string, s: MString, start: any, end: any, argNo: number): [string, number, number] {
  const text = s.toString();
  const n = s.length;
  const a = start === undefined ? 0 : start;
  const b = end === undefined || end === false ? n : end;
  if (typeof a !== "number" || !Number.isInteger(a) || a < 0 || a > n) rangeError(who, argNo, `start ${String(a)} out of range [0, ${n}]`, a);
  if (typeof b !== "number" || !Number.isInteger(b) || b < a || b > n) rangeError(who, argNo + 1, `end ${String(b)} out of range [${a}, ${n}]`, b);
  return [text, a, b];
}

/** Every match in [start, end) from start, an empty one moving the next search one character on. */
function* matches(rx: Regexp, text: string, start: number, end: number): Generator<RegexpMatch> {
  let from = start;
  while (from <= end) {
    const m = search(rx, text, start, end, from);
    if (m === null) return;
    yield m;
    const e = m.ends[0] as number;
    from = e === m.starts[0] ? e + 1 : e;
  }
}

function sliceCp(text: string, a: number, b: number): string {
  if (!ASTRAL.test(text)) return text.slice(a, b);
  return text.slice(cpToUnit(text, a), cpToUnit(text, b));
}

function field(who: string, m: RegexpMatch, f: any): number {
  if (typeof f === "number" && Number.isInteger(f)) {
    if (f > m.rx.count) rangeError(who, 2, `submatch ${f} out of range [0, ${m.rx.count}]`, f);
    return f;
  }
  if (f instanceof Sym) {
    const ns = m.rx.names.get(f.name);
    if (ns === undefined) rangeError(who, 2, `no submatch named ${f.name}`, f);
    for (const n of ns) if ((m.starts[n] as number) >= 0) return n;
    return ns[0] as number;
  }
  return argError(who, 2, "submatch number or name", f);
}

/** The text subst stands for at match m (a string, a submatch number or name, pre, post, or a list of these). */
function substitution(who: string, m: RegexpMatch, subst: any, start: number, end: number): string {
  if (subst instanceof MString) return subst.toString();
  if (subst instanceof Sym && subst.name === "pre") return sliceCp(m.text, start, m.starts[0] as number);
  if (subst instanceof Sym && subst.name === "post") return sliceCp(m.text, m.ends[0] as number, end);
  if ((typeof subst === "number" && Number.isInteger(subst)) || subst instanceof Sym) {
    const n = field(who, m, subst);
    return (m.starts[n] as number) < 0 ? "" : sliceCp(m.text, m.starts[n] as number, m.ends[n] as number);
  }
  if (subst instanceof Pair || subst === NIL) {
    const items = listToArray(subst);
    if (items === null) argError(who, 3, "substitution (string, submatch, pre, post or a list of them)", subst);
    return items.map((x) => substitution(who, m, x, start, end)).join("");
  }
  return argError(who, 3, "substitution (string, submatch, pre, post or a list of them)", subst);
}

function replace(who: string, ctx: any, re: any, s: MString, subst: any, start: any, end: any, count: number | null): MString {
  const rx = rxOf(ctx, who, re);
  const [text, a, b] = bounds(who, s, start, end, 4);
  let out = "";
  let pos = a;
  let k = 0;
  for (const m of matches(rx, text, a, b)) {
    if (count === null || k === count) {
      out += sliceCp(text, pos, m.starts[0] as number) + substitution(who, m, subst, a, b);
      pos = m.ends[0] as number;
      if (count !== null) break;
    }
    k++;
  }
  out += sliceCp(text, pos, b);
  allocate(out.length * 2);
  return new MString(out);
}

/** The procedures of (nodwyn primitives srfi 115). */
export const regexpPrimitives: ProcSpec[] = [
  {
    name: "regexp",
    params: ["re"],
    doc: "The compiled regexp of an SRE (re itself when it is a regexp); an error naming what RE2 cannot run (look-around, backreferences).",
    impl(this: any, re: any) {
      return rxOf(this, "regexp", re);
    },
  },
  { name: "regexp?", params: ["obj"], doc: "True when obj is a compiled regexp.", impl: (x: any) => x instanceof Regexp },
  {
    name: "valid-sre?",
    params: ["obj"],
    doc: "True when obj is an SRE that regexp compiles.",
    impl(this: any, x: any) {
      try {
        rxOf(this, "valid-sre?", x);
        return true;
      } catch {
        return false;
      }
    },
  },
  { name: "regexp->sre", params: ["re"], types: [RX], doc: "An SRE of the regexp (the one it was compiled from).", impl: (rx: Regexp) => rx.sre },
  {
    name: "char-set->sre",
    params: ["char-set"],
    types: [{ name: "char-set", test: (x: any) => x instanceof CharSet }],
    doc: "An SRE of the char-set in portable notation: (/ lo hi …) of its ranges (or (or) when it is empty).",
    impl(this: any, cs: CharSet) {
      const rs = cs.ranges;
      if (rs.length === 0) return new Pair(this.symbols.intern("or"), NIL);
      const ends: any[] = [this.symbols.intern("/")];
      for (let i = 0; i < rs.length; i += 2) {
        let lo = rs[i] as number;
        let hi = (rs[i + 1] as number) - 1;
        if (lo >= 0xd800 && lo <= 0xdfff) lo = 0xe000;
        if (hi >= 0xd800 && hi <= 0xdfff) hi = 0xd7ff;
        if (hi < lo) continue;
        ends.push(new Char(lo), new Char(hi));
      }
      return arrayToList(ends);
    },
  },
  {
    name: "regexp-matches",
    params: ["re", "string", "[start]", "[end]"],
    types: [null, T.string, null, null],
    doc: "A match when re matches all of string[start, end), else #f.",
    impl(this: any, re: any, s: MString, start: any, end: any) {
      const rx = rxOf(this, "regexp-matches", re);
      const [text, a, b] = bounds("regexp-matches", s, start, end, 3);
      return search(rx, text, a, b, a, true) ?? false;
    },
  },
  {
    name: "regexp-matches?",
    params: ["re", "string", "[start]", "[end]"],
    types: [null, T.string, null, null],
    doc: "True when re matches all of string[start, end).",
    impl(this: any, re: any, s: MString, start: any, end: any) {
      const rx = rxOf(this, "regexp-matches?", re);
      const [text, a, b] = bounds("regexp-matches?", s, start, end, 3);
      return search(rx, text, a, b, a, true) !== null;
    },
  },
  {
    name: "regexp-search",
    params: ["re", "string", "[start]", "[end]"],
    types: [null, T.string, null, null],
    doc: "The first match of re in string[start, end), or #f.",
    impl(this: any, re: any, s: MString, start: any, end: any) {
      const rx = rxOf(this, "regexp-search", re);
      const [text, a, b] = bounds("regexp-search", s, start, end, 3);
      return search(rx, text, a, b, a) ?? false;
    },
  },
  {
    name: "%regexp-search-from",
    params: ["re", "string", "start", "end", "from"],
    types: [null, T.string, T.index, T.index, T.index],
    doc: "The first match of re in string[start, end) at or after from (bos is start), or #f.",
    impl(this: any, re: any, s: MString, start: number, end: number, from: number) {
      const rx = rxOf(this, "regexp-fold", re);
      const [text, a, b] = bounds("regexp-fold", s, start, end, 6);
      return from > b ? false : (search(rx, text, a, b, from) ?? false);
    },
  },
  {
    name: "%regexp-bounds",
    params: ["re", "string", "[start]", "[end]"],
    types: [null, T.string, null, null],
    doc: "Compiles re and checks the range: the regexp, start and end (three values) for regexp-fold.",
    impl(this: any, re: any, s: MString, start: any, end: any) {
      const rx = rxOf(this, "regexp-fold", re);
      const [, a, b] = bounds("regexp-fold", s, start, end, 6);
      return arrayToList([rx, a, b]);
    },
  },
  {
    name: "regexp-extract",
    params: ["re", "string", "[start]", "[end]"],
    types: [null, T.string, null, null],
    doc: "The list of the non-empty substrings of string[start, end) that re matches, in order.",
    impl(this: any, re: any, s: MString, start: any, end: any) {
      const rx = rxOf(this, "regexp-extract", re);
      const [text, a, b] = bounds("regexp-extract", s, start, end, 3);
      const out: MString[] = [];
      for (const m of matches(rx, text, a, b)) if (m.ends[0] !== m.starts[0]) out.push(new MString(sliceCp(text, m.starts[0] as number, m.ends[0] as number)));
      return arrayToList(out);
    },
  },
  {
    name: "regexp-split",
    params: ["re", "string", "[start]", "[end]"],
    types: [null, T.string, null, null],
    doc: "The (possibly empty) substrings of string[start, end) between the non-empty matches of re.",
    impl(this: any, re: any, s: MString, start: any, end: any) {
      const rx = rxOf(this, "regexp-split", re);
      const [text, a, b] = bounds("regexp-split", s, start, end, 3);
      const out: MString[] = [];
      let pos = a;
      for (const m of matches(rx, text, a, b)) {
        if (m.ends[0] === m.starts[0]) continue;
        out.push(new MString(sliceCp(text, pos, m.starts[0] as number)));
        pos = m.ends[0] as number;
      }
      out.push(new MString(sliceCp(text, pos, b)));
      return arrayToList(out);
    },
  },
  {
    name: "regexp-partition",
    params: ["re", "string", "[start]", "[end]"],
    types: [null, T.string, null, null],
    doc: "string[start, end) as unmatched and matched parts alternately, starting with an unmatched one (maybe empty); no empty last part.",
    impl(this: any, re: any, s: MString, start: any, end: any) {
      const rx = rxOf(this, "regexp-partition", re);
      const [text, a, b] = bounds("regexp-partition", s, start, end, 3);
      const out: MString[] = [];
      let pos = a;
      for (const m of matches(rx, text, a, b)) {
        if (m.ends[0] === m.starts[0]) continue;
        out.push(new MString(sliceCp(text, pos, m.starts[0] as number)), new MString(sliceCp(text, m.starts[0] as number, m.ends[0] as number)));
        pos = m.ends[0] as number;
      }
      if (pos < b || out.length === 0) out.push(new MString(sliceCp(text, pos, b)));
      return arrayToList(out);
    },
  },
  {
    name: "regexp-replace",
    params: ["re", "string", "subst", "[start]", "[end]", "[count]"],
    types: [null, T.string, null, null, null, T.index],
    doc: "string[start, end) with its count-th match (from 0) replaced by subst: a string, a submatch number or name, pre, post, or a list of them.",
    impl(this: any, re: any, s: MString, subst: any, start: any, end: any, count: any) {
      return replace("regexp-replace", this, re, s, subst, start, end, count ?? 0);
    },
  },
  {
    name: "regexp-replace-all",
    params: ["re", "string", "subst", "[start]", "[end]"],
    types: [null, T.string, null, null, null],
    doc: "string[start, end) with every match replaced by subst.",
    impl(this: any, re: any, s: MString, subst: any, start: any, end: any) {
      return replace("regexp-replace-all", this, re, s, subst, start, end, null);
    },
  },
  { name: "regexp-match?", params: ["obj"], doc: "True when obj is a match of regexp-matches or regexp-search.", impl: (x: any) => x instanceof RegexpMatch },
  { name: "regexp-match-count", params: ["regexp-match"], types: [MATCH], doc: "The number of submatches (not counting the whole match).", impl: (m: RegexpMatch) => m.rx.count },
  {
    name: "regexp-match-submatch",
    params: ["regexp-match", "field"],
    types: [MATCH, null],
    doc: "The text of submatch field (a number, 0 the whole match, or a name), or #f when it did not match.",
    impl(m: RegexpMatch, f: any) {
      const n = field("regexp-match-submatch", m, f);
      return (m.starts[n] as number) < 0 ? false : new MString(sliceCp(m.text, m.starts[n] as number, m.ends[n] as number));
    },
  },
  {
    name: "regexp-match-submatch-start",
    params: ["regexp-match", "field"],
    types: [MATCH, null],
    doc: "Where submatch field starts, or #f.",
    impl(m: RegexpMatch, f: any) {
      const n = field("regexp-match-submatch-start", m, f);
      return (m.starts[n] as number) < 0 ? false : m.starts[n];
    },
  },
  {
    name: "regexp-match-submatch-end",
    params: ["regexp-match", "field"],
    types: [MATCH, null],
    doc: "Where submatch field ends, or #f.",
    impl(m: RegexpMatch, f: any) {
      const n = field("regexp-match-submatch-end", m, f);
      return (m.starts[n] as number) < 0 ? false : m.ends[n];
    },
  },
  {
    name: "regexp-match->list",
    params: ["regexp-match"],
    types: [MATCH],
    doc: "The texts of all submatches, the whole match first (#f for those that did not match).",
    impl(m: RegexpMatch) {
      const out: any[] = [];
      for (let n = 0; n <= m.rx.count; n++) out.push((m.starts[n] as number) < 0 ? false : new MString(sliceCp(m.text, m.starts[n] as number, m.ends[n] as number)));
      return arrayToList(out);
    },
  },
];
