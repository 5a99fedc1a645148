// The per-process cache of session logs the recall forms read (log-cache.ts): a log that grew, was replaced or truncated between two calls is read as it is now.
import test from "ava";
import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeLine } from "../../../host/log/record.js";
import { DEFAULT_RECALL_KINDS, recallEntry, recallLog, type RecallLogQuery } from "../../../host/memory/recall-log.js";
import { clearLogCache, foldAscii, logBytes, logCacheStats, LOG_CACHE_LIMITS } from "../../../host/memory/log-cache.js";

const SESSION = "20261203T120000Z-0000cafe";

function tempData(t: { teardown(f: () => void): void }): { data: string; file: string } {
  const data = mkdtempSync(join(tmpdir(), "nodwyn-log-cache-"));
  t.teardown(() => rmSync(data, { recursive: true, force: true }));
  mkdirSync(join(data, "sessions"));
  return { data, file: join(data, "sessions", `${SESSION}.jsonl`) };
}

/** Log lines: a session.start, then one user.msg per text, numbered from `first`. */
function lines(texts: readonly string[], first = 1, withStart = first === 1): Buffer {
  const out: Buffer[] = [];
  let seq = first;
  const ts = (n: number) => new Date(Date.parse("2026-12-03T12:00:00.000Z") + n * 1000).toISOString();
  if (withStart) {
    out.push(encodeLine(seq, ts(seq), SESSION, "session.start", JSON.stringify({ version: "t", origin: "t", cwd: "/r", repo: "/r", argv: [] })));
    seq++;
  }
  for (const text of texts) {
    out.push(encodeLine(seq, ts(seq), SESSION, "user.msg", JSON.stringify({ text, actor: "person" })));
    seq++;
  }
  return Buffer.concat(out);
}

const q = (match: string | null, o: Partial<RecallLogQuery> = {}): RecallLogQuery => ({ match, kinds: DEFAULT_RECALL_KINDS, before: null, after: null, limit: 20, clip: 200, ...o });
const bodies = (data: string, match: string | null) => recallLog(data, SESSION, q(match)).rows.map((r) => r.body);

test.beforeEach(() => clearLogCache());

test("a log that grew between two calls: the appended rows are found, by a literal, a wildcard pattern and by seq", (t) => {
  const { data, file } = tempData(t);
  writeFileSync(file, lines(["apple one", "pear two"]));
  t.deepEqual(bodies(data, "APPLE"), ["apple one"]);
  t.deepEqual(bodies(data, "a_p%ne"), ["apple one"]);
  t.is(logCacheStats().logs, 1);
  // seq 1 is the start, 2 and 3 the messages; the next are 4 and 5.
  appendFileSync(file, lines(["Apple three", "plum four"], 4, false));
  t.deepEqual(bodies(data, "apple"), ["apple one", "Apple three"]);
  t.deepEqual(bodies(data, "a_p%e"), ["apple one", "Apple three"]);
  t.is(recallLog(data, SESSION, q(null)).matched, 4);
  t.is(recallEntry(data, SESSION, 5)?.body, "plum four");
  t.is(recallEntry(data, SESSION, 6), null);
  appendFileSync(file, lines(["apple five"], 6, false));
  t.is(recallEntry(data, SESSION, 6)?.body, "apple five");
  t.deepEqual(bodies(data, "apple"), ["apple one", "Apple three", "apple five"]);
  t.is(logCacheStats().logs, 1);
});

test("a log replaced by another file, of the same size or greater: none of the old rows come back", (t) => {
  const { data, file } = tempData(t);
  writeFileSync(file, lines(["apple one", "pear two"]));
  t.deepEqual(bodies(data, "apple"), ["apple one"]);
  // Rewritten in place, the same size: the same inode, other bytes.
  const same = lines(["mango one", "pear two"]);
  t.is(same.length, statSync(file).size);
  writeFileSync(file, same);
  t.deepEqual(bodies(data, "apple"), []);
  t.deepEqual(bodies(data, "mango"), ["mango one"]);
  // Replaced by a rename (another inode), a longer log that starts with the same bytes but for one row.
  const other = join(data, "other.jsonl");
  writeFileSync(other, lines(["mango one", "kiwi two", "kiwi three"]));
  renameSync(other, file);
  t.deepEqual(bodies(data, "mango"), ["mango one"]);
  t.deepEqual(bodies(data, "pear"), []);
  t.deepEqual(bodies(data, "kiwi"), ["kiwi two", "kiwi three"]);
  t.is(recallEntry(data, SESSION, 3)?.body, "kiwi two");
});

test("a truncated log: the rows past its new end are gone, and what is written after is read", (t) => {
  const { data, file } = tempData(t);
  const head = lines(["apple one"]);
  writeFileSync(file, Buffer.concat([head, lines(["apple two", "apple three"], 3, false)]));
  t.deepEqual(bodies(data, "apple"), ["apple one", "apple two", "apple three"]);
  truncateSync(file, head.length);
  t.deepEqual(bodies(data, "apple"), ["apple one"]);
  t.is(recallEntry(data, SESSION, 3), null);
  // Written again past the old end: other rows at the same seqs, more bytes than before.
  appendFileSync(file, lines(["cherry two, a longer row than before", "cherry three, longer too", "cherry four"], 3, false));
  t.deepEqual(bodies(data, "apple"), ["apple one"]);
  t.deepEqual(bodies(data, "cherry%"), ["cherry two, a longer row than before", "cherry three, longer too", "cherry four"]);
  t.is(recallEntry(data, SESSION, 3)?.body, "cherry two, a longer row than before");
});

