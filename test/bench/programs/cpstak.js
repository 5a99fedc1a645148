// cpstak: twin of cpstak.scm — the same continuation-passing tak with JS
// closures. JS has no proper tail calls and in CPS nothing ever returns, so a
// call to a continuation goes through a trampoline instead: the callee stores
// the continuation and its argument and returns BOUNCE, and the driver loop in
// tak() makes the call. Calls to cpsTak stay direct (their depth is bounded by
// x - y). The trampoline allocates nothing.
const BOUNCE = Symbol('bounce');
let pendingK = null;
let pendingValue = 0;

function cpsTak(x, y, z, k) {
  if (y < x) {
    return cpsTak(x - 1, y, z, (a) =>
      cpsTak(y - 1, z, x, (b) =>
        cpsTak(z - 1, x, y, (c) => cpsTak(a, b, c, k))));
  }
  pendingK = k;
  pendingValue = z;
  return BOUNCE;
}

function tak(x, y, z) {
  let result = cpsTak(x, y, z, (value) => value);
  while (result === BOUNCE) result = pendingK(pendingValue);
  return result;
}

const BENCH_REPEAT = 100;

function repeatWork(thunk) {
  let result = thunk();
  for (let i = 1; i < BENCH_REPEAT; i++) result = thunk();
  return result;
}

console.log(String(repeatWork(() => tak(18, 12, 6))));
