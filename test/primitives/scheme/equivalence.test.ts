// The equivalence predicates as Scheme sees them (the algorithms are tested in interpreter/values/equal.test.ts).
import test from "ava";
import {
  Pair,
  NIL,
  list,
  char,
  MString,
  Flonum,
  Ratnum,
} from "../../../interpreter/api.js";
import { call, raised, ctx } from "../../helpers/prim.js";

const sym = (s: string) => ctx.symbols.intern(s);

test("eqv? on the R7RS examples", (t) => {
  t.true(call("eqv?", sym("a"), sym("a")));
  t.false(call("eqv?", sym("a"), sym("b")));
  t.true(call("eqv?", 2, 2));
  t.false(call("eqv?", 2, new Flonum(2)));
  t.true(call("eqv?", NIL, NIL));
  t.true(call("eqv?", 100000000n * 100000000n * 1000n, 10n ** 19n));
  t.false(call("eqv?", new Flonum(0), new Flonum(-0)));
  t.true(call("eqv?", new Ratnum(1n, 2n), new Ratnum(1n, 2n)));
  t.false(call("eqv?", new Pair(1, 2), new Pair(1, 2)));
  t.false(call("eqv?", false, NIL));
  t.true(call("eqv?", char(0x1f600), char(0x1f600)));
  t.false(call("eqv?", new MString(""), new MString("")));
  const p = list(1);
  t.true(call("eqv?", p, p));
});

test("eq? is identity", (t) => {
  t.true(call("eq?", sym("mango"), sym("mango")));
  t.true(call("eq?", NIL, NIL));
  t.false(call("eq?", list(1), list(1)));
  t.true(call("eq?", 7, 7));
  t.true(call("eq?", char(97), char(97)));
  t.false(call("eq?", new Flonum(1), new Flonum(1)));
});

test("equal? compares structure", (t) => {
  t.true(call("equal?", list(sym("a"), [1, new MString("x")]), list(sym("a"), [1, new MString("x")])));
  t.false(call("equal?", new MString("abc"), new MString("abC")));
  t.true(call("equal?", Uint8Array.of(1, 2), Uint8Array.of(1, 2)));
  t.false(call("equal?", 2, new Flonum(2)));
  const c1 = list(1, 2);
  (c1.cdr as Pair).cdr = c1;
  const c2 = list(1, 2);
  (c2.cdr as Pair).cdr = c2;
  t.true(call("equal?", c1, c2));
});

test("the three predicates take exactly two arguments and never return undefined", (t) => {
  for (const name of ["eqv?", "eq?", "equal?"]) {
    t.is(raised(() => call(name, 1)).kind, "arity");
    t.is(raised(() => call(name, 1, 2, 3)).kind, "arity");
    t.is(typeof call(name, 1, 2), "boolean");
  }
});
