// The conversation memory's benchmark (issue 15): a corpus shaped like the seed's (73 tasks, ~17,600 events,
// ~5 MB of text) from real material — real grep, ls and find output over real trees (node_modules) and real
// files read — then: the first search of all tasks (writing every .mem), later searches in a new process
// (median and max of 20 queries), heap retained after a search, total .mem size, and one 10,000-event
// session. Each measurement runs in a fresh child process. Nothing here asserts a time.
//
//   npm run build && node test/bench/memory.mjs [--tasks 73] [--events 17600] [--json FILE]

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const DIST = join(ROOT, 'dist', 'host');

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const TASKS = Number(opt('--tasks', 73));
const EVENTS = Number(opt('--events', 17600));
const JSON_OUT = opt('--json', null);
// --keep DIR: the corpus is written under DIR and left there (to profile a child: see test/bench/README.md).
const KEEP = opt('--keep', null);
// --corpus-only (with --keep DIR): write the corpus and stop (memory-compare.mjs makes its corpus so).
const CORPUS_ONLY = args.includes('--corpus-only');


// ---- real material --------------------------------------------------------------------------------

function sh(cmd, argv, cwd) {
  try {
    return execFileSync(cmd, argv, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (e) {
    return e.stdout ?? '';
  }
}

/** A tool's output cut to its first lines within `max` characters (results are shaped like the seed's: ~5 MB over ~6,000 results). */
function head(text, max = 900) {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf('\n', max);
  return text.slice(0, cut > 0 ? cut : max);
}

function material() {
  const nm = join(ROOT, 'node_modules');
  const pkgs = readdirSync(nm).filter((d) => !d.startsWith('.')).slice(0, 400);
  const words = ['function', 'export', 'import', 'error', 'async', 'return', 'TODO', 'class', 'const', 'throw', 'Buffer', 'stream', 'parse', 'options', 'callback', 'require', 'module', 'length', 'timeout', 'version'];
  const outputs = [];
  // Real greps: a word over one package at a time, as the model would run them.
  for (let i = 0; i < pkgs.length && outputs.length < 3000; i++) {
    const w = words[i % words.length];
    const out = sh('grep', ['-rn', '--include=*.js', '--include=*.ts', '--include=*.md', '-m', '3', w, pkgs[i]], nm);
    if (out) outputs.push({ tool: 'shell-exec', args: { command: `grep -rn ${w} node_modules/${pkgs[i]}` }, output: head(`exit 0\n${out}`) });
    const ls = sh('ls', ['-la', pkgs[i]], nm);
    if (ls) outputs.push({ tool: 'shell-exec', args: { command: `ls -la node_modules/${pkgs[i]}` }, output: head(`exit 0\n${ls}`) });
  }
  // Real files read (fs-read's rendering: [lines A-B of N] then the text).
  const files = sh('find', ['.', '-name', '*.md', '-size', '-40k'], nm).split('\n').filter(Boolean).slice(0, 1500);
  for (const f of files) {
    let text;
    try {
      text = readFileSync(join(nm, f), 'utf8');
    } catch {
      continue;
    }
    const lines = text.split('\n').slice(0, 60);
    outputs.push({ tool: 'fs-read', args: { path: `node_modules/${f.slice(2)}`, 'start-line': 1, 'max-lines': 60 }, output: head(`[lines 1-${lines.length} of ${text.split('\n').length}]\n${lines.join('\n')}`) });
  }
  const sentences = files.flatMap((f) => {
    try {
      return readFileSync(join(nm, f), 'utf8').split('\n').filter((l) => l.length > 30 && l.length < 160 && /^[A-Za-z]/.test(l)).slice(0, 3);
    } catch {
      return [];
    }
  });
  return { outputs, sentences };
}

// ---- the corpus: real logs through the real writer --------------------------------------------------

async function corpus(dataDir, repo, tasks, events, mat, seed) {
  const { createSessionLog } = await import(join(DIST, 'log', 'index.js'));
  let rnd = seed;
  const next = () => ((rnd = (rnd * 1103515245 + 12345) % 2147483648), rnd / 2147483648);
  const pick = (a) => a[Math.floor(next() * a.length)];
  const perTask = Math.round(events / tasks);
  let bytes = 0;
  let total = 0;
  const ids = [];
  for (let k = 0; k < tasks; k++) {
    const id = `2026${String(1 + (k % 12)).padStart(2, '0')}${String(1 + (k % 28)).padStart(2, '0')}T${String(k % 24).padStart(2, '0')}0000Z-${(0x10000000 + k).toString(16)}`;
    ids.push(id);
    const w = createSessionLog(id, { version: 'bench', origin: 'chat', repo, cwd: repo }, { dataDir });
    let n = 0;
    let turn = 0;
    const all = [];
    while (n < perTask) {
      turn++;
      const batch = [['user.msg', { text: pick(mat.sentences), actor: 'person' }]];
      n++;
      for (let r = 0; r < 2 && n < perTask; r++) {
        const o = pick(mat.outputs);
        const id2 = `c${turn}-${r}`;
        batch.push(['llm.req', { model: 'bench', turn }]);
        batch.push(['llm.resp', { req_seq: 1, text: r === 0 ? pick(mat.sentences) : '', tool_calls: [{ id: id2, name: o.tool, arguments: JSON.stringify(o.args) }], usage: { input_tokens: 1000, output_tokens: 50, cost: 0.001 } }]);
        batch.push(['tool.call', { call_id: id2, tool: o.tool, args: o.args }]);
        batch.push(['guard.decision', { path: o.args.path ?? '.', op: 'read', decision: 'allow', rule: 'repo', actor: 'model' }]);
        batch.push(['tool.result', { call_id: id2, tool: o.tool, ok: true, output: o.output, duration_ms: 3 }]);
        bytes += o.output.length;
        n += 2;
      }
      const ans = pick(mat.sentences);
      batch.push(['llm.resp', { req_seq: 1, text: ans, usage: { input_tokens: 1200, output_tokens: 80, cost: 0.002 } }]);
      batch.push(['turn.end', { outcome: 'done', turn, elapsed_ms: 4000 }]);
      n++;
      all.push(...batch);
    }
    // One durable write per task (the loop writes one per record; the corpus's timing is not measured).
    for (let i = 0; i < all.length; i += 2000) w.appendAll(all.slice(i, i + 2000).map(([kind, payload]) => ({ kind, payload })));
    w.append('session.end', { reason: 'exit', exit_code: 0 });
    w.close();
    total += n;
  }
  return { ids, events: total, textBytes: bytes };
}

// ---- measurements, each in its own process --------------------------------------------------------

const QUERIES = ['grep error stream', 'export function parse', 'README install', 'timeout callback', 'Buffer length', 'module version', 'async return', 'TODO', 'options parse error', 'license MIT', 'class constructor', 'node_modules ls', 'throw new Error', 'import default', 'const require', 'test coverage', 'typescript types', 'lines of', 'drwxr', 'usage example'];

async function child(what, o) {
  // o.dist: another build's dist/host (memory-compare.mjs times two builds back to back).
  const { ConversationMemory, openTask } = await import(join(o.dist ?? DIST, 'memory', 'index.js'));
  const env = { ...process.env, NODWYN_DATA_DIR: o.dataDir };
  const mem = new ConversationMemory({ dataDir: o.dataDir, session: o.session ?? null, root: o.repo, env, capChars: () => 32000 });
  const out = {};
  if (what === 'first') {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const r = mem.searchEarlier(QUERIES[0], 8, { ignoreLeave: true });
    const c = process.cpuUsage(c0);
    out.ms = performance.now() - t0;
    out.cpuMs = (c.user + c.system) / 1000;
    out.found = r.found;
    out.events = r.events;
    out.tasks = r.tasks;
  } else if (what === 'later') {
    global.gc();
    const before = process.memoryUsage().heapUsed;
    const times = [];
    const cpu = [];
    for (const q of QUERIES) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const r = o.session ? mem.searchConversation(q, 8) : mem.searchEarlier(q, 8, { ignoreLeave: true });
      const c = process.cpuUsage(c0);
      times.push(performance.now() - t0);
      cpu.push((c.user + c.system) / 1000);
      if (r.events === 0) throw new Error('no events');
    }
    global.gc();
    out.retained = process.memoryUsage().heapUsed - before;
    out.times = times;
    out.cpu = cpu;
  } else if (what === 'single-first') {
    const t0 = performance.now();
    const v = openTask(o.log);
    out.action = v.action;
    v.close();
    const r = mem.searchConversation(QUERIES[0], 8);
    out.ms = performance.now() - t0;
    out.events = r.events;
  }
  process.stdout.write(JSON.stringify(out));
}

function runChild(what, o) {
  const r = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child', what, JSON.stringify(o)], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`child ${what} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const f1 = (x) => x.toFixed(1);
const f2 = (x) => x.toFixed(2);

function memSize(dataDir) {
  const d = join(dataDir, 'sessions');
  let mem = 0;
  let logs = 0;
  for (const f of readdirSync(d)) {
    const s = statSync(join(d, f)).size;
    if (f.endsWith('.mem')) mem += s;
    if (f.endsWith('.jsonl')) logs += s;
  }
  return { mem, logs };
}

if (process.argv[2] === '--child') {
  await child(process.argv[3], JSON.parse(process.argv[4]));
  process.exit(0);
}

const work = KEEP ?? mkdtempSync(join(tmpdir(), 'nodwyn-bench-memory-'));
try {
  const repo = join(work, 'repo');
  execFileSync('git', ['init', '-q', repo]);
  process.stderr.write('collecting real material (grep, ls, find over node_modules)…\n');
  const mat = material();
  process.stderr.write(`${mat.outputs.length} tool outputs, ${mat.sentences.length} sentences\n`);
  const data = join(work, 'data');
  process.stderr.write(`writing ${TASKS} task logs through the log writer…\n`);
  const c = await corpus(data, repo, TASKS, EVENTS, mat, 42);
  const sizes0 = memSize(data);
  process.stderr.write(`${c.events} events, ${(c.textBytes / 1e6).toFixed(1)} MB of tool output, ${(sizes0.logs / 1e6).toFixed(1)} MB of logs\n`);
  if (CORPUS_ONLY) {
    if (KEEP === null) throw new Error('--corpus-only needs --keep DIR');
    process.exit(0);
  }
  const first = runChild('first', { dataDir: data, repo });
  const sizes = memSize(data);
  const later = runChild('later', { dataDir: data, repo });
  // A single 10,000-event session.
  const data1 = join(work, 'data1');
  const c1 = await corpus(data1, repo, 1, 10000, mat, 7);
  const log1 = join(data1, 'sessions', `${c1.ids[0]}.jsonl`);
  const single = runChild('single-first', { dataDir: data1, repo, session: c1.ids[0], log: log1 });
  const singleLater = runChild('later', { dataDir: data1, repo, session: c1.ids[0] });
  const res = {
    machine: { cpus: cpus().length, load: loadavg().map((x) => Math.round(x * 10) / 10) },
    corpus: { tasks: TASKS, events: c.events, toolOutputMB: c.textBytes / 1e6, logMB: sizes.logs / 1e6 },
    first: { ms: first.ms, cpuMs: first.cpuMs, memMB: sizes.mem / 1e6, goalMs: 400 },
    later: { medianMs: median(later.times), maxMs: Math.max(...later.times), medianCpuMs: median(later.cpu), retainedKB: later.retained / 1024, goalMedianMs: 3, goalRetainedMB: 2 },
    single: { events: c1.events, firstMs: single.ms, laterMedianMs: median(singleLater.times), laterMaxMs: Math.max(...singleLater.times) },
  };
  const rows = [
    ['corpus', `${res.corpus.tasks} tasks, ${res.corpus.events} events, ${f1(res.corpus.toolOutputMB)} MB of tool output, ${f1(res.corpus.logMB)} MB of logs`],
    ['first search, all tasks (writes every .mem)', `${f1(res.first.ms)} ms wall, ${f1(res.first.cpuMs)} ms CPU (goal < 400 ms)`],
    ['.mem files, total', `${f2(res.first.memMB)} MB`],
    ['later search, new process (20 queries)', `median ${f2(res.later.medianMs)} ms (CPU ${f2(res.later.medianCpuMs)} ms), max ${f2(res.later.maxMs)} ms (goal median < 3 ms)`],
    ['heap retained after the searches', `${f1(res.later.retainedKB)} KB (goal < 2 MB)`],
    [`one ${res.single.events}-event session: first search`, `${f1(res.single.firstMs)} ms`],
    [`one ${res.single.events}-event session: later searches`, `median ${f2(res.single.laterMedianMs)} ms, max ${f2(res.single.laterMaxMs)} ms`],
    ['machine', `${res.machine.cpus} cores, load average ${res.machine.load.join(' ')}`],
  ];
  for (const [k, v] of rows) process.stdout.write(`${k.padEnd(48)} ${v}\n`);
  process.stdout.write('\n| measurement | result |\n| :-- | :-- |\n');
  for (const [k, v] of rows) process.stdout.write(`| ${k} | ${v} |\n`);
  if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify(res, null, 2));
} finally {
  if (KEEP === null) rmSync(work, { recursive: true, force: true });
}
