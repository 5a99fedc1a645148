// BM25 order on corpora whose right order and scores are computed by hand, and the 3x weight of the path and the first line.
import test from "ava";
import { makeRepo, openIndex } from "./repo.js";

// FTS5's bm25 (k1 = 1.2, b = 0.75) with column weights path 3, first line 3, body 1:
//   score(D) = sum over query words q of idf(q) * f * 2.2 / (f + 1.2 * (0.25 + 0.75 * |D| / avgdl))
//   idf(q) = ln((N - n(q) + 0.5) / (n(q) + 0.5)),  f = 3 * (count in path + count in first line) + count in the other lines
//   |D| = the chunk's words and its path's, each counted once; avgdl = their mean over the N chunks.

test("BM25 order and scores on a corpus computed by hand", async (t) => {
  // Each file is one chunk: the first line "note", one line of words; its path's words are (name, txt).
  const repo = makeRepo({
    "one.txt": "note\nalpha beta\n", // |D| = 2 + 1 + 2 = 5
    "two.txt": "note\nalpha alpha alpha gamma\n", // 7
    "three.txt": "note\nbeta gamma gamma gamma gamma\n", // 8
    "four.txt": "note\ngamma gamma\n", // 5
    "five.txt": "note\ndelta\n", // 4
  });
  t.teardown(repo.cleanup);
  const o = openIndex(repo.root, repo.dataDir);
  t.teardown(() => o.index.close());
  const r = await o.index.search("alpha beta", { limit: 10 });
  // N = 5, avgdl = 29 / 5 = 5.8; n(alpha) = n(beta) = 2, so idf = ln(3.5 / 2.5) = 0.336472.
  // one:   f = 1 each, |D| = 5: K = 1.2 * (0.25 + 0.75 * 5 / 5.8) = 1.075862; 2 * 2.2 / 2.075862 * idf = 0.713188
  // two:   f(alpha) = 3, |D| = 7: K = 1.386207; 6.6 / 4.386207 * idf = 0.506292
  // three: f(beta) = 1, |D| = 8: K = 1.541379; 2.2 / 2.541379 * idf = 0.291275
  t.deepEqual(
    r.hits.map((h) => h.path),
    ["one.txt", "two.txt", "three.txt"],
  );
  const want = [0.713188, 0.506292, 0.291275];
  r.hits.forEach((h, i) => t.true(Math.abs(h.score - (want[i] as number)) < 0.0002, `${h.path}: ${h.score} vs ${want[i]}`));
});

test("a word in the path or the first line counts three times: it scores as three in the body of a chunk as long", async (t) => {
  const pad: Record<string, string> = {};
  for (let i = 0; i < 6; i++) pad[`pad${"abcdef"[i]}.txt`] = "note\nfiller filler filler\n";
  const repo = makeRepo({
    ...pad,
    "zeta.txt": "note\nfiller filler filler\n", // zeta once in the path
    "b.txt": "zeta\nfiller filler filler\n", // once in the first line
    "c.txt": "note\nzeta zeta zeta\n", // three times in the body
    "d.txt": "note\nzeta filler filler\n", // once in the body
  });
  t.teardown(repo.cleanup);
  const o = openIndex(repo.root, repo.dataDir);
  t.teardown(() => o.index.close());
  const r = await o.index.search("zeta", { limit: 10 });
  const by = new Map(r.hits.map((h) => [h.path, h.score]));
  t.is(r.hits.length, 4);
  // Every chunk has 6 words (2 of its path, 1 first line, 3 others): the same length, so only f differs.
  t.is(by.get("zeta.txt"), by.get("c.txt"));
  t.is(by.get("b.txt"), by.get("c.txt"));
  t.true((by.get("c.txt") as number) > (by.get("d.txt") as number));
  // N = 10, n = 4: idf = ln(6.5 / 4.5) = 0.367725; avgdl = 6, K = 1.2.
  // f = 3: 3 * 2.2 / 4.2 * idf = 0.577854; f = 1: 2.2 / 2.2 * idf = 0.367725.
  t.true(Math.abs((by.get("c.txt") as number) - 0.577854) < 0.0002);
  t.true(Math.abs((by.get("d.txt") as number) - 0.367725) < 0.0002);
  t.is(r.hits.at(-1)!.path, "d.txt");
});

test("a hit shows its first line and the three lines holding the most of the query's words, numbered as in the file", async (t) => {
  const body = [
    "export function handleRequest(req) {", // 1: request (handleRequest is handle, request)
    "  const a = 1;", // 2
    "  parse(req.body);", // 3: parse
    "  // parse the request and log the response", // 4: parse request response
    "  log(response);", // 5: response
    "  request.end();", // 6: request
    "  return parse(request, response);", // 7: parse request response
    "}", // 8
  ].join("\n");
  const repo = makeRepo({ "server.ts": `${body}\n` });
  t.teardown(repo.cleanup);
  const o = openIndex(repo.root, repo.dataDir);
  t.teardown(() => o.index.close());
  const r = await o.index.search("parse request response");
  t.is(r.hits.length, 1);
  const h = r.hits[0]!;
  t.is(h.path, "server.ts");
  t.is(h.start, 1);
  t.is(h.end, 8);
  t.is(h.first, "export function handleRequest(req) {");
  // Lines 4 and 7 hold three words each; of the lines with one, the earliest (1) comes next.
  t.deepEqual(
    h.lines.map((l) => l.line),
    [1, 4, 7],
  );
  t.is(h.lines[1]!.text, "  // parse the request and log the response");
});

test("a query with no word finds nothing; path keeps only files under it; limit caps the hits", async (t) => {
  const repo = makeRepo({ "docs/a.md": "# deploy\n", "docs/sub/b.md": "deploy notes\n", "src/deploy.ts": "export function deploy() {}\n", "docsx/c.md": "deploy\n" });
  t.teardown(repo.cleanup);
  const o = openIndex(repo.root, repo.dataDir);
  t.teardown(() => o.index.close());
  t.deepEqual((await o.index.search("-- ... !!")).hits, []);
  t.deepEqual((await o.index.search("deploy", { path: "./docs/" })).hits.map((h) => h.path).sort(), ["docs/a.md", "docs/sub/b.md"]);
  t.deepEqual((await o.index.search("deploy", { path: "src/deploy.ts" })).hits.map((h) => h.path), ["src/deploy.ts"]);
  t.is((await o.index.search("deploy", { limit: 2 })).hits.length, 2);
  t.is((await o.index.search("deploy")).hits.length, 4);
});
