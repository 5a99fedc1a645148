// dynwind: twin of dynwind.scm — dynamic-wind is before(); try/finally
// after(), and the escape continuation is a JS exception caught by its callcc
// (as in ctak.js). JS cannot re-enter an extent, which this program never does.
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

function dynamicWind(before, thunk, after) {
  before();
  try {
    return thunk();
  } finally {
    after();
  }
}

function windLoop(n) {
  let entries = 0;
  let exits = 0;
  let escapes = 0;
  let sum = 0;
  const enter = () => {
    entries += 1;
  };
  const leave = () => {
    exits += 1;
  };
  for (let i = 0; i < n; i++) {
    const result = callcc((escape) =>
      dynamicWind(
        enter,
        () =>
          dynamicWind(
            enter,
            () => {
              if (i % 5 === 0) {
                escapes += 1;
                escape(-1);
              }
              return dynamicWind(
                enter,
                () => {
                  if (i % 3 === 0) {
                    escapes += 1;
                    return escape(-2);
                  }
                  return i;
                },
                leave,
              );
            },
            leave,
          ),
        leave,
      ),
    );
    sum += result;
  }
  return [entries, exits, escapes, sum];
}

const BENCH_REPEAT = 120;

function repeatWork(thunk) {
  let result = thunk();
  for (let i = 1; i < BENCH_REPEAT; i++) result = thunk();
  return result;
}

console.log(repeatWork(() => windLoop(2000)).join(' '));
