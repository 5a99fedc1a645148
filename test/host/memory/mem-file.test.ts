// The .mem file's robustness: deleted, truncated at every byte offset, a flipped byte, a log that gained events, a repaired last turn, two processes at once.
import test from "ava";
import { execFile } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { openForAppend } from "../../../host/log/index.js";
import { MemReader, memFileOf, openTask, rankViews, recallEvent, type TaskView } from "../../../host/memory/index.js";
import { HEAD_READ, crc32, wordHash } from "../../../host/memory/mem-file.js";
import { crc32 as zlibCrc32 } from "node:zlib";
import { handLog, handTurn, tempDir } from "./memory-helpers.js";

const run = promisify(execFile);
const SESSION = "20260101T000000Z-0000aaaa";

function smallLog(t: any) {
  const data = tempDir(t);
  const repo = tempDir(t, "nodwyn-mem-tree-");
  const log = handLog(data, SESSION, repo, [
    ...handTurn(1, "why does the build fail", { tool: "shell-exec", args: { command: "make" }, output: "exit 2\nmake: *** no rule\n[stderr]\nboom" }, "The Makefile has no rule."),
    ...handTurn(2, "read ScrubEnv", { tool: "fs-read", args: { path: "env.ts" }, output: "[lines 1-2 of 2]\nexport function scrubEnv() {}\n" }, "scrubEnv is empty."),
  ]);
  return { data, repo, log };
}

/** Everything a search and recall can say of a task: every word searched, the cards, the notes, every seq recalled. */
function answer(v: TaskView, words: readonly string[]): string {
  const out: unknown[] = [];
  // One search with every word reads every word's slot and postings; then each word alone for the order.
  out.push(rankViews([v], words.join(" "), 100, { earlier: false }));
  for (const w of words.slice(0, 2)) out.push(rankViews([v], w, 100, { earlier: false }));
  out.push(v.cards(), v.notes(), v.facts, v.docs, v.totalLen);
  for (let s = 1; s <= v.lastSeq; s++) out.push(recallEvent(v, s, 0, 0, 10_000));
  return JSON.stringify(out);
}

/** Every word the task's file holds (read from a fresh file). */
function vocabulary(v: TaskView): string[] {
  const r = MemReader.open(memFileOf(v.logFile))!;
  try {
    return [...r.allPostings().keys()].sort();
  } finally {
    r.close();
  }
}

/** The answer read through the memory as it is, retrying once with a rebuild as ConversationMemory does. */
function answerNow(log: string, words: readonly string[], o: { noWrite?: boolean } = {}): { text: string; actions: string[] } {
  const actions: string[] = [];
  for (let attempt = 0; attempt < 2; attempt++) {
    const v = openTask(log, { ...(attempt > 0 ? { rebuild: true } : {}), ...o })!;
    actions.push(v.action);
    try {
      return { text: answer(v, words), actions };
    } catch (e) {
      if ((e as Error).name !== "MemMismatch") throw e;
    } finally {
      v.close();
    }
  }
  throw new Error("no answer after a rebuild");
}

test("a missing file is made from the log; deleting it is safe and the answer is the same", (t) => {
  const { log } = smallLog(t);
  const first = openTask(log)!;
  t.is(first.action, "created");
  const words = vocabulary(first);
  const a = answer(first, words);
  first.close();
  t.true(existsSync(memFileOf(log)));
  const second = openTask(log)!;
  t.is(second.action, "read");
  t.is(answer(second, words), a);
  second.close();
  rmSync(memFileOf(log));
  const third = answerNow(log, words);
  t.deepEqual(third.actions, ["created"]);
  t.is(third.text, a);
});

