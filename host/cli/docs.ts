// Where a procedure's documentation comes from: its table entry, or for one written in Scheme its definition's comment or docstring.
//
// Shared by the generated reference (gen-reference.ts) and the REPL's ,describe
// and (help 'name), so that both say the same thing from the same source.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { MString, NIL, Pair, Procedure, Reader, Sym, locationOf, writeToString, type ProcSpec, type SymbolTable } from "../../interpreter/api.js";
import type { AgentToolSpec } from "../../primitives/agent/index.js";
import { STDLIB_DIR } from "../session/node-interpreter.js";

/**
 * Example calls of the agent primitives, in the order the reference runs them
 * in one session over its example repository (gen-reference.ts); ,describe
 * shows them too.
 */
export const AGENT_EXAMPLES: readonly (readonly [string, readonly string[]])[] = [
  ["fs-read", ['(fs-read "src/greet.scm")', '(fs-read "src/greet.scm" 2 2)', '(fs-read ".env")']],
  ["fs-find", ['(fs-find ".")', '(fs-find "." "*.scm")']],
  ["index-grep", ['(index-grep "src" "greet")', '(index-grep "src" "(?i)todo" "*.scm" 1)']],
  ["index-search", ['(index-search "greet someone" "repo")', '(index-search "count to" "repo" 1 "src")', '(index-search "greet" "everywhere")']],
];

/**
 * Examples of standard procedures for ,describe and (help 'name), evaluated
 * when shown (in an interpreter of their own, without files or a process),
 * so what they print is what nodwyn returns.
 */
export const SCHEME_EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  map: ["(map + '(1 2 3) '(10 20 30))", "(map (lambda (x) (* x x)) '(1 2 3))"],
  "for-each": ['(for-each display \'(1 2 3))'],
  apply: ["(apply + 1 2 '(3 4))"],
  assoc: ["(assoc 2.0 '((1 one) (2 two)) =)"],
  assq: ["(assq 'b '((a 1) (b 2)))"],
  member: ["(member \"b\" '(\"a\" \"b\" \"c\"))"],
  append: ["(append '(1 2) '(3) '() '(4 5))"],
  reverse: ["(reverse '(1 2 3))"],
  length: ["(length '(a b c))"],
  "list-ref": ["(list-ref '(a b c) 1)"],
  "list-tail": ["(list-tail '(a b c d) 2)"],
  "string-append": ['(string-append "foo" "-" "bar")'],
  "string->number": ['(string->number "ff" 16)', '(string->number "1e3")'],
  "number->string": ["(number->string 255 16)"],
  "string->symbol": ['(string->symbol "hello")'],
  "string->list": ['(string->list "abc")'],
  "string-upcase": ['(string-upcase "hello")'],
  substring: ['(substring "hello world" 6 11)'],
  "string-copy": ['(string-copy "hello" 1 3)'],
  "vector-map": ["(vector-map * #(1 2 3) #(4 5 6))"],
  "vector->list": ["(vector->list #(1 2 3))"],
  "list->vector": ["(list->vector '(1 2 3))"],
  "make-vector": ["(make-vector 3 'x)"],
  "vector-fill!": ["(let ((v (make-vector 3 0))) (vector-fill! v 7) v)"],
  "exact->inexact": ["(exact->inexact 1/3)"],
  exact: ["(exact 2.5)"],
  expt: ["(expt 2 100)"],
  sqrt: ["(sqrt 16)", "(sqrt 2)"],
  quotient: ["(quotient 17 5)"],
  remainder: ["(remainder -17 5)"],
  modulo: ["(modulo -17 5)"],
  gcd: ["(gcd 12 18)"],
  max: ["(max 1 3.0 2)"],
  "call-with-current-continuation": ["(+ 1 (call/cc (lambda (k) (+ 10 (k 1)))))"],
  "call/cc": ["(+ 1 (call/cc (lambda (k) (+ 10 (k 1)))))"],
  "dynamic-wind": ["(dynamic-wind (lambda () (display \"[in]\")) (lambda () 'during) (lambda () (display \"[out]\")))"],
  "with-exception-handler": ["(with-exception-handler (lambda (e) 10) (lambda () (+ 1 (raise-continuable 'oops))))"],
  "error-object-message": ["(guard (e (#t (error-object-message e))) (error \"no such thing\" 42))"],
  "call-with-values": ["(call-with-values (lambda () (values 1 2)) +)"],
  values: ["(call-with-values (lambda () (values 1 2 3)) list)"],
  "string-for-each": ['(string-for-each (lambda (c) (display (char-upcase c))) "abc")'],
  "char->integer": ["(char->integer #\\A)"],
  "list-copy": ["(list-copy '(1 2 3))"],
  "exact-integer-sqrt": ["(call-with-values (lambda () (exact-integer-sqrt 17)) list)"],
  "boolean=?": ["(boolean=? #t #t)"],
  "equal?": ["(equal? '(1 #(2 \"x\")) '(1 #(2 \"x\")))"],
  "eqv?": ["(eqv? 2.0 2)"],
  "symbol->string": ["(symbol->string 'abc)"],
  "read": ['(read (open-input-string "(a . b)"))'],
  "write": ["(write \"a\\nb\")"],
  display: ['(display "a\\nb")'],
  features: ["(features)"],
};

