// The second table of issue 20: programs of ecraven's r7rs-benchmarks (a
// copy fetched outside this repository, never committed), prepared the way
// the suite's own bench script prepares them and run on nodwyn and guile side
// by side in one run: run time minus each implementation's start-up, median
// of the timed runs, the nodwyn/guile ratio per program and the geometric
// mean. See test/bench/README.md ("r7rs-benchmarks").

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { HAVE_GNU_TIME, killCurrent, runTimed } from './lib/process.mjs';
import { chooseCount, emptySource, inputCount, openSuite, parseResult, programSource, withCount } from './lib/r7rs-suite.mjs';
import { formatMs, formatRatio, geomean, median } from './lib/stats.mjs';
import { markdownTable, textTable } from './lib/table.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');

// The chosen set: every program of the suite that reads its parameters from
// inputs/NAME.input, in the order of the suite's own tables (calls,
// continuations, numbers, lists and symbols, vectors and strings, I/O).
const DEFAULT = [
  'ack', 'fib', 'fibc', 'fibfp', 'tak', 'ctak', 'cpstak', 'takl', 'ntakl', 'diviter', 'divrec',
  'sum', 'sumfp', 'sum1', 'mbrot', 'mbrotZ', 'fft', 'nucleic', 'pnpoly', 'pi', 'chudnovsky', 'simplex', 'ray',
  'deriv', 'destruc', 'nboyer', 'sboyer', 'peval', 'conform', 'earley', 'browse', 'lattice', 'graphs',
  'paraffins', 'primes', 'nqueens', 'triangl', 'puzzle', 'mazefun', 'maze', 'matrix', 'mperm', 'scheme', 'compiler', 'dynamic',
  'array1', 'quicksort', 'gcbench', 'equal', 'string', 'bv2string',
  'parsing', 'read1', 'wc', 'cat', 'tail', 'slatex',
];

// Smaller parameters for programs whose single iteration at the suite's
// parameters takes many seconds on nodwyn or guile (the count can only go
// down to 1): the suite's own older inputs where its input file lists them,
// or a value with a known answer. The count here is only a ceiling; the
// runner lowers it to fit --target. Not used with --full.
const numbers = (hi) => `(${Array.from({ length: hi }, (_, i) => hi - i).join(' ')})`;
const SMALLER = {
  ack: { input: '1000\n3\n9\n4093\n', note: 'A(3, 9) = 2^12 - 3' },
  fib: { input: '1000\n30\n832040\n', note: 'fib 30, fibc\'s parameters' },
  tak: { input: '10000\n18\n12\n6\n7\n', note: 'the suite\'s older input' },
  ctak: { input: '10000\n18\n12\n6\n7\n', note: 'the suite\'s older input' },
  cpstak: { input: '10000\n18\n12\n6\n7\n', note: 'the suite\'s older input' },
  takl: { input: `1000\n${numbers(32)}\n${numbers(16)}\n${numbers(8)}\n9\n`, note: 'the suite\'s older input' },
  ntakl: { input: `1000\n${numbers(32)}\n${numbers(16)}\n${numbers(8)}\n9\n`, note: 'the suite\'s older input' },
  nboyer: { input: '100\n4\n16445406\n', note: 'the suite\'s older input' },
  sboyer: { input: '100\n4\n16445406\n', note: 'the suite\'s older input' },
};

const USAGE = `usage: node test/bench/r7rs.mjs [--suite DIR] [options]
  --suite DIR     a copy of ${'ecraven/r7rs-benchmarks'}: a checkout or a git directory
                  (default: $R7RS_BENCHMARKS); not part of this repository
  --only a,b      run only these programs (default: ${DEFAULT.length} programs, see DEFAULT)
  --runs N        timed runs per program and implementation (default 3)
  --target S      choose each program's count (the input's first datum) so that one
                  nodwyn run takes about S seconds, and guile's at least a quarter of that
                  when nodwyn is not much slower (default 1; never above the suite's count)
  --full          the suite's own counts (minutes per program)
  --timeout S     kill a run after S seconds (default 120)
  --nodwyn PATH   the nodwyn launcher (default bin/nodwyn)
  --json FILE     also write every measurement as JSON
  --help`;

