// ctak: twin of ctak.scm — a continuation that is only used to escape is a JS
// exception: callcc gives the receiver a k that throws an Escape carrying k and
// the value, and the callcc that made k catches it (the Escape is not an Error,
// so no stack trace is captured). Every escape here happens to leave a chain of
// tail calls, so a plain return would also do; the exception is the general
// one-shot escape a JS host has.
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

function ctak(x, y, z) {
  return callcc((k) => ctakAux(k, x, y, z));
}

function ctakAux(k, x, y, z) {
  if (y < x) {
    return ctakAux(
      k,
      callcc((k) => ctakAux(k, x - 1, y, z)),
      callcc((k) => ctakAux(k, y - 1, z, x)),
      callcc((k) => ctakAux(k, z - 1, x, y)),
    );
  }
  return k(z);
}

const BENCH_REPEAT = 12;

function repeatWork(thunk) {
  let result = thunk();
  for (let i = 1; i < BENCH_REPEAT; i++) result = thunk();
  return result;
}

console.log(String(repeatWork(() => ctak(15, 10, 5))));
