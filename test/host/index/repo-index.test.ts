// The repository index on real git repositories: which files enter, freshness, budgets, the guard, secrets, records.
import test from "ava";
import { lstatSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { askVerdict, denyVerdict } from "../../../host/guard/index.js";
import { projectPaths } from "../../../host/index/index.js";
import { makeRepo, openIndex, git } from "./repo.js";

/** The paths of a search's hits, in rank order. */
async function hitPaths(o: ReturnType<typeof openIndex>, q: string, limit = 20): Promise<string[]> {
  const r = await o.index.search(q, { limit });
  return r.hits.map((h) => h.path);
}

test("the files that enter: tracked and untracked but not ignored; in .nodwyn/ only tracked ones", async (t) => {
  const repo = makeRepo(
    {
      "src/tracked.ts": "export const zebra = 1;\n",
      ".gitignore": "build/\n*.log\n",
      "build/out.js": "const zebra = 2;\n",
      "debug.log": "zebra 3\n",
      ".nodwyn/checks.scm": ";; zebra checks\n",
    },
    { tracked: ["src/tracked.ts", ".gitignore", ".nodwyn/checks.scm"] },
  );
  t.teardown(repo.cleanup);
  repo.write("notes/untracked.md", "# zebra notes\n");
  repo.write(".nodwyn/worktrees/other/x.ts", "const zebra = 4;\n");
  repo.write(".nodwyn/attachments/a.txt", "zebra attachment\n");
  const o = openIndex(repo.root, repo.dataDir);
  t.teardown(() => o.index.close());
  const paths = await hitPaths(o, "zebra");
  t.deepEqual([...paths].sort(), [".nodwyn/checks.scm", "notes/untracked.md", "src/tracked.ts"]);
});

test("without git, the files index-grep walks enter (hidden entries are not walked)", async (t) => {
  const repo = makeRepo({ "a.txt": "walrus\n", "sub/b.md": "walrus two\n", ".hidden/c.txt": "walrus hidden\n" }, { git: false });
  t.teardown(repo.cleanup);
  const o = openIndex(repo.root, repo.dataDir);
  t.teardown(() => o.index.close());
  t.deepEqual((await hitPaths(o, "walrus")).sort(), ["a.txt", "sub/b.md"]);
});

test("a second worktree of the repository shares one index: the same key, a manifest each, one copy of shared files", async (t) => {
  const repo = makeRepo({ "lib/shared.ts": "export function sharedThing() {}\n" });
  t.teardown(repo.cleanup);
  const wt = join(repo.base, "wt2");
  repo.git("worktree", "add", "-q", "-b", "second", wt);
  writeFileSync(join(wt, "only-here.ts"), "export const secondTreeOnly = 1;\n");
  const a = projectPaths(repo.root, repo.dataDir);
  const b = projectPaths(wt, repo.dataDir);
  t.is(a.key, b.key);
  t.is(a.indexDir, b.indexDir);
  t.not(a.treeKey, b.treeKey);
  const o1 = openIndex(repo.root, repo.dataDir);
  const o2 = openIndex(wt, repo.dataDir);
  t.teardown(() => {
    o1.index.close();
    o2.index.close();
  });
  t.deepEqual(await hitPaths(o1, "shared thing"), ["lib/shared.ts"]);
  t.deepEqual(await hitPaths(o2, "shared thing"), ["lib/shared.ts"]);
  // The second tree's own file is not the first tree's.
  t.deepEqual(await hitPaths(o2, "second tree only"), ["only-here.ts"]);
  t.deepEqual(await hitPaths(o1, "second tree only"), []);
  t.is(readdirSync(join(a.indexDir, "trees")).filter((f) => f.endsWith(".manifest")).length, 2);
  // lib/shared.ts is the same text at the same path in both trees: stored once.
  const dump = (o1.index as any).store.dump();
  t.is(dump.docs.filter((d: string) => d.startsWith("lib/shared.ts@")).length, 1);
});

test("freshness: an edit is read again, a touch without a change stores nothing new, a rename and a delete are seen", async (t) => {
  const repo = makeRepo({ "a.ts": "export const apple = 1;\n", "b.ts": "export const banana = 2;\n" });
  t.teardown(repo.cleanup);
  const o = openIndex(repo.root, repo.dataDir);
  t.teardown(() => o.index.close());
  const first = await o.index.search("apple");
  t.is(first.refresh.read, 2);
  t.deepEqual(first.hits.map((h) => h.path), ["a.ts"]);

  // Nothing changed: nothing is read.
  t.is((await o.index.search("apple")).refresh.read, 0);

  // An edit.
  repo.write("a.ts", "export const cherry = 1;\n");
  const edited = await o.index.search("cherry");
  t.is(edited.refresh.read, 1);
  t.deepEqual(edited.hits.map((h) => h.path), ["a.ts"]);
  t.deepEqual(await hitPaths(o, "apple"), [], "the old text is no longer found");

  // A touch: read again (its time changed), the same hash: no new document.
  const store = (o.index as any).store;
  const docsBefore = store.dump().docs.length;
  const later = new Date(Date.now() + 5000);
  utimesSync(join(repo.root, "b.ts"), later, later);
  const touched = await o.index.search("banana");
  t.is(touched.refresh.read, 1);
  t.is(store.dump().docs.length, docsBefore);

  // A rename: the new path is read, the old one removed.
  renameSync(join(repo.root, "b.ts"), join(repo.root, "c.ts"));
  const renamed = await o.index.search("banana");
  t.deepEqual(renamed.hits.map((h) => h.path), ["c.ts"]);
  t.is(renamed.refresh.removed, 1);

  // A delete.
  rmSync(join(repo.root, "c.ts"));
  const deleted = await o.index.search("banana");
  t.deepEqual(deleted.hits, []);
  t.is(deleted.refresh.removed, 1);
  t.is(deleted.refresh.files, 1);
});

test("a search's check that finds nothing changed leaves the manifest as it is; any change, an oversized file's included, writes it", async (t) => {
  const repo = makeRepo({ "a.ts": "export const apple = 1;\n", "big.txt": "x".repeat(300) + "\n" });
  t.teardown(repo.cleanup);
  const o = openIndex(repo.root, repo.dataDir, { limits: { maxFileBytes: 200 } });
  t.teardown(() => o.index.close());
  const manifest = (o.index as any).manifestPath as string;
  const idOf = (): string => {
    const st = lstatSync(manifest);
    return `${st.ino}:${st.mtimeMs}:${st.size}`;
  };
  await o.index.update();
  const built = idOf();
  const text = readFileSync(manifest, "utf8");
  // Nothing changed (a held file and an oversized one): the file is not written again.
  t.is((await o.index.search("apple")).refresh.read, 0);
  t.is((await o.index.check()).read, 0);
  t.is(idOf(), built);
  // An edit of the oversized file (still oversized, a new size): the manifest records it.
  repo.write("big.txt", "y".repeat(400) + "\n");
  t.is((await o.index.check()).read, 0);
  t.not(idOf(), built);
  const m1 = JSON.parse(readFileSync(manifest, "utf8").split("\n#crc32 ")[0] as string) as { files: unknown[][] };
  t.deepEqual(m1.files.find((f) => f[0] === "big.txt")?.slice(1, 2), [401]);
  t.not(readFileSync(manifest, "utf8"), text);
  // A new file, then a deleted one: each is seen and written.
  const before = idOf();
  repo.write("b.ts", "export const banana = 2;\n");
  t.is((await o.index.check()).read, 1);
  t.not(idOf(), before);
  const after = idOf();
  rmSync(join(repo.root, "b.ts"));
  t.is((await o.index.check()).removed, 1);
  t.not(idOf(), after);
  // A second index (another process's view) reads the same manifest and finds nothing to read.
  const p = openIndex(repo.root, repo.dataDir, { limits: { maxFileBytes: 200 } });
  t.teardown(() => p.index.close());
  t.is((await p.index.check()).read, 0);
  t.deepEqual((await p.index.search("apple")).hits.map((h) => h.path), ["a.ts"]);
});

test("a denied file and an ask-verdict file are left out, never asked about, and named", async (t) => {
  const repo = makeRepo({ "open.ts": "const kestrel = 1;\n", "private/notes.md": "kestrel private\n", "ask/me.txt": "kestrel ask\n", ".env": "KESTREL=1\n" });
  t.teardown(repo.cleanup);
  const o = openIndex(repo.root, repo.dataDir);
  t.teardown(() => o.index.close());
  o.checkers.register("private", (p) => (p.startsWith("private/") ? denyVerdict("private notes") : "allow"));
  o.checkers.register("asker", (p) => (p.startsWith("ask/") ? askVerdict("ask the person") : "allow"));
  const r = await o.index.update();
  t.deepEqual([...r.refused].sort(), ["ask/me.txt", "private/notes.md"]);
  t.true(r.skipped >= 1, "the .env file is protected: skipped");
  t.deepEqual(await hitPaths(o, "kestrel"), ["open.ts"]);
  const d = o.decisions.filter((x) => x.path === "ask/me.txt");
  t.true(d.length >= 1 && d.every((x) => x.decision === "deny" && x.rule === "ask-unanswered"), "the ask was not put to anyone: left out");
  t.true(o.decisions.some((x) => x.path === "private/notes.md" && x.decision === "deny" && x.rule === "checker"));
  // Every read the index made was decided and logged, as actor "index".
  t.true(o.decisions.filter((x) => x.path === "open.ts").every((x) => x.actor === "index" || x.actor === "agent"));
  const rec = o.records.at(-1)!;
  t.deepEqual([...rec.refused].sort(), ["ask/me.txt", "private/notes.md"]);
});

test("a file the guard denies at search time is dropped from the result and from the index", async (t) => {
  const repo = makeRepo({ "a.ts": "const osprey = 1;\n", "b.ts": "const osprey = 2; osprey();\n" });
  t.teardown(repo.cleanup);
  const o = openIndex(repo.root, repo.dataDir);
  t.teardown(() => o.index.close());
  t.deepEqual((await hitPaths(o, "osprey")).sort(), ["a.ts", "b.ts"]);
  o.checkers.register("no-b", (p) => (p === "b.ts" ? denyVerdict("not now") : "allow"));
  const r = await o.index.search("osprey", { actor: "model" });
  t.deepEqual(r.hits.map((h) => h.path), ["a.ts"]);
  t.deepEqual(r.dropped, ["b.ts"]);
  t.true(o.decisions.some((d) => d.path === "b.ts" && d.actor === "model" && d.decision === "deny"));
  // Dropped from the index: the next search does not even read it.
  const before = o.decisions.length;
  const again = await o.index.search("osprey", { actor: "model" });
  t.deepEqual(again.hits.map((h) => h.path), ["a.ts"]);
  t.deepEqual(again.dropped, []);
  t.false(o.decisions.slice(before).some((d) => d.path === "b.ts"));
});

const AWS_KEY = "AKIAIOSFODNN7EXAMPLQ";
const PEM = [
  "-----BEGIN RSA PRIVATE KEY-----",
  "MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB",
  "aZlqNpTU8aKvUbTJaY3Ws5hB5rXCLeTxsNxkTJz+QkUlpPJfiI6Yqyx7KQbHnAKQ",
  "-----END RSA PRIVATE KEY-----",
].join("\n");

test("a secret in a file is never stored (the SQLite file holds none of it) and never shown; line numbers stay the file's", async (t) => {
  const text = `const region = "eu";\nconst key = "${AWS_KEY}";\n${PEM}\nexport function afterTheKey() {}\n`;
  const repo = makeRepo({ "config.ts": text });
  t.teardown(repo.cleanup);
  const o = openIndex(repo.root, repo.dataDir);
  t.teardown(() => o.index.close());
  const r = await o.index.search("after the key region");
  t.is(r.hits.length, 1);
  const shown = JSON.stringify(r);
  t.false(shown.includes(AWS_KEY));
  t.false(shown.includes("MIIEowIBAAKCAQEA"));
  // The declaration after the four-line key is still line 7, as in the file.
  const h = r.hits[0]!;
  t.true(h.lines.some((l) => l.line === 7 && l.text.startsWith("export function afterTheKey")), JSON.stringify(h.lines));
  t.true(h.lines.some((l) => l.line === 1));
  const paths = projectPaths(repo.root, repo.dataDir);
  for (const f of readdirSync(paths.indexDir)) {
    if (!f.startsWith("index.")) continue;
    const bytes = readFileSync(join(paths.indexDir, f)).toString("latin1").toLowerCase();
    t.false(bytes.includes(AWS_KEY.toLowerCase()), `${f} holds the key`);
    t.false(bytes.includes("kcaqea0z3vs5jjcds3xfn"), `${f} holds the private key's text`);
    t.false(bytes.includes("fodnn"), `${f} holds a piece of the key`);
    t.false(bytes.includes("const region"), `${f} holds text: only words are stored`);
  }
  // What is stored is the words: the text's own words are there, the secret's are not.
  const words: string[] = (o.index as any).store.dump().words;
  t.true(words.some((w) => / region 1$/.test(w)), "the word region is stored with its count");
  t.true(words.some((w) => / redacted /.test(w)), "the placeholder's words stand where the secret was");
  t.false(words.some((w) => /fodnn|akia/.test(w)));
  const m = readFileSync(join(paths.indexDir, "trees", `${paths.treeKey}.manifest`), "utf8");
  t.false(m.includes(AWS_KEY) || m.includes("region"));
});

test("index.update records carry every field: root, files, read, removed, skipped, refused, left, more, elapsed_ms", async (t) => {
  const repo = makeRepo({ "a.ts": "const a = 1;\n", "bin.dat": Buffer.from([1, 0, 2, 3]), "gone.ts": "const g = 1;\n" });
  t.teardown(repo.cleanup);
  const o = openIndex(repo.root, repo.dataDir);
  t.teardown(() => o.index.close());
  o.checkers.register("no", (p) => (p === "gone.ts" ? "allow" : "allow"));
  await o.index.update();
  const first = o.records.at(-1)!;
  t.deepEqual(Object.keys(first).sort(), ["elapsed_ms", "files", "left", "more", "read", "refused", "removed", "root", "skipped"]);
  t.is(first.root, repo.root);
  t.is(first.files, 2);
  t.is(first.read, 3);
  t.is(first.skipped, 1);
  t.is(first.removed, 0);
  t.deepEqual(first.refused, []);
  t.is(first.left, 0);
  t.false(first.more);
  t.true(typeof first.elapsed_ms === "number" && first.elapsed_ms >= 0);
  // A search that reads and removes nothing records nothing; an index-update call always records one.
  const n = o.records.length;
  await o.index.search("a");
  t.is(o.records.length, n);
  await o.index.update();
  t.is(o.records.length, n + 1);
  t.is(o.records.at(-1)!.read, 0);
  rmSync(join(repo.root, "gone.ts"));
  await o.index.search("a");
  t.is(o.records.length, n + 2);
  t.is(o.records.at(-1)!.removed, 1);
  t.is(o.records.at(-1)!.files, 1);
});

test("the search budget: a refresh reads what fits in it and the next goes on; index-update has its own", async (t) => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 30; i++) files[`f${String(i).padStart(2, "0")}.ts`] = `export const heron${i} = ${i};\n`;
  const repo = makeRepo(files);
  t.teardown(repo.cleanup);
  // A clock that moves one second each time it is read: a budget of 10 s lets about ten reads through.
  let now = 0;
  const clock = () => (now += 1000);
  const o = openIndex(repo.root, repo.dataDir, { clock, limits: { searchBudgetMs: 10_000, updateBudgetMs: 20_000 } });
  t.teardown(() => o.index.close());
  const s1 = await o.index.search("heron");
  t.true(s1.refresh.read >= 1 && s1.refresh.read <= 10, `read ${s1.refresh.read}`);
  t.is(s1.refresh.left, 30 - s1.refresh.read);
  t.true(s1.partial, "files left to read: the index holds only part");
  const u = await o.index.update();
  t.true(u.read > s1.refresh.read && u.read <= 20, `update read ${u.read}`);
  let total = s1.refresh.read + u.read;
  while (total < 30) {
    const r = await o.index.search("heron");
    t.true(r.refresh.read >= 1);
    total += r.refresh.read;
  }
  t.is(total, 30);
  const done = await o.index.search("heron", { limit: 100 });
  t.false(done.partial);
  t.is(done.hits.length, 30);
});

