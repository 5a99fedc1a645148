// fs-read, fs-find and index-grep as table entries: Scheme results in SRFI 180's mapping, conditions, rendering.
import test from "ava";
import {
  MString,
  SchemeError,
  SymbolTable,
  specArity,
  argError,
  writeToString,
  type Condition,
  type Ctx,
} from "../../../interpreter/api.js";
import { CheckerRegistry, createGuard, denyVerdict, type GuardDecision } from "../../../host/guard/index.js";
import { createSearchEngine } from "../../../host/search/index.js";
import { fileToolPrimitives, toolArgName, type AgentToolSpec, type FileToolServices } from "../../../primitives/agent/index.js";
import { makeTree, type Node } from "../../host/guard/tree.js";

const ctx = { symbols: new SymbolTable(), files: null, process: null } as unknown as Ctx;

function setup(t: { teardown(fn: () => void): void }, files: Record<string, Node>, extra: Partial<FileToolServices> = {}, checkers?: CheckerRegistry) {
  const tree = makeTree(files);
  t.teardown(tree.cleanup);
  const log: GuardDecision[] = [];
  const guard = createGuard({ root: tree.root, log: (d) => log.push(d), checkers });
  const services: FileToolServices = { root: guard.root, guard, search: createSearchEngine(guard), actor: () => "model", ...extra };
  const specs = fileToolPrimitives(services);
  /** Calls an entry as the registration layer does: arity and types checked, optionals padded with undefined. */
  const call = async (name: string, ...args: any[]): Promise<any> => {
    const s = specs.find((x) => x.name === name) as AgentToolSpec;
    const { min, max } = specArity(s.params);
    if (args.length < min || args.length > max) throw new Error(`${name}: ${args.length} arguments`);
    args.forEach((a, i) => {
      const ty = s.types?.[i];
      if (ty && !ty.test(a)) argError(name, i + 1, ty.name, a);
    });
    while (args.length < max) args.push(undefined);
    return s.impl.apply(ctx, args);
  };
  const spec = (name: string) => specs.find((x) => x.name === name) as AgentToolSpec;
  return { call, spec, log, root: tree.root };
}

const S = (s: string) => new MString(s);

/** The condition a call raised. */
async function raised(t: { fail(m: string): void }, p: Promise<unknown> | (() => Promise<unknown>)): Promise<Condition> {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (e) {
    if (e instanceof SchemeError) return e.condition;
    throw e;
  }
  t.fail("no condition was raised");
  throw new Error("unreachable");
}

test("the table: three entries, each a procedure and a model tool with matching argument names", (t) => {
  const { spec } = setup(t, {});
  for (const name of ["fs-read", "fs-find", "index-grep"]) {
    const s = spec(name);
    t.true(s.doc.length > 100, name);
    t.true(s.async === true);
    t.true(s.tool.description.length > 20);
    const schema = s.tool.inputSchema as { properties: Record<string, unknown>; required: string[] };
    t.deepEqual(Object.keys(schema.properties), s.params.map(toolArgName));
    t.deepEqual(schema.required, s.params.filter((p) => !p.startsWith("[")));
  }
  t.deepEqual(spec("index-grep").params, ["path", "pattern", "[glob]", "[context]"]);
});

test("index-grep returns an alist in SRFI 180's mapping", async (t) => {
  const { call } = setup(t, { "a.ts": "one\nconst x = 3;\n", "b.bin": Uint8Array.from([0, 1, 2]) });
  const r = await call("index-grep", S("."), S("const"));
  t.is(
    writeToString(r),
    // ((matches . #(…)) (files . 1) (skipped . ((binary . 1))) (truncated . #f)), as `write` prints it.
    '((matches . #(((path . "a.ts") (line . 2) (text . "const x = 3;")))) (files . 1) (skipped (binary . 1)) (truncated . #f))',
  );
});

test("index-grep with a glob and context: before and after are vectors of lines; #f stands for no glob", async (t) => {
  const { call } = setup(t, { "a.ts": "1\n2\nhit\n4\n", "b.md": "hit\n" });
  const r = await call("index-grep", S("."), S("hit"), S("*.ts"), 1);
  t.is(
    writeToString(r),
    '((matches . #(((path . "a.ts") (line . 3) (text . "hit") (before . #("2")) (after . #("4"))))) (files . 1) (skipped) (truncated . #f))',
  );
  const r2 = await call("index-grep", S("."), S("hit"), false, 0);
  t.regex(writeToString(r2), /\(files \. 2\)/);
});

