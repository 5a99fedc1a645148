// What an error report adds to a condition: the place a person can act on, and hints (did you mean …?, which library to import).
//
// - An error raised inside the standard library (stdlib/, e.g. vector-map given
//   a number) is reported at the user's call site, the nearest frame of the
//   backtrace outside stdlib/; the stdlib frames stay in the backtrace below it.
// - An unbound variable is reported at the variable itself: the machine knows the
//   form it was referenced from, the source text says where in it the name is
//   (the operator, or the argument).
// - Hints: the bound names nearest to an unbound one ("did you mean length?"),
//   and for a name a program did not import, the library that has it
//   ("(import (nodwyn agent))").
// The location fix mutates the condition (so the log records it too); hints are
// returned for the report to print.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { availableSrfis } from "../../primitives/srfi/index.js";
import { Condition, backtraceOf, type Interpreter, type Outcome, type SourceLoc } from "../../interpreter/api.js";
import { nearestAll } from "./near.js";
import { isStdlibSource, sourcePath, STDLIB_DIR } from "./node-interpreter.js";

/** Where the source text of a file of an evaluation can be found (REPL entries, -e, a program). */
export type SourceLookup = (file: string) => string | undefined;

/** The libraries a program may need to import, in the order they are suggested. */
const SUGGESTED_LIBRARIES = [
  "(scheme base)",
  "(scheme write)",
  "(scheme read)",
  "(scheme char)",
  "(scheme cxr)",
  "(scheme file)",
  "(scheme inexact)",
  "(scheme lazy)",
  "(scheme case-lambda)",
  "(scheme eval)",
  "(scheme load)",
  "(scheme process-context)",
  "(scheme time)",
  "(scheme complex)",
  "(nodwyn agent)",
  "(nodwyn builtins)",
];

function inStdlib(loc: SourceLoc | undefined): boolean {
  return loc !== undefined && isStdlibSource(loc.file);
}

/** The text of `file`: from `lookup`, else from disk for a real path; undefined when unknown. */
function textOf(file: string, lookup: SourceLookup | undefined): string | undefined {
  const t = lookup?.(file);
  if (t !== undefined) return t;
  if (file.startsWith("<")) return undefined;
  try {
    return readFileSync(sourcePath(file), "utf8");
  } catch {
    return undefined;
  }
}

/** The name an unbound-variable condition is about, or null. */
export function unboundName(c: Condition): string | null {
  if (c.kind !== "unbound") return null;
  const m = /unbound variable: (.+)$/.exec(c.message);
  return m ? (m[1] as string) : null;
}

/**
 * Moves a failure's reported place to where the person can act (see the
 * header). Safe to call more than once; does nothing to other outcomes.
 */
export function placeFailure(out: Outcome, lookup?: SourceLookup, file?: string): void {
  if (out.ok || !(out.condition instanceof Condition)) return;
  const c = out.condition;
  if (inStdlib(c.loc)) {
    const bt = c.backtrace ?? backtraceOf(c);
    c.backtrace = bt;
    const caller = bt.find((e) => e.loc !== undefined && !inStdlib(e.loc));
    if (caller?.loc !== undefined) c.loc = caller.loc;
  }
  const name = unboundName(c);
  // A bare name evaluated at top level has no form around it, so the machine has no place:
  // the evaluation's source says where that name stands on its own.
  if (name !== null && c.loc === undefined && file !== undefined) {
    const text = textOf(file, lookup);
    const at = text === undefined ? null : findTopLevelName(text, name);
    if (at !== null) {
      c.backtrace ??= backtraceOf(c);
      c.loc = { file, line: at.line, col: at.col };
    }
    return;
  }
  if (name !== null && c.loc !== undefined) {
    const text = textOf(c.loc.file, lookup);
    if (text !== undefined) {
      const at = findIdentifierIn(text, c.loc.line, c.loc.col, name);
      if (at !== null) {
        c.backtrace ??= backtraceOf(c);
        c.loc = { file: c.loc.file, line: at.line, col: at.col };
      }
    }
  }
}

