// The cost of a continuation capture against the number of captures before it
// in the same activation: N guards and N call/cc in one procedure body and at
// the top level, N = 100 … 3,200, on nodwyn and guile, alternating. See
// test/bench/README.md ("Captures in one activation").

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { killCurrent, runTimed } from './lib/process.mjs';
import { formatMs, formatRatio, median } from './lib/stats.mjs';
import { markdownTable, textTable } from './lib/table.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');

const USAGE = `usage: node test/bench/capture.mjs [options]
  --sizes a,b,…   the values of N (default 100,200,400,800,1000,1600,3200)
  --kinds a,b     guard, callcc (default both)
  --impl a,b      nodwyn, guile (default both; guile when installed: test/bench/setup.sh)
  --runs N        timed runs of each program (default 3)
  --timeout S     kill a run after S seconds and report timeout (default 120)
  --nodwyn PATH   the nodwyn launcher to run (default bin/nodwyn)
  --json FILE     also write every measurement as JSON
  --help`;

function parseArgs(argv) {
  const o = { sizes: [100, 200, 400, 800, 1000, 1600, 3200], kinds: ['guard', 'callcc'], impl: ['nodwyn', 'guile'], runs: 3, timeout: 120, nodwyn: null, json: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) fail(`${a} needs a value`);
      return argv[++i];
    };
    const list = () => value().split(',').filter(Boolean);
    const positive = (x) => {
      const n = Number(x);
      if (!(n > 0)) fail(`${a} needs positive numbers`);
      return n;
    };
    if (a === '--sizes') o.sizes = list().map((x) => Math.round(positive(x)));
    else if (a === '--kinds') o.kinds = list();
    else if (a === '--impl') o.impl = list();
    else if (a === '--runs') o.runs = Math.round(positive(value()));
    else if (a === '--timeout') o.timeout = positive(value());
    else if (a === '--nodwyn') o.nodwyn = value();
    else if (a === '--json') o.json = value();
    else if (a === '--help' || a === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else fail(`unknown option ${a}`);
  }
  for (const k of o.kinds) if (!['guard', 'callcc'].includes(k)) fail(`no kind ${k}`);
  for (const k of o.impl) if (!['nodwyn', 'guile'].includes(k)) fail(`no implementation ${k}`);
  return o;
}

function fail(message) {
  console.error(`capture.mjs: ${message}\n${USAGE}`);
  process.exit(2);
}

const log = (...args) => console.error(...args);