test("truncated at every byte offset: each is detected, made again, and answers as a fresh file does", (t) => {
  const { log } = smallLog(t);
  const fresh = answerNow(log, []);
  t.truthy(fresh);
  const v = openTask(log)!;
  // A truncated file is refused by its header (its size): a few words are enough to compare answers.
  const words = ["build", "scrub", "env", "rule"];
  const want = answer(v, words);
  v.close();
  const mem = memFileOf(log);
  const bytes = readFileSync(mem);
  for (let k = 0; k < bytes.length; k++) {
    writeFileSync(mem, bytes.subarray(0, k));
    // Every offset is refused by the reader; every 13th is also searched, and every 97th writes the file again.
    let refused = false;
    try {
      MemReader.open(mem)?.close();
    } catch (e) {
      refused = (e as Error).name === "MemMismatch";
    }
    if (!refused) {
      t.fail(`truncated to ${k} of ${bytes.length} bytes: not refused`);
      return;
    }
    if (k % 13 !== 0) continue;
    const write = k % 97 === 0;
    const got = answerNow(log, words, { noWrite: !write });
    if (got.text !== want || got.actions[0] !== "rebuilt") {
      t.fail(`truncated to ${k} of ${bytes.length} bytes: ${got.actions.join(", ")}`);
      return;
    }
    if (write && !readFileSync(mem).equals(bytes)) {
      t.fail(`truncated to ${k} bytes: the file made again differs from a fresh one`);
      return;
    }
  }
  t.pass();
});

test("a file longer than its first read: cut anywhere past the header, or grown by a byte, is refused without a stat", (t) => {
  const data = tempDir(t);
  const repo = tempDir(t, "nodwyn-mem-tree-");
  // Turns of distinct words: a file of more than twice the bytes read with the header (HEAD_READ).
  // (Letters, not digits: the splitter cuts at digits.)
  const name = (i: number, k: string): string => k + String.fromCharCode(97 + (i % 26), 97 + (Math.floor(i / 26) % 26));
  const turns = Array.from({ length: 400 }, (_, i) => handTurn(i + 1, `question ${i} about ${name(i, "alpha")}`, { tool: "shell-exec", args: { command: `grep ${name(i, "beta")}` }, output: `exit 0\n${name(i, "gamma")} found in ${name(i, "file")}.ts` }, `answer ${i} ${name(i, "delta")}`));
  const log = handLog(data, SESSION, repo, turns.flat());
  const v = openTask(log)!;
  const words = [name(7, "alpha"), name(31, "gamma"), "question"];
  const want = answer(v, words);
  v.close();
  const mem = memFileOf(log);
  const bytes = readFileSync(mem);
  t.true(bytes.length > 2 * HEAD_READ, `the file has ${bytes.length} bytes`);
  // Many chunks of the word table: every word is found by its lookup (first and last of a chunk too), with the
  // postings the whole table gives; words it does not hold are not.
  const r = MemReader.open(mem)!;
  t.true(r.header.words > 20 * 64, `${r.header.words} words`);
  const all = r.allPostings();
  let same = 0;
  for (const [w, list] of all) {
    const p = r.postings(w);
    const pairs: number[] = [];
    for (let k = 0; p !== null && k < p.length; k += 3) pairs.push(p[k]!, p[k + 1]!);
    if (JSON.stringify(pairs) === JSON.stringify(list)) same++;
  }
  t.is(same, all.size);
  for (const w of [name(400, "alpha"), "zzzz", "a", name(7, "alphax")]) t.is(r.postings(w), null, w);
  r.close();
  const refused = (b: Buffer): boolean => {
    writeFileSync(mem, b);
    try {
      MemReader.open(mem)?.close();
      return false;
    } catch (e) {
      return (e as Error).name === "MemMismatch";
    }
  };
  for (const k of [HEAD_READ - 1, HEAD_READ, HEAD_READ + 1, 2 * HEAD_READ, bytes.length - 2, bytes.length - 1]) t.true(refused(bytes.subarray(0, k)), `cut to ${k} bytes`);
  t.true(refused(Buffer.concat([bytes, Buffer.from([0])])), "grown by a byte");
  const got = answerNow(log, words);
  t.deepEqual(got.actions, ["rebuilt"]);
  t.is(got.text, want);
  t.true(readFileSync(mem).equals(bytes), "made again, the file is the one the log makes");
  // Whole again, it is read as it is.
  const again = openTask(log)!;
  t.is(again.action, "read");
  again.close();
});

