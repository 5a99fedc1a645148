// Two builds of the conversation memory side by side (issue 15's speed work): the same answers, the same .mem bytes,
// and their speed back to back in one run.
//
//   npm run build && cp -r dist /tmp/old-dist        # (the build to compare against, made before the change)
//   node test/bench/memory-compare.mjs --old /tmp/old-dist [--new dist] [--runs 5] [--corpus DIR] [--no-time]
//
// The corpus is memory.mjs's (73 tasks, ~17,600 events of real tool output; --corpus DIR reuses one written by
// `memory.mjs --keep DIR`), and beside it a few tasks written here through the log writer that hold every kind the
// memory reads (attachments, plans and their marks, summaries, compactions and narrowings, sub-contexts, titles,
// archiving, failed results, shell objects, JSON output, memory calls that must not be indexed, non-ASCII and long
// words, a turn left open, a turn without its turn.end). Each build, in a process of its own and on its own copy of
// the logs: the first search of all tasks (writing every .mem), every query of memory.mjs and a few more over all
// tasks (as results and as the model reads them), each task's cards, a search of each task alone, recall of its
// first records; then some logs are cut back to a prefix (inside a turn, and at a turn's end) and searched, and
// searched again once they have their whole records back (the .mem files extended, not made again). Everything
// each build answered must be equal, and every .mem file byte for byte; exit 1 if not.
//
// Then --runs rounds (default 5), the order of the two builds swapped every round: the first search of all tasks
// (CPU and wall, each .mem removed first) and later searches in a new process (median of 20 queries), in
// memory.mjs's own child processes; medians over the rounds, with the load average before and after.

import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};

const QUERIES = ['grep error stream', 'export function parse', 'README install', 'timeout callback', 'Buffer length', 'module version', 'async return', 'TODO', 'options parse error', 'license MIT', 'class constructor', 'node_modules ls', 'throw new Error', 'import default', 'const require', 'test coverage', 'typescript types', 'lines of', 'drwxr', 'usage example'];
const MORE = ['café naïve', '日本語 テキスト', 'parseJSONValue HTTPServer', 'sha256sum utf8', 'deploy plan step', 'compaction note handover', 'explorer context', 'recall conversation', 'exit 2 failed', 'no such file', 'summary of the work', '😀 emoji', 'zzzznotaword'];

// ---- a child: one build's answers -----------------------------------------------------------------------------

async function child(o) {
  const M = await import(join(o.dist, 'memory', 'index.js'));
  const env = { ...process.env, NODWYN_DATA_DIR: o.dataDir };
  const mk = (session) => new M.ConversationMemory({ dataDir: o.dataDir, session, root: o.repo, env, capChars: () => 32000 });
  const err = (f) => {
    try {
      return f();
    } catch (e) {
      return { error: `${e.name}: ${e.message}` };
    }
  };
  const out = { searches: [], tasks: {} };
  const all = mk(null);
  for (const q of o.queries) {
    const r = err(() => all.searchEarlier(q, 8, { ignoreLeave: true }));
    out.searches.push({ q, r, text: r.error ? null : M.renderSearch(r, 'earlier'), opened: all.lastOpened.map((x) => x.action).sort().join(',') });
  }
  out.many = err(() => all.searchEarlier(o.queries.join(' '), 100, { ignoreLeave: true }));
  const sessions = readdirSync(join(o.dataDir, 'sessions')).filter((f) => f.endsWith('.jsonl')).map((f) => f.slice(0, -6)).sort();
  for (const s of sessions.slice(0, o.tasks ?? sessions.length)) {
    const m = mk(s);
    const t = { cards: err(() => m.cards(s)), searches: [], recalls: [] };
    for (const q of o.queries.slice(0, 4)) t.searches.push(err(() => m.searchConversation(q, 20)));
    const log = readFileSync(join(o.dataDir, 'sessions', `${s}.jsonl`), 'utf8').split('\n').length - 1;
    for (let seq = 1; seq <= log; seq += seq < 40 ? 1 : 37) t.recalls.push(err(() => m.recall(seq, 0, 0, null)));
    out.tasks[s] = t;
  }
  // To a file: a pipe's asynchronous write may be cut off by the exit.
  writeFileSync(o.out, JSON.stringify(out));
}

