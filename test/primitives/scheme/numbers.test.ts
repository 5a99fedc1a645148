// The §6.2 primitive table: coverage of R7RS's procedure names, the entries' shape, and calls through the ProcSpec contract.
import test from "ava";
import { numberPrimitives } from "../../../primitives/scheme/numbers.js";
import {
  specArity,
  argError,
  MString,
  MultipleValues,
  SchemeError,
  type Ctx,
  type ProcSpec,
} from "../../../interpreter/api.js";
import { show, flo, rat } from "../../interpreter/values/numbers/show.js";

const table = new Map<string, ProcSpec>(numberPrimitives.map((p) => [p.name, p]));

/**
 * Calls an entry as procspec.ts describes the registration layer doing it:
 * arity from `params`, `types` checked (the rest type on every rest argument),
 * missing optionals passed as undefined, rest arguments as one array.
 */
function call(name: string, ...args: unknown[]): unknown {
  const spec = table.get(name);
  if (!spec) throw new Error(`no entry ${name}`);
  const { min, max, rest } = specArity(spec.params);
  if (args.length < min || (max >= 0 && args.length > max)) throw new Error(`arity: ${name} with ${args.length}`);
  const fixed = spec.params.filter((p) => !p.endsWith("...")).length;
  const check = (x: unknown, i: number, argNo: number) => {
    const ty = spec.types?.[i];
    if (ty && x !== undefined && !ty.test(x)) argError(name, argNo, ty.name, x);
  };
  const callArgs: unknown[] = [];
  for (let i = 0; i < fixed; i++) {
    check(args[i], i, i + 1);
    callArgs.push(args[i]);
  }
  if (rest) {
    const more = args.slice(fixed);
    more.forEach((x, j) => check(x, fixed, fixed + j + 1));
    callArgs.push(more);
  }
  return spec.impl.call({} as Ctx, ...callArgs);
}

/** The condition a call raises, or undefined. */
function fails(name: string, ...args: unknown[]) {
  try {
    call(name, ...args);
  } catch (e) {
    if (e instanceof SchemeError) return e.condition;
    throw e;
  }
  return undefined;
}

function values(x: unknown): string {
  return x instanceof MultipleValues ? `values${show(x.vals)}` : show(x);
}

// R7RS-small, §6.2.6 and (scheme inexact) / (scheme complex), as listed in the report's index.
const R7RS_NAMES = [
  "number?", "complex?", "real?", "rational?", "integer?", "exact?", "inexact?", "exact-integer?", "finite?",
  "infinite?", "nan?", "=", "<", ">", "<=", ">=", "zero?", "positive?", "negative?", "odd?", "even?", "max", "min",
  "+", "*", "-", "/", "abs", "floor/", "floor-quotient", "floor-remainder", "truncate/", "truncate-quotient",
  "truncate-remainder", "quotient", "remainder", "modulo", "gcd", "lcm", "numerator", "denominator", "floor",
  "ceiling", "truncate", "round", "rationalize", "exp", "log", "sin", "cos", "tan", "asin", "acos", "atan", "square",
  "sqrt", "exact-integer-sqrt", "expt", "make-rectangular", "make-polar", "real-part", "imag-part", "magnitude",
  "angle", "inexact", "exact", "number->string", "string->number",
];

test("every §6.2 procedure has exactly one entry", (t) => {
  for (const n of R7RS_NAMES) t.true(table.has(n), n);
  t.is(table.size, numberPrimitives.length, "duplicate names");
});

test("entries are well formed: a doc, parseable params, types aligned with params", (t) => {
  for (const p of numberPrimitives) {
    t.true(p.doc.length > 10 && p.doc.endsWith("."), `${p.name} doc`);
    const { min } = specArity(p.params);
    t.true(min >= 0);
    if (p.types) t.true(p.types.length <= p.params.length, `${p.name} types`);
    t.is(typeof p.impl, "function");
  }
});

test("+ - * / fold over any number of arguments", (t) => {
  t.is(show([call("+"), call("*")]), "[fix:0 fix:1]");
  t.is(show(call("+", 3)), "fix:3");
  t.is(show(call("+", 3, 4)), "fix:7");
  t.is(show(call("+", flo(1.5))), "flo:1.5");
  t.is(show(call("*", 4)), "fix:4");
  t.is(show(call("-", 3, 4)), "fix:-1");
  t.is(show(call("-", 3, 4, 5)), "fix:-6");
  t.is(show(call("-", 3)), "fix:-3");
  t.is(show(call("-", 10, 1, 2, 3)), "fix:4");
  t.is(show(call("-", flo(0))), "flo:-0");
  t.is(show(call("/", 3, 4, 5)), "rat:3/20");
  t.is(show(call("/", 3)), "rat:1/3");
  t.is(show(call("/", 1, 2, 2)), "rat:1/4");
  t.is(show(call("+", rat(1, 2), rat(1, 3))), "rat:5/6");
  t.is(show(call("*", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20)), `big:${2432902008176640000n}`);
  t.is(fails("/", 5, 0, 1)?.message, "division by zero");
  t.is(fails("/", 0)?.message, "division by zero");
});

