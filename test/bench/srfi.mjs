// The SRFIs against plain JavaScript in one process: each case's work in nodwyn and its JS twin, alternating, medians and ratios. See test/bench/README.md.
//
// A case is one line of CASES: the data made once on both sides (untimed),
// then an expression evaluated `reps` times in a Scheme loop and the same work
// done `reps` times in JS. Both answers are compared before anything is timed.
// The second part of issue 19 adds its SRFIs (125, 132, 180, 115) as lines here.

import { performance } from 'node:perf_hooks';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import RE2 from 're2';

import { formatMs, formatRatio, geomean, median } from './lib/stats.mjs';
import { markdownTable, textTable } from './lib/table.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');

const USAGE = `usage: node test/bench/srfi.mjs [--runs N] [--only name,name] [--json FILE] [--help]
  --runs N      timed runs per case and side (default 7)
  --only a,b    only the cases whose name starts with one of these (e.g. --only srfi-1)
  --json FILE   also write every measurement as JSON`;

function parseArgs(argv) {
  const o = { runs: 7, only: null, json: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) fail(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--runs') {
      o.runs = Number(value());
      if (!(Number.isInteger(o.runs) && o.runs > 0)) fail('--runs needs a positive integer');
    } else if (a === '--only') o.only = value().split(',').filter(Boolean);
    else if (a === '--json') o.json = value();
    else if (a === '--help' || a === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else fail(`unknown option ${a}`);
  }
  return o;
}

function fail(message) {
  console.error(`srfi.mjs: ${message}\n${USAGE}`);
  process.exit(2);
}

// Deterministic data, the same on both sides: Park–Miller pseudo-random numbers.
const SCHEME_DATA = `
(define seed 42)
(define (rand n) (set! seed (modulo (* seed 16807) 2147483647)) (modulo seed n))
(define (random-list len n) (let loop ((i 0) (acc '())) (if (= i len) acc (loop (+ i 1) (cons (rand n) acc)))))
(define words (vector "alpha" "beta" "gamma" "delta" "epsilon" "zeta" "eta" "theta" "iota" "kappa"))
(define (random-text count) ; count words joined by one space, a fixed vocabulary
  (let ((out (open-output-string)))
    (let loop ((i 0))
      (when (< i count)
        (when (> i 0) (write-char #\\space out))
        (write-string (vector-ref words (rand 10)) out)
        (loop (+ i 1))))
    (get-output-string out)))
`;

function jsData() {
  let seed = 42;
  const rand = (n) => {
    seed = Number((BigInt(seed) * 16807n) % 2147483647n);
    return seed % n;
  };
  const randomList = (len, n) => {
    const out = new Array(len);
    // the Scheme list is built by consing, so its first element is the last drawn
    for (let i = len - 1; i >= 0; i--) out[i] = rand(n);
    return out;
  };
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'];
  const randomText = (count) => {
    const parts = [];
    for (let i = 0; i < count; i++) parts.push(words[rand(10)]);
    return parts.join(' ');
  };
  return { rand, randomList, randomText };
}

// SRFI 180's document: 125,000 objects of about 80 characters, flonums that are not integers (both sides write them alike).
const JSON_DOC = `
(define (json-record i)
  (list (cons 'id i) (cons 'name (vector-ref words (rand 10))) (cons 'score (+ 0.5 (rand 1000)))
        (cons 'ok (even? (rand 2))) (cons 'tags (vector (vector-ref words (rand 10)) (vector-ref words (rand 10)))) (cons 'next 'null)))
(define json-doc (let ((v (make-vector 125000))) (let loop ((i 0)) (if (< i 125000) (begin (vector-set! v i (json-record i)) (loop (+ i 1))) v))))
(define json-text (let ((p (open-output-string))) (json-write json-doc p) (get-output-string p)))
`;

/**
 * The cases. setup: Scheme definitions (after SCHEME_DATA); expr: the timed
 * expression; js: { setup(d) → state, run(state) → answer }, the answer
 * compared with the Scheme value's toJS (numbers, strings, arrays of them).
 */
