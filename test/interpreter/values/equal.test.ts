// eqv, eq and equal: R7RS examples, deep and long data, and cyclic graphs against a bisimulation reference.
import test from "ava";
import fc from "fast-check";
import { eq, eqv, equal } from "../../../interpreter/values/equal.js";
import { Pair, NIL, list, arrayToList } from "../../../interpreter/values/pair.js";
import { SymbolTable, Keyword } from "../../../interpreter/values/symbol.js";
import { char } from "../../../interpreter/values/char.js";
import { MString } from "../../../interpreter/values/string.js";
import { Flonum, Ratnum } from "../../../interpreter/values/numbers/repr.js";
import { UNSPECIFIED } from "../../../interpreter/values/misc.js";

const syms = new SymbolTable();
const sym = (s: string) => syms.intern(s);
const fl = (v: number) => new Flonum(v);

/** A circular list of the elements (the last pair points back to the first). */
function cycle(...xs: any[]): Pair {
  const l = arrayToList(xs) as Pair;
  let p = l;
  while (p.cdr !== NIL) p = p.cdr;
  p.cdr = l;
  return l;
}

test("eqv compares exact integers by value, fixnum and bignum alike", (t) => {
  t.true(eqv(17, 17));
  t.true(eqv(10n ** 30n, 10n ** 15n * 10n ** 15n));
  t.false(eqv(2n ** 64n, 2n ** 64n + 1n));
  t.false(eqv(17, 18));
});

test("eqv distinguishes exactness: 17 is not eqv to 17.0", (t) => {
  t.false(eqv(17, fl(17)));
  t.false(eqv(fl(17), 17));
});

test("eqv compares flonums by value, with 0.0 and -0.0 different and NaN eqv to NaN", (t) => {
  t.true(eqv(fl(1.5), fl(1.0 + 0.5)));
  t.false(eqv(fl(0), fl(-0)));
  t.true(eqv(fl(-0), fl(-0)));
  t.true(eqv(fl(NaN), fl(NaN)));
  t.true(eqv(fl(Infinity), fl(Infinity)));
  t.false(eqv(fl(Infinity), fl(-Infinity)));
});

test("eqv compares ratnums by value and never equates a ratnum with a flonum", (t) => {
  t.true(eqv(new Ratnum(1n, 2n), new Ratnum(1n, 2n)));
  t.false(eqv(new Ratnum(1n, 2n), new Ratnum(1n, 3n)));
  t.false(eqv(new Ratnum(1n, 2n), fl(0.5)));
});

test("eqv is identity on symbols, characters, booleans, the empty list and keywords", (t) => {
  t.true(eqv(sym("kiwi"), sym("kiwi")));
  t.false(eqv(sym("kiwi"), sym("lime")));
  t.true(eqv(char(97), char(97)));
  t.true(eqv(char(0x1f600), char(0x1f600)));
  t.false(eqv(char(97), char(65)));
  t.true(eqv(true, true));
  t.false(eqv(false, NIL));
  t.true(eqv(NIL, NIL));
  t.true(eqv(syms.keyword("k"), syms.keyword("k")));
  t.false(eqv(new Keyword("k"), new Keyword("k")));
  t.true(eqv(UNSPECIFIED, UNSPECIFIED));
});

test("eqv is identity on pairs, strings, vectors and bytevectors", (t) => {
  t.false(eqv(new Pair(1, 2), new Pair(1, 2)));
  t.false(eqv(new MString("a"), new MString("a")));
  t.false(eqv([], []));
  t.false(eqv(new Uint8Array(1), new Uint8Array(1)));
  const v = [1];
  t.true(eqv(v, v));
});

test("eq is identity; small exact integers, bignums and characters are eq when equal", (t) => {
  t.true(eq(5, 5));
  t.true(eq(2n ** 70n, 2n ** 70n));
  t.true(eq(char(955), char(955)));
  t.true(eq(sym("mango"), sym("mango")));
  t.false(eq(list(1), list(1)));
  t.false(eq(fl(1.5), fl(1.5)));
  const p = new Pair(1, 2);
  t.true(eq(p, p));
});