test("the limits: past the file cap the index holds only part, in path order; oversized, binary and non-UTF-8 files are skipped", async (t) => {
  const repo = makeRepo({
    "a.ts": "const gannet = 1;\n",
    "b.ts": "const gannet = 2;\n",
    "c.ts": "const gannet = 3;\n",
    "big.txt": `gannet ${"x".repeat(2000)}\n`,
    "bin.dat": Buffer.concat([Buffer.from("gannet"), Buffer.from([0, 1, 2])]),
    "latin1.txt": Buffer.from([0x67, 0x61, 0x6e, 0x6e, 0x65, 0x74, 0x20, 0xe9, 0x0a]),
  });
  t.teardown(repo.cleanup);
  const o = openIndex(repo.root, repo.dataDir, { limits: { maxFiles: 2, maxFileBytes: 1000 } });
  t.teardown(() => o.index.close());
  const r = await o.index.search("gannet");
  t.deepEqual(r.hits.map((h) => h.path).sort(), ["a.ts", "b.ts"]);
  t.true(r.partial);
  t.true(r.refresh.more);
  const st = await o.index.status();
  t.is(st.files, 2);
  t.true(st.more);
});

test("index-update PATH adds an ignored directory whole, remembered for the tree", async (t) => {
  const repo = makeRepo({ ".gitignore": "third_party/\n", "main.ts": "const main = 1;\n", "third_party/lib/vendored.ts": "export function puffinVendored() {}\n" }, { tracked: [".gitignore", "main.ts"] });
  t.teardown(repo.cleanup);
  const o = openIndex(repo.root, repo.dataDir);
  t.teardown(() => o.index.close());
  t.deepEqual(await hitPaths(o, "puffin vendored"), []);
  const u = await o.index.update({ path: "third_party" });
  t.is(u.added, "third_party");
  t.deepEqual(await hitPaths(o, "puffin vendored"), ["third_party/lib/vendored.ts"]);
  // Remembered: another index over the same tree (a new process) holds it too.
  const o2 = openIndex(repo.root, repo.dataDir);
  t.teardown(() => o2.index.close());
  repo.write("third_party/lib/more.ts", "export const puffinMore = 1;\n");
  t.deepEqual((await hitPaths(o2, "puffin")).sort(), ["third_party/lib/more.ts", "third_party/lib/vendored.ts"]);
  t.deepEqual((await o2.index.status()).added, ["third_party"]);
});

