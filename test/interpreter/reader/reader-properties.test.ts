// Property tests: the reader fuzzed (reliability plan T7: 100,000 inputs, more under `npm run fuzz`) and write/read round trips (T9: 10,000 data).
//
// NODWYN_FUZZ_SCALE multiplies every count (npm run fuzz sets it); the seed is
// fixed (NODWYN_FUZZ_SEED changes it) so that a failure is reproduced by its seed
// and path, and a failing input found once goes in reader-corpus.ts for good.
import test from "ava";
import fc from "fast-check";
import { Reader } from "../../../interpreter/reader/reader.js";
import { SchemeError } from "../../../interpreter/errors.js";
import { writeToString, type WriteMode } from "../../../interpreter/printer/printer.js";
import { Pair, NIL } from "../../../interpreter/values/pair.js";
import { SymbolTable } from "../../../interpreter/values/symbol.js";
import { char, isScalarValue } from "../../../interpreter/values/char.js";
import { MString } from "../../../interpreter/values/string.js";
import { EOF } from "../../../interpreter/values/misc.js";
import { flo, makeRational } from "../../../interpreter/values/numbers/repr.js";
import { sameDatum, isomorphic } from "./datum-helpers.js";
import { REGRESSIONS } from "./reader-corpus.js";

const SCALE = Number(process.env.NODWYN_FUZZ_SCALE ?? "1") || 1;
const SEED = Number(process.env.NODWYN_FUZZ_SEED ?? "20261202");
const runs = (n: number) => ({ numRuns: Math.round(n * SCALE), seed: SEED });

/**
 * Reads every datum of `text`, carrying on after read errors. Fails when
 * anything but a read SchemeError is thrown, when an error has no proper
 * location, or when reading does not end within one read per character.
 */
function readEverything(text: string): { data: number; errors: number } {
  const r = new Reader(text, { symbols: new SymbolTable(), file: "fuzz.scm" });
  let data = 0;
  let errors = 0;
  for (let i = 0; i <= text.length + 1; i++) {
    try {
      if (r.read() === EOF) return { data, errors };
      data++;
    } catch (e) {
      if (!(e instanceof SchemeError)) throw new Error(`non-Scheme exception on ${JSON.stringify(text)}: ${String(e)}`);
      const c = e.condition;
      if (c.kind !== "read") throw new Error(`condition of kind ${c.kind}`);
      if (!c.loc || c.loc.file !== "fuzz.scm" || !(c.loc.line >= 1) || !(c.loc.col >= 1)) throw new Error(`bad location ${JSON.stringify(c.loc)}`);
      if (/internal reader error/.test(c.message)) throw new Error(`${c.message} on ${JSON.stringify(text)}`);
      errors++;
    }
  }
  throw new Error(`reading did not end: ${JSON.stringify(text)}`);
}

const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)); // lone surrogates included
const schemeUnit = fc.constantFrom(
  ..."()[]{}#|\\;\"'`,@.:=!?+-*/<>0123456789abcdefxXeEiIbBoOdDtTfFuU8 \n\t\rλ😀".split(""),
  "#\\",
  "#|",
  "|#",
  "#;",
  "#u8(",
  "#(",
  "#0=",
  "#0#",
  "#!fold-case",
  "\\x41;",
  "+inf.0",
  "1/2",
  "#e1.5",
);

test("arbitrary text never throws anything but a located read error, and reading always ends", (t) => {
  fc.assert(fc.property(fc.string({ unit: anyUnit, maxLength: 60 }), (s) => void readEverything(s)), runs(25_000));
  fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 60 }), (s) => void readEverything(s)), runs(15_000));
  // Bytes as a decoder without checks would hand them over: NUL, lone surrogates, anything.
  fc.assert(fc.property(fc.uint8Array({ maxLength: 60 }), (b) => void readEverything(String.fromCharCode(...b))), runs(10_000));
  t.pass();
});