test("equal compares lists, vectors, strings and bytevectors by structure", (t) => {
  t.true(equal(list(sym("x"), list(sym("y")), sym("z")), list(sym("x"), list(sym("y")), sym("z"))));
  t.false(equal(list(sym("x"), list(sym("y")), sym("z")), list(sym("x"), list(sym("y")), sym("w"))));
  t.true(equal(new MString("xyz"), new MString("xyz")));
  t.false(equal(new MString("abc"), new MString("abC")));
  t.true(equal([1, [2, new MString("x")]], [1, [2, new MString("x")]]));
  t.false(equal([1, 2], [1, 2, 3]));
  t.true(equal(Uint8Array.of(1, 2), Uint8Array.of(1, 2)));
  t.false(equal(Uint8Array.of(1, 2), Uint8Array.of(1, 3)));
  t.false(equal(Uint8Array.of(1, 2), Uint8Array.of(1, 2, 0)));
  t.true(equal(new Pair(1, 2), new Pair(1, 2)));
  t.false(equal(list(1, 2), list(1, 2, 3)));
  t.false(equal(list(1, 2, 3), list(1, 2)));
  t.false(equal(new Pair(1, 2), list(1, 2)));
  t.false(equal(NIL, []));
  t.false(equal(new MString("a"), char(97)));
  t.false(equal(sym("abc"), new MString("abc")));
  t.true(equal([], []));
  t.true(equal(new Uint8Array(0), new Uint8Array(0)));
});

test("equal falls back to eqv on numbers", (t) => {
  t.true(equal(2n ** 100n, 2n ** 100n));
  t.false(equal(2, fl(2)));
  t.false(equal(new Ratnum(1n, 2n), fl(0.5)));
  t.true(equal(list(fl(1.5)), list(fl(1.5))));
  t.false(equal(list(fl(0)), list(fl(-0))));
});

test("equal compares strings by characters, however they are stored", (t) => {
  const mutated = new MString("hxllo");
  mutated.set(1, 0x65);
  t.true(equal(mutated, new MString("hello", true)));
  t.true(equal(MString.fromCodePoints([0x61, 0x1f600]), new MString("a😀")));
  t.false(equal(MString.fromCodePoints([0x61, 0x1f600]), new MString("a😁")));
});

test("equal on mixed nested data", (t) => {
  const a = list(1, [2, list(3, new MString("4"), char(53))]);
  const b = list(1, [2, list(3, new MString("4"), char(53))]);
  t.true(equal(a, b));
  const c = list(1, [2, list(3, new MString("4"), char(54))]);
  t.false(equal(a, c));
});

test("equal handles 100,000-deep nesting in the car direction and in vectors", (t) => {
  let a: any = NIL;
  let b: any = NIL;
  for (let i = 0; i < 100_000; i++) {
    a = list(a);
    b = list(b);
  }
  t.true(equal(a, b));
  let v: any = 0;
  let w: any = 0;
  for (let i = 0; i < 100_000; i++) {
    v = [v];
    w = [w];
  }
  t.true(equal(v, w));
  let w2: any = 1;
  for (let i = 0; i < 100_000; i++) w2 = [w2];
  t.false(equal(v, w2));
});

test("equal on long lists finds a difference at the very end", (t) => {
  const n = 1_000_000;
  const xs = Array.from({ length: n }, (_, i) => i);
  t.true(equal(arrayToList(xs), arrayToList(xs)));
  const ys = xs.slice();
  ys[n - 1] = -1;
  t.false(equal(arrayToList(xs), arrayToList(ys)));
  t.false(equal(arrayToList(xs), arrayToList(xs, 5)));
});

test("equal terminates on circular lists and compares their unfoldings", (t) => {
  t.true(equal(cycle(1, 2), cycle(1, 2)));
  t.false(equal(cycle(1, 2), cycle(1, 3)));
  // Same infinite unfolding 1 2 1 2 ...: R7RS equal? compares unfoldings.
  t.true(equal(cycle(1, 2), cycle(1, 2, 1, 2)));
  t.true(equal(cycle(1), new Pair(1, cycle(1))));
  t.false(equal(cycle(1, 2), list(1, 2)));
  t.false(equal(list(1, 2), cycle(1, 2)));
  const c = cycle(1, 2, 3);
  t.true(equal(c, c));
});

