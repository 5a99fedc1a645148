// Printer: write, write-shared, write-simple and display to strings, without JS recursion.
//
// Modes:
//   "write"   — datum labels only where the structure is circular (R7RS `write`):
//               shared but acyclic parts are printed in full each time.
//   "shared"  — datum labels for every pair and vector reached more than once
//               (R7RS `write-shared`); strings are not labelled.
//   "simple"  — R7RS `write-simple` never uses labels and may loop on cycles; an
//               agent's interpreter must not hang or exhaust memory on a
//               mistake, so cycles are labelled as `write` does (acyclic data
//               prints exactly as write-simple requires).
//   "display" — like "write", but strings and characters print raw and symbols
//               without bars, at any depth (R7RS: as write-string / write-char).
//
// Objects without an external representation print as `#<...>`: procedures
// `#<procedure name>`, records `#<point x=1 y=2>`, conditions
// `#<condition user "message" irritant ...>`, and other host objects through their
// own `toString()` when it returns `#<...>`, else `#<object ClassName>`.

import { Pair, NIL } from "../values/pair.js";
import { Sym, Keyword } from "../values/symbol.js";
import { Char } from "../values/char.js";
import { MString } from "../values/string.js";
import { Eof, Unspecified, DefaultObject, Uninitialized, MultipleValues, Box } from "../values/misc.js";
import { Procedure } from "../values/procedure.js";
import { Record, RecordType } from "../values/record.js";
import { Condition } from "../values/condition.js";
import { Compnum, Flonum, Ratnum } from "../values/numbers/repr.js";
import { numberToString } from "../values/numbers/format.js";
import { parseNumber } from "../values/numbers/parse.js";
import { allocate, spend, COST } from "../budget.js";

/**
 * Work items (nodes walked, text pieces printed) between two reports to the
 * running evaluation's budget: a large datum (or a small one with much
 * sharing, which `write` prints in full) is charged as it is printed.
 */
const REPORT_EVERY = 4096;
/** Rough nanoseconds per node walked or piece printed. */
const NODE_NS = 20;

export type WriteMode = "write" | "shared" | "simple" | "display";

/** Objects that contain other values and may be shared or circular. */
function isContainer(x: unknown): x is object {
  if (typeof x !== "object" || x === null) return false;
  return x instanceof Pair || Array.isArray(x) || x instanceof Record || x instanceof Condition || x instanceof MultipleValues;
}

/** The values inside a container, in printing order. */
function childrenOf(x: object): readonly any[] {
  if (x instanceof Pair) return [x.car, x.cdr];
  if (Array.isArray(x)) return x;
  if (x instanceof Record) return x.f;
  if (x instanceof Condition) return x.irritants;
  if (x instanceof MultipleValues) return x.vals;
  return [];
}

/** Containers reached more than once (write-shared). */
function findShared(root: unknown): Map<object, number> {
  const seen = new Set<object>();
  const labels = new Map<object, number>();
  const todo: unknown[] = [root];
  let work = 0;
  while (todo.length > 0) {
    const x = todo.pop();
    if (!isContainer(x)) continue;
    if (++work === REPORT_EVERY) {
      // A Set entry per container walked.
      allocate(REPORT_EVERY * 32);
      spend(REPORT_EVERY * NODE_NS);
      work = 0;
    }
    if (seen.has(x)) {
      labels.set(x, -1);
      continue;
    }
    seen.add(x);
    if (x instanceof Pair) {
      if (isContainer(x.cdr)) todo.push(x.cdr);
      if (isContainer(x.car)) todo.push(x.car);
    } else {
      const cs = childrenOf(x);
      for (let i = cs.length - 1; i >= 0; i--) todo.push(cs[i]);
    }
  }
  return labels;
}

const ON_PATH = 1;
const DONE = 2;

/**
 * Containers that close a cycle: the targets of back edges of a depth-first
 * walk. Labelling them is enough to print any circular structure finitely.
 * A back edge always ends at a container reached more than once, so only the
 * `shared` ones need a state: the walk keeps no map entry for the rest, which
 * is most of a large datum.
 */
