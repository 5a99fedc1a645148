// symbolic: twin of symbolic.scm — lists are Arrays (an expression is
// [op, ...args], symbols are strings), association lists are Arrays of
// [key, value] searched with find, member is findIndex with a deep equality,
// append is concat, and the variadic operators use rest parameters and
// reduce; the same algorithms (linear searches, bottom-up passes to a
// fixpoint) as the Scheme program.
function nextRandom(x) {
  return (x * 48271) % 2147483647;
}

const SYMBOLS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
const OPS = ['+', '*', '-'];

function generate(depth, seed) {
  seed = nextRandom(seed);
  if (depth === 0 || seed % 10 < 3) {
    seed = nextRandom(seed);
    const half = Math.floor(seed / 2);
    return [seed % 2 === 0 ? SYMBOLS[half % 8] : half % 4, seed];
  }
  const op = OPS[Math.floor(seed / 10) % 3];
  const arity = 2 + (Math.floor(seed / 30) % 2);
  const e = [op];
  for (let k = 0; k < arity; k++) {
    const [arg, next] = generate(depth - 1, seed);
    e.push(arg);
    seed = next;
  }
  return [e, seed];
}

const MODULUS = 65521;
const mod = (x) => ((x % MODULUS) + MODULUS) % MODULUS;

const OPERATORS = [
  ['+', (...args) => mod(args.reduce((a, b) => a + b, 0))],
  ['*', (...args) => mod(args.reduce((a, b) => a * b, 1))],
  ['-', (...args) => mod(args.length === 1 ? -args[0] : args.slice(1).reduce((a, b) => a - b, args[0]))],
];

const assq = (key, alist) => alist.find((entry) => entry[0] === key);

function equal(a, b) {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false;
  return true;
}

const member = (x, list) => list.findIndex((y) => equal(x, y)) >= 0;
const removeAll = (x, list) => list.filter((y) => !equal(x, y));

function simplify(e) {
  if (!Array.isArray(e)) return e;
  const op = e[0];
  const args = e.slice(1).map(simplify);
  if (args.every((a) => typeof a === 'number')) return assq(op, OPERATORS)[1](...args);
  if (op === '+') {
    const rest = removeAll(0, args);
    if (rest.length === 0) return 0;
    if (rest.length === 1) return rest[0];
    return ['+', ...rest];
  }
  if (op === '*') {
    if (member(0, args)) return 0;
    const rest = removeAll(1, args);
    if (rest.length === 0) return 1;
    if (rest.length === 1) return rest[0];
    return ['*', ...rest];
  }
  if (args.length === 2 && equal(args[0], args[1])) return 0;
  return ['-', ...args];
}

function simplifyFully(e) {
  for (;;) {
    const next = simplify(e);
    if (equal(next, e)) return e;
    e = next;
  }
}

function evaluate(e, env) {
  if (typeof e === 'number') return e;
  if (typeof e === 'string') return assq(e, env)[1];
  return assq(e[0], OPERATORS)[1](...e.slice(1).map((a) => evaluate(a, env)));
}

function subterms(e, seen) {
  if (!Array.isArray(e)) return seen;
  if (!member(e, seen)) seen.push(e);
  for (let i = 1; i < e.length; i++) seen = subterms(e[i], seen);
  return seen;
}

function variables(e) {
  if (typeof e === 'string') return [e];
  if (!Array.isArray(e)) return [];
  let acc = [];
  for (let i = 1; i < e.length; i++) {
    for (const v of variables(e[i])) if (!member(v, acc)) acc = acc.concat([v]);
  }
  return acc;
}

const ENVIRONMENTS = [0, 1, 2].map((k) => SYMBOLS.map((s, i) => [s, 1 + (((i + 3) * (k + 5)) % 9)]));

function run(count) {
  let seed = 4242;
  let total = 0;
  let distinct = 0;
  let vars = 0;
  const table = [];
  for (let i = 0; i < count; i++) {
    const [e, next] = generate(6, seed);
    seed = next;
    const s = simplifyFully(e);
    const results = ENVIRONMENTS.map((env) => evaluate(s, env));
    const entry = table.find(([key]) => equal(key, results));
    if (entry) entry[1] += 1;
    else table.push([results, 1]);
    total += results.reduce((a, b) => a + b, 0);
    distinct += subterms(s, []).length;
    vars += variables(s).length;
  }
  return [total, distinct, vars, table.length];
}

const BENCH_REPEAT = 20;

function repeatWork(thunk) {
  let result = thunk();
  for (let i = 1; i < BENCH_REPEAT; i++) result = thunk();
  return result;
}

console.log(repeatWork(() => run(60)).join(' '));