test("equal terminates on cycles through cars and vectors", (t) => {
  const x = list(1);
  x.car = x;
  const y = list(1);
  y.car = y;
  t.true(equal(x, y));
  const v: any[] = [1, null];
  v[1] = v;
  const w: any[] = [1, null];
  w[1] = w;
  t.true(equal(v, w));
  const w3: any[] = [2, null];
  w3[1] = w3;
  t.false(equal(v, w3));
  // A vector holding a list holding the vector.
  const v2: any[] = [null];
  v2[0] = list(v2);
  const w4: any[] = [null];
  w4[0] = list(w4);
  t.true(equal(v2, w4));
});

/** A cycle of n one-element lists through their cars, the k-th holding atom(k). */
function carCycle(n: number, atom: (k: number) => any = () => 0): Pair {
  const ps = Array.from({ length: n }, (_, k) => new Pair(null, new Pair(atom(k), NIL)));
  ps.forEach((p, k) => (p.car = ps[(k + 1) % n]));
  return ps[0] as Pair;
}

test("equal compares car-cycles of different periods by their unfoldings", (t) => {
  t.true(equal(carCycle(2), carCycle(3)));
  t.true(equal(carCycle(5), carCycle(7)));
  t.true(equal(carCycle(4, (k) => k % 2), carCycle(6, (k) => k % 2)));
  t.false(equal(carCycle(2, (k) => k % 2), carCycle(3, (k) => k % 3)));
  t.false(equal(carCycle(4, (k) => (k === 3 ? 1 : 0)), carCycle(5, () => 0)));
});

test("equal stays fast on heavily shared acyclic data (a DAG with 2^60 paths)", (t) => {
  let a: any = NIL;
  let b: any = NIL;
  for (let i = 0; i < 60; i++) {
    a = new Pair(a, a);
    b = new Pair(b, b);
  }
  t.true(equal(a, b));
  let c: any = 1;
  for (let i = 0; i < 60; i++) c = new Pair(c, c);
  t.false(equal(a, c));
});

// Random acyclic trees: a JS description, built into Scheme data twice, and a recursive reference.
type Tree =
  | { k: "int"; v: number }
  | { k: "flo"; v: number }
  | { k: "str"; v: string }
  | { k: "sym"; v: string }
  | { k: "bytes"; v: number[] }
  | { k: "nil" }
  | { k: "pair"; a: Tree; d: Tree }
  | { k: "vec"; items: Tree[] };

const { tree } = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.record({ k: fc.constant("int" as const), v: fc.integer({ min: -3, max: 3 }) }),
    fc.record({ k: fc.constant("flo" as const), v: fc.constantFrom(0, -0, 1, NaN) }),
    fc.record({ k: fc.constant("str" as const), v: fc.constantFrom("", "a", "b", "😀") }),
    fc.record({ k: fc.constant("sym" as const), v: fc.constantFrom("a", "b") }),
    fc.record({ k: fc.constant("bytes" as const), v: fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 2 }) }),
    fc.constant({ k: "nil" as const }),
    fc.record({ k: fc.constant("pair" as const), a: tie("tree"), d: tie("tree") }),
    fc.record({ k: fc.constant("vec" as const), items: fc.array(tie("tree"), { maxLength: 3 }) }),
  ),
}));

function build(t: Tree): any {
  switch (t.k) {
    case "int":
      return t.v;
    case "flo":
      return fl(t.v);
    case "str":
      return new MString(t.v);
    case "sym":
      return sym(t.v);
    case "bytes":
      return Uint8Array.from(t.v);
    case "nil":
      return NIL;
    case "pair":
      return new Pair(build(t.a), build(t.d));
    case "vec":
      return t.items.map(build);
  }
}