test("a missing log is ENOENT, and the cache holds at most its number of logs", (t) => {
  const { data, file } = tempData(t);
  t.throws(() => logBytes(file), { code: "ENOENT" });
  for (let i = 0; i < LOG_CACHE_LIMITS.logs + 2; i++) {
    const f = join(data, `log${i}.jsonl`);
    writeFileSync(f, lines([`text ${i}`]));
    t.is(logBytes(f).buf.toString("utf8").includes(`text ${i}`), true);
  }
  t.is(logCacheStats().logs, LOG_CACHE_LIMITS.logs);
  // Read through without keeping: a new log is not added.
  const extra = join(data, "extra.jsonl");
  writeFileSync(extra, "x\n");
  t.is(logBytes(extra, false).buf.toString(), "x\n");
  t.is(logCacheStats().logs, LOG_CACHE_LIMITS.logs);
});

test("the folded copy lowercases ASCII letters only, and follows the appended tail", (t) => {
  const { file } = tempData(t);
  writeFileSync(file, "AbZ[@`{ É\n");
  const a = logBytes(file);
  t.is(a.folded().toString("utf8"), "abz[@`{ É\n");
  appendFileSync(file, "QRS\n");
  const b = logBytes(file);
  t.is(b.folded().toString("utf8"), "abz[@`{ É\nqrs\n");
  // The earlier view still reads its own bytes.
  t.is(a.buf.toString("utf8"), "AbZ[@`{ É\n");
  const src = Buffer.from("HELLO"), dst = Buffer.alloc(5);
  foldAscii(src, dst, 1, 4);
  t.is(dst.toString("latin1"), "\0ell\0");
});

test("foldAscii: every byte value at every alignment and length, against the byte rule", (t) => {
  const rule = (b: number) => (b >= 0x41 && b <= 0x5a ? b + 0x20 : b);
  const src = Buffer.allocUnsafe(600); // pooled, as the dst buffers below are
  for (let i = 0; i < src.length; i++) src[i] = (i * 7) & 0xff; // every byte value, in several positions of a word
  let bad = 0;
  for (let off = 0; off < 4; off++)
    for (const len of [0, 3, 63, 64, 65, 257, 512]) {
      const s = src.subarray(off, off + len);
      for (const dOff of [off, (off + 1) & 3]) {
        // Both in one pooled ArrayBuffer, as small buffers are: dst after src in the same memory.
        const d = Buffer.allocUnsafe(len + 4).fill(0).subarray(dOff, dOff + len);
        foldAscii(s, d, 0, len);
        for (let i = 0; i < len; i++) if (d[i] !== rule(s[i]!)) bad++;
      }
      // In place, from an offset inside the buffer: the bytes before it are left alone.
      const c = Buffer.from(s);
      foldAscii(c, c, Math.min(2, len), len);
      for (let i = 0; i < len; i++) if (c[i] !== (i < 2 ? s[i] : rule(s[i]!))) bad++;
    }
  t.is(bad, 0);
});

test("recall-entry on a log of many lines: every seq found by its bisection, past damaged lines, and none that is not there", (t) => {
  const { data, file } = tempData(t);
  const texts = Array.from({ length: 3000 }, (_, i) => `message ${i + 2}`); // seq 2..3001 (1 is the start)
  const all = lines(texts);
  const body = all.toString("utf8").split("\n");
  // A torn line between seq 1000 and 1001, and seq 2000's crc spoiled (so that record is not there).
  body.splice(1000, 0, '{"seq":10');
  const at2000 = body.findIndex((l) => l.startsWith('{"seq":2000,'));
  body[at2000] = body[at2000]!.replace(/"crc":"[0-9a-f]{8}"/, '"crc":"00000000"');
  writeFileSync(file, body.join("\n"));
  let wrong = 0;
  for (const seq of [2, 3, 999, 1000, 1001, 1002, 1999, 2001, 2500, 3000, 3001]) if (recallEntry(data, SESSION, seq)?.body !== `message ${seq}`) wrong++;
  t.is(wrong, 0);
  t.is(recallEntry(data, SESSION, 1)?.kind, "session.start");
  t.is(recallEntry(data, SESSION, 2000), null);
  t.is(recallEntry(data, SESSION, 3002), null);
  t.is(recallEntry(data, SESSION, 0), null);
});

test("a pattern with wildcards: lines holding its longest run are tested whole, so the run alone, or in the envelope, is no match", (t) => {
  const { data, file } = tempData(t);
  writeFileSync(file, lines(["An apple", "maple leaf", "people", "PLE only"]));
  t.deepEqual(bodies(data, "%APPLE%"), ["An apple"]);
  t.deepEqual(bodies(data, "maple_leaf"), ["maple leaf"]);
  t.deepEqual(bodies(data, "maple_leaf__"), ["maple leaf"]); // the payload goes on: ","actor":"person"}
  t.deepEqual(bodies(data, "peop%y"), []); // "people" and no y after it
  t.deepEqual(bodies(data, "only%son"), ["PLE only"]); // the match runs from the text into "person"
  t.deepEqual(bodies(data, "a_ple"), ["An apple"]); // a run of 3 bytes: one RE2 pass, the same rows
  // The longest runs here are in every line's envelope, never in a user.msg payload.
  t.deepEqual(bodies(data, "%user.msg%"), []);
  t.deepEqual(bodies(data, "session_"), []);
});
