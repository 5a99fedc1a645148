// Benchmark of the agent loop's own cost per model round: window, records with fsync, a tool call, the strategy.
//
// A 200-turn session with the scripted provider (each turn: a reply calling a
// tool, then an answer, so two rounds), run --reps times. The host's overhead
// of a turn is its wall time minus the time spent inside the provider; per
// round it is that over the turn's two rounds; beside it the same in CPU time
// (process.cpuUsage, the provider's own CPU taken out), which a loaded machine's
// waits for a core do not inflate (fsync's waits for the disk are in the wall
// time only). Reported at turn 1 and 200 (and between), as medians over the
// repetitions of turns n-2..n+2, for a context large enough that
// the window only grows and for a 32,768-token one that cuts it every turn.
// Beside it, the window alone: built incrementally (what the loop does) and
// rebuilt from the whole log with a digest of the whole request (the naive
// way), at the same turns. Run after a build:
//   node test/bench/loop.mjs [--turns 200] [--reps 3] [--json FILE]

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { AgentSession } from '../../dist/host/session/agent.js';
import { createProvider } from '../../dist/host/model/index.js';
import { createWindow, digestJson } from '../../dist/host/window/index.js';
import { readLog } from '../../dist/host/log/index.js';
import { median } from './lib/stats.mjs';
import { textTable, markdownTable } from './lib/table.mjs';

function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
}
const TURNS = Number(arg('--turns', 200));
const REPS = Number(arg('--reps', 3));
const JSON_OUT = arg('--json', null);
const AT = [1, 2, 10, 50, 100, 150, TURNS].filter((n, i, a) => n <= TURNS && a.indexOf(n) === i);

const base = mkdtempSync(join(tmpdir(), 'nodwyn-bench-loop-'));
const root = join(base, 'repo');
mkdirSync(join(root, 'src'), { recursive: true });
const lines = (i) => Array.from({ length: 60 }, (_, k) => `export const value${i}_${k} = ${k} * ${i}; // a line of code in file ${i}`).join('\n') + '\n';
for (let i = 0; i < 10; i++) writeFileSync(join(root, 'src', `f${i}.ts`), lines(i));
execFileSync('git', ['init', '-q', root]);

/** The script: per turn a tool call (fs-read and eval alternating), then an answer. */
function script(file, contextWindow) {
  const out = [];
  for (let t = 0; t < TURNS; t++) {
    const call = t % 2 === 0 ? { name: 'fs-read', arguments: { path: `src/f${t % 10}.ts` } } : { name: 'eval', arguments: { code: `(define x${t} (* ${t} ${t})) (+ x${t} 1)` } };
    out.push({ text: `Turn ${t}: let me look.`, tool_calls: [call], usage: { input: 1000 + 500 * t, output: 40 } });
    out.push({ text: `Turn ${t}: done. `.repeat(10), usage: { input: 1100 + 500 * t, output: 120 } });
  }
  void contextWindow;
  writeFileSync(file, out.map((x) => JSON.stringify(x)).join('\n') + '\n');
}

/** Wraps a provider to add up the time spent inside it. */
function timed(provider) {
  const w = { inside: 0, insideCpu: 0 };
  w.provider = {
    kind: provider.kind,
    server: provider.server,
    model: provider.model,
    url: provider.url,
    async complete(req, o) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      try {
        return await provider.complete(req, o);
      } finally {
        w.inside += performance.now() - t0;
        const c = process.cpuUsage(c0);
        w.insideCpu += (c.user + c.system) / 1000;
      }
    },
  };
  return w;
}

async function session(contextWindow, rep) {
  const file = join(base, `script-${contextWindow}-${rep}.jsonl`);
  script(file, contextWindow);
  const data = join(base, `data-${contextWindow}-${rep}`);
  const t = timed(createProvider({ kind: 'scripted', file }));
  const agent = await AgentSession.open({
    origin: 'bench',
    cwd: root,
    env: { PATH: process.env.PATH, HOME: base, NODWYN_DATA_DIR: data },
    provider: t.provider,
    model: { id: 'bench', server: 'scripted', contextWindow },
    askApproval: null,
  });
  const perRound = [];
  const cpuPerRound = [];
  for (let i = 0; i < TURNS; i++) {
    const before = t.inside;
    const beforeCpu = t.insideCpu;
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const r = await agent.turn(`Question ${i}: what is in src/f${i % 10}.ts?`);
    const total = performance.now() - t0;
    const c = process.cpuUsage(c0);
    if (r.outcome !== 'done') throw new Error(`turn ${i + 1} ended ${r.outcome}: ${r.error}`);
    perRound.push((total - (t.inside - before)) / 2);
    cpuPerRound.push(((c.user + c.system) / 1000 - (t.insideCpu - beforeCpu)) / 2);
  }
  const file2 = agent.writer.file;
  agent.close();
  return { perRound, cpuPerRound, log: file2 };
}

