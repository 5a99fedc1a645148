// Benchmark runner: every program on nodwyn, plain JS, guile, LIPS and
// BiwaScheme, alternating, with answers checked, start-up subtracted, ratios
// to plain JS, geometric means and peak memory. See test/bench/README.md.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { HAVE_GNU_TIME, killCurrent, runTimed } from './lib/process.mjs';
import { readJsRepeat, readProgram, stripImports, withRepeat } from './lib/scheme-source.mjs';
import { formatKb, formatMs, formatRatio, geomean, median } from './lib/stats.mjs';
import { markdownTable, textTable } from './lib/table.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const PROGRAMS = join(HERE, 'programs');
const SPECIAL = join(PROGRAMS, 'special');

// Table order: calls, closures, lists, vectors, numbers, strings, control.
const ORDER = ['fib', 'tak', 'ack', 'cpstak', 'msort', 'deriv', 'symbolic', 'sieve', 'records', 'mandel', 'fact',
  'strings', 'strbuild', 'ctak', 'fibc', 'fringe', 'dynwind', 'macros'];

const USAGE = `usage: node test/bench/run.mjs [options]
  --only a,b        run only these programs (names in test/bench/programs)
  --impl a,b        implementations: ${'nodwyn,js,guile,lips,biwascheme'} (js is always
                    run: it is the baseline of every ratio)
  --runs N          timed runs per program and implementation (default 5)
  --timeout S       kill a run after S seconds and report timeout (default 60)
  --budget S        lower a slow implementation's repeat count so one run takes
                    about S seconds (default 3; the ratio is per unit of work)
  --quick           --runs 2 --budget 1 --timeout 20, tail loop at 10^6
  --no-tail         skip the constant-memory tail-loop check
  --nodwyn PATH     the nodwyn launcher to run (default bin/nodwyn; e.g. another
                    checkout's, to compare two builds)
  --json FILE       also write every measurement as JSON
  --help`;

function parseArgs(argv) {
  const opts = { only: null, impl: null, runs: 5, timeout: 60, budget: 3, quick: false, tail: true, json: null, nodwyn: null };
  const given = new Set();
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
    if (a === '--only') opts.only = value().split(',').filter(Boolean);
    else if (a === '--impl') opts.impl = value().split(',').filter(Boolean);
    else if (a === '--runs') opts.runs = Math.round(number());
    else if (a === '--timeout') opts.timeout = number();
    else if (a === '--budget') opts.budget = number();
    else if (a === '--quick') opts.quick = true;
    else if (a === '--no-tail') opts.tail = false;
    else if (a === '--json') opts.json = value();
    else if (a === '--nodwyn') opts.nodwyn = value();
    else if (a === '--help' || a === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else fail(`unknown option ${a}`);
    given.add(a);
  }
  if (opts.quick) {
    if (!given.has('--runs')) opts.runs = 2;
    if (!given.has('--budget')) opts.budget = 1;
    if (!given.has('--timeout')) opts.timeout = 20;
  }
  return opts;
}

function fail(message) {
  console.error(`run.mjs: ${message}\n${USAGE}`);
  process.exit(2);
}

function which(command) {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, command))) return join(dir, command);
  }
  return null;
}

function versionOf(command, args) {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n')[0].trim();
  } catch {
    return null;
  }
}

