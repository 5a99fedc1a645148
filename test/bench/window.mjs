// Benchmark of window-v2 (not a test: nothing here asserts a time). Two measures, on real logs made by the loop with the scripted provider:
//
//  1. Building the window at turn 10, 100 and 1,000 of a session whose tool
//     results are large (files of 2 to 30 KB read whole): the time of one
//     round's fold (the records the log gained) and build, as the loop does it,
//     median over the requests of the turns around it; beside it, the same
//     request built by a window folded from the whole log (a rebuild). Goal:
//     under 5 ms at turn 1,000, growing sub-linearly.
//  2. The share of each request's tokens that is an exact prefix of the
//     previous request's (what a provider's prompt cache can reuse: the tools,
//     the system text, then the leading messages that are the same) over a
//     200-turn session that overflows its budget several times (128K context,
//     files of 2 to 12 KB), for window-v2
//     (sticky elision) beside window-v1, the naive window that drops the
//     oldest turns to fit. Goal: at least 90% on average between elision steps.
//
//   npm run build && node test/bench/window.mjs [--turns 1000] [--reps 5] [--json FILE]

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { AgentSession } from '../../dist/host/session/agent.js';
import { createProvider } from '../../dist/host/model/index.js';
import { WindowV1, WindowV2, CHARS4_V2, canonicalJson } from '../../dist/host/window/index.js';
import { readLog } from '../../dist/host/log/index.js';
import { median } from './lib/stats.mjs';
import { textTable, markdownTable } from './lib/table.mjs';

function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
}
const TURNS = Number(arg('--turns', 1000));
const REPS = Number(arg('--reps', 5));
const JSON_OUT = arg('--json', null);
const AT = [10, 100, 1000].filter((n) => n <= TURNS);
const SHARE_TURNS = 200;

const base = mkdtempSync(join(tmpdir(), 'nodwyn-bench-window-'));
const root = join(base, 'repo');
mkdirSync(join(root, 'src'), { recursive: true });
// 40 files of 2 to 30 KB, the same every run (a linear congruential sequence of sizes).
let seed = 7;
const sizes = [];
for (let i = 0; i < 40; i++) {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  sizes.push(2_000 + (seed % 28_000));
}
for (let i = 0; i < 40; i++) {
  const lines = [];
  for (let k = 0; lines.join('\n').length < sizes[i]; k++) lines.push(`export function f${i}_${k}(x: number): number { return x * ${k} + ${i}; } // file ${i}, line ${k}`);
  writeFileSync(join(root, 'src', `f${i}.ts`), lines.join('\n') + '\n');
}
execFileSync('git', ['init', '-q', root]);

/** A session of `turns` turns by the loop: each reads one or two of `files` (whole), then answers. */
async function makeLog(name, turns, contextWindow, files = [...sizes.keys()]) {
  const script = join(base, `${name}.jsonl`);
  const replies = [];
  for (let t = 0; t < turns; t++) {
    const f = (k) => `src/f${files[k % files.length]}.ts`;
    replies.push({ text: `Turn ${t}: reading.`, tool_calls: [{ name: 'fs-read', arguments: { path: f(t * 7) } }], usage: { input: 1000, output: 20 } });
    if (t % 5 === 4) replies.push({ text: '', tool_calls: [{ name: 'fs-read', arguments: { path: f(t * 3) } }], usage: { input: 1000, output: 20 } });
    replies.push({ text: `Turn ${t}: the file holds functions ${t}.`, usage: { input: 1000, output: 30 } });
  }
  writeFileSync(script, replies.map((x) => JSON.stringify(x)).join('\n') + '\n');
  const data = join(base, `data-${name}`);
  const agent = await AgentSession.open({
    origin: 'bench',
    cwd: root,
    env: { PATH: process.env.PATH, HOME: base, NODWYN_DATA_DIR: data },
    provider: createProvider({ kind: 'scripted', file: script }),
    model: { id: 'bench', server: 'scripted', contextWindow },
    askApproval: null,
  });
  for (let t = 0; t < turns; t++) {
    const r = await agent.turn(`Question ${t}: what is in src/f${files[(t * 7) % files.length]}.ts?`);
    if (r.outcome !== 'done') throw new Error(`turn ${t + 1} ended ${r.outcome}: ${r.error}`);
    if (t % 100 === 99) process.stderr.write(`  ${name}: ${t + 1} turns\n`);
  }
  const file = agent.writer.file;
  agent.close();
  return [...readLog(file)];
}

