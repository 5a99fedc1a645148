// fact: twin of fact.scm — the same computation with BigInt for the exact
// integers and JS numbers for the per-chunk fixnum digit sums.
function factorial(n) {
  let acc = 1n;
  for (let i = 2n; i <= n; i++) acc *= i;
  return acc;
}

function digitSumOfFixnum(n) {
  let sum = 0;
  for (; n !== 0; n = Math.trunc(n / 10)) sum += n % 10;
  return sum;
}

function digitSum(n) {
  let sum = 0;
  for (; n !== 0n; n /= 1000000n) sum += digitSumOfFixnum(Number(n % 1000000n));
  return sum;
}

const BENCH_REPEAT = 100;

function repeatWork(thunk) {
  let result = thunk();
  for (let i = 1; i < BENCH_REPEAT; i++) result = thunk();
  return result;
}

function run() {
  const f = factorial(1000n);
  return [digitSum(f), f.toString().length, f / factorial(998n) === 1000n * 999n];
}

const [sum, digits, exact] = repeatWork(run);
console.log(`${sum} ${digits} ${exact ? 'exact' : 'inexact'}`);