function which(cmd) {
  try {
    return execFileSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

// ---- the programs ------------------------------------------------------------------------

// One statement per capture. guard: every tenth body raises and its clause
// counts it; call/cc: every odd one escapes through its continuation. Each
// statement names its own constant, so no two are the same code.
function statement(kind, i) {
  if (kind === 'guard') return `(guard (e (#t (set! caught (+ caught 1)))) (work ${i}))`;
  return `(set! count (+ count (call/cc (lambda (k) (if (odd? ${i}) (k ${i}) 0)))))`;
}

const PRELUDE = `(import (scheme base) (scheme write) (scheme time))
(define count 0)
(define caught 0)
(define (work i) (if (= 0 (remainder i 10)) (raise i) (set! count (+ count i))))
(define t0 (current-jiffy))
`;

// The answer, then the seconds from t0 to the end by the program's own clock:
// the run without the start-up and, for the body, without compiling the program.
const POSTLUDE = `(define t1 (current-jiffy))
(write (list count caught))
(newline)
(write (inexact (/ (- t1 t0) (jiffies-per-second))))
(newline)
`;

/**
 * The program: N statements in one procedure body ("body", the clock started
 * just before the call) or as N top-level forms ("top").
 */
function program(kind, where, n) {
  const stmts = [];
  for (let i = 1; i <= n; i++) stmts.push(statement(kind, i));
  if (where === 'body') {
    return `${PRELUDE.replace('(define t0 (current-jiffy))\n', '')}(define (run)\n  ${stmts.join('\n  ')}\n  #t)\n(define t0 (current-jiffy))\n(run)\n${POSTLUDE}`;
  }
  return `${PRELUDE}${stmts.join('\n')}\n${POSTLUDE}`;
}

function answer(kind, n) {
  let count = 0;
  let caught = 0;
  for (let i = 1; i <= n; i++) {
    if (kind === 'guard') {
      if (i % 10 === 0) caught++;
      else count += i;
    } else if (i % 2 === 1) count += i;
  }
  return `(${count} ${caught})`;
}

// ---- running --------------------------------------------------------------------------------

function implementations(opts, tmp) {
  const nodwyn = opts.nodwyn ? resolve(opts.nodwyn) : join(ROOT, 'bin', 'nodwyn');
  const guile = which('guile');
  const all = {
    nodwyn: { label: 'nodwyn', command: (f) => [nodwyn, ['run', f]] },
    guile: guile && {
      label: 'guile',
      command: (f) => [guile, ['--r7rs', '-q', f]],
      // A private compile cache; the first (untimed) run of each file compiles it.
      env: { ...process.env, XDG_CACHE_HOME: join(tmp, 'guile-cache') },
      warmup: true,
    },
  };
  const out = {};
  for (const name of opts.impl) {
    if (all[name]) out[name] = all[name];
    else log(`${name}: not installed (sh test/bench/setup.sh installs guile); left out`);
  }
  return out;
}

async function runOnce(impl, file, expected, opts, tmp) {
  const [cmd, args] = impl.command(file);
  const r = await runTimed(cmd, args, { timeoutMs: opts.timeout * 1000, env: impl.env, tmpDir: tmp });
  const lines = r.stdout.trim().split('\n');
  const out = expected === '' ? r.stdout.trim() : lines[0]?.trim() ?? '';
  if (r.status === 'timeout') return { verdict: 'timeout', ms: r.ms };
  const inner = Number(lines[1]) * 1000;
  if (r.status === 'ok' && out === expected) return { verdict: 'ok', ms: r.ms, inner: Number.isFinite(inner) ? inner : null };
  const why = r.stderr.split('\n').find((l) => l.trim() && !l.startsWith(';;;')) ?? `exit ${r.code}`;
  return { verdict: out && out !== expected ? 'wrong' : 'error', ms: r.ms, detail: out ? `printed ${out.slice(0, 60)}` : why.slice(0, 160) };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const tmp = mkdtempSync(join(tmpdir(), 'nodwyn-capture-bench-'));
  process.on('SIGINT', () => {
    killCurrent();
    rmSync(tmp, { recursive: true, force: true });
    process.exit(130);
  });
  const impls = implementations(opts, tmp);
  const names = Object.keys(impls);
  const empty = join(tmp, 'empty.scm');
  writeFileSync(empty, '(import (scheme base) (scheme write))\n');

  // Start-up of each implementation, subtracted from every time below.
  const startup = {};
  for (const name of names) {
    if (impls[name].warmup) await runOnce(impls[name], empty, '', opts, tmp);
    const ms = [];
    for (let i = 0; i < 5; i++) ms.push((await runOnce(impls[name], empty, '', opts, tmp)).ms);
    startup[name] = median(ms);
    log(`start-up ${name}: ${formatMs(startup[name])}`);
  }

  // cases: kind × where × n × impl. A case that timed out is not run at a larger N.
  const results = [];
  const stopped = new Set();
  for (const kind of opts.kinds) {
    for (const n of opts.sizes) {
      const cases = [];
      for (const where of ['body', 'top']) {
        const file = join(tmp, `${kind}-${where}-${n}.scm`);
        writeFileSync(file, program(kind, where, n));
        for (const name of names) {
          const key = `${kind}/${where}/${name}`;
          if (stopped.has(key)) {
            results.push({ kind, where, n, impl: name, verdict: 'skipped' });
            continue;
          }
          cases.push({ kind, where, n, impl: name, key, file, runs: [], inner: [] });
        }
      }
      const expected = answer(kind, n);
      for (const c of cases) if (impls[c.impl].warmup) await runOnce(impls[c.impl], c.file, expected, opts, tmp);
      // Round-robin over the cases, the order rotated every round.
      for (let round = 0; round < opts.runs; round++) {
        for (let j = 0; j < cases.length; j++) {
          const c = cases[(j + round) % cases.length];
          if (c.failed) continue;
          const r = await runOnce(impls[c.impl], c.file, expected, opts, tmp);
          if (r.verdict !== 'ok') {
            c.failed = r;
            stopped.add(c.key);
            log(`${c.key} N=${n}: ${r.verdict}${r.detail ? ` (${r.detail})` : ''}`);
          } else {
            c.runs.push(Math.max(0, r.ms - startup[c.impl]));
            if (r.inner !== null) c.inner.push(r.inner);
          }
        }
      }
      for (const c of cases) {
        if (c.failed) results.push({ kind: c.kind, where: c.where, n, impl: c.impl, verdict: c.failed.verdict, detail: c.failed.detail });
        else results.push({ kind: c.kind, where: c.where, n, impl: c.impl, verdict: 'ok', ms: median(c.runs), runs: c.runs, inner: c.inner.length ? median(c.inner) : null });
        const last = results[results.length - 1];
        log(`${c.kind} ${c.where} N=${n} ${c.impl}: ${last.verdict === 'ok' ? `${formatMs(last.inner ?? NaN)} by its clock, ${formatMs(last.ms)} whole` : last.verdict}`);
      }
    }
  }

  // Tables: per kind, one row per N. "run" is the program's own clock around
  // the N statements (for the body: the call of the procedure, compiled
  // already); "whole" is the process's time less the start-up. For nodwyn in
  // a body: the ratio of run times to the previous N (a doubling should cost
  // at most 2.2×) and the run time per capture.
  const get = (kind, where, impl, n) => results.find((r) => r.kind === kind && r.where === where && r.impl === impl && r.n === n);
  const ok = (r) => r != null && r.verdict === 'ok';
  const show = (r, field) => (r === undefined ? '—' : r.verdict === 'ok' ? formatMs(r[field]) : r.verdict);
    const sections = [];
  for (const kind of opts.kinds) {
    const head = ['N', 'nodwyn body run', '× prev N', 'µs / capture', 'nodwyn body whole', 'nodwyn top level whole'];
    if (names.includes('guile')) head.push('guile body run', 'guile body whole', 'guile top level whole', 'nodwyn / guile run', 'nodwyn / guile whole');
    const rows = [];
    let prev = null;
    for (const n of opts.sizes) {
      const b = get(kind, 'body', 'nodwyn', n);
      const row = [
        String(n),
        show(b, 'inner'),
        ok(b) && ok(prev) && prev.inner > 0 ? `${formatRatio(b.inner / prev.inner)} (N ×${(n / prev.n).toFixed(2)})` : '',
        ok(b) ? ((b.inner * 1000) / n).toFixed(1) : '',
        show(b, 'ms'),
        show(get(kind, 'top', 'nodwyn', n), 'ms'),
      ];
      if (names.includes('guile')) {
        const g = get(kind, 'body', 'guile', n);
        row.push(show(g, 'inner'), show(g, 'ms'), show(get(kind, 'top', 'guile', n), 'ms'));
        row.push(ok(b) && ok(g) && g.inner > 0 ? formatRatio(b.inner / g.inner) : '', ok(b) && ok(g) && g.ms > 0 ? formatRatio(b.ms / g.ms) : '');
      }
      rows.push(row);
      prev = b ?? null;
    }
    sections.push({ title: kind === 'guard' ? 'N guards in one body (every tenth body raises)' : 'N call/cc in one body (every other one escapes)', head, rows });
  }
  const when = `${new Date().toISOString().slice(0, 16).replace('T', ' ')} · load average ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')} · start-up subtracted: ${names.map((n) => `${n} ${formatMs(startup[n])}`).join(', ')} · medians of ${opts.runs}`;
  console.log(when);
  for (const s of sections) {
    console.log(`\n${s.title}\n`);
    console.log(textTable(s.head, s.rows));
  }
  console.log('\n');
  for (const s of sections) {
    console.log(`**${s.title}**\n`);
    console.log(markdownTable(s.head, s.rows));
    console.log('');
  }
  if (opts.json) writeFileSync(opts.json, JSON.stringify({ when, startup, results }, null, 2));
  rmSync(tmp, { recursive: true, force: true });
}

main().catch((e) => {
  killCurrent();
  console.error(e);
  process.exit(1);
});
