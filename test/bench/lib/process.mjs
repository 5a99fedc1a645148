// Running one implementation on one file: wall time, output, peak RSS, timeout.

import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const GNU_TIME = '/usr/bin/time';
export const HAVE_GNU_TIME = existsSync(GNU_TIME);

let current = null; // the running child, killed if the runner is interrupted

/** Kills the running child's process group (the runner's own child only). */
export function killCurrent() {
  if (current && current.pid) {
    try {
      process.kill(-current.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

let serial = 0;

/**
 * Runs `command args` with stdin from /dev/null (or the file `stdin`), in
 * `cwd` (default: this process's), and returns
 * `{ status: 'ok' | 'exit' | 'timeout', code, stdout, stderr, ms, rssKb }`.
 * The child is its own process group, so a timeout kills it and anything it
 * started. Peak RSS comes from GNU time's %M (kilobytes) when it is installed;
 * the wall time is measured here around the whole process, GNU time included
 * (a constant that the empty-program baseline removes).
 */
export function runTimed(command, args, { timeoutMs, env, tmpDir, stdin, cwd, maxOutput = 1 << 20 }) {
  const memFile = join(tmpDir, `rss-${process.pid}-${serial++}.txt`);
  const [cmd, argv] = HAVE_GNU_TIME
    ? [GNU_TIME, ['-f', '%M', '-o', memFile, command, ...args]]
    : [command, args];
  return new Promise((resolve) => {
    const input = stdin ? openSync(stdin, 'r') : 'ignore';
    const start = process.hrtime.bigint();
    const child = spawn(cmd, argv, {
      stdio: [input, 'pipe', 'pipe'],
      detached: true,
      env: env ?? process.env,
      cwd,
    });
    if (stdin) closeSync(input);
    current = child;
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let ms = 0;
    child.stdout.on('data', (d) => {
      if (stdout.length < maxOutput) stdout += d;
    });
    child.stderr.on('data', (d) => {
      if (stderr.length < maxOutput) stderr += d;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      killCurrent();
    }, timeoutMs);
    child.on('exit', () => {
      ms = Number(process.hrtime.bigint() - start) / 1e6;
    });
    child.on('error', (err) => {
      stderr += String(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      current = null;
      if (!ms) ms = Number(process.hrtime.bigint() - start) / 1e6;
      let rssKb = null;
      if (HAVE_GNU_TIME && existsSync(memFile)) {
        const lines = readFileSync(memFile, 'utf8').trim().split('\n');
        const kb = Number(lines[lines.length - 1]);
        if (Number.isFinite(kb) && kb > 0) rssKb = kb;
        // GNU time prefixes "Command exited with non-zero status N"; keep it.
        if (lines.length > 1) stderr += `\n${lines.slice(0, -1).join('\n')}`;
        rmSync(memFile, { force: true });
      }
      const status = timedOut ? 'timeout' : code === 0 && !signal ? 'ok' : 'exit';
      resolve({ status, code, signal, stdout, stderr, ms, rssKb });
    });
  });
}