if (args[0] === '--child') {
  await child(JSON.parse(args[1]));
  process.exit(0);
}

// ---- the extra tasks: every kind the memory reads, through the real writer -------------------------------------

function varietyRecords(k) {
  const recs = [];
  const turn = (msg, body, end = true) => {
    recs.push(['user.msg', { text: msg, actor: 'person' }]);
    recs.push(...body);
    if (end) recs.push(['turn.end', { outcome: k % 3 === 0 ? 'error' : 'done', elapsed_ms: 1500 + k, ...(k % 3 === 0 ? { error: 'the model gave up' } : {}) }]);
  };
  const call = (id, name, argsObj, result, extra = {}) => [
    ['llm.req', { model: 'bench', turn: recs.length }],
    ['llm.resp', { req_seq: 1, text: extra.text ?? '', ...(extra.thinking ? { thinking: extra.thinking } : {}), tool_calls: [{ id, name, arguments: typeof argsObj === 'string' ? argsObj : JSON.stringify(argsObj) }], usage: { input_tokens: 900, output_tokens: 40, cost: 0.0011 } }],
    ['tool.call', { call_id: id, tool: name, args: typeof argsObj === 'string' ? argsObj : argsObj }],
    ['guard.decision', { path: '.', op: 'read', decision: 'allow', rule: 'repo', actor: 'model' }],
    ['tool.result', { call_id: id, tool: name, ...result }],
  ];
  recs.push(['session.title', { actor: 'person', title: `Variety task ${k}: café naïve 日本語` }]);
  turn(`Please read the README and plan the deploy (café naïve, task ${k})`, [
    ['attach', { type: 'file', name: `notes-${k}.md`, text: 'Attached notes: parseJSONValue and HTTPServer\nsha256sum of utf8 files\n日本語 テキスト 😀' }],
    ['gate.plan', { steps: ['read the README', { text: 'run the tests' }, 'deploy plan step three'], note: 'a plan with a note' }],
    ...call(`v${k}a`, 'fs-read', { path: 'README.md', 'start-line': 1, 'max-lines': 40 }, { ok: true, output: '[lines 1-3 of 3]\n# Readme\nInstall with npm install; usage example below.\n', duration_ms: 2 }, { text: 'Reading it.', thinking: 'secret thinking words zzzthinking' }),
    ['plan.step', { step: 1, steps: 3, state: 'done', note: 'read it' }],
    ...call(`v${k}b`, 'shell-exec', { command: 'make test' }, { ok: true, output: { exit: 2, stdout: 'running tests\nno such file: spec.js\n', stderr: 'make: *** [test] Error 2' }, duration_ms: 40 }),
    ['plan.step', { step: 2, steps: 3, state: 'skipped' }],
    ...call(`v${k}c`, 'shell-exec', { command: 'cat package.json' }, { ok: true, output: 'exit 0\n{"name":"x","version":"1.0.0"}\n', duration_ms: 3 }),
    ...call(`v${k}d`, 'json-tool', { query: 'deps' }, { ok: true, output: '{"deps": ["a", "b"], "count": 2}', duration_ms: 3 }),
    ...call(`v${k}e`, 'fs-write', { path: `out-${k}.txt`, text: 'hello' }, { ok: false, error: 'permission denied writing out.txt', duration_ms: 1 }),
    ...call(`v${k}f`, 'recall', { seq: 3 }, { ok: true, output: 'seq 3, the person\'s message: recall conversation words', duration_ms: 1 }),
    ...call(`v${k}g`, 'index-search', { query: 'recall conversation', scope: 'conversation' }, { ok: true, output: 'recall conversation found nothing', duration_ms: 1 }),
    ...call(`v${k}h`, 'eval', { code: '(recall 12)' }, { ok: true, output: 'recall conversation from eval', duration_ms: 1 }),
    ...call(`v${k}i`, 'eval', '{"code": "(+ 1 2)"}', { ok: true, output: '3', duration_ms: 1 }),
    ...call(`v${k}j`, 'shell-exec', { command: 'x'.repeat(70) + ' averyveryveryveryveryveryveryveryveryveryveryveryveryveryverylongwordthatisdropped' }, { ok: true, output: `exit 0\n${'y'.repeat(80)} short words kept`, duration_ms: 1 }),
    ['llm.resp', { req_seq: 1, error: 'rate limited' }],
    ['llm.resp', { req_seq: 1, text: 'Done: the summary of the work is below.\nSecond line of the answer.', usage: { input_tokens: 1200, output_tokens: 80 } }],
  ]);
  recs.push(['summary', { from: 2, through: 10, text: 'A summary of the work so far: README read, tests failed.', digest: 'd'.repeat(64) }]);
  turn('Compact the context now, with a compaction note handover', [
    ['llm.req', { model: 'bench' }],
    ['llm.resp', { req_seq: 1, text: 'Handover: the compaction note says the tests fail on spec.js.', usage: { input_tokens: 5000, output_tokens: 200, cost: 0.01 } }],
    ['context.compact', { trigger: 'command', compacted: true, before_tokens: 9000, after_tokens: 1200, focus: 'tests', note_resp_seq: recs.length + 2 }],
    ['context.narrow', { reason: 'compaction', note: 'Handover: the compaction note says the tests fail on spec.js.', resp_seq: recs.length + 2 }],
  ]);
  turn('Explore in a sub-context (explorer context)', [
    ['context.narrow', { reason: 'explore', note: 'Exploring the explorer context for spec files.', label: 'explorer' }],
    ...call(`v${k}k`, 'shell-exec', { command: 'ls spec' }, { ok: true, output: 'exit 1\nls: cannot access spec: No such file', duration_ms: 2 }),
    ['context.fold', { narrow_seq: recs.length + 1, reason: 'done' }],
    ['llm.resp', { req_seq: 1, text: 'The explorer found no spec folder.' }],
  ]);
  // A turn without its turn.end (an old log), then one more.
  turn('A turn that never ended properly', [['llm.resp', { req_seq: 1, text: 'Working on it without an end.' }]], false);
  turn('The last whole turn: deploy it', [...call(`v${k}l`, 'shell-exec', { command: 'deploy --now' }, { ok: true, output: { exit: 0, stdout: 'deployed to production\n', stderr: '' }, duration_ms: 90 })]);
  if (k % 2 === 0) recs.push(['session.archive', { actor: 'person', archived: true }]);
  // A turn left open (a session still running, or one a crash cut off).
  turn('An open turn still running: grep error stream', [...call(`v${k}m`, 'shell-exec', { command: 'grep -rn error stream' }, { ok: true, output: 'exit 0\nsrc/a.js:1: error stream handled', duration_ms: 5 })], false);
  return recs;
}