test("argument types are checked before the implementation runs", (t) => {
  const c = fails("+", 1, 2, "x");
  t.is(c?.kind, "type");
  t.true(c?.message.startsWith("bad argument #3 to '+' (number expected"));
  t.true(fails("<", 1, "a")?.message.startsWith("bad argument #2 to '<' (real number expected"));
  t.true(fails("floor/", flo(1.5), 2)?.message.startsWith("bad argument #1 to 'floor/' (integer expected"));
  t.true(fails("exact-integer-sqrt", -1)?.message.startsWith("bad argument #1 to 'exact-integer-sqrt' (exact non-negative integer expected"));
  t.true(fails("numerator", flo(Infinity))?.message.startsWith("bad argument #1 to 'numerator' (rational number expected"));
});

test("comparisons chain over their arguments", (t) => {
  t.true(call("<", 1, 2, 3));
  t.false(call("<", 1, 1, 2));
  t.false(call("<", 1, 3, 2));
  t.true(call(">", flo(3), flo(2), flo(1)));
  t.false(call(">", flo(-3), flo(2), flo(1)));
  t.true(call("<=", 1, 1, 2));
  t.false(call("<=", 1, 2, 1));
  t.true(call(">=", 2, 1, 1));
  t.false(call(">=", 1, 2, 1));
  t.true(call("=", 1, flo(1), flo(1)));
  t.true(call("<", flo(-Infinity), flo(-1e308), flo(1e308), flo(Infinity)));
  t.false(call("=", flo(NaN), flo(NaN)));
  t.true(call("<", 5));
});

test("max and min over several arguments keep inexact contagion", (t) => {
  t.is(show(call("max", 3)), "fix:3");
  t.is(show(call("max", 5, flo(3.9), 4)), "flo:5");
  t.is(show(call("min", flo(-Infinity), -100)), "flo:-Infinity");
  t.is(show(call("max", 8, 5)), "fix:8");
});

test("floor/, truncate/ and exact-integer-sqrt return two values", (t) => {
  t.is(values(call("floor/", 5, 2)), "values[fix:2 fix:1]");
  t.is(values(call("floor/", -11, 4)), "values[fix:-3 fix:1]");
  t.is(values(call("truncate/", -5, 2)), "values[fix:-2 fix:-1]");
  t.is(values(call("truncate/", flo(-5), -2)), "values[flo:2 flo:-1]");
  t.is(values(call("exact-integer-sqrt", 4)), "values[fix:2 fix:0]");
  t.is(values(call("exact-integer-sqrt", 17)), "values[fix:4 fix:1]");
  t.is(show([call("floor-quotient", -7, 2), call("floor-remainder", -7, 2), call("truncate-quotient", -7, 2), call("truncate-remainder", -7, 2)]), "[fix:-4 fix:1 fix:-3 fix:-1]");
});

test("gcd and lcm take any number of arguments", (t) => {
  t.is(show([call("gcd"), call("lcm"), call("gcd", 32, -36), call("lcm", 32, -36), call("lcm", flo(32), -36)]), "[fix:0 fix:1 fix:4 fix:288 flo:288]");
  t.is(show(call("gcd", 12, 18, 8)), "fix:2");
  t.is(show(call("lcm", 2, 3, 4)), "fix:12");
  t.is(show(call("gcd", -5)), "fix:5");
});

test("the type predicates accept any object", (t) => {
  t.deepEqual(["number?", "complex?", "real?", "rational?", "integer?"].map((n) => call(n, 3)), [true, true, true, true, true]);
  t.false(call("number?", "a"));
  t.false(call("integer?", new MString("1")));
  t.deepEqual([call("exact-integer?", 32), call("exact-integer?", flo(32)), call("exact-integer?", rat(32, 5)), call("exact-integer?", "x")], [true, false, false, false]);
  t.deepEqual([call("exact?", flo(3)), call("inexact?", flo(3)), call("exact?", rat(1, 3))], [false, true, true]);
});

