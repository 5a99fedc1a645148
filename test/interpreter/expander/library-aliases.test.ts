// Libraries that are other names of libraries, and libraries of TypeScript procedures (InterpreterOptions).
import test from "ava";
import { Interpreter, T, type ProcSpec } from "../../../interpreter/api.js";

const SPECS: ProcSpec[] = [
  { name: "twice", params: ["n"], types: [T.number], doc: "2n.", impl: (n: number) => 2 * n },
  { name: "pair-up", params: ["a", "[b]"], doc: "(a . b).", impl: (a: any, b: any) => [a, b ?? false] },
];

function interp(): Interpreter {
  return new Interpreter({
    primitiveLibraries: new Map([["my prims", SPECS]]),
    libraryAliases: new Map([
      ["my other-name", "my prims"],
      ["my chain", "my other-name"],
      ["my dangling", "my nowhere"],
    ]),
  });
}

test("a library of table entries is made when first imported, in its own environment, and binds each entry's name", async (t) => {
  const i = interp();
  t.is(i.builtins.table.get(i.symbols.intern("twice")), undefined, "not in the builtins");
  t.is(await i.evaluate("(import (my prims)) (twice 21)"), 42);
  t.is(i.library("(my prims)"), i.library("(my prims)"), "made once");
  t.deepEqual(await i.evaluate("(pair-up 1)"), [1, false]);
});

test("the registration layer checks the entries' arguments and names the procedure in its errors", async (t) => {
  const i = interp();
  const out = await i.evaluateOutcome("(import (my prims)) (twice 'x)");
  t.false(out.ok);
  t.is(out.ok ? "" : out.condition?.message, "bad argument #1 to 'twice' (number expected, got x)");
  const arity = await i.evaluateOutcome("(import (my prims)) (twice)");
  t.is(arity.ok ? "" : arity.condition?.kind, "arity");
});

test("an alias is the very library it names: the same bindings, and the two imported together are no conflict", async (t) => {
  const i = interp();
  t.is(i.library("(my other-name)"), i.library("(my prims)"));
  t.is(i.library("(my chain)"), i.library("(my prims)"), "an alias of an alias");
  const prog = await i.runProgram("(import (my prims) (my other-name) (prefix (my chain) c:)) (c:twice (twice 1))", "p.scm");
  t.true(prog.ok);
  t.is(prog.ok && prog.value, 4);
});

test("cond-expand's (library …) sees aliases and primitive libraries, not aliases of nothing", async (t) => {
  const i = interp();
  t.is(String(await i.evaluate("(cond-expand ((library (my prims)) 'yes) (else 'no))")), "yes");
  t.is(String(await i.evaluate("(cond-expand ((library (my chain)) 'yes) (else 'no))")), "yes");
  t.is(String(await i.evaluate("(cond-expand ((library (my dangling)) 'yes) (else 'no))")), "no");
  const out = await i.evaluateOutcome("(import (my dangling))");
  t.false(out.ok);
  t.regex(out.ok ? "" : String(out.condition?.message), /library \(my nowhere\) not found/);
});
