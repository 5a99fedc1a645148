// The index under faults, with real processes: SIGKILL during builds (T21), corrupted files (T22), concurrent writers (T23), a full disk (T24).
//
// Per PR: 200 kills, 300 corruptions, 4 writers x 500 updates (two worktrees, two
// processes each). `npm run test:index-faults` runs the nightly counts (2,000,
// 5,000, 8 x 5,000) through the same tests: NODWYN_INDEX_CRASH_TRIALS,
// NODWYN_INDEX_CORRUPT_TRIALS, NODWYN_INDEX_WRITERS, NODWYN_INDEX_WRITER_ROUNDS.
// NODWYN_INDEX_SEED replays a run (the seed is printed with every failure).
import test, { type ExecutionContext } from "ava";
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Redactor } from "../../../host/redact/index.js";
import { IndexStorageError, hashText, projectPaths, readManifest, redactKeepingLines } from "../../../host/index/index.js";
import { makeRepo, openIndex } from "./repo.js";
import { waitExit } from "../../helpers/wait-exit.js";

const CHILD = fileURLToPath(new URL("../../../../test/host/index/fixtures/index-child.mjs", import.meta.url));
const CRASH_TRIALS = Number(process.env.NODWYN_INDEX_CRASH_TRIALS ?? 200);
const CORRUPT_TRIALS = Number(process.env.NODWYN_INDEX_CORRUPT_TRIALS ?? 300);
const WRITERS = Number(process.env.NODWYN_INDEX_WRITERS ?? 4);
const WRITER_ROUNDS = Number(process.env.NODWYN_INDEX_WRITER_ROUNDS ?? 500);
const SEED = Number(process.env.NODWYN_INDEX_SEED ?? Math.floor(Math.random() * 1e6));
const LANES = 2;

/** A writer's token for a round: one word (letters only, so the splitter keeps it whole), as index-child.mjs writes it. */
function token(id: number, round: number): string {
  const l = (n: number) => String(n).replace(/[0-9]/g, (d) => "abcdefghij"[Number(d)] as string);
  return `zq${l(id)}q${l(round)}`;
}

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** Version A of a tree: 100 small sources, each with words of its own. */
function versionA(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 100; i++) {
    const body = Array.from({ length: 30 }, (_, k) => `  const item${k} = compute${i}Value(${k}); // shared words parse value`).join("\n");
    files[`src/mod${String(i).padStart(3, "0")}.ts`] = `export function handler${i}Alpha() {\n${body}\n}\n\nexport function second${i}Beta() {\n  return ${i};\n}\n`;
  }
  return files;
}

/** Version B: 40 files changed, 10 removed, 30 added. */
function applyB(write: (rel: string, text: string) => void, remove: (rel: string) => void): Record<string, string | null> {
  const changes: Record<string, string | null> = {};
  for (let i = 0; i < 40; i++) changes[`src/mod${String(i).padStart(3, "0")}.ts`] = `export function changed${i}Gamma() {\n  return "version b ${i}";\n}\n`;
  for (let i = 40; i < 50; i++) changes[`src/mod${String(i).padStart(3, "0")}.ts`] = null;
  for (let i = 0; i < 30; i++) changes[`src/new/added${i}.ts`] = `export const added${i}Delta = ${i};\n${"// filler line parse value\n".repeat(25)}`;
  for (const [p, t] of Object.entries(changes)) (t === null ? remove(p) : write(p, t));
  return changes;
}

const redactor = new Redactor();
const hashOf = (text: string): string => hashText(redactKeepingLines(redactor, text));

/** The live part of a store (what the manifest names), as rows to compare with a clean build. */
function liveDump(o: ReturnType<typeof openIndex>): string[] {
  const idx = o.index as any;
  const m = readManifest(idx.manifestPath);
  if (m === null || m === "damaged") throw new Error(`manifest ${m}`);
  const live = new Set([...m.files].filter(([, e]) => e.state === "held").map(([p, e]) => `${p}@${e.hash}`));
  const d = idx.store.dump() as { docs: string[]; words: string[] };
  return [...d.docs.filter((x) => live.has(x.split(" ")[0] as string)), ...d.words.filter((x) => live.has((x.split(" ")[0] as string).split("#")[0] as string))];
}

