// The SRFI table: every SRFI nodwyn has or plans, one line each, and what the host derives from it.
//
// An SRFI is a library file, stdlib/srfi/N.sld defining (srfi N), and one
// line here. When part of it is written in TypeScript, its procedures are a
// table (ProcSpec entries, like primitives/scheme/) given as `primitives`:
// the library imports them as (nodwyn primitives srfi N). From this table the
// host makes the `srfi-N` cond-expand features, the (srfi N name) aliases
// and the primitive libraries (host/session/node-interpreter.ts), and the
// reference lists every line with its status (docs/reference/srfi.md).

import type { ProcSpec } from "../../interpreter/api.js";
import { supportPrimitives } from "./support.js";
import { listPrimitives1 } from "./lists.js";
import { charSetPrimitives } from "./char-sets.js";
import { stringPrimitives13 } from "./strings-13.js";
import { stringPrimitives152 } from "./strings-152.js";
import { fixnumPrimitives } from "./fixnums.js";
import { bitwisePrimitives } from "./bitwise.js";
import { jsonPrimitives } from "./json.js";
import { hashTablePrimitives } from "./hash-tables.js";
import { sortingPrimitives } from "./sorting.js";
import { regexpPrimitives } from "./regexp.js";

/** One SRFI. */
export interface SrfiEntry {
  readonly number: number;
  /** Its title, as srfi.schemers.org gives it. */
  readonly title: string;
  /** The name of its `(srfi N name)` form, from the SRFI's own text or common practice (SRFI 97's names). */
  readonly name?: string;
  /**
   * complete: every procedure and syntax of the document, in stdlib/srfi/N.sld;
   * planned: not yet here (no library, no feature).
   */
  readonly status: "complete" | "planned";
  /** The procedures written in TypeScript, which its library imports as (nodwyn primitives srfi N). */
  readonly primitives?: readonly ProcSpec[];
  /** What the reference should say besides the title: choices the document leaves to the implementation. */
  readonly note?: string;
}

