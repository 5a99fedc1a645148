// Benchmark: the scan engine behind index-grep, in process, side by side with ripgrep's whole-process time.
//
// Run after a build: `npm run build && node test/bench/grep.mjs` (install
// ripgrep with `sh test/bench/setup.sh`). Trees:
//   medium  node_modules/lodash  — one package folder: 1051 files, the closest
//                                  to the "about 900" among the
//                                  package folders installed here
//   large   node_modules         — all of it, the 3000-file cap lifted (about
//                                  8,900 files here, 214 MB with build output)
//   xlarge  /usr/share           — tens of thousands of files, which
//                                  node_modules does not have here (when
//                                  present; BENCH_XLARGE=0 skips it)
// Each pattern runs BENCH_RUNS times (default 7) alternating the two tools,
// after BENCH_WARMUP rounds (default 3) of all the patterns on both, as a
// session that has searched before (a new engine's reading thread, like the
// process, starts with code V8 has not compiled yet: about eight searches
// of lodash warm it up); medians are printed with their ratio
// (nodwyn / rg: below 1 is faster), and the best (minimum) times with theirs,
// which say more on a machine that other work keeps busy. rg runs as `rg --sort path -n --no-ignore
// PATTERN .` in the tree (one thread: --sort path implies it), timed around
// the whole process from this one. Spawning any process from Node costs
// something rg itself does not spend, so the median time to spawn /bin/true
// is measured too and subtracted: "rg net" is rg's own whole-process time, and
// the ratio is taken against it (the stricter comparison); "rg" is what a Node
// program shelling out to rg would wait. index-grep runs as in a session: its
// engine's reading thread (docs/decisions/0005) is started by the first search
// and ready before the timed runs; the first search of a new engine, which
// reads in one thread while the other starts, is timed apart ("cold").
// The engine runs with its caps lifted (files,
// matches, output, line length, file size) so both do the same work; the
// matching lines of both are then compared, and differences explained by
// design are reported apart from unexplained ones: files the engine skips
// (not UTF-8, or a NUL byte after ripgrep's first buffer), and lines with
// non-ASCII text when the pattern uses \b, which is ASCII in RE2 (Go) and
// Unicode-aware in ripgrep.

import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { isUtf8 } from "node:buffer";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const { createGuard } = await import(join(repo, "dist/host/guard/index.js"));
const { createSearchEngine } = await import(join(repo, "dist/host/search/index.js"));

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const trees = [
  { name: "medium", dir: join(repo, "node_modules/lodash") },
  { name: "large", dir: join(repo, "node_modules") },
];
if (process.env.BENCH_XLARGE !== "0" && existsSync("/usr/share")) trees.push({ name: "xlarge", dir: "/usr/share" });

const patterns = [
  { kind: "literal", re: "hasOwnProperty" },
  { kind: "word", re: "\\bvalue\\b" },
  { kind: "alternation", re: "TODO|FIXME|XXX" },
  { kind: "case-insensitive", re: "(?i)deprecated" },
  { kind: "character class", re: "[0-9]{4}-[0-9]{2}-[0-9]{2}" },
];

const rgVersion = spawnSync("rg", ["--version"], { encoding: "utf8" });
if (rgVersion.error) {
  console.error("ripgrep (rg) is not installed: run `sh test/bench/setup.sh` (apt-get install -y ripgrep)");
  process.exit(2);
}