test("a folder under a log's name is no task", (t) => {
  const data = tempDir(t);
  const dir = join(data, "sessions");
  mkdirSync(join(dir, `${SESSION}.jsonl`), { recursive: true });
  t.is(openTask(join(dir, `${SESSION}.jsonl`)), null);
});

test("a flipped byte anywhere: the answer is the same as from a fresh file, and every part a reader checks detects it", (t) => {
  const { log } = smallLog(t);
  const v = openTask(log)!;
  const words = vocabulary(v);
  const want = answer(v, words);
  v.close();
  const mem = memFileOf(log);
  const bytes = readFileSync(mem);
  for (let k = 0; k < bytes.length; k++) {
    const b = Buffer.from(bytes);
    b[k] = b[k]! ^ 0x5a;
    writeFileSync(mem, b);
    const got = answerNow(log, words, { noWrite: true });
    if (got.text !== want) {
      t.fail(`byte ${k} flipped: the answer differs`);
      return;
    }
    // Every byte is checked where it is read; a search of every word reads every chunk of the word table.
    if (!got.actions.includes("rebuilt")) {
      t.fail(`byte ${k} flipped was not detected`);
      return;
    }
  }
  writeFileSync(mem, bytes);
  t.pass();
});

test("the word table: sorted by the words' hashes, each block ending where the next begins, checked by chunks its fence (read with the header) names", (t) => {
  const { log } = smallLog(t);
  openTask(log)!.close();
  const mem = memFileOf(log);
  const bytes = readFileSync(mem);
  const r = MemReader.open(mem)!;
  const h = r.header;
  const words = [...r.allPostings().keys()];
  r.close();
  t.is(bytes.readUInt32LE(8), 3, "format version 3");
  t.is(h.words, words.length);
  // The fence (one entry per chunk of 64 words: first hash, first offset, CRC of the chunk) lies right after the meta
  // part, inside the first read; the table after it.
  const chunks = Math.ceil(h.words / 64);
  t.is(h.fenceOff, h.metaOff + h.metaLen);
  t.true(h.fenceOff + chunks * 12 <= HEAD_READ);
  t.is(h.tableOff, h.fenceOff + chunks * 12);
  for (let c = 0; c < chunks; c++) {
    const from = h.tableOff + c * 64 * 8;
    const to = Math.min(h.tableOff + h.words * 8, from + 64 * 8);
    t.is(bytes.readUInt32LE(h.fenceOff + c * 12), bytes.readUInt32LE(from));
    t.is(bytes.readUInt32LE(h.fenceOff + c * 12 + 4), bytes.readUInt32LE(from + 4));
    t.is(bytes.readUInt32LE(h.fenceOff + c * 12 + 8), crc32(bytes, from, to));
  }
  let prev = -1;
  for (let i = 0; i < h.words; i++) {
    const hash = bytes.readUInt32LE(h.tableOff + i * 8);
    const at = bytes.readUInt32LE(h.tableOff + i * 8 + 4);
    const end = i + 1 < h.words ? bytes.readUInt32LE(h.tableOff + (i + 1) * 8 + 4) : h.postingsLen;
    t.true(hash >= prev, "hashes ascend");
    prev = hash;
    const wl = bytes.readUInt16LE(h.postingsOff + at);
    const word = bytes.toString("utf8", h.postingsOff + at + 2, h.postingsOff + at + 2 + wl);
    t.is(wordHash(Buffer.from(word, "utf8")), hash, `${word} is where its hash says`);
    // A block: word, count, varints, then the CRC of what precedes it in the block.
    t.is(crc32(bytes, h.postingsOff + at, h.postingsOff + end - 4), bytes.readUInt32LE(h.postingsOff + end - 4));
  }
  t.is(h.postingsOff + h.postingsLen, bytes.length, "the postings end the file");
  // A file of version 2 (the layout before the table was read with the header) is made again from the log.
  const old = Buffer.from(bytes);
  old.writeUInt32LE(2, 8);
  writeFileSync(mem, old);
  const v = openTask(log)!;
  t.is(v.action, "rebuilt");
  t.regex(v.rebuiltBecause ?? "", /format version 2, not 3/);
  v.close();
  t.true(readFileSync(mem).equals(bytes));
});