/** The hints for a failure: near names of an unbound one, the library to import. */
export function failureHints(out: Outcome, interp: Interpreter, o: { program?: boolean; lookup?: SourceLookup } = {}): string[] {
  if (out.ok || !(out.condition instanceof Condition)) return [];
  const name = unboundName(out.condition);
  if (name === null) return [];
  const hints: string[] = [];
  // The name is unbound because a form around it was read as a call: its keyword was not imported.
  const keyword = missingKeyword(out.condition, interp, name, o);
  if (keyword !== null) return [keyword];
  // A name some library has, that this program did not import.
  const lib = suggestedLibraryExporting(interp, name, () => true);
  if (lib !== null) {
    hints.push(o.program ? `${name} is in ${lib}: add ${lib} to the program's (import …)` : `${name} is in ${lib}: (import ${lib})`);
    return hints;
  }
  // A name of an SRFI (iota, string-index, receive …): the SRFI to import.
  const srfi = srfiExports().get(name);
  if (srfi !== undefined) {
    hints.push(o.program ? `${name} is in ${srfi}: add ${srfi} to the program's (import …)` : `${name} is in ${srfi}: (import ${srfi})`);
    return hints;
  }
  const names: string[] = [];
  for (const [s, b] of interp.interactionEnvironment().table) {
    if (s.name.startsWith("%") || (b.k === "global" && isUnbound(b.cell.v))) continue;
    names.push(s.name);
  }
  const near = nearestAll(name, names, 3);
  if (near.length > 0) hints.push(`did you mean ${near.length === 1 ? near[0] : near.slice(0, -1).join(", ") + " or " + near[near.length - 1]}?`);
  return hints;
}

/** The first of the suggested libraries that exports `name` with a binding `accept` takes, or null. */
function suggestedLibraryExporting(interp: Interpreter, name: string, accept: (b: { readonly k: string }) => boolean): string | null {
  const sym = interp.symbols.intern(name);
  for (const lib of SUGGESTED_LIBRARIES) {
    try {
      const datum = interp.read(lib, "<library name>")[0];
      if (!interp.libraries.exists(datum)) continue;
      const b = interp.library(lib).exports.get(sym);
      if (b !== undefined && accept(b)) return lib;
    } catch {
      continue;
    }
  }
  return null;
}

/** Whether the first (import …) form of a program's text names library `lib` ("(scheme base)"), in any import set. */
export function importsLibrary(text: string, lib: string): boolean {
  const toks = schemeTokens(text).filter((t) => t.kind !== "comment");
  const want = schemeTokens(lib).map((t) => atomText(lib, t)).filter((w) => w !== null);
  const i = toks.findIndex((t, k) => t.kind === "open" && atomText(text, toks[k + 1]) === "import");
  if (i < 0) return false;
  const form = datumAt(toks, i);
  for (let k = 0; k < form.length; k++) {
    if (form[k]!.kind !== "open") continue;
    let j = 0;
    while (j < want.length && atomText(text, form[k + 1 + j]) === want[j]) j++;
    if (j === want.length && form[k + 1 + j]?.kind === "close") return true;
  }
  return false;
}

/** The text of token `t` when it is an atom, else null. */
function atomText(text: string, t: Token | undefined): string | null {
  return t !== undefined && t.kind === "atom" ? text.slice(t.start, t.end) : null;
}

/**
 * The operators of the lists around the place 1-based `line`:`col` of `text`,
 * innermost first: for `x` in `(define f (lambda (x) x))`, lambda then define.
 * A list whose first element is not a name gives no operator.
 */
export function enclosingHeads(text: string, line: number, col: number): string[] {
  const off = offsetOf(text, line, col);
  if (off < 0) return [];
  const toks = schemeTokens(text).filter((t) => t.kind !== "comment");
  const stack: (string | null)[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i] as Token;
    if (t.start >= off) break;
    if (t.kind === "open") {
      stack.push(atomText(text, toks[i + 1]));
    } else if (t.kind === "close") stack.pop();
  }
  return stack.filter((h): h is string => h !== null).reverse();
}

/**
 * For a variable unbound because a form around it is a keyword's that the
 * program did not import (`(define x 1)` without (scheme base): define is read
 * as a call, x as its argument), the hint that says so; null otherwise.
 */
function missingKeyword(c: Condition, interp: Interpreter, name: string, o: { program?: boolean; lookup?: SourceLookup }): string | null {
  if (c.loc === undefined) return null;
  // A REPL entry or an -e text is found through the session's sources (`<repl-3>`, `<-e>`).
  const text = textOf(c.loc.file, o.lookup);
  if (text === undefined) return null;
  const env = o.program ? null : interp.interactionEnvironment().table;
  for (const head of enclosingHeads(text, c.loc.line, c.loc.col)) {
    if (head === name) continue;
    // Bound in the REPL's environment as anything: not the reason.
    const b = env?.get(interp.symbols.intern(head));
    if (b !== undefined && !(b.k === "global" && isUnbound(b.cell.v))) continue;
    const lib = suggestedLibraryExporting(interp, head, isSyntax) ?? srfiSyntax(interp, head);
    if (lib === null) continue;
    if (o.program && importsLibrary(text, lib)) continue;
    const read = `so (${head} …) was read as a call and ${name} as a variable`;
    return o.program
      ? `${head} is syntax in ${lib}, which this program does not import, ${read}: add ${lib} to the program's (import …)`
      : `${head} is syntax in ${lib}, which is not imported here, ${read}: (import ${lib})`;
  }
  return null;
}

