// Booleans: not, boolean?, boolean=? with two or more arguments.
import test from "ava";
import {
  NIL,
  MString,
  list,
} from "../../../interpreter/api.js";
import { call, raised, ctx } from "../../helpers/prim.js";

test("not is true only of #f", (t) => {
  t.true(call("not", false));
  for (const x of [true, 0, NIL, new MString(""), [], list(1), ctx.symbols.intern("false")]) t.false(call("not", x));
});

test("boolean? is true only of #t and #f", (t) => {
  t.true(call("boolean?", true));
  t.true(call("boolean?", false));
  for (const x of [0, 1, NIL, ctx.symbols.intern("f")]) t.false(call("boolean?", x));
});

test("boolean=? compares two or more booleans", (t) => {
  t.true(call("boolean=?", true, true));
  t.true(call("boolean=?", false, false, false));
  t.false(call("boolean=?", true, false));
  t.false(call("boolean=?", true, true, false));
  t.false(call("boolean=?", false, true, true));
});

test("boolean=? rejects non-booleans, naming the argument", (t) => {
  const e = raised(() => call("boolean=?", true, true, 1));
  t.is(e.kind, "type");
  t.regex(e.message, /^bad argument #3 to 'boolean=\?' \(boolean expected/);
  t.is(raised(() => call("boolean=?", NIL, false)).kind, "type");
});
