// macros: twin of macros.scm — the code the Scheme macros expand to, written
// directly (JS has no macros): while, for, counters, swap, and/or, and a
// switch where my-case tests membership with memv.
function collatzSteps(n) {
  let steps = 0;
  while (n > 1) {
    if (n % 2 === 0) n = Math.trunc(n / 2);
    else n = 3 * n + 1;
    steps += 1;
  }
  return steps;
}

function gcdBySwapping(a, b) {
  while (b > 0) {
    a = a % b;
    const tmp = a;
    a = b;
    b = tmp;
  }
  return a;
}

function run(n) {
  let total = 0;
  let longest = 0;
  let coprime = 0;
  let classes = 0;
  for (let i = 1; i < n; i++) {
    const steps = collatzSteps(i);
    const g = gcdBySwapping(i, steps + 1);
    total += steps;
    longest = Math.max(longest, steps);
    if (g === 1 && (i % 2 === 1 || steps > 50)) coprime += 1;
    switch (i % 6) {
      case 0:
        classes += 1;
        break;
      case 1:
      case 5:
        classes += 2;
        break;
      case 2:
      case 4:
        classes += 3;
        break;
      default:
        classes += 4;
    }
  }
  for (let i = 0; i < n; i += 7) classes += (i % 2 === 0 && 1) || 2;
  return [total, longest, coprime, classes];
}

const BENCH_REPEAT = 100;

function repeatWork(thunk) {
  let result = thunk();
  for (let i = 1; i < BENCH_REPEAT; i++) result = thunk();
  return result;
}

console.log(repeatWork(() => run(2000)).join(' '));
