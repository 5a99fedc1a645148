// ack: twin of ack.scm — A(3, n) with plain JS recursion. The Scheme tail call
// (ack (- m 1) 1) is an ordinary call here; JS's stack is deep enough for n = 8.
function ack(m, n) {
  if (m === 0) return n + 1;
  if (n === 0) return ack(m - 1, 1);
  return ack(m - 1, ack(m, n - 1));
}

const BENCH_REPEAT = 8;

function repeatWork(thunk) {
  let result = thunk();
  for (let i = 1; i < BENCH_REPEAT; i++) result = thunk();
  return result;
}

console.log(String(repeatWork(() => ack(3, 8))));
