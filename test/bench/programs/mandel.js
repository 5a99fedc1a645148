// mandel: twin of mandel.scm — the same grid and iteration on JS doubles, in
// the same operation order (so the same rounding and the same count).
function mandelbrotCount(width, height, maxIterations) {
  const dx = 3.0 / width;
  const dy = 2.0 / height;
  let count = 0;
  for (let y = 0; y < height; y++) {
    const ci = y * dy - 1.0;
    for (let x = 0; x < width; x++) {
      const cr = x * dx - 2.0;
      let zr = 0.0;
      let zi = 0.0;
      let i = 0;
      for (;;) {
        if (i === maxIterations) {
          count += 1;
          break;
        }
        if (zr * zr + zi * zi > 4.0) break;
        const nextZr = zr * zr - zi * zi + cr;
        zi = 2.0 * zr * zi + ci;
        zr = nextZr;
        i += 1;
      }
    }
  }
  return count;
}

const BENCH_REPEAT = 120;

function repeatWork(thunk) {
  let result = thunk();
  for (let i = 1; i < BENCH_REPEAT; i++) result = thunk();
  return result;
}

console.log(String(repeatWork(() => mandelbrotCount(120, 80, 100))));
