// The code-aware word splitter: the seed's examples, more names, its contract as properties, and what FTS5 sees of it.
import test from "ava";
import fc from "fast-check";
import Database from "better-sqlite3";
import { MAX_WORD_LENGTH, bestLines, countWords, forEachWord, queryWords, splitWords, wordText } from "../../../host/index/index.js";
import { wordTextLines } from "../../../host/index/words.js";
import { lineOffsets } from "../../../host/index/chunks.js";

const cases: [string, string[]][] = [
  // The seed's.
  ["ScrubEnv", ["scrub", "env"]],
  ["index-grep", ["index", "grep"]],
  ["HTTPServer", ["http", "server"]],
  // camelCase, PascalCase and acronyms.
  ["scrubEnv", ["scrub", "env"]],
  ["parseJSONValue", ["parse", "json", "value"]],
  ["XMLHttpRequest", ["xml", "http", "request"]],
  ["getHTTPResponseCode", ["get", "http", "response", "code"]],
  ["IOError", ["io", "error"]],
  ["URL", ["url"]],
  ["aB", ["a", "b"]],
  // snake_case, SCREAMING_SNAKE, kebab-case, dotted and paths.
  ["max_file_bytes", ["max", "file", "bytes"]],
  ["MAX_FILE_BYTES", ["max", "file", "bytes"]],
  ["call-with-current-continuation", ["call", "with", "current", "continuation"]],
  ["host/index/words.ts", ["host", "index", "words", "ts"]],
  ["process.env.HOME", ["process", "env", "home"]],
  ["__proto__", ["proto"]],
  // Digits.
  ["utf8", ["utf", "8"]],
  ["sha256sum", ["sha", "256", "sum"]],
  ["T21", ["t", "21"]],
  ["x86_64", ["x", "86", "64"]],
  ["v2Beta", ["v", "2", "beta"]],
  ["404NotFound", ["404", "not", "found"]],
  ["3.14", ["3", "14"]],
  // ASCII case folded, nothing else.
  ["Größe", ["größe"]],
  ["naïveFunction", ["naïve", "function"]],
  ["ÉCOLE", ["École"]],
  ["HTTPÉcole", ["http", "École"]],
  ["écoleMaternelle", ["école", "maternelle"]],
  ["日本語のテキスト", ["日本語のテキスト"]],
  // Separators: punctuation, emoji, non-ASCII punctuation.
  ["a—b “c” 😀d", ["a", "b", "c", "d"]],
  ["(define (greet name)", ["define", "greet", "name"]],
  ["", []],
  ["  -- __ .. ", []],
];

for (const [text, words] of cases) {
  test(`splits ${JSON.stringify(text)}`, (t) => {
    t.deepEqual(splitWords(text), words);
  });
}

test("a word longer than MAX_WORD_LENGTH is dropped, one that long is kept; camel parts are measured apart", (t) => {
  const long = "a".repeat(MAX_WORD_LENGTH + 1);
  const ok = "b".repeat(MAX_WORD_LENGTH);
  t.deepEqual(splitWords(`x ${long} ${ok} y`), ["x", ok, "y"]);
  // A long name made of short words keeps its words.
  const name = "Very".repeat(20);
  t.deepEqual(splitWords(name), Array(20).fill("very"));
});

test("countWords and queryWords", (t) => {
  t.deepEqual([...countWords("scrubEnv scrub_env SCRUB-ENV other")], [["scrub", 3], ["env", 3], ["other", 1]]);
  t.deepEqual(queryWords("ScrubEnv scrub env HTTPServer"), ["scrub", "env", "http", "server"]);
  t.deepEqual(queryWords("a b c d", 2), ["a", "b"]);
});

/** The contract, written a second way (regular expressions over whole runs), to compare with the state machine. */
function reference(text: string): string[] {
  const out: string[] = [];
  const runs = text.match(/(?:[A-Za-z0-9]|(?![\x00-\x7f])[\p{L}\p{N}\p{M}])+/gu) ?? [];
  const U = "[A-Z\\p{Lu}\\p{Lt}]";
  const L = "(?:[a-z]|(?![\\x00-\\x7f])(?![\\p{Lu}\\p{Lt}])[\\p{L}\\p{N}\\p{M}])";
  for (const run of runs) {
    const cut = run
      .replace(new RegExp(`(${L})(?=${U})`, "gu"), "$1 ")
      .replace(new RegExp(`(${U})(?=${U}${L})`, "gu"), "$1 ")
      .replace(/([0-9])(?=[^0-9 ])/gu, "$1 ")
      .replace(/([^0-9 ])(?=[0-9])/gu, "$1 ");
    for (const w of cut.split(" ")) if (w !== "" && w.length <= MAX_WORD_LENGTH) out.push(w.replace(/[A-Z]/g, (c) => c.toLowerCase()));
  }
  return out;
}

const pieces = ["a", "b", "Z", "Q", "x", "0", "7", "_", "-", ".", " ", "/", "é", "É", "ß", "日", "😀", "𝐀", "𝐚", "ǅ", "\u0301", "—", "\n", "HTTP", "Server", "json", "2", "\ud800", "\udc00"];

