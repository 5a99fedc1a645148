// index-grep with its reading thread, on a generated tree of several hundred files: the same result as
// reading in the main thread and as a plain reading of the files, whoever read what; the caps cut at the
// same line; the thread stopping mid-search, two searches at once, and a process that exits by itself.
import test from "ava";
import { spawnSync } from "node:child_process";
import { isUtf8 } from "node:buffer";
import { closeSync, constants as C, openSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createGuard, type GuardDecision } from "../../../host/guard/index.js";
import { compareNames, createSearchEngine, type GrepResult, type SearchEngineOptions, type SearchLimits } from "../../../host/search/index.js";
import { ReadingThread } from "../../../host/search/reading-thread.js";
import { makeTree, type Node } from "../guard/tree.js";

/** A deterministic pseudo-random sequence (a linear congruential generator), so every run builds the same tree. */
function rng(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

const MAX_FILE_BYTES = 40_000;

/** About 600 files in 24 directories: text with and without matches, binaries (NUL early and past 64 KiB), non-UTF-8, oversized, protected. */
function treeSpec(): Record<string, Node> {
  const r = rng(7);
  const spec: Record<string, Node> = {};
  const words = ["alpha", "beta", "gamma", "hit", "delta", "HIT", "epsilon", "zeta", "hits", "é"];
  for (let d = 0; d < 24; d++) {
    for (let f = 0; f < 25; f++) {
      const path = `d${String(d).padStart(2, "0")}/${f % 3 === 0 ? "sub/" : ""}f${f}.txt`;
      const kind = r();
      if (kind < 0.03) spec[path] = Buffer.concat([Buffer.from("hit\n"), Buffer.from([0]), Buffer.from("hit\n")]);
      else if (kind < 0.05) spec[path] = Buffer.concat([Buffer.from("hit line\n".repeat(8000)), Buffer.from([0])]); // NUL past the first block
      else if (kind < 0.07) spec[path] = Buffer.from([0x68, 0x69, 0x74, 0x20, 0xff, 0xfe, 0x0a]); // "hit " then bytes that are not UTF-8
      else if (kind < 0.09) spec[path] = "hit\n".repeat(MAX_FILE_BYTES / 2); // oversized
      else {
        const lines: string[] = [];
        const n = 1 + Math.floor(r() * 40);
        for (let i = 0; i < n; i++) {
          const len = Math.floor(r() * 8);
          lines.push(Array.from({ length: len }, () => words[Math.floor(r() * words.length)]).join(" "));
        }
        spec[path] = lines.join(r() < 0.5 ? "\n" : "\r\n") + (r() < 0.5 ? "\n" : "");
      }
    }
    spec[`d${String(d).padStart(2, "0")}/id_rsa`] = "hit (a private key: protected)";
  }
  return spec;
}

const tree = makeTree(treeSpec());
test.after.always(() => tree.cleanup());

/** What index-grep must find, computed from the files directly: walk in path order, skip what it skips, match line by line. */
function expected(re: RegExp, lim: { maxMatches: number; maxOutputChars: number }) {
  const matches: Array<{ path: string; line: number; text: string }> = [];
  const skipped: Record<string, number> = {};
  let files = 0;
  let chars = 0;
  let truncated = false;
  const skip = (k: string) => (skipped[k] = (skipped[k] ?? 0) + 1);
  const walk = (rel: string): void => {
    const names = readdirSync(join(tree.root, rel)).sort(compareNames);
    for (const name of names) {
      if (truncated) return;
      const p = rel === "" ? name : `${rel}/${name}`;
      if (statSync(join(tree.root, p)).isDirectory()) {
        walk(p);
        continue;
      }
      if (name === "id_rsa") {
        skip("protected");
        continue;
      }
      const b = readFileSync(join(tree.root, p));
      if (b.length > MAX_FILE_BYTES) skip("oversized");
      else if (b.includes(0)) skip("binary");
      else if (!isUtf8(b)) skip("non-utf8");
      else {
        files++;
        const lines = b.toString("utf8").split("\n");
        if (lines.at(-1) === "") lines.pop();
        for (let i = 0; i < lines.length; i++) {
          const text = (lines[i] as string).replace(/\r$/, "");
          if (!re.test(text)) continue;
          if (matches.length >= lim.maxMatches || chars + text.length > lim.maxOutputChars) {
            truncated = true;
            break;
          }
          chars += text.length;
          matches.push({ path: p, line: i + 1, text });
        }
      }
    }
  };
  walk("");
  return { matches, files, skipped, truncated };
}

const shape = (r: GrepResult) => ({ matches: r.matches, files: r.files, skipped: r.skipped, truncated: r.truncated });

function engineFor(t: { teardown(fn: () => void): void }, options: SearchEngineOptions, limits: Partial<SearchLimits> = {}, log?: GuardDecision[]) {
  const guard = createGuard({ root: tree.root, ...(log === undefined ? {} : { log: (d: GuardDecision) => log.push(d) }) });
  const e = createSearchEngine(guard, { maxFileBytes: MAX_FILE_BYTES, maxFiles: 10_000, ...limits }, options);
  t.teardown(() => void e.close());
  return e;
}

const HERE: SearchEngineOptions = { readingThread: "never" };
const THREAD: SearchEngineOptions = { readingThread: "always", threadMinFiles: 0 };

test("the reading thread finds what the main thread finds, and what a plain reading of the files finds", async (t) => {
  const lim = { maxMatches: 1_000_000, maxOutputChars: 1e9 };
  const want = expected(/\bhit\b/, lim);
  t.true(want.matches.length > 500, "the tree has many matches");
  t.true(Object.keys(want.skipped).length >= 4, "and every kind of skip");
  const here = engineFor(t, HERE, lim);
  const thread = engineFor(t, THREAD, lim);
  const auto = engineFor(t, {}, lim);
  t.deepEqual(shape(await here.grep(".", "\\bhit\\b")), want);
  // The main thread takes back batches the thread has not begun when it has nothing else
  // to do, so on a busy machine one search may leave the thread nothing to read: search
  // until it has read some (each time with the same result).
  for (let i = 0; i < 20 && thread.stats().batchesThread === 0; i++) t.deepEqual(shape(await thread.grep(".", "\\bhit\\b")), want);
  // auto: the first search starts the thread and reads here meanwhile; once it is ready it takes batches.
  t.deepEqual(shape(await auto.grep(".", "\\bhit\\b")), want);
  while (auto.stats().thread === "starting") await new Promise((r) => setTimeout(r, 5));
  t.deepEqual(shape(await auto.grep(".", "\\bhit\\b")), want);
  for (let i = 0; i < 20 && auto.stats().batchesThread === 0; i++) t.deepEqual(shape(await auto.grep(".", "\\bhit\\b")), want);
  t.is(here.stats().batchesThread, 0);
  t.true(thread.stats().batchesThread > 0, "the thread read some batches");
  t.is(here.stats().batchesTakenBack, 0);
  t.true(auto.stats().batchesThread > 0, "auto used the thread once it was ready");
});

test("the caps cut the result at the same line whoever read the files", async (t) => {
  for (const lim of [
    { maxMatches: 37, maxOutputChars: 1e9 },
    { maxMatches: 1_000_000, maxOutputChars: 2_000 },
    { maxMatches: 250, maxOutputChars: 5_000 },
  ]) {
    const want = expected(/hit/i, lim);
    t.true(want.truncated);
    t.deepEqual(shape(await engineFor(t, HERE, lim).grep(".", "(?i)hit")), want, `here ${JSON.stringify(lim)}`);
    t.deepEqual(shape(await engineFor(t, THREAD, lim).grep(".", "(?i)hit")), want, `thread ${JSON.stringify(lim)}`);
  }
});

test("each file read is decided once, in search order, whoever read it", async (t) => {
  const lim = { maxMatches: 1_000_000, maxOutputChars: 1e9 };
  const hereLog: GuardDecision[] = [];
  const threadLog: GuardDecision[] = [];
  await engineFor(t, HERE, lim, hereLog).grep(".", "hit");
  await engineFor(t, THREAD, lim, threadLog).grep(".", "hit");
  const show = (l: GuardDecision[]) => l.map((d) => `${d.path} ${d.decision} ${d.rule}`);
  t.deepEqual(show(threadLog), show(hereLog));
  const paths = threadLog.map((d) => d.path);
  t.is(new Set(paths).size, paths.length, "no file decided twice");
  t.deepEqual([...paths].sort(compareNames), paths, "in path order");
  t.true(show(threadLog).includes("d00/id_rsa deny denylist"));
});

test("when the caps cut a search, files read ahead past the cut are logged after it, once each, in order", async (t) => {
  const lim = { maxMatches: 20, maxOutputChars: 1e9 };
  const hereLog: GuardDecision[] = [];
  const threadLog: GuardDecision[] = [];
  const want = expected(/hit/, lim);
  t.deepEqual(shape(await engineFor(t, HERE, lim, hereLog).grep(".", "hit")), want);
  t.deepEqual(shape(await engineFor(t, THREAD, lim, threadLog).grep(".", "hit")), want);
  const lastUsed = want.matches.at(-1)?.path as string;
  for (const log of [hereLog, threadLog]) {
    const paths = log.map((d) => d.path);
    t.is(new Set(paths).size, paths.length, "no file decided twice");
    t.deepEqual([...paths].sort(compareNames), paths, "in path order");
    // Everything up to the last file the result uses is decided, as a one-thread search decides it.
    const upTo = paths.indexOf(lastUsed);
    t.true(upTo >= 0);
    t.deepEqual(paths.slice(0, upTo + 1), expectedDecided(lastUsed));
  }
});

/** The files a search in path order decides about, up to and including `last`: every candidate but the oversized ones. */
function expectedDecided(last: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): boolean => {
    for (const name of readdirSync(join(tree.root, rel)).sort(compareNames)) {
      const p = rel === "" ? name : `${rel}/${name}`;
      if (statSync(join(tree.root, p)).isDirectory()) {
        if (walk(p)) return true;
        continue;
      }
      if (statSync(join(tree.root, p)).size <= MAX_FILE_BYTES) out.push(p);
      if (p === last) return true;
    }
    return false;
  };
  walk("");
  return out;
}