/** Code-unit order, the same on every machine and locale. */
function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

let exportsCache: Map<string, string[]> | null = null;

/** The exports of every stdlib/scheme/*.sld: name → libraries, in name order (read once). */
export function schemeLibraryExports(symbols: SymbolTable): Map<string, string[]> {
  if (exportsCache !== null) return exportsCache;
  const out = new Map<string, string[]>();
  const dir = join(STDLIB_DIR, "scheme");
  for (const f of readdirSync(dir).filter((n) => n.endsWith(".sld")).sort(byName)) {
    const file = join(dir, f);
    for (const form of new Reader(readFileSync(file, "utf8"), { file, symbols, locations: false }).readAll()) {
      const items = listItems(form);
      if (items === null || !(items[0] instanceof Sym) || items[0].name !== "define-library") continue;
      const lib = writeToString(items[1], "write");
      for (const decl of items.slice(2)) {
        const d = listItems(decl);
        if (d === null || !(d[0] instanceof Sym) || d[0].name !== "export") continue;
        for (const spec of d.slice(1)) {
          // An export spec is a name or (rename internal external).
          const r = listItems(spec);
          const name = spec instanceof Sym ? spec.name : r !== null && r[2] instanceof Sym ? r[2].name : null;
          if (name === null) throw new Error(`${file}: cannot read the export spec ${writeToString(spec, "write")}`);
          const libs = out.get(name) ?? [];
          if (!libs.includes(lib)) libs.push(lib);
          out.set(name, libs);
        }
      }
    }
  }
  for (const libs of out.values()) libs.sort(byName);
  exportsCache = out;
  return out;
}

/** The table entry a primitive was made from (the registration layer keeps it in `data`). */
export function specOf(p: unknown): ProcSpec | null {
  if (!(p instanceof Procedure)) return null;
  const d = p.data;
  return p.info.kind === "primitive" && d !== null && typeof d === "object" && Array.isArray(d.params) && typeof d.doc === "string" ? (d as ProcSpec) : null;
}

export function isToolSpec(s: ProcSpec): s is AgentToolSpec {
  return typeof (s as AgentToolSpec).render === "function" && typeof (s as AgentToolSpec).tool === "object";
}

/** The elements of a proper list, or null. */
export function listItems(x: any): any[] | null {
  const out: any[] = [];
  for (; x instanceof Pair; x = x.cdr) out.push(x.car);
  return x === NIL ? out : null;
}

/** A top-level `(define (name . params) …)` of a Scheme source. */
export interface SchemeDefinition {
  readonly params: string[];
  /** The `;;` block right above the definition, or null. */
  readonly comment: string | null;
  /** A string that starts the body and is not all of it (a docstring), or null. */
  readonly docstring: string | null;
  /** 1-based line of the definition. */
  readonly line: number;
}

/** Reads the top-level definitions of procedures in a Scheme text, with their comments and docstrings. */
export function schemeDefinitions(symbols: SymbolTable, file: string, text: string): Map<string, SchemeDefinition> {
  const lines = text.split("\n");
  const out = new Map<string, SchemeDefinition>();
  for (const form of new Reader(text, { file, symbols, locations: true }).readAll()) {
    if (!(form instanceof Pair) || !(form.car instanceof Sym) || form.car.name !== "define") continue;
    const target = form.cdr instanceof Pair ? form.cdr.car : null;
    let name: string | null = null;
    let formals: any = null;
    let body: any = null;
    if (target instanceof Pair && target.car instanceof Sym) {
      name = target.car.name;
      formals = target.cdr;
      body = (form.cdr as Pair).cdr;
    } else if (target instanceof Sym) {
      // (define name (lambda formals …))
      const value = form.cdr instanceof Pair && form.cdr.cdr instanceof Pair ? form.cdr.cdr.car : null;
      if (value instanceof Pair && value.car instanceof Sym && value.car.name === "lambda" && value.cdr instanceof Pair) {
        name = target.name;
        formals = value.cdr.car;
        body = value.cdr.cdr;
      }
    }
    if (name === null) continue;
    const params: string[] = [];
    for (; formals instanceof Pair; formals = formals.cdr) params.push(formals.car instanceof Sym ? formals.car.name : writeToString(formals.car, "write"));
    if (formals instanceof Sym) params.push(`${formals.name} ...`);
    const line = locationOf(form)?.line;
    if (line === undefined) throw new Error(`${file}: no location for the definition of ${name}`);
    // The comment block: consecutive `;;` lines (not `;;;` section headers) ending on the line above.
    const block: string[] = [];
    for (let i = line - 2; i >= 0; i--) {
      const l = (lines[i] as string).trim();
      if (!l.startsWith(";;") || l.startsWith(";;;")) break;
      block.unshift(l.replace(/^;;\s?/, ""));
    }
    const docstring = body instanceof Pair && body.car instanceof MString && body.cdr instanceof Pair ? body.car.toString() : null;
    out.set(name, { params, comment: block.length > 0 ? block.join(" ").replace(/\s+/g, " ").trim() : null, docstring, line });
  }
  return out;
}
