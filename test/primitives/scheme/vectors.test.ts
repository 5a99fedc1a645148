// Vectors: access with range checks, conversions with optional start/end, overlap-safe copying.
import test from "ava";
import fc from "fast-check";
import {
  NIL,
  Pair,
  arrayToList,
  listToArray,
  UNSPECIFIED,
} from "../../../interpreter/api.js";
import { call, raised, ctx } from "../../helpers/prim.js";

const sym = (s: string) => ctx.symbols.intern(s);

test("vector?, make-vector, vector, vector-length", (t) => {
  t.true(call("vector?", [1]));
  t.false(call("vector?", arrayToList([1])));
  t.false(call("vector?", new Uint8Array(1)));
  t.deepEqual(call("make-vector", 3, sym("a")), [sym("a"), sym("a"), sym("a")]);
  t.deepEqual(call("make-vector", 2), [false, false]);
  t.is(call("vector-length", call("make-vector", 0)), 0);
  const shared = arrayToList([1]);
  const v = call("make-vector", 2, shared);
  t.is(v[0], v[1]);
  t.deepEqual(call("vector", sym("x"), 1), [sym("x"), 1]);
  t.deepEqual(call("vector"), []);
  t.is(raised(() => call("make-vector", -1)).kind, "type");
  // Too large for the memory budget: refused before anything is allocated (ADR 0006).
  t.is(raised(() => call("make-vector", 2 ** 40)).code, "memory");
  t.is(raised(() => call("vector-length", NIL)).kind, "type");
});

test("vector-ref and vector-set! check the index", (t) => {
  const v = [2, 3, 5, 7, 11, 13];
  t.is(call("vector-ref", v, 4), 11);
  const e = raised(() => call("vector-ref", [1, 2, 3], 3));
  t.is(e.kind, "range");
  t.is(e.message, "bad argument #2 to 'vector-ref' (index 3 out of range [0, 3))");
  t.is(raised(() => call("vector-ref", [1, 2, 3], -1)).kind, "type");
  t.is(raised(() => call("vector-ref", [1, 2, 3], 2n ** 70n)).kind, "type");
  const w = [1, 2, 3];
  t.is(call("vector-set!", w, 2, sym("x")), UNSPECIFIED);
  t.deepEqual(w, [1, 2, sym("x")]);
  t.is(raised(() => call("vector-set!", [1, 2], 2, 0)).kind, "range");
});

test("vector->list and list->vector", (t) => {
  const v = [sym("tick"), sym("tock"), sym("tick")];
  t.deepEqual(listToArray(call("vector->list", v)), v);
  t.deepEqual(listToArray(call("vector->list", v, 1)), v.slice(1));
  t.deepEqual(listToArray(call("vector->list", [1, 2, 3, 4], 1, 3)), [2, 3]);
  t.is(call("vector->list", []), NIL);
  t.is(call("vector->list", [1, 2], 2), NIL);
  t.is(raised(() => call("vector->list", [1, 2], 3)).kind, "range");
  t.is(raised(() => call("vector->list", [1, 2], 1, 0)).kind, "range");
  t.deepEqual(call("list->vector", arrayToList([1, 2])), [1, 2]);
  t.deepEqual(call("list->vector", NIL), []);
  t.is(raised(() => call("list->vector", new Pair(1, 2))).kind, "type");
  const circ = arrayToList([1, 2]) as Pair;
  (circ.cdr as Pair).cdr = circ;
  t.is(raised(() => call("list->vector", circ)).kind, "type");
  const big = arrayToList(Array.from({ length: 100_000 }, (_, i) => i));
  t.is(call("list->vector", big).length, 100_000);
  t.is(listToArray(call("vector->list", call("make-vector", 100_000, 0)))?.length, 100_000);
});

