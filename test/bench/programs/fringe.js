// fringe: twin of fringe.scm — the leaf generator is a JS generator function
// (the native way to suspend and resume a walk), with the tree as cons cells.
// Where the Scheme walker captures and re-enters a continuation per leaf, a
// nested generator passes each leaf up through yield* at every tree level.
class Pair {
  constructor(car, cdr) {
    this.car = car;
    this.cdr = cdr;
  }
}

function buildTree(lo, hi, num, den) {
  if (hi - lo === 1) return lo;
  const mid = lo + Math.max(1, Math.trunc(((hi - lo) * num) / den));
  return new Pair(buildTree(lo, mid, num, den), buildTree(mid, hi, num, den));
}

function changeLeaf(tree, n) {
  if (tree instanceof Pair) return new Pair(changeLeaf(tree.car, n), changeLeaf(tree.cdr, n));
  return tree === n ? 'changed' : tree;
}

function* walk(t) {
  if (t instanceof Pair) {
    yield* walk(t.car);
    yield* walk(t.cdr);
  } else {
    yield t;
  }
}

function makeLeafGenerator(tree) {
  const leaves = walk(tree);
  return () => {
    const step = leaves.next();
    return step.done ? 'done' : step.value;
  };
}

function sameFringe(a, b) {
  const nextA = makeLeafGenerator(a);
  const nextB = makeLeafGenerator(b);
  for (let count = 0; ; count++) {
    const x = nextA();
    const y = nextB();
    if (x !== y) return -count;
    if (x === 'done') return count;
  }
}

const treeA = buildTree(0, 1000, 1, 2);
const treeB = buildTree(0, 1000, 1, 3);
const treeC = changeLeaf(buildTree(0, 1000, 3, 4), 700);

const BENCH_REPEAT = 75;

function repeatWork(thunk) {
  let result = thunk();
  for (let i = 1; i < BENCH_REPEAT; i++) result = thunk();
  return result;
}

function run() {
  return [sameFringe(treeA, treeB), sameFringe(treeB, treeC), sameFringe(treeC, treeC)];
}

console.log(repeatWork(run).join(' '));
