// Benchmark of the eviction strategy's host cost (not a test: nothing here asserts a time), on real sessions made by the loop
// with the scripted provider: evict.scm's /evict 50 (the strategy's choice in Scheme, the stub read from the log, context.narrow
// written, the window rebuilt), the host's part alone (record-eviction: the stub and the record; a session's first eviction,
// which reads the log's cells once, and a later one), and the check every request
// pays when nothing is evicted (window-info), each beside one window build (what every request costs anyway), as medians and
// ratios. The model's time is not in it: no request is sent while measuring.
//
//   npm run build && node test/bench/evict.mjs [--turns 100,400] [--reps 7] [--json FILE]

import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { AgentSession } from '../../dist/host/session/agent.js';
import { createProvider } from '../../dist/host/model/index.js';
import { STDLIB_DIR } from '../../dist/host/session/node-interpreter.js';
import { median } from './lib/stats.mjs';
import { textTable, markdownTable } from './lib/table.mjs';

function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
}
const TURNS = String(arg('--turns', '100,400')).split(',').map(Number);
const REPS = Number(arg('--reps', 7));
const JSON_OUT = arg('--json', null);
const EVICT = join(STDLIB_DIR, 'strategies', 'evict.scm');

const base = mkdtempSync(join(tmpdir(), 'nodwyn-bench-evict-'));
const root = join(base, 'repo');
mkdirSync(root, { recursive: true });
execFileSync('git', ['init', '-q', root]);

function env(data) {
  return { PATH: process.env.PATH, HOME: base, NODWYN_DATA_DIR: data };
}

/** A session of `turns` turns: each evaluates a noted cell that defines a name and makes a 2,000-character value, then answers. */
async function makeSession(turns) {
  const script = join(base, `s${turns}.jsonl`);
  const replies = [];
  for (let t = 0; t < turns; t++) {
    const code = `;; turn ${t}: define v${t} and a large value\n(define v${t} ${t})\n(make-string 2000 #\\x)`;
    replies.push({ text: '', tool_calls: [{ name: 'eval', arguments: { code } }], usage: { input: 1000, output: 20 } });
    replies.push({ text: `Turn ${t} done.`, usage: { input: 1000, output: 10 } });
  }
  writeFileSync(script, replies.map((x) => JSON.stringify(x)).join('\n') + '\n');
  const data = join(base, `data-${turns}`);
  const agent = await AgentSession.open({
    origin: 'bench',
    cwd: root,
    env: env(data),
    provider: createProvider({ kind: 'scripted', file: script }),
    model: { id: 'bench', server: 'scripted', contextWindow: 10_000_000 },
    strategyFile: EVICT,
    askApproval: null,
  });
  for (let t = 0; t < turns; t++) {
    const r = await agent.turn(`Question ${t}`);
    if (r.outcome !== 'done') throw new Error(`turn ${t + 1} ended ${r.outcome}: ${r.error}`);
  }
  const id = agent.id;
  agent.close();
  return { data, id, script };
}

/** A copy of the session, resumed: each measure starts from the same log. */
async function reopen(s, k) {
  const data = join(base, `copy-${k}`);
  rmSync(data, { recursive: true, force: true });
  cpSync(s.data, data, { recursive: true });
  return AgentSession.open({
    origin: 'resume',
    resume: s.id,
    cwd: root,
    env: env(data),
    provider: createProvider({ kind: 'scripted', file: s.script }),
    model: { id: 'bench', server: 'scripted', contextWindow: 10_000_000 },
    strategyFile: EVICT,
    askApproval: null,
  });
}

function timed(f) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  return Promise.resolve(f()).then((v) => {
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    return { wall, cpu: (c.user + c.system) / 1000, v };
  });
}

const rows = [];
const out = [];
let copy = 0;
for (const turns of TURNS) {
  process.stderr.write(`making a session of ${turns} turns…\n`);
  const s = await makeSession(turns);
  const m = { build: [], check: [], command: [], host: [], warm: [] };
  for (let r = 0; r < REPS; r++) {
    // The strategy's /evict 50: Scheme decides, the host writes the stub and the record, the window is built again.
    let a = await reopen(s, copy++);
    a.windowInfo(null); // the window folded once, as before any request
    m.build.push((await timed(() => a.windowInfo(null))).cpu);
    m.check.push((await timed(() => { a.windowInfo(null); a.windowUnits(); })).cpu);
    const cmd = await timed(async () => {
      await a.command('evict', '50');
      a.windowInfo(null);
    });
    m.command.push(cmd.cpu);
    a.close();
    // The host's part alone: record-eviction of the same span (the stub read from the log and written) and the next build.
    a = await reopen(s, copy++);
    const units = a.windowUnits();
    const q = Math.floor(units.length / 4);
    const st = (n) => ({ turns: { from: units[0].from, through: units[n - 1].through, count: n }, rounds: null });
    a.windowInfo(null);
    // The first eviction of a session reads the cells of the log once; later ones read what the log gained.
    const host = await timed(() => {
      a.recordEviction(units[q].from, st(q));
      a.windowInfo(null);
    });
    m.host.push(host.cpu);
    const warm = await timed(() => {
      a.recordEviction(units[2 * q].from, st(2 * q));
      a.windowInfo(null);
    });
    m.warm.push(warm.cpu);
    a.close();
  }
  const med = Object.fromEntries(Object.entries(m).map(([k, v]) => [k, median(v)]));
  out.push({ turns, ...med, reps: REPS });
  rows.push([
    String(turns),
    med.build.toFixed(2),
    med.check.toFixed(2),
    med.command.toFixed(2),
    (med.command / med.build).toFixed(1) + 'x',
    med.host.toFixed(2),
    med.warm.toFixed(2),
    (med.warm / med.build).toFixed(1) + 'x',
  ]);
}
const head = ['turns', 'window build ms', 'check ms', '/evict 50 ms', 'ratio to a build', 'host part, first ms', 'host part, later ms', 'later to a build'];
console.log('Eviction\'s host cost (CPU ms, medians of ' + REPS + '; the model\'s time excluded)\n');
console.log(textTable(head, rows));
console.log('\n' + markdownTable(head, rows));
if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify(out, null, 2));
rmSync(base, { recursive: true, force: true });
