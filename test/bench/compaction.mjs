// The host's cost of one compaction step of compact.scm (issue 16), excluding the model's time: /compact between
// turns on a real session (real log, real strategy interpreter, window-v2) — the window built, the prompt with its
// event index appended, the request recorded, the note's reply recorded, context.narrow and context.compact, the
// narrowed window measured — with a model that answers at once, its own time subtracted. Beside it, in the same run,
// the host's cost of an ordinary turn of one tool call (two requests), the baseline the ratio is to. Medians.
// Nothing here asserts a time.
//
//   npm run build && node test/bench/compaction.mjs [--rounds 9] [--turns 20] [--json FILE]

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, realpathSync } from 'node:fs';
import { tmpdir, loadavg, cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const { AgentSession } = await import(join(ROOT, 'dist', 'host', 'session', 'agent.js'));

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const ROUNDS = Number(opt('--rounds', 9));
const TURNS = Number(opt('--turns', 20));
const JSON_OUT = opt('--json', null);

let modelMs = 0;
let k = 0;
const provider = {
  kind: 'bench', server: 'bench', model: 'bench-1', url: 'bench:',
  async complete(req) {
    const t0 = performance.now();
    const last = req.messages.at(-1);
    let r;
    if (last?.role === 'user' && last.content.includes('Write a handover note')) r = { text: `Handover: the task, what was done, what is left (seq 3) (seq 5).`, toolCalls: [] };
    else if (last?.role === 'tool') r = { text: 'done', toolCalls: [] };
    else r = { text: '', toolCalls: [{ id: `c${++k}`, name: 'eval', arguments: JSON.stringify({ code: '(make-string 2000 #\\q)' }) }] };
    const out = { ...r, stopReason: r.toolCalls.length ? 'tool_calls' : 'end', usage: { inputTokens: 100, outputTokens: 20, wallMs: 0 }, attempts: 1 };
    modelMs += performance.now() - t0;
    return out;
  },
};

const root = realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-bench-compact-repo-')));
const data = mkdtempSync(join(tmpdir(), 'nodwyn-bench-compact-data-'));
try {
  writeFileSync(join(root, 'a.txt'), 'alpha\n');
  execFileSync('git', ['init', '-q', root]);
  const agent = await AgentSession.open({
    origin: 'bench', cwd: root, env: { PATH: process.env.PATH, HOME: root, NODWYN_DATA_DIR: data }, provider,
    model: { id: 'bench-1', server: 'bench', contextWindow: 200_000 }, askApproval: null, compactThreshold: 10_000_000,
  });
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const turnMs = [];
  const compactMs = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < TURNS; i++) {
      modelMs = 0;
      const t0 = performance.now();
      await agent.turn(`turn ${r}.${i}`);
      turnMs.push(performance.now() - t0 - modelMs);
    }
    modelMs = 0;
    const t0 = performance.now();
    await agent.command('compact', '');
    compactMs.push(performance.now() - t0 - modelMs);
  }
  agent.close();
  const load = loadavg()[0];
  const tm = median(turnMs);
  const cm = median(compactMs);
  console.log(`compaction step on a real session (${ROUNDS} compactions, each after ${TURNS} turns of a 2,000-character result), model time excluded; load ${load.toFixed(2)} on ${cpus().length} cores`);
  console.log(`host cost of a turn of one tool call (two requests): median ${tm.toFixed(1)} ms`);
  console.log(`host cost of a compaction step (/compact):          median ${cm.toFixed(1)} ms, max ${Math.max(...compactMs).toFixed(1)} ms, ${(cm / tm).toFixed(2)}x a turn`);
  if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify({ rounds: ROUNDS, turns: TURNS, load, turnMs: tm, compactMs: cm, compactMaxMs: Math.max(...compactMs) }, null, 2));
} finally {
  rmSync(root, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
}
