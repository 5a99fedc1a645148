// test/bench/lib/r7rs-suite.mjs: reading a copy of r7rs-benchmarks (a checkout
// or a git directory) and preparing its programs the way the suite's own
// bench script does; and test/bench/r7rs.mjs's message when no copy is given.
import test from "ava";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { REPO_ROOT } from "../../host/cli/gen-reference.js";
import { tempDir } from "../helpers/cli.js";

const lib: any = await import(pathToFileURL(join(REPO_ROOT, "test", "bench", "lib", "r7rs-suite.mjs")).href);

/** A stand-in for the suite, written for this test: one program, its input, common.scm and a Guile3 prelude. */
function fakeSuite(): string {
  const root = join(tempDir(), "r7rs-benchmarks");
  mkdirSync(join(root, "src"), { recursive: true });
  mkdirSync(join(root, "inputs", "data"), { recursive: true });
  writeFileSync(join(root, "src", "twice.scm"), "(import (scheme base))\n(define (run-benchmark) (twice))\n");
  writeFileSync(join(root, "src", "common.scm"), "(define (run-r7rs-benchmark name count thunk ok?) 0)\n");
  writeFileSync(join(root, "src", "common-postlude.scm"), "(run-benchmark)\n");
  writeFileSync(join(root, "src", "Guile3-prelude.scm"), "(define-syntax import (syntax-rules () ((_ x ...) (begin))))\n");
  writeFileSync(join(root, "inputs", "twice.input"), "7\n21\n42\n");
  writeFileSync(join(root, "inputs", "data", "words"), "a b c\n");
  return root;
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.org", ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });

test("a checkout: programs are the source, common.scm, the implementation's postlude and the common postlude, in that order", (t) => {
  const suite = lib.openSuite(fakeSuite());
  t.is(suite.kind, "checkout");
  const nodwyn: string = lib.programSource(suite, "twice", "nodwyn");
  const order = ["(import (scheme base))", "(define (run-r7rs-benchmark", lib.NODWYN_POSTLUDE.trim(), "(run-benchmark)\n"].map((s) => nodwyn.indexOf(s));
  t.true(order.every((i) => i >= 0), nodwyn);
  t.deepEqual([...order].sort((a, b) => a - b), order);
  // The import stays the first form for nodwyn (R7RS programs start with it).
  t.true(nodwyn.startsWith("(import (scheme base))"));
  // guile gets the suite's prelude first, as its bench script does.
  const guile: string = lib.programSource(suite, "twice", "guile");
  t.true(guile.startsWith("(define-syntax import"));
  t.true(guile.indexOf("(import (scheme base))") > 0);
  t.false(guile.includes(lib.NODWYN_POSTLUDE.trim()));
  t.is(suite.read("inputs/twice.input"), "7\n21\n42\n");
  t.is(suite.read("inputs/nothing.input"), null);
  t.throws(() => lib.programSource(suite, "nothing", "nodwyn"), { message: /no src\/nothing\.scm/ });
});

test("a git directory, bare or not, is read at HEAD, and copyTree writes its files out", (t) => {
  const root = fakeSuite();
  git(root, "init", "-q");
  git(root, "add", ".");
  git(root, "commit", "-q", "-m", "suite");
  // A change left uncommitted is not what HEAD holds.
  writeFileSync(join(root, "inputs", "twice.input"), "1\n2\n3\n");
  rmSync(join(root, "src", "common.scm"));
  const bare = join(tempDir(), "suite.git");
  execFileSync("git", ["clone", "-q", "--bare", root, bare]);
  for (const dir of [root, bare]) {
    const suite = lib.openSuite(dir);
    t.is(suite.kind, "git", dir);
    t.is(suite.read("inputs/twice.input"), "7\n21\n42\n");
    t.true(lib.programSource(suite, "twice", "nodwyn").includes("(define (run-r7rs-benchmark"));
    const dest = tempDir();
    t.deepEqual(suite.copyTree("inputs", dest), []);
    t.is(readFileSync(join(dest, "inputs", "data", "words"), "utf8"), "a b c\n");
    t.is(readFileSync(join(dest, "inputs", "twice.input"), "utf8"), "7\n21\n42\n");
  }
});

test("no copy, a missing directory or an unrelated one: the error says how to fetch the suite", (t) => {
  const unrelated = tempDir();
  writeFileSync(join(unrelated, "README"), "not a suite\n");
  for (const dir of [null, join(unrelated, "nope"), unrelated]) {
    const err = t.throws(() => lib.openSuite(dir));
    t.true(err!.message.includes("git clone https://github.com/ecraven/r7rs-benchmarks"), err!.message);
    t.true(err!.message.includes("--suite"), err!.message);
  }
});

test("r7rs.mjs without a suite exits 2 and prints the fetch instructions", (t) => {
  const env = { ...process.env };
  delete env.R7RS_BENCHMARKS;
  const r = spawnSync(process.execPath, [join(REPO_ROOT, "test", "bench", "r7rs.mjs")], { encoding: "utf8", env });
  t.is(r.status, 2);
  t.regex(r.stderr, /git clone https:\/\/github\.com\/ecraven\/r7rs-benchmarks/);
  t.is(r.stdout, "");
});

test("the count is the input's first datum, after blanks and comments, and only it is replaced", (t) => {
  t.is(lib.inputCount("2\n3\n12\n32765\n"), 2);
  const mperm = "; M: N:K:L\n;\n\n20            ; M (number of iterations)\n10            ; N\n";
  t.is(lib.inputCount(mperm), 20);
  t.is(lib.withCount(mperm, 3), "; M: N:K:L\n;\n\n3            ; M (number of iterations)\n10            ; N\n");
  t.is(lib.withCount("100\n500000\n524278\n", 13), "13\n500000\n524278\n");
  t.is(lib.inputCount("(1 2)\n3\n"), null);
  t.is(lib.inputCount("12abc\n"), null);
  t.throws(() => lib.withCount("(1 2)\n", 3), { message: /count/ });
  t.throws(() => lib.withCount("5\n", 0), { message: /positive integer/ });
  t.throws(() => lib.withCount("5\n", 1.5), { message: /positive integer/ });
});

test("run-r7rs-benchmark's output: a time, an incorrect result, or nothing", (t) => {
  const ok = "Running fib:25:1\nElapsed time: 0.317131 seconds (0.317) for fib:25:1\n+!CSVLINE!+nodwyn,fib:25:1,0.317131\n";
  t.deepEqual(lib.parseResult(ok), { verdict: "ok", seconds: 0.317131 });
  const wrong = "Running tak\nERROR: returned incorrect result: 8\n+!CSVLINE!+nodwyn,tak:18:12:6:1,INCORRECT\n";
  t.deepEqual(lib.parseResult(wrong), { verdict: "wrong", detail: "ERROR: returned incorrect result: 8" });
  t.deepEqual(lib.parseResult("Running fib\n"), { verdict: "none" });
  t.is(lib.parseResult("+!CSVLINE!+nodwyn,x,soon\n").verdict, "wrong");
});

test("the timed count fills nodwyn's target, gives guile a quarter of it within ten times nodwyn's, and stays within 1 and the suite's", (t) => {
  // nodwyn 10 ms an iteration, guile 5: 100 iterations fill 1 s of nodwyn (guile 500 ms).
  t.is(lib.chooseCount(10, 5, 1000, 500), 100);
  t.is(lib.chooseCount(10, 5, 1000, 40), 40);
  t.is(lib.chooseCount(3000, 1000, 1000, 5), 1);
  // guile 10x faster: 100 iterations would give guile 100 ms; 250 give it its
  // 250 ms and nodwyn 2.5 s, within ten times the target.
  t.is(lib.chooseCount(10, 1, 1000, 10000), 250);
  // guile 10,000x faster: raising stops at ten times nodwyn's target.
  t.is(lib.chooseCount(10, 0.001, 1000, 1000000), 1000);
  t.is(lib.chooseCount(0, 1, 1000, 7), 7);
});

test("cpuprofile: self time per function, each sample charged the gap to the next, one row per name and place", async (t) => {
  const { selfTimes } = await import(pathToFileURL(join(REPO_ROOT, "test", "bench", "lib", "cpuprofile.mjs")).href);
  const frame = (functionName: string, url: string, lineNumber: number) => ({ functionName, url, lineNumber, columnNumber: 2, scriptId: "1" });
  const profile = {
    nodes: [
      { id: 1, callFrame: frame("(root)", "", -1), children: [2, 3] },
      { id: 2, callFrame: frame("f", "file:///x/a.js", 4), children: [5] },
      { id: 3, callFrame: frame("g", "file:///x/a.js", 9), children: [4] },
      { id: 4, callFrame: frame("", "", -1) },
      // f again, called from itself: the same function, so the same row.
      { id: 5, callFrame: frame("f", "file:///x/a.js", 4) },
    ],
    startTime: 0,
    endTime: 100,
    samples: [2, 5, 3, 4, 2],
    timeDeltas: [0, 10, 20, 30, 15],
  };
  // Durations: 10, 20, 30, 15 (the next deltas) and 100 - 75 = 25 for the last.
  const rows = selfTimes(profile, { root: "/x" });
  t.deepEqual(
    rows.map((r: { name: string; where: string; ms: number; share: number }) => [r.name, r.where, Math.round(r.ms * 1000), Math.round(r.share * 100)]),
    [
      ["f", "a.js:5", 55, 55],
      ["g", "a.js:10", 30, 30],
      ["(anonymous)", "", 15, 15],
    ],
  );
  t.is(rows[0].line, 4);
  t.is(rows[0].url, "file:///x/a.js");
});
