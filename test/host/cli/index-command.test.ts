// `nodwyn index` as a person runs it: update with a summary or a progress bar on a terminal, search, status, gc, usage errors.
import test from "ava";
import { writeFileSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import pty from "node-pty";
import { BIN, nodwyn, sessionRecords } from "../../helpers/cli.js";
import { waitExit } from "../../helpers/wait-exit.js";
import { makeRepo } from "../index/repo.js";

function repo(t: { teardown(fn: () => void): void }, n = 3) {
  const files: Record<string, string> = { "README.md": "# Demo\n\nThe grebe project.\n" };
  for (let i = 0; i < n; i++) files[`src/m${i}.ts`] = `export function grebeNumber${i}() {\n  return ${i};\n}\n`;
  const r = makeRepo(files);
  t.teardown(r.cleanup);
  return r;
}

test("update off a terminal prints one summary line on stdout and no progress bar", (t) => {
  const r = repo(t);
  const out = nodwyn(["index", "update"], { cwd: r.root, dataDir: r.dataDir });
  t.is(out.code, 0, out.stderr);
  t.regex(out.stdout, /^index: 4 files held \(read 4, removed 0, skipped 0\) in \d+(\.\d)? m?s\n$/);
  t.is(out.stderr, "");
  // The session log has each read's decision and the index.update.
  const recs = sessionRecords(r.dataDir);
  t.deepEqual(
    recs.filter((x) => x.kind === "guard.decision").map((x) => `${x.payload.path} ${x.payload.decision} ${x.payload.actor}`).sort(),
    ["README.md allow index", "src/m0.ts allow index", "src/m1.ts allow index", "src/m2.ts allow index"],
  );
  t.is(recs.filter((x) => x.kind === "index.update").length, 1);
  const again = nodwyn(["index", "update", "--quiet"], { cwd: r.root, dataDir: r.dataDir });
  t.regex(again.stdout, /^index: 4 files held \(read 0, removed 0, skipped 0\)/);
});

test("update --json, search --json, status --json and gc --json print JSON", (t) => {
  const r = repo(t);
  const u = JSON.parse(nodwyn(["index", "update", "--json"], { cwd: r.root, dataDir: r.dataDir }).stdout);
  t.is(u.files, 4);
  t.is(u.read, 4);
  t.deepEqual(u.refused, []);
  t.is(u.root, r.root);
  const s = JSON.parse(nodwyn(["index", "search", "grebe", "number", "1", "--json", "--limit", "2"], { cwd: r.root, dataDir: r.dataDir }).stdout);
  t.is(s.hits.length, 2);
  t.is(s.hits[0].path, "src/m1.ts");
  t.false(s.partial);
  const st = JSON.parse(nodwyn(["index", "status", "--json"], { cwd: r.root, dataDir: r.dataDir }).stdout);
  t.is(st.files, 4);
  t.is(st.chunks, 4);
  t.true(st.bytes > 0);
  t.false(st.partial);
  t.true(st.indexDir.startsWith(join(r.dataDir, "projects")));
  const g = JSON.parse(nodwyn(["index", "gc", "--json"], { cwd: r.root, dataDir: r.dataDir }).stdout);
  t.deepEqual(g, { trees: [], docs: 0, chunks: 0, busy: false });
});

test("search prints path:first-last, the first line and the best lines; --path narrows", (t) => {
  const r = repo(t);
  const out = nodwyn(["index", "search", "grebeNumber2"], { cwd: r.root, dataDir: r.dataDir });
  t.is(out.code, 0, out.stderr);
  t.regex(out.stdout, /^src\/m2\.ts:1-3: export function grebeNumber2\(\) \{\n +1: export function grebeNumber2\(\) \{\n/);
  t.regex(out.stdout, /\[refreshed first: read 4, removed 0\]\n$/);
  const docs = nodwyn(["index", "search", "grebe", "--path", "README.md"], { cwd: r.root, dataDir: r.dataDir });
  t.regex(docs.stdout, /^README\.md:1-3: # Demo\n/);
  t.false(docs.stdout.includes("src/"));
  const none = nodwyn(["index", "search", "nothing-like-it"], { cwd: r.root, dataDir: r.dataDir });
  t.regex(none.stdout, /^no hits\n/);
});

test("status before and after a build, and the folder to delete", (t) => {
  const r = repo(t);
  const before = nodwyn(["index", "status"], { cwd: r.root, dataDir: r.dataDir });
  t.is(before.code, 0, before.stderr);
  t.regex(before.stdout, /files +0 files held/);
  t.regex(before.stdout, /updated +never/);
  nodwyn(["index", "update"], { cwd: r.root, dataDir: r.dataDir });
  const after = nodwyn(["index", "status"], { cwd: r.root, dataDir: r.dataDir });
  t.regex(after.stdout, /files +4 files held/);
  t.regex(after.stdout, /chunks +4/);
  t.regex(after.stdout, /on disk +\d+(\.\d)? KiB/);
  t.regex(after.stdout, /partial +no/);
  const dir = /index +(\S+)/.exec(after.stdout)?.[1] as string;
  // Deleting the folder loses nothing: the next search builds it again.
  rmSync(dir, { recursive: true, force: true });
  const s = JSON.parse(nodwyn(["index", "search", "grebe", "--json"], { cwd: r.root, dataDir: r.dataDir }).stdout);
  t.is(s.refresh.read, 4);
  t.is(s.hits.length, 4);
});

test("usage errors exit 2 and say what is wrong; --help exits 0; a data dir that cannot be written is a clear error", (t) => {
  const r = repo(t);
  for (const [args, msg] of [
    [["index"], /nodwyn index: a command is required\nhint: one of: update, search, status, gc/],
    [["index", "frobnicate"], /nodwyn index: unknown command 'frobnicate'/],
    [["index", "search"], /nodwyn index search: missing QUERY/],
    [["index", "search", "x", "--limit", "0"], /--limit: a whole number from 1 to 100 is expected, got "0"/],
    [["index", "update", "--bogus"], /nodwyn index update: unknown option --bogus/],
    [["index", "status", "extra"], /nodwyn index status: takes no arguments/],
  ] as [string[], RegExp][]) {
    const out = nodwyn(args, { cwd: r.root, dataDir: r.dataDir });
    t.is(out.code, 2, args.join(" "));
    t.regex(out.stderr, msg);
    t.regex(out.stderr, /usage: nodwyn index/);
  }
  const help = nodwyn(["index", "--help"], { cwd: r.root, dataDir: r.dataDir });
  t.is(help.code, 0);
  t.regex(help.stdout, /usage: nodwyn index update\|search\|status\|gc/);
  t.regex(help.stdout, /deleting it loses nothing/);
  t.regex(nodwyn(["index", "search", "--help"], { cwd: r.root }).stdout, /usage: nodwyn index search QUERY\.\.\. \[--limit N\] \[--path P\] \[--json\]/);
  t.regex(nodwyn(["--help"], { cwd: r.root }).stdout, /index +the repository index: update, search, status, gc/);
  // The data directory is a file: the index cannot be made there.
  const blocker = join(r.base, "not-a-dir");
  writeFileSync(blocker, "x");
  const bad = nodwyn(["index", "update", "--no-log"], { cwd: r.root, dataDir: blocker });
  t.is(bad.code, 1);
  t.regex(bad.stderr, /^nodwyn index: cannot create .*projects/);
  t.false(bad.stderr.includes("    at "), "no JS stack");
});

test("update PATH adds an ignored directory; a path outside the repository is refused", (t) => {
  const r = repo(t);
  mkdirSync(join(r.root, "vendor"));
  writeFileSync(join(r.root, ".gitignore"), "vendor/\n");
  writeFileSync(join(r.root, "vendor", "lib.ts"), "export const vendoredGrebe = 1;\n");
  const out = nodwyn(["index", "update", "vendor"], { cwd: r.root, dataDir: r.dataDir });
  t.is(out.code, 0, out.stderr);
  t.regex(out.stdout, /added vendor whole/);
  const s = JSON.parse(nodwyn(["index", "search", "vendored", "--json"], { cwd: r.root, dataDir: r.dataDir }).stdout);
  t.deepEqual(s.hits.map((h: { path: string }) => h.path), ["vendor/lib.ts"]);
  const outside = nodwyn(["index", "update", "/etc"], { cwd: r.root, dataDir: r.dataDir });
  t.is(outside.code, 1);
  t.regex(outside.stderr, /denied \(root-pin\)/);
});

for (const [start, extra] of [
  ["the snapshot", {}],
  ["the bundle", { NODWYN_NO_SNAPSHOT: "1" }],
] as const) {
  // The bundle is an ES module: a CommonJS package inside it (cli-progress) that requires a Node
  // built-in failed there with "Dynamic require of readline is not supported" (only on a terminal).
  test(`on a terminal, update draws a progress bar on stderr: files, files per second, time left (from ${start})`, async (t) => {
    const r = repo(t, 400);
    const p = pty.spawn(BIN, ["index", "update"], {
      cwd: r.root,
      cols: 120,
      rows: 20,
      env: { ...process.env, ...extra, NODWYN_DATA_DIR: r.dataDir, TERM: "xterm-256color" } as Record<string, string>,
    });
    let text = "";
    p.onData((d) => (text += d));
    const { code } = await waitExit(p, `nodwyn index update in a pty (from ${start})`, { t, output: () => text });
    const out = { code, text };
    t.is(out.code, 0, out.text);
    t.regex(out.text, /indexing \|[^|]*\| \d+\/\d+ files \| \d+ files\/s \| [^|]* left/);
    t.regex(out.text, /index: 401 files held \(read 401, removed 0, skipped 0\)/);
  });
}