test("gc removes gone worktrees' manifests at once, and chunks no tree has named only after seven days (an injected clock)", async (t) => {
  const repo = makeRepo({ "a.ts": "export const version = 'one';\n" });
  t.teardown(repo.cleanup);
  const wt = join(repo.base, "wt2");
  repo.git("worktree", "add", "-q", "-b", "second", wt);
  const DAY = 24 * 60 * 60 * 1000;
  let now = 1_000_000_000_000;
  const clock = () => now;
  const o = openIndex(repo.root, repo.dataDir, { clock });
  const o2 = openIndex(wt, repo.dataDir, { clock });
  t.teardown(() => {
    o.index.close();
    o2.index.close();
  });
  await o.index.update();
  await o2.index.update();
  writeFileSync(join(wt, "a.ts"), "export const version = 'two';\n");
  await o2.index.update();
  const store = (o.index as any).store;
  const docs = () => store.dump().docs.map((d: string) => d.split(" ")[0]).length;
  t.is(docs(), 2, "two versions of a.ts: one per tree");
  // The second worktree goes away.
  rmSync(wt, { recursive: true, force: true });
  git(repo.root, "worktree", "prune");
  const g1 = await o.index.gc();
  t.deepEqual(g1.trees, [wt]);
  t.is(g1.docs, 0, "its version is unnamed now, but not for seven days yet");
  now += 6 * DAY;
  t.is((await o.index.gc()).docs, 0);
  now += 1 * DAY + 1;
  const g3 = await o.index.gc();
  t.is(g3.docs, 1);
  t.is(docs(), 1);
  t.deepEqual(await hitPaths(o, "one"), ["a.ts"]);
});
