// Benchmark of checkpoints (issue 17): a checkpoint of a git repository of 10,000 files with 10 changed, and an undo
// that restores them, on nodwyn's real path (CheckpointStore under TreeControl, a real session log), beside stock
// git doing the nearest thing (`git stash create`, which captures tracked files only and so less; a capture with
// a fresh temporary index, which hashes every file). Not a test: nothing asserts a time. See test/bench/README.md.
//
//   npm run build && node test/bench/checkpoint.mjs [--files 10000] [--changed 10] [--runs 7]

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './lib/stats.mjs';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const { TreeControl } = await import(join(DIST, 'host/session/tree-control.js'));
const { LogFollower } = await import(join(DIST, 'host/session/log-follower.js'));
const { CheckpointStore } = await import(join(DIST, 'host/checkpoint/index.js'));
const { createSessionLog, newSessionId } = await import(join(DIST, 'host/log/index.js'));

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? dflt : Number(process.argv[i + 1]);
};
const FILES = arg('--files', 10_000);
const CHANGED = arg('--changed', 10);
const RUNS = arg('--runs', 7);

const git = (cwd, ...args) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@x' } });
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;

// CPU time, ours and our waited-for children's (the git processes): /proc/self/stat's utime, stime, cutime, cstime,
// in clock ticks (10 ms), so that the figures mean something on a loaded machine where wall time is mostly waiting.
function cpuNow() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command's name: field 3 is index 0, so utime (14) is 11, stime 12, cutime 13, cstime 14.
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 10;
}
function timed(row, cpuRow, f) {
  const c0 = cpuNow();
  const t0 = process.hrtime.bigint();
  const v = f();
  row.push(ms(t0));
  cpuRow.push(cpuNow() - c0);
  return v;
}

const base = mkdtempSync(join(tmpdir(), 'nodwyn-bench-checkpoint-'));
try {
  const root = join(base, 'repo');
  const data = join(base, 'data');
  mkdirSync(root);
  process.stderr.write(`making a repository of ${FILES} files…\n`);
  for (let i = 0; i < FILES; i++) {
    const dir = join(root, `d${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(dir);
    writeFileSync(join(dir, `f${i}.ts`), `export const v${i} = ${i};\n// ${'x'.repeat(200)}\n`);
  }
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'files');

  const rows = { before: [], after: [], undo: [], stash: [], fresh: [] };
  const cpu = { before: [], after: [], undo: [], stash: [], fresh: [] };
  for (let run = 0; run < RUNS; run++) {
    const session = newSessionId();
    const writer = createSessionLog(session, { version: 'bench', origin: 'bench', repo: root }, { dataDir: data });
    const follower = new LogFollower(writer.file, session);
    let tc;
    tc = new TreeControl({ root, dataDir: data, session, writer, sync: () => follower.read((r) => tc.tree.onRecord(r)) });
    writer.append('user.msg', { text: `turn ${run}`, actor: 'person' });
    // The checkpoint a turn takes before its first change: what a person could notice.
    timed(rows.before, cpu.before, () => tc.beforeChange(1));
    const picked = [];
    for (let k = 0; k < CHANGED; k++) {
      const i = (run * 997 + k * 1013) % FILES;
      const f = join(root, `d${Math.floor(i / 100)}`, `f${i}.ts`);
      writeFileSync(f, readFileSync(f, 'utf8') + `// changed in run ${run}\n`);
      picked.push(f);
    }
    // After the turn: the second capture, the diff, the checkpoint record.
    const files = timed(rows.after, cpu.after, () => tc.endTurn(1));
    if (files.length !== CHANGED) throw new Error(`the checkpoint saw ${files.length} changed files, not ${CHANGED}`);
    writer.append('turn.end', { outcome: 'done', turn: 1 });
    // The undo: the tree as left captured, the person's changes checked, 10 files restored, head.move recorded.
    const c0 = cpuNow();
    const t0 = process.hrtime.bigint();
    const m = await tc.move(0, 'undo');
    rows.undo.push(ms(t0));
    cpu.undo.push(cpuNow() - c0);
    if (m.restored.length !== CHANGED) throw new Error(`the undo restored ${m.restored.length} files`);
    for (const f of picked) if (readFileSync(f, 'utf8').includes('changed in run')) throw new Error(`${f} was not restored`);
    writer.close();
    // Peers, on the same tree with the same 10 files changed.
    for (const f of picked) writeFileSync(f, readFileSync(f, 'utf8') + `// changed again\n`);
    timed(rows.stash, cpu.stash, () => git(root, 'stash', 'create'));
    const freshData = join(base, `fresh-${run}`);
    const fresh = CheckpointStore.open(root, { dataDir: freshData, session: `fresh-${run}` });
    rmSync(join(freshData, 'checkpoints', `fresh-${run}.index`), { force: true });
    // A capture whose temporary index starts empty (not a copy of the person's): every file is hashed.
    fresh['seeded'] = true;
    timed(rows.fresh, cpu.fresh, () => fresh.capture('fresh'));
    git(root, 'checkout', '-q', '--', '.');
  }
  const load = loadavg()[0].toFixed(1);
  const line = (name, k, note) =>
    `| ${name} | ${median(cpu[k]).toFixed(0)} ms | ${(median(cpu[k]) / median(cpu.stash)).toFixed(2)} | ${median(rows[k]).toFixed(0)} ms (${Math.min(...rows[k]).toFixed(0)}–${Math.max(...rows[k]).toFixed(0)}) | ${note} |`;
  const out = [
    `Checkpoints on a git repository of ${FILES} files with ${CHANGED} changed: median of ${RUNS} runs (${cpus().length} cores, load average ${load} when it ended).`,
    '',
    '| operation | CPU (median) | CPU ÷ git stash create | wall (median, range) | what it does |',
    '| :-- | --: | --: | :-- | :-- |',
    line('checkpoint before a turn\'s first change', 'before', 'add -A into nodwyn\'s own index (seeded from the person\'s), write-tree, commit-tree, update-ref'),
    line('checkpoint after the turn', 'after', 'the same, then diff-tree and the checkpoint record'),
    line('undo', 'undo', 'capture the tree as left, compare 10 files, restore them, head.move'),
    line('git stash create (peer)', 'stash', 'tracked files only; untracked ones are not captured'),
    line('capture with a fresh index (peer)', 'fresh', 'add -A into an empty temporary index: every file hashed'),
    '',
    'CPU is ours and the git processes\' (/proc/self/stat, 10 ms ticks); wall time on a loaded machine is mostly waiting for a core.',
    `Goal: under 100 ms for a checkpoint and for an undo.`,
  ];
  process.stdout.write(out.join('\n') + '\n');
} finally {
  rmSync(base, { recursive: true, force: true });
}