test("Scheme-like token soup never throws anything but a read error", (t) => {
  fc.assert(fc.property(fc.string({ unit: schemeUnit, maxLength: 80 }), (s) => void readEverything(s)), runs(25_000));
  t.pass();
});

const CORPUS = [
  `(define (fact n) (if (= n 0) 1 (* n (fact (- n 1))))) ; factorial`,
  `#| block #| nested |# |# (let ((s "a\\tb\\x41;\\\n   c") (c #\\space)) (vector-ref #(1 2 #u8(1 255)) 0))`,
  `'(a . b) \`(x ,y ,@z) #;(skipped) [1 2] |odd sym\\|bol| #:kw :kw #!fold-case ABC #!no-fold-case`,
  `#0=(a b . #0#) (#1=(p) #1#) #e1.2e-1 #x-1F #i3/4 +inf.0 -nan.0 .5 -0.0 123456789012345678901234567890`,
];

test("random edits of valid Scheme text never throw anything but a read error", (t) => {
  const edit = fc.record({ pos: fc.nat(), del: fc.nat({ max: 4 }), ins: fc.string({ unit: schemeUnit, maxLength: 3 }) });
  fc.assert(
    fc.property(fc.constantFrom(...CORPUS), fc.array(edit, { minLength: 1, maxLength: 6 }), (text, edits) => {
      let s = text;
      for (const e of edits) {
        const at = e.pos % (s.length + 1);
        s = s.slice(0, at) + e.ins + s.slice(at + e.del);
      }
      readEverything(s);
    }),
    runs(15_000),
  );
  t.pass();
});

test("the valid corpus reads without errors", (t) => {
  for (const text of CORPUS) t.is(readEverything(text).errors, 0, text);
});

// Random data: every kind of datum that has a written form.
const symbols = new SymbolTable();
const atom = fc.oneof(
  fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }),
  fc.bigInt({ min: 2n ** 53n, max: 2n ** 200n }).chain((b) => fc.constantFrom(b, -b)),
  fc.tuple(fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }), fc.bigInt({ min: 1n, max: 2n ** 80n })).map(([n, d]) => makeRational(n, d)),
  fc.double().map(flo),
  fc.string({ unit: "binary", maxLength: 12 }).map((s) => new MString(s)),
  // Strings of the characters that need escapes, and the edges of exactness.
  fc.string({ unit: fc.constantFrom('"', "\\", "\n", "\t", "\r", "\x07", "\b", "\0", "|", "\u2028", "\x7f", "a", " "), maxLength: 10 }).map((s) => new MString(s)),
  fc.constantFrom(-0.0, 0.0, Infinity, -Infinity, NaN, 5e-324, Number.MAX_VALUE).map(flo),
  fc.constantFrom(2 ** 53 - 1, 2 ** 53 - 2, -(2 ** 53) + 1, -(2 ** 53) + 2),
  fc.constantFrom(2n ** 53n, 2n ** 53n + 1n, -(2n ** 53n), -(2n ** 53n) - 1n),
  fc.bigInt({ min: 10n ** 1000n, max: 10n ** 1100n }).chain((b) => fc.constantFrom(b, -b)),
  fc.integer({ min: 0, max: 0x10ffff }).filter(isScalarValue).map(char),
  fc.string({ unit: "binary", maxLength: 8 }).map((s) => symbols.intern(s)),
  fc.constantFrom("+", "-", "...", "->x", "a.b", ".x", "+a", "1+", ":", "::x", "+inf.0", "1", "a b", "|", "#x", "", ".", "1/2", "-nan.0", "a|b", "a\\b", "(", "#t", ";x", "\u2028", "λ").map((s) => symbols.intern(s)),
  fc.stringMatching(/^[a-z][a-z0-9?!*-]{0,6}$/).map((s) => symbols.keyword(s)),
  fc.boolean(),
  fc.constant(NIL),
  fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 5 }).map((a) => Uint8Array.from(a)),
);

