// Hash tables (SRFI 69 and 125, one implementation) and SRFI 128's standard hash functions, in TypeScript.
//
// A table keeps its associations as entry pairs (key . value). For the
// equivalences the host knows — eq?, eqv?, equal?, string=?, string-ci=? —
// the table is a JS Map from a derived key (the value itself, a string's
// text, a flonum's digits) to the entry, and every operation is here; for
// equal? on pairs, vectors and bytevectors the key is a structural hash and
// the entries with that hash are compared with equal?. For any other
// comparator ("generic"), the Scheme library (stdlib/srfi/125.sld) calls the
// comparator's hash function and equality predicate and keeps its entries in
// the buckets of the same table type: a primitive never calls a Scheme
// procedure. Everything that walks a whole table is here for every kind.

import {
  type ProcSpec,
  type ArgType,
  T,
  NIL,
  Pair,
  MString,
  Sym,
  Char,
  Flonum,
  Ratnum,
  Compnum,
  arrayToList,
  equal,
  makeValues,
  argError,
  raiseError,
  allocate,
  spend,
  COST,
  UNSPECIFIED,
} from "../../interpreter/api.js";
import { foldcaseString } from "../scheme/unicode.js";

/** How a table finds its keys. */
export type TableKind = "eq" | "eqv" | "equal" | "string" | "string-ci" | "generic";
const KINDS: readonly TableKind[] = ["eq", "eqv", "equal", "string", "string-ci", "generic"];
/** HashTable.code of the kinds store and lookup take a short path for: the position in KINDS. */
const K_EQ = 0;
const K_STRING = 3;
const K_GENERIC = 5;

/** A hash table: a Scheme value (hash-table? is true of it). */
export class HashTable {
  /** Fast kinds: derived key → entry. Generic: hash → entries with that hash. */
  map = new Map<any, any>();
  /** equal? tables: structural hash of a pair, vector or bytevector key → entries. */
  compound: Map<number, Pair[]> | null;
  size = 0;
  /** The kind as a small integer (K_EQ … K_GENERIC), resolved once so store and lookup test it without comparing strings. */
  readonly code: number;
  constructor(
    readonly kind: TableKind,
    /** The comparator it was made with (a Scheme value, #f when made from predicates). */
    readonly comparator: any,
    readonly equivalence: any,
    readonly hashFunction: any,
    public mutable = true,
  ) {
    this.compound = kind === "equal" ? new Map() : null;
    this.code = KINDS.indexOf(kind);
  }

  toString(): string {
    return `#<hash-table ${this.kind} ${this.size}>`;
  }

  /** Every entry, in insertion order for the fast kinds. */
  entries(): Pair[] {
    spend(this.size * COST.elementNs);
    allocate(this.size * COST.slotBytes);
    const out: Pair[] = [];
    if (this.kind === "generic") {
      for (const b of this.map.values()) for (const e of b as Pair[]) out.push(e);
      return out;
    }
    for (const e of this.map.values()) out.push(e);
    if (this.compound !== null) for (const b of this.compound.values()) for (const e of b) out.push(e);
    return out;
  }

  clear(): void {
    this.map.clear();
    this.compound?.clear();
    this.size = 0;
  }
}

/** The argument type of hash tables. */
export const HT: ArgType = { name: "hash table", test: (x: any) => x instanceof HashTable };

/** What derive gives for an equal? key hashed by its structure (never a derived key: a unique object). */
const COMPOUND: object = { compound: true };

/** A key's derived form under the table's kind, or COMPOUND (an equal? key hashed by structure). */
function derive(t: HashTable, who: string, key: any): any {
  switch (t.kind) {
    case "eq":
      return key;
    case "eqv":
      return eqvKey(key);
    case "equal":
      if (key instanceof MString) return "s" + key.toString();
      if (key instanceof Pair || Array.isArray(key) || key instanceof Uint8Array) return COMPOUND;
      return eqvKey(key);
    case "string":
      if (!(key instanceof MString)) argError(who, 2, "string (the table's keys are strings)", key);
      return key.toString();
    case "string-ci":
      if (!(key instanceof MString)) argError(who, 2, "string (the table's keys are strings)", key);
      return foldcase(key.toString());
    case "generic":
      throw new Error("derive on a generic table");
  }
}

