// The scan engine on real trees: walk order, skips and their counts, globs, context, limits, errors, cancellation.
//
// The suite runs twice (engine.test.ts, engine-thread.test.ts): reading in the
// main thread, and with every search handing its files to the reading thread.
import test from "ava";
import { rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  CheckerRegistry,
  createGuard,
  denyVerdict,
  GuardDeniedError,
  GuardFileError,
  type CheckerFn,
  type GuardDecision,
  type GuardOptions,
} from "../../../host/guard/index.js";
import { createSearchEngine, SearchError, type SearchEngine, type SearchEngineOptions, type SearchLimits } from "../../../host/search/index.js";
import { makeTree, mkfifo, type Node } from "../guard/tree.js";

export function engineSuite(options: SearchEngineOptions): void {

  function setup(
    t: { teardown(fn: () => void): void },
    spec: Record<string, Node>,
    opts: { limits?: Partial<SearchLimits>; checkers?: Record<string, CheckerFn>; guard?: Partial<GuardOptions> } = {},
  ) {
    const tree = makeTree(spec);
    t.teardown(tree.cleanup);
    const checkers = new CheckerRegistry();
    for (const [n, f] of Object.entries(opts.checkers ?? {})) checkers.register(n, f);
    const log: GuardDecision[] = [];
    const guard = createGuard({ root: tree.root, checkers, log: (d) => log.push(d), ...opts.guard });
    return { root: tree.root, guard, log, engine: engine(t, guard, opts.limits ?? {}) };
  }

  /** An engine of this suite's kind, its thread stopped at the end of the test. */
  function engine(t: { teardown(fn: () => void): void }, guard: Parameters<typeof createSearchEngine>[0], limits: Partial<SearchLimits> = {}): SearchEngine {
    const e = createSearchEngine(guard, limits, options);
    t.teardown(() => void e.close());
    return e;
  }

  const lines = (r: { matches: Array<{ path: string; line: number; text: string }> }) => r.matches.map((m) => `${m.path}:${m.line}:${m.text}`);

  test("discovery is in path order: each directory's names sorted by code point, depth first", async (t) => {
    const { engine } = setup(t, {
      "b.txt": "x",
      "a.txt": "x",
      "a/x.txt": "x",
      "a-b/y.txt": "x",
      "B.txt": "x",
      "a/z/deep.txt": "x",
      "é.txt": "x",
      "z.txt": "x",
    });
    const r = await engine.find(".");
    // As `rg --sort path` lists them: a/… before a-b/… before a.txt (component by component, not as whole strings).
    t.deepEqual(r.files, ["B.txt", "a/x.txt", "a/z/deep.txt", "a-b/y.txt", "a.txt", "b.txt", "z.txt", "é.txt"]);
  });

  test("index-grep results are sorted by path and line", async (t) => {
    const { engine } = setup(t, { "b.txt": "hit 1\nno\nhit 3\n", "a/c.txt": "hit\n", "a.txt": "x\nhit\n" });
    const r = await engine.grep(".", "hit");
    t.deepEqual(lines(r), ["a/c.txt:1:hit", "a.txt:2:hit", "b.txt:1:hit 1", "b.txt:3:hit 3"]);
    t.is(r.files, 3);
    t.false(r.truncated);
    t.deepEqual(r.skipped, {});
  });

  test("hidden entries below the path are neither listed nor counted; an explicit hidden path is searched", async (t) => {
    const { engine } = setup(t, { ".hidden/a.txt": "hit", ".dotfile": "hit", "d/.inner": "hit", "v.txt": "hit", ".config.json": "hit" });
    const r = await engine.grep(".", "hit");
    t.deepEqual(lines(r), ["v.txt:1:hit"]);
    t.deepEqual(r.skipped, {});
    t.deepEqual(lines(await engine.grep(".config.json", "hit")), [".config.json:1:hit"]);
    t.deepEqual(lines(await engine.grep(".hidden", "hit")), [".hidden/a.txt:1:hit"]);
  });

  test("symbolic links are never followed and count as nonregular; FIFOs too, without blocking", async (t) => {
    const outside = makeTree({ "o.txt": "hit" });
    t.teardown(outside.cleanup);
    const { engine } = setup(t, { "a.txt": "hit", "l.txt": { link: "a.txt" }, out: { link: outside.root }, p: { fifo: true } });
    const r = await engine.grep(".", "hit");
    t.deepEqual(lines(r), ["a.txt:1:hit"]);
    t.deepEqual(r.skipped, { nonregular: 3 });
    const f = await engine.find(".");
    t.deepEqual(f.files, ["a.txt"]);
    t.deepEqual(f.skipped, { nonregular: 3 });
  });

  test("binary, non-UTF-8, oversized and protected candidates are skipped and counted by reason", async (t) => {
    const { engine, log } = setup(
      t,
      {
        "bin.dat": Uint8Array.from([0x68, 0x69, 0x74, 0x00, 0x01]),
        "latin1.txt": Uint8Array.from([0x68, 0x69, 0x74, 0x20, 0xe9, 0x0a]),
        "big.txt": `hit ${"x".repeat(200)}\n`,
        "server.key": "hit",
        "prod.env": "hit",
        "ok.txt": "hit\n",
      },
      { limits: { maxFileBytes: 100 } },
    );
    const r = await engine.grep(".", "hit");
    t.deepEqual(lines(r), ["ok.txt:1:hit"]);
    t.is(r.files, 1);
    t.deepEqual(r.skipped, { binary: 1, oversized: 1, "non-utf8": 1, protected: 2 });
    // The refusals of protected files are logged; nothing was read of them.
    t.deepEqual(
      log.filter((d) => d.decision === "deny").map((d) => `${d.path} ${d.rule}`),
      ["prod.env denylist", "server.key denylist"],
    );
  });

  test("a NUL is binary in the first block (the rest is not read) or after it", async (t) => {
    const late = Buffer.concat([Buffer.from(`hit\n${"x".repeat(70 * 1024)}\n`), Buffer.from([0]), Buffer.from("hit\n")]);
    const early = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0]), Buffer.alloc(200 * 1024, 0x68)]);
    const { engine } = setup(t, { "late.txt": late, "early.bin": early, "ok.txt": "hit" });
    const r = await engine.grep(".", "hit");
    t.deepEqual(lines(r), ["ok.txt:1:hit"]);
    t.deepEqual(r.skipped, { binary: 2 });
  });

  test("fs-find leaves protected files out and counts them without logging a read", async (t) => {
    const { engine, log } = setup(t, { "a.ts": "", "server.pem": "", "secrets/x": "" }, { guard: { denylist: { add: ["secrets/"] } } });
    const r = await engine.find(".");
    t.deepEqual(r.files, ["a.ts"]);
    t.deepEqual(r.skipped, { protected: 2 });
    t.deepEqual(log, []);
  });

  test("no ignore file is read: a .gitignore'd file is a candidate", async (t) => {
    const { engine } = setup(t, { ".gitignore": "build/\n", "build/out.js": "hit", ".ignore": "*.js", ".rgignore": "*" });
    t.deepEqual(lines(await engine.grep(".", "hit")), ["build/out.js:1:hit"]);
  });

  test("every glob form selects files as ripgrep's --glob does", async (t) => {
    const { engine } = setup(t, {
      "a.ts": "",
      "a.js": "",
      "b.md": "",
      "ab.md": "",
      "src/x.ts": "",
      "src/sub/y.ts": "",
      "lib/src/z.ts": "",
      "tests/t1.py": "",
      "pkg/tests/t2.py": "",
      "vendor/v.go": "",
      "main.go": "",
    });
    const files = async (glob: string | string[], path = ".") => (await engine.find(path, { glob })).files;
    t.deepEqual(await files("*.ts"), ["a.ts", "lib/src/z.ts", "src/sub/y.ts", "src/x.ts"]);
    t.deepEqual(await files("?.md"), ["b.md"]);
    t.deepEqual(await files("[ab].*"), ["a.js", "a.ts", "b.md"]);
    t.deepEqual(await files("src/**/*.ts"), ["src/sub/y.ts", "src/x.ts"]);
    t.deepEqual(await files("*.{js,go}"), ["a.js", "main.go", "vendor/v.go"]);
    t.deepEqual(await files("tests"), ["pkg/tests/t2.py", "tests/t1.py"]);
    t.deepEqual(await files("!*.{ts,py,md}"), ["a.js", "main.go", "vendor/v.go"]);
    t.deepEqual(await files("!vendor", "."), [
      "a.js",
      "a.ts",
      "ab.md",
      "b.md",
      "lib/src/z.ts",
      "main.go",
      "pkg/tests/t2.py",
      "src/sub/y.ts",
      "src/x.ts",
      "tests/t1.py",
    ]);
    t.deepEqual(await files("src/sub"), ["src/sub/y.ts"]);
    t.deepEqual(await files("sub/*.ts", "src"), ["src/sub/y.ts"]);
    t.deepEqual(await files(["*.ts", "!src/sub"]), ["a.ts", "lib/src/z.ts", "src/x.ts"]);
  });

  test("a named file is searched whatever the glob, as ripgrep does", async (t) => {
    const { engine } = setup(t, { "README.md": "hit" });
    t.deepEqual(lines(await engine.grep("README.md", "hit", { glob: "*.ts" })), ["README.md:1:hit"]);
  });

  test("context: lines before and after, clipped at the ends of the file", async (t) => {
    const { engine } = setup(t, { "a.txt": "1\n2\nhit3\n4\n5\n6\nhit7\n8" });
    const r = await engine.grep(".", "hit", { context: 2 });
    t.deepEqual(r.matches, [
      { path: "a.txt", line: 3, text: "hit3", before: ["1", "2"], after: ["4", "5"] },
      { path: "a.txt", line: 7, text: "hit7", before: ["5", "6"], after: ["8"] },
    ]);
    const r0 = await engine.grep(".", "hit", { context: 0 });
    t.is(r0.matches[0]?.before, undefined);
    const r5 = await engine.grep(".", "hit3", { context: 5 });
    t.deepEqual(r5.matches[0], { path: "a.txt", line: 3, text: "hit3", before: ["1", "2"], after: ["4", "5", "6", "hit7", "8"] });
  });

  test("context out of range is an error", async (t) => {
    const { engine } = setup(t, { "a.txt": "x" });
    await t.throwsAsync(engine.grep(".", "x", { context: 6 }), { instanceOf: SearchError, message: /context must be an integer from 0 to 5/ });
    await t.throwsAsync(engine.grep(".", "x", { context: -1 }), { instanceOf: SearchError });
    await t.throwsAsync(engine.grep(".", "x", { context: 1.5 }), { instanceOf: SearchError });
  });

  test("matches stay within a line, anchors are per line, and CRLF endings are dropped from the text", async (t) => {
    const { engine } = setup(t, { "a.txt": "a\nb\nfoo\r\nxfoo\nfoo bar\n" });
    t.deepEqual(lines(await engine.grep(".", "a\\sb")), []);
    t.deepEqual(lines(await engine.grep(".", "a[^x]b")), []);
    t.deepEqual(lines(await engine.grep(".", "^foo")), ["a.txt:3:foo", "a.txt:5:foo bar"]);
    t.deepEqual(lines(await engine.grep(".", "bar$")), ["a.txt:5:foo bar"]);
    t.deepEqual(lines(await engine.grep(".", "^b$")), ["a.txt:2:b"]);
  });

  test("line numbers count every line; the last line needs no newline; an empty file has no lines", async (t) => {
    const body = Array.from({ length: 500 }, (_, i) => `line ${i + 1}`).join("\n");
    const { engine } = setup(t, { "a.txt": body, "empty.txt": "", "nl.txt": "\n\n" });
    t.deepEqual(lines(await engine.grep("a.txt", "^line (1|250|500)$")), ["a.txt:1:line 1", "a.txt:250:line 250", "a.txt:500:line 500"]);
    t.deepEqual(lines(await engine.grep("empty.txt", "")), []);
    t.deepEqual(lines(await engine.grep("nl.txt", "^$")), ["nl.txt:1:", "nl.txt:2:"]);
  });

  test("RE2 on UTF-8 text: case-insensitive Unicode, character classes", async (t) => {
    const { engine } = setup(t, { "a.txt": "ÉTÉ chaud\nnothing\n2024-01-31\n" });
    t.deepEqual(lines(await engine.grep(".", "(?i)été")), ["a.txt:1:ÉTÉ chaud"]);
    t.deepEqual(lines(await engine.grep(".", "[0-9]{4}-[0-9]{2}")), ["a.txt:3:2024-01-31"]);
    t.deepEqual(lines(await engine.grep(".", "\\bchaud\\b")), ["a.txt:1:ÉTÉ chaud"]);
  });

  test("a pattern is never an option: one starting with - is searched for", async (t) => {
    const { engine } = setup(t, { "a.txt": "x --help y\n-v\n" });
    t.deepEqual(lines(await engine.grep(".", "--help")), ["a.txt:1:x --help y"]);
    t.deepEqual(lines(await engine.grep(".", "-v")), ["a.txt:2:-v"]);
  });

  test("the pattern is at most 4 KiB of UTF-8", async (t) => {
    const { engine } = setup(t, { "a.txt": "x" });
    t.deepEqual(lines(await engine.grep(".", "a".repeat(4096))), []);
    await t.throwsAsync(engine.grep(".", "a".repeat(4097)), { instanceOf: SearchError, message: /4097 bytes; at most 4096/ });
    const e = await t.throwsAsync(engine.grep(".", "é".repeat(2049)), { instanceOf: SearchError });
    t.is(e?.code, "pattern-too-long");
  });

  test("patterns RE2 does not support are clear errors, before anything is read", async (t) => {
    const { engine, log } = setup(t, { "a.txt": "aa" });
    const back = await t.throwsAsync(engine.grep(".", "(a)\\1"), { instanceOf: SearchError });
    t.is(back?.code, "bad-pattern");
    t.regex(back?.message ?? "", /not an RE2 pattern: invalid escape sequence: \\1 \(RE2 has no lookahead, lookbehind or backreferences\)/);
    const look = await t.throwsAsync(engine.grep(".", "a(?=a)"), { instanceOf: SearchError });
    t.regex(look?.message ?? "", /invalid perl operator: \(\?= \(RE2 has no lookahead/);
    await t.throwsAsync(engine.grep(".", "(?<=a)a"), { instanceOf: SearchError, message: /lookbehind/ });
    await t.throwsAsync(engine.grep(".", "a(?!b)"), { instanceOf: SearchError, message: /lookahead/ });
    const paren = await t.throwsAsync(engine.grep(".", "(a"), { instanceOf: SearchError });
    t.regex(paren?.message ?? "", /missing \)/);
    t.deepEqual(log, []);
  });

  test("more candidate files than the cap is an error asking for a narrower path or glob, never a partial list", async (t) => {
    const spec: Record<string, Node> = {};
    for (let i = 0; i < 3001; i++) spec[`many/f${String(i).padStart(4, "0")}.txt`] = "hit";
    spec["few/a.txt"] = "hit";
    const { engine, log } = setup(t, spec);
    const e = await t.throwsAsync(engine.grep(".", "hit"), { instanceOf: SearchError });
    t.is(e?.code, "too-many-files");
    t.regex(e?.message ?? "", /more than 3000 candidate files under "\.": pass a narrower path or a glob/);
    t.deepEqual(log, []); // nothing was read
    await t.throwsAsync(engine.find("many"), { instanceOf: SearchError, message: /more than 3000/ });
    // Narrower: fine. And the cap can be lifted.
    t.is((await engine.grep("few", "hit")).matches.length, 1);
    t.is((await engine.grep(".", "hit", { glob: "f000*.txt" })).matches.length, 10);
    t.is((await engine.find(".", { limits: { maxFiles: Infinity } })).files.length, 3002);
  });

  // A mixed tree: more than a batch of files, nested directories, hidden
  // entries, a link, a protected name, a binary file.
  function mixedTree(): Record<string, Node> {
    const spec: Record<string, Node> = {};
    for (let i = 0; i < 45; i++) spec[`a/f${String(i).padStart(2, "0")}.txt`] = i % 3 === 0 ? "hit\nmiss\nhit again\n" : "miss\n";
    spec["a/.hidden/h.txt"] = "hit";
    spec["b/link.txt"] = { link: "../a/f00.txt" };
    spec["b/id_rsa"] = "hit";
    spec["b/bin.dat"] = Buffer.from("hit\0\x01");
    for (let i = 0; i < 40; i++) spec[`c/d${i % 4}/e/g${String(i).padStart(2, "0")}.md`] = `hit ${i}`;
    spec["z.txt"] = "hit last";
    return spec;
  }

  test("without a cap the walk goes on between batches, and the result is the same as with the tree walked first", async (t) => {
    const { engine } = setup(t, mixedTree());
    const capped = await engine.grep(".", "hit");
    const uncapped = await engine.grep(".", "hit", { limits: { maxFiles: Infinity } });
    t.deepEqual(uncapped, capped);
    t.is(capped.files, 45 + 40 + 1);
    t.deepEqual(capped.skipped, { binary: 1, nonregular: 1, protected: 1 });
    // Cut short by the match cap: what the walk skips (the link, in b/) is counted over the whole
    // tree, what the reads skip (b/bin.dat, b/id_rsa) only up to where reading stopped.
    const cut = await engine.grep(".", "hit", { limits: { maxFiles: Infinity, maxMatches: 5 } });
    t.deepEqual(cut, await engine.grep(".", "hit", { limits: { maxMatches: 5 } }));
    t.true(cut.truncated);
    t.deepEqual(cut.skipped, { nonregular: 1 });
    t.deepEqual(await engine.grep(".", "hit", { glob: "*.md", limits: { maxFiles: Infinity } }), await engine.grep(".", "hit", { glob: "*.md" }));
  });

  test("without a cap reading starts before the walk ends; with one the whole tree is walked first", async (t) => {
    // A checker creates a file, at the first read, in a directory not listed yet.
    const run = async (limits: Partial<SearchLimits>) => {
      const spec = mixedTree();
      spec["z/early.txt"] = "hit";
      let root = "";
      const { engine, root: r } = setup(t, spec, {
        checkers: {
          late: (p) => {
            if (p === "a/f00.txt") writeFileSync(join(root, "z", "late.txt"), "hit late");
            return "allow";
          },
        },
      });
      root = r;
      return (await engine.grep(".", "hit", { limits })).matches.map((m) => m.path).filter((p) => p.startsWith("z/"));
    };
    t.deepEqual(await run({ maxFiles: Infinity }), ["z/early.txt", "z/late.txt"]);
    t.deepEqual(await run({}), ["z/early.txt"]);
  });

  test("the match cap truncates: exactly maxMatches lines and truncated #t, and not when there are exactly that many", async (t) => {
    const { engine } = setup(t, { "a.txt": "hit\n".repeat(150), "b.txt": "hit\n".repeat(100) });
    const r = await engine.grep(".", "hit");
    t.is(r.matches.length, 100);
    t.true(r.truncated);
    const exact = await engine.grep("b.txt", "hit");
    t.is(exact.matches.length, 100);
    t.false(exact.truncated);
    const small = await engine.grep(".", "hit", { limits: { maxMatches: 3 } });
    t.deepEqual(lines(small), ["a.txt:1:hit", "a.txt:2:hit", "a.txt:3:hit"]);
    t.true(small.truncated);
  });

  test("output caps: long lines are cut with an ellipsis, and the total output truncates", async (t) => {
    const { engine } = setup(t, { "a.txt": `hit ${"é".repeat(1000)}\nhit 2\nhit 3\n` }, { limits: { maxLineChars: 10 } });
    const r = await engine.grep(".", "hit");
    t.is(r.matches[0]?.text, "hit éééééé…");
    t.is(r.matches[1]?.text, "hit 2");
    const r2 = await engine.grep(".", "hit", { limits: { maxOutputChars: 16 } });
    t.is(r2.matches.length, 2);
    t.true(r2.truncated);
  });

  test("a file the guard denies stops the search with the denial, never an empty file", async (t) => {
    const { engine } = setup(t, { "a.txt": "hit", "b.txt": "hit", "c.txt": "hit" }, {
      checkers: { "no-b": (p) => (p === "b.txt" ? denyVerdict("b is off limits") : "allow") },
    });
    const e = await t.throwsAsync(engine.grep(".", "hit"), { instanceOf: GuardDeniedError });
    t.is(e?.rule, "checker");
    t.is(e?.path, "b.txt");
    t.is(e?.reason, "b is off limits");
  });

  test("a file a checker asks about with no one to answer is withheld and named; the rest is searched", async (t) => {
    const { engine } = setup(t, { "a.txt": "hit", "gen.txt": "hit", "z.txt": "hit" }, { checkers: { gen: (p) => (p.startsWith("gen") ? "ask" : "allow") } });
    const r = await engine.grep(".", "hit");
    t.deepEqual(lines(r), ["a.txt:1:hit", "z.txt:1:hit"]);
    t.deepEqual(r.withheld, ["gen.txt"]);
    t.deepEqual(r.skipped, { withheld: 1 });
    t.is(r.files, 2);
  });

  test("withoutAsking withholds even when a person could answer", async (t) => {
    let asked = 0;
    const { engine } = setup(t, { "a.txt": "hit" }, {
      checkers: { c: () => "ask" },
      guard: {
        ask: () => {
          asked++;
          return "allow";
        },
      },
    });
    t.deepEqual((await engine.grep(".", "hit")).matches.length, 1);
    const r = await engine.grep(".", "hit", { withoutAsking: true });
    t.deepEqual(r.withheld, ["a.txt"]);
    t.is(asked, 1);
  });

  test("paths: outside the root and links are denials, missing paths are file errors, a protected named path is a denial", async (t) => {
    const { engine } = setup(t, { "a.txt": "x", l: { link: "." }, ".env": "K=1" });
    await t.throwsAsync(engine.grep("..", "x"), { instanceOf: GuardDeniedError });
    await t.throwsAsync(engine.grep("/etc", "x"), { instanceOf: GuardDeniedError });
    await t.throwsAsync(engine.grep("l", "x"), { instanceOf: GuardDeniedError });
    const e = await t.throwsAsync(engine.grep(".env", "K"), { instanceOf: GuardDeniedError });
    t.is(e?.rule, "denylist");
    const nf = await t.throwsAsync(engine.find("nope"), { instanceOf: GuardFileError });
    t.is(nf?.code, "not-found");
  });

  test("a bad glob is an error before anything is read", async (t) => {
    const { engine } = setup(t, { "a.txt": "x" });
    await t.throwsAsync(engine.grep(".", "x", { glob: "" }), { instanceOf: SearchError, message: /glob/ });
  });

  test("cancellation: an aborted signal stops the search before it starts", async (t) => {
    const { engine, log } = setup(t, { "a.txt": "hit" });
    const ac = new AbortController();
    ac.abort();
    const e = await t.throwsAsync(engine.grep(".", "hit", { signal: ac.signal }), { instanceOf: SearchError });
    t.is(e?.code, "aborted");
    await t.throwsAsync(engine.find(".", { signal: ac.signal }), { instanceOf: SearchError, message: /cancelled/ });
    t.deepEqual(log, []);
  });

  // A search logs its decisions a batch at a time, so the abort comes after the
  // first batch is read; the search stops before it opens the rest.
  test("cancellation: aborting during the search stops it before the files still to open", async (t) => {
    const spec: Record<string, Node> = {};
    for (let i = 0; i < 400; i++) spec[`f${String(i).padStart(3, "0")}.txt`] = "hit";
    const ac = new AbortController();
    const tree = makeTree(spec);
    t.teardown(tree.cleanup);
    let reads = 0;
    const guard = createGuard({
      root: tree.root,
      log: (d) => {
        if (d.decision === "allow" && ++reads === 3) ac.abort();
      },
    });
    const e = await t.throwsAsync(engine(t, guard).grep(".", "hit", { signal: ac.signal }), { instanceOf: SearchError });
    t.is(e?.code, "aborted");
    t.true(reads >= 3 && reads < 400, `${reads} files were read`);
  });

  test("the deadline: a search past it is an error", async (t) => {
    const { engine } = setup(t, { "a.txt": "hit", "b.txt": "hit" }, {
      checkers: { slow: () => new Promise((r) => setTimeout(() => r("allow"), 40)) },
    });
    const e = await t.throwsAsync(engine.grep(".", "hit", { limits: { timeoutMs: 20 } }), { instanceOf: SearchError });
    t.is(e?.code, "timeout");
    t.regex(e?.message ?? "", /longer than 0.02 seconds/);
  });

  test("a file gone between discovery and read is counted as vanished", async (t) => {
    const tree = makeTree({ "a.txt": "hit", "b.txt": "hit" });
    t.teardown(tree.cleanup);
    const guard = createGuard({
      root: tree.root,
      hooks: {
        // While a.txt is opened, discovery has already listed b.txt: remove it now.
        beforeOpen: (_abs, rel) => {
          if (rel === "a.txt") rmSync(join(tree.root, "b.txt"));
        },
      },
    });
    const r = await engine(t, guard).grep(".", "hit");
    t.deepEqual(lines(r), ["a.txt:1:hit"]);
    t.deepEqual(r.skipped, { vanished: 1 });
    t.is(r.files, 1);
  });

  /**
   * A guard over a.txt, b.txt and c.txt (each "hit") that changes b.txt with
   * `change` when it opens a.txt: after discovery, before b.txt is opened.
   */
  function changedAfterDiscovery(t: { teardown(fn: () => void): void }, change: (b: string) => void) {
    const tree = makeTree({ "a.txt": "hit", "b.txt": "hit", "c.txt": "hit" });
    t.teardown(tree.cleanup);
    const log: GuardDecision[] = [];
    const guard = createGuard({
      root: tree.root,
      log: (d) => log.push(d),
      hooks: {
        beforeOpen: (_abs, rel) => {
          if (rel === "a.txt") change(join(tree.root, "b.txt"));
        },
      },
    });
    return { guard, log, decisions: () => log.map((d) => `${d.path} ${d.decision} ${d.rule}`) };
  }

  test("a file swapped for a link after discovery is a root-pin denial that stops the search", async (t) => {
    const outside = makeTree({ "secret.txt": "hit outside" });
    t.teardown(outside.cleanup);
    const { guard, decisions } = changedAfterDiscovery(t, (b) => {
      rmSync(b);
      symlinkSync(join(outside.root, "secret.txt"), b);
    });
    const e = await t.throwsAsync(engine(t, guard).grep(".", "hit"), { instanceOf: GuardDeniedError });
    t.is(e?.rule, "root-pin");
    t.is(e?.path, "b.txt");
    // c.txt was read ahead, in the same batch, before the denial was taken: that read is logged too.
    t.deepEqual(decisions(), ["a.txt allow default", "b.txt deny root-pin", "c.txt allow default"]);
  });

  test("a file swapped for a FIFO after discovery is skipped as nonregular, without blocking", async (t) => {
    const { guard, decisions } = changedAfterDiscovery(t, (b) => {
      rmSync(b);
      mkfifo(b);
    });
    const r = await engine(t, guard).grep(".", "hit");
    t.deepEqual(lines(r), ["a.txt:1:hit", "c.txt:1:hit"]);
    t.deepEqual(r.skipped, { nonregular: 1 });
    t.deepEqual(decisions(), ["a.txt allow default", "b.txt deny special-file", "c.txt allow default"]);
  });

  test("a file that grew past the read cap after discovery is skipped as oversized, unread", async (t) => {
    const { guard, decisions } = changedAfterDiscovery(t, (b) => writeFileSync(b, "hit ".repeat(100)));
    const r = await engine(t, guard, { maxFileBytes: 100 }).grep(".", "hit");
    t.deepEqual(lines(r), ["a.txt:1:hit", "c.txt:1:hit"]);
    t.deepEqual(r.skipped, { oversized: 1 });
    // The read cap is not a guard rule: b.txt is a file error, counted, and no read of it is logged.
    t.deepEqual(decisions(), ["a.txt allow default", "c.txt allow default"]);
  });

  test("decisions are logged for every file read, in path order", async (t) => {
    const { engine, log } = setup(t, { "b.txt": "x", "a/c.txt": "x" }, { guard: { actor: "model" } });
    await engine.grep(".", "x");
    t.deepEqual(
      log.map((d) => `${d.path} ${d.decision} ${d.actor}`),
      ["a/c.txt allow model", "b.txt allow model"],
    );
  });

  test("a search hands its decisions to logBatch a batch at a time, in path order, each before its result", async (t) => {
    const spec: Record<string, Node> = {};
    for (let i = 0; i < 100; i++) spec[`f${String(i).padStart(3, "0")}.txt`] = "x";
    const batches: string[][] = [];
    const single: string[] = [];
    const { engine } = setup(t, spec, {
      guard: { log: (d) => single.push(d.path), logBatch: (ds) => batches.push(ds.map((d) => `${d.path} ${d.decision}`)) },
    });
    const r = await engine.grep(".", "x");
    t.is(r.files, 100);
    t.deepEqual(single, [], "no decision of the search was logged one by one");
    t.true(batches.length >= 2 && batches.length <= 100 / 32 + 1, `${batches.length} batches`);
    t.deepEqual(batches.flat(), Object.keys(spec).sort().map((p) => `${p} allow`));
  });

  test("a decision the guard makes at once is logged after the held decisions of a search", async (t) => {
    const order: string[] = [];
    const { engine } = setup(t, { "a.txt": "x", "b.txt": "x", "c.txt": "x" }, {
      guard: { log: (d) => order.push(`one ${d.path}`), logBatch: (ds) => order.push(...ds.map((d) => `batch ${d.path}`)) },
    });
    await engine.grep(".", "x");
    await t.throwsAsync(engine.grep("../outside.txt", "x"));
    t.deepEqual(order, ["batch a.txt", "batch b.txt", "batch c.txt", "one ../outside.txt"]);
  });
}