const datum = fc.letrec((tie) => ({
  datum: fc.oneof({ depthSize: "small", withCrossShrink: true }, atom, tie("list"), tie("vector")),
  list: fc.tuple(fc.array(tie("datum"), { maxLength: 5 }), fc.option(atom, { nil: NIL })).map(([items, tail]) => {
    let r: any = items.length === 0 ? NIL : tail;
    for (let i = items.length - 1; i >= 0; i--) r = new Pair(items[i], r);
    return r;
  }),
  vector: fc.array(tie("datum"), { maxLength: 5 }),
})).datum;

function readBack(text: string): any {
  const r = new Reader(text, { symbols: new SymbolTable() });
  const d = r.read();
  if (r.read() !== EOF) throw new Error(`more than one datum in ${text}`);
  return d;
}

for (const [mode, n] of [["write", 10_000], ["shared", 2000], ["simple", 2000]] as [WriteMode, number][]) {
  test(`${mode} then read gives an equal datum (eqv? on numbers) for ${n} random data`, (t) => {
    fc.assert(
      fc.property(datum, (d) => {
        const text = writeToString(d, mode);
        const back = readBack(text);
        if (!sameDatum(d, back)) throw new Error(`${text} read back differently`);
      }),
      runs(n),
    );
    t.pass();
  });
}

test("written random data, then mutated, never throws anything but a read error (10,000 inputs)", (t) => {
  const edit = fc.record({ pos: fc.nat(), del: fc.nat({ max: 3 }), ins: fc.string({ unit: schemeUnit, maxLength: 2 }) });
  fc.assert(
    fc.property(datum, fc.array(edit, { minLength: 1, maxLength: 4 }), (d, edits) => {
      let s = writeToString(d, "write");
      for (const e of edits) {
        const at = e.pos % (s.length + 1);
        s = s.slice(0, at) + e.ins + s.slice(at + e.del);
      }
      readEverything(s);
    }),
    runs(10_000),
  );
  t.pass();
});

test("the regression corpus: each input reads to data or located read errors, in at most one read per character", (t) => {
  for (const [name, text] of Object.entries(REGRESSIONS)) t.notThrows(() => readEverything(text), name);
});

/** Containers (pairs and vectors) of `d`, found iteratively. */
function containers(d: any): any[] {
  const out: any[] = [];
  const seen = new Set<any>();
  const todo = [d];
  while (todo.length > 0) {
    const x = todo.pop();
    if (!(x instanceof Pair || Array.isArray(x)) || seen.has(x)) continue;
    seen.add(x);
    out.push(x);
    if (x instanceof Pair) todo.push(x.car, x.cdr);
    else todo.push(...x);
  }
  return out;
}

// Random data whose containers then get random links to other containers: shared and cyclic graphs.
const graph = fc
  .tuple(
    datum.filter((d) => d instanceof Pair || Array.isArray(d)),
    fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat()), { minLength: 1, maxLength: 5 }),
  )
  .map(([d, links]) => {
    const cs = containers(d);
    for (const [from, slot, to] of links) {
      const a = cs[from % cs.length];
      const b = cs[to % cs.length];
      if (a instanceof Pair) {
        if (slot % 2 === 0) a.car = b;
        else a.cdr = b;
      } else if (a.length > 0) a[slot % a.length] = b;
    }
    return d;
  });

test("cyclic and shared data written with labels reads back into the same shape", (t) => {
  fc.assert(
    fc.property(graph, (d) => {
      // write labels cycles only: the result unfolds the same (bisimilar).
      const w = writeToString(d, "write");
      if (!sameDatum(d, readBack(w))) throw new Error(`write: ${w}`);
      // write-shared labels all sharing: the very same graph comes back.
      const s = writeToString(d, "shared");
      if (!isomorphic(d, readBack(s))) throw new Error(`shared: ${s}`);
    }),
    runs(2000),
  );
  t.pass();
});
