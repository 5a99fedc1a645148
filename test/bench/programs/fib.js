// fib: twin of fib.scm — the same doubly recursive Fibonacci on JS numbers.
function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

const BENCH_REPEAT = 2000;

function repeatWork(thunk) {
  let result = thunk();
  for (let i = 1; i < BENCH_REPEAT; i++) result = thunk();
  return result;
}

console.log(String(repeatWork(() => fib(20))));
