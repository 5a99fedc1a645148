// Prints the top self-time functions of V8 CPU profiles, e.g. of a nodwyn run:
//   NODWYN_NO_SNAPSHOT=1 node --cpu-prof --cpu-prof-dir=/tmp/prof \
//     --max-semi-space-size=32 --stack-size=2000 bin/nodwyn.mjs run PROGRAM.scm
//   node test/bench/cpu-top.mjs [--top N] /tmp/prof/*.cpuprofile
// (bin/nodwyn's snapshot start-up is skipped so the profile sees the sources.)

import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { selfTimes } from './lib/cpuprofile.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
let top = 15;
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--top') top = Number(args[++i]);
  else files.push(args[i]);
}
if (!files.length || !(top > 0)) {
  console.error('usage: node test/bench/cpu-top.mjs [--top N] FILE.cpuprofile ...');
  process.exit(2);
}
// A bundled file's position mapped back through its .map (esbuild's, whose
// sources are the compiled dist/*.js; their .ts sources sit beside them in
// the repository under the same path without dist/).
const maps = new Map();
function original(row) {
  if (!row.url.startsWith('file://')) return row.where;
  const path = fileURLToPath(row.url);
  if (!maps.has(path)) maps.set(path, existsSync(`${path}.map`) ? new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8'))) : null);
  const map = maps.get(path);
  const entry = map?.findEntry(row.line, row.column);
  if (!entry?.originalSource) return row.where;
  const source = relative(ROOT, resolve(dirname(path), entry.originalSource.replace(/^file:\/\//, '')));
  return `${source.replace(/^dist\//, '').replace(/\.js$/, '.ts')}:${entry.originalLine + 1}`;
}

for (const file of files) {
  const rows = selfTimes(JSON.parse(readFileSync(file, 'utf8')), { root: ROOT });
  const total = rows.reduce((a, r) => a + r.ms, 0);
  console.log(`${file}: ${total.toFixed(0)} ms sampled`);
  for (const r of rows.slice(0, top)) {
    console.log(`${(r.share * 100).toFixed(1).padStart(5)}%  ${r.ms.toFixed(0).padStart(6)} ms  ${r.name}  ${original(r)}`);
  }
}