/** Every SRFI nodwyn has or plans, by number. Adding one: its library file, and a line here. */
export const SRFIS: readonly SrfiEntry[] = [
  { number: 1, title: "List Library", name: "lists", status: "complete", primitives: listPrimitives1 },
  { number: 2, title: "AND-LET*: an AND with local bindings, a guarded LET* special form", name: "and-let*", status: "complete" },
  { number: 6, title: "Basic String Ports", name: "basic-string-ports", status: "complete", note: "R7RS's." },
  { number: 8, title: "receive: Binding to multiple values", name: "receive", status: "complete" },
  { number: 9, title: "Defining Record Types", name: "records", status: "complete", note: "R7RS's define-record-type." },
  { number: 11, title: "Syntax for receiving multiple values", name: "let-values", status: "complete", note: "R7RS's let-values and let*-values." },
  { number: 13, title: "String Libraries", name: "strings", status: "complete", primitives: stringPrimitives13, note: "The procedures R7RS also has are R7RS's own (string-upcase maps fully, \"ß\" to \"SS\"), extended with SRFI 13's optional start and end." },
  { number: 14, title: "Character-set Library", name: "char-sets", status: "complete", primitives: charSetPrimitives, note: "Over the whole of Unicode: the standard sets are John Cowan's 2019 definitions in Unicode properties, from the JavaScript engine's Unicode data, so R7RS's char predicates agree with them. Cursors are code points." },
  { number: 16, title: "Syntax for procedures of variable arity", name: "case-lambda", status: "complete", note: "R7RS's case-lambda." },
  { number: 23, title: "Error reporting mechanism", name: "error", status: "complete", note: "R7RS's error." },
  { number: 26, title: "Notation for Specializing Parameters without Currying", name: "cut", status: "complete" },
  { number: 28, title: "Basic Format Strings", name: "basic-format-strings", status: "complete" },
  { number: 34, title: "Exception Handling for Programs", name: "exception-handling", status: "complete", note: "R7RS's with-exception-handler, guard and raise." },
  { number: 39, title: "Parameter objects", name: "parameters", status: "complete", note: "R7RS's make-parameter and parameterize; as SRFI 39 says, (p v) stores v, converted, in p's current binding (R7RS leaves that call an error)." },
  { number: 48, title: "Intermediate Format Strings", name: "intermediate-format-strings", status: "complete", note: "Unicode text. ~y writes on one line (the document allows pretty-print as write); ~& at the very start of a format writes a newline, as the document's example shows." },
  { number: 64, title: "A Scheme API for test suites", name: "testing", status: "complete", note: "The simple runner writes to the current output port: nothing for a pass, a FAIL or XPASS block (group path, name or form, expected and actual values or error) for the others, the counts at the end of the outermost group; no log file. It does not exit: call (exit (zero? (test-runner-fail-count (test-runner-get)))) before the last test-end for an exit code. test-error's error-type is #t or a predicate on the raised object (any other value accepts any). test-read-eval-string evaluates in the interaction environment." },
  { number: 69, title: "Basic hash tables", name: "basic-hash-tables", status: "complete", note: "The tables of SRFI 125 (one implementation); hash-table-copy makes a mutable copy, hash functions reduce modulo their optional bound." },
  { number: 87, title: "=> in case clauses", name: "case", status: "complete", note: "R7RS's case." },
  { number: 111, title: "Boxes", name: "boxes", status: "complete" },
  { number: 113, title: "Sets and bags", name: "sets-and-bags", status: "complete", note: "Hash tables of (srfi 125) over the comparator: eq?, eqv?, equal?, string=? and string-ci=? comparators run in TypeScript, any other needs a hash function (the document allows requiring one). Distinct comparators (eq?) and an element the type test refuses are errors. The ! procedures update their first argument. set-unfold, bag-unfold, set-map and bag-map also accept the sample implementation's argument orders (comparator last; proc before comparator). bag-delete removes one occurrence per element given; bag-search!'s remove removes every occurrence. set-comparator and bag-comparator have no ordering and are registered with the default comparator." },
  { number: 115, title: "Scheme Regular Expressions", name: "regexp", status: "complete", primitives: regexpPrimitives, note: "Compiled to RE2: every match is linear in the text. look-ahead, look-behind, their negations and backref are compile-time errors (no regexp-backrefs feature); so are bog and eog; grapheme is a base character and its combining marks. bow, eow and nwb are RE2's ASCII word boundaries (\\b, \\B); bol and eol see line feeds only. Named sets in a Unicode context are SRFI 14's (char-set:letter …); w/nocase adds each character's simple case variants at the terminals. Repetition counts are at most 1000 (RE2's limit). regexp-replace's subst may also be a list of substitutions." },
  { number: 125, title: "Intermediate hash tables", name: "hashtables", status: "complete", primitives: hashTablePrimitives, note: "Tables of eq?, eqv?, equal?, string=? and string-ci=? (alone or as a comparator's equality) are JS Maps in TypeScript with nodwyn's own hash, which the document allows; other comparators use their hash and equality in Scheme. hash-table and hash-table-copy (without #t) make immutable tables; mutating one is an error. Capacity and weak-keys arguments are accepted and ignored. The hash functions' optional second argument is SRFI 69's bound (the same procedures serve SRFI 69, 125 and 128, so importing them together is no conflict)." },
  { number: 128, title: "Comparators (reduced)", name: "comparators", status: "complete", note: "Also exports SRFI 162's standard comparators (default-comparator, boolean-comparator, real-comparator, char-, string- and their -ci comparators, list-, vector-, eq-, eqv-, equal-comparator) and comparator-max/min. The default comparator orders () < pairs < booleans < characters < strings < symbols < numbers < vectors < bytevectors < registered types < other values. (hash-bound) is 2^32; (hash-salt) is 0, the same in every run, so a session replays alike. make-comparator accepts #t as the type test (any value) and as the equality (derived from the ordering), as the sample implementation does." },
  { number: 130, title: "Cursor-based string library", name: "string-cursors", status: "complete", note: "Cursors are exact integers, the character indexes, which the document allows; criteria may also be characters and char-sets." },
  { number: 132, title: "Sort Libraries", name: "sorting", status: "complete", primitives: sortingPrimitives, note: "Every sort is stable (a merge sort). With <, >, string<?, string>?, char<?, char>? or their -ci forms the sort runs in TypeScript; with any other procedure in Scheme. The ! forms on lists return new lists (allowed: linear update). vector-select! is a quickselect, vector-find-median! leaves the vector sorted." },
  { number: 133, title: "Vector Library (R7RS-compatible)", name: "vectors", status: "complete" },
  { number: 143, title: "Fixnums", name: "fixnums", status: "complete", primitives: fixnumPrimitives, note: "fx-width is 53: fixnums are the exact integers from -2^52 to 2^52-1, a range exact in a double. The fixnum rule is always signalled: a non-fixnum argument or result is an error naming the procedure." },
  { number: 145, title: "Assumptions", name: "assumptions", status: "complete", note: "A false assumption raises an error (kind user) with the messages." },
  { number: 151, title: "Bitwise Operations", name: "bitwise-operations", status: "complete", primitives: bitwisePrimitives },
  { number: 152, title: "String Library (reduced)", name: "strings", status: "complete", primitives: stringPrimitives152, note: "Criteria may also be characters and char-sets (SRFI 13's procedures, which it shares)." },
  { number: 158, title: "Generators and Accumulators", name: "generators-and-accumulators", status: "complete" },
  { number: 180, title: "JSON", name: "json", status: "complete", primitives: jsonPrimitives, note: "The agent primitives' results follow the same mapping (primitives/agent/json-value.ts). Integers read exact (bignums beyond 2^53), numbers with a fraction or exponent as flonums; a number beyond the flonum range, a lone surrogate escape and a byte-order mark are json-errors. Errors are conditions of kind read (malformed input, limits) or type (json-write), code json-error, saying where: file:line:col for a port over a whole text. json-accumulator accepts one top-level value. json-sequence-read skips a record that is not exactly one JSON text (RFC 7464)." },
  { number: 197, title: "Pipeline Operators", status: "complete" },
];