test("the CRC of a large part is zlib's value, as of a small one", (t) => {
  const b = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) & 0xff));
  for (const n of [0, 1, 12, 127, 128, 129, 4999, 5000]) t.is(crc32(b, 0, n), zlibCrc32(b.subarray(0, n)), `${n} bytes`);
  t.is(crc32(b, 100, 300), zlibCrc32(b.subarray(100, 300)));
  // The IEEE check value of "123456789".
  t.is(crc32(Buffer.from("123456789")), 0xcbf43926);
});

test("a log that gained events: only what it gained is folded in, and the answer is a fresh file's", (t) => {
  const { data, log } = smallLog(t);
  const v = openTask(log)!;
  v.close();
  const before = statSync(memFileOf(log)).size;
  const { writer } = openForAppend(SESSION, { dataDir: data });
  for (const [k, p] of handTurn(3, "and the flaky pager test", { tool: "shell-exec", args: { command: "npm test pager" }, output: "exit 1\npager flaky timeout" }, "It is flaky.")) writer.append(k as any, p);
  writer.close();
  const after = openTask(log)!;
  t.is(after.action, "extended");
  const words = [...vocabulary(after), "pager", "flaky"];
  const got = answer(after, words);
  after.close();
  t.true(statSync(memFileOf(log)).size > before);
  rmSync(memFileOf(log));
  const fresh = openTask(log)!;
  t.is(fresh.action, "created");
  t.is(answer(fresh, words), got);
  fresh.close();
  t.true(got.includes("pager flaky timeout"));
});

test("a log whose last turn was cut by a crash and repaired at resume: detected, and the answer is a fresh file's", (t) => {
  const { data, log } = smallLog(t);
  openTask(log)!.close();
  // Turn 3 begins, then the process dies in the middle of writing a line.
  const { writer } = openForAppend(SESSION, { dataDir: data });
  writer.append("user.msg", { text: "a turn the crash cut short: walrus", actor: "person" });
  writer.append("tool.call", { call_id: "c9", tool: "shell-exec", args: { command: "sleep 100" } });
  writer.close();
  appendFileSync(log, '{"seq":99,"ts":"2026-01-01T00:00:00.000Z","session":"' + SESSION + '","kind":"tool.res');
  const torn = openTask(log)!;
  t.is(torn.action, "read", "the file still holds the two whole turns; the open one is folded from the log");
  t.is(rankViews([torn], "walrus", 8, { earlier: false }).found, 1);
  torn.close();
  // Resume repairs the tail and closes the turn.
  const r = openForAppend(SESSION, { dataDir: data, resume: { version: "test", origin: "resume" } });
  t.truthy(r.truncated);
  r.writer.append("tool.result", { call_id: "c9", tool: "shell-exec", ok: false, error: "interrupted", recovered: true });
  r.writer.append("turn.end", { outcome: "failed", turn: 3, error: "interrupted: the session ended during this turn" });
  r.writer.close();
  const after = openTask(log)!;
  t.is(after.action, "extended");
  const words = [...vocabulary(after), "walrus", "interrupted"];
  const got = answer(after, words);
  t.is(after.card(3)?.outcome, "failed");
  after.close();
  rmSync(memFileOf(log));
  const fresh = openTask(log)!;
  t.is(answer(fresh, words), got);
  fresh.close();
});

test("a log replaced by another under the same name: the file does not match and is made again", (t) => {
  const { data, repo, log } = smallLog(t);
  openTask(log)!.close();
  rmSync(log);
  handLog(data, SESSION, repo, handTurn(1, "an entirely new capybara task", null, "ok"));
  const v = openTask(log)!;
  t.is(v.action, "rebuilt");
  t.is(rankViews([v], "capybara", 8, { earlier: false }).found, 1);
  t.is(rankViews([v], "makefile", 8, { earlier: false }).found, 0);
  v.close();
});