function findCycles(root: object, shared: Map<object, number>): Map<object, number> {
  const labels = new Map<object, number>();
  const state = new Map<object, number>();
  const nodes: object[] = [root];
  const next: number[] = [0];
  if (shared.has(root)) state.set(root, ON_PATH);
  let work = 0;
  while (nodes.length > 0) {
    if (++work === REPORT_EVERY) {
      spend(REPORT_EVERY * NODE_NS);
      work = 0;
    }
    const top = nodes.length - 1;
    const node = nodes[top] as object;
    const i = next[top] as number;
    let child: unknown;
    let more: boolean;
    if (node instanceof Pair) {
      more = i < 2;
      child = i === 0 ? node.car : node.cdr;
    } else {
      const cs = childrenOf(node);
      more = i < cs.length;
      child = cs[i];
    }
    if (!more) {
      if (shared.has(node)) state.set(node, DONE);
      nodes.pop();
      next.pop();
      continue;
    }
    next[top] = i + 1;
    if (!isContainer(child)) continue;
    if (!shared.has(child)) {
      nodes.push(child);
      next.push(0);
      continue;
    }
    const s = state.get(child);
    if (s === undefined) {
      state.set(child, ON_PATH);
      nodes.push(child);
      next.push(0);
    } else if (s === ON_PATH) {
      labels.set(child, -1);
    }
  }
  return labels;
}

const CHAR_NAMES: ReadonlyMap<number, string> = new Map([
  [0, "null"],
  [7, "alarm"],
  [8, "backspace"],
  [9, "tab"],
  [10, "newline"],
  [13, "return"],
  [27, "escape"],
  [32, "space"],
  [127, "delete"],
]);

/** Characters that print as themselves after `#\`: letters, digits, punctuation, symbols. */
const PRINTABLE_CHAR = /^[\p{L}\p{N}\p{P}\p{S}]$/u;

function writeChar(c: Char): string {
  const code = c.code;
  const name = CHAR_NAMES.get(code);
  if (name !== undefined) return "#\\" + name;
  const s = String.fromCodePoint(code);
  return PRINTABLE_CHAR.test(s) ? "#\\" + s : "#\\x" + code.toString(16);
}

/** Characters a written string must escape: `"`, `\`, control characters, line/paragraph separators. */
const STRING_NEEDS_ESCAPE = /["\\\x00-\x1f\x7f-\x9f\u2028\u2029]/;

function writeString(s: string): string {
  if (!STRING_NEEDS_ESCAPE.test(s)) return '"' + s + '"';
  let out = '"';
  let run = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let esc: string | null = null;
    switch (c) {
      case 34:
        esc = '\\"';
        break;
      case 92:
        esc = "\\\\";
        break;
      case 10:
        esc = "\\n";
        break;
      case 9:
        esc = "\\t";
        break;
      case 13:
        esc = "\\r";
        break;
      case 7:
        esc = "\\a";
        break;
      case 8:
        esc = "\\b";
        break;
      default:
        if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029) esc = "\\x" + c.toString(16) + ";";
    }
    if (esc !== null) {
      out += s.slice(run, i) + esc;
      run = i + 1;
    }
  }
  return out + s.slice(run) + '"';
}

function isLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}
/** R7RS <initial>: a letter or one of ! $ % & * / : < = > ? ^ _ ~ (ASCII only: others get bars). */
function isInitial(c: number): boolean {
  return isLetter(c) || "!$%&*/:<=>?^_~".indexOf(String.fromCharCode(c)) >= 0;
}
/** R7RS <subsequent>: an initial, a digit, or + - . @ */
function isSubsequent(c: number): boolean {
  return isInitial(c) || (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46 || c === 64;
}
function isSignSubsequent(c: number): boolean {
  return isInitial(c) || c === 43 || c === 45 || c === 64;
}

function allSubsequent(s: string, from: number): boolean {
  for (let i = from; i < s.length; i++) if (!isSubsequent(s.charCodeAt(i))) return false;
  return true;
}

/**
 * True when `name` written plainly is an R7RS identifier that reads back as the
 * same symbol. Anything else gets `|bars|`: the empty name, non-ASCII or
 * delimiter characters, names that read as numbers (`+1`, `1/2`, and `+i`
 * with complex numbers) or as keywords (`:key`).
 */
export function isPlainSymbolName(name: string): boolean {
  const n = name.length;
  if (n === 0) return false;
  const c0 = name.charCodeAt(0);
  let ok: boolean;
  if (isInitial(c0)) ok = allSubsequent(name, 1);
  else if (c0 === 43 || c0 === 45) {
    // + - and the peculiar identifiers starting with a sign
    if (n === 1) ok = true;
    else {
      const c1 = name.charCodeAt(1);
      if (isSignSubsequent(c1)) ok = allSubsequent(name, 2);
      else if (c1 === 46) ok = n > 2 && (isSignSubsequent(name.charCodeAt(2)) || name.charCodeAt(2) === 46) && allSubsequent(name, 3);
      else ok = false;
    }
  } else if (c0 === 46) {
    ok = n > 1 && (isSignSubsequent(name.charCodeAt(1)) || name.charCodeAt(1) === 46) && allSubsequent(name, 2);
  } else ok = false;
  if (!ok) return false;
  if ((c0 === 43 || c0 === 45 || c0 === 46) && parseNumber(name) !== false) return false; // +inf.0
  // +i and -i are numbers in a reader with complex numbers (R7RS §2.1), and a
  // name that starts with an <infnan> (+nan.0abc) is one some readers split
  // into a number and more: both get bars, so any reader reads them back as symbols.
  if ((c0 === 43 || c0 === 45) && (n === 2 ? (name.charCodeAt(1) | 32) === 105 : /^[+-](inf|nan)\.0/i.test(name))) return false;
  return true;
}

function writeSymbolName(name: string): string {
  if (isPlainSymbolName(name)) return name;
  let out = "|";
  for (const ch of name) {
    const c = ch.codePointAt(0) as number;
    if (ch === "|") out += "\\|";
    else if (ch === "\\") out += "\\\\";
    else if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) out += "\\x" + c.toString(16) + ";";
    else out += ch;
  }
  return out + "|";
}