const LIFTED = {
  maxFiles: Infinity,
  maxMatches: Infinity,
  maxOutputChars: Infinity,
  maxLineChars: Infinity,
  maxFileBytes: 1 << 30,
  timeoutMs: 600_000,
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function spawnBaseline() {
  const ts = [];
  for (let i = 0; i < 15; i++) {
    const t0 = performance.now();
    spawnSync("/bin/true");
    ts.push(performance.now() - t0);
  }
  return median(ts);
}

function runRg(dir, re, extra = []) {
  const t0 = performance.now();
  const r = spawnSync("rg", ["--sort", "path", "-n", "--no-ignore", ...extra, re, "."], { cwd: dir, maxBuffer: 1 << 30 });
  const ms = performance.now() - t0;
  if (r.status !== 0 && r.status !== 1) throw new Error(`rg failed (${r.status}): ${r.stderr}`);
  return { ms, out: r.stdout };
}

async function runNodwyn(engine, re) {
  const t0 = performance.now();
  const res = await engine.grep(".", re, { limits: LIFTED });
  return { ms: performance.now() - t0, res };
}

/** rg's lines as "path\0line\0text" keys (run with --null so paths are unambiguous). */
function rgKeys(buf) {
  const keys = new Map();
  let i = 0;
  while (i < buf.length) {
    const nul = buf.indexOf(0, i);
    const nl = buf.indexOf(10, nul);
    const end = nl === -1 ? buf.length : nl;
    const path = buf.toString("utf8", i, nul).replace(/^\.\//, "");
    const rest = buf.subarray(nul + 1, end);
    const colon = rest.indexOf(58);
    const line = rest.toString("latin1", 0, colon);
    let text = rest.toString("utf8", colon + 1);
    if (text.endsWith("\r")) text = text.slice(0, -1);
    keys.set(`${path}\0${line}\0${text}`, path);
    i = end + 1;
  }
  return keys;
}

function compare(dir, res, rgOut, pattern) {
  const asciiBoundary = pattern.includes("\\b");
  const ours = new Set(res.matches.map((m) => `${m.path}\0${m.line}\0${m.text}`));
  const theirs = rgKeys(rgOut);
  const explained = new Set();
  const unexplained = [];
  const why = (path) => {
    let b;
    try {
      b = readFileSync(join(dir, path));
    } catch {
      return null;
    }
    if (b.indexOf(0) !== -1) return "holds a NUL byte";
    if (!isUtf8(b)) return "not UTF-8";
    return null;
  };
  const nonAscii = (k) => /[^\x00-\x7f]/.test(k);
  for (const [k, path] of theirs) {
    if (ours.has(k)) continue;
    const w = why(path);
    if (w) explained.add(`${path} (${w})`);
    else if (asciiBoundary && nonAscii(k)) explained.add(`${k.split("\0", 2).join(":")} (\\b: Unicode in rg, ASCII in RE2)`);
    else unexplained.push(`only rg: ${k.replaceAll("\0", ":").slice(0, 160)}`);
  }
  for (const k of ours) {
    if (theirs.has(k)) continue;
    if (asciiBoundary && nonAscii(k)) explained.add(`${k.split("\0", 2).join(":")} (\\b: ASCII in RE2, Unicode in rg)`);
    else unexplained.push(`only nodwyn: ${k.replaceAll("\0", ":").slice(0, 160)}`);
  }
  return { same: explained.size === 0 && unexplained.length === 0, explained: [...explained], unexplained };
}

const spawnMs = spawnBaseline();
console.log(`${rgVersion.stdout.split("\n")[0]}; node ${process.version}; ${RUNS} runs per cell; medians in ms; spawning /bin/true: ${spawnMs.toFixed(1)} ms`);
const rows = [];
for (const tree of trees) {
  if (!existsSync(tree.dir) || !statSync(tree.dir).isDirectory()) continue;
  const guard = createGuard({ root: tree.dir, actor: "bench" });
  const engine = createSearchEngine(guard, LIFTED);
  const listed = await engine.find(".", { limits: LIFTED });
  const cold = await runNodwyn(engine, patterns[0].re);
  while (engine.stats().thread === "starting") await new Promise((r) => setTimeout(r, 5));
  // Warm-up: every pattern WARMUP times on both, so the timed runs see compiled code (a new
  // engine's thread starts with cold code of its own); the cold search above is the other case.
  for (let w = 0; w < WARMUP; w++) {
    for (const p of patterns) {
      await runNodwyn(engine, p.re);
      runRg(tree.dir, p.re);
    }
  }
  console.log(
    `\n${tree.name}: ${tree.dir} — ${listed.files.length} candidate files; first search of a new engine (cold): ${cold.ms.toFixed(1)} ms; ` +
      `warm-up: ${WARMUP} round(s) of the patterns; reading thread ${engine.stats().thread}`,
  );
  for (const p of patterns) {
    const ours = [];
    const rgs = [];
    let last;
    const s0 = engine.stats(); // batches read by each thread in this pattern's runs
    for (let i = 0; i < RUNS; i++) {
      const n = await runNodwyn(engine, p.re);
      ours.push(n.ms);
      last = n.res;
      rgs.push(runRg(tree.dir, p.re).ms);
    }
    const cmp = compare(tree.dir, last, runRg(tree.dir, p.re, ["--null"]).out, p.re);
    const mo = median(ours);
    const mr = median(rgs);
    const net = Math.max(mr - spawnMs, 0.1);
    const bestOurs = Math.min(...ours);
    const bestNet = Math.max(Math.min(...rgs) - spawnMs, 0.1);
    const row = {
      tree: tree.name,
      pattern: `${p.kind}: ${p.re}`,
      files: last.files,
      matches: last.matches.length,
      nodwyn: mo.toFixed(1),
      rg: mr.toFixed(1),
      "rg net": net.toFixed(1),
      ratio: (mo / net).toFixed(2),
      "best nodwyn": bestOurs.toFixed(1),
      "best rg net": bestNet.toFixed(1),
      "best ratio": (bestOurs / bestNet).toFixed(2),
      same: cmp.same ? "yes" : cmp.unexplained.length === 0 ? `yes, but ${cmp.explained.length} explained` : "NO",
    };
    const st = engine.stats();
    const byThread = st.batchesThread - s0.batchesThread;
    row["thread share"] = `${Math.round((100 * byThread) / Math.max(1, byThread + st.batchesHere - s0.batchesHere))}%`;
    rows.push(row);
    console.log(
      `  ${row.pattern.padEnd(44)} ${String(row.matches).padStart(6)} lines  nodwyn ${row.nodwyn.padStart(7)}  rg ${row.rg.padStart(7)}  rg net ${row["rg net"].padStart(7)}  ratio ${row.ratio}  (best ${row["best ratio"]})  same: ${row.same}`,
    );
    for (const e of cmp.explained.slice(0, 5)) console.log(`      explained: ${e}`);
    for (const u of cmp.unexplained.slice(0, 5)) console.log(`      ${u}`);
    if (Object.keys(last.skipped).length) console.log(`      skipped: ${JSON.stringify(last.skipped)}`);
  }
}
console.log("\nsummary (ratio = nodwyn / rg net whole-process time; goal: ≤ 1 on medium, ≤ 1.2 on large)");
console.table(rows);
