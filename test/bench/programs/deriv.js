// deriv: twin of deriv.scm — the same differentiation over cons cells, with
// symbols as JS strings (interned, so === is Scheme's eq?) and the quoted
// expression converted from nested arrays to pairs once at start-up.
class Pair {
  constructor(car, cdr) {
    this.car = car;
    this.cdr = cdr;
  }
}

const list = (...items) => fromArray(items);

function fromArray(items) {
  let acc = null;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    acc = new Pair(Array.isArray(item) ? fromArray(item) : item, acc);
  }
  return acc;
}

function map(f, lst) {
  if (lst === null) return null;
  const head = new Pair(f(lst.car), null);
  let tail = head;
  for (lst = lst.cdr; lst !== null; lst = lst.cdr) {
    tail.cdr = new Pair(f(lst.car), null);
    tail = tail.cdr;
  }
  return head;
}

function reverse(lst) {
  let acc = null;
  for (; lst !== null; lst = lst.cdr) acc = new Pair(lst.car, acc);
  return acc;
}

function append(a, b) {
  if (a === null) return b;
  const head = new Pair(a.car, null);
  let tail = head;
  for (a = a.cdr; a !== null; a = a.cdr) {
    tail.cdr = new Pair(a.car, null);
    tail = tail.cdr;
  }
  tail.cdr = b;
  return head;
}

function d(e, x) {
  if (typeof e === 'number') return 0;
  if (typeof e === 'string') return e === x ? 1 : 0;
  const op = e.car;
  const args = e.cdr;
  switch (op) {
    case '+':
      return new Pair('+', map((a) => d(a, x), args));
    case '-':
      return list('-', d(args.car, x), d(args.cdr.car, x));
    case '*':
      return new Pair('+', productRule(args, x));
    case '/': {
      const u = args.car;
      const v = args.cdr.car;
      return list('/', list('-', list('*', d(u, x), v), list('*', u, d(v, x))), list('expt', v, 2));
    }
    case 'expt': {
      const u = args.car;
      const n = args.cdr.car;
      return list('*', n, list('expt', u, n - 1), d(u, x));
    }
    case 'exp':
      return list('*', e, d(args.car, x));
    case 'log':
      return list('/', d(args.car, x), args.car);
    default:
      throw new Error(`unknown operator ${op}`);
  }
}

function productRule(factors, x) {
  let before = null;
  let terms = null;
  for (let after = factors; after !== null; after = after.cdr) {
    terms = new Pair(new Pair('*', append(reverse(before), new Pair(d(after.car, x), after.cdr))), terms);
    before = new Pair(after.car, before);
  }
  return reverse(terms);
}

function countPairs(e) {
  return e instanceof Pair ? 1 + countPairs(e.car) + countPairs(e.cdr) : 0;
}

function countSymbol(e, s) {
  if (e instanceof Pair) return countSymbol(e.car, s) + countSymbol(e.cdr, s);
  return e === s ? 1 : 0;
}

const expression = fromArray([
  '+', ['*', 3, 'x', 'x', 'x'], ['*', 'a', 'x', 'x'], ['*', 'b', 'x'], 5,
  ['*', ['expt', ['+', 'x', 1], 4], ['exp', ['*', 2, 'x']]],
  ['log', ['+', ['*', 'x', 'x'], 1]],
  ['-', ['*', 'x', 'y', 'z'], ['*', ['expt', 'y', 3], 'x']],
]);

const BENCH_REPEAT = 3000;

function repeatWork(thunk) {
  let result = thunk();
  for (let i = 1; i < BENCH_REPEAT; i++) result = thunk();
  return result;
}

function run() {
  const second = d(d(expression, 'x'), 'x');
  return [countPairs(second), countSymbol(second, 'x'), countSymbol(second, '*')];
}

console.log(repeatWork(run).join(' '));