function paramsOf(q) {
  const p = q.payload;
  return {
    model: p.model,
    system: p.recipe.system,
    tools: p.tools,
    contextWindow: p.recipe.context_window,
    ...(p.params?.max_output_tokens !== undefined ? { maxOutputTokens: p.params.max_output_tokens } : {}),
  };
}

/** Per request: the ms of folding what the log gained since the last build plus building, as the loop does. */
function incremental(records) {
  const w = new WindowV2();
  const out = []; // { turn, ms, messages, tokens, matches }
  let pending = [];
  for (const r of records) {
    if (r.kind === 'llm.req') {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      for (const x of pending) w.add(x);
      const b = w.build(paramsOf(r));
      const ms = performance.now() - t0;
      const c = process.cpuUsage(c0);
      out.push({ turn: r.payload.turn, seq: r.seq, ms, cpu: (c.user + c.system) / 1000, messages: b.request.messages.length, tokens: b.tokens, matches: b.digest === r.payload.digest });
      pending = [r];
    } else pending.push(r);
  }
  return out;
}

/** The request at seq built by a window folded from the whole log before it (the naive way). */
function rebuilt(records, q) {
  const t0 = performance.now();
  const w = new WindowV2();
  for (const r of records) {
    if (r.seq >= q.seq) break;
    w.add(r);
  }
  w.build(paramsOf(q));
  return performance.now() - t0;
}

