// Booleans: not, boolean?, boolean=? with two or more arguments.
import test from "ava";
import {
  SymbolTable,
  SchemeError,
  NIL,
  MString,
  list,
  specArity,
  argError,
  type Condition,
  type Ctx,
} from "../../../interpreter/api.js";
import { booleanPrimitives } from "../../../primitives/scheme/booleans.js";

// These primitives use only the symbol table of their context.
const ctx = { symbols: new SymbolTable(), files: null, process: null } as unknown as Ctx;

/** Calls a table entry as the registration layer does: count, types, optionals padded, rest as one array. */
function call(name: string, ...args: any[]): any {
  const spec = booleanPrimitives.find((s) => s.name === name);
  if (!spec) throw new Error(`no primitive ${name}`);
  const { min, max, rest } = specArity(spec.params);
  if (args.length < min || (max >= 0 && args.length > max)) throw new Error(`${name}: ${args.length} arguments`);
  args.forEach((a, i) => {
    const ty = spec.types?.[Math.min(i, spec.params.length - 1)];
    if (ty && !ty.test(a)) argError(name, i + 1, ty.name, a);
  });
  const fixed = rest ? spec.params.length - 1 : max;
  const a = args.slice(0, fixed);
  while (a.length < fixed) a.push(undefined);
  if (rest) a.push(args.slice(fixed));
  const r = spec.impl.apply(ctx, a);
  if (r === undefined) throw new Error(`${name} returned undefined`);
  return r;
}

/** The condition raised by fn. */
function raised(fn: () => unknown): Condition {
  try {
    fn();
  } catch (e) {
    if (e instanceof SchemeError) return e.condition;
    throw e;
  }
  throw new Error("expected a Scheme error");
}

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