/** eqv?'s identity as a Map key: numbers by value and exactness (0.0 and -0.0 differ), the rest by identity. */
function eqvKey(x: any): any {
  if (x instanceof Flonum) return Object.is(x.v, -0) ? "f-0" : "f" + String(x.v);
  if (x instanceof Ratnum) return `r${x.num}/${x.den}`;
  if (x instanceof Compnum) return `c${eqvKey(x.re)}|${eqvKey(x.im)}`;
  return x;
}

/** string-ci=?'s folding: R7RS string-foldcase, the one the string procedures use. */
export const foldcase = foldcaseString;

/** The entry of key, or undefined. */
export function lookup(t: HashTable, who: string, key: any): Pair | undefined {
  const c = t.code;
  if (c === K_STRING && key instanceof MString) return t.map.get(key.toString());
  if (c === K_EQ) return t.map.get(key);
  const k = derive(t, who, key);
  if (k !== COMPOUND) return t.map.get(k);
  const bucket = t.compound!.get(structuralHash(key));
  if (bucket !== undefined) for (const e of bucket) if (equal(e.car, key)) return e;
  return undefined;
}

function checkMutable(t: HashTable, who: string): void {
  if (!t.mutable) raiseError("type", `${who}: the hash table is immutable (hash-table and hash-table-copy without #t make immutable tables)`, [t], who);
}

/** Sets key's value (a new entry, or the existing one changed). */
export function store(t: HashTable, who: string, key: any, value: any): void {
  const c = t.code;
  const k = c === K_STRING && key instanceof MString ? key.toString() : c === K_EQ ? key : derive(t, who, key);
  if (k !== COMPOUND) {
    const e = t.map.get(k);
    if (e !== undefined) e.cdr = value;
    else {
      t.map.set(k, new Pair(key, value));
      t.size++;
    }
    return;
  }
  const h = structuralHash(key);
  let bucket = t.compound!.get(h);
  if (bucket === undefined) t.compound!.set(h, (bucket = []));
  for (const e of bucket)
    if (equal(e.car, key)) {
      e.cdr = value;
      return;
    }
  bucket.push(new Pair(key, value));
  t.size++;
}

/** Removes key's association: true when there was one. */
export function remove(t: HashTable, who: string, key: any): boolean {
  const k = derive(t, who, key);
  if (k !== COMPOUND) {
    if (!t.map.delete(k)) return false;
    t.size--;
    return true;
  }
  const h = structuralHash(key);
  const bucket = t.compound!.get(h);
  if (bucket === undefined) return false;
  const i = bucket.findIndex((e) => equal(e.car, key));
  if (i < 0) return false;
  bucket.splice(i, 1);
  if (bucket.length === 0) t.compound!.delete(h);
  t.size--;
  return true;
}

// Hash functions. Results are exact integers in [0, HASH_BOUND); the salt is 0 (a run can be replayed).

/** (hash-bound): every standard hash is below it. */
export const HASH_BOUND = 2 ** 32;

function mix(h: number, x: number): number {
  return Math.imul(h ^ x, 0x01000193) >>> 0;
}

/** FNV-1a over the UTF-16 units of s. */
export function textHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = mix(h, s.charCodeAt(i));
  spend(s.length * COST.charNs);
  return h >>> 0;
}

/** number-hash: numbers that are = hash alike (1 and 1.0; -0.0 and 0). */
export function numberHash(x: any): number {
  if (typeof x === "number" && Number.isInteger(x)) return (x >= 0 ? x % HASH_BOUND : mix(0x9e3779b9, -x % HASH_BOUND)) >>> 0;
  if (typeof x === "bigint") return textHash(x.toString());
  if (typeof x === "number" || x instanceof Flonum) {
    // A flonum, bare (non-integral, ADR 0046) or boxed (integral): hashed by value, as = compares.
    const v: number = typeof x === "number" ? x : x.v;
    if (Number.isInteger(v)) return Number.isSafeInteger(v) ? numberHash(v) : textHash(BigInt(v).toString());
    if (Number.isNaN(v)) return 0x7ff80000;
    return textHash(String(v));
  }
  if (x instanceof Ratnum) {
    // A ratnum equals only a flonum of the same value: hash its double when that is exact, else its digits.
    const d = Number(x.num) / Number(x.den);
    return textHash(String(d));
  }
  return 0;
}