function procedureText(p: Procedure): string {
  const info = p.info;
  const name = info?.name ?? "";
  switch (info?.kind) {
    case "continuation":
      return "#<continuation>";
    case "parameter":
      return name ? `#<parameter ${name}>` : "#<parameter>";
    default:
      return name ? `#<procedure ${name}>` : "#<procedure>";
  }
}

/** A record type's name without the conventional angle brackets: <point> ⇒ point. */
function recordTypeName(rtd: RecordType | undefined): string {
  const n = rtd?.name ?? "record";
  return n.length > 2 && n.startsWith("<") && n.endsWith(">") ? n.slice(1, -1) : n;
}

/** Text of anything that is not a container. */
function atomText(x: unknown, display: boolean): string {
  switch (typeof x) {
    case "number":
      if (Number.isSafeInteger(x)) return x === 0 ? "0" : String(x);
      if (!Number.isInteger(x)) return numberToString(x); // a non-integral flonum, bare (ADR 0046)
      return `#<js-number ${String(x)}>`;
    case "bigint":
      return numberToString(x);
    case "boolean":
      return x ? "#t" : "#f";
    case "string":
      return `#<js-string ${writeString(x)}>`;
    case "undefined":
      return "#<undefined>";
    case "function":
      return "#<js-function>";
    case "symbol":
      return "#<js-symbol>";
  }
  if (x === null) return "#<null>";
  if (x instanceof Sym) return display ? x.name : writeSymbolName(x.name);
  if (x instanceof MString) return display ? x.toString() : writeString(x.toString());
  if (x instanceof Char) return display ? String.fromCodePoint(x.code) : writeChar(x);
  if (x instanceof Flonum || x instanceof Ratnum || x instanceof Compnum) return numberToString(x as Flonum);
  if (x === NIL) return "()";
  if (x instanceof Keyword) return "#:" + x.name;
  if (x instanceof Uint8Array) return x.length === 0 ? "#u8()" : "#u8(" + x.join(" ") + ")";
  if (x instanceof Procedure) return procedureText(x);
  if (x instanceof Eof) return "#<eof>";
  if (x instanceof Unspecified) return "#<unspecified>";
  if (x instanceof DefaultObject) return "#<default>";
  if (x instanceof Uninitialized) return "#<uninitialized>";
  if (x instanceof Box) return "#<box>";
  if (x instanceof RecordType) return `#<record-type ${recordTypeName(x)}>`;
  return hostObjectText(x as object);
}

/** Other host objects: their own `#<...>` toString if they have one. */
function hostObjectText(x: object): string {
  try {
    const ts = (x as { toString?: unknown }).toString;
    if (typeof ts === "function" && ts !== Object.prototype.toString) {
      const s = ts.call(x);
      if (typeof s === "string" && s.startsWith("#<")) return s;
    }
    const ctor = Object.getPrototypeOf(x)?.constructor;
    const name = typeof ctor === "function" && typeof ctor.name === "string" ? ctor.name : "";
    return name && name !== "Object" ? `#<object ${name}>` : "#<object>";
  } catch {
    return "#<object>";
  }
}

// Work items of the printing loop.
const OP_VALUE = 0; // print args[i]
const OP_TAIL = 1; // args[i] is what follows an element of a list
const OP_TEXT = 2; // args[i] is literal text
const OP_VECTOR = 3; // args[i] is an array, ints[i] the next index