async function writeVariety(dist, dataDir, repo, n) {
  const { createSessionLog } = await import(join(dist, 'log', 'index.js'));
  const ids = [];
  for (let k = 0; k < n; k++) {
    const id = `20270101T00000${k}Z-${(0x20000000 + k).toString(16)}`;
    const w = createSessionLog(id, { version: 'bench', origin: 'chat', repo, cwd: repo }, { dataDir });
    for (const [kind, payload] of varietyRecords(k)) w.append(kind, payload);
    w.close();
    ids.push(id);
  }
  return ids;
}

// ---- the comparison -----------------------------------------------------------------------------------------

let outs = 0;
function runChild(o) {
  const out = join(work, `out-${++outs}.json`);
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', JSON.stringify({ ...o, out })], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
  return readFileSync(out, 'utf8');
}

function copyLogs(from, to) {
  mkdirSync(join(to, 'sessions'), { recursive: true });
  for (const f of readdirSync(join(from, 'sessions'))) if (f.endsWith('.jsonl')) copyFileSync(join(from, 'sessions', f), join(to, 'sessions', f));
}

function memFiles(dataDir) {
  const d = join(dataDir, 'sessions');
  return new Map(readdirSync(d).filter((f) => f.endsWith('.mem')).sort().map((f) => [f, readFileSync(join(d, f))]));
}

