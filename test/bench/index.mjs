// Benchmark: the repository index (host/index) in process, on a tree of about 1,000 files and on one of 20,000+.
//
// Run after a build: `npm run bench:index` (or `node test/bench/index.mjs`).
// Trees, made once under $TMPDIR/nodwyn-bench-index (git repositories, so the
// index lists them as it lists a real one):
//   medium  a copy of node_modules/lodash (1,051 files), the tree grep.mjs calls medium
//   large   three copies of node_modules' files under 64 KiB (about 27,500
//           files, 108 MB): node_modules alone has about 9,400 here
// Each tree is measured in a child process of its own (so its peak RSS is its
// own), the index opened as a session opens it (the guard, the scan engine, the
// redactor; the guard's decisions go to a counter, not to a session log):
//   build      the first update() into an empty data directory
//   re-check   check() with nothing changed: what every search does first (median of 7)
//   refresh    check() after 10 files were edited (median of 3 rounds)
//   query      50 searches without the refresh (fresh: false): median and maximum, after 5 to warm up
//   search     the same 50 with the refresh, as index-search runs them
//   new proc   a new process: open the index and run one search (refresh included), timed in it,
//              and the whole process from spawn to exit
//   size       the index's files on disk over the bytes of the files it holds
//   peak RSS   the child's maximum resident set size
// Options: --only medium,large; --no-thread (each tree also with every text
// prepared in the main thread, side by side); --json FILE.
// Goals (issue 14): 1,000 files built in < 0.4 s, re-check < 60 ms, warm query
// < 2 ms median, 20,000 files built in < 3 s, index < 0.7x the source's size.
// Nothing here is a test: figures on a shared machine vary; quote medians.

import { spawnSync, execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const here = fileURLToPath(import.meta.url);
const work = join(process.env.TMPDIR ?? tmpdir(), "nodwyn-bench-index");

const QUERIES = [
  "array each iteratee", "deep clone", "debounce wait", "throttle leading trailing", "is plain object",
  "merge sources", "flatten depth", "memoize resolver", "curry arity", "get path default value",
  "string pad start", "camel case", "escape html", "random number", "range step",
  "sort by iteratees", "uniq by", "zip object", "template interpolate", "parse int radix",
  "error stack trace", "promise resolve reject", "buffer from string", "stream pipe", "json stringify",
  "regular expression escape", "unicode surrogate pair", "event emitter listener", "timeout clear", "file system read",
  "module exports require", "typescript declaration", "license permission", "readme install", "test suite",
  "async await", "symbol iterator", "weak map cache", "prototype chain", "define property getter",
  "utf8 decode", "hash function", "compare values", "is array like", "to string tag",
  "lodash", "deprecated", "assert equal", "parse options", "command line arguments",
];

function gitInit(dir) {
  const env = { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@x.invalid", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@x.invalid" };
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: dir, env });
  execFileSync("git", ["add", "-A", "-f"], { cwd: dir, env, maxBuffer: 1 << 28 });
  execFileSync("git", ["commit", "-q", "-m", "tree"], { cwd: dir, env, maxBuffer: 1 << 28 });
}

function walkFiles(dir, out = [], rel = "") {
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const r = rel === "" ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory()) walkFiles(dir, out, r);
    else if (e.isFile()) out.push(r);
  }
  return out;
}