/** default-hash on the types it knows; pairs, vectors and bytevectors by their elements (bounded work on huge ones). */
export function structuralHash(x: any, budget = { n: 4096 }): number {
  if (--budget.n < 0) return 0;
  if (x instanceof MString) return textHash(x.toString());
  if (typeof x === "number" || typeof x === "bigint" || x instanceof Flonum || x instanceof Ratnum) return numberHash(x);
  if (x instanceof Compnum) return mix(numberHash(x.re), numberHash(x.im));
  if (x instanceof Sym) return textHash(x.name);
  if (x instanceof Char) return mix(0x2545f491, x.code);
  if (x === true) return 1;
  if (x === false) return 2;
  if (x === NIL) return 3;
  if (x instanceof Pair) {
    let h = 0x1234567;
    let p: any = x;
    while (p instanceof Pair && budget.n > 0) {
      h = mix(h, structuralHash(p.car, budget));
      p = p.cdr;
    }
    return p === NIL || !(p instanceof Pair) ? mix(h, p === NIL ? 3 : structuralHash(p, budget)) : h;
  }
  if (Array.isArray(x)) {
    let h = 0x7654321;
    for (let i = 0; i < x.length && budget.n > 0; i++) h = mix(h, structuralHash(x[i], budget));
    return mix(h, x.length);
  }
  if (x instanceof Uint8Array) {
    let h = 0x3141592;
    for (let i = 0; i < x.length && i < 4096; i++) h = mix(h, x[i] as number);
    return mix(h, x.length);
  }
  // Records, procedures, ports …: equal? is eqv? on them, and eqv? has no stable address to hash: one bucket.
  return 5;
}

const HASH_ARG = "[ignored]";
// A fixnum bound only: a bare number that is not an integer is a flonum (ADR 0046), which is no bound.
const bounded = (h: number, bound: any): number => (typeof bound === "number" && Number.isInteger(bound) && bound > 0 ? h % bound : h);

/** A hash function of SRFI 128 (one argument) that also takes SRFI 69's optional bound. */
function hashSpec(name: string, type: ArgType | null, doc: string, f: (x: any) => number): ProcSpec {
  return {
    name,
    params: ["obj", HASH_ARG],
    types: [type, null],
    doc: `${doc} Below (hash-bound); a second argument, SRFI 69's bound, reduces it modulo that bound when it is a positive exact integer.`,
    impl: (x: any, bound: any) => bounded(f(x), bound),
  };
}