test("(scheme complex) on reals and on non-real numbers", (t) => {
  t.is(show([call("real-part", 5), call("imag-part", flo(2.5)), call("magnitude", -5), call("angle", 3)]), "[fix:5 fix:0 fix:5 fix:0]");
  t.is(show(call("angle", -1)), `flo:${Math.PI}`);
  t.is(show(call("make-rectangular", 1, 0)), "fix:1");
  t.is(show(call("make-polar", 2, 0)), "fix:2");
  t.is(show(call("make-rectangular", 3, 0)), "fix:3"); // an exact 0 imaginary part is a real
  t.is(show(call("make-rectangular", 1, 2)), "cpx:(fix:1 fix:2)");
  t.is(show(call("make-rectangular", 1, flo(2))), "cpx:(flo:1 flo:2)"); // one exactness for the whole number
  t.is(show(call("make-rectangular", rat(1, 2), -3)), "cpx:(rat:1/2 fix:-3)");
  t.is(show(call("make-polar", 1, flo(1))), `cpx:(flo:${Math.cos(1)} flo:${Math.sin(1)})`);
  const z = call("make-rectangular", 3, 4);
  t.is(show([call("real-part", z), call("imag-part", z), call("magnitude", z)]), "[fix:3 fix:4 fix:5]"); // |3+4i| = 5 exactly
  t.is(show(call("angle", call("make-rectangular", 0, 1))), `flo:${Math.PI / 2}`);
  t.is(show(call("magnitude", call("make-rectangular", 1, 1))), `flo:${Math.SQRT2}`);
  t.is(fails("make-rectangular", z, 1)?.kind, "type"); // the parts must be real
  t.deepEqual([call("complex?", z), call("real?", z), call("rational?", z), call("exact?", z)], [true, false, false, true]);
});

test("exact, inexact and their R5RS names", (t) => {
  t.is(show([call("exact", flo(2.5)), call("exact", flo(2)), call("inexact", rat(1, 4)), call("inexact", 1)]), "[rat:5/2 fix:2 flo:0.25 flo:1]");
  t.is(show([call("inexact->exact", flo(0.5)), call("exact->inexact", rat(1, 2))]), "[rat:1/2 flo:0.5]");
  t.is(fails("exact", flo(Infinity))?.kind, "range");
  t.is(fails("inexact->exact", flo(NaN))?.who, "inexact->exact");
});

test("number->string and string->number go through the number syntax module", (t) => {
  const str = (x: unknown) => (x instanceof MString ? x.toString() : x);
  t.is(str(call("number->string", 255, 16)), "ff");
  t.is(str(call("number->string", 10)), "10");
  t.is(str(call("number->string", rat(1, 3), 3)), "1/10");
  t.is(str(call("number->string", 2n ** 100n, 16)), "10000000000000000000000000");
  t.is(show(call("string->number", new MString("100"))), "fix:100");
  t.is(show(call("string->number", new MString("100"), 16)), "fix:256");
  t.is(show(call("string->number", new MString("1e2"))), "flo:100");
  t.is(call("string->number", new MString("abc")), false);
  t.is(fails("number->string", 10, 1)?.kind, "range");
  t.is(fails("string->number", new MString("10"), 37)?.kind, "range");
  t.is(fails("number->string", 10, flo(2))?.kind, "type");
});

test("the rest of §6.2 through the table", (t) => {
  t.is(show([call("floor", flo(-4.3)), call("ceiling", flo(-4.3)), call("truncate", flo(-4.3)), call("round", flo(-4.3))]), "[flo:-5 flo:-4 flo:-4 flo:-4]");
  t.is(show(call("round", rat(7, 2))), "fix:4");
  t.is(show(call("rationalize", rat(3, 10), rat(1, 10))), "rat:1/3");
  t.is(show([call("numerator", rat(6, 4)), call("denominator", flo(5.5))]), "[fix:6 flo:2]");
  t.is(show([call("sqrt", 16), call("sqrt", rat(1, 4)), call("expt", 2, -2), call("expt", flo(0), 0), call("square", 42)]), "[fix:4 rat:1/2 rat:1/4 flo:1 fix:1764]");
  t.is(show([call("exp", 0), call("log", 1), call("log", 100, 10), call("atan", 1, 1)]), `[flo:1 flo:0 flo:2 flo:${Math.PI / 4}]`);
  t.is(show([call("abs", -7), call("quotient", 17, -5), call("remainder", 17, -5), call("modulo", 17, -5)]), "[fix:7 fix:-3 fix:2 fix:-3]");
  t.deepEqual([call("zero?", flo(-0)), call("positive?", 0), call("negative?", flo(-0)), call("odd?", -3), call("even?", flo(4)), call("nan?", flo(NaN)), call("finite?", flo(Infinity)), call("infinite?", flo(-Infinity))], [true, false, false, true, true, true, false, true]);
  t.is(show(call("sqrt", -4)), "cpx:(fix:0 fix:2)"); // +2i, exact
  t.is(fails("exact-integer-sqrt", -4)?.who, "exact-integer-sqrt"); // stays real: still an error
  const c = fails("<", call("make-rectangular", 1, 1), 2);
  t.is(c?.kind, "type");
  t.regex(c?.message ?? "", /real number/);
});