test("two processes searching at once never leave a torn file", async (t) => {
  const { log } = smallLog(t);
  const dist = fileURLToPath(new URL("../../../host/memory/index.js", import.meta.url));
  const child = `
    import { openTask, rankViews, memFileOf } from ${JSON.stringify(dist)};
    import { rmSync } from "node:fs";
    const log = process.argv[1];
    for (let i = 0; i < 60; i++) {
      if (i % 2 === 0) rmSync(memFileOf(log), { force: true });
      const v = openTask(log);
      const r = rankViews([v], "ScrubEnv Makefile", 8, { earlier: false });
      v.close();
      if (r.found < 3) { console.error("wrong answer", r.found); process.exit(3); }
    }
  `;
  const kids = [0, 1].map(() => run(process.execPath, ["--input-type=module", "-e", child, log], { timeout: 120_000 }));
  let seen = 0;
  let done = false;
  const both = Promise.all(kids).finally(() => {
    done = true;
  });
  const watch = (async () => {
    while (!done) {
      let r: MemReader | null = null;
      try {
        r = MemReader.open(memFileOf(log));
        if (r !== null) {
          r.meta();
          r.allPostings();
          seen++;
        }
      } finally {
        r?.close();
      }
      await new Promise((res) => setTimeout(res, 2));
    }
  })();
  await Promise.all([both, watch]);
  t.true(seen > 0);
  const v = openTask(log)!;
  t.is(v.action, "read");
  v.close();
  // No temporary file is left behind.
  t.deepEqual(readFileSync(log).length > 0, true);
  const { readdirSync } = await import("node:fs");
  t.deepEqual(readdirSync(join(log, "..")).filter((f) => f.endsWith(".tmp")), []);
});

test("after a write the view reads the bytes written: the same answer as the folds (nothing written) and as the file read later, with an open turn after the last whole one", (t) => {
  const { data, log } = smallLog(t);
  // A turn still open after the two whole ones: folded at every opening, never written.
  const { writer } = openForAppend(SESSION, { dataDir: data });
  for (const [k, p] of handTurn(3, "the pager test is flaky", { tool: "shell-exec", args: { command: "npm test pager" }, output: "exit 1\npager flaky timeout" }, "").slice(0, -1)) writer.append(k as any, p);
  writer.close();
  const folds = openTask(log, { noWrite: true })!;
  t.false(existsSync(memFileOf(log)));
  const words = ["pager", "flaky", "make", "rule", "scrub", "env", "build"];
  const fromFolds = answer(folds, words);
  folds.close();
  const written = openTask(log)!;
  t.is(written.action, "created");
  t.true(existsSync(memFileOf(log)));
  const fromBytes = answer(written, words);
  t.is(written.lastSeq, folds.lastSeq);
  written.close();
  const read = openTask(log)!;
  t.is(read.action, "read");
  const fromFile = answer(read, words);
  read.close();
  t.is(fromBytes, fromFolds);
  t.is(fromFile, fromFolds);
  // The open turn's result is found, and the whole turns' events too.
  t.true(fromBytes.includes("pager flaky timeout"));
  t.true(fromBytes.includes("make: *** no rule"));
});

test("a reader over bytes held in memory checks them as a file's: a flipped byte in a postings block is a mismatch", (t) => {
  const { log } = smallLog(t);
  openTask(log)!.close();
  const bytes = readFileSync(memFileOf(log));
  const good = MemReader.fromBytes(memFileOf(log), bytes);
  const list = good.postings("make");
  t.truthy(list);
  // Events 0-3 of turn 1: the message, the reply with its call (`→ shell-exec {"command":"make"}`: make once), the
  // result (make once in its output, and three times for its call's words), the answer. Flat [event, tf, length, …].
  t.deepEqual([list!.length, list![0], list![1], list![3], list![4]], [6, 1, 1, 2, 4]);
  good.close();
  const postingsOff = good.header.postingsOff;
  const bad = Buffer.from(bytes);
  for (let k = postingsOff; k < bad.length; k++) bad[k] = bad[k]! ^ 0xff;
  const r = MemReader.fromBytes(memFileOf(log), bad);
  t.throws(() => r.postings("make"), { name: "MemMismatch" });
  r.close();
});