function packageVersion(name) {
  try {
    return JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

const NODE = process.execPath;
const DEFAULT_NODWYN = join(ROOT, 'bin', 'nodwyn');
const LIPS_CLI = join(ROOT, 'node_modules', '@jcubic', 'lips', 'bin', 'lips.js');
const BIWA_CLI = join(ROOT, 'node_modules', 'biwascheme', 'bin', 'biwas');
const GUILE = which('guile');

// Each implementation: how to run a file, whether it needs the import form
// removed, and whether it reads the .js twin instead of the .scm program.
// scaled: its repeat count may be lowered to fit the budget (never js, the
// baseline; not guile, which is fast and compiles every rewritten file anew).
// warmup: one untimed run of the exact file before any that counts (guile
// compiles a file to its cache on the first run).
function implementations(tmp, opts) {
  const nodwynBin = opts.nodwyn ? resolve(opts.nodwyn) : DEFAULT_NODWYN;
  return {
    js: {
      label: 'plain JS',
      js: true,
      available: () => true,
      command: (file) => [NODE, [file]],
    },
    nodwyn: {
      label: 'nodwyn',
      available: () => existsSync(nodwynBin) || `${nodwynBin} not found`,
      command: (file) => [nodwynBin, ['run', file]],
      scaled: true,
    },
    guile: {
      label: 'guile',
      available: () => Boolean(GUILE) || 'guile not installed (test/bench/setup.sh)',
      command: (file) => [GUILE, ['--r7rs', '-q', file]],
      // A private compile cache, so every bench run compiles afresh (in the
      // untimed warm-up) and the user's ~/.cache is left alone.
      env: { ...process.env, XDG_CACHE_HOME: join(tmp, 'guile-cache') },
      warmup: true,
    },
    lips: {
      label: 'LIPS',
      available: () => existsSync(LIPS_CLI) || 'node_modules/@jcubic/lips missing',
      command: (file) => [NODE, [LIPS_CLI, file]],
      stripImports: true,
      // The LIPS CLI appends uncaught errors to ~/lips.error.log.
      env: { ...process.env, HOME: tmp },
      scaled: true,
    },
    biwascheme: {
      label: 'BiwaScheme',
      available: () => existsSync(BIWA_CLI) || 'node_modules/biwascheme missing',
      command: (file) => [NODE, [BIWA_CLI, file]],
      stripImports: true,
      scaled: true,
    },
  };
}

function listPrograms(only) {
  const names = readdirSync(PROGRAMS)
    .filter((f) => f.endsWith('.scm'))
    .map((f) => basename(f, '.scm'))
    .sort((a, b) => {
      const ia = ORDER.indexOf(a) < 0 ? ORDER.length : ORDER.indexOf(a);
      const ib = ORDER.indexOf(b) < 0 ? ORDER.length : ORDER.indexOf(b);
      return ia - ib || a.localeCompare(b);
    });
  if (!only) return names;
  for (const n of only) if (!names.includes(n)) fail(`no program ${n} in ${PROGRAMS}`);
  return names.filter((n) => only.includes(n));
}

const log = (...args) => console.error(...args);

// The file an implementation runs for a program at a repeat count: the
// program itself when nothing needs changing, else a rewritten copy in tmp.
function fileFor(impl, implName, program, repeat, tmp) {
  if (impl.js) return program.jsPath;
  const needsRepeat = repeat !== program.repeat;
  if (!impl.stripImports && !needsRepeat) return program.path;
  let source = program.source;
  if (needsRepeat) source = withRepeat(source, repeat);
  if (impl.stripImports) source = stripImports(source);
  const file = join(tmp, `${program.name}.${implName}.r${repeat}.scm`);
  if (!existsSync(file)) writeFileSync(file, source);
  return file;
}

// One run, classified: ok (right answer), wrong, error or timeout.
async function runOnce(impl, file, expected, opts, tmp) {
  const [cmd, args] = impl.command(file);
  const r = await runTimed(cmd, args, { timeoutMs: opts.timeout * 1000, env: impl.env, tmpDir: tmp });
  const out = r.stdout.replace(/\r\n/g, '\n').trim();
  if (r.status === 'timeout') return { ...r, verdict: 'timeout', detail: `no answer after ${opts.timeout} s` };
  if (r.status === 'ok' && out === expected) return { ...r, verdict: 'ok' };
  if (out !== '' && out !== expected) {
    return { ...r, verdict: 'wrong', detail: `printed ${JSON.stringify(out.slice(0, 80))}, expected ${JSON.stringify(expected)}` };
  }
  const why = firstMeaningfulLine(r.stderr) || (r.signal ? `killed by ${r.signal}` : `exit code ${r.code}`);
  return { ...r, verdict: 'error', detail: why };
}

function firstMeaningfulLine(text) {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith(';;;') && !l.startsWith('WARNING: (guile-user)'));
  const line = lines.find((l) => /error|exception|unbound|not |overflow|maximum|cannot|invalid/i.test(l)) ?? lines[0];
  return line ? line.slice(0, 160) : '';
}

// Untimed runs that check the answer and choose the repeat count. A fixed-cost
// implementation (plain JS, guile) runs the full workload after a warm-up.
// A scaled one starts with one repetition of the work and grows the count
// until a run has enough net work (start-up subtracted) to estimate the cost
// of one repetition; if the full workload would take longer than the budget,
// the timed runs use fewer repetitions and the ratio is per repetition.
async function calibrate(impl, implName, program, opts, tmp, startup) {
  const full = program.repeat;
  const attempt = async (repeat) => {
    const file = fileFor(impl, implName, program, repeat, tmp);
    if (impl.warmup) await runOnce(impl, file, program.answer, opts, tmp);
    return runOnce(impl, file, program.answer, opts, tmp);
  };
  if (!impl.scaled) {
    const r = await attempt(full);
    return r.verdict === 'ok' ? { verdict: 'ok', repeat: full } : { ...r, repeat: full };
  }
  const ENOUGH_MS = 250;
  let repeat = 1;
  for (;;) {
    const r = await attempt(repeat);
    if (r.verdict !== 'ok') return { ...r, repeat };
    const net = r.ms - startup;
    if (repeat === full || net >= ENOUGH_MS) {
      const unit = Math.max(net, 0) / repeat;
      const fits = unit * full <= opts.budget * 1000;
      return { verdict: 'ok', repeat: fits ? full : Math.max(1, Math.floor((opts.budget * 1000) / unit)) };
    }
    const next = net > 10 ? Math.ceil((repeat * 2 * ENOUGH_MS) / net) : repeat * 20;
    repeat = Math.min(full, Math.max(next, repeat * 2));
  }
}

// Rotate the implementation order every repetition so that none always runs
// first (or right after the same neighbour).
const rotate = (xs, k) => xs.map((_, i) => xs[(i + k) % xs.length]);

function emptyProgram() {
  const path = join(SPECIAL, 'empty.scm');
  return { name: 'empty', path, jsPath: join(SPECIAL, 'empty.js'), ...readProgram(path) };
}

// Bare node, the floor for the start-up of anything run by node.
const BARE_NODE = { label: 'node -e 0', command: () => [NODE, ['-e', '0']], js: true };

// Every empty-program run, from the start-up phase and paired with the timed
// runs, goes into the start-up table, so it spans the whole run's load.
function addStartupSample(results, name, r) {
  const sample = (results.startupSamples[name] ??= { ms: [], rssKb: [] });
  sample.ms.push(r.ms);
  if (r.rssKb) sample.rssKb.push(r.rssKb);
}

async function measureStartup(impls, names, opts, tmp, results) {
  const empty = emptyProgram();
  const entries = [...names.map((n) => [n, impls[n]]), ['node -e 0', BARE_NODE]];
  const times = Object.fromEntries(entries.map(([n]) => [n, []]));
  const rss = Object.fromEntries(entries.map(([n]) => [n, []]));
  const failed = {};
  for (const [name, impl] of entries) if (impl.warmup) await runOnce(impl, fileFor(impl, name, empty, null, tmp), '', opts, tmp);
  for (let rep = 0; rep < Math.max(opts.runs, 5); rep++) {
    for (const [name, impl] of rotate(entries, rep)) {
      if (failed[name]) continue;
      const r = await runOnce(impl, fileFor(impl, name, empty, null, tmp), '', opts, tmp);
      if (r.verdict !== 'ok') {
        failed[name] = `${r.verdict}: ${r.detail}`;
        log(`  start-up ${name}: ${failed[name]}`);
        continue;
      }
      times[name].push(r.ms);
      if (r.rssKb) rss[name].push(r.rssKb);
      addStartupSample(results, name, r);
    }
  }
  for (const [name] of entries) {
    results.startup[name] = failed[name]
      ? { failed: failed[name] }
      : { ms: median(times[name]), runs: times[name], rssKb: rss[name].length ? Math.max(...rss[name]) : null };
    if (!failed[name]) log(`  start-up ${name}: ${formatMs(results.startup[name].ms)}`);
  }
}

async function measureProgram(name, impls, names, opts, tmp, results) {
  const path = join(PROGRAMS, `${name}.scm`);
  const program = { name, path, jsPath: join(PROGRAMS, `${name}.js`), ...readProgram(path) };
  if (program.repeat == null) fail(`${path} has no (define bench-repeat N)`);
  const jsRepeat = existsSync(program.jsPath) ? readJsRepeat(program.jsPath) : null;
  if (jsRepeat !== program.repeat) {
    log(`  warning: ${name}.js BENCH_REPEAT ${jsRepeat} differs from bench-repeat ${program.repeat}`);
  }
  const row = (results.programs[name] = { answer: program.answer, repeat: program.repeat, impls: {} });

  // Untimed check runs: catch wrong answers and errors cheaply, and choose
  // the repeat count of each implementation.
  const live = [];
  for (const implName of names) {
    const impl = impls[implName];
    const cell = (row.impls[implName] = { runs: [], rssKb: [] });
    if (impl.missing) {
      Object.assign(cell, { verdict: 'missing', detail: impl.missing });
      continue;
    }
    const calibrated = await calibrate(impl, implName, program, opts, tmp, results.startup[implName]?.ms ?? 0);
    if (calibrated.verdict !== 'ok') {
      Object.assign(cell, { verdict: calibrated.verdict, detail: calibrated.detail, repeat: calibrated.repeat });
      log(`  ${name} ${implName}: ${calibrated.verdict.toUpperCase()} ${calibrated.detail}`);
      continue;
    }
    cell.repeat = calibrated.repeat;
    cell.file = fileFor(impl, implName, program, cell.repeat, tmp);
    live.push(implName);
  }

  // Timed runs, round-robin over the implementations. Each run of a program
  // is followed by a run of the empty program on the same implementation, so
  // the start-up subtracted was measured under the same machine load (this
  // machine is shared; load drifts over a long run).
  const empty = emptyProgram();
  for (let rep = 0; rep < opts.runs; rep++) {
    for (const implName of rotate(live, rep)) {
      const cell = row.impls[implName];
      if (cell.verdict) continue; // failed on an earlier repetition
      if (!results.startup[implName]?.failed) {
        const e = await runOnce(impls[implName], fileFor(impls[implName], implName, empty, null, tmp), '', opts, tmp);
        if (e.verdict === 'ok') {
          (cell.startupRuns ??= []).push(e.ms);
          addStartupSample(results, implName, e);
        }
        if (implName === 'js' && !results.startup['node -e 0']?.failed) {
          const b = await runOnce(BARE_NODE, null, '', opts, tmp);
          if (b.verdict === 'ok') addStartupSample(results, 'node -e 0', b);
        }
      }
      const r = await runOnce(impls[implName], cell.file, program.answer, opts, tmp);
      if (r.verdict !== 'ok') {
        // After earlier runs succeeded: flaky, which is worth knowing.
        Object.assign(cell, { verdict: r.verdict, detail: `on timed run ${rep + 1}: ${r.detail}` });
        log(`  ${name} ${implName}: ${r.verdict.toUpperCase()} ${cell.detail}`);
        continue;
      }
      cell.runs.push(r.ms);
      if (r.rssKb) cell.rssKb.push(r.rssKb);
    }
  }

  for (const implName of live) {
    const cell = row.impls[implName];
    if (cell.verdict) continue;
    cell.verdict = 'ok';
    cell.medianMs = median(cell.runs);
    cell.startupMs = cell.startupRuns?.length ? median(cell.startupRuns) : (results.startup[implName]?.ms ?? 0);
    // Net time of one repetition: start-up removed, divided by the repeats run.
    cell.unitMs = Math.max(cell.medianMs - cell.startupMs, 0.01) / cell.repeat;
    cell.peakRssKb = cell.rssKb.length ? Math.max(...cell.rssKb) : null;
  }
  const base = row.impls.js;
  for (const implName of names) {
    const cell = row.impls[implName];
    if (base.verdict !== 'ok') break;
    if (cell.verdict === 'ok') cell.ratio = cell.unitMs / base.unitMs;
    // A timeout still bounds the ratio from below: the run needed more than
    // the timeout for cell.repeat repetitions.
    if (cell.verdict === 'timeout' && cell.repeat) {
      const startup = results.startup[implName]?.ms ?? 0;
      cell.ratioAtLeast = (opts.timeout * 1000 - startup) / cell.repeat / base.unitMs;
    }
  }
  log(`  ${name}: ${names.map((n) => `${n} ${describe(row.impls[n], program.repeat)}`).join(', ')}`);
}

function describe(cell, fullRepeat) {
  if (cell.verdict === 'timeout' && cell.ratioAtLeast) return `timeout (>${formatRatio(cell.ratioAtLeast)})`;
  if (cell.verdict !== 'ok') return cell.verdict === 'missing' ? '—' : cell.verdict === 'wrong' ? 'WRONG' : cell.verdict;
  const star = cell.repeat !== fullRepeat ? '*' : '';
  const ratio = cell.ratio != null ? ` (${formatRatio(cell.ratio)})` : '';
  return `${formatMs(cell.unitMs * fullRepeat)}${star}${ratio}`;
}

async function measureTailLoop(impls, names, opts, tmp, results) {
  const path = join(SPECIAL, 'tail-loop.scm');
  const program = { name: 'tail-loop', path, jsPath: join(SPECIAL, 'tail-loop.js'), ...readProgram(path) };
  const small = 100000;
  const large = opts.quick ? 1000000 : program.repeat;
  // LIPS and BiwaScheme would need minutes for 10^7 iterations.
  for (const implName of names.filter((n) => ['nodwyn', 'guile', 'js'].includes(n))) {
    const impl = impls[implName];
    if (impl.missing) continue;
    const entry = (results.tailLoop[implName] = {});
    for (const [key, n] of [['small', small], ['large', large]]) {
      let file;
      if (impl.js) {
        file = join(tmp, `tail-loop.r${n}.js`);
        writeFileSync(file, readFileSync(program.jsPath, 'utf8').replace(/BENCH_REPEAT = \d+/, `BENCH_REPEAT = ${n}`));
      } else {
        file = fileFor(impl, implName, program, n, tmp);
      }
      if (impl.warmup) await runOnce(impl, file, program.answer, opts, tmp);
      const r = await runOnce(impl, file, program.answer, opts, tmp);
      entry[key] = { iterations: n, verdict: r.verdict, detail: r.detail, ms: r.ms, rssKb: r.rssKb };
    }
    const { small: s, large: l } = entry;
    log(`  tail loop ${implName}: ${[s, l].map((x) => `${x.iterations}: ${x.verdict === 'ok' ? `${formatMs(x.ms)}, ${formatKb(x.rssKb)}` : x.verdict}`).join('; ')}`);
  }
}

function report(programNames, names, impls, opts, results) {
  const md = [];
  const text = [];
  const env = results.environment;
  const headerLine = `${env.date} · ${env.cpu} × ${env.cores} · node ${env.node} · ${env.guile ?? 'no guile'} · LIPS ${env.lips} · BiwaScheme ${env.biwascheme} · nodwyn ${env.commit}`;
  const settings = `runs ${opts.runs} per implementation, alternating; budget ${opts.budget} s per run; timeout ${opts.timeout} s`;

  // Run times and ratios.
  const header = ['program', ...names.map((n) => impls[n].label)];
  const rows = programNames.map((p) => [p, ...names.map((n) => describe(results.programs[p].impls[n], results.programs[p].repeat))]);
  const geoRow = ['geometric mean'];
  const countRow = ['programs right'];
  for (const n of names) {
    const ratios = programNames.map((p) => results.programs[p].impls[n].ratio).filter((r) => r != null);
    const g = geomean(ratios);
    results.summary[n] = { geomean: g, ran: ratios.length, of: programNames.length };
    geoRow.push(g == null ? '—' : formatRatio(g));
    countRow.push(`${ratios.length}/${programNames.length}`);
  }
  rows.push(geoRow, countRow);
  text.push(`Run time (start-up subtracted) and ratio to plain JS per unit of work\n${headerLine}\n${settings}\n`);
  text.push(textTable(header, rows));
  md.push(`### Run time and ratio to plain JS\n\n${headerLine}; ${settings}.\n`);
  md.push(markdownTable(header, rows));
  const foot =
    'Each cell is the median run time of the full workload with the implementation\'s start-up ' +
    '(its median on the empty program, run alternately with the program) subtracted, and in parentheses its ratio to plain JS. ' +
    '`*`: measured on fewer repetitions of the work to fit the budget and scaled to the full workload. ' +
    '`timeout (>N×)`: killed after the timeout, which bounds the ratio from below. ' +
    'The geometric mean is over the programs the implementation ran with the right answer.';
  text.push(`\n${foot}`);
  md.push(`\n${foot}`);

  // Failures.
  const failures = [];
  for (const p of programNames) {
    for (const n of names) {
      const c = results.programs[p].impls[n];
      if (c.verdict !== 'ok' && c.verdict !== 'missing') failures.push(`${p} on ${impls[n].label}: ${c.verdict === 'wrong' ? 'WRONG' : c.verdict} — ${c.detail}`);
    }
  }
  for (const n of names) if (impls[n].missing) failures.push(`${impls[n].label}: not run — ${impls[n].missing}`);
  if (failures.length) {
    text.push(`\nNot timed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
    md.push(`\nNot timed:\n\n${failures.map((f) => `- ${f.replace(/\|/g, '\\|')}`).join('\n')}`);
  }

  // Peak memory.
  if (HAVE_GNU_TIME) {
    const memHeader = ['program', ...names.map((n) => impls[n].label)];
    const memRows = programNames.map((p) => [p, ...names.map((n) => {
      const c = results.programs[p].impls[n];
      return c.verdict === 'ok' ? formatKb(c.peakRssKb) : '—';
    })]);
    memRows.push(['empty program', ...names.map((n) => {
      const kb = results.startupSamples[n]?.rssKb ?? [];
      return kb.length ? formatKb(Math.max(...kb)) : '—';
    })]);
    memRows.push(['largest', ...names.map((n) => {
      const all = programNames.map((p) => results.programs[p].impls[n].peakRssKb).filter((x) => x != null);
      return all.length ? formatKb(Math.max(...all)) : '—';
    })]);
    text.push(`\nPeak memory (maximum resident set size, GNU time %M)\n`);
    text.push(textTable(memHeader, memRows));
    md.push(`\n### Peak memory (RSS)\n`);
    md.push(markdownTable(memHeader, memRows));
  }

  // Start-up.
  const su = {};
  for (const n of [...names, 'node -e 0']) {
    const samples = results.startupSamples[n]?.ms ?? [];
    if (samples.length) su[n] = { ms: median(samples), count: samples.length };
    else if (results.startup[n]?.failed) su[n] = { failed: results.startup[n].failed };
  }
  results.startupSummary = su;
  const suRows = [...names, 'node -e 0'].filter((n) => su[n]).map((n) => [
    impls[n]?.label ?? n,
    su[n].failed ? su[n].failed : formatMs(su[n].ms),
    su[n].failed ? '' : String(su[n].count),
    su[n].failed || !su['node -e 0']?.ms ? '' : formatRatio(su[n].ms / su['node -e 0'].ms),
  ]);
  const suHeader = ['implementation', 'empty program', 'runs', 'vs node -e 0'];
  text.push(`\nStart-up (median wall time of the empty program over all its runs)\n`);
  text.push(textTable(suHeader, suRows));
  md.push(`\n### Start-up\n`);
  md.push(markdownTable(suHeader, suRows));
  if (su.nodwyn?.ms && su['node -e 0']?.ms) {
    const line = `nodwyn run (empty program) / node -e 0: ${formatRatio(su.nodwyn.ms / su['node -e 0'].ms)} (goal: within 1.5×)`;
    text.push(`\n${line}`);
    md.push(`\n${line}.`);
  }

  // Tail loop.
  const tl = Object.entries(results.tailLoop);
  if (tl.length) {
    const tlRows = tl.map(([n, e]) => {
      const cell = (x) => (x.verdict === 'ok' ? `${formatMs(x.ms)}, ${formatKb(x.rssKb)}` : x.verdict);
      const growth = e.small.verdict === 'ok' && e.large.verdict === 'ok' && e.small.rssKb && e.large.rssKb
        ? `${Math.abs(e.large.rssKb - e.small.rssKb) < 52 ? '0.0' : ((e.large.rssKb - e.small.rssKb) / 1024).toFixed(1)} MB` : '—';
      return [impls[n].label, cell(e.small), cell(e.large), growth];
    });
    const h = ['implementation', `${tl[0][1].small.iterations} iterations`, `${tl[0][1].large.iterations} iterations`, 'RSS growth'];
    text.push(`\nTail loop (constant memory: the RSS growth should be near zero)\n`);
    text.push(textTable(h, tlRows));
    md.push(`\n### Tail loop in constant memory\n`);
    md.push(markdownTable(h, tlRows));
  }

  console.log(text.join('\n'));
  console.log('\n---- markdown (for docs/performance.md) ----\n');
  console.log(md.join('\n'));
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const tmp = mkdtempSync(join(tmpdir(), 'nodwyn-bench-'));
  const cleanup = () => rmSync(tmp, { recursive: true, force: true });
  process.on('SIGINT', () => {
    killCurrent();
    cleanup();
    process.exit(130);
  });

  const impls = implementations(tmp, opts);
  const all = Object.keys(impls);
  let names = opts.impl ?? all;
  for (const n of names) if (!impls[n]) fail(`unknown implementation ${n} (have ${all.join(', ')})`);
  names = ['js', ...names.filter((n) => n !== 'js')];
  for (const n of names) {
    const ok = impls[n].available();
    if (ok !== true) impls[n].missing = ok;
  }
  const programNames = listPrograms(opts.only);

  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    // not a git checkout
  }
  const results = {
    environment: {
      date: new Date().toISOString().slice(0, 10),
      cpu: cpus()[0]?.model?.replace(/\s+/g, ' ').trim() ?? 'unknown CPU',
      cores: cpus().length,
      node: process.versions.node,
      guile: GUILE ? versionOf(GUILE, ['--version'])?.replace(/^guile \(GNU Guile\)/, 'guile') : null,
      lips: packageVersion('@jcubic/lips'),
      biwascheme: packageVersion('biwascheme'),
      commit,
    },
    options: opts,
    startup: {},
    startupSamples: {},
    programs: {},
    tailLoop: {},
    summary: {},
  };
  if (!HAVE_GNU_TIME) log('note: /usr/bin/time not found (test/bench/setup.sh installs it); no memory figures');
  for (const n of names) if (impls[n].missing) log(`note: ${n} not run: ${impls[n].missing}`);

  try {
    const running = names.filter((n) => !impls[n].missing);
    log(`start-up (empty program), ${Math.max(opts.runs, 5)} runs each`);
    await measureStartup(impls, running, opts, tmp, results);
    for (const name of programNames) {
      log(`${name}`);
      await measureProgram(name, impls, names, opts, tmp, results);
    }
    if (opts.tail) {
      log('tail loop');
      await measureTailLoop(impls, names, opts, tmp, results);
    }
    report(programNames, names, impls, opts, results);
    if (opts.json) writeFileSync(opts.json, `${JSON.stringify(results, null, 2)}\n`);
  } finally {
    cleanup();
  }
}

main().catch((err) => {
  killCurrent();
  console.error(err);
  process.exit(1);
});