test("a search goes on in the main thread when its reading thread stops in the middle", async (t) => {
  const lim = { maxMatches: 1_000_000, maxOutputChars: 1e9 };
  const want = expected(/hit/, lim);
  for (const delay of [0, 1, 3, 8]) {
    const e = engineFor(t, THREAD, lim);
    const search = e.grep(".", "hit");
    await new Promise((r) => setTimeout(r, delay));
    await e.close();
    t.deepEqual(shape(await search), want, `closed after ${delay} ms`);
  }
});

test("two searches at once on one engine each find what they find alone", async (t) => {
  const lim = { maxMatches: 1_000_000, maxOutputChars: 1e9 };
  const e = engineFor(t, THREAD, lim);
  const [a, b] = await Promise.all([e.grep(".", "alpha"), e.grep(".", "\\bhits?\\b")]);
  t.deepEqual(shape(a), expected(/alpha/, lim));
  t.deepEqual(shape(b), expected(/\bhits?\b/, lim));
});

test("a batch taken back before the thread begins it is answered unread; one the thread read cannot be taken back", async (t) => {
  const thread = new ReadingThread();
  t.teardown(() => thread.close());
  const dir = openSync(join(tree.root, "d00"), C.O_RDONLY | C.O_DIRECTORY);
  t.teardown(() => closeSync(dir));
  const at = `/proc/${process.pid}/fd/${dir}/f1.txt`;
  // A thread just made has not started yet: what is handed to it waits in its port.
  t.is(thread.state, "starting");
  const id = thread.tryBegin({ pattern: "hit", context: 0, maxLineChars: 500, maxFileBytes: MAX_FILE_BYTES, maxMatches: 1e6, maxOutputChars: 1e9, matches: 0, chars: 0 });
  t.not(id, null);
  const a = thread.submit(id as number, [at]);
  const b = thread.submit(id as number, [at]);
  t.true(thread.trySteal(a.seq));
  t.false(thread.trySteal(a.seq), "a batch is taken back once");
  const ra = await a.reply;
  t.deepEqual(ra.t === "batch" ? ra.reports : ra, [null], "the thread did not read the batch taken back");
  const rb = await b.reply;
  t.is(rb.t === "batch" ? rb.reports[0]?.outcome : rb.t, "searched");
  t.false(thread.trySteal(b.seq), "a batch the thread answered stays its own");
  thread.end(id as number);
});

test("a process whose search started the reading thread exits by itself", (t) => {
  const dist = resolve(fileURLToPath(import.meta.url), "../../../../host");
  const script = `
    const { createGuard } = await import(${JSON.stringify(join(dist, "guard/index.js"))});
    const { createSearchEngine } = await import(${JSON.stringify(join(dist, "search/index.js"))});
    const engine = createSearchEngine(createGuard({ root: ${JSON.stringify(tree.root)} }), { maxFiles: 10000 }, { threadMinFiles: 0 });
    const first = await engine.grep(".", "gamma");
    while (engine.stats().thread === "starting") await new Promise((r) => setTimeout(r, 5));
    let same = true;
    for (let i = 0; i < 20 && engine.stats().batchesThread === 0; i++) same &&= JSON.stringify(await engine.grep(".", "gamma")) === JSON.stringify(first);
    console.log(JSON.stringify({ same, stats: engine.stats() }));
  `;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 30_000 });
  t.is(r.status, 0, r.stderr);
  t.is(r.stderr, "");
  const out = JSON.parse(r.stdout);
  t.true(out.same);
  t.is(out.stats.thread, "ready");
  t.true(out.stats.batchesThread > 0);
});