/** The procedures of (nodwyn primitives srfi 125), which (srfi 69), (srfi 125) and (srfi 128) import. */
export const hashTablePrimitives: ProcSpec[] = [
  hashSpec("string-hash", T.string, "The hash of a string's characters.", (s: MString) => textHash(s.toString())),
  hashSpec("string-ci-hash", T.string, "The hash of a string's characters, case folded (string-ci=? strings hash alike).", (s: MString) => textHash(foldcase(s.toString()))),
  hashSpec("char-hash", T.char, "The hash of a character.", (c: Char) => mix(0x2545f491, c.code)),
  hashSpec("char-ci-hash", T.char, "The hash of a character, case folded.", (c: Char) => mix(0x2545f491, foldcase(String.fromCodePoint(c.code)).codePointAt(0) as number)),
  hashSpec("symbol-hash", T.symbol, "The hash of a symbol (its name's).", (s: Sym) => textHash(s.name)),
  hashSpec("number-hash", T.number, "The hash of a number; numbers that are = hash alike.", numberHash),
  hashSpec("boolean-hash", T.boolean, "The hash of a boolean.", (b: boolean) => (b ? 1 : 2)),
  hashSpec("%structural-hash", null, "default-hash for the types nodwyn knows (registered comparators are handled in Scheme).", (x) => structuralHash(x)),
  {
    name: "%make-hash-table",
    params: ["kind", "comparator", "equivalence", "hash"],
    types: [T.symbol, null, null, null],
    doc: "A new mutable table of kind eq, eqv, equal, string, string-ci or generic.",
    impl(kind: Sym, comparator: any, equivalence: any, hash: any) {
      if (!KINDS.includes(kind.name as TableKind)) argError("%make-hash-table", 1, "table kind", kind);
      allocate(128);
      return new HashTable(kind.name as TableKind, comparator, equivalence, hash);
    },
  },
  { name: "hash-table?", params: ["obj"], doc: "True when obj is a hash table.", impl: (x: any) => x instanceof HashTable },
  { name: "%ht-generic?", params: ["table"], types: [HT], doc: "True when the table's comparator is one the Scheme library runs.", impl: (t: HashTable) => t.kind === "generic" },
  { name: "%ht-comparator", params: ["table"], types: [HT], doc: "The comparator the table was made with, or #f.", impl: (t: HashTable) => t.comparator },
  { name: "hash-table-equivalence-function", params: ["hash-table"], types: [HT], doc: "The equality predicate the table was made with.", impl: (t: HashTable) => t.equivalence },
  { name: "hash-table-hash-function", params: ["hash-table"], types: [HT], doc: "The hash function the table was made with (#f when nodwyn uses its own for the table's equality predicate).", impl: (t: HashTable) => t.hashFunction },
  {
    name: "%ht-entry",
    params: ["table", "key"],
    types: [HT, null],
    doc: "The entry (key . value) of key in a table of a known kind, or #f.",
    impl: (t: HashTable, key: any) => lookup(t, "hash-table-ref", key) ?? false,
  },
  {
    name: "%ht-ref",
    params: ["who", "table", "key", "default"],
    types: [T.symbol, HT, null, null],
    doc: "The value of key in a table of a known kind, or default.",
    impl: (who: Sym, t: HashTable, key: any, dflt: any) => {
      const e = lookup(t, who.name, key);
      return e === undefined ? dflt : e.cdr;
    },
  },
  {
    name: "%ht-set-fast!",
    params: ["table", "key", "value"],
    doc: "hash-table-set! with one key: sets key's value and returns #t in a mutable table of a known kind; #f (nothing done) for a generic table. Three arguments, so the call takes the machine's direct path (no argument array).",
    impl(t: any, key: any, value: any) {
      if (!(t instanceof HashTable)) argError("hash-table-set!", 1, "hash table", t);
      if (t.code === K_GENERIC) return false;
      if (!t.mutable) checkMutable(t, "hash-table-set!");
      store(t, "hash-table-set!", key, value);
      return true;
    },
  },
  {
    name: "%ht-ref-fast",
    params: ["table", "key", "default"],
    doc: "hash-table-ref/default: the value of key (or default) in a table of a known kind; the table itself for a generic table (the caller looks there). Three arguments, so the call takes the machine's direct path.",
    impl(t: any, key: any, dflt: any) {
      if (!(t instanceof HashTable)) argError("hash-table-ref/default", 1, "hash table", t);
      if (t.code === K_GENERIC) return t;
      const e = lookup(t, "hash-table-ref/default", key);
      return e === undefined ? dflt : e.cdr;
    },
  },
  {
    name: "%ht-set!",
    params: ["who", "table", "key", "value"],
    types: [T.symbol, HT, null, null],
    doc: "Sets key's value in a mutable table of a known kind.",
    impl(who: Sym, t: HashTable, key: any, value: any) {
      checkMutable(t, who.name);
      store(t, who.name, key, value);
      return UNSPECIFIED;
    },
  },
  {
    name: "%ht-delete!",
    params: ["who", "table", "key"],
    types: [T.symbol, HT, null],
    doc: "Removes key from a mutable table of a known kind: 1 when it was there, else 0.",
    impl(who: Sym, t: HashTable, key: any) {
      checkMutable(t, who.name);
      return remove(t, who.name, key) ? 1 : 0;
    },
  },
  {
    name: "%ht-bucket",
    params: ["table", "hash"],
    types: [HT, T.exactInteger],
    doc: "The entries of a generic table whose key has this hash (a vector the caller must not change), or #f.",
    impl: (t: HashTable, h: any) => t.map.get(h) ?? false,
  },
  {
    name: "%ht-bucket-add!",
    params: ["who", "table", "hash", "key", "value"],
    types: [T.symbol, HT, T.exactInteger, null, null],
    doc: "Adds a new entry to a mutable generic table (the caller knows the key is not there).",
    impl(who: Sym, t: HashTable, h: any, key: any, value: any) {
      checkMutable(t, who.name);
      let b = t.map.get(h);
      if (b === undefined) t.map.set(h, (b = []));
      b.push(new Pair(key, value));
      t.size++;
      return UNSPECIFIED;
    },
  },
  {
    name: "%ht-bucket-remove!",
    params: ["who", "table", "hash", "entry"],
    types: [T.symbol, HT, T.exactInteger, T.pair],
    doc: "Removes an entry of a mutable generic table.",
    impl(who: Sym, t: HashTable, h: any, entry: Pair) {
      checkMutable(t, who.name);
      const b = t.map.get(h) as Pair[] | undefined;
      const i = b === undefined ? -1 : b.indexOf(entry);
      if (i >= 0) {
        b!.splice(i, 1);
        if (b!.length === 0) t.map.delete(h);
        t.size--;
      }
      return UNSPECIFIED;
    },
  },
  { name: "%ht-check-mutable", params: ["who", "table"], types: [T.symbol, HT], doc: "Raises unless the table is mutable.", impl: (who: Sym, t: HashTable) => (checkMutable(t, who.name), true) },
  { name: "hash-table-size", params: ["hash-table"], types: [HT], doc: "The number of associations.", impl: (t: HashTable) => t.size },
  { name: "hash-table-mutable?", params: ["hash-table"], types: [HT], doc: "True unless the table was made immutable (hash-table, hash-table-copy without #t).", impl: (t: HashTable) => t.mutable },
  { name: "%ht-freeze!", params: ["table"], types: [HT], doc: "Makes the table immutable; returns it.", impl: (t: HashTable) => ((t.mutable = false), t) },
  { name: "%ht-entries", params: ["table"], types: [HT], doc: "A fresh vector of the table's entries (key . value), which stay the table's own.", impl: (t: HashTable) => t.entries() },
  {
    name: "hash-table-keys",
    params: ["hash-table"],
    types: [HT],
    doc: "A new list of the keys.",
    impl: (t: HashTable) => arrayToList(t.entries().map((e) => e.car)),
  },
  {
    name: "hash-table-values",
    params: ["hash-table"],
    types: [HT],
    doc: "A new list of the values.",
    impl: (t: HashTable) => arrayToList(t.entries().map((e) => e.cdr)),
  },
  {
    name: "hash-table-entries",
    params: ["hash-table"],
    types: [HT],
    doc: "Two values: a new list of the keys and a new list of the values, in corresponding order.",
    impl: (t: HashTable) => {
      const es = t.entries();
      return makeValues([arrayToList(es.map((e) => e.car)), arrayToList(es.map((e) => e.cdr))]);
    },
  },
  {
    name: "hash-table->alist",
    params: ["hash-table"],
    types: [HT],
    doc: "A new association list of the associations.",
    impl: (t: HashTable) => {
      const es = t.entries();
      allocate(es.length * COST.pairBytes * 2);
      return arrayToList(es.map((e) => new Pair(e.car, e.cdr)));
    },
  },
  {
    name: "hash-table-clear!",
    params: ["hash-table"],
    types: [HT],
    doc: "Removes every association.",
    impl(t: HashTable) {
      checkMutable(t, "hash-table-clear!");
      t.clear();
      return UNSPECIFIED;
    },
  },
  {
    name: "%ht-copy",
    params: ["table", "mutable?", "empty?"],
    types: [HT, T.boolean, T.boolean],
    doc: "A new table of the same kind and comparator, with the same associations unless empty?.",
    impl(t: HashTable, mutable: boolean, empty: boolean) {
      const c = new HashTable(t.kind, t.comparator, t.equivalence, t.hashFunction, true);
      if (!empty) {
        allocate(t.size * (COST.pairBytes + 32));
        spend(t.size * COST.elementNs);
        if (t.kind === "generic") for (const [h, b] of t.map) c.map.set(h, (b as Pair[]).map((e) => new Pair(e.car, e.cdr)));
        else {
          for (const [k, e] of t.map) c.map.set(k, new Pair(e.car, e.cdr));
          if (t.compound !== null) for (const [h, b] of t.compound) c.compound!.set(h, b.map((e) => new Pair(e.car, e.cdr)));
        }
        c.size = t.size;
      }
      c.mutable = mutable;
      return c;
    },
  },
  {
    name: "hash-table-empty?",
    params: ["hash-table"],
    types: [HT],
    doc: "True when the table has no association.",
    impl: (t: HashTable) => t.size === 0,
  },
];