function refEqual(x: Tree, y: Tree): boolean {
  if (x.k !== y.k) return false;
  switch (x.k) {
    case "int":
    case "str":
    case "sym":
      return x.v === (y as typeof x).v;
    case "flo":
      return Object.is(x.v, (y as typeof x).v);
    case "bytes":
      return JSON.stringify(x.v) === JSON.stringify((y as typeof x).v);
    case "nil":
      return true;
    case "pair":
      return refEqual(x.a, (y as typeof x).a) && refEqual(x.d, (y as typeof x).d);
    case "vec": {
      const yi = (y as typeof x).items;
      return x.items.length === yi.length && x.items.every((it, i) => refEqual(it, yi[i] as Tree));
    }
  }
}

test("equal agrees with a structural reference on random acyclic trees", (t) => {
  fc.assert(
    fc.property(tree, tree, (x, y) => {
      t.is(equal(build(x), build(y)), refEqual(x, y));
      t.true(equal(build(x), build(x)));
    }),
    { numRuns: 500 },
  );
});

// Random cyclic graphs: nodes are pairs or vectors whose slots point at nodes or atoms.
type Slot = { node: number } | { atom: number };
type Graph = { kinds: ("pair" | "vec")[]; slots: Slot[][] };

const graph: fc.Arbitrary<Graph> = fc.integer({ min: 1, max: 6 }).chain((n) =>
  fc
    .tuple(
      fc.array(fc.constantFrom("pair" as const, "vec" as const), { minLength: n, maxLength: n }),
      fc.array(fc.integer({ min: 1, max: 3 }), { minLength: n, maxLength: n }),
    )
    .chain(([kinds, lens]) => {
      const slot: fc.Arbitrary<Slot> = fc.oneof(
        fc.integer({ min: 0, max: n - 1 }).map((node) => ({ node })),
        fc.integer({ min: 0, max: 1 }).map((atom) => ({ atom })),
      );
      return fc
        .tuple(...kinds.map((k, i) => fc.array(slot, { minLength: k === "pair" ? 2 : lens[i], maxLength: k === "pair" ? 2 : lens[i] })))
        .map((slots) => ({ kinds, slots }));
    }),
);

function buildGraph(g: Graph): any[] {
  const nodes: any[] = g.kinds.map((k, i) => (k === "pair" ? new Pair(0, 0) : new Array((g.slots[i] as Slot[]).length)));
  const val = (s: Slot) => ("node" in s ? nodes[s.node] : s.atom);
  g.kinds.forEach((k, i) => {
    const s = g.slots[i] as Slot[];
    if (k === "pair") {
      nodes[i].car = val(s[0] as Slot);
      nodes[i].cdr = val(s[1] as Slot);
    } else s.forEach((x, j) => (nodes[i][j] = val(x)));
  });
  return nodes;
}

/**
 * The reference: the greatest bisimulation between the nodes of two graphs,
 * by refinement from "same kind and length" until stable.
 */
function bisimilar(g: Graph, h: Graph, root1: number, root2: number): boolean {
  const rel = g.kinds.map((k, i) => h.kinds.map((k2, j) => k === k2 && (g.slots[i] as Slot[]).length === (h.slots[j] as Slot[]).length));
  const slotOk = (a: Slot, b: Slot) => ("node" in a ? "node" in b && (rel[a.node] as boolean[])[b.node] : "atom" in b && a.atom === b.atom);
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = 0; i < g.kinds.length; i++)
      for (let j = 0; j < h.kinds.length; j++) {
        const row = rel[i] as boolean[];
        if (row[j] && !(g.slots[i] as Slot[]).every((s, k) => slotOk(s, (h.slots[j] as Slot[])[k] as Slot))) {
          row[j] = false;
          changed = true;
        }
      }
  }
  return (rel[root1] as boolean[])[root2] as boolean;
}

test("equal terminates on random cyclic graphs and agrees with bisimilarity", (t) => {
  fc.assert(
    fc.property(graph, graph, (g, h) => {
      const a = buildGraph(g);
      const b = buildGraph(h);
      t.is(equal(a[0], b[0]), bisimilar(g, h, 0, 0));
      // An isomorphic copy is always equal.
      t.true(equal(a[0], buildGraph(g)[0]));
    }),
    { numRuns: 300 },
  );
});
