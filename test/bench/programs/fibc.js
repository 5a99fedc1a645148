// fibc: twin of fibc.scm — as in ctak.js, an escaping continuation is a JS
// exception caught by the callcc that created it (a plain return would also
// do here, since every k is invoked in tail position).
class Escape {
  constructor(k, value) {
    this.k = k;
    this.value = value;
  }
}

function callcc(receiver) {
  const k = (value) => {
    throw new Escape(k, value);
  };
  try {
    return receiver(k);
  } catch (e) {
    if (e instanceof Escape && e.k === k) return e.value;
    throw e;
  }
}

function fibc(n, k) {
  if (n < 2) return k(n);
  return k(callcc((c) => fibc(n - 1, c)) + callcc((c) => fibc(n - 2, c)));
}

function fib(n) {
  return callcc((k) => fibc(n, k));
}

const BENCH_REPEAT = 16;

function repeatWork(thunk) {
  let result = thunk();
  for (let i = 1; i < BENCH_REPEAT; i++) result = thunk();
  return result;
}

console.log(String(repeatWork(() => fib(20))));