test("vector-copy is shallow and takes a range", (t) => {
  const inner = arrayToList([1]);
  const a = [1, inner, 3];
  const b = call("vector-copy", a);
  t.not(b, a);
  t.deepEqual(b, a);
  t.is(b[1], inner);
  b[0] = sym("x");
  t.is(a[0], 1);
  t.deepEqual(call("vector-copy", [1, 2, 3], 1), [2, 3]);
  t.deepEqual(call("vector-copy", [1, 2, 3, 4], 1, 3), [2, 3]);
  t.is(raised(() => call("vector-copy", [1, 2, 3], 1, 4)).kind, "range");
});

test("vector-copy! handles overlap in both directions", (t) => {
  const v = [1, 2, 3, 4, 5];
  t.is(call("vector-copy!", v, 1, [sym("a"), sym("b")]), UNSPECIFIED);
  t.deepEqual(v, [1, sym("a"), sym("b"), 4, 5]);
  const w = [1, 2, 3, 4, 5];
  call("vector-copy!", w, 0, [sym("a"), sym("b"), sym("c"), sym("d")], 2, 4);
  t.deepEqual(w, [sym("c"), sym("d"), 3, 4, 5]);
  const o = [1, 2, 3, 4, 5];
  call("vector-copy!", o, 1, o, 0, 3);
  t.deepEqual(o, [1, 1, 2, 3, 5]);
  const o2 = [1, 2, 3, 4, 5];
  call("vector-copy!", o2, 0, o2, 2);
  t.deepEqual(o2, [3, 4, 5, 4, 5]);
  const e = raised(() => call("vector-copy!", [1, 2], 1, [7, 8]));
  t.is(e.kind, "range");
  t.regex(e.message, /^bad argument #2 to 'vector-copy!'/);
  t.is(raised(() => call("vector-copy!", [1, 2], 3, [])).kind, "range");
  t.is(raised(() => call("vector-copy!", [1, 2], 0, [7, 8], 1, 3)).kind, "range");
});

test("vector-copy! agrees with copying through a temporary array", (t) => {
  const vec = fc.array(fc.integer(), { maxLength: 10 });
  fc.assert(
    fc.property(vec, vec, fc.nat(11), fc.nat(11), fc.nat(11), fc.boolean(), (x, y, at, start, end, same) => {
      const to = x.slice();
      const from = same ? to : y.slice();
      const src = from.slice();
      if (start <= end && end <= src.length && at <= to.length && end - start <= to.length - at) {
        const expected = to.slice();
        expected.splice(at, end - start, ...src.slice(start, end));
        call("vector-copy!", to, at, from, start, end);
        t.deepEqual(to, expected);
      } else t.is(raised(() => call("vector-copy!", to, at, from, start, end)).kind, "range");
    }),
    { numRuns: 500 },
  );
});

test("vector-append and vector-fill!", (t) => {
  t.deepEqual(call("vector-append", [sym("a")], [sym("b"), sym("c")], []), [sym("a"), sym("b"), sym("c")]);
  t.deepEqual(call("vector-append"), []);
  const v = [1, 2, 3];
  const r = call("vector-append", v);
  t.not(r, v);
  t.deepEqual(r, v);
  t.deepEqual(call("vector-append", [[1]], [[2]]), [[1], [2]]);
  t.is(raised(() => call("vector-append", [1], arrayToList([2]))).kind, "type");
  const f = [1, 2, 3];
  t.is(call("vector-fill!", f, sym("z")), UNSPECIFIED);
  t.deepEqual(f, [sym("z"), sym("z"), sym("z")]);
  const g = [1, 2, 3, 4];
  call("vector-fill!", g, sym("x"), 1, 3);
  t.deepEqual(g, [1, sym("x"), sym("x"), 4]);
  const h = [1, 2, 3, 4];
  call("vector-fill!", h, 0, 2);
  t.deepEqual(h, [1, 2, 0, 0]);
  t.is(raised(() => call("vector-fill!", [1], 0, 0, 2)).kind, "range");
});