const CASES = [
  {
    name: 'srfi-1 fold +',
    what: '(fold + 0 lst), 10^6 fixnums',
    imports: '(srfi 1)',
    setup: '(define lst (random-list 1000000 1000))',
    expr: '(fold + 0 lst)',
    reps: 5,
    js: { setup: (d) => ({ a: d.randomList(1e6, 1000) }), run: (s) => s.a.reduce((acc, x) => x + acc, 0) },
  },
  {
    name: 'srfi-1 fold lambda',
    what: '(fold (lambda (x n) (if (even? x) (+ n 1) n)) 0 lst), 10^6',
    imports: '(srfi 1)',
    setup: '(define lst (random-list 1000000 1000))',
    expr: '(fold (lambda (x n) (if (even? x) (+ n 1) n)) 0 lst)',
    reps: 5,
    js: { setup: (d) => ({ a: d.randomList(1e6, 1000) }), run: (s) => s.a.reduce((n, x) => (x % 2 === 0 ? n + 1 : n), 0) },
  },
  {
    name: 'srfi-1 filter',
    what: '(length (filter even? lst)), 10^6',
    imports: '(srfi 1)',
    setup: '(define lst (random-list 1000000 1000))',
    expr: '(length (filter even? lst))',
    reps: 5,
    js: { setup: (d) => ({ a: d.randomList(1e6, 1000) }), run: (s) => s.a.filter((x) => x % 2 === 0).length },
  },
  {
    name: 'srfi-1 delete-duplicates',
    what: '(length (delete-duplicates lst)), 10^5 fixnums below 5000',
    imports: '(srfi 1)',
    setup: '(define lst (random-list 100000 5000))',
    expr: '(length (delete-duplicates lst))',
    reps: 20,
    js: { setup: (d) => ({ a: d.randomList(1e5, 5000) }), run: (s) => [...new Set(s.a)].length },
  },
  {
    name: 'srfi-1 delete-duplicates strings',
    what: '(length (delete-duplicates lst string=?)), 10^5 strings, 5000 distinct',
    imports: '(srfi 1)',
    setup: '(define lst (map number->string (random-list 100000 5000)))',
    expr: '(length (delete-duplicates lst string=?))',
    reps: 20,
    js: { setup: (d) => ({ a: d.randomList(1e5, 5000).map(String) }), run: (s) => [...new Set(s.a)].length },
  },
  {
    name: 'srfi-13 string-index',
    what: '(string-index text #\\!), 1 MB, no match',
    imports: '(srfi 13)',
    setup: '(define text (random-text 160000))',
    expr: '(string-index text #\\!)',
    answer: (v) => (v === false ? -1 : v),
    reps: 50,
    js: { setup: (d) => ({ t: d.randomText(160000) }), run: (s) => s.t.indexOf('!') },
  },
  {
    name: 'srfi-13 string-contains',
    what: '(string-contains text "kappa!"), 1 MB, no match',
    imports: '(srfi 13)',
    setup: '(define text (random-text 160000))',
    expr: '(string-contains text "kappa!")',
    answer: (v) => (v === false ? -1 : v),
    reps: 50,
    js: { setup: (d) => ({ t: d.randomText(160000) }), run: (s) => s.t.indexOf('kappa!') },
  },
  {
    name: 'srfi-13 string-tokenize',
    what: '(length (string-tokenize text)), 1 MB, 160,000 words',
    imports: '(srfi 13)',
    setup: '(define text (random-text 160000))',
    expr: '(length (string-tokenize text))',
    reps: 10,
    js: { setup: (d) => ({ t: d.randomText(160000) }), run: (s) => s.t.split(/\s+/).filter((w) => w !== '').length },
  },
  {
    name: 'srfi-13 string-join',
    what: '(string-length (string-join ws ", ")), 160,000 words',
    imports: '(srfi 13)',
    setup: '(define ws (string-tokenize (random-text 160000)))',
    expr: '(string-length (string-join ws ", "))',
    reps: 10,
    js: { setup: (d) => ({ w: d.randomText(160000).split(' ') }), run: (s) => s.w.join(', ').length },
  },
  {
    name: 'srfi-13 string-search-all',
    what: 'string-contains in a loop: every "eta" of 1 MB',
    imports: '(srfi 13)',
    setup: '(define text (random-text 160000))',
    expr: '(let loop ((i 0) (n 0)) (let ((j (string-contains text "eta" i))) (if j (loop (+ j 1) (+ n 1)) n)))',
    reps: 5,
    js: {
      setup: (d) => ({ t: d.randomText(160000) }),
      run: (s) => {
        let n = 0;
        for (let j = s.t.indexOf('eta'); j >= 0; j = s.t.indexOf('eta', j + 1)) n++;
        return n;
      },
    },
  },
  {
    name: 'srfi-13 trim, pad, prefix',
    what: 'string-trim-both, string-pad, string-prefix? on each of 10^5 short strings',
    imports: '(srfi 1) (srfi 13)',
    setup: '(define ss (map (lambda (n) (string-append "  " (number->string n) " ")) (random-list 100000 100000)))',
    expr: '(fold (lambda (s n) (if (string-prefix? "00" (string-pad (string-trim-both s) 8 #\\0)) (+ n 1) n)) 0 ss)',
    reps: 3,
    js: {
      setup: (d) => ({ ss: d.randomList(1e5, 1e5).map((n) => `  ${n} `) }),
      run: (s) => s.ss.reduce((n, x) => (x.trim().padStart(8, '0').slice(-8).startsWith('00') ? n + 1 : n), 0),
    },
  },
  {
    name: 'srfi-152 string-split',
    what: '(length (string-split text " ")), 1 MB',
    imports: '(srfi 152)',
    setup: '(define text (random-text 160000))',
    expr: '(length (string-split text " "))',
    reps: 10,
    js: { setup: (d) => ({ t: d.randomText(160000) }), run: (s) => s.t.split(' ').length },
  },
  {
    name: 'srfi-125 hash-table string keys',
    what: '10^6 hash-table-set! then 10^6 hash-table-ref/default, string keys (string-comparator)',
    imports: '(srfi 125) (srfi 128)',
    setup: '(define keys (list->vector (map (lambda (n) (string-append "key-" (number->string n))) (random-list 1000000 100000000))))',
    expr: `(let ((t (make-hash-table string-comparator)) (n (vector-length keys)))
             (let loop ((i 0)) (when (< i n) (hash-table-set! t (vector-ref keys i) i) (loop (+ i 1))))
             (let loop ((i 0) (hits 0)) (if (= i n) (+ hits (hash-table-size t)) (loop (+ i 1) (if (hash-table-ref/default t (vector-ref keys i) #f) (+ hits 1) hits)))))`,
    reps: 1,
    js: {
      setup: (d) => ({ k: d.randomList(1e6, 1e8).map((n) => `key-${n}`) }),
      run: (s) => {
        const m = new Map();
        for (let i = 0; i < s.k.length; i++) m.set(s.k[i], i);
        let hits = 0;
        for (let i = 0; i < s.k.length; i++) if (m.get(s.k[i]) !== undefined) hits++;
        return hits + m.size;
      },
    },
  },
  {
    name: 'srfi-132 list-sort',
    what: '(list-sort < lst), 10^6 fixnums',
    imports: '(srfi 132)',
    setup: '(define lst (random-list 1000000 1000000000))',
    expr: '(car (list-sort < lst))',
    reps: 3,
    js: { setup: (d) => ({ a: d.randomList(1e6, 1e9) }), run: (s) => s.a.slice().sort((x, y) => x - y)[0] },
  },
  {
    name: 'srfi-115 regexp-search',
    what: '(regexp-search re text), a 10 MB text, the match at its end',
    imports: '(srfi 115)',
    setup: '(define text (string-append (random-text 1600000) " x123")) (define re (regexp (quote (: "x" (+ digit)))))',
    expr: '(regexp-match-submatch-start (regexp-search re text) 0)',
    reps: 5,
    js: {
      // RE2 at its fastest: the text as UTF-8 bytes once (what nodwyn keeps for the last text searched), the index in bytes (ASCII: characters).
      setup: (d) => ({ b: Buffer.from(d.randomText(1600000) + ' x123', 'utf8'), re: new RE2('x[0-9]+', 'u') }),
      run: (s) => s.re.exec(s.b).index,
    },
  },
  {
    name: 'srfi-180 json-read',
    what: '(json-read port) of a 10 MB JSON text (125,000 objects)',
    imports: '(srfi 180)',
    setup: JSON_DOC,
    expr: '(vector-length (json-read (open-input-string json-text)))',
    reps: 3,
    js: { setup: (d, interp) => ({ t: interp.toJS(interp.evaluateSync('json-text')) }), run: (s) => JSON.parse(s.t).length },
  },
  {
    name: 'srfi-180 json-write',
    what: '(json-write doc port) of the same 10 MB',
    imports: '(srfi 180)',
    setup: JSON_DOC,
    expr: '(let ((p (open-output-string))) (json-write json-doc p) (string-length (get-output-string p)))',
    reps: 3,
    js: { setup: (d, interp) => ({ o: JSON.parse(interp.toJS(interp.evaluateSync('json-text'))) }), run: (s) => JSON.stringify(s.o).length },
  },
];

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  let embed;
  try {
    embed = await import(join(ROOT, 'dist', 'host', 'session', 'embed.js'));
  } catch {
    fail('dist/ is missing: run `npm run build` first');
  }
  const cases = CASES.filter((c) => opts.only === null || opts.only.some((p) => c.name.startsWith(p)));
  if (cases.length === 0) fail('no case matches --only');
  const rows = [];
  const results = [];
  for (const c of cases) {
    process.stderr.write(`${c.name}: `);
    const interp = embed.createNodeInterpreter();
    interp.evaluateSync(`(import (scheme base) (scheme write) ${c.imports})\n${SCHEME_DATA}\n${c.setup}`, { file: 'bench-setup.scm' });
    interp.evaluateSync(`(define (bench-run) ${c.expr})`, { file: 'bench.scm' });
    interp.evaluateSync(`(define (bench-loop k) (let loop ((i 1) (v (bench-run))) (if (= i k) v (loop (+ i 1) (bench-run)))))`);
    const state = c.js.setup(jsData(), interp);
    // Check both answers once, untimed.
    const toAnswer = c.answer ?? ((v) => v);
    const got = toAnswer(interp.toJS(interp.evaluateSync('(bench-run)')));
    const want = c.js.run(state);
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      process.stderr.write(`WRONG: nodwyn ${JSON.stringify(got)}, JS ${JSON.stringify(want)}\n`);
      rows.push([c.name, c.what, 'WRONG', '', '']);
      continue;
    }
    const schemeRun = () => {
      const t0 = performance.now();
      interp.evaluateSync(`(bench-loop ${c.reps})`);
      return performance.now() - t0;
    };
    const jsRun = () => {
      const t0 = performance.now();
      let v;
      for (let i = 0; i < c.reps; i++) v = c.js.run(state);
      const t = performance.now() - t0;
      if (v === undefined) throw new Error('no answer');
      return t;
    };
    // One warm-up each, then alternate, the order swapped every round.
    schemeRun();
    jsRun();
    const ts = [];
    const tj = [];
    for (let r = 0; r < opts.runs; r++) {
      if (r % 2 === 0) {
        ts.push(schemeRun());
        tj.push(jsRun());
      } else {
        tj.push(jsRun());
        ts.push(schemeRun());
      }
      process.stderr.write('.');
    }
    const ms = median(ts) / c.reps;
    const mj = median(tj) / c.reps;
    const ratio = ms / mj;
    process.stderr.write(` ${formatRatio(ratio)}\n`);
    rows.push([c.name, c.what, formatMs(ms), formatMs(mj), formatRatio(ratio)]);
    results.push({ name: c.name, what: c.what, reps: c.reps, nodwynMs: ts, jsMs: tj, ratio });
  }
  const header = ['case', 'work', 'nodwyn (one)', 'plain JS (one)', 'ratio'];
  const ratios = results.map((r) => r.ratio);
  const g = geomean(ratios);
  console.log(textTable(header, rows));
  console.log(`\ngeometric mean of the ratios: ${g === null ? 'n/a' : formatRatio(g)} over ${ratios.length} cases; goal: within 3× each`);
  console.log(`${results.filter((r) => r.ratio <= 3).length} of ${results.length} within 3×\n`);
  console.log(markdownTable(header, rows));
  if (opts.json) {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(opts.json, JSON.stringify({ runs: opts.runs, results }, null, 2));
  }
}

main().catch((e) => {
  console.error(`srfi.mjs: ${e?.stack ?? e}`);
  process.exit(1);
});
