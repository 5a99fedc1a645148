// Pairs and lists: R7RS behaviour, errors on improper and circular lists, 100,000-element lists, array equivalence.
import test from "ava";
import fc from "fast-check";
import {
  Pair,
  NIL,
  list,
  arrayToList,
  listToArray,
  MString,
  Flonum,
  UNSPECIFIED,
} from "../../../interpreter/api.js";
import { call, raised, ctx } from "../../helpers/prim.js";

const sym = (s: string) => ctx.symbols.intern(s);

function cycle(...xs: any[]): Pair {
  const l = arrayToList(xs) as Pair;
  let p = l;
  while (p.cdr !== NIL) p = p.cdr;
  p.cdr = l;
  return l;
}

const arr = (l: any) => listToArray(l);

test("pair? cons car cdr", (t) => {
  t.true(call("pair?", new Pair(1, 2)));
  t.true(call("pair?", list(1, 2)));
  t.false(call("pair?", NIL));
  t.false(call("pair?", [1, 2]));
  const p = call("cons", 1, 2);
  t.is(p.car, 1);
  t.is(p.cdr, 2);
  t.is(call("car", list(sym("x"), sym("y"))), sym("x"));
  t.deepEqual(arr(call("cdr", list(1, 2, 3))), [2, 3]);
  t.is(call("cdr", new Pair(sym("k"), sym("v"))), sym("v"));
});