test("an empty match list is an ordinary result", async (t) => {
  const { call, spec } = setup(t, { "a.ts": "x" });
  const r = await call("index-grep", S("."), S("nothing here"));
  t.is(writeToString(r), "((matches . #()) (files . 1) (skipped) (truncated . #f))");
  t.is(spec("index-grep").render(r), "no matches\n[1 file searched]");
});

test("index-grep errors are conditions with stable codes", async (t) => {
  const { call } = setup(t, { "a.ts": "x", ".env": "K=1" });
  const bad = await raised(t, call("index-grep", S("."), S("(a)\\1")));
  t.is(bad.kind, "host");
  t.is(bad.code, "bad-pattern");
  t.is(bad.who, "index-grep");
  const long = await raised(t, call("index-grep", S("."), S("x".repeat(5000))));
  t.is(long.code, "pattern-too-long");
  const denied = await raised(t, call("index-grep", S(".env"), S("K")));
  t.is(denied.code, "guard-denied");
  t.regex(denied.message, /denylist/);
  const ctxErr = await raised(t, call("index-grep", S("."), S("x"), false, 6));
  t.is(ctxErr.kind, "range");
  t.regex(ctxErr.message, /bad argument #4 to 'index-grep' \(context must be 0 to 5\)/);
  const typeErr = await raised(t, async () => call("index-grep", S("."), 42));
  t.is(typeErr.kind, "type");
  t.regex(typeErr.message, /bad argument #2 to 'index-grep' \(string expected, got 42\)/);
  const missing = await raised(t, call("index-grep", S("nope"), S("x")));
  t.is(missing.kind, "file");
  t.is(missing.code, "not-found");
});

test("index-grep stops at a file the guard denies", async (t) => {
  const checkers = new CheckerRegistry();
  checkers.register("no-b", (p) => (p === "b.ts" ? denyVerdict("b is generated") : "allow"));
  const { call } = setup(t, { "a.ts": "x", "b.ts": "x" }, {}, checkers);
  const c = await raised(t, call("index-grep", S("."), S("x")));
  t.is(c.code, "guard-denied");
  t.regex(c.message, /access to "b\.ts" denied \(checker, checker no-b\): b is generated/);
  t.is((c.irritants[0] as MString).toString(), "b.ts");
});

test("the search stops with the evaluation's signal", async (t) => {
  const ac = new AbortController();
  ac.abort();
  const { call } = setup(t, { "a.ts": "x" }, { signal: () => ac.signal });
  const c = await raised(t, call("index-grep", S("."), S("x")));
  t.is(c.code, "aborted");
});

test("the actor comes from the services and is logged", async (t) => {
  const { call, log } = setup(t, { "a.ts": "x" });
  await call("index-grep", S("."), S("x"));
  await call("fs-read", S("a.ts"));
  t.deepEqual(
    log.map((d) => d.actor),
    ["model", "model"],
  );
});

test("index-grep renders as ripgrep does, context merged, with a footer", async (t) => {
  const { call, spec } = setup(t, { "a.ts": "1\nhit2\nhit3\n4\n5\n6\n7\nhit8\n", "b.ts": "hit\n", "c.bin": "\u0000" });
  const r = await call("index-grep", S("."), S("hit"), false, 1);
  t.is(
    spec("index-grep").render(r),
    ["a.ts-1-1", "a.ts:2:hit2", "a.ts:3:hit3", "a.ts-4-4", "--", "a.ts-7-7", "a.ts:8:hit8", "--", "b.ts:1:hit", "[2 files searched; skipped: binary 1]"].join("\n"),
  );
  const plain = await call("index-grep", S("b.ts"), S("hit"));
  t.is(spec("index-grep").render(plain), "b.ts:1:hit\n[1 file searched]");
});

test("index-grep renders truncation and withheld files", async (t) => {
  const checkers = new CheckerRegistry();
  checkers.register("gen", (p) => (p === "a-gen.ts" ? "ask" : "allow"));
  const { call, spec } = setup(t, { "a.ts": "hit\n".repeat(101), "a-gen.ts": "hit" }, {}, checkers);
  const r = await call("index-grep", S("."), S("hit"));
  const text = spec("index-grep").render(r);
  t.regex(text, /\[1 file searched; skipped: withheld 1; left out \(a checker asked and no one could answer\): a-gen\.ts; truncated: more matches than shown/);
  t.is(text.split("\n").length, 101);
});

test("fs-find returns the files and skips, and renders them one per line", async (t) => {
  const { call, spec } = setup(t, { "src/a.ts": "", "src/b.md": "", "l": { link: "src" }, "k.pem": "" });
  const r = await call("fs-find", S("."), S("*.ts"));
  t.is(writeToString(r), '((files . #("src/a.ts")) (skipped))');
  const all = await call("fs-find", S("."));
  t.is(writeToString(all), '((files . #("src/a.ts" "src/b.md")) (skipped (nonregular . 1) (protected . 1)))');
  t.is(spec("fs-find").render(all), "src/a.ts\nsrc/b.md\n[2 files; skipped: nonregular 1, protected 1]");
  const none = await call("fs-find", S("src"), S("*.go"));
  t.is(spec("fs-find").render(none), "no files");
});

test("fs-find's file cap is an error condition", async (t) => {
  const files: Record<string, Node> = {};
  for (let i = 0; i < 5; i++) files[`f${i}.txt`] = "";
  const tree = makeTree(files);
  t.teardown(tree.cleanup);
  const guard = createGuard({ root: tree.root });
  const [, find] = fileToolPrimitives({ root: guard.root, guard, search: createSearchEngine(guard, { maxFiles: 3 }) });
  const c = await raised(t, (find as AgentToolSpec).impl.call(ctx, S("."), undefined));
  t.is(c.code, "too-many-files");
  t.regex((find as AgentToolSpec).doc, /More than 3 files is an error/);
});

test("fs-read returns the whole text, exactly, with its line numbers", async (t) => {
  const { call, spec } = setup(t, { "a.txt": "one\ntwo\nthree\n" });
  const r = await call("fs-read", S("a.txt"));
  t.is(writeToString(r), '((path . "a.txt") (start . 1) (end . 3) (total . 3) (truncated . #f) (text . "one\\ntwo\\nthree\\n"))');
  t.is(spec("fs-read").render(r), "one\ntwo\nthree\n");
});

test("fs-read ranges: start and count, past the end, and zero lines", async (t) => {
  const { call, spec } = setup(t, { "a.txt": "1\n2\n3\n4\n5" });
  const r = await call("fs-read", S("./a.txt"), 2, 2);
  t.is(writeToString(r), '((path . "a.txt") (start . 2) (end . 3) (total . 5) (truncated . #f) (text . "2\\n3\\n"))');
  t.is(spec("fs-read").render(r), "[lines 2-3 of 5]\n2\n3\n");
  const tail = await call("fs-read", S("a.txt"), 4);
  t.is(spec("fs-read").render(tail), "[lines 4-5 of 5]\n4\n5");
  const past = await call("fs-read", S("a.txt"), 9);
  t.is(spec("fs-read").render(past), "[no lines: a.txt has 5 lines; asked from line 9]");
  const zero = await call("fs-read", S("a.txt"), 1, 0);
  t.regex(writeToString(zero), /\(end \. 0\) \(total \. 5\) \(truncated \. #f\) \(text \. ""\)/);
  const c = await raised(t, call("fs-read", S("a.txt"), 0));
  t.is(c.kind, "range");
});

test("fs-read caps: lines and characters, stopping at a whole line, and the file size", async (t) => {
  const body = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
  const { call, spec } = setup(t, { "a.txt": body, "big.txt": "x".repeat(300) }, { readLimits: { maxLines: 10, maxOutputChars: 40, maxFileBytes: 250 } });
  const r = await call("fs-read", S("a.txt"));
  // 40 characters hold five whole "line N\n" lines (7 characters each).
  t.regex(writeToString(r), /\(start \. 1\) \(end \. 5\) \(total \. 30\) \(truncated \. #t\)/);
  t.is(spec("fs-read").render(r), "[lines 1-5 of 30]\nline 1\nline 2\nline 3\nline 4\nline 5\n\n[truncated at the read cap: read on from line 6]");
  const big = await raised(t, call("fs-read", S("big.txt")));
  t.is(big.code, "file-too-large");
});

test("fs-read errors: denial, missing file, directory, not UTF-8, binary, outside the root", async (t) => {
  const { call } = setup(t, { ".env": "K=1", "d/x": "", "l.txt": Uint8Array.from([0xff, 0xfe]), "b.bin": "ab\u0000cd" });
  t.is((await raised(t, call("fs-read", S("b.bin")))).code, "binary-file");
  const denied = await raised(t, call("fs-read", S(".env")));
  t.is(denied.kind, "host");
  t.is(denied.code, "guard-denied");
  t.is(denied.who, "fs-read");
  t.is((await raised(t, call("fs-read", S("missing.txt")))).kind, "file");
  t.is((await raised(t, call("fs-read", S("d")))).code, "is-directory");
  t.is((await raised(t, call("fs-read", S("l.txt")))).code, "not-utf8");
  t.is((await raised(t, call("fs-read", S("../etc/passwd")))).code, "guard-denied");
});