function makeTrees() {
  mkdirSync(work, { recursive: true });
  const medium = join(work, "medium");
  if (!existsSync(join(medium, ".git"))) {
    rmSync(medium, { recursive: true, force: true });
    cpSync(join(repo, "node_modules", "lodash"), medium, { recursive: true });
    gitInit(medium);
  }
  const large = join(work, "large");
  if (!existsSync(join(large, ".git"))) {
    rmSync(large, { recursive: true, force: true });
    const nm = join(repo, "node_modules");
    const files = walkFiles(nm).filter((f) => statSync(join(nm, f)).size < 64 * 1024);
    for (const copy of ["a", "b", "c"]) {
      for (const f of files) {
        const to = join(large, copy, f);
        mkdirSync(dirname(to), { recursive: true });
        cpSync(join(nm, f), to);
      }
    }
    // .gitignore files inside packages would hide parts of the copy: the tree is all of it.
    for (const f of walkFiles(large)) if (f.endsWith(".gitignore") || f.endsWith(".npmignore")) rmSync(join(large, f));
    gitInit(large);
  }
  return [
    { name: "medium", dir: medium },
    { name: "large", dir: large },
  ];
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function openIndex(root, dataDir) {
  const { createGuard } = await import(join(repo, "dist/host/guard/index.js"));
  const { createSearchEngine } = await import(join(repo, "dist/host/search/index.js"));
  const { Redactor } = await import(join(repo, "dist/host/redact/index.js"));
  const { RepoIndex } = await import(join(repo, "dist/host/index/index.js"));
  let decisions = 0;
  const guard = createGuard({ root, log: () => decisions++, logBatch: (ds) => (decisions += ds.length) });
  const search = createSearchEngine(guard);
  // The budgets lifted: a build is timed whole (on a busy machine 20,000 files can take longer than one call's 60 s).
  const index = new RepoIndex({ guard, search, redactor: new Redactor(), dataDir, limits: { updateBudgetMs: 3_600_000, searchBudgetMs: 3_600_000 }, ...(process.env.NODWYN_BENCH_NO_THREAD === "1" ? { threadMinFiles: Infinity } : {}) });
  return { index, decisions: () => decisions };
}

/**
 * CPU time of this process's main thread alone, in ms (Linux: /proc, 10 ms
 * ticks); NaN elsewhere. A build prepares texts in a second thread: on an idle
 * machine its wall time is about the larger of the two threads' CPU times.
 */
function mainThreadCpu() {
  try {
    const f = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
    const x = f.slice(f.lastIndexOf(")") + 2).split(" ");
    return (Number(x[11]) + Number(x[12])) * 10;
  } catch {
    return NaN;
  }
}

/** One tree, in this (child) process. */
async function measureTree(root, dataDir) {
  rmSync(dataDir, { recursive: true, force: true });
  const { index, decisions } = await openIndex(root, dataDir);
  const r = {};
  const cpu = () => {
    const c = process.cpuUsage();
    return (c.user + c.system) / 1000;
  };
  let t = performance.now();
  let c = cpu();
  const mc = mainThreadCpu();
  const built = await index.update();
  r.buildMs = performance.now() - t;
  r.buildCpuMs = cpu() - c;
  r.buildMainCpuMs = mainThreadCpu() - mc;
  r.files = built.files;
  r.read = built.read;
  r.skipped = built.skipped;
  r.more = built.more;
  r.left = built.left;
  r.decisions = decisions();
  const recheck = [];
  const recheckCpu = [];
  for (let i = 0; i < 7; i++) {
    t = performance.now();
    c = cpu();
    const x = await index.check();
    recheck.push(performance.now() - t);
    recheckCpu.push(cpu() - c);
    if (x.read !== 0) throw new Error(`re-check read ${x.read} files`);
  }
  r.recheckMs = median(recheck);
  r.recheckCpuMs = median(recheckCpu);
  // Edit 10 held files (a line appended), refresh, three rounds.
  const m = JSON.parse(readFileSync(index.manifestPath, "utf8").slice(0, readFileSync(index.manifestPath, "utf8").lastIndexOf("\n#crc32 ")));
  const held = m.files.filter((f) => f[4] === "held").map((f) => f[0]);
  const refresh = [];
  for (let round = 0; round < 3; round++) {
    for (let k = 0; k < 10; k++) appendFileSync(join(root, held[(round * 97 + k * 31) % held.length]), `\n// edited in round ${round}\n`);
    t = performance.now();
    const x = await index.check();
    refresh.push(performance.now() - t);
    if (x.read < 10) throw new Error(`refresh read ${x.read} files, not 10`);
  }
  r.refreshMs = median(refresh);
  for (const q of QUERIES.slice(0, 5)) await index.search(q, { fresh: false });
  const query = [];
  const queryCpu = [];
  const searchWith = [];
  let hits = 0;
  for (const q of QUERIES) {
    t = performance.now();
    c = cpu();
    const s = await index.search(q, { fresh: false });
    query.push(performance.now() - t);
    queryCpu.push(cpu() - c);
    hits += s.hits.length;
  }
  r.queryCpuMedianMs = median(queryCpu);
  for (const q of QUERIES) {
    t = performance.now();
    await index.search(q);
    searchWith.push(performance.now() - t);
  }
  r.queryMedianMs = median(query);
  r.queryMaxMs = Math.max(...query);
  r.searchMedianMs = median(searchWith);
  r.searchMaxMs = Math.max(...searchWith);
  r.hitsPerQuery = hits / QUERIES.length;
  const st = await index.status();
  r.chunks = st.chunks;
  r.indexBytes = st.bytes;
  r.sourceBytes = m.files.filter((f) => f[4] === "held").reduce((n, f) => n + f[1], 0);
  index.close();
  // A new process: open the index and run one search.
  const t0 = performance.now();
  const p = spawnSync(process.execPath, [here, "--first-query", root, dataDir], { encoding: "utf8" });
  r.newProcessWallMs = performance.now() - t0;
  if (p.status !== 0) throw new Error(p.stderr);
  const fq = JSON.parse(p.stdout);
  r.newProcessInMs = fq.ms;
  r.newProcessOpenMs = fq.openMs;
  r.peakRssMb = process.resourceUsage().maxRSS / 1024;
  return r;
}

const args = process.argv.slice(2);
if (args[0] === "--first-query") {
  const t0 = performance.now();
  const { index } = await openIndex(args[1], args[2]);
  const t1 = performance.now();
  const s = await index.search("deep clone");
  const t2 = performance.now();
  process.stdout.write(JSON.stringify({ ms: t2 - t0, openMs: t1 - t0, searchMs: t2 - t1, hits: s.hits.length }));
  index.close();
} else if (args[0] === "--child") {
  const r = await measureTree(args[1], args[2]);
  process.stdout.write(JSON.stringify(r));
} else {
  if (!existsSync(join(repo, "dist/host/index/index.js"))) {
    process.stderr.write("build first: npm run build\n");
    process.exit(2);
  }
  const only = args.includes("--only") ? args[args.indexOf("--only") + 1].split(",") : null;
  // --no-thread: also each tree with every text prepared in the main thread (the build as it was before the preparing thread).
  const variants = args.includes("--no-thread") ? ["", "1"] : [""];
  const trees = makeTrees()
    .filter((t) => only === null || only.includes(t.name))
    .flatMap((t) => variants.map((v) => ({ ...t, noThread: v, name: v === "1" ? `${t.name}, main thread only` : t.name, base: t.name })));
  const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  const results = [];
  for (const tree of trees) {
    process.stderr.write(`${tree.name}: ${tree.dir}\n`);
    const p = spawnSync(process.execPath, [here, "--child", tree.dir, join(work, `data-${tree.base}`)], { encoding: "utf8", maxBuffer: 1 << 24, env: { ...process.env, NODWYN_BENCH_NO_THREAD: tree.noThread } });
    if (p.status !== 0) {
      process.stderr.write(p.stderr);
      process.exit(1);
    }
    results.push({ tree: tree.name, base: tree.base, ...JSON.parse(p.stdout) });
  }
  const f = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : "-");
  const goal = { medium: { build: 400 }, large: { build: 3000 } };
  const lines = [
    `Load average at the start: ${load} (2 cores).`,
    "",
    "Wall-clock times, and in brackets this process's CPU time for the same work (less sensitive to a busy machine; git's own time is not in it); for the build, the CPU time of all threads and of the main thread alone (the rest is the preparing thread's: on an idle machine the wall time is about the larger share).",
    "",
    "| tree | files held | chunks | build | re-check | refresh (10 edited) | query median / max | search (with re-check) median / max | new process: open + search / whole | index / source | peak RSS |",
    "| :-- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |",
  ];
  for (const r of results) {
    lines.push(
      `| ${r.tree} | ${r.files}${r.more ? " (more)" : ""} | ${r.chunks} | ${f(r.buildMs / 1000, 2)} s [${f(r.buildCpuMs / 1000, 2)} s; main ${f(r.buildMainCpuMs / 1000, 2)} s] (goal < ${goal[r.base].build / 1000} s) | ${f(r.recheckMs)} ms [${f(r.recheckCpuMs)}]${r.base === "medium" ? " (goal < 60)" : ""} | ${f(r.refreshMs)} ms | ${f(r.queryMedianMs, 2)} [${f(r.queryCpuMedianMs, 2)}] / ${f(r.queryMaxMs)} ms (goal median < 2) | ${f(r.searchMedianMs, 1)} / ${f(r.searchMaxMs)} ms | ${f(r.newProcessInMs)} / ${f(r.newProcessWallMs)} ms | ${f(r.indexBytes / 1048576)} / ${f(r.sourceBytes / 1048576)} MB = ${f(r.indexBytes / r.sourceBytes, 2)} (goal < 0.7) | ${f(r.peakRssMb, 0)} MB |`,
    );
  }
  process.stdout.write(lines.join("\n") + "\n");
  if (args.includes("--json")) writeFileSync(args[args.indexOf("--json") + 1], JSON.stringify(results, null, 2));
}