const fmt = (ms) => (ms < 0.1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`);

// 1. Build times: one log per context by the loop; the window's fold and build measured over it --reps times.
const build = {};
const slowest = {};
for (const cw of [200_000, 32_768]) {
  process.stderr.write(`building: context ${cw}, ${TURNS} turns by the loop…\n`);
  const records = await makeLog(`build-${cw}`, TURNS, cw);
  const reps = [];
  for (let rep = 0; rep < REPS; rep++) {
    const inc = incremental(records);
    const at = {};
    for (const n of AT) {
      const around = inc.filter((x) => Math.abs(x.turn - n) <= 2);
      const first = records.find((r) => r.kind === 'llm.req' && r.payload.turn === n);
      at[n] = { ms: median(around.map((x) => x.ms)), rebuild: rebuilt(records, first), messages: around[0].messages, tokens: around[0].tokens, records: first.seq, matches: inc.every((x) => x.matches) };
    }
    // The slowest request of the whole session in CPU time (wall time on a loaded machine also counts waiting for
    // a core): an elision step, which assembles and hashes its request anew.
    at.slowest = inc.reduce((m, x) => (x.cpu > m.cpu ? x : m), inc[0]);
    reps.push(at);
  }
  const slow = reps.map((r) => r.slowest);
  slowest[cw] = { ms: median(slow.map((x) => x.ms)), cpu: median(slow.map((x) => x.cpu)), turn: slow[0].turn, messages: slow[0].messages };
  build[cw] = Object.fromEntries(AT.map((n) => [n, {
    ms: median(reps.map((r) => r[n].ms)),
    rebuild: median(reps.map((r) => r[n].rebuild)),
    messages: reps[0][n].messages,
    tokens: reps[0][n].tokens,
    records: reps[0][n].records,
    matches: reps.every((r) => r[n].matches),
  }]));
}

// 2. Prefix share, v2 against the naive window.
function tokensOfRequest(req) {
  let n = CHARS4_V2.text(req.system) + CHARS4_V2.text(canonicalJson(req.tools));
  for (const m of req.messages) n += CHARS4_V2.message(m);
  return n;
}
function sharedPrefix(prev, cur) {
  if (prev === null || prev.system !== cur.system || canonicalJson(prev.tools) !== canonicalJson(cur.tools)) return 0;
  let n = CHARS4_V2.text(cur.system) + CHARS4_V2.text(canonicalJson(cur.tools));
  for (let i = 0; i < cur.messages.length && i < prev.messages.length; i++) {
    if (canonicalJson(cur.messages[i]) !== canonicalJson(prev.messages[i])) break;
    n += CHARS4_V2.message(cur.messages[i]);
  }
  return n;
}
function shares(records, make, stepOf) {
  const w = make();
  let prev = null;
  let prevStep = null;
  const rows = [];
  for (const r of records) {
    if (r.kind === 'llm.req') {
      const b = w.build(paramsOf(r));
      const step = stepOf(b.recipe);
      const total = tokensOfRequest(b.request);
      rows.push({ share: prev === null ? null : sharedPrefix(prev, b.request) / total, step: prevStep !== null && step !== prevStep, over: total });
      prev = b.request;
      prevStep = step;
    }
    w.add(r);
  }
  return rows.filter((x) => x.share !== null);
}
// A 128K context and the files of 2 to 12 KB: some 400,000 tokens of results in 200 turns, so the budget overflows several times.
const SHARE_CONTEXT = 131_072;
const SHARE_FILES = [...sizes.keys()].filter((i) => sizes[i] <= 12_000);
process.stderr.write(`prefix share: ${SHARE_TURNS} turns by the loop in a ${SHARE_CONTEXT}-token context…\n`);
const shareLog = await makeLog('share', SHARE_TURNS, SHARE_CONTEXT, SHARE_FILES);
const v2 = shares(shareLog, () => new WindowV2(), (r) => `${r.elided_through ?? 0}|${JSON.stringify(r.collapsed ?? [])}`);
const v1 = shares(shareLog, () => new WindowV1(), (r) => JSON.stringify(r.cut ?? null));
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const summary = (rows) => ({
  requests: rows.length,
  steps: rows.filter((x) => x.step).length,
  all: mean(rows.map((x) => x.share)),
  between: rows.some((x) => !x.step) ? mean(rows.filter((x) => !x.step).map((x) => x.share)) : NaN,
  median: median(rows.map((x) => x.share)),
});
const share = { v2: summary(v2), naive: summary(v1) };

const pct = (x) => (Number.isNaN(x) ? '–' : `${(x * 100).toFixed(1)}%`);
for (const [cw, at] of Object.entries(build)) {
  const header = ['turn', 'records', 'fold + build (the loop)', 'rebuilt from the log', 'ratio', 'messages', 'est. tokens', 'digests as recorded'];
  const rows = AT.map((n) => [String(n), String(at[n].records), fmt(at[n].ms), fmt(at[n].rebuild), `${(at[n].rebuild / at[n].ms).toFixed(0)}×`, String(at[n].messages), String(at[n].tokens), at[n].matches ? 'yes' : 'NO']);
  const growth = (AT.length === 3 ? `; turn 10 → 1,000: ${(at[1000].ms / at[10].ms).toFixed(2)}× for 100× the turns` : '') + `; the slowest request of the session ${fmt(slowest[cw].cpu)} CPU, ${fmt(slowest[cw].ms)} wall (turn ${slowest[cw].turn}, ${slowest[cw].messages} messages)`;
  const title = `window-v2 build, context ${Number(cw).toLocaleString('en-US')} tokens, ${TURNS} turns, the window measured ${REPS} times over the log (medians)${growth}`;
  console.log(`\n${title}\n${textTable(header, rows)}`);
  console.log(`\n${title}\n\n${markdownTable(header, rows)}`);
}
{
  const header = ['window', 'requests', 'elision steps', 'prefix share, all requests', 'between steps', 'median'];
  const rows = [
    ['window-v2 (sticky elision)', String(share.v2.requests), String(share.v2.steps), pct(share.v2.all), pct(share.v2.between), pct(share.v2.median)],
    ['window-v1 (drops the oldest turns)', String(share.naive.requests), String(share.naive.steps), pct(share.naive.all), pct(share.naive.between), pct(share.naive.median)],
  ];
  const title = `Prefix share of each request with the previous one, ${SHARE_TURNS} turns in ${SHARE_CONTEXT.toLocaleString('en-US')} tokens (steps: requests whose cut differs from the previous one's)`;
  console.log(`\n${title}\n${textTable(header, rows)}`);
  console.log(`\n${title}\n\n${markdownTable(header, rows)}`);
}
if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify({ turns: TURNS, reps: REPS, build, slowest, share }, null, 2));
rmSync(base, { recursive: true, force: true });
