// SRFI 180's JSON mapping both ways, tool-call argument mapping, and the Scheme forms of checker verdicts.
import test from "ava";
import { Flonum, MString, NIL, SymbolTable, list, cons, writeToString, type Ctx } from "../../../interpreter/api.js";
import {
  jsonToScheme,
  schemeToJson,
  toolCallArgs,
  verdictFromScheme,
  checkerInfoToScheme,
  schemeChecker,
  type AgentToolSpec,
} from "../../../primitives/agent/index.js";

const symbols = new SymbolTable();
const ctx = { symbols, files: null, process: null } as unknown as Ctx;
const sym = (s: string) => symbols.intern(s);

test("objects are alists with symbol keys, arrays vectors, null the symbol null", (t) => {
  const v = jsonToScheme(ctx, { a: 1, b: [true, false, null], c: { d: "x" }, e: 1.5, skip: undefined, n: {} });
  // As `write` prints it: (c . ((d . "x"))) is the list (c (d . "x")), and an empty object '() makes (n).
  t.is(writeToString(v), '((a . 1) (b . #(#t #f null)) (c (d . "x")) (e . 1.5) (n))');
  t.is((v as any).cdr.cdr.cdr.car.cdr, 1.5); // a bare flonum (ADR 0046)
});

test("integers are exact, other numbers inexact; -0 is inexact", (t) => {
  t.is(jsonToScheme(ctx, 42), 42);
  t.true(jsonToScheme(ctx, 2 ** 60) instanceof Flonum);
  t.true(jsonToScheme(ctx, -0) instanceof Flonum);
  t.throws(() => jsonToScheme(ctx, NaN), { instanceOf: TypeError });
  t.throws(() => jsonToScheme(ctx, () => 1), { instanceOf: TypeError });
});

test("round trip back to plain JSON", (t) => {
  const plain = { matches: [{ path: "a.ts", line: 3, text: "x", before: ["1"] }], files: 12, skipped: { binary: 1 }, truncated: false, none: null, f: 0.5, empty: {} };
  t.deepEqual(schemeToJson(jsonToScheme(ctx, plain)), plain);
});

test("schemeToJson refuses what is not in the mapping", (t) => {
  t.throws(() => schemeToJson(list(1, 2)), { message: /not a JSON object/ });
  t.throws(() => schemeToJson(cons(cons(sym("a"), 1), 2)), { message: /improper/ });
  t.throws(() => schemeToJson(sym("other")), { message: /not a JSON value/ });
  t.deepEqual(schemeToJson(NIL), {});
});

test("deep nesting is bounded", (t) => {
  let v: unknown = 1;
  for (let i = 0; i < 300; i++) v = [v];
  t.throws(() => jsonToScheme(ctx, v), { message: /nested deeper/ });
});

test("a tool call's arguments become positional Scheme arguments, a skipped optional as #f", (t) => {
  const spec = { name: "index-grep", params: ["path", "pattern", "[glob]", "[context]"] } as unknown as AgentToolSpec;
  t.is(writeToString(toolCallArgs(ctx, spec, { path: ".", pattern: "x" })), '#("." "x")');
  t.is(writeToString(toolCallArgs(ctx, spec, { path: ".", pattern: "x", context: 2 })), '#("." "x" #f 2)');
  t.is(writeToString(toolCallArgs(ctx, spec, { path: ".", pattern: "x", glob: "*.ts", context: 2 })), '#("." "x" "*.ts" 2)');
  t.throws(() => toolCallArgs(ctx, spec, { pattern: "x" }), { message: /missing argument path/ });
});

test("checker verdicts in Scheme: allow, ask, deny, with reasons; anything else denies", (t) => {
  t.is(verdictFromScheme(sym("allow"), "c"), "allow");
  t.is(verdictFromScheme(sym("ask"), "c"), "ask");
  t.deepEqual(verdictFromScheme(sym("deny"), "c"), { deny: true, reason: "denied by checker c" });
  t.deepEqual(verdictFromScheme(list(sym("deny"), new MString("generated")), "c"), { deny: true, reason: "generated" });
  t.deepEqual(verdictFromScheme(list(sym("ask"), new MString("large")), "c"), { ask: true, reason: "large" });
  for (const bad of [true, false, 1, list(sym("deny")), list(sym("allow"), new MString("x")), sym("yes")]) {
    const v = verdictFromScheme(bad, "c");
    t.true(typeof v === "object" && "deny" in v, writeToString(bad));
  }
  t.regex((verdictFromScheme(true, "c") as { reason: string }).reason, /checker c returned #t, which is not a verdict/);
});

test("a checker's info reaches Scheme as an alist", (t) => {
  const info = checkerInfoToScheme(ctx, { size: 10, mtimeMs: 1700000000123.7, kind: "file", relPath: "a/b.ts", absPath: "/r/a/b.ts", actor: "model" });
  t.is(writeToString(info), '((size . 10) (mtime . 1700000000123) (kind . "file") (path . "a/b.ts") (absolute-path . "/r/a/b.ts") (actor . "model"))');
});

test("schemeChecker wraps a procedure call into a guard checker", async (t) => {
  const seen: string[] = [];
  const fn = schemeChecker(ctx, "gen", (path, info) => {
    seen.push(`${path.toString()} ${writeToString(info).slice(0, 11)}`);
    return path.toString().startsWith("gen/") ? list(sym("deny"), new MString("generated")) : sym("allow");
  });
  const info = { size: 1, mtimeMs: 0, kind: "file" as const, relPath: "", absPath: "/x", actor: "a" };
  t.is(await fn("src/a.ts", { ...info, relPath: "src/a.ts" }), "allow");
  t.deepEqual(await fn("gen/b.ts", { ...info, relPath: "gen/b.ts" }), { deny: true, reason: "generated" });
  t.deepEqual(seen, ["src/a.ts ((size . 1)", "gen/b.ts ((size . 1)"]);
});

test("schemeToJson refuses the numbers SRFI 180's json-write refuses (one rule, primitives/srfi/json.ts)", (t) => {
  t.throws(() => schemeToJson(Infinity), { message: /\+inf\.0 has no JSON form/ });
  t.throws(() => schemeToJson(NaN), { message: /\+nan\.0 has no JSON form/ });
  t.is(schemeToJson(2.5), 2.5);
  t.is(schemeToJson(new Flonum(2)), 2);
});