function fail(message) {
  console.error(`r7rs.mjs: ${message}\n${USAGE}`);
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { suite: process.env.R7RS_BENCHMARKS ?? null, only: null, runs: 3, target: 1, full: false, timeout: 120, nodwyn: null, json: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) fail(`${a} needs a value`);
      return argv[++i];
    };
    const number = () => {
      const n = Number(value());
      if (!(n > 0)) fail(`${a} needs a positive number`);
      return n;
    };
    if (a === '--suite') opts.suite = value();
    else if (a === '--only') opts.only = value().split(',').filter(Boolean);
    else if (a === '--runs') opts.runs = Math.round(number());
    else if (a === '--target') opts.target = number();
    else if (a === '--full') opts.full = true;
    else if (a === '--timeout') opts.timeout = number();
    else if (a === '--nodwyn') opts.nodwyn = value();
    else if (a === '--json') opts.json = value();
    else if (a === '--help' || a === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else fail(`unknown option ${a}`);
  }
  return opts;
}

function which(command) {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, command))) return join(dir, command);
  }
  return null;
}

const log = (...args) => console.error(...args);
const rotate = (xs, k) => xs.map((_, i) => xs[(i + k) % xs.length]);
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

// The line that says what went wrong: guile's is the "ERROR: In procedure"
// pair at the end of its backtrace, nodwyn's the first with an error word.
function firstErrorLine(text) {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith(';;;'));
  const guileError = lines.findIndex((l) => l.startsWith('ERROR:'));
  if (guileError >= 0) return lines.slice(guileError, guileError + 2).join(' ').slice(0, 160);
  const line = lines.find((l) => /error|exception|unbound|not |overflow|maximum|cannot|invalid|unknown/i.test(l)) ?? lines[0];
  return line ? line.slice(0, 160) : '';
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  let suite;
  try {
    suite = openSuite(opts.suite);
  } catch (err) {
    console.error(`r7rs.mjs: ${err.message}`);
    process.exit(2);
  }
  const guile = which('guile');
  if (!guile) {
    console.error('r7rs.mjs: guile not installed; run `sh test/bench/setup.sh` as root (Debian guile-3.0)');
    process.exit(2);
  }
  const nodwynBin = opts.nodwyn ? resolve(opts.nodwyn) : join(ROOT, 'bin', 'nodwyn');
  if (!existsSync(nodwynBin)) fail(`${nodwynBin} not found (npm run build)`);
  const names = opts.only ?? DEFAULT;
  for (const n of names) if (suite.read(`src/${n}.scm`) == null) fail(`no src/${n}.scm in ${suite.dir}`);

  const tmp = mkdtempSync(join(tmpdir(), 'nodwyn-r7rs-'));
  const cleanup = () => rmSync(tmp, { recursive: true, force: true });
  process.on('exit', cleanup);
  process.on('SIGINT', () => {
    killCurrent();
    cleanup();
    process.exit(130);
  });
  // Programs read files under inputs/ and write under outputs/, relative to
  // the working directory, which is tmp for every run.
  const absent = [...suite.copyTree('inputs', tmp), ...suite.copyTree('outputs', tmp)];
  if (absent.length) log(`note: absent from ${suite.dir}: ${absent.join(', ')} (programs reading them will fail)`);

  const guileEnv = { ...process.env, XDG_CACHE_HOME: join(tmp, 'guile-cache'), GUILE_AUTO_COMPILE: '0', GC_INITIAL_HEAP_SIZE: '100000000' };
  const impls = {
    nodwyn: { command: (file) => [nodwynBin, ['run', file]], env: process.env },
    guile: { command: (go) => [guile, ['-q', '-c', `(load-compiled ${JSON.stringify(go)})`]], env: guileEnv },
  };
  const run = (impl, file, stdin) => {
    const [cmd, args] = impls[impl].command(file);
    return runTimed(cmd, args, { timeoutMs: opts.timeout * 1000, env: impls[impl].env, tmpDir: tmp, stdin, cwd: tmp });
  };
  // guile as the suite runs it: compiled ahead of time at -O3 (untimed).
  const compileGuile = (scm) => {
    const go = scm.replace(/\.scm$/, '.go');
    const expr = `(use-modules (system base compile)) (compile-file ${JSON.stringify(scm)} #:output-file ${JSON.stringify(go)} #:optimization-level 3)`;
    try {
      execFileSync(guile, ['-q', '-c', expr], { env: guileEnv, cwd: tmp, stdio: ['ignore', 'ignore', 'pipe'], timeout: opts.timeout * 1000 });
      return { go };
    } catch (err) {
      if (err.signal) return { error: `compile: killed by ${err.signal} after the timeout (${opts.timeout} s)` };
      return { error: `compile: ${firstErrorLine(String(err.stderr ?? err.message))}` };
    }
  };

  const environment = {
    date: new Date().toISOString(),
    cpu: cpus()[0]?.model?.replace(/\s+/g, ' ').trim() ?? 'unknown CPU',
    cores: cpus().length,
    node: process.versions.node,
    guile: execFileSync(guile, ['--version'], { encoding: 'utf8' }).split('\n')[0].replace(/^guile \(GNU Guile\)/, 'guile').trim(),
    suite: `${suite.dir} (${suite.kind})`,
    absent,
    commit: (() => {
      try {
        return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
      } catch {
        return 'unknown';
      }
    })(),
    loadBefore: load(),
  };
  log(`load average ${environment.loadBefore}`);

  // Start-up: the empty program of each, alternating; every timed run of a
  // program is paired with one more, so the start-up subtracted was measured
  // under the same load.
  const empty = {};
  writeFileSync(join(tmp, 'empty.nodwyn.scm'), emptySource(suite, 'nodwyn'));
  writeFileSync(join(tmp, 'empty.guile.scm'), emptySource(suite, 'guile'));
  empty.nodwyn = join(tmp, 'empty.nodwyn.scm');
  const eg = compileGuile(join(tmp, 'empty.guile.scm'));
  if (eg.error) fail(`guile cannot compile its empty program: ${eg.error}`);
  empty.guile = eg.go;
  const startup = { nodwyn: [], guile: [] };
  for (let rep = 0; rep < 5; rep++) {
    for (const impl of rotate(['nodwyn', 'guile'], rep)) {
      const r = await run(impl, empty[impl]);
      if (r.status !== 'ok') fail(`${impl} fails on the empty program: ${firstErrorLine(r.stderr)}`);
      startup[impl].push(r.ms);
    }
  }
  log(`start-up: nodwyn ${formatMs(median(startup.nodwyn))}, guile ${formatMs(median(startup.guile))}`);

  const results = {};
  const check = (r) => {
    if (r.status === 'timeout') return { verdict: 'timeout', detail: `no result after ${opts.timeout} s` };
    const p = parseResult(r.stdout);
    if (p.verdict === 'ok' && r.status === 'ok') return p;
    if (p.verdict === 'wrong') return p;
    return { verdict: 'error', detail: firstErrorLine(r.stderr) || firstErrorLine(r.stdout) || `exit code ${r.code}` };
  };

  for (const name of names) {
    const row = (results[name] = { name });
    log(name);
    const smaller = opts.full ? null : SMALLER[name];
    const input = smaller ? smaller.input : suite.read(`inputs/${name}.input`);
    if (smaller) row.input = smaller.note;
    const suiteCount = input == null ? null : inputCount(input);
    if (suiteCount == null) {
      Object.assign(row, { verdict: 'skipped', detail: input == null ? 'no inputs/NAME.input' : 'the input does not start with a count' });
      log(`  ${row.detail}`);
      continue;
    }
    row.suiteCount = suiteCount;
    const files = { nodwyn: join(tmp, `${name}.nodwyn.scm`), guile: join(tmp, `${name}.guile.scm`) };
    writeFileSync(files.nodwyn, programSource(suite, name, 'nodwyn'));
    writeFileSync(files.guile, programSource(suite, name, 'guile'));
    const inputFor = (count) => {
      const file = join(tmp, `${name}.${count}.input`);
      if (!existsSync(file)) writeFileSync(file, withCount(input, count));
      return file;
    };

    // guile as the suite runs it: compiled first (untimed).
    const compiled = compileGuile(files.guile);
    const cells = (row.impls = { nodwyn: {}, guile: {} });
    if (compiled.error) Object.assign(cells.guile, { verdict: 'error', detail: compiled.error });
    const targets = { nodwyn: files.nodwyn, guile: compiled.go };

    // The cost of one iteration on each, from the suite's own timing of the
    // loop (no start-up in it): the count grows from 1 until the loop takes
    // long enough to estimate.
    const units = {};
    for (const impl of ['guile', 'nodwyn']) {
      if (cells[impl].verdict) continue;
      let count = 1;
      for (;;) {
        const c = check(await run(impl, targets[impl], inputFor(count)));
        if (c.verdict !== 'ok') {
          Object.assign(cells[impl], c, count > 1 ? { detail: `at count ${count}: ${c.detail}` } : {});
          break;
        }
        const inner = c.seconds * 1000;
        if (opts.full || count === suiteCount || inner >= 150) {
          units[impl] = inner / count;
          break;
        }
        const next = inner > 5 ? Math.ceil((count * 2 * 150) / inner) : count * 20;
        count = Math.min(suiteCount, Math.max(next, count * 2));
      }
    }
    if (cells.nodwyn.verdict || cells.guile.verdict) {
      row.verdict = 'not run';
      for (const impl of ['nodwyn', 'guile']) if (cells[impl].verdict) log(`  ${impl}: ${cells[impl].verdict} — ${cells[impl].detail}`);
      continue;
    }
    row.count = opts.full ? suiteCount : chooseCount(units.nodwyn, units.guile, opts.target * 1000, suiteCount);
    const inputFile = inputFor(row.count);
    await run('guile', compiled.go, inputFile); // warm the page cache at this count

    for (const impl of ['nodwyn', 'guile']) Object.assign(cells[impl], { runs: [], empties: [], inner: [] });
    for (let rep = 0; rep < opts.runs; rep++) {
      for (const impl of rotate(['nodwyn', 'guile'], rep)) {
        const cell = cells[impl];
        if (cell.verdict) continue;
        const e = await run(impl, empty[impl]);
        if (e.status === 'ok') cell.empties.push(e.ms);
        const r = await run(impl, targets[impl], inputFile);
        const c = check(r);
        if (c.verdict !== 'ok') {
          Object.assign(cell, c, { detail: `on timed run ${rep + 1} (count ${row.count}): ${c.detail}` });
          continue;
        }
        cell.runs.push(r.ms);
        cell.inner.push(c.seconds * 1000);
      }
    }
    if (cells.nodwyn.verdict || cells.guile.verdict) {
      row.verdict = 'not run';
      for (const impl of ['nodwyn', 'guile']) if (cells[impl].verdict) log(`  ${impl}: ${cells[impl].verdict} — ${cells[impl].detail}`);
      continue;
    }
    for (const impl of ['nodwyn', 'guile']) {
      const cell = cells[impl];
      cell.medianMs = median(cell.runs);
      cell.startupMs = median(cell.empties.length ? cell.empties : startup[impl]);
      cell.netMs = Math.max(cell.medianMs - cell.startupMs, 0.5);
      cell.innerMs = median(cell.inner);
    }
    row.verdict = 'ok';
    row.ratio = cells.nodwyn.netMs / cells.guile.netMs;
    row.innerRatio = cells.nodwyn.innerMs > 0 && cells.guile.innerMs > 0 ? cells.nodwyn.innerMs / cells.guile.innerMs : null;
    log(`  count ${row.count}: nodwyn ${formatMs(cells.nodwyn.netMs)}, guile ${formatMs(cells.guile.netMs)}, ${formatRatio(row.ratio)}`);
  }
  environment.loadAfter = load();

  // The tables.
  const ran = names.filter((n) => results[n].verdict === 'ok');
  const header = ['program', 'count (suite)', 'nodwyn', 'guile', 'nodwyn/guile', 'in-process'];
  const rows = ran.map((n) => {
    const r = results[n];
    return [r.input ? `${n}†` : n, `${r.count} (${r.input ? '†' : r.suiteCount})`, formatMs(r.impls.nodwyn.netMs), formatMs(r.impls.guile.netMs),
      formatRatio(r.ratio), r.innerRatio == null ? '—' : formatRatio(r.innerRatio)];
  });
  const g = geomean(ran.map((n) => results[n].ratio));
  const gi = geomean(ran.map((n) => results[n].innerRatio).filter((x) => x != null));
  rows.push(['geometric mean', '', '', '', g == null ? '—' : formatRatio(g), gi == null ? '—' : formatRatio(gi)]);
  rows.push(['programs run', '', '', '', `${ran.length}/${names.length}`, '']);
  const over2 = ran.filter((n) => results[n].ratio > 2);
  const headerLine = `${environment.date.slice(0, 16)}Z · ${environment.cpu} × ${environment.cores} · node ${environment.node} · ${environment.guile} (compiled -O3) · nodwyn ${environment.commit} · load average ${environment.loadBefore} before, ${environment.loadAfter} after`;
  const settings = `${opts.runs} timed runs each, alternating; counts chosen for about ${opts.full ? 'the suite\'s own' : `${opts.target} s of nodwyn`}; timeout ${opts.timeout} s`;
  let foot =
    'nodwyn and guile: median wall time of the program with that implementation\'s start-up (the median of its empty program, run alternately with it) subtracted. ' +
    'nodwyn/guile: their ratio (below 1: nodwyn faster). in-process: the ratio of the suite\'s own timing inside the process (run-r7rs-benchmark\'s jiffies around the loop; no start-up, no reading of the input). ' +
    'count: the iterations run (the input\'s first datum), chosen for this run, and the suite\'s own in parentheses; both implementations run the same input.';
  const smallerUsed = ran.filter((n) => results[n].input);
  if (smallerUsed.length) {
    foot += ` †: smaller parameters than the suite's (one iteration of its own takes many seconds): ${smallerUsed.map((n) => `${n} (${results[n].input})`).join(', ')}.`;
  }
  const notRun = names.filter((n) => results[n].verdict !== 'ok').map((n) => {
    const r = results[n];
    if (r.verdict === 'skipped') return `${n}: skipped — ${r.detail}`;
    const parts = ['nodwyn', 'guile'].filter((i) => r.impls[i].verdict).map((i) => `${i} ${r.impls[i].verdict === 'wrong' ? 'WRONG' : r.impls[i].verdict}: ${r.impls[i].detail}`);
    return `${n}: ${parts.join('; ')}`;
  });
  const text = [
    `r7rs-benchmarks, nodwyn beside guile (start-up subtracted)\n${headerLine}\n${settings}\n`,
    textTable(header, rows),
    `\n${foot}`,
    `\nabove 2× guile: ${over2.length ? over2.map((n) => `${n} ${formatRatio(results[n].ratio)}`).join(', ') : 'none'}`,
    `start-up (median of all empty-program runs): nodwyn ${formatMs(median(startup.nodwyn))}, guile ${formatMs(median(startup.guile))}`,
  ];
  if (notRun.length) text.push(`\nNot run:\n${notRun.map((l) => `  ${l}`).join('\n')}`);
  const md = [
    `### r7rs-benchmarks: nodwyn / guile\n\n${headerLine}; ${settings}.\n`,
    markdownTable(header, rows),
    `\n${foot}`,
    `\nAbove 2× guile: ${over2.length ? over2.map((n) => `${n} ${formatRatio(results[n].ratio)}`).join(', ') : 'none'}.`,
  ];
  if (notRun.length) md.push(`\nNot run:\n\n${notRun.map((l) => `- ${l.replace(/\|/g, '\\|')}`).join('\n')}`);
  console.log(text.join('\n'));
  console.log('\n---- markdown (for docs/performance.md) ----\n');
  console.log(md.join('\n'));
  if (opts.json) writeFileSync(opts.json, `${JSON.stringify({ environment, options: opts, startup, results }, null, 2)}\n`);
  if (!HAVE_GNU_TIME) log('note: /usr/bin/time not found; wall times only');
  cleanup();
}

main().catch((err) => {
  killCurrent();
  console.error(err);
  process.exit(1);
});
