// The recall forms' benchmark (issue 16): recall-log, recall-entry and recall-search on a 100,000-event session
// log of real text (lines of the repository's own sources and docs as messages, replies and tool output), beside
// two baselines in the same run: the log reader decoding every record and testing a JS RegExp on its payload (what
// a straightforward implementation does), and `grep -c` over the file (the byte scan's physical limit). Medians of
// repeated runs in one warm process, ratios to the reader baseline. Nothing here asserts a time; the goal is
// recall-log under 50 ms on 100,000 events.
//
//   npm run build && node test/bench/recall.mjs [--events 100000] [--runs 15] [--json FILE]

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { tmpdir, loadavg, cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const { encodeLine } = await import(join(ROOT, 'dist', 'host', 'log', 'record.js'));
const { readLog } = await import(join(ROOT, 'dist', 'host', 'log', 'index.js'));
const { recallLog, recallEntry, recallSearch, DEFAULT_RECALL_KINDS } = await import(join(ROOT, 'dist', 'host', 'memory', 'index.js'));
const { useLineTables } = await import(join(ROOT, 'dist', 'host', 'memory', 'recall-log.js'));

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const EVENTS = Number(opt('--events', 100_000));
const RUNS = Number(opt('--runs', 15));
const JSON_OUT = opt('--json', null);

// ---- real text: lines of the repository's sources and docs ----------------------------------------------
function lines() {
  const out = [];
  const walk = (d) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      const s = statSync(p);
      if (s.isDirectory()) walk(p);
      else if (/\.(ts|md|scm)$/.test(n)) out.push(...readFileSync(p, 'utf8').split('\n').filter((l) => l.trim() !== ''));
    }
  };
  for (const d of ['host', 'docs', 'stdlib', 'primitives']) walk(join(ROOT, d));
  return out;
}