const isSyntax = (b: { readonly k: string }): boolean => b.k === "special" || b.k === "macro";

/** The SRFI whose export `name` is syntax (receive, and-let*, cut …), loading that library to tell; null otherwise. */
function srfiSyntax(interp: Interpreter, name: string): string | null {
  const lib = srfiExports().get(name);
  if (lib === undefined) return null;
  try {
    const b = interp.library(lib).exports.get(interp.symbols.intern(name));
    return b !== undefined && isSyntax(b) ? lib : null;
  } catch {
    return null;
  }
}

let srfiNames: Map<string, string> | null = null;

/** Every name the SRFIs here export → the first SRFI that has it, "(srfi 1)"; read from their export lists, without loading them. */
export function srfiExports(): Map<string, string> {
  if (srfiNames !== null) return srfiNames;
  const out = new Map<string, string>();
  for (const e of availableSrfis()) {
    let text: string;
    try {
      text = readFileSync(join(STDLIB_DIR, "srfi", `${e.number}.sld`), "utf8");
    } catch {
      continue;
    }
    for (const n of exportedNames(text)) if (!out.has(n)) out.set(n, `(srfi ${e.number})`);
  }
  return (srfiNames = out);
}

/** The names a library's (export …) clauses give: plain names, and the outer name of (rename inner outer). */
export function exportedNames(text: string): string[] {
  const toks = schemeTokens(text).filter((t) => t.kind !== "comment");
  const word = (t: Token | undefined) => atomText(text, t);
  const out: string[] = [];
  for (let i = 0; i + 1 < toks.length; i++) {
    if (toks[i]!.kind !== "open" || word(toks[i + 1]) !== "export") continue;
    let depth = 1;
    for (let j = i + 2; j < toks.length && depth > 0; j++) {
      const t = toks[j] as Token;
      if (t.kind === "open") {
        // (rename inner outer)
        if (word(toks[j + 1]) === "rename" && toks[j + 4]?.kind === "close") {
          const outer = word(toks[j + 3]);
          if (outer !== null) out.push(outer);
          j += 4;
          continue;
        }
        depth++;
      } else if (t.kind === "close") depth--;
      else if (depth === 1 && t.kind === "atom") out.push(text.slice(t.start, t.end));
    }
  }
  return out;
}

function isUnbound(v: unknown): boolean {
  return v !== null && typeof v === "object" && v.constructor?.name === "Unbound";
}

// ---- finding a name in source text -------------------------------------------------------------------

/** A lexical token of Scheme text, as far as finding names needs. */
export interface Token {
  readonly kind: "open" | "close" | "string" | "comment" | "atom" | "char" | "prefix";
  readonly start: number;
  readonly end: number;
}