/** The byte offsets after each line of a log. */
function lineEnds(file) {
  const b = readFileSync(file);
  const ends = [];
  for (let i = b.indexOf(10); i >= 0; i = b.indexOf(10, i + 1)) ends.push(i + 1);
  return { b, ends };
}

const failures = [];
function same(what, a, b) {
  if (a === b) return;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  failures.push(`${what}: differ at character ${i}: old …${a.slice(Math.max(0, i - 80), i + 80)}… new …${b.slice(Math.max(0, i - 80), i + 80)}…`);
}
function sameMem(stage, a, b) {
  same(`${stage}: .mem file names`, [...a.keys()].join(','), [...b.keys()].join(','));
  let n = 0;
  for (const [f, x] of a) {
    const y = b.get(f);
    if (y === undefined) continue;
    n++;
    if (!x.equals(y)) failures.push(`${stage}: ${f} differs (${x.length} bytes old, ${y.length} new)`);
  }
  return n;
}

const OLD = resolve(opt('--old', ''));
const NEW = resolve(opt('--new', join(ROOT, 'dist')));
if (!opt('--old', null)) throw new Error('--old DIST is required (a copy of dist made before the change)');
const RUNS = Number(opt('--runs', 5));
const work = mkdtempSync(join(tmpdir(), 'nodwyn-mem-compare-'));
try {
  let corpus = opt('--corpus', null);
  if (corpus === null) {
    corpus = join(work, 'corpus');
    process.stderr.write('writing the corpus (memory.mjs --corpus-only)…\n');
    execFileSync(process.execPath, [join(HERE, 'memory.mjs'), '--keep', corpus, '--corpus-only'], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const repo = join(corpus, 'repo');
  const base = join(work, 'base');
  copyLogs(join(corpus, 'data'), base);
  const builds = { old: join(OLD, 'host'), new: join(NEW, 'host') };
  const variety = await writeVariety(builds.new, base, repo, 6);
  const outputs = {};
  const mems = {};
  // Stage 1: every log whole, no .mem yet.
  for (const [name, dist] of Object.entries(builds)) {
    const data = join(work, name, 'data');
    copyLogs(base, data);
    outputs[name] = runChild({ dist, dataDir: data, repo, queries: [...QUERIES, ...MORE] });
    mems[name] = memFiles(data);
  }
  same('stage 1 (whole logs, first search): answers', outputs.old, outputs.new);
  let files = sameMem('stage 1', mems.old, mems.new);
  // Stage 2 and 3: some logs cut back to a prefix (inside a turn; at a turn's end), their .mem files made from that,
  // then the whole logs back: each .mem file extended.
  const cut = [...variety, ...readdirSync(join(base, 'sessions')).filter((f) => f.endsWith('.jsonl')).map((f) => f.slice(0, -6)).slice(0, 10)];
  for (const [name] of Object.entries(builds)) rmSync(join(work, name, 'data', 'sessions'), { recursive: true });
  for (const [stage, pick] of [
    ['stage 2 (logs cut inside a turn)', (ends, turnEnds) => ends[Math.min(ends.length - 2, turnEnds[Math.floor(turnEnds.length / 2)] + 3)]],
    ['stage 2b (logs cut at a turn end)', (ends, turnEnds) => ends[turnEnds[Math.floor(turnEnds.length / 3)]]],
  ]) {
    for (const [name, dist] of Object.entries(builds)) {
      const data = join(work, name, 'data');
      rmSync(join(data, 'sessions'), { recursive: true, force: true });
      copyLogs(base, data);
      for (const s of cut) {
        const f = join(data, 'sessions', `${s}.jsonl`);
        const { b, ends } = lineEnds(f);
        const turnEnds = [];
        let at = 0;
        ends.forEach((e, i) => {
          if (b.subarray(at, e).includes('"kind":"turn.end"')) turnEnds.push(i);
          at = e;
        });
        truncateSync(f, pick(ends, turnEnds));
      }
      const a = runChild({ dist, dataDir: data, repo, queries: QUERIES.slice(0, 6).concat(MORE.slice(0, 6)) });
      for (const s of cut) copyFileSync(join(base, 'sessions', `${s}.jsonl`), join(data, 'sessions', `${s}.jsonl`));
      const m1 = memFiles(data);
      const b2 = runChild({ dist, dataDir: data, repo, queries: [...QUERIES, ...MORE], tasks: 0 });
      outputs[name] = [a, b2];
      mems[name] = [m1, memFiles(data)];
    }
    same(`${stage}: answers on the prefixes`, outputs.old[0], outputs.new[0]);
    same(`${stage}: answers once extended`, outputs.old[1], outputs.new[1]);
    files += sameMem(`${stage}: made from the prefixes`, mems.old[0], mems.new[0]);
    files += sameMem(`${stage}: extended`, mems.old[1], mems.new[1]);
  }
  process.stdout.write(`answers and .mem files compared: ${files} files, ${failures.length === 0 ? 'all the same' : `${failures.length} differences`}\n`);
  for (const f of failures) process.stdout.write(`DIFFERENT ${f}\n`);

  if (!args.includes('--no-time') && failures.length === 0) {
    // The timed rounds, on the corpus alone (as memory.mjs measures it).
    const bench = join(HERE, 'memory.mjs');
    const load0 = loadavg();
    const res = { old: { first: [], firstWall: [], later: [] }, new: { first: [], firstWall: [], later: [] } };
    const tdata = {};
    for (const name of Object.keys(builds)) {
      tdata[name] = join(work, `time-${name}`, 'data');
      copyLogs(join(corpus, 'data'), tdata[name]);
    }
    const median = (a) => {
      const s = [...a].sort((x, y) => x - y);
      return s.length % 2 ? s[(s.length - 1) >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    };
    const one = (what, o) => {
      const r = spawnSync(process.execPath, ['--expose-gc', bench, '--child', what, JSON.stringify(o)], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NODE_EXTRA_CA_CERTS: '' } });
      if (r.status !== 0) throw new Error(`memory.mjs child ${what} failed: ${r.stderr}`);
      return JSON.parse(r.stdout);
    };
    for (let round = 0; round < RUNS; round++) {
      const order = round % 2 === 0 ? ['old', 'new'] : ['new', 'old'];
      for (const name of order) {
        const d = join(tdata[name], 'sessions');
        for (const f of readdirSync(d)) if (f.endsWith('.mem')) rmSync(join(d, f));
        const o = { dist: builds[name], dataDir: tdata[name], repo };
        const f = one('first', o);
        res[name].first.push(f.cpuMs);
        res[name].firstWall.push(f.ms);
        const l = one('later', o);
        res[name].later.push(median(l.times));
      }
      process.stderr.write(`round ${round + 1}/${RUNS}: old ${res.old.first.at(-1).toFixed(0)} ms, new ${res.new.first.at(-1).toFixed(0)} ms (first, CPU)\n`);
    }
    const load1 = loadavg();
    const f1 = (x) => x.toFixed(1);
    const f2 = (x) => x.toFixed(2);
    const rows = [
      ['first search, all tasks: CPU (median)', res.old.first, res.new.first, f1],
      ['first search, all tasks: wall (median)', res.old.firstWall, res.new.firstWall, f1],
      ['later search, new process: median of 20 queries (median)', res.old.later, res.new.later, f2],
    ];
    process.stdout.write(`\n${RUNS} rounds, load average ${load0.map(f2).join(' ')} before, ${load1.map(f2).join(' ')} after\n`);
    process.stdout.write('\n| measurement | old | new | new / old |\n| :-- | --: | --: | --: |\n');
    for (const [k, a, b, f] of rows) process.stdout.write(`| ${k} | ${f(median(a))} ms | ${f(median(b))} ms | ${(median(b) / median(a)).toFixed(2)} |\n`);
    if (opt('--json', null)) writeFileSync(opt('--json', null), JSON.stringify({ load0, load1, res }, null, 2));
  }
  if (failures.length > 0) process.exitCode = 1;
} finally {
  if (!args.includes('--keep-work')) rmSync(work, { recursive: true, force: true });
  else process.stderr.write(`work left in ${work}\n`);
}
