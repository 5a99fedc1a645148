// tak: twin of tak.scm — Takeuchi's function on JS numbers.
function tak(x, y, z) {
  return y < x ? tak(tak(x - 1, y, z), tak(y - 1, z, x), tak(z - 1, x, y)) : z;
}

const BENCH_REPEAT = 500;

function repeatWork(thunk) {
  let result = thunk();
  for (let i = 1; i < BENCH_REPEAT; i++) result = thunk();
  return result;
}

console.log(String(repeatWork(() => tak(18, 12, 6))));
