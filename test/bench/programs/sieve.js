// sieve: twin of sieve.scm — the same sieve over a plain JS Array of booleans
// (the counterpart of a Scheme vector; a typed array would be faster still).
function sieve(n) {
  const composite = new Array(n).fill(false);
  for (let i = 2; i * i < n; i++) {
    if (!composite[i]) {
      for (let j = i * i; j < n; j += i) composite[j] = true;
    }
  }
  let primes = 0;
  let sum = 0;
  for (let i = 2; i < n; i++) {
    if (!composite[i]) {
      primes += 1;
      sum = (sum + i) % 1000003;
    }
  }
  return [primes, sum];
}

const BENCH_REPEAT = 120;

function repeatWork(thunk) {
  let result = thunk();
  for (let i = 1; i < BENCH_REPEAT; i++) result = thunk();
  return result;
}

console.log(repeatWork(() => sieve(100000)).join(' '));
