// Benchmark of the redactor: a 1 MiB payload of four shapes (code text, a JSON object, Scheme output, base64), with and without secrets,
// beside the cost of JSON.stringify of the same payload (the work the log writer does anyway). Medians of N runs.
// Run after a build: node test/bench/redact.mjs [--runs N]

import { Redactor } from '../../dist/host/redact/index.js';

const i = process.argv.indexOf('--runs');
const RUNS = i > 0 ? Number(process.argv[i + 1]) : 21;
const MiB = 1024 * 1024;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const now = () => Number(process.hrtime.bigint()) / 1e6;

// Built by concatenation, as the tests' fixtures are: no scanner takes this file for a leak.
const TOKEN = 'ghp_' + 'Zx8Qw2Er4Ty6Ui8Op0As2Df4Gh6Jk8Lz0Xc2V';
const CODE_LINE = 'export function createNodeInterpreter(o: NodeInterpreterOptions = {}): Interpreter { return build(o); } // TODO\n';

function codeText(secrets) {
  let s = '';
  let n = 0;
  while (s.length < MiB) {
    s += CODE_LINE;
    if (secrets && ++n % 2000 === 0) s += `const token = "${TOKEN}";\n`;
  }
  return { output: s.slice(0, MiB) };
}
function jsonObject(secrets) {
  const rows = [];
  let size = 0;
  for (let k = 0; size < MiB; k++) {
    const row = { id: k, name: `item-${k}`, tags: ['a', 'b'], note: 'ordinary words in a record', ...(secrets && k % 500 === 0 ? { api_key: `aQ7${k}Zx8Qw2Er4Ty6Ui8` } : {}) };
    size += JSON.stringify(row).length;
    rows.push(row);
  }
  return { rows };
}
function schemeOutput(secrets) {
  let s = '(';
  for (let k = 0; s.length < MiB; k++) s += secrets && k % 500 === 0 ? `(password . "hunter${k}xyz") ` : `(name . "value ${k}") `;
  return { value: s + ')' };
}
function base64Blob() {
  const bytes = Buffer.alloc((MiB * 3) / 4);
  for (let k = 0; k < bytes.length; k++) bytes[k] = (k * 7919) & 0xff;
  return { image: bytes.toString('base64') };
}

const cases = [
  ['code text, no secret', codeText(false)],
  ['code text, a token per 2000 lines', codeText(true)],
  ['JSON object, no secret', jsonObject(false)],
  ['JSON object, api_key per 500 rows', jsonObject(true)],
  ['Scheme alist output, no secret', schemeOutput(false)],
  ['Scheme alist output, password per 500 pairs', schemeOutput(true)],
  ['base64 blob (binary)', base64Blob()],
];

const r = new Redactor();
r.registerSecret('host-registered-secret-value-1234');
console.log(`redacting a 1 MiB payload: median of ${RUNS} runs (one warm-up)\n`);
console.log('| payload | redact | JSON.stringify | ratio |');
console.log('| :-- | --: | --: | --: |');
for (const [name, payload] of cases) {
  r.redactJSON(payload);
  const red = [];
  const str = [];
  for (let k = 0; k < RUNS; k++) {
    let t = now();
    r.redactJSON(payload);
    red.push(now() - t);
    t = now();
    JSON.stringify(payload);
    str.push(now() - t);
  }
  const a = median(red);
  const b = median(str);
  console.log(`| ${name} | ${a.toFixed(1)} ms | ${b.toFixed(1)} ms | ${(a / b).toFixed(1)}× |`);
}