/**
 * The window alone, replaying the log as the loop built it: the incremental
 * build at every llm.req (median over the requests of turns n-2..n+2), and at
 * the turns of AT a rebuild from the whole log with a digest of the whole request.
 */
function windowCosts(logFile) {
  const records = [...readLog(logFile)];
  const p0 = records.find((r) => r.kind === 'llm.req').payload;
  const params = { model: 'bench', system: p0.recipe.system, tools: p0.tools, contextWindow: p0.recipe.context_window };
  const builds = []; // [turn, ms]
  const out = {};
  const firstOfTurn = new Map();
  for (const r of records) if (r.kind === 'llm.req' && !firstOfTurn.has(r.payload.turn)) firstOfTurn.set(r.payload.turn, r.seq);
  const w = createWindow();
  for (const r of records) {
    if (r.kind === 'llm.req') {
      const t0 = performance.now();
      const b = w.build(params);
      builds.push([r.payload.turn, performance.now() - t0]);
      const n = r.payload.turn;
      if (AT.includes(n) && firstOfTurn.get(n) === r.seq) {
        const naive = [];
        for (let k = 0; k < 5; k++) {
          const t1 = performance.now();
          const fresh = createWindow();
          for (const x of readLog(logFile)) {
            if (x.seq >= r.seq) break;
            fresh.add(x);
          }
          digestJson(fresh.build(params).request);
          naive.push(performance.now() - t1);
        }
        out[n] = { naive: median(naive), messages: b.request.messages.length, tokens: b.tokens, matches: b.digest === r.payload.digest };
      }
    }
    w.add(r);
  }
  for (const n of AT) out[n].incremental = median(builds.filter(([t]) => Math.abs(t - n) <= 2).map(([, ms]) => ms));
  return out;
}

const results = {};
for (const cw of [1_000_000, 32_768]) {
  const runs = [];
  for (let rep = 0; rep < REPS; rep++) {
    process.stderr.write(`context ${cw}, repetition ${rep + 1} of ${REPS}…\n`);
    runs.push(await session(cw, rep));
  }
  // A turn's figure: the median over the repetitions of turns n-2..n+2 (one turn alone is one sample of a noisy machine).
  const near = (series, n) => median(runs.flatMap((r) => r[series].slice(Math.max(0, n - 3), Math.min(TURNS, n + 2))));
  const at = {};
  const cpuAt = {};
  for (const n of AT) {
    at[n] = near('perRound', n);
    cpuAt[n] = near('cpuPerRound', n);
  }
  const tail = median(runs.flatMap((r) => r.perRound.slice(-10)));
  const cpuTail = median(runs.flatMap((r) => r.cpuPerRound.slice(-10)));
  results[cw] = { at, cpuAt, lastTen: tail, cpuLastTen: cpuTail, window: windowCosts(runs[0].log) };
}

const fmt = (ms) => (ms < 0.1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`);
for (const [cw, r] of Object.entries(results)) {
  const header = ['turn', 'host ms/round (wall)', 'host CPU ms/round', 'window build (incremental)', 'window rebuilt from the log', 'ratio', 'messages', 'est. tokens', 'digest as recorded'];
  const rows = AT.map((n) => {
    const w = r.window[n];
    return [String(n), fmt(r.at[n]), fmt(r.cpuAt[n]), fmt(w.incremental), fmt(w.naive), `${(w.naive / w.incremental).toFixed(1)}×`, String(w.messages), String(w.tokens), w.matches ? 'yes' : 'NO'];
  });
  const title = `Context ${Number(cw).toLocaleString('en-US')} tokens: ${TURNS} turns × ${REPS} repetitions; median of the last ten turns ${fmt(r.lastTen)}/round wall, ${fmt(r.cpuLastTen)} CPU; growth turn 1 → ${TURNS}: ${(r.at[TURNS] / r.at[1]).toFixed(2)}× wall, ${(r.cpuAt[TURNS] / r.cpuAt[1]).toFixed(2)}× CPU; turn 10 → ${TURNS}: ${(r.cpuAt[TURNS] / r.cpuAt[10]).toFixed(2)}× CPU`;
  console.log(`\n${title}\n${textTable(header, rows)}`);
  console.log(`\n${title}\n\n${markdownTable(header, rows)}`);
}
if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify({ turns: TURNS, reps: REPS, results }, null, 2));
rmSync(base, { recursive: true, force: true });
