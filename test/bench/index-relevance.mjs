// Relevance of index-search against a grep baseline, on this repository at a fixed commit (test/bench/index-queries.json).
//
// Run after a build: `npm run bench:index-relevance` (or `node test/bench/index-relevance.mjs [--per-query]`).
// The corpus is `git archive` of the queries file's commit, made a git
// repository in a temp folder. For each query (written with the files a person
// asking it would want, before any result was looked at):
//   index-search   the default 8 hits of (index-search QUERY "repo"): a hit's rank is its place among them
//                  (several chunks of one file take several places)
//   index files    the first 8 distinct files of its hits
//   grep           the baseline: each whitespace-separated word of the query
//                  searched with index-grep's engine as a case-insensitive
//                  literal (every cap lifted); files ranked by how many of the
//                  words they hold, then by matching lines, then by path; the
//                  first 8
// MRR@8: the mean over queries of 1 / the rank of the first wanted file in the
// first 8 (0 when none is there). recall@8: the mean share of the wanted files
// found in the first 8.

import { execFileSync, execSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const spec = JSON.parse(readFileSync(join(repo, "test/bench/index-queries.json"), "utf8"));
const perQuery = process.argv.includes("--per-query");

const { createGuard } = await import(join(repo, "dist/host/guard/index.js"));
const { createSearchEngine } = await import(join(repo, "dist/host/search/index.js"));
const { Redactor } = await import(join(repo, "dist/host/redact/index.js"));
const { RepoIndex } = await import(join(repo, "dist/host/index/index.js"));

const base = mkdtempSync(join(tmpdir(), "nodwyn-relevance-"));
try {
  const corpus = join(base, "corpus");
  mkdirSync(corpus);
  execSync(`git -C ${JSON.stringify(repo)} archive ${spec.commit} | tar -x -C ${JSON.stringify(corpus)}`);
  const env = { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@x.invalid", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@x.invalid" };
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: corpus, env });
  execFileSync("git", ["add", "-A"], { cwd: corpus, env });
  execFileSync("git", ["commit", "-q", "-m", "corpus"], { cwd: corpus, env });

  const guard = createGuard({ root: corpus });
  const engine = createSearchEngine(guard);
  const index = new RepoIndex({ guard, search: engine, redactor: new Redactor(), dataDir: join(base, "data") });
  const built = await index.update();
  process.stderr.write(`corpus ${spec.commit}: ${built.files} files held\n`);

  const escape = (w) => w.replace(/[\\.+*?()|[\]{}^$]/g, (c) => `\\${c}`);
  const lifted = { maxFiles: Infinity, maxMatches: Infinity, maxOutputChars: Infinity, maxLineChars: 100, timeoutMs: 300_000 };
  async function grepRank(q) {
    const words = [...new Set(q.toLowerCase().split(/\s+/).filter(Boolean))];
    const per = new Map();
    for (const w of words) {
      const r = await engine.grep(".", `(?i)${escape(w)}`, { limits: lifted });
      const lines = new Map();
      for (const m of r.matches) lines.set(m.path, (lines.get(m.path) ?? 0) + 1);
      for (const [p, n] of lines) {
        const e = per.get(p) ?? { words: 0, lines: 0 };
        e.words++;
        e.lines += n;
        per.set(p, e);
      }
    }
    return [...per].sort((a, b) => b[1].words - a[1].words || b[1].lines - a[1].lines || (a[0] < b[0] ? -1 : 1)).map(([p]) => p);
  }

  function score(ranked, want) {
    const top = ranked.slice(0, 8);
    const first = top.findIndex((p) => want.includes(p));
    const found = want.filter((w) => top.includes(w)).length;
    return { rr: first === -1 ? 0 : 1 / (first + 1), recall: found / want.length, first: first === -1 ? null : first + 1 };
  }

  const rows = [];
  const sums = { idx: { rr: 0, recall: 0 }, files: { rr: 0, recall: 0 }, grep: { rr: 0, recall: 0 } };
  for (const { q, want } of spec.queries) {
    const hits = (await index.search(q)).hits.map((h) => h.path);
    const many = (await index.search(q, { limit: 100 })).hits.map((h) => h.path);
    const files = [...new Set(many)];
    const g = await grepRank(q);
    const s = { idx: score(hits, want), files: score(files, want), grep: score(g, want) };
    for (const k of Object.keys(sums)) {
      sums[k].rr += s[k].rr;
      sums[k].recall += s[k].recall;
    }
    rows.push({ q, s, top: files.slice(0, 3), gtop: g.slice(0, 3) });
  }
  const n = spec.queries.length;
  const f = (x) => x.toFixed(3);
  const out = [
    `${n} queries over this repository at ${spec.commit} (${built.files} files).`,
    "",
    "| ranking | MRR@8 | recall@8 |",
    "| :-- | --: | --: |",
    `| index-search, its 8 hits | ${f(sums.idx.rr / n)} | ${f(sums.idx.recall / n)} |`,
    `| index-search, its first 8 files | ${f(sums.files.rr / n)} | ${f(sums.files.recall / n)} |`,
    `| grep baseline (files by query words found, then lines) | ${f(sums.grep.rr / n)} | ${f(sums.grep.recall / n)} |`,
  ];
  if (perQuery) {
    out.push("", "| query | index-search first relevant | index files | grep |", "| :-- | --: | --: | --: |");
    for (const r of rows) out.push(`| ${r.q} | ${r.s.idx.first ?? "-"} | ${r.s.files.first ?? "-"} | ${r.s.grep.first ?? "-"} |`);
  }
  process.stdout.write(out.join("\n") + "\n");
  index.close();
  await engine.close();
} finally {
  rmSync(base, { recursive: true, force: true });
}
