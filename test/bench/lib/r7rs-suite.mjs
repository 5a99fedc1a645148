// Reading a copy of ecraven's r7rs-benchmarks (never committed here) and
// preparing its programs the way its own `bench` script does: a program is
// PRELUDE + src/NAME.scm + src/common.scm + POSTLUDE + src/common-postlude.scm,
// run with inputs/NAME.input on stdin. Used by test/bench/r7rs.mjs.

import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const SUITE_URL = 'https://github.com/ecraven/r7rs-benchmarks';

/**
 * Opens a copy of the suite: a checkout (a directory with src/common.scm) or
 * a git directory, bare or not (read at HEAD with `git show`). Returns
 * `{ kind, dir, read(path) -> string | null, copyTree(subdir, dest) -> absent paths }`, or
 * throws an Error whose message says how to fetch one.
 */
export function openSuite(dir) {
  const missing = (why) =>
    new Error(
      `${why}\n` +
        `r7rs-benchmarks is not part of this repository; fetch a copy and pass its path:\n` +
        `  git clone ${SUITE_URL} /tmp/r7rs-benchmarks\n` +
        `  node test/bench/r7rs.mjs --suite /tmp/r7rs-benchmarks   (or R7RS_BENCHMARKS=/tmp/r7rs-benchmarks)`,
    );
  if (!dir) throw missing('no suite given (--suite DIR or R7RS_BENCHMARKS)');
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw missing(`${dir}: no such directory`);
  if (existsSync(join(dir, 'src', 'common.scm'))) {
    return {
      kind: 'checkout',
      dir,
      read: (path) => (existsSync(join(dir, path)) ? readFileSync(join(dir, path), 'utf8') : null),
      copyTree: (subdir, dest) => {
        if (existsSync(join(dir, subdir))) cpSync(join(dir, subdir), join(dest, subdir), { recursive: true });
        return [];
      },
    };
  }
  const gitDir = existsSync(join(dir, '.git')) ? join(dir, '.git') : dir;
  const git = (args, opts = {}) => execFileSync('git', ['--git-dir', gitDir, ...args], { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28, ...opts });
  try {
    git(['cat-file', '-e', 'HEAD:src/common.scm']);
  } catch {
    throw missing(`${dir}: neither a checkout of r7rs-benchmarks (no src/common.scm) nor a git directory holding one`);
  }
  return {
    kind: 'git',
    dir,
    read: (path) => {
      try {
        return git(['show', `HEAD:${path}`]).toString('utf8');
      } catch {
        return null;
      }
    },
    // File by file: a partial copy (a mirror without its largest blobs) still
    // gives every file it has; the paths it lacks are returned.
    copyTree: (subdir, dest) => {
      const absent = [];
      const listing = git(['ls-tree', '-r', '-z', 'HEAD', subdir]).toString('utf8').split('\0').filter(Boolean);
      for (const entry of listing) {
        const [meta, path] = entry.split('\t');
        const [, type, object] = meta.split(' ');
        if (type !== 'blob') continue;
        let data;
        try {
          data = git(['cat-file', 'blob', object]);
        } catch {
          absent.push(path);
          continue;
        }
        mkdirSync(dirname(join(dest, path)), { recursive: true });
        writeFileSync(join(dest, path), data);
      }
      return absent;
    },
  };
}

/** The defining line nodwyn's programs get after common.scm (the suite's postludes define it per implementation). */
export const NODWYN_POSTLUDE = '(define (this-scheme-implementation-name) "nodwyn")\n';

function need(suite, path) {
  const text = suite.read(path);
  if (text == null) throw new Error(`${suite.dir}: no ${path}`);
  return text;
}

/**
 * The whole program for one implementation: `nodwyn` (no prelude, since R7RS
 * wants the program's import first; the postlude above) or `guile` (the
 * suite's Guile3 prelude, which turns import into a no-op, as its bench
 * script does).
 */
export function programSource(suite, name, impl) {
  const src = need(suite, `src/${name}.scm`);
  const common = need(suite, 'src/common.scm');
  const post = need(suite, 'src/common-postlude.scm');
  if (impl === 'nodwyn') return [src, common, NODWYN_POSTLUDE, post].join('\n');
  if (impl === 'guile') return [need(suite, 'src/Guile3-prelude.scm'), src, common, post].join('\n');
  throw new Error(`unknown implementation ${impl}`);
}

/** The empty program of an implementation: what every prepared program loads before its own work. */
export function emptySource(suite, impl) {
  if (impl === 'nodwyn') return '(import (scheme base) (scheme read) (scheme write) (scheme time))\n';
  if (impl === 'guile') return `${need(suite, 'src/Guile3-prelude.scm')}\n`;
  throw new Error(`unknown implementation ${impl}`);
}

// The first datum of an input file, after blanks and ; comments: the count.
const LEADING = /^((?:\s|;[^\n]*(?:\n|$))*)(\d+)(?=[\s;]|$)/;

/** The count (how many times the benchmark runs its thunk): the input's first datum, or null. */
export function inputCount(input) {
  const m = input.match(LEADING);
  return m ? Number(m[2]) : null;
}

/** The input with its count replaced by `count` (the rest, with the expected output, untouched). */
export function withCount(input, count) {
  if (!LEADING.test(input)) throw new Error('input does not start with a count');
  if (!(Number.isInteger(count) && count >= 1)) throw new Error(`count must be a positive integer, not ${count}`);
  return input.replace(LEADING, (_, blank) => `${blank}${count}`);
}

/**
 * What run-r7rs-benchmark printed: `{ verdict: 'ok', seconds }` for a right
 * result (seconds: the suite's own timing of the loop, from the jiffy
 * clock), `{ verdict: 'wrong', detail }` when it reported an incorrect result,
 * `{ verdict: 'none' }` when it printed no result line at all.
 */
export function parseResult(stdout) {
  const lines = stdout.split(/\r?\n/);
  const csv = lines.find((l) => l.startsWith('+!CSVLINE!+'));
  if (!csv) return { verdict: 'none' };
  const value = csv.slice('+!CSVLINE!+'.length).split(',').pop();
  if (value === 'INCORRECT') {
    const err = lines.find((l) => l.startsWith('ERROR: returned incorrect result')) ?? 'incorrect result';
    return { verdict: 'wrong', detail: err.slice(0, 160) };
  }
  const seconds = Number(value);
  if (!Number.isFinite(seconds)) return { verdict: 'wrong', detail: `unreadable time ${JSON.stringify(value)}` };
  return { verdict: 'ok', seconds };
}

/**
 * The count to time with, from the cost of one iteration on each
 * implementation (ms, measured on smaller counts): enough for a nodwyn run of
 * about `targetMs`, raised so that guile's run is at least a quarter of that
 * (a guile run of a few milliseconds is all noise once its start-up is
 * subtracted) but never so far that nodwyn's exceeds ten times the target;
 * at least 1 and at most the suite's own count.
 */
export function chooseCount(nodwynUnitMs, guileUnitMs, targetMs, suiteCount) {
  if (!(nodwynUnitMs > 0)) return suiteCount;
  let count = Math.floor(targetMs / nodwynUnitMs);
  if (guileUnitMs > 0) count = Math.max(count, Math.min(Math.ceil(targetMs / 4 / guileUnitMs), Math.floor((10 * targetMs) / nodwynUnitMs)));
  return Math.max(1, Math.min(suiteCount, count));
}