test("car and cdr of a non-pair are type errors naming the argument", (t) => {
  const c = raised(() => call("car", NIL));
  t.is(c.kind, "type");
  t.regex(c.message, /^bad argument #1 to 'car' \(pair expected, got /);
  t.is(raised(() => call("cdr", 5)).kind, "type");
});

test("set-car! and set-cdr! mutate the shared pair", (t) => {
  const x = list(1, 2);
  const y = x;
  t.is(call("set-car!", y, 9), UNSPECIFIED);
  t.deepEqual(arr(x), [9, 2]);
  call("set-cdr!", x, 3);
  t.is(x.cdr, 3);
});

test("all 28 c[ad]{2,4}r follow their path, applied right to left", (t) => {
  // A tree where every path of car/cdr moves of length ≤ 4 leads to a pair or a distinct leaf.
  const build = (path: string, depth: number): any =>
    depth === 0 ? new MString(path) : new Pair(build("a" + path, depth - 1), build("d" + path, depth - 1));
  const tree = build("", 4);
  let count = 0;
  for (let len = 2; len <= 4; len++) {
    for (let bits = 0; bits < 1 << len; bits++) {
      let path = "";
      for (let i = 0; i < len; i++) path += bits & (1 << i) ? "d" : "a";
      let expected = tree;
      for (let i = path.length - 1; i >= 0; i--) expected = path[i] === "a" ? expected.car : expected.cdr;
      t.is(call(`c${path}r`, tree), expected, `c${path}r`);
      count++;
    }
  }
  t.is(count, 28);
  t.is(call("cadr", list(1, 2, 3)), 2);
  t.deepEqual(arr(call("cddr", list(1, 2, 3))), [3]);
  t.is(call("caddr", list(1, 2, 3)), 3);
  t.is(call("cadddr", list(1, 2, 3, 4)), 4);
  t.deepEqual(arr(call("cddddr", list(1, 2, 3, 4, 5))), [5]);
});

test("c[ad]r on too short a list is a type error saying what had to be a pair", (t) => {
  const c = raised(() => call("caddr", list(1, 2)));
  t.is(c.kind, "type");
  t.regex(c.message, /^bad argument #1 to 'caddr' \(pair whose cddr is a pair expected/);
  t.regex(raised(() => call("cadr", NIL)).message, /'cadr' \(pair expected/);
});

test("null? and list?", (t) => {
  t.true(call("null?", NIL));
  t.false(call("null?", list(1)));
  t.false(call("null?", false));
  t.true(call("list?", list(1, 2)));
  t.true(call("list?", NIL));
  t.false(call("list?", new Pair(1, 2)));
  t.false(call("list?", sym("x")));
  t.true(call("list?", list(1, new Pair(2, 3))));
});

test("list? is false on circular lists, whatever the cycle's entry point", (t) => {
  t.false(call("list?", cycle(1, 2, 3)));
  t.false(call("list?", new Pair(0, cycle(1))));
  t.false(call("list?", cycle(1)));
});

test("make-list and list", (t) => {
  t.deepEqual(arr(call("make-list", 3, sym("z"))), [sym("z"), sym("z"), sym("z")]);
  t.is(call("make-list", 0, 1), NIL);
  t.is(arr(call("make-list", 5))?.length, 5);
  t.is(call("list"), NIL);
  t.deepEqual(arr(call("list", 6, sym("b"), 7)), [6, sym("b"), 7]);
  t.is(raised(() => call("make-list", -1)).kind, "type");
  // Too large for the memory budget: refused before anything is allocated (ADR 0006).
  t.is(raised(() => call("make-list", 2 ** 40)).code, "memory");
});

test("length of proper lists, and errors on improper and circular lists", (t) => {
  t.is(call("length", list(1, 2, 3, 4)), 4);
  t.is(call("length", NIL), 0);
  t.is(call("length", list(list(1, 2), list(3), NIL)), 3);
  const improper = raised(() => call("length", new Pair(1, new Pair(2, 3))));
  t.is(improper.kind, "type");
  t.regex(improper.message, /^bad argument #1 to 'length' \(proper list expected/);
  t.is(raised(() => call("length", cycle(1, 2, 3))).kind, "type");
  t.is(raised(() => call("length", 5)).kind, "type");
});

test("append copies all but the last argument, which it shares", (t) => {
  t.deepEqual(arr(call("append", list(1), list(2))), [1, 2]);
  t.deepEqual(arr(arr(call("append", list(1, list(2)), list(list(3))))?.[2]), [3]);
  t.is(call("append"), NIL);
  t.is(call("append", NIL, sym("tail")), sym("tail"));
  t.is(call("append", 5), 5);
  t.deepEqual(arr(call("append", list(1), NIL, list(2), NIL)), [1, 2]);
  const r = call("append", list(1, 2), new Pair(3, 4));
  t.is(r.cdr.cdr.car, 3);
  t.is(r.cdr.cdr.cdr, 4);
  const r2 = call("append", list(1, 2), 3);
  t.is(r2.cdr.cdr, 3);
  const tail = list(3);
  t.is(call("append", list(1, 2), tail).cdr.cdr, tail);
  const a = list(1);
  const r3 = call("append", a, list(2));
  r3.car = sym("changed");
  t.is(a.car, 1);
});

test("append rejects an improper or circular argument before the last, naming it", (t) => {
  const c = raised(() => call("append", list(1), new Pair(2, 3), list(4)));
  t.is(c.kind, "type");
  t.regex(c.message, /^bad argument #2 to 'append' \(proper list expected/);
  t.regex(raised(() => call("append", cycle(1), NIL)).message, /^bad argument #1 to 'append'/);
});

test("reverse makes a new list", (t) => {
  const l = list(1, 2, 3, 4);
  const r = call("reverse", l);
  t.deepEqual(arr(r), [4, 3, 2, 1]);
  r.car = 0;
  t.deepEqual(arr(l), [1, 2, 3, 4]);
  t.is(call("reverse", NIL), NIL);
  t.is(raised(() => call("reverse", new Pair(1, 2))).kind, "type");
  t.is(raised(() => call("reverse", cycle(1, 2))).kind, "type");
});

test("list-tail shares structure and checks the count", (t) => {
  const l = list(1, 2, 3, 4, 5);
  t.is(call("list-tail", l, 3), l.cdr.cdr.cdr);
  t.is(call("list-tail", l, 0), l);
  t.is(call("list-tail", l, 5), NIL);
  const c = raised(() => call("list-tail", l, 6));
  t.is(c.kind, "range");
  t.regex(c.message, /^bad argument #2 to 'list-tail'/);
  t.is(call("list-tail", cycle(1, 2), 7).car, 2);
});

test("list-ref and list-set!", (t) => {
  const l = list(sym("p"), sym("q"), sym("r"), sym("s"));
  t.is(call("list-ref", l, 3), sym("s"));
  t.is(call("list-ref", l, 0), sym("p"));
  const c = raised(() => call("list-ref", l, 4));
  t.is(c.kind, "range");
  t.is(c.message, "bad argument #2 to 'list-ref' (index 4 out of range [0, 4))");
  t.is(raised(() => call("list-ref", NIL, 0)).kind, "range");
  t.is(raised(() => call("list-ref", l, -1)).kind, "type");
  t.is(raised(() => call("list-ref", l, new Flonum(1))).kind, "type");
  t.is(call("list-ref", cycle(1, 2, 3), 100), 2);
  const m = list(1, 2, 3);
  t.is(call("list-set!", m, 1, sym("x")), UNSPECIFIED);
  t.deepEqual(arr(m), [1, sym("x"), 3]);
  t.is(raised(() => call("list-set!", m, 3, 0)).kind, "range");
});

test("list-copy copies the pairs only, keeps improper tails, returns non-lists as they are", (t) => {
  const inner = list(sym("i"));
  const a = list(inner, 2, 3);
  const b = call("list-copy", a);
  t.not(b, a);
  t.is(b.car, inner);
  b.cdr.car = 99;
  t.deepEqual(arr(a), [inner, 2, 3]);
  t.is(call("list-copy", NIL), NIL);
  t.is(call("list-copy", 5), 5);
  const imp = call("list-copy", new Pair(1, new Pair(2, 3)));
  t.is(imp.car, 1);
  t.is(imp.cdr.car, 2);
  t.is(imp.cdr.cdr, 3);
  t.is(raised(() => call("list-copy", cycle(1, 2))).kind, "type");
});

test("memq, memv and %member return the tail or #f", (t) => {
  const l = list(sym("x"), sym("y"), sym("z"));
  t.is(call("memq", sym("y"), l), l.cdr);
  t.is(call("memq", sym("w"), l), false);
  t.is(call("memq", list(sym("x")), list(1, list(sym("x")))), false);
  t.is(call("memv", 2n ** 80n, list(1, 2n ** 80n)).car, 2n ** 80n);
  t.is(call("memv", new Flonum(2), list(1, 2)), false);
  t.is(call("memv", new Flonum(2), list(1, new Flonum(2))).car.v, 2);
  t.is(call("memq", new Flonum(2), list(new Flonum(2))), false);
  const m = list(sym("p"), list(sym("x")), sym("q"));
  t.is(call("%member", list(sym("x")), m), m.cdr);
  t.is(call("%member", new MString("b"), list(new MString("a"), new MString("b"))).car.toString(), "b");
  t.is(call("%member", 1, NIL), false);
});

test("member-style searches raise on improper and circular lists instead of looping", (t) => {
  t.is(raised(() => call("memq", 9, new Pair(1, 2))).kind, "type");
  t.is(raised(() => call("memv", 9, cycle(1, 2, 3))).kind, "type");
  t.regex(raised(() => call("%member", 9, cycle(1))).message, /^bad argument #2 to 'member'/);
  // Found before the cycle is noticed: fine.
  t.is(call("memv", 2, cycle(1, 2, 3)).car, 2);
});

test("assq, assv and %assoc return the entry or #f", (t) => {
  const e = list(sym("y"), 2);
  const al = list(list(sym("x"), 1), e, list(sym("z"), 3));
  t.is(call("assq", sym("y"), al), e);
  t.is(call("assq", sym("w"), al), false);
  t.is(call("assq", sym("x"), NIL), false);
  t.is(call("assv", 7, list(list(5, 1), list(7, 2))).cdr.car, 2);
  t.is(call("assq", list(sym("x")), list(list(list(sym("x")), 1))), false);
  t.is(call("%assoc", list(sym("x")), list(list(list(sym("x")), 1))).cdr.car, 1);
  t.is(call("%assoc", new MString("y"), list(new Pair(new MString("x"), 1), new Pair(new MString("y"), 2))).cdr, 2);
});

test("assq and friends reject entries that are not pairs, improper and circular lists", (t) => {
  const c = raised(() => call("assq", sym("b"), list(new Pair(sym("a"), 1), 5)));
  t.is(c.kind, "type");
  t.regex(c.message, /^bad argument #2 to 'assq' \(association list/);
  t.is(raised(() => call("assv", 1, new Pair(new Pair(2, 3), 4))).kind, "type");
  t.regex(raised(() => call("%assoc", 1, cycle(new Pair(2, 3)))).message, /'assoc'/);
});

test("100,000-element lists: no JS recursion anywhere", (t) => {
  const n = 100_000;
  const xs = Array.from({ length: n }, (_, i) => n - i);
  const big = arrayToList(xs);
  t.is(call("length", big), n);
  t.is(call("length", call("append", big, big)), 2 * n);
  t.is(call("reverse", big).car, 1);
  t.is(call("length", call("list-copy", big)), n);
  t.is(call("list-ref", big, n - 1), 1);
  t.is(call("list-tail", big, n - 1).car, 1);
  t.is(call("memv", 1, big).car, 1);
  const al = arrayToList(xs.map((x) => list(x, x)));
  t.is(call("assv", 1, al).car, 1);
  t.is(call("%assoc", 1, al).car, 1);
  t.is(call("length", call("make-list", n, 0)), n);
  t.true(call("list?", big));
});

test("list procedures agree with their array counterparts", (t) => {
  const ints = fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 30 });
  fc.assert(
    fc.property(ints, ints, fc.nat(40), fc.integer({ min: -5, max: 5 }), (xs, ys, k, x) => {
      const l = arrayToList(xs);
      t.is(call("length", l), xs.length);
      t.deepEqual(arr(call("append", l, arrayToList(ys))), xs.concat(ys));
      t.deepEqual(arr(call("reverse", l)), xs.slice().reverse());
      t.deepEqual(arr(call("list-copy", l)), xs);
      if (k <= xs.length) t.deepEqual(arr(call("list-tail", l, k)), xs.slice(k));
      else t.is(raised(() => call("list-tail", l, k)).kind, "range");
      if (k < xs.length) t.is(call("list-ref", l, k), xs[k]);
      else t.is(raised(() => call("list-ref", l, k)).kind, "range");
      const i = xs.indexOf(x);
      const found = call("memv", x, l);
      if (i < 0) t.is(found, false);
      else t.deepEqual(arr(found), xs.slice(i));
      const al = arrayToList(xs.map((v, j) => new Pair(v, j)));
      const entry = call("assv", x, al);
      if (i < 0) t.is(entry, false);
      else t.is(entry.cdr, i);
    }),
    { numRuns: 300 },
  );
});