/** The key of the library its TypeScript procedures form: "nodwyn primitives srfi 13". */
export function primitiveLibraryKey(n: number): string {
  return `nodwyn primitives srfi ${n}`;
}

/** The SRFIs that are here. */
export function availableSrfis(): SrfiEntry[] {
  return SRFIS.filter((s) => s.status === "complete");
}

/** The cond-expand features of the SRFIs that are here: srfi-1, srfi-2, … */
export function srfiFeatures(): string[] {
  return availableSrfis().map((s) => `srfi-${s.number}`);
}

/** (srfi N name) → (srfi N), as library keys. */
export function srfiAliases(): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of availableSrfis()) if (s.name !== undefined) out.set(`srfi ${s.number} ${s.name}`, `srfi ${s.number}`);
  return out;
}

/** The key of the library of error helpers the SRFIs written in Scheme share (primitives/srfi/support.ts). */
export const SUPPORT_LIBRARY_KEY = "nodwyn primitives srfi support";

/** The libraries of TypeScript procedures, by key: each SRFI's, and the support library. */
export function srfiPrimitiveLibraries(): Map<string, readonly ProcSpec[]> {
  const out = new Map<string, readonly ProcSpec[]>([[SUPPORT_LIBRARY_KEY, supportPrimitives]]);
  for (const s of availableSrfis()) if (s.primitives !== undefined) out.set(primitiveLibraryKey(s.number), s.primitives);
  return out;
}