const DELIMITER = /[\s()[\]{}"';`,|]/;

/** Whether a character can be part of an identifier. */
export function isIdentifierChar(c: string): boolean {
  return !DELIMITER.test(c);
}

/**
 * The tokens of `text` from `from`: parentheses, strings, comments, character
 * literals, quote prefixes and atoms; tolerant of anything unfinished (an open
 * string runs to the end).
 */
export function schemeTokens(text: string, from = 0): Token[] {
  const out: Token[] = [];
  let i = from;
  const n = text.length;
  while (i < n) {
    const c = text[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const start = i;
    if (c === "(" || c === "[") {
      out.push({ kind: "open", start, end: ++i });
      continue;
    }
    if (c === ")" || c === "]") {
      out.push({ kind: "close", start, end: ++i });
      continue;
    }
    if (c === ";") {
      while (i < n && text[i] !== "\n") i++;
      out.push({ kind: "comment", start, end: i });
      continue;
    }
    if (c === "#" && text[i + 1] === "|") {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (text.startsWith("|#", i)) {
          depth--;
          i += 2;
        } else if (text.startsWith("#|", i)) {
          depth++;
          i += 2;
        } else i++;
      }
      out.push({ kind: "comment", start, end: i });
      continue;
    }
    if (c === '"' || c === "|") {
      i++;
      while (i < n && text[i] !== c) i += text[i] === "\\" ? 2 : 1;
      i = Math.min(n, i + 1);
      out.push({ kind: c === '"' ? "string" : "atom", start, end: i });
      continue;
    }
    if (c === "#" && text[i + 1] === "\\") {
      i += 3;
      while (i < n && isIdentifierChar(text[i] as string)) i++;
      out.push({ kind: "char", start, end: Math.min(i, n) });
      continue;
    }
    if (c === "#" && (text[i + 1] === "(" || text.startsWith("#u8(", i))) {
      i += text[i + 1] === "(" ? 2 : 4;
      out.push({ kind: "open", start, end: i });
      continue;
    }
    if (c === "'" || c === "`" || c === ",") {
      i += c === "," && text[i + 1] === "@" ? 2 : 1;
      out.push({ kind: "prefix", start, end: i });
      continue;
    }
    while (i < n && isIdentifierChar(text[i] as string)) i++;
    if (i === start) i++;
    out.push({ kind: "atom", start, end: i });
  }
  return out;
}

/** UTF-16 offset of 1-based line:col (col in code points), or -1. */
function offsetOf(text: string, line: number, col: number): number {
  let off = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf("\n", off);
    if (nl < 0) return -1;
    off = nl + 1;
  }
  return off + [...text.slice(off)].slice(0, Math.max(0, col - 1)).join("").length;
}

/** The tokens of the one datum starting at token k (k itself for an atom). */
function datumAt(toks: readonly Token[], k: number): Token[] {
  let depth = 0;
  const out: Token[] = [];
  for (let i = k; i < toks.length; i++) {
    const t = toks[i] as Token;
    out.push(t);
    if (t.kind === "open") depth++;
    else if (t.kind === "close") depth--;
    if (depth <= 0 && t.kind !== "prefix") break;
  }
  return out;
}

/** In a datum's tokens: the name in operator position first, else its first occurrence. */
function findIn(text: string, toks: readonly Token[], name: string): number {
  let first = -1;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i] as Token;
    if (t.kind !== "atom" || text.slice(t.start, t.end) !== name) continue;
    if (toks[i - 1]?.kind === "open") return t.start;
    if (first < 0) first = t.start;
  }
  return first;
}

/**
 * Where identifier `name` occurs, from the place 1-based `line`:`col` of
 * `text` an error was reported at: in the form at that place (the operator
 * first), else in the top-level form around it. Null when it is not there.
 */
export function findIdentifierIn(text: string, line: number, col: number, name: string): { line: number; col: number } | null {
  const off = offsetOf(text, line, col);
  if (off < 0) return null;
  const toks = schemeTokens(text).filter((t) => t.kind !== "comment");
  const k = toks.findIndex((t) => t.start >= off);
  if (k >= 0) {
    const hit = findIn(text, datumAt(toks, k), name);
    if (hit >= 0) return positionOf(text, hit);
  }
  // The machine reported a call inside the form (the last one it made there): look in the whole top-level form.
  let depth = 0;
  let top = -1;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i] as Token;
    if (t.start > off) break;
    if (depth === 0 && t.kind !== "close") {
      // A datum starts here (after its quote prefixes).
      let j = i;
      while (j > 0 && toks[j - 1]?.kind === "prefix") j--;
      if (toks[i - 1]?.kind !== "prefix") top = j;
    }
    if (t.kind === "open") depth++;
    else if (t.kind === "close") depth = Math.max(0, depth - 1);
  }
  if (top < 0) return null;
  const hit = findIn(text, datumAt(toks, top), name);
  return hit < 0 ? null : positionOf(text, hit);
}

/** Where `name` first stands alone as a top-level datum of `text` (not inside a list, not quoted), or null. */
export function findTopLevelName(text: string, name: string): { line: number; col: number } | null {
  const toks = schemeTokens(text).filter((t) => t.kind !== "comment");
  let depth = 0;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i] as Token;
    if (t.kind === "open") depth++;
    else if (t.kind === "close") depth = Math.max(0, depth - 1);
    else if (depth === 0 && t.kind === "atom" && toks[i - 1]?.kind !== "prefix" && text.slice(t.start, t.end) === name) return positionOf(text, t.start);
  }
  return null;
}

function positionOf(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset);
  let line = 1;
  for (let i = before.indexOf("\n"); i !== -1; i = before.indexOf("\n", i + 1)) line++;
  return { line, col: [...before.slice(before.lastIndexOf("\n") + 1)].length + 1 };
}