/** Below the tests' own t.timeout (20 and 30 minutes), so a child that never ends is named, with its output. */
const CHILD_LIMIT = 15 * 60_000;

function runChild(t: ExecutionContext, args: string[], onLine?: (line: string, kill: () => void) => void, ms = CHILD_LIMIT): Promise<{ code: number | null; signal: string | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [CHILD, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    let buf = "";
    p.stdout.on("data", (d: Buffer) => {
      out += d;
      buf += d;
      let i;
      while ((i = buf.indexOf("\n")) !== -1) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        onLine?.(line, () => p.kill("SIGKILL"));
      }
    });
    p.stderr.on("data", (d: Buffer) => (err += d));
    // "close", not "exit": a child's last lines may still be in its pipe when it has exited (a loaded machine lost two of them).
    waitExit(p, `the index child ${args.join(" ")}`, { on: "close", ms, t, output: () => `${out}\nstderr: ${err}` }).then(({ code, signal }) => resolve({ code, signal: signal as string | null, out, err }), reject);
  });
}

async function lanes<T>(n: number, count: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      for (let i = next++; i < count; i = next++) out[i] = await fn(i);
    }),
  );
  return out;
}

test(`T21: SIGKILL at random points of ${CRASH_TRIALS} builds: the index always opens and answers as the old or the new state, then converges to a clean build (seed ${SEED})`, async (t) => {
  t.timeout(20 * 60_000);
  const a = versionA();
  const repo = makeRepo(a);
  t.teardown(repo.cleanup);
  const pristine = join(repo.base, "pristine");
  const pre = openIndex(repo.root, pristine);
  await pre.index.update();
  pre.index.close();
  const changes = applyB(repo.write, (rel) => rmSync(join(repo.root, rel)));
  const oldHash = new Map(Object.entries(a).map(([p, txt]) => [p, hashOf(txt)]));
  const newHash = new Map(Object.entries({ ...a, ...changes }).filter(([, x]) => x !== null).map(([p, txt]) => [p, hashOf(txt as string)]));
  const clean = openIndex(repo.root, join(repo.base, "clean"));
  await clean.index.update();
  const cleanDump = liveDump(clean);
  clean.index.close();
  // How long the child's build of B takes, to spread the kills over it.
  const cal = join(repo.base, "cal");
  cpSync(pristine, cal, { recursive: true });
  let took = 0;
  // The child times its own build (its lines may reach a busy parent together).
  await runChild(t, ["build", repo.root, cal, "10"], (line) => {
    if (line.startsWith("done ")) took = Number(line.slice(5));
  });
  t.true(took > 0, "the calibration build finished");
  const random = rng(SEED);
  const delays = Array.from({ length: CRASH_TRIALS }, () => random() * took * 1.2);
  const manifestRel = (dir: string) => {
    const pp = projectPaths(repo.root, dir);
    return join(pp.indexDir, "trees", `${pp.treeKey}.manifest`);
  };
  const failures: string[] = [];
  let mid = 0;
  let before = 0;
  let after = 0;
  await lanes(LANES, CRASH_TRIALS, async (i) => {
    const dir = join(repo.base, `trial-${i}`);
    cpSync(pristine, dir, { recursive: true });
    let done = false;
    const r = await runChild(t, ["build", repo.root, dir, "10"], (line, kill) => {
      if (line === "go") setTimeout(kill, delays[i]);
      if (line.startsWith("done")) done = true;
    });
    if (done) after++;
    else if (r.signal === "SIGKILL") mid++;
    else before++;
    const o = openIndex(repo.root, dir);
    try {
      // It opens: the store verifies (or recovers the write the kill cut short) and the manifest is whole.
      const res = await o.index.search("handler", { fresh: false, limit: 5 });
      if (!Array.isArray(res.hits)) failures.push(`trial ${i}: no answer`);
      const store = (o.index as any).store;
      const integrity = store.integrity();
      if (integrity !== "ok") failures.push(`trial ${i}: integrity ${integrity}`);
      const m = readManifest(manifestRel(dir));
      if (o.index.damage.length > 0) failures.push(`trial ${i}: a kill is not damage, yet: ${o.index.damage.join("; ")}`);
      if (m === "damaged" || m === null) failures.push(`trial ${i}: manifest ${m}`);
      else if (m.generation !== store.generation) failures.push(`trial ${i}: the manifest is of another store`);
      else {
        // Each file the manifest holds is as it was or as it is now, and its chunks are stored.
        for (const [p, e] of m.files) {
          if (e.state !== "held") continue;
          if (e.hash !== oldHash.get(p) && e.hash !== newHash.get(p)) failures.push(`trial ${i}: ${p} held at a hash of neither state`);
          if (!store.hasDoc(p, e.hash)) failures.push(`trial ${i}: ${p}@${e.hash} is named but not stored`);
        }
      }
      // A following run converges to exactly what a clean build of the new state holds.
      await o.index.update();
      const dump = liveDump(o);
      if (JSON.stringify(dump) !== JSON.stringify(cleanDump)) failures.push(`trial ${i}: after the update the live rows differ from a clean build (${dump.length} vs ${cleanDump.length})`);
    } catch (e) {
      failures.push(`trial ${i}: ${(e as Error).stack ?? e}`);
    } finally {
      o.index.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
  t.log(`${CRASH_TRIALS} trials: ${mid} killed during the build, ${before} before it began, ${after} after it ended (build ${Math.round(took)} ms)`);
  t.deepEqual(failures.slice(0, 20), [], `seed ${SEED}`);
  t.true(mid > CRASH_TRIALS / 4, "most kills land inside the build");
});

test(`T22: ${CORRUPT_TRIALS} corruptions of the index's files are all detected, set aside and rebuilt, with no crash and no wrong answer (seed ${SEED})`, async (t) => {
  t.timeout(20 * 60_000);
  const files = versionA();
  const repo = makeRepo(files);
  t.teardown(repo.cleanup);
  const pristine = join(repo.base, "pristine");
  const o = openIndex(repo.root, pristine);
  await o.index.update();
  const queries = ["handler alpha", "compute value", "second beta", "handler42Alpha", "item7", "parse"];
  const answers: Record<string, string[]> = {};
  for (const q of queries) answers[q] = (await o.index.search(q, { limit: 20 })).hits.map((h) => `${h.path}:${h.start}-${h.end}`);
  o.index.close();
  const expected = join(repo.base, "expected.json");
  writeFileSync(expected, JSON.stringify({ queries, answers, files: Object.keys(files).length }));
  const work = join(repo.base, "work");
  mkdirSync(work);
  const per = Math.ceil(CORRUPT_TRIALS / 6);
  const slices = Array.from({ length: Math.ceil(CORRUPT_TRIALS / per) }, (_, k) => [k * per, Math.min(per, CORRUPT_TRIALS - k * per)] as const);
  const outs = await lanes(LANES, slices.length, (k) => runChild(t, ["corrupt", repo.root, pristine, work, String(SEED), String(slices[k]![0]), String(slices[k]![1]), expected]));
  const results: any[] = [];
  for (const r of outs) {
    t.is(r.code, 0, `a corruption child ended with ${r.code ?? r.signal}: ${r.err.slice(0, 2000)}`);
    for (const line of r.out.split("\n").filter(Boolean)) results.push(JSON.parse(line));
  }
  t.is(results.length, CORRUPT_TRIALS);
  const bad = results.filter((r) => r.error !== undefined || r.wrong !== 0 || r.integrity !== "ok" || r.files !== r.expectedFiles || r.reread !== r.expectedFiles || (r.kind !== "delete-manifest" && r.damage === 0));
  const byKind = new Map<string, number>();
  for (const r of results) byKind.set(r.kind, (byKind.get(r.kind) ?? 0) + 1);
  t.log(`${results.length} trials: ${[...byKind].map(([k, n]) => `${k} ${n}`).join(", ")}`);
  t.deepEqual(bad.slice(0, 10), [], `seed ${SEED}`);
});

test(`T23: ${WRITERS} processes in two worktrees update one index ${WRITER_ROUNDS} times each: nothing lost, nothing doubled`, async (t) => {
  t.timeout(30 * 60_000);
  const repo = makeRepo({ "README.md": "# shared\n" });
  t.teardown(repo.cleanup);
  const wt = join(repo.base, "wt2");
  repo.git("worktree", "add", "-q", "-b", "second", wt);
  const trees = Array.from({ length: WRITERS }, (_, i) => (i % 2 === 0 ? repo.root : wt));
  const outs = await Promise.all(trees.map((root, id) => runChild(t, ["writer", root, repo.dataDir, String(id), String(WRITER_ROUNDS)], undefined, 25 * 60_000)));
  for (const [id, r] of outs.entries()) {
    t.is(r.code, 0, `writer ${id}: ${r.err.slice(0, 2000)}`);
    if (r.code !== 0 || r.out.trim() === "") {
      t.fail(`writer ${id} ended (${r.code ?? r.signal}) without its summary: ${r.err.slice(-2000)}`);
      continue;
    }
    const s = JSON.parse(r.out.trim());
    t.is(s.errors, 0, `writer ${id}: ${r.err.slice(0, 2000)}`);
    t.is(s.missed, 0, `writer ${id} did not find its own last write ${s.missed} times`);
  }
  for (const root of [repo.root, wt]) {
    const o = openIndex(root, repo.dataDir);
    try {
      const store = (o.index as any).store;
      await o.index.check();
      t.is(store.integrity(), "ok");
      const c = store.counts();
      t.is(c.rows, c.chunks, "one FTS5 row per stored chunk: none lost, none doubled");
      for (let id = 0; id < WRITERS; id++) {
        if (trees[id] !== root) continue;
        const last = await o.index.search(token(id, WRITER_ROUNDS - 1), { fresh: false });
        t.deepEqual(last.hits.map((h) => h.path), [`writer-${id}.txt`]);
        if (WRITER_ROUNDS > 1) t.deepEqual((await o.index.search(token(id, 0), { fresh: false })).hits, [], "an old version is not found");
      }
    } finally {
      o.index.close();
    }
  }
});

test("T24 (injected): a full disk is an IndexStorageError, the previous index still answers, and the next update completes once there is room", async (t) => {
  const repo = makeRepo(versionA());
  t.teardown(repo.cleanup);
  const o1 = openIndex(repo.root, repo.dataDir);
  await o1.index.update();
  o1.index.close();
  applyB(repo.write, (rel) => rmSync(join(repo.root, rel)));
  // The store may not grow by a page: every write that needs one fails with SQLITE_FULL.
  const full = openIndex(repo.root, repo.dataDir, { maxPageCount: 1 });
  const e = await t.throwsAsync(full.index.update(), { instanceOf: IndexStorageError });
  t.is(e?.code, "index-storage");
  t.is(e?.errno, "SQLITE_FULL");
  t.regex(e?.message ?? "", /the disk is full .*the index as it was still answers/);
  // A search answers from the index as far as it was written (whole batches), and says why it is not fresh.
  const s = await full.index.search("handler70Alpha");
  t.deepEqual(s.hits.slice(0, 2).map((h) => h.path), ["src/mod070.ts", "src/mod070.ts"], "a file the same in both states is found");
  t.regex(s.refresh.error ?? "", /disk is full/);
  t.is((full.index as any).store.integrity(), "ok");
  full.index.close();
  const o2 = openIndex(repo.root, repo.dataDir);
  t.teardown(() => o2.index.close());
  const u = await o2.index.update();
  t.is(u.read > 0, true);
  t.is((await o2.index.search("changed3Gamma")).hits[0]?.path, "src/mod003.ts");
  t.false((await o2.index.search("handler45Alpha")).hits.some((h) => h.path === "src/mod045.ts"), "removed in B");
});

/** Whether this process may mount a tmpfs (root on Linux, as CI runs). */
function canMount(): boolean {
  if (process.platform !== "linux" || process.getuid?.() !== 0) return false;
  const dir = join(process.env.TMPDIR ?? "/tmp", `nodwyn-mount-probe-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const ok = spawnSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", dir]).status === 0;
  if (ok) spawnSync("umount", [dir]);
  rmSync(dir, { recursive: true, force: true });
  return ok;
}

const tmpfsTest = canMount() ? test : test.skip;
tmpfsTest("T24 (tmpfs): a data directory on a full tmpfs: a clear error, the index answers or says it is unavailable, and after room is made it completes; also after a corruption", async (t) => {
  const repo = makeRepo(versionA());
  t.teardown(repo.cleanup);
  const mnt = join(repo.base, "mnt");
  mkdirSync(mnt);
  t.is(spawnSync("mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", mnt]).status, 0);
  t.teardown(() => void spawnSync("umount", ["-l", mnt]));
  // Leave about 48 KiB: less than the index needs.
  const filler = join(mnt, "filler");
  writeFileSync(filler, Buffer.alloc(2 * 1024 * 1024 - 48 * 1024));
  const dataDir = join(mnt, "data");
  const o = openIndex(repo.root, dataDir);
  const err = await t.throwsAsync(o.index.update(), { instanceOf: IndexStorageError });
  t.regex(err?.message ?? "", /disk is full/);
  t.false((err?.message ?? "").includes("    at "));
  // What was committed before the disk filled still answers (or the search says the index is unavailable).
  try {
    const s = await o.index.search("handler");
    t.true(Array.isArray(s.hits));
  } catch (e) {
    t.true(e instanceof IndexStorageError, String(e));
  }
  rmSync(filler);
  const u = await o.index.update();
  t.is(u.files, 100);
  t.is((o.index as any).store.integrity(), "ok");
  t.is((await o.index.search("handler42Alpha")).hits[0]?.path, "src/mod042.ts");
  o.index.close();
  // Compound: the store is damaged, and the disk is full again when it is rebuilt.
  const pp = projectPaths(repo.root, dataDir);
  writeFileSync(join(pp.indexDir, "index.db"), Buffer.alloc(4096, 7));
  const room = 2 * 1024 * 1024 - 64 * 1024 - Number(spawnSync("du", ["-sb", mnt], { encoding: "utf8" }).stdout.split("\t")[0]);
  writeFileSync(filler, Buffer.alloc(Math.max(0, room)));
  const o2 = openIndex(repo.root, dataDir);
  try {
    const s = await o2.index.search("handler42Alpha");
    // If the new store fits, it answers rightly.
    if (s.hits.length > 0) t.is(s.hits[0]?.path, "src/mod042.ts");
  } catch (e) {
    t.true(e instanceof IndexStorageError, String(e));
    t.regex((e as Error).message, /disk is full|cannot/);
  }
  rmSync(filler);
  const s2 = await o2.index.search("handler42Alpha");
  t.is(s2.hits[0]?.path, "src/mod042.ts");
  t.true(o2.index.damage.length > 0, "the damaged store was detected and set aside");
  t.is((o2.index as any).store.integrity(), "ok");
  o2.index.close();
  t.is(readdirSync(mnt).includes("data"), true);
});