const data = mkdtempSync(join(tmpdir(), 'nodwyn-bench-recall-'));
try {
  const sessions = join(data, 'sessions');
  mkdirSync(sessions, { recursive: true });
  const session = '20261202T050000Z-0000beef';
  const file = join(sessions, `${session}.jsonl`);
  const text = lines();
  let li = 0;
  const take = (n) => {
    const parts = [];
    for (let i = 0; i < n; i++) parts.push(text[li++ % text.length]);
    return parts.join('\n');
  };
  const fd = openSync(file, 'w');
  let seq = 0;
  const t0 = Date.parse('2026-12-02T05:00:00.000Z');
  const put = (kind, payload) => {
    seq++;
    writeSync(fd, encodeLine(seq, new Date(t0 + seq).toISOString(), session, kind, JSON.stringify(payload)));
  };
  put('session.start', { version: 'bench', origin: 'bench', cwd: ROOT, repo: ROOT, argv: [] });
  let turn = 0;
  while (seq < EVENTS) {
    turn++;
    put('user.msg', { text: take(2), actor: 'person' });
    put('llm.req', { model: 'm', server: 's', tools: [], params: {}, turn });
    put('llm.resp', { req_seq: seq, model: 'm', text: take(1), tool_calls: [{ id: `c${turn}`, name: 'fs-read', arguments: '{"path":"a.ts"}' }], stop_reason: 'tool_calls', usage: {} });
    put('tool.call', { call_id: `c${turn}`, tool: 'fs-read', args: { path: 'a.ts' }, resp_seq: seq });
    put('tool.result', { call_id: `c${turn}`, tool: 'fs-read', ok: true, output: take(8), duration_ms: 3 });
    put('llm.req', { model: 'm', server: 's', tools: [], params: {}, turn });
    put('llm.resp', { req_seq: seq, model: 'm', text: take(2), stop_reason: 'end', usage: {} });
    put('turn.end', { outcome: 'done', turn, elapsed_ms: 10 });
  }
  closeSync(fd);
  const bytes = statSync(file).size;

  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.floor(s.length / 2)];
  };
  const time = (fn) => {
    fn(); // warm
    const xs = [];
    let r;
    for (let i = 0; i < RUNS; i++) {
      const a = performance.now();
      r = fn();
      xs.push(performance.now() - a);
    }
    return { ms: median(xs), max: Math.max(...xs), r };
  };
  const q = (match, o = {}) => ({ match, kinds: DEFAULT_RECALL_KINDS, before: null, after: null, limit: 20, clip: 200, ...o });
  // The reader baseline: decode every record (CRC checked), LIKE as a JS RegExp over its payload's JSON.
  const likeJs = (m) => new RegExp(m.split('%').map((s) => s.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&').replace(/_/g, '.')).join('.*?'), 'i');
  const reader = (m) => {
    const re = likeJs(m);
    const kinds = new Set(DEFAULT_RECALL_KINDS);
    let n = 0;
    for (const r of readLog(file)) if (kinds.has(r.kind) && re.test(JSON.stringify(r.payload))) n++;
    return n;
  };
  const grep = (m) => {
    try {
      return Number(execFileSync('grep', ['-c', '-i', '-F', m, file], { encoding: 'utf8' }).trim());
    } catch (e) {
      return Number(String(e.stdout ?? '0').trim() || 0);
    }
  };
  const cases = [
    ['rare literal', 'window-overflow'],
    ['common word', 'the'],
    ['two wildcards', 'record%seq%log'],
    ['no match', 'zqxjzqxjzqxj'],
  ];
  const rows = [];
  for (const [name, m] of cases) {
    // With and without the line table (the scan before it), alternating run by run so load falls on both alike.
    const on = [];
    const off = [];
    let a = { r: recallLog(data, session, q(m)) };
    for (let i = 0; i < RUNS; i++)
      for (const [flag, xs] of [[true, on], [false, off]]) {
        useLineTables(flag);
        const t0 = performance.now();
        recallLog(data, session, q(m));
        xs.push(performance.now() - t0);
      }
    useLineTables(true);
    a = { ...a, ms: median(on), max: Math.max(...on) };
    const noTableMs = median(off);
    const b = time(() => reader(m));
    const g = m.includes('%') ? null : time(() => grep(m));
    rows.push({ case: name, match: m, matched: a.r.matched, recallLogMs: a.ms, recallLogMaxMs: a.max, noTableMs, readerMs: b.ms, readerMatched: b.r, grepMs: g?.ms ?? null, ratioToReader: a.ms / b.ms });
  }
  const entry = time(() => recallEntry(data, session, Math.floor(EVENTS / 2)));
  const search = time(() => recallSearch(data, () => 'p', 'p', { query: 'record seq', kinds: DEFAULT_RECALL_KINDS, limit: 60, window: 220, lead: 32 }));
  const load = loadavg()[0];
  console.log(`recall forms on one log of ${seq} events (${(bytes / 1048576).toFixed(1)} MB), medians of ${RUNS} runs; load ${load.toFixed(2)} on ${cpus().length} cores`);
  console.log('case            matched   recall-log ms   no table ms   reader ms   grep -c ms   recall-log/reader');
  for (const r of rows)
    console.log(`${r.case.padEnd(15)} ${String(r.matched).padStart(7)} ${r.recallLogMs.toFixed(1).padStart(15)} ${r.noTableMs.toFixed(1).padStart(13)} ${r.readerMs.toFixed(1).padStart(11)} ${(r.grepMs === null ? '-' : r.grepMs.toFixed(1)).padStart(12)} ${r.ratioToReader.toFixed(3).padStart(19)}`);
  console.log(`recall-entry (seq ${Math.floor(EVENTS / 2)}): ${entry.ms.toFixed(1)} ms; recall-search "record seq" (one session, ${search.r.length} rows): ${search.ms.toFixed(1)} ms`);
  console.log(`goal: recall-log under 50 ms on 100,000 events — worst median here ${Math.max(...rows.map((r) => r.recallLogMs)).toFixed(1)} ms`);
  if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify({ events: seq, bytes, runs: RUNS, load, rows, entryMs: entry.ms, searchMs: search.ms }, null, 2));
} finally {
  rmSync(data, { recursive: true, force: true });
}