/**
 * Prints `root`. `labels` maps containers that need a datum label to -1 until
 * their label number is assigned (in order of appearance). Stops once the
 * output exceeds `limit` characters.
 */
function print(root: unknown, display: boolean, labels: Map<object, number> | null, limit: number): string {
  let out = "";
  let nextLabel = 0;
  const ops: number[] = [OP_VALUE];
  const args: any[] = [root];
  const ints: number[] = [0];
  const push = (op: number, arg: any, n = 0): void => {
    ops.push(op);
    args.push(arg);
    ints.push(n);
  };
  let work = 0;
  let reported = 0;

  while (ops.length > 0) {
    if (out.length > limit) break;
    if (++work === REPORT_EVERY) {
      // The text printed since the last report (2 bytes a character at most), and the time.
      allocate((out.length - reported) * 2 + REPORT_EVERY * 24);
      spend(REPORT_EVERY * NODE_NS + (out.length - reported) * COST.charNs);
      reported = out.length;
      work = 0;
    }
    const op = ops.pop() as number;
    const x = args.pop();
    const n = ints.pop() as number;
    switch (op) {
      case OP_TEXT:
        out += x as string;
        continue;
      case OP_TAIL:
        if (x === NIL) out += ")";
        else if (x instanceof Pair && (labels === null || !labels.has(x))) {
          out += " ";
          push(OP_TAIL, x.cdr);
          push(OP_VALUE, x.car);
        } else {
          out += " . ";
          push(OP_TEXT, ")");
          push(OP_VALUE, x);
        }
        continue;
      case OP_VECTOR: {
        const v = x as any[];
        if (n < v.length) {
          if (n > 0) out += " ";
          push(OP_VECTOR, v, n + 1);
          push(OP_VALUE, v[n]);
        } else out += ")";
        continue;
      }
    }
    // OP_VALUE
    if (!isContainer(x)) {
      out += atomText(x, display);
      continue;
    }
    if (labels !== null) {
      const l = labels.get(x);
      if (l !== undefined) {
        if (l >= 0) {
          out += `#${l}#`;
          continue;
        }
        labels.set(x, nextLabel);
        out += `#${nextLabel++}=`;
      }
    }
    if (x instanceof Pair) {
      out += "(";
      push(OP_TAIL, x.cdr);
      push(OP_VALUE, x.car);
    } else if (Array.isArray(x)) {
      out += "#(";
      push(OP_VECTOR, x, 0);
    } else if (x instanceof Record) {
      out += "#<" + recordTypeName(x.rtd);
      push(OP_TEXT, ">");
      const names = x.rtd?.fields ?? [];
      for (let i = x.f.length - 1; i >= 0; i--) {
        push(OP_VALUE, x.f[i]);
        push(OP_TEXT, ` ${names[i] ?? i}=`);
      }
    } else if (x instanceof Condition) {
      out += `#<condition ${x.kind} ${writeString(String(x.message))}`;
      push(OP_TEXT, ">");
      for (let i = x.irritants.length - 1; i >= 0; i--) {
        push(OP_VALUE, x.irritants[i]);
        push(OP_TEXT, " ");
      }
    } else if (x instanceof MultipleValues) {
      for (let i = x.vals.length - 1; i >= 0; i--) {
        push(OP_VALUE, x.vals[i]);
        if (i > 0) push(OP_TEXT, " ");
      }
    }
  }
  return out;
}

/**
 * The external representation of `x` in `mode` (see the header for the modes).
 * Never throws and never loops: circular structure is always labelled.
 */
export function writeToString(x: unknown, mode: WriteMode = "write"): string {
  if (!isContainer(x)) return atomText(x, mode === "display");
  // Cycles imply sharing: when nothing is reached twice, no walk for cycles is needed.
  const shared = findShared(x);
  const labels = mode === "shared" || shared.size === 0 ? shared : findCycles(x, shared);
  return print(x, mode === "display", labels.size > 0 ? labels : null, Infinity);
}

/**
 * `write` form of `x` cut to about `max` characters, for messages. It does not
 * walk the whole value (no labels): a long or circular list is printed only as
 * far as needed and cut with "...".
 */
export function writeShort(x: unknown, max = 60): string {
  const s = isContainer(x) ? print(x, false, null, max) : atomText(x, false);
  return s.length > max ? s.slice(0, Math.max(0, max - 3)) + "..." : s;
}
