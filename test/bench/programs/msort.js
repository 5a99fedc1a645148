// msort: twin of msort.scm — the same merge sort over cons cells (a small
// Pair class, as a JS host would represent Scheme pairs), not over an array.
// The two results of split are returned as a two-element array where Scheme
// uses (values left right).
class Pair {
  constructor(car, cdr) {
    this.car = car;
    this.cdr = cdr;
  }
}

function randomList(n, seed) {
  let acc = null;
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 48271) % 2147483647;
    acc = new Pair(x, acc);
  }
  return acc;
}

function split(lst) {
  let left = null;
  let right = null;
  for (;;) {
    if (lst === null) return [left, right];
    if (lst.cdr === null) return [new Pair(lst.car, left), right];
    left = new Pair(lst.car, left);
    right = new Pair(lst.cdr.car, right);
    lst = lst.cdr.cdr;
  }
}

function appendReverse(rev, tail) {
  for (; rev !== null; rev = rev.cdr) tail = new Pair(rev.car, tail);
  return tail;
}

function merge(a, b) {
  let acc = null;
  for (;;) {
    if (a === null) return appendReverse(acc, b);
    if (b === null) return appendReverse(acc, a);
    if (b.car < a.car) {
      acc = new Pair(b.car, acc);
      b = b.cdr;
    } else {
      acc = new Pair(a.car, acc);
      a = a.cdr;
    }
  }
}

function mergeSort(lst) {
  if (lst === null || lst.cdr === null) return lst;
  const [left, right] = split(lst);
  return merge(mergeSort(left), mergeSort(right));
}

function summary(sorted) {
  let i = 0;
  let sum = 0;
  let last = 0;
  for (let lst = sorted; lst !== null; lst = lst.cdr) {
    i += 1;
    sum = (sum * 31 + (lst.car % 1000003)) % 1000003;
    last = lst.car;
  }
  return [i, sorted.car % 10000, last, sum];
}

function isSorted(lst) {
  for (; lst !== null && lst.cdr !== null; lst = lst.cdr) {
    if (!(lst.car <= lst.cdr.car)) return false;
  }
  return true;
}

const BENCH_REPEAT = 150;

function repeatWork(thunk) {
  let result = thunk();
  for (let i = 1; i < BENCH_REPEAT; i++) result = thunk();
  return result;
}

function run() {
  const sorted = mergeSort(randomList(2000, 12345));
  return isSorted(sorted) ? summary(sorted) : 'not-sorted';
}

const result = repeatWork(run);
console.log(Array.isArray(result) ? result.join(' ') : result);
