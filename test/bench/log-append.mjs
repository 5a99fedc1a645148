// Benchmark of the session log: durable appends per second beside SQLite (better-sqlite3,
// synchronous=FULL, one row per transaction, WAL and the default rollback journal), and the
// time to verify a 100,000-event log. Run after a build: node test/bench/log-append.mjs [--appends N] [--runs N]

import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createSessionLog, nodeLogFs, verifyLog, readLog, sessionLogPath } from '../../dist/host/log/index.js';

function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
}
const APPENDS = arg('--appends', 2000);
const RUNS = arg('--runs', 5);
const VERIFY_EVENTS = arg('--events', 100_000);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const now = () => Number(process.hrtime.bigint()) / 1e6; // ms

// The same payloads for every contender: what a REPL session records.
const payloads = Array.from({ length: APPENDS }, (_, i) =>
  i % 2 === 0
    ? { kind: 'eval.req', payload: { source: `(define (f${i} x) (if (< x 2) x (+ (f${i} (- x 1)) (f${i} (- x 2)))))`, origin: 'repl' } }
    : { kind: 'eval.result', payload: { ok: true, req_seq: i + 1, value: String(i * 7919), output: '', elapsed_ms: 0.42 } },
);

const root = mkdtempSync(join(tmpdir(), 'nodwyn-bench-log-'));

// Each contender keeps one open log or database for the whole run; rounds interleave them
// (in a rotating order) so that a busy or quiet moment of the disk falls on all of them.
function logContender() {
  const w = createSessionLog('bench', { version: '0.0.0', origin: 'bench' }, { dataDir: join(root, 'log') });
  let i = 0;
  return {
    name: 'log',
    append() {
      const p = payloads[i++ % payloads.length];
      w.append(p.kind, p.payload);
    },
    close: () => w.close(),
  };
}

function sqliteContender(journal) {
  const db = new Database(join(root, `sqlite-${journal}.db`));
  db.pragma(`journal_mode = ${journal}`);
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE events (seq INTEGER PRIMARY KEY, ts TEXT NOT NULL, session TEXT NOT NULL, kind TEXT NOT NULL, payload TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO events (seq, ts, session, kind, payload) VALUES (?, ?, ?, ?, ?)');
  let seq = 0;
  return {
    name: journal,
    // Autocommit: each insert is its own transaction, durable when run() returns.
    append() {
      const p = payloads[seq % payloads.length];
      insert.run(++seq, new Date().toISOString(), 'bench', p.kind, JSON.stringify(p.payload));
    },
    close: () => db.close(),
  };
}

// Floors: a bare write + fdatasync of a same-sized line, appending (the file grows, so every
// fdatasync also commits the new size to the file system's journal) and overwriting the same
// bytes (no size change: what SQLite's WAL does once it recycles its file).
function rawContender(name, grow) {
  const fd = openSync(join(root, `raw-${name}`), 'w');
  const line = Buffer.from(JSON.stringify({ seq: 1, ts: new Date().toISOString(), session: 'bench', kind: 'eval.req', payload: payloads[0].payload, crc: '00000000' }) + '\n');
  return {
    name,
    append() {
      writeSync(fd, line, 0, line.length, grow ? null : 0);
      fdatasyncSync(fd);
    },
    close: () => closeSync(fd),
  };
}

const contenders = [
  logContender(),
  sqliteContender('WAL'),
  sqliteContender('DELETE'),
  rawContender('raw-append', true),
  rawContender('raw-overwrite', false),
];
const ROUNDS = RUNS * 4;
const PER_ROUND = Math.max(1, Math.floor(APPENDS / 4));
const rates = new Map(contenders.map((c) => [c.name, []]));
const total = new Map(contenders.map((c) => [c.name, 0]));
for (let r = 0; r < ROUNDS; r++) {
  for (let k = 0; k < contenders.length; k++) {
    const c = contenders[(r + k) % contenders.length];
    const t0 = now();
    for (let i = 0; i < PER_ROUND; i++) c.append();
    const ms = now() - t0;
    rates.get(c.name).push((PER_ROUND / ms) * 1000);
    total.set(c.name, total.get(c.name) + ms);
  }
}
for (const c of contenders) c.close();

const fmt = (n) => Math.round(n).toLocaleString('en-US');
// Paired ratios: the log against each SQLite mode in the same round.
const paired = (other) => median(rates.get('log').map((x, i) => x / rates.get(other)[i]));
const overall = (name) => ((ROUNDS * PER_ROUND) / total.get(name)) * 1000;
console.log(`durable appends: ${ROUNDS} interleaved rounds of ${PER_ROUND} per contender (appends/s)`);
console.log(`                                            median   overall   log/this (median of paired rounds)`);
const row = (label, name) =>
  console.log(`  ${label.padEnd(42)}${fmt(median(rates.get(name))).padStart(7)}  ${fmt(overall(name)).padStart(8)}` + (name === 'log' ? '' : `   ${paired(name).toFixed(2)}x`));
row('nodwyn log (one write + fdatasync/event)', 'log');
row('SQLite WAL, synchronous=FULL', 'WAL');
row('SQLite rollback journal, synchronous=FULL', 'DELETE');
row('floor: bare write+fdatasync, appending', 'raw-append');
row('floor: bare write+fdatasync, overwriting', 'raw-overwrite');

// What an append costs without the disk: validation, redaction, encoding, the write call.
{
  const noSync = { ...nodeLogFs, fdatasyncSync: () => {} };
  const w = createSessionLog('cpu', { version: '0.0.0', origin: 'bench' }, { dataDir: join(root, 'cpu'), fs: noSync });
  const times = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = now();
    for (const p of payloads) w.append(p.kind, p.payload);
    times.push(((now() - t0) * 1000) / payloads.length);
  }
  w.close();
  console.log(`  (an append without its fdatasync: ${median(times).toFixed(1)} µs of CPU and the write call)`);
}

// A 100,000-event log, written without fsync (the seam's fdatasync is a no-op): only verifying is timed.
const dataDir = join(root, 'verify');
const noSync = { ...nodeLogFs, fdatasyncSync: () => {} };
const w = createSessionLog('big', { version: '0.0.0', origin: 'bench' }, { dataDir, fs: noSync });
for (let i = 1; i < VERIFY_EVENTS; i++) {
  const p = payloads[i % payloads.length];
  w.append(p.kind, p.payload);
}
w.close();
const file = sessionLogPath('big', dataDir);
const size = statSync(file).size;
const verifyTimes = [];
const iterTimes = [];
for (let r = 0; r < RUNS; r++) {
  let t0 = now();
  const s = verifyLog(file);
  verifyTimes.push(now() - t0);
  if (s.records !== VERIFY_EVENTS) throw new Error(`verify found ${s.records} records`);
  t0 = now();
  let n = 0;
  for (const rec of readLog(file)) if (rec.seq > 0) n++;
  iterTimes.push(now() - t0);
  if (n !== VERIFY_EVENTS) throw new Error(`read ${n} records`);
}
const v = median(verifyTimes);
console.log(`verify a ${VERIFY_EVENTS.toLocaleString('en-US')}-event log (${(size / 1e6).toFixed(1)} MB), median of ${RUNS}:`);
console.log(`  verifyLog: ${v.toFixed(0)} ms (${fmt((VERIFY_EVENTS / v) * 1000)} events/s, ${(size / 1e6 / (v / 1000)).toFixed(0)} MB/s)`);
console.log(`  readLog iteration: ${median(iterTimes).toFixed(0)} ms`);

rmSync(root, { recursive: true, force: true });
