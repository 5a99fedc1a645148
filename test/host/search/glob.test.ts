// Globs with ripgrep's --glob semantics, matched as a walk meets directories and files.
import test from "ava";
import { compileGlobs, SearchError } from "../../../host/search/index.js";

/** Whether `globs` select the file at root-relative `path` when searching `searchRel`. */
function selects(globs: string | string[], path: string, searchRel = "."): boolean {
  const f = compileGlobs(globs);
  if (f === null) return true;
  const parts = path.split("/");
  const cut = searchRel === "." ? 0 : searchRel.length + 1;
  let state = f.initial(searchRel);
  for (let i = searchRel === "." ? 0 : searchRel.split("/").length; i < parts.length - 1; i++) {
    const rel = parts.slice(0, i + 1).join("/");
    state = f.enterDir(state, parts[i] as string, rel, rel.slice(cut));
  }
  return f.selects(state, parts[parts.length - 1] as string, path, path.slice(cut));
}

test("no glob selects everything", (t) => {
  t.is(compileGlobs(undefined), null);
  t.is(compileGlobs([]), null);
});

test("* and ? stay within a component; a slash-free glob matches a name at any depth", (t) => {
  t.true(selects("*.ts", "a.ts"));
  t.true(selects("*.ts", "src/deep/a.ts"));
  t.false(selects("*.ts", "a.tsx"));
  t.true(selects("?.md", "docs/a.md"));
  t.false(selects("?.md", "docs/ab.md"));
});

test("[...] classes, ranges and negated classes", (t) => {
  t.true(selects("[ab].txt", "a.txt"));
  t.false(selects("[ab].txt", "c.txt"));
  t.true(selects("file[0-9].log", "x/file7.log"));
  t.true(selects("[!a].txt", "b.txt"));
  t.false(selects("[!a].txt", "a.txt"));
});

test("{a,b} alternatives", (t) => {
  t.true(selects("*.{ts,js}", "x.js"));
  t.true(selects("*.{ts,js}", "x.ts"));
  t.false(selects("*.{ts,js}", "x.go"));
  t.true(selects("{src,lib}/**", "lib/a/b.c"));
});

test("** spans directories; a glob with a slash matches from the start of the path", (t) => {
  t.true(selects("src/**/*.ts", "src/a.ts"));
  t.true(selects("src/**/*.ts", "src/a/b/c.ts"));
  t.false(selects("src/**/*.ts", "lib/src/a.ts"));
  t.true(selects("**/deep/*.txt", "a/b/deep/x.txt"));
  t.true(selects("**/deep/*.txt", "deep/x.txt"));
  t.false(selects("src/*.ts", "src/a/b.ts"));
});

test("a slash-free glob naming a directory selects every file under it", (t) => {
  t.true(selects("tests", "tests/a.py"));
  t.true(selects("tests", "pkg/tests/unit/b.py"));
  t.false(selects("tests", "pkg/testsuite/b.py"));
});

test("a glob with a slash naming a directory selects the files under it", (t) => {
  t.true(selects("src/sub", "src/sub/a.c"));
  t.true(selects("src/sub", "src/sub/x/y.c"));
  t.false(selects("src/sub", "src/other/a.c"));
});

test("a path glob matches relative to the directory searched or to the root", (t) => {
  t.true(selects("sub/*.c", "src/sub/a.c", "src"));
  t.true(selects("src/sub/*.c", "src/sub/a.c", "src"));
  t.false(selects("other/*.c", "src/sub/a.c", "src"));
  // The directory searched itself can be what a glob names.
  t.true(selects("src", "src/a.c", "src"));
});

test("a leading slash anchors; a trailing slash matches directories only", (t) => {
  t.true(selects("/a.txt", "a.txt"));
  t.false(selects("/a.txt", "x/a.txt"));
  t.true(selects("build/", "build/out.js"));
  t.false(selects("build/", "build"));
});

test("a leading ! keeps every path the rest does not match", (t) => {
  t.false(selects("!*.ts", "a.ts"));
  t.true(selects("!*.ts", "a.js"));
  t.false(selects("!vendor", "vendor/lib/x.go"));
  t.true(selects("!vendor", "src/x.go"));
});

test("with several globs the last match decides, and unmatched paths follow whether any glob is positive", (t) => {
  t.true(selects(["*.ts", "!*.test.ts", "a.test.ts"], "a.test.ts"));
  t.false(selects(["*.ts", "!*.test.ts"], "b.test.ts"));
  t.true(selects(["*.ts", "!*.test.ts"], "b.ts"));
  t.false(selects(["*.ts", "!*.test.ts"], "b.go"));
  t.true(selects(["!*.md", "!*.txt"], "b.go"));
});

test("hidden names are ordinary to a glob (a named hidden file can be selected)", (t) => {
  t.true(selects("*.json", ".config.json"));
});

test("an empty glob is an error", (t) => {
  t.throws(() => compileGlobs(""), { instanceOf: SearchError, message: /empty glob/ });
  t.throws(() => compileGlobs("!"), { instanceOf: SearchError });
  t.throws(() => compileGlobs("/"), { instanceOf: SearchError });
});
