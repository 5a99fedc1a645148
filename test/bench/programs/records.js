// records: twin of records.scm — a record type is a class with public fields
// (V8 gives every instance the same hidden class, so a field read is one
// load), the type predicates are instanceof, and the things live in an Array.
class Particle {
  constructor(x, y, vx, vy, hits) {
    this.x = x;
    this.y = y;
    this.vx = vx;
    this.vy = vy;
    this.hits = hits;
  }
}

class Counter {
  constructor(ticks) {
    this.ticks = ticks;
  }
}

const SIZE = 250;

function nextRandom(x) {
  return (x * 48271) % 2147483647;
}

function makeThings(n, seed) {
  const things = new Array(n);
  for (let i = 0; i < n; i++) {
    const s1 = nextRandom(seed);
    const s2 = nextRandom(s1);
    const s3 = nextRandom(s2);
    const s4 = nextRandom(s3);
    things[i] = i % 11 === 0 ? new Counter(0) : new Particle(s1 % SIZE, s2 % SIZE, (s3 % 15) - 7, (s4 % 15) - 7, 0);
    seed = s4;
  }
  return things;
}

function move(p) {
  const x = p.x + p.vx;
  const y = p.y + p.vy;
  if (x < 0) {
    p.x = -x;
    p.vx = -p.vx;
    p.hits += 1;
  } else if (x >= SIZE) {
    p.x = 2 * (SIZE - 1) - x;
    p.vx = -p.vx;
    p.hits += 1;
  } else {
    p.x = x;
  }
  if (y < 0) {
    p.y = -y;
    p.vy = -p.vy;
    p.hits += 1;
  } else if (y >= SIZE) {
    p.y = 2 * (SIZE - 1) - y;
    p.vy = -p.vy;
    p.hits += 1;
  } else {
    p.y = y;
  }
}

function step(things) {
  for (const t of things) {
    if (t instanceof Particle) move(t);
    else if (t instanceof Counter) t.ticks += 1;
  }
}

function summary(things) {
  let hits = 0;
  let checksum = 0;
  let ticks = 0;
  for (const t of things) {
    if (t instanceof Particle) {
      hits += t.hits;
      checksum = (checksum * 31 + t.x + 7 * t.y) % 1000003;
    } else {
      ticks += t.ticks;
    }
  }
  return [hits, checksum, ticks];
}

function simulate(n, steps) {
  const things = makeThings(n, 12345);
  for (let s = 0; s < steps; s++) step(things);
  return summary(things);
}

const BENCH_REPEAT = 20;

function repeatWork(thunk) {
  let result = thunk();
  for (let i = 1; i < BENCH_REPEAT; i++) result = thunk();
  return result;
}

console.log(repeatWork(() => simulate(220, 200)).join(' '));