test("property: the splitter keeps its contract (compared with a second implementation)", (t) => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
      const s = parts.join("");
      t.deepEqual(splitWords(s), reference(s), JSON.stringify(s));
    }),
    { numRuns: 2000 },
  );
  fc.assert(
    fc.property(fc.string({ unit: "grapheme", maxLength: 60 }), (s) => {
      t.deepEqual(splitWords(s), reference(s), JSON.stringify(s));
    }),
    { numRuns: 1000 },
  );
});

test("property: bestLines picks the lines a split of every line picks (its lower-case screen of ASCII words drops none)", (t) => {
  // The choice made by splitting every line: the three lines with the most distinct wanted words, ties to the first.
  const slow = (lines: string[], want: Set<string>) =>
    lines
      .map((l, i) => ({ line: i + 1, n: new Set(splitWords(l).filter((w) => want.has(w))).size }))
      .filter((x) => x.n > 0)
      .sort((a, b) => b.n - a.n || a.line - b.line)
      .slice(0, 3)
      .map((x) => x.line)
      .sort((a, b) => a - b);
  const line = fc.array(fc.constantFrom(...pieces, "Kelvin", "\u212a", "İ", "env", "ENV", "ScrubEnv"), { maxLength: 12 }).map((p) => p.join(""));
  const word = fc.constantFrom("a", "b", "z", "q", "x", "http", "server", "env", "scrub", "kelvin", "é", "日", "ß", "É", "0", "7");
  fc.assert(
    fc.property(fc.array(line, { minLength: 1, maxLength: 12 }), fc.uniqueArray(word, { minLength: 1, maxLength: 3 }), (lines, words) => {
      const want = new Set(words);
      t.deepEqual(bestLines(lines, 1, lines.length, want, 1000).map((x) => x.line), slow(lines, want), JSON.stringify({ lines, words }));
    }),
    { numRuns: 2000 },
  );
});

test("property: every word is non-empty, has no ASCII capital and at most MAX_WORD_LENGTH units; splitting a word again gives it", (t) => {
  fc.assert(
    fc.property(fc.string({ unit: "binary", maxLength: 80 }), (s) => {
      forEachWord(s, (w) => {
        t.true(w.length > 0 && w.length <= MAX_WORD_LENGTH);
        t.false(/[A-Z]/.test(w));
        t.deepEqual(splitWords(w), [w]);
      });
    }),
    { numRuns: 1000 },
  );
});

test("what the store's FTS5 ascii tokenizer finds in wordText(text) is exactly splitWords(text)", (t) => {
  const db = new Database(":memory:");
  t.teardown(() => db.close());
  db.exec("CREATE VIRTUAL TABLE w USING fts5(x, tokenize='ascii'); CREATE VIRTUAL TABLE v USING fts5vocab(w, 'instance');");
  const ins = db.prepare("INSERT INTO w(rowid, x) VALUES (?, ?)");
  const terms = db.prepare<[number], { term: string }>("SELECT term FROM v WHERE doc = ? ORDER BY offset");
  let id = 0;
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 30 }), (parts) => {
      const s = parts.join("");
      ins.run(++id, wordText(s));
      t.deepEqual(
        terms.all(id).map((r) => r.term),
        splitWords(s),
        JSON.stringify(s),
      );
    }),
    { numRuns: 1500 },
  );
  fc.assert(
    fc.property(fc.string({ unit: "binary", maxLength: 60 }), (s) => {
      ins.run(++id, wordText(s));
      t.deepEqual(
        terms.all(id).map((r) => r.term),
        splitWords(s),
        JSON.stringify(s),
      );
    }),
    { numRuns: 1500 },
  );
});

test("property: wordTextLines gives wordText's result and the line offsets lineOffsets finds in it", (t) => {
  // Newlines next to everything that changes the result's length: cuts, blanked non-ASCII separators, dropped long words.
  const parts = [...pieces, "\n", "\r\n", "\n\n", "—\n", "x".repeat(70), "\nY".repeat(3), "getHTTPResponse2XX"];
  const check = (s: string): void => {
    const at: number[] = [];
    const w = wordTextLines(s, at);
    t.is(w, wordText(s), JSON.stringify(s));
    t.deepEqual(at, lineOffsets(w), JSON.stringify(s));
  };
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...parts), { maxLength: 40 }), (p) => check(p.join(""))),
    { numRuns: 3000 },
  );
  fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 80 }), check), { numRuns: 1500 });
  // Worked by hand: "aB\n—\nx" becomes "a B\n \nx", whose lines begin at 0, 4 and 6; a last newline begins no line.
  const at: number[] = [];
  t.is(wordTextLines("aB\n—\nx", at), "a B\n \nx");
  t.deepEqual(at, [0, 4, 6]);
  const at2: number[] = [];
  t.is(wordTextLines("fooBar\n", at2), "foo Bar\n");
  t.deepEqual(at2, [0]);
  const at3: number[] = [];
  t.is(wordTextLines("", at3), "");
  t.deepEqual(at3, []);
});
