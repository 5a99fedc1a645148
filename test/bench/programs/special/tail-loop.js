// tail-loop: twin of tail-loop.scm — the tail-recursive loop as a JS loop.
const BENCH_REPEAT = 10000000;

function countDown(n, acc) {
  for (;;) {
    if (n === 0) return acc === BENCH_REPEAT ? 'done' : 'wrong';
    n -= 1;
    acc += 1;
  }
}

console.log(countDown(BENCH_REPEAT, 0));
